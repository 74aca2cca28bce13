"""What the bibliographic readers share (BibTeX, RIS, CSL-JSON, ORCID, dblp, OpenAlex/Crossref):
names turned from ``Family, Given``, marks taken off names, a type mapped to kind and status, the
status a venue implies, and the owner of a file that names none (the author of most entries).

>>> turn_name("Curie, Marie"), turn_name("Doe, J.-P."), turn_name("Marie Curie")
('Marie Curie', 'J.-P. Doe', 'Marie Curie')
>>> kind_and_status("phdthesis"), kind_and_status("JOUR"), kind_and_status("posted_content")
(('thesis', None), ('article', None), ('article', 'preprint'))
>>> status_in("arXiv preprint arXiv:2101.00001"), status_in("Submitted to Nature"), status_in("ICML")
('preprint', 'under review', None)
>>> status_in("CoRR"), status_in("Corr. Sci.")
('preprint', None)
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from functools import cache

from unidecode import unidecode

from kg.records import Author, Profile, Skip, Span, Work
from kg.words import word_list

# Marks printed after (or before) a name: equal contribution (*, †), corresponding author, advisee.
_MARKS = re.compile(r"\^\s*\{?[\w,*†‡§¶#]+\}?|\(\s*[*†‡§¶#]+\s*\)|[*†‡§¶#∗]+")
_EQUAL_MARKS = set("*†∗")


def clean_mark(printed: str) -> tuple[str, bool]:
    """A name with the marks printed on it removed, and whether one of them marks equal contribution.

    >>> clean_mark("Jane Doe*"), clean_mark("Jane Doe^†"), clean_mark("Jane Doe")
    (('Jane Doe', True), ('Jane Doe', True), ('Jane Doe', False))
    """
    marks = "".join(m.group(0) for m in _MARKS.finditer(printed))
    name = _MARKS.sub(" ", printed)
    return " ".join(name.split()).strip(" ,;"), any(c in _EQUAL_MARKS for c in marks)


def turn_name(printed: str) -> str:
    """``"Family, Given"`` as ``"Given Family"`` (``"Family, Jr., Given"`` as ``"Given Family Jr."``);
    any other name as printed. Initials are kept as printed; whitespace is normalised."""
    parts = [p.strip() for p in printed.split(",")]
    if len(parts) == 2 and all(parts):
        return " ".join(f"{parts[1]} {parts[0]}".split())
    if len(parts) == 3 and all(parts):
        return " ".join(f"{parts[2]} {parts[0]} {parts[1]}".split())
    return " ".join(printed.split())


def author(printed: str, et_al_follows: bool = False) -> Author | None:
    """An :class:`Author` from a printed name (marks removed and noted, ``Family, Given`` turned);
    None when nothing of a name is left."""
    name, equal = clean_mark(printed)
    name = turn_name(name)
    if not any(ch.isalpha() for ch in name):
        return None
    return Author(printed=printed.strip(), name=name, equal_contribution=equal, et_al_follows=et_al_follows)


def mark_et_al(authors: list[Author]) -> None:
    """Mark the last author as followed by "et al." / "and others"."""
    if authors:
        authors[-1] = replace(authors[-1], et_al_follows=True)


@cache
def _type_table() -> dict[str, tuple[str, str | None]]:
    table = {}
    for entry in word_list("work-types"):
        words = entry.split()
        table[words[0]] = (words[1], words[2].replace("-", " ") if len(words) > 2 else None)
    return table


def kind_and_status(type_name: str | None) -> tuple[str, str | None]:
    """The kind a format's work type names and, where the type says it, the status (else None).
    Unknown types are ``other``."""
    key = re.sub(r"[\s_]+", "-", (type_name or "").strip().lower())
    return _type_table().get(key, ("other", None))


@cache
def _words_pattern(name: str) -> re.Pattern:
    words = sorted(word_list(name), key=len, reverse=True)
    return re.compile(r"(?<![\w])(?:" + "|".join(re.escape(w) for w in words) + r")(?![\w])", re.I)


def status_in(*texts: str | None) -> str | None:
    """``preprint`` or ``under review`` when one of *texts* (a venue, a note) says so, else None."""
    text = " ".join(t for t in texts if t)
    if not text:
        return None
    if _words_pattern("under-review-words").search(text):
        return "under review"
    if _words_pattern("preprint-venues").search(text):
        return "preprint"
    if any(" ".join(t.lower().split()) in word_list("preprint-venue-names") for t in texts if t):
        return "preprint"
    return None


def year_in(text: str | None) -> str | None:
    """The first plausible four-digit year in *text*."""
    m = re.search(r"(?<!\d)(1[5-9]\d\d|2[01]\d\d)(?!\d)", text or "")
    return m.group(1) if m else None


def clean_doi(raw: str | None) -> str | None:
    """A DOI without its resolver prefix: ``https://doi.org/10.1/x`` -> ``10.1/x``."""
    if not raw:
        return None
    m = re.search(r"10\.\d{4,9}/\S+", raw)
    return m.group(0).rstrip(".,;") if m else None


def is_garbage_title(title: str) -> str | None:
    """Why *title* cannot be a work's title (no letters, only a URL), or None when it can."""
    if not any(ch.isalpha() for ch in title):
        return "its title has no letters"
    if re.fullmatch(r"(?:https?://|www\.|doi:)\S*", title.strip(), re.I):
        return "its title is only a link"
    return None


# --- the owner of a file that names none --------------------------------------------------

def name_key(name: str) -> tuple[str, str]:
    """Family name and first initial, accents and case folded: the same person printed as
    ``Tian-Hua Liao``, ``Liao, Tianhua`` or ``T. Liao`` has one key.

    >>> name_key("Miśkiewicz, R.") == name_key("RADOSŁAW MIŚKIEWICZ") == name_key("Radoslaw M. Miskiewicz")
    True
    """
    words = re.findall(r"[^\W\d_]+", unidecode(turn_name(name)).lower())
    if not words:
        return ("", "")
    return (words[-1], words[0][0] if len(words) > 1 else "")


def _fullness(name: str, count: int) -> tuple:
    given = name.split()[:-1]
    initials_only = all(len(w.strip(".-")) <= 1 or re.fullmatch(r"(?:\w\.)+-?", w) for w in given)
    shouting = name.isupper()
    return (not initials_only, not shouting, count, sum(not ch.isascii() for ch in name), len(name))


def majority_owner(works: list[Work], document: str, *, share: float = 0.6, least: int = 3) -> Profile | None:
    """The person among the authors of at least *share* of the works (and at least *least* works):
    a CV bibliography or a personal site's publication list. Printed in its fullest form (full given
    names over initials, as most often printed, accents kept)."""
    with_authors = [w for w in works if w.authors]
    if len(with_authors) < least:
        return None
    per_key: Counter = Counter()
    printed: dict[tuple[str, str], Counter] = {}
    first_span: dict[tuple[str, str], Span] = {}
    for work in with_authors:
        keys = set()
        for a in work.authors:
            key = name_key(a.name)
            if key[0]:
                keys.add(key)
                printed.setdefault(key, Counter())[a.name] += 1
                first_span.setdefault(key, work.span)
        per_key.update(keys)
    if not per_key:
        return None
    key, count = per_key.most_common(1)[0]
    if count < max(least, share * len(with_authors)):
        return None
    name = max(printed[key].items(), key=lambda item: _fullness(*item))[0]
    span = first_span[key]
    return Profile(name=name, span=Span(document, span.first_line, span.last_line, span.place))


# --- JSON and XML, read safely ------------------------------------------------------------

def load_json(text: str, document: str):
    """The JSON value of *text*, or a :class:`Skip` naming the line and column where it breaks."""
    import json

    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        return Skip(Span(document, err.lineno, err.lineno),
                    f"not valid JSON: {err.msg} at line {err.lineno}, column {err.colno}; fix the file or export it again")
    except RecursionError:
        return Skip(Span(document, 1, 1), "JSON nested too deeply to read; not read")


def parse_xml(data: bytes, document: str):
    """The root element of XML *data*, read without expanding entities, loading DTDs or touching
    the network; or a :class:`Skip` naming the line where the XML breaks."""
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, load_dtd=False,
                             remove_comments=True, remove_pis=True)
    try:
        root = etree.fromstring(data, parser=parser)
    except etree.XMLSyntaxError as err:
        line = err.lineno or 1
        return Skip(Span(document, line, line), f"not well-formed XML: {err.msg}; fix the file or export it again")
    if root is None:
        return Skip(Span(document, 1, 1), "no XML element found; check the file")
    return root


def local_name(element) -> str:
    """An XML element's tag without its namespace (``{ns}title`` -> ``title``); '' for entities."""
    tag = element.tag
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def xml_text(element) -> str:
    """An element's text with its inline markup's text, whitespace normalised; entity references
    are left out (they are never expanded).

    >>> from lxml import etree
    >>> xml_text(etree.fromstring("<title>Ranking <i>Toy</i>\\n Documents</title>"))
    'Ranking Toy Documents'
    """
    if element is None:
        return ""
    return " ".join("".join(_texts(element, [])).split())


def _texts(element, out: list[str]) -> list[str]:
    if isinstance(element.tag, str) and element.text:
        out.append(element.text)
    for child in element:
        if isinstance(child.tag, str):
            _texts(child, out)
        if child.tail:
            out.append(child.tail)
    return out


class LineFinder:
    """Lines of JSON items, found by the text of a field of each item in file order (``json``
    keeps no positions). Each search starts where the last one matched, so the whole file is
    scanned about once; after a few misses (text escaped another way) it stops looking."""

    MISSES = 20

    def __init__(self, text: str):
        self.text = text
        self.at = 0
        self.line = 1
        self.misses = 0

    def line_of(self, value: str | None) -> int | None:
        import json

        if not value or self.misses >= self.MISSES:
            return None
        for form in (json.dumps(value, ensure_ascii=False), json.dumps(value)):
            found = self.text.find(form, self.at)
            if found >= 0:
                self.line += self.text.count("\n", self.at, found)
                self.at = found + len(form)
                return self.line
        self.misses += 1
        return None

    def span(self, document: str, value: str | None, place: str) -> Span:
        line = self.line_of(value) or 1
        return Span(document, line, line, place)
