"""The text layer of a publication entry: its lines cleaned of numbering and trailing links, and
wrapped lines joined. :mod:`kg.sources.reference_blocks` then cuts each line into blocks.
"""

from __future__ import annotations

import re
from functools import cache

from kg.sources.markup import links_in, strip_markup
from kg.sources.venue import VENUE_TAG
from kg.words import alternation, word_list

_NUMBER = re.compile(r"^\s*(?:#{1,6}\s*)?(?:[-*+•]\s+)?(?:\[\d{1,3}\]|\(\d{1,3}\)|\d{1,3}[.)](?!\d))?\s*")
_FUNCTION_END = re.compile(r"\b(?:and|of|the|a|an|in|on|for|to|with|by|from|at|&)$", re.I)


@cache
def _link_labels() -> re.Pattern:
    labels = alternation(word_list("link-labels"))
    return re.compile(rf"\[\s*\\?\[?\s*(?:{labels})\s*\\?\]?\s*\]\([^)]*\)|\[\s*(?:{labels})\s*\]", re.I)


def _unmatched_closing(text: str) -> str:
    """Drop each ``]`` that closes nothing (the outer bracket of a removed ``[[pdf](...)]``)."""
    if "]" not in text:
        return text
    out, depth, last = [], 0, 0
    for m in _BRACKET.finditer(text):  # only the brackets are looked at
        if m.group() == "[":
            depth += 1
        elif depth:
            depth -= 1
        else:
            out.append(text[last:m.start()])
            last = m.end()
    out.append(text[last:])
    return "".join(out)


_BRACKET = re.compile(r"[\[\]]")
_EMPTY_BRACKETS = re.compile(r"\[\s*\]")
_DOI_LINK = re.compile(r"\[\s*\\?\[?\s*(10\.\d{4,}/[^\]]*?)\s*\\?\]?\s*\]\([^)]*\)")
_DOI = re.compile(r"\bDOI:?\s*<?https?://\S+>?|\bdoi:\s*10\.\S+|<https?://[^>]+>", re.I)
_BARE_URL = re.compile(r"(?<![(<\"'=])\bhttps?://[^\s<>\"')\]]+")
_BOLD_NOTE = re.compile(r"\(\s*\*\*([^*]+)\*\*\s*\)\s*$")
_AWARD_NOTE = re.compile(r"award|prize|best|finalist|honou?rable", re.I)
_LEFTOVER = re.compile(r"<font[^>]*>|</font>|\[\s*\]|\(\s*\)")


def clean_entry_line(line: str, ref, first: bool = True) -> str:
    """A line without its list number (on an entry's *first* line), trailing link labels
    (``[[pdf](...)]``), DOIs and URLs; the DOI and first URL go to *ref*."""
    text = line.replace("\u00a0", " ").replace("\t", " ")
    if first:
        text = _NUMBER.sub("", text, count=1)
    for url in links_in(text):
        if "doi.org/" in url and not ref.doi:
            ref.doi = url.split("doi.org/", 1)[1]
    # Each step below only where the characters its pattern needs are there.
    if "[" in text:
        text = _link_labels().sub("", text)
        text = _EMPTY_BRACKETS.sub("", text)
    text = _unmatched_closing(text).rstrip()  # brackets left around removed links
    if "[" in text:
        text = _DOI_LINK.sub("", text)  # [10.1/x](doi link)
    if ":" in text:
        text = _DOI.sub("", text)
    if "://" in text:
        urls = _BARE_URL.findall(text)
        if urls and not ref.url:
            ref.url = urls[0]
        text = _BARE_URL.sub("", text)
    # A bold note in brackets at the end: an award, or a nickname such as (**GPT**).
    note = _BOLD_NOTE.search(text) if "**" in text else None
    if note:
        if _AWARD_NOTE.search(note.group(1)):
            ref.recognitions.append(strip_markup(note.group(1)))
        text = text[: note.start()]
    if "(" in text or "[" in text or "<" in text:
        text = _TRANSLATOR.sub("", _LEFTOVER.sub("", text))  # "J. Doe (translator)": the name is the person credited
    if "**" in text or "__" in text:
        text = _OWNER_FAMILY_BOLD.sub(r"\1\2, \3\1", text)
    return text.rstrip()


_TRANSLATOR = re.compile(r"\s*\((?:translator|translated|trans\.?|tr\.)\)", re.I)
# "**Doe**, J. A." (only the family name emphasised) -> "**Doe, J. A.**": the mark then wraps one
# whole name, as in "**J. A. Doe**", and does not cut the author list in two.
_OWNER_FAMILY_BOLD = re.compile(r"(\*\*|__)([A-Z][^\W\d_]*(?:[-' ][A-Z][^\W\d_]*)?)\1,\s*"
                                r"([A-Z]\.(?:\s?-?[A-Z]\.)*)(?=\s*(?:,|and\b|&|\(|$))")


def _mend_bold(line: str) -> str:
    """``"Title**"`` (bold closed but never opened) -> ``"**Title**"``."""
    s = line.strip()
    if s.count("**") % 2 == 1:
        if s.endswith("**") and not s.startswith("**"):
            return "**" + s
        if s.startswith("**"):
            return s + "**"
    return s


def _unbalanced(text: str) -> bool:
    # An italic opened and not closed on the line ("... *A title that wraps"); a "Doe*" mark is no opening.
    return "*" in text and bool(_OPEN_ITALIC.search(text)) or (
        text.count("**") % 2 == 1 or text.count("“") > text.count("”")
        or text.count("[") > text.count("]") or text.count("(") > text.count(")")
            or '"' in text and len(_STRAIGHT_QUOTE.findall(text)) % 2 == 1)


_OPEN_ITALIC = re.compile(r"(?:^|\s)\*(?![*\s])[^*]*$")
_STRAIGHT_QUOTE = re.compile(r'(?<![\w\\])"|"(?!\w)')
_WHOLLY_STYLED = re.compile(r"\*\*[^*]+\*\*|\*[^*]+\*|_[^_]+_|<(b|strong|i|em)>.*</\1>")
#: A line that is a year alone: "2020", "(2020)."
LONE_YEAR = re.compile(r"\(?(?:19|20)\d\d\)?\.?")
_LABEL = re.compile(r"^[A-Z]\w*(?: \w+){0,2}:\s")
_IN_LABEL = re.compile(r"^in:", re.I)
_AUTHOR_ROLE = re.compile(r"^(?:co-?)?(?:first|second|third|last|sole|corresponding)[- ]author\b", re.I)
_AWARD_WORD = re.compile(r"\baward\b", re.I)
_SOFT_END = re.compile(r"[,;:&\-–]$")
_BROKEN_WORD = re.compile(r"\w-$")


def _wholly_styled(text: str) -> bool:
    s = text.strip()
    return bool(_WHOLLY_STYLED.fullmatch(s))


def is_field_label(text: str) -> bool:
    """Whether *text* begins with a label of a field of its own ("Featured in: ..."), not a venue's "In:".

    >>> is_field_label("Featured in: Nature News"), is_field_label("In: Proc. of Tests")
    (True, False)
    """
    return bool(_LABEL.match(text)) and not _IN_LABEL.match(text)


def _starts_field(plain: str) -> bool:
    """A line that begins a field of its own: a venue tag, a bare year, a label such as "Featured in:"."""
    return bool(VENUE_TAG.match(plain) or LONE_YEAR.fullmatch(plain) or is_field_label(plain)
                or _AUTHOR_ROLE.match(plain)
                or _AWARD_WORD.search(plain) and len(plain.split()) <= 8)


def join_wrapped(lines: list[str], split_lines: bool | None) -> list[str]:
    """Logical lines of an entry: wrapped lines joined, field lines kept apart."""
    lines = [_mend_bold(line) for line in lines]
    if split_lines is not None or len(lines) < 2:
        return lines if split_lines or len(lines) < 2 else [" ".join(lines)]
    plains = [strip_markup(line) for line in lines]
    width = max(len(p) for p in plains)
    out = [lines[0]]
    for prev_plain, line, plain in zip(plains[:-1], lines[1:], plains[1:], strict=True):
        prev = out[-1]
        unbalanced, wholly_styled, starts_field = _unbalanced(prev), _wholly_styled(prev), _starts_field(plain)
        # Both patterns end at "$" (before a final newline, if any): the last six characters hold any match.
        soft = unbalanced or _SOFT_END.search(prev_plain[-6:]) or _FUNCTION_END.search(prev_plain[-6:]) \
            or plain[:1].islower() or (plain[:1].isdigit() and not starts_field)
        near_width = width >= 60 and len(prev_plain) >= 0.85 * width
        if not soft and near_width and not wholly_styled and not starts_field:
            soft = True
        if wholly_styled and not unbalanced or starts_field and not unbalanced:
            soft = False
        if soft:  # "QH-" / "POCC": a word broken at its own hyphen is one word again
            glue = "" if _BROKEN_WORD.search(prev.rstrip()) else " "
            out[-1] = prev.rstrip() + glue + line.strip()
        else:
            out.append(line)
    return out


