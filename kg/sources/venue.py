"""Venues and status words of publication entries: ``[NSDI '24] USENIX Symposium ...``,
``Accepted at *Journal*``, ``J. Chem. Phys. 128, 244102``, ``arXiv:2102.01168``.

Status phrases come from ``kg/words/status-words.txt``.
"""

from __future__ import annotations

import re
from functools import cache

from kg.records import VenueRef
from kg.sources.text import is_place, short_year, years_in
from kg.words import alternation, word_list

VENUE_TAG = re.compile(r"^\[(?P<tag>[^\]]+)\]\s*(?P<rest>.*)$")
# "ACM ASPLOS 2025: Title", "NeurIPS 2023: Title": a venue and year printed before the title.
# The acronym's second capital is the first after its first one ([a-z]*, not [A-Za-z]*): the same words,
# and a long word of capitals is read once rather than cut every way.
VENUE_TITLE = re.compile(r"^(?:[A-Z][\w&-]*\s+){0,2}?(?P<acro>[A-Z][a-z]*[A-Z][A-Za-z-]*)\s+(?P<year>(?:19|20)\d\d)"
                         r"\s*:\s*(?P<title>.+)$")
# Where the venue's name ends: volume, issue, pages, article numbers, a date.
_TAIL = re.compile(r"(?:,\s*|\s+)(?:vol\.|volume\b|no\.|issue\b|pp\.|pages?\b|art\.|article\b|e\d{3,}\b|S\.\s*\d)"
                   r"|,\s*\d|\s\d+\s*(?:\(|,|:|$)|\s\d+[-–]\d+|[.;]\s*(?:19|20)\d\d\b|,?\s*(?:doi|https?)[:\s]", re.I)


@cache
def status_phrases() -> list[tuple[str, str]]:
    """(phrase, status) pairs, longest phrase first."""
    pairs = []
    for line in word_list("status-words"):
        phrase, _, status = line.partition("=")
        pairs.append((phrase.strip(), status.strip()))
    return sorted(pairs, key=lambda p: -len(p[0]))


@cache
def _status_patterns() -> tuple[re.Pattern, re.Pattern, dict[str, str]]:
    phrases = status_phrases()
    alt = "|".join(re.escape(p) for p, _ in phrases)
    anywhere = re.compile(rf"(?<![\w-])(?:{alt})(?![\w-])", re.I)
    leading = re.compile(rf"^[\[(]?(?:{alt})[\])]?(?![\w-])[\s:,.]*", re.I)
    return anywhere, leading, dict(phrases)


def find_status(text: str) -> tuple[str | None, int, int]:
    """The status the first status phrase in *text* gives, with the phrase's span."""
    anywhere, _, status_of = _status_patterns()
    m = anywhere.search(text)
    return (status_of[m.group(0).lower()], m.start(), m.end()) if m else (None, -1, -1)


_PHRASE_END = re.compile(r"[\s:,.\[\]()]+$")
_TRAILING_BRACKETS = re.compile(r"\s*[\[(]([^()\[\]]+)[\])]\.?$")


def strip_status(text: str) -> tuple[str, str | None]:
    """``"Accepted at Journal X"`` -> ``("Journal X", "published")``; also a trailing ``(submitted)``."""
    _, leading, status_of = _status_patterns()
    status = None
    t = text.strip(" .,;")
    m = leading.match(t)
    if m:
        phrase = _PHRASE_END.sub("", m.group(0)).strip("[(").lower()
        status, t = status_of.get(phrase), t[m.end():]
    m = _TRAILING_BRACKETS.search(t)
    if m and m.group(1).strip(" .").lower() in status_of:
        status, t = status or status_of[m.group(1).strip(" .").lower()], t[: m.start()]
    return t.strip(" .,;"), status


_LAST_WORD = re.compile(r"(\w+)\.$")
_ABBREVIATION = re.compile(r"[A-Z][a-z]{0,5}|[A-Z]+")


def venue_name_end(text: str) -> str:
    """The venue's name without the volume, pages and place that follow it.

    >>> venue_name_end("Cerebral Cortex, 1-11"), venue_name_end("J. Chem. Phys. 128, 244102")
    ('Cerebral Cortex', 'J. Chem. Phys.')
    """
    m = _TAIL.search(text)
    name = text[: m.start()] if m and m.start() > 0 else text
    parts = [p.strip() for p in name.split(",")]
    while len(parts) > 1 and is_place(", ".join(parts[-2:]) if len(parts) > 1 else parts[-1]) or (
            len(parts) > 1 and is_place(parts[-1])):
        parts.pop()
    name = ", ".join(parts).strip(" ,;:")
    last = _LAST_WORD.search(name)
    if last and not _ABBREVIATION.fullmatch(last.group(1)):
        name = name[:-1]  # a sentence's period, not an abbreviation's ("J. Chem. Phys.")
    return name


_ARXIV = re.compile(r"arxiv", re.I)
_TRAILING_YEAR = re.compile(r"\s*(?:['’]\d\d|(?:19|20)\d\d)\s*$")
_NO_VENUE_NAMED = re.compile(r"(?:an?\s+)?(?:conference|journal|venue)?", re.I)

#: A venue that begins with a preprint server's name (``server``: kg/words/preprint-servers.txt), or
#: with a name that is one only as the whole venue (``whole``: preprint-venue-names.txt), then followed
#: by nothing but an id or a year: "CoRR abs/2101.00001", not "Corr. Sci.", the journal.
PREPRINT_SERVER = re.compile(rf"^(?:(?P<server>{alternation(word_list('preprint-servers'), any_space=True)})\b"
                             rf"|(?P<whole>{alternation(word_list('preprint-venue-names'), any_space=True)})"
                             r"(?=\s*$|\s*[^\w\s.]|\s+\d))", re.I)
_ARXIV_NUMBER = re.compile(r"\d{4}\.\d{4,5}")
_FIRST_WORD = re.compile(r"^\w+")
_TRAILING_PAREN = re.compile(r"\s*\(([^()]*)\)\s*$")
_ACRONYM = re.compile(r"[A-Z][a-z]*[A-Z][A-Za-z-]*")
_WORD_WITH_CAPITAL = re.compile(r"[A-Za-z]*[A-Z][A-Za-z-]*")
_PROCEEDINGS_OF = re.compile(r"^(?:In:?\s+)?(?:Proceedings of\s+)?(?:the\s+)?(?:\d+(?:st|nd|rd|th)\s+)?", re.I)
_FINAL_YEAR = re.compile(r",?\s*((?:19|20)\d\d)$")


def parse_venue(text: str) -> tuple[VenueRef | None, str | None, str | None]:
    """Venue, year and status from a venue line.

    >>> parse_venue("[NSDI '24] USENIX Symposium on Networked Systems Design and Implementation")
    (VenueRef(name='USENIX Symposium on Networked Systems Design and Implementation', acronym='NSDI'), '2024', None)
    >>> parse_venue("Principles and Practice of Parallel Programming (PPoPP 2024)")
    (VenueRef(name='Principles and Practice of Parallel Programming', acronym='PPoPP'), '2024', None)
    >>> parse_venue("[Preprint] Submitted to a Conference")
    (None, None, 'under review')
    >>> parse_venue("arXiv:2102.01168, 2021")
    (VenueRef(name='arXiv', acronym=None), '2021', 'preprint')
    """
    text = text.strip(" .")
    acronym = year = status = None
    m = VENUE_TAG.match(text)
    if m:
        tag, text = m.group("tag").strip(), m.group("rest").strip(" .")
        tag_text, tag_status = strip_status(tag)
        if tag_status or _ARXIV.fullmatch(tag):
            status = tag_status or "preprint"
        else:
            year = short_year(tag) or (years_in(tag) or [None])[0]
            acronym = _TRAILING_YEAR.sub("", tag).strip() or None
    text, phrase_status = strip_status(text)
    if phrase_status:
        status = phrase_status
        if _NO_VENUE_NAMED.fullmatch(text):
            return (VenueRef(None, acronym) if acronym else None), year, status
    server = PREPRINT_SERVER.match(text)
    if server:
        found = years_in(_ARXIV_NUMBER.sub("", text))  # not the arXiv number "2010.05153"
        name = server.group("server") or _FIRST_WORD.match(text).group(0)  # "CoRR" of "CoRR abs"
        return VenueRef(" ".join(name.split())), year or (found[-1] if found else None), "preprint"
    paren = _TRAILING_PAREN.search(text)
    if paren:
        inner = paren.group(1).strip()
        found_year = years_in(inner) or ([short_year(inner)] if short_year(inner) else [])
        word = _TRAILING_YEAR.sub("", inner).strip()
        if found_year or _ACRONYM.fullmatch(word):  # as VENUE_TITLE's acronym
            year = year or (found_year[0] if found_year else None)
            if _WORD_WITH_CAPITAL.fullmatch(word) and " " not in word and word:
                acronym = acronym or word
            text = text[: paren.start()].strip()
    text = _PROCEEDINGS_OF.sub("", text)
    trailing = _FINAL_YEAR.search(text)
    if trailing:
        year = year or trailing.group(1)
        text = text[: trailing.start()]
    text = text.strip(" ,.")
    if not text and not acronym:
        return None, year, status
    return VenueRef(text or None, acronym), year, status
