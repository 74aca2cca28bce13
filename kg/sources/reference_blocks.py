"""Each logical line of a publication entry cut into blocks of one style (quoted, bold, italic,
linked, plain) at parenthesised years and sentence ends. :mod:`kg.sources.reference` labels the blocks.

The line is read once, left to right (:class:`_StyleScanner`); a stretch without markup is taken
in one step, so the work in Python is per piece of markup, not per character.

>>> [(b.text, b.style) for b in blocks_of('**Doe, J.** (2020). A study. *Journal*, 3.', 0)]
[('Doe, J.', 'plain'), ('(2020)', 'year'), ('A study.', 'plain'), ('Journal', 'italic'), ('3.', 'plain')]
"""

from __future__ import annotations

import html
import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import cache
from itertools import accumulate, pairwise

from kg.sources.authors import CAPITAL, name_score, split_author_list
from kg.sources.text import MONTH
from kg.sources.venue import status_phrases
from kg.words import word_list


@dataclass
class Block:
    """A run of an entry's text in one style, with its raw markup (names keep their marks)."""

    text: str
    style: str  # plain | quote | bold | italic | link | year
    line: int
    raw: str = ""

    def __post_init__(self):
        self.raw = self.raw or self.text




_HTML_TAG = re.compile(r"<(/?)(\w+)[^>]*>")
_ENTITY = re.compile(r"&#?\w+;")
_TAGS = {"b": "bold", "strong": "bold", "i": "italic", "em": "italic", "u": "bold"}


def _flanked(raw: str, i: int, width: int, closing: bool) -> bool:
    """Underscores mark emphasis only at the edge of a word (``_Journal_``), not inside ``a__b``."""
    prev = raw[i - 1] if i else " "
    nxt = raw[i + width] if i + width < len(raw) else " "
    return not nxt.isalnum() if closing else (prev.isspace() or prev in "([\"“'") and not nxt.isspace()


# The first characters of every kind of markup _StyleScanner reads (links start at known places).
_MARKUP_STARTS = frozenset('\\*_<"“”‘’«»&')
_NEXT_MARKUP = re.compile('[\\\\*_<"“”‘’«»&]')
_SINGLE_CLOSE = re.compile(r"’(?!\w)")
_LINK = re.compile(r"\[((?:\\.|[^\]\\])*)\]\([^)]*\)")
_SUP_MARK = re.compile(r"[*\u2020\u2021]|&dagger;")


class _StyleScanner:
    """Reads *raw* once, left to right: markup (links, escapes, ``**``, ``*``, tags, quotes,
    entities) changes the styles in force; every other character is kept with them.

    What is kept is a list of units (one visible character, or what an entity stands for) in
    ``texts``, each unit's index in *raw* in ``idxs``, and in ``marks`` (unit number, styles)
    wherever the styles in force change. A stretch without markup is kept in one step.
    """

    def __init__(self, raw: str) -> None:
        self.raw = raw
        self.texts: list[str] = []
        self.idxs: list[int] = []
        self.marks: list[tuple[int, frozenset]] = []
        self.styles: set[str] = set()
        self.frozen: frozenset | None = None  # self.styles as kept with each unit, made once per change
        self.long_units = False  # whether an entity was kept as more than one character
        self.single = False  # whether the quote in force was opened by "‘"
        links = _LINK.finditer(raw)
        self.link_at = {m.start(): (m.end(), m.start(1), m.end(1)) for m in links}  # [text](url): text's bounds
        self.link_starts = sorted(self.link_at)
        self.link_end: dict[int, int] = {}  # where a link's text ends -> where its "(url)" ends

    def run(self) -> _StyleScanner:
        raw, i = self.raw, 0
        while i < len(raw):
            if i in self.link_at or i in self.link_end:
                i = self.link(i)  # a link's text begins or ends here
            elif raw[i] not in _MARKUP_STARTS:
                i = self.keep_plain(i)  # most characters: no reader would take them
            else:
                for read in _READERS[raw[i]]:
                    if (after_markup := read(self, i)) is not None:
                        i = after_markup
                        break
                else:  # a mark that opens or closes nothing is text
                    i = self.keep(raw[i], i)
        return self

    def keep_plain(self, i: int) -> int:
        """Keep the characters from *i* up to the next markup character or link bound; where that is."""
        m = _NEXT_MARKUP.search(self.raw, i)
        j = m.start() if m else len(self.raw)
        at = bisect_right(self.link_starts, i)
        if at < len(self.link_starts):
            j = min(j, self.link_starts[at])
        for bound in self.link_end:  # the ends of the links open here: one, rarely more
            if i < bound < j:
                j = bound
        self.styled()
        self.texts += self.raw[i:j]
        self.idxs += range(i, j)
        return j

    def styled(self) -> None:
        """Mark where the styles in force change, before the next unit is kept."""
        if self.frozen is None:
            self.frozen = frozenset(self.styles)
            self.marks.append((len(self.texts), self.frozen))

    def keep(self, text: str, i: int, width: int = 1) -> int:
        self.styled()
        self.texts.append(text)
        self.idxs.append(i)
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
            if _SUP_MARK.search(inner):
                self.keep("*", i)
            return close + 6 if close > 0 else tag.end()
        return tag.end()

    def quote(self, i: int) -> int | None:
        ch = self.raw[i]
        if ch in "“”«»":  # French quotes a title in guillemets: "« Formes du songe », Cahiers, 22"
            return self.toggle("quote", ch in "“«", i, 1)
        if ch == '"':
            prev = self.raw[i - 1] if i else " "
            return self.toggle("quote", "quote" not in self.styles and not prev.isalnum(), i, 1)
        # British and Harvard styles quote a title in single marks: "Roe, J. (2010) ‘A title’, Journal". "’" is
        # an apostrophe too ("Poe’s"): it closes only the quote a "‘" opened, before no letter or digit, and
        # a "‘" opens only where such a "’" follows ("the ‘90s" opens nothing)
        if ch == "‘" and "quote" not in self.styles and (i == 0 or not self.raw[i - 1].isalnum()) \
                and _SINGLE_CLOSE.search(self.raw, i + 1):
            self.single = True
            return self.toggle("quote", True, i, 1)
        if ch == "’" and self.single and (i + 1 == len(self.raw) or not self.raw[i + 1].isalnum()):
            self.single = False
            return self.toggle("quote", False, i, 1)
        return None

    def entity(self, i: int) -> int | None:
        entity = _ENTITY.match(self.raw, i) if self.raw[i] == "&" else None
        if entity is None:
            return None
        text = html.unescape(entity.group(0))
        self.long_units = self.long_units or len(text) != 1
        return self.keep(text, i, entity.end() - i)


# The readers that may take each markup character, in the order they are tried. They are the class's
# functions, not an instance's bound methods: a scanner holding its own bound methods was a cycle, and
# the cycles of every entry's scanners were most of the garbage the collector sought after each document.
_READERS = {"\\": (_StyleScanner.escape,), "*": (_StyleScanner.bold, _StyleScanner.italic),
            "_": (_StyleScanner.bold, _StyleScanner.italic), "<": (_StyleScanner.tag,),
            '"': (_StyleScanner.quote,), "“": (_StyleScanner.quote,), "”": (_StyleScanner.quote,),
            "‘": (_StyleScanner.quote,), "’": (_StyleScanner.quote,), "«": (_StyleScanner.quote,),
            "»": (_StyleScanner.quote,),
            "&": (_StyleScanner.entity,)}


def _style_of(styles: frozenset) -> str:
    for s in ("quote", "bold", "italic", "link"):
        if s in styles:
            return s
    return "plain"


def _year_paren() -> re.Pattern:
    words = "|".join(re.escape(p) for p, _ in status_phrases())
    days = r"\d{1,2}(?:\s*[-–]\s*\d{1,2})?"
    # APA's date of a news item or a talk: "(2015, Aug 6)", "(2006, 25-26 March)"
    day_of_year = rf"(?:,\s*(?:{MONTH}\.?(?:\s+{days})?|{days}\s+{MONTH}))?"
    season = r"(?:spring|summer|fall|autumn|winter)\s+"
    return re.compile(rf"[(\[]\s*(?:(?:{MONTH}\s+|{season})?(?:19|20)\d\d[a-z]?{day_of_year}"
                      rf"|n\.\s?d\.|{words})\s*\.?\s*[)\]]", re.I)


_YEAR_PAREN = None


@cache
def _abbreviations() -> frozenset[str]:
    return frozenset(word_list("venue-abbreviations"))


_PERIOD = re.compile(r"(?<=[^\s])\.\s+(?=[\w\"“(\[*_'])")
_CLAUSE_END = re.compile(r"[.,;:(]")
_INITIAL_WORD = re.compile(rf"(?:[{CAPITAL}][a-z]?[.\-\u2010]*)+|[a-z]")
_SHORT_FORM = re.compile(r"e\.g|i\.e|[A-Z]{2,4}")
_SHORT_WORD = re.compile(r"[A-Z][a-z]{0,7}")
_SHORT_WORD_DOT = re.compile(r"[A-Z][a-z]{0,7}\.,?")


def _sentence_cuts(text: str) -> list[int]:
    """Where sentences end in plain text: after ". " unless the period ends an initial or an
    abbreviation of a venue (``J. Chem. Phys.``)."""
    cuts = []
    for m in _PERIOD.finditer(text):
        word = text[: m.start()].rsplit(None, 1)[-1]  # the word the period ends (never empty: see _PERIOD)
        after = text[m.end():]
        clause = _CLAUSE_END.split(after, maxsplit=1)[0]
        # An initial: "A.", "H.-J", "A.V", "d." (de).
        if _INITIAL_WORD.fullmatch(word):
            words = clause.split()
            if len(words) >= 3 and sum(w[:1].islower() and len(w) > 3 for w in words) >= 1 and name_score(
                    clause) < 0.5:
                cuts.append(m.end())
            continue
        next_word = (after.split(None, 1) or [""])[0]
        if word.lower() in _abbreviations() or _SHORT_FORM.fullmatch(word) or (
                _SHORT_WORD.fullmatch(word) and _SHORT_WORD_DOT.fullmatch(next_word)):
            continue  # "Phys. Rev.", "Comput. Chem. 23": abbreviations of a venue
        cuts.append(m.end())
    return cuts


def _raw_start(raw: str, idx: int) -> int:
    """Where a piece that starts at *idx* begins in *raw*, with the markup that opens it."""
    while idx > 0 and raw[idx - 1] in "*_[“‘\"\\«":
        idx -= 1
    if raw[idx - 2: idx] in ("« ", "«\u00a0", "«\u202f"):  # French sets its guillemets off with a space
        idx = _raw_start(raw, idx - 2)
    return idx


def _style_runs(scan: _StyleScanner) -> list[list]:
    """``[style, first unit, end unit]`` for each run of units of one style."""
    runs: list[list] = []
    ends = [at for at, _ in scan.marks[1:]] + [len(scan.texts)]
    for (at, styles), end in zip(scan.marks, ends[:len(scan.marks)], strict=True):
        if at == end:
            continue
        style = _style_of(styles)
        if runs and runs[-1][0] == style:
            runs[-1][2] = end
        else:
            runs.append([style, at, end])
    return runs


_LIST_BEFORE = re.compile(r"(?:[,;&]|\band)$")
_LIST_AFTER = re.compile(r"\.?\s*(?:[,;&(*\u2020\u2021^]|and\b)")
_LIST_END = re.compile(r"[,;&]\s*$")
_WORD = re.compile(r"\w")
_BARE_YEAR = re.compile(r"\W*(?:19|20)\d\d[a-z]?\W*")
_SPACES = re.compile(r"\s+")


def blocks_of(raw: str, line: int, sentences: bool = True) -> list[Block]:
    """Cut one logical line of an entry into blocks of one style (and, with *sentences*, at the
    ends of sentences)."""
    global _YEAR_PAREN
    _YEAR_PAREN = _YEAR_PAREN or _year_paren()
    scan = _StyleScanner(raw).run()
    units, idxs = scan.texts, scan.idxs
    runs = _style_runs(scan)
    texts = ["".join(units[a:b]) for _, a, b in runs]
    # Bold, italic or linked names inside an author list are not blocks of their own.
    for n, run in enumerate(runs):
        if run[0] not in ("bold", "italic", "link"):
            continue  # only a marked run can become plain
        text = texts[n].strip()
        before = texts[n - 1].rstrip() if n else ""
        after = texts[n + 1].lstrip() if n + 1 < len(runs) else ""
        # A marked name is one of a list when a comma, "and", "&" or the year touches it.
        # (Both ends are stripped: the patterns that end at "$" need only the last few characters.)
        in_list = bool(_LIST_BEFORE.search(before[-4:]) or _LIST_AFTER.match(after) or _LIST_END.search(text[-1:]))
        one_name = in_list and name_score(text.strip(" ,;*")) >= 0.5 and len(split_author_list(text)) == 1
        if one_name or not _WORD.search(text):
            run[0] = "plain"
    merged: list[list] = []
    for style, a, b in runs:
        if merged and merged[-1][0] == style:
            merged[-1][2] = b
        else:
            merged.append([style, a, b])
    blocks: list[Block] = []
    starts = [_raw_start(raw, idxs[a]) for _, a, _ in merged] + [len(raw)]
    for n, (style, first, end) in enumerate(merged):
        text = "".join(units[first:end])
        raw_of = _RawOf(raw, idxs, first, end, starts[n], starts[n + 1], units if scan.long_units else None)
        if style != "plain":
            blocks.append(Block(text.strip(), style, line, raw_of(0, end - first).strip()))
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
                if _WORD.search(piece):
                    style = "year" if _BARE_YEAR.fullmatch(piece) else "plain"  # ACM's "2019."
                    blocks.append(Block(piece.strip().lstrip(".,;: "), style, line, raw_of(x, y).strip()))
    for b in blocks:
        b.text = _SPACES.sub(" ", b.text)
    return [b for b in blocks if b.text.strip(" .,;:")]


class _RawOf:
    """The raw text (markup kept) between characters *a* and *b* of the text of a run of units
    ``first:end``, which begins at *start* in *raw* and ends at *stop*. A unit is one character of
    text, except an entity, which can stand for more ("&foo;" kept as it is): then character
    positions are mapped to the units they fall in."""

    def __init__(self, raw: str, idxs: list[int], first: int, end: int, start: int, stop: int,
                 units: list[str] | None = None) -> None:
        self.raw, self.idxs, self.first, self.count, self.start, self.stop = raw, idxs, first, end - first, start, stop
        self.offsets: list[int] | None = None  # the character each unit starts at, where some unit is longer
        if units is not None and any(len(u) != 1 for u in units[first:end]):
            self.offsets = list(accumulate((len(u) for u in units[first:end]), initial=0))

    def bound(self, k: int) -> int:
        if self.offsets is not None:  # the unit character k falls in
            k = self.count if k >= self.offsets[-1] else bisect_right(self.offsets, k) - 1
        if k <= 0:
            return self.start
        if k >= self.count:
            return self.stop
        return _raw_start(self.raw, self.idxs[self.first + k])

    def __call__(self, a: int, b: int) -> str:
        return self.raw[self.bound(a): self.bound(b)] if b > a else ""
