"""The text layer of a publication entry: its lines cleaned of numbering and trailing links,
wrapped lines joined, and each line cut into blocks of one style (quoted, bold, italic, linked,
plain) at parenthesised years and sentence ends. :mod:`kg.sources.reference` labels the blocks.

>>> [(b.text, b.style) for b in blocks_of('**Doe, J.** (2020). A study. *Journal*, 3.', 0)]
[('Doe, J.', 'plain'), ('(2020)', 'year'), ('A study.', 'plain'), ('Journal', 'italic'), ('3.', 'plain')]
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from functools import cache
from itertools import pairwise

from kg.sources.authors import CAPITAL, name_score, split_author_list
from kg.sources.markup import links_in, strip_markup
from kg.sources.text import MONTH
from kg.sources.venue import VENUE_TAG, status_phrases
from kg.words import word_list

_NUMBER = re.compile(r"^\s*(?:#{1,6}\s*)?(?:[-*+•]\s+)?(?:\[\d{1,3}\]|\(\d{1,3}\)|\d{1,3}[.)](?!\d))?\s*")
_FUNCTION_END = re.compile(r"\b(?:and|of|the|a|an|in|on|for|to|with|by|from|at|&)$", re.I)


@dataclass
class Block:
    """A run of an entry's text in one style, with its raw markup (names keep their marks)."""

    text: str
    style: str  # plain | quote | bold | italic | link | year
    line: int
    raw: str = ""

    def __post_init__(self):
        self.raw = self.raw or self.text


@cache
def _link_labels() -> re.Pattern:
    labels = "|".join(re.escape(w) for w in sorted(word_list("link-labels"), key=len, reverse=True))
    return re.compile(rf"\[\s*\\?\[?\s*(?:{labels})\s*\\?\]?\s*\]\([^)]*\)|\[\s*(?:{labels})\s*\]", re.I)


def _unmatched_closing(text: str) -> str:
    """Drop each ``]`` that closes nothing (the outer bracket of a removed ``[[pdf](...)]``)."""
    out, depth = [], 0
    for ch in text:
        if ch == "[":
            depth += 1
        elif ch == "]":
            if not depth:
                continue
            depth -= 1
        out.append(ch)
    return "".join(out)


def clean_entry_line(line: str, ref, first: bool = True) -> str:
    """A line without its list number (on an entry's *first* line), trailing link labels
    (``[[pdf](...)]``), DOIs and URLs; the DOI and first URL go to *ref*."""
    text = line.replace("\u00a0", " ").replace("\t", " ")
    if first:
        text = _NUMBER.sub("", text, count=1)
    for url in links_in(text):
        if "doi.org/" in url and not ref.doi:
            ref.doi = url.split("doi.org/", 1)[1]
    text = _link_labels().sub("", text)
    text = _unmatched_closing(re.sub(r"\[\s*\]", "", text)).rstrip()  # brackets left around removed links
    text = re.sub(r"\[\s*\\?\[?\s*(10\.\d{4,}/[^\]]*?)\s*\\?\]?\s*\]\([^)]*\)", "", text)  # [10.1/x](doi link)
    text = re.sub(r"\bDOI:?\s*<?https?://\S+>?|\bdoi:\s*10\.\S+|<https?://[^>]+>", "", text, flags=re.I)
    urls = re.findall(r"(?<![(<\"'=])\bhttps?://[^\s<>\"')\]]+", text)
    if urls and not ref.url:
        ref.url = urls[0]
    text = re.sub(r"(?<![(<\"'=])\bhttps?://[^\s<>\"')\]]+", "", text)
    # A bold note in brackets at the end: an award, or a nickname such as (**GPT**).
    note = re.search(r"\(\s*\*\*([^*]+)\*\*\s*\)\s*$", text)
    if note:
        if re.search(r"award|prize|best|finalist|honou?rable", note.group(1), re.I):
            ref.recognitions.append(strip_markup(note.group(1)))
        text = text[: note.start()]
    text = re.sub(r"<font[^>]*>|</font>|\[\s*\]|\(\s*\)", "", text)
    text = _TRANSLATOR.sub("", text)  # "J. Doe (translator)": the name is the person credited
    return _OWNER_FAMILY_BOLD.sub(r"\1\2, \3\1", text).rstrip()


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
    return bool(re.search(r"(?:^|\s)\*(?![*\s])[^*]*$", text)) or (
        text.count("**") % 2 == 1 or text.count("“") > text.count("”")
        or text.count("[") > text.count("]") or text.count("(") > text.count(")")
            or len(re.findall(r'(?<![\w\\])"|"(?!\w)', text)) % 2 == 1)


def _wholly_styled(text: str) -> bool:
    s = text.strip()
    return bool(re.fullmatch(r"\*\*[^*]+\*\*|\*[^*]+\*|_[^_]+_|<(b|strong|i|em)>.*</\1>", s))


def _starts_field(plain: str) -> bool:
    """A line that begins a field of its own: a venue tag, a bare year, a label such as "Featured in:"."""
    return bool(VENUE_TAG.match(plain) or re.fullmatch(r"\(?(?:19|20)\d\d\)?\.?", plain)
                or re.match(r"^[A-Z]\w*(?: \w+){0,2}:\s", plain) and not re.match(r"^in:", plain, re.I)
                or re.match(r"^(?:co-?)?(?:first|second|third|last|sole|corresponding)[- ]author\b", plain, re.I)
                or re.search(r"\baward\b", plain, re.I) and len(plain.split()) <= 8)


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
        soft = _unbalanced(prev) or re.search(r"[,;:&\-–]$", prev_plain) or _FUNCTION_END.search(prev_plain) \
            or plain[:1].islower() or (plain[:1].isdigit() and not _starts_field(plain))
        near_width = width >= 60 and len(prev_plain) >= 0.85 * width
        if not soft and near_width and not _wholly_styled(prev) and not _starts_field(plain):
            soft = True
        if _wholly_styled(prev) and not _unbalanced(prev) or _starts_field(plain) and not _unbalanced(prev):
            soft = False
        if soft:  # "QH-" / "POCC": a word broken at its own hyphen is one word again
            glue = "" if re.search(r"\w-$", prev.rstrip()) else " "
            out[-1] = prev.rstrip() + glue + line.strip()
        else:
            out.append(line)
    return out


# --- blocks -------------------------------------------------------------------------------

_HTML_TAG = re.compile(r"<(/?)(\w+)[^>]*>")
_ENTITY = re.compile(r"&#?\w+;")
_TAGS = {"b": "bold", "strong": "bold", "i": "italic", "em": "italic", "u": "bold"}


def _flanked(raw: str, i: int, width: int, closing: bool) -> bool:
    """Underscores mark emphasis only at the edge of a word (``_Journal_``), not inside ``a__b``."""
    prev = raw[i - 1] if i else " "
    nxt = raw[i + width] if i + width < len(raw) else " "
    return not nxt.isalnum() if closing else (prev.isspace() or prev in "([\"“'") and not nxt.isspace()


# The first characters of every kind of markup _StyleScanner reads (links start at known places).
_MARKUP_STARTS = frozenset('\\*_<"“”&')


def _styled_chars(raw: str) -> list[tuple[str, frozenset, int]]:
    """Each visible character with its styles and its index in *raw*."""
    return _StyleScanner(raw).run()


class _StyleScanner:
    """Reads *raw* once, left to right: markup (links, escapes, ``**``, ``*``, tags, quotes,
    entities) changes the styles in force; every other character is kept with them."""

    def __init__(self, raw: str) -> None:
        self.raw = raw
        self.out: list[tuple[str, frozenset, int]] = []
        self.styles: set[str] = set()
        self.frozen: frozenset | None = None  # self.styles as kept with each character, made once per change
        links = re.finditer(r"\[((?:\\.|[^\]\\])*)\]\([^)]*\)", raw)
        self.link_at = {m.start(): (m.end(), m.start(1), m.end(1)) for m in links}  # [text](url): text's bounds
        self.link_end: dict[int, int] = {}  # where a link's text ends -> where its "(url)" ends
        self.readers = (self.link, self.escape, self.bold, self.italic, self.tag, self.quote, self.entity)

    def run(self) -> list[tuple[str, frozenset, int]]:
        raw, i = self.raw, 0
        while i < len(raw):
            if raw[i] not in _MARKUP_STARTS and i not in self.link_at and i not in self.link_end:
                i = self.keep(raw[i], i)  # most characters: no reader would take them
                continue
            after_markup = next((j for read in self.readers if (j := read(i)) is not None), None)
            i = self.keep(raw[i], i) if after_markup is None else after_markup
        return self.out

    def keep(self, text: str, i: int, width: int = 1) -> int:
        if self.frozen is None:
            self.frozen = frozenset(self.styles)
        self.out.append((text, self.frozen, i))
        return i + width

    def toggle(self, style: str, on: bool, i: int, width: int) -> int:
        (self.styles.add if on else self.styles.discard)(style)
        self.frozen = None  # the styles in force changed
        return i + width

    def link(self, i: int) -> int | None:
        if i in self.link_at:
            end, t0, t1 = self.link_at[i]
            self.link_end[t1] = end
            return self.toggle("link", True, t0, 0)
        if i in self.link_end:
            return self.toggle("link", False, self.link_end.pop(i), 0)
        return None

    def escape(self, i: int) -> int | None:
        raw = self.raw
        if raw[i] == "\\" and i + 1 < len(raw) and not raw[i + 1].isalnum():
            return self.keep(raw[i + 1], i, 2)
        return None

    def bold(self, i: int) -> int | None:
        raw = self.raw
        if raw.startswith("**", i) or raw.startswith("__", i) and _flanked(raw, i, 2, "bold" in self.styles):
            return self.toggle("bold", "bold" not in self.styles, i, 2)
        return None

    def italic(self, i: int) -> int | None:
        raw, ch = self.raw, self.raw[i]
        if not (ch == "*" or ch == "_" and _flanked(raw, i, 1, "italic" in self.styles)):
            return None
        prev = raw[i - 1] if i else " "
        nxt = raw[i + 1] if i + 1 < len(raw) else " "
        if "italic" not in self.styles and not prev.isalnum() and not nxt.isspace() and nxt not in ",.;)":
            return self.toggle("italic", True, i, 1)
        if "italic" in self.styles and not prev.isspace() and not nxt.isalnum():
            return self.toggle("italic", False, i, 1)
        return None  # a "*" that opens or closes nothing is text

    def tag(self, i: int) -> int | None:
        raw = self.raw
        tag = _HTML_TAG.match(raw, i) if raw[i] == "<" else None
        if not tag:
            return None
        style = _TAGS.get(tag.group(2).lower())
        if style:
            return self.toggle(style, not tag.group(1), i, tag.end() - i)
        if tag.group(2).lower() == "sup" and not tag.group(1):  # a mark such as "*" or "†" after a name
            close = raw.find("</sup>", i)
            inner = raw[tag.end(): close] if close > 0 else ""
            if re.search(r"[*\u2020\u2021]|&dagger;", inner):
                self.keep("*", i)
            return close + 6 if close > 0 else tag.end()
        return tag.end()

    def quote(self, i: int) -> int | None:
        ch = self.raw[i]
        if ch in "“”":
            return self.toggle("quote", ch == "“", i, 1)
        if ch == '"':
            prev = self.raw[i - 1] if i else " "
            return self.toggle("quote", "quote" not in self.styles and not prev.isalnum(), i, 1)
        return None

    def entity(self, i: int) -> int | None:
        entity = _ENTITY.match(self.raw, i) if self.raw[i] == "&" else None
        return self.keep(html.unescape(entity.group(0)), i, entity.end() - i) if entity else None


def _style_of(styles: frozenset) -> str:
    for s in ("quote", "bold", "italic", "link"):
        if s in styles:
            return s
    return "plain"


def _year_paren() -> re.Pattern:
    words = "|".join(re.escape(p) for p, _ in status_phrases())
    return re.compile(rf"[(\[]\s*(?:(?:{MONTH}\s+|(?:spring|summer|fall|autumn|winter)\s+)?(?:19|20)\d\d[a-z]?"
                      rf"|n\.\s?d\.|{words})\s*\.?\s*[)\]]", re.I)


_YEAR_PAREN = None


@cache
def _abbreviations() -> frozenset[str]:
    return frozenset(word_list("venue-abbreviations"))


def _sentence_cuts(text: str) -> list[int]:
    """Where sentences end in plain text: after ". " unless the period ends an initial or an
    abbreviation of a venue (``J. Chem. Phys.``)."""
    cuts = []
    for m in re.finditer(r"(?<=[^\s])\.\s+(?=[\w\"“(\[*_'])", text):
        before = re.search(r"(\S+)\.\s*$", text[: m.start() + 1])
        word = before.group(1) if before else ""
        after = text[m.end():]
        clause = re.split(r"[.,;:(]", after, maxsplit=1)[0]
        # An initial: "A.", "H.-J", "A.V", "d." (de).
        if re.fullmatch(rf"(?:[{CAPITAL}][a-z]?[.\-\u2010]*)+|[a-z]", word):
            words = clause.split()
            if len(words) >= 3 and sum(w[:1].islower() and len(w) > 3 for w in words) >= 1 and name_score(
                    clause) < 0.5:
                cuts.append(m.end())
            continue
        next_word = (after.split() or [""])[0]
        if word.lower() in _abbreviations() or re.fullmatch(r"e\.g|i\.e|[A-Z]{2,4}", word) or (
                re.fullmatch(r"[A-Z][a-z]{0,7}", word) and re.fullmatch(r"[A-Z][a-z]{0,7}\.,?", next_word)):
            continue  # "Phys. Rev.", "Comput. Chem. 23": abbreviations of a venue
        cuts.append(m.end())
    return cuts


def _raw_start(raw: str, idx: int) -> int:
    """Where a piece that starts at *idx* begins in *raw*, with the markup that opens it."""
    while idx > 0 and raw[idx - 1] in "*_[“\"\\":
        idx -= 1
    return idx


def blocks_of(raw: str, line: int, sentences: bool = True) -> list[Block]:
    """Cut one logical line of an entry into blocks of one style (and, with *sentences*, at the
    ends of sentences)."""
    global _YEAR_PAREN
    _YEAR_PAREN = _YEAR_PAREN or _year_paren()
    chars = _styled_chars(raw)
    # Bold, italic or linked names inside an author list are not blocks of their own.
    runs: list[list] = []
    for ch, styles, idx in chars:
        style = _style_of(styles)
        if runs and runs[-1][0] == style:
            runs[-1][1].append((ch, idx))
        else:
            runs.append([style, [(ch, idx)]])
    for n, run in enumerate(runs):
        text = "".join(c for c, _ in run[1]).strip()
        before = "".join(c for c, _ in runs[n - 1][1]).rstrip() if n else ""
        after = "".join(c for c, _ in runs[n + 1][1]).lstrip() if n + 1 < len(runs) else ""
        # A marked name is one of a list when a comma, "and", "&" or the year touches it.
        in_list = bool(re.search(r"(?:[,;&]|\band)$", before)
                       or re.match(r"\.?\s*(?:[,;&(*\u2020\u2021^]|and\b)", after)
                       or re.search(r"[,;&]\s*$", text))
        one_name = in_list and name_score(text.strip(" ,;*")) >= 0.5 and len(split_author_list(text)) == 1
        if run[0] in ("bold", "italic", "link") and (one_name or not re.search(r"\w", text)):
            run[0] = "plain"
    merged: list[list] = []
    for style, cs in runs:
        if merged and merged[-1][0] == style:
            merged[-1][1] += cs
        else:
            merged.append([style, list(cs)])
    blocks: list[Block] = []
    starts = [_raw_start(raw, cs[0][1]) for _, cs in merged] + [len(raw)]
    for n, (style, cs) in enumerate(merged):
        text = "".join(c for c, _ in cs)
        bounds = [_raw_start(raw, idx) for _, idx in cs] + [starts[n + 1]]
        bounds[0] = starts[n]
        raw_of = (lambda a, b, bounds=bounds: raw[bounds[a]: bounds[b]] if b > a else "")
        if style != "plain":
            blocks.append(Block(text.strip(), style, line, raw_of(0, len(cs)).strip()))
            continue
        pieces: list[tuple[int, int, str]] = []
        pos = 0
        for m in _YEAR_PAREN.finditer(text):
            pieces.append((pos, m.start(), "plain"))
            pieces.append((m.start(), m.end(), "year"))
            pos = m.end()
        pieces.append((pos, len(text), "plain"))
        for a, b, kind in pieces:
            if kind == "year":
                blocks.append(Block(text[a:b].strip(), "year", line, raw_of(a, b)))
                continue
            cuts = [a] + ([a + c for c in _sentence_cuts(text[a:b])] if sentences else []) + [b]
            for x, y in pairwise(cuts):
                piece = text[x:y]
                if re.search(r"\w", piece):
                    style = "year" if re.fullmatch(r"\W*(?:19|20)\d\d[a-z]?\W*", piece) else "plain"  # ACM's "2019."
                    blocks.append(Block(piece.strip().lstrip(".,;: "), style, line, raw_of(x, y).strip()))
    for b in blocks:
        b.text = re.sub(r"\s+", " ", b.text)
    return [b for b in blocks if b.text.strip(" .,;:")]
