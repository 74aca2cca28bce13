"""From a CV's text to sections of items: the layout layer the CV readers share.

A CV arrives as markdown with HTML fragments, HTML or markdown tables, two entries
side by side on one tab-separated line, or plain text. This module turns each of
those layouts into the same thing: named sections, each a stream of :class:`Item`
(one cell or line of text with its line number and a flag where the layout itself
says a new entry starts). Section parsers (``kg.sources.sections``) never see the layout.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

from kg.sources.headings import is_year_heading, publication_group, section_title_kind
from kg.sources.markup import is_wholly_bold, strip_markup
from kg.sources.text import parse_period


@dataclass
class Item:
    """One piece of text in a section, in document order."""

    raw: str
    line: int
    new_entry: bool = False  # the layout (a table row, a column head) starts an entry here
    gap_before: bool = False  # a blank line came before
    row_year: str | None = None  # the year printed at the right of this item's row
    bullet: bool = False
    column: int = 0
    heading: int = 0  # a sub-heading kept inside its section: its level (1-6, 7 for an unmarked one)
    whole_entry: bool = False  # a career entry's first part, printed whole on one line (kg.sources.career)

    @cached_property
    def text(self) -> str:  # read many times by the section parsers; raw never changes
        return strip_markup(self.raw)

    @property
    def bold(self) -> bool:
        return is_wholly_bold(self.raw)

    @property
    def unmarked(self) -> str:
        """The text without the list marker a bullet begins with ("- 2019: ..." -> "2019: ...")."""
        return LIST_MARK.sub("", self.text) if self.bullet else self.text


@dataclass
class Section:
    kind: str  # a kind of kg/words/section-titles.txt, "header" before the first section, or "unknown"
    title: str
    line: int
    items: list[Item] = field(default_factory=list)
    level: int = 0  # the markdown level of its heading (0: a heading without '#')


def _cells(line: str) -> list[str] | None:
    """Cells of a markdown table row, or None when the line is not one."""
    s = line.strip()
    if not (s.startswith("|") and s.endswith("|") and len(s) > 1):
        return None
    inner = re.split(r"(?<!\\)\|", s[1:-1])
    return [c.strip() for c in inner]


def _is_table_rule(cells: list[str]) -> bool:
    return all(re.fullmatch(r":?-{2,}:?", c.strip()) for c in cells if c.strip()) and any(cells)


def _looks_like_heading(text: str) -> bool:
    """An all-capitals line of a few words: a section heading even if we do not know it."""
    t = strip_markup(text).strip(" :")
    return bool(t) and t.upper() == t and re.search(r"[A-Z]{3}", t) is not None and len(t.split()) <= 4 \
        and not re.search(r"\d", t)


def _split_list_items(raw: str) -> list[str] | None:
    """``<ul><li>a</li><li>b</li></ul>`` on one line -> ``["a", "b"]``."""
    if "<li" not in raw:
        return None
    return [m.strip() for m in re.findall(r"<li[^>]*>(.*?)</li>", raw, re.S) if m.strip()]


def _is_column_head(cells: list[str]) -> bool:
    """Two entries side by side: ``title<TAB>dates<TAB>title<TAB>dates``."""
    return (len(cells) == 4 and all(cells[i].strip() for i in range(4))
            and parse_period(strip_markup(cells[1])) is not None
            and parse_period(strip_markup(cells[3])) is not None)


_SETEXT = re.compile(r"^\s*(?:={2,}|-{3,})\s*$")
_LIQUID = re.compile(r"^\s*\{%.*%\}\s*$")
_ATX_HEADING = re.compile(r"^(#{1,6})(?:\s+|(?=[^\s#]))(.*?)\s*#*$")
_LIST_MARK = re.compile(r"^(?:[-*+|>]|\d+[.)])\s")


def _heading(lines: list[str], i: int) -> tuple[int, str] | None:
    """(level, title) of a markdown heading at line *i*: ``## Title``, ``###Title`` or a setext
    heading (a line underlined with ``===`` or ``---``)."""
    stripped = lines[i].strip()
    m = _ATX_HEADING.match(stripped)
    if m:
        return len(m.group(1)), m.group(2)
    if i + 1 < len(lines) and _SETEXT.match(lines[i + 1]) and stripped and len(stripped.split()) <= 8 \
            and not _LIST_MARK.match(stripped):
        return (1 if "=" in lines[i + 1] else 2), stripped
    return None


def _stays_in_publications(current: Section, level: int, title: str) -> bool:
    """A sub-heading of a publication list (a year, a status, a kind of work, or an entry written as
    a heading) stays in it; a heading of another section or of the list's own level ends it."""
    kind = section_title_kind(title)
    if current.kind != "publications" or (kind and kind != "publications"):
        return False
    if current.level and level and level <= current.level:
        return False
    return publication_group(title) is not None or len(strip_markup(title).split()) > 8


def split_sections(text: str, first: str = "header") -> list[Section]:
    """Split a CV's text into sections of items.

    >>> secs = split_sections("Jane Doe\\n\\nEDUCATION\\n\\nPh.D. in Physics\\nSome University\\n")
    >>> [(s.kind, [i.text for i in s.items]) for s in secs]
    [('header', ['Jane Doe']), ('education', ['Ph.D. in Physics', 'Some University'])]
    """
    return _Splitter(text, first).run()


_RULE = re.compile(r"-{3,}|\*{3,}|_{3,}")
_BULLET = re.compile(r"^\s*(?:[-*+•]|\d+\.)\s+")
#: The marker a bulleted item begins with.
LIST_MARK = re.compile(r"^\s*[-*+•–]\s+")
_NUMBERED = re.compile(r"^\s*(?:[-*+]\s+)?\d+\.\s")


class _Splitter:
    """One pass over a CV's lines: each line goes to the reader of its layout (a table row, a heading,
    two columns, tab-separated cells, a plain line), which adds items or starts a section."""

    def __init__(self, text: str, first: str):
        self.lines = text.splitlines()
        self.sections = [Section(first, "", 1)]
        self.at = 0  # the index of the next line to read
        self.gap = False  # a blank line came before the line being read
        self.setext_rule = False  # the next line underlines a setext heading

    @property
    def current(self) -> Section:
        return self.sections[-1]

    def run(self) -> list[Section]:
        while self.at < len(self.lines):
            number, raw = self.at + 1, self.lines[self.at].rstrip(" \r\n")
            self.at += 1
            if not self._passed_over(raw):
                self._read_line(number, raw)
        return self.sections

    def _passed_over(self, raw: str) -> bool:
        """The underline of a setext heading, a blank line, a rule or a template tag: no item
        (a blank or a rule marks a gap before the next one)."""
        if self.setext_rule:
            self.setext_rule = False
            return True
        stripped = raw.strip()
        if not stripped or _RULE.fullmatch(stripped) or _LIQUID.match(stripped):
            self.gap = True
            return True
        return False

    def _read_line(self, number: int, raw: str) -> None:
        cells = _cells(raw)
        tab_cells = raw.split("\t")
        if cells is not None:
            if _is_table_rule(cells) or not any(c for c in cells):
                return  # a table's rule or an empty row: no item, and the gap before stays
            self._table_row(number, cells)
        elif not self._heading_line(number, raw, tab_cells):
            self._text_line(number, raw, tab_cells)
        self.gap = False

    def _text_line(self, number: int, raw: str, tab_cells: list[str]) -> None:
        if _is_column_head(tab_cells):
            self._columns(number, tab_cells)
        elif len(tab_cells) > 1:
            self._tab_row(number, tab_cells)
        else:
            self._plain_line(number, raw)

    def _add(self, raw: str, line: int, **flags) -> None:
        self.current.items.append(Item(raw, line, **flags))

    def _table_row(self, number: int, cells: list[str]) -> None:
        """A markdown table row: one entry, its cells (and lines broken with ``<br>``) items of it."""
        first = True
        for col, cell in enumerate(cells):
            for part in re.split(r"<br\s*/?>", cell):
                if strip_markup(part):
                    self._add(part, number, new_entry=first, gap_before=self.gap, column=col)
                    first = False

    def _heading_line(self, number: int, raw: str, tab_cells: list[str]) -> bool:
        """A heading, or a line with one filled cell: a group inside a publication list, a new
        section, or (False) a line of text after all."""
        heading = _heading(self.lines, number - 1)
        if heading and not raw.strip().startswith("#"):
            self.setext_rule = True
        filled = [c for c in tab_cells if strip_markup(c)]
        if heading is None and len(filled) != 1:
            return False
        level, title = heading if heading else (0, filled[0])
        capitals = _looks_like_heading(title)
        kind = section_title_kind(title, loose=bool(heading) or capitals)
        if _groups_publications(self.current, heading is not None, level, title, kind, capitals):
            self._add(title, number, new_entry=True, gap_before=self.gap, heading=level or 7)
            return True
        is_name = heading and level == 1 and self.current.kind == "header" and kind is None
        unknown_heading = capitals and (self.current.kind != "header" or len(title.split()) >= 2)
        if is_name or not (kind or heading or unknown_heading):
            return False
        if kind is None and level:  # "### Some Institute" under "## Service": still service
            kind = self._parent_kind(level)
        self.sections.append(Section(kind or "unknown", strip_markup(title), number, level=level))
        if kind == "publications" and publication_group(title) not in (None, "published"):
            self._add(title, number, new_entry=True, heading=level or 7)
        return True

    def _parent_kind(self, level: int) -> str | None:
        """The kind of the nearest section of a higher heading level, where it is a known kind other
        than publications (whose sub-headings are groups, not sections of its kind)."""
        parent = next((s for s in reversed(self.sections) if s.level and s.level < level), None)
        if parent is not None and parent.kind not in ("unknown", "header", "publications"):
            return parent.kind
        return None

    def _columns(self, number: int, tab_cells: list[str]) -> None:
        """Two entries side by side (``title<TAB>dates<TAB>title<TAB>dates``) and the rows under
        them: the left column's entry, then the right's."""
        block = [(number, tab_cells)]
        while self.at < len(self.lines):
            nxt = self.lines[self.at].rstrip(" \r\n").split("\t")
            if len(nxt) != 4 or _is_column_head(nxt) or not any(strip_markup(c) for c in nxt):
                break
            block.append((self.at + 1, nxt))
            self.at += 1
        for col in (0, 2):
            first = True
            for n, row in block:
                for part in row[col:col + 2]:
                    if strip_markup(part):
                        self._add(part, n, new_entry=first, gap_before=self.gap and first, column=col)
                        first = False

    def _tab_row(self, number: int, tab_cells: list[str]) -> None:
        """Tab-separated cells; a year in the last filled cell is the row's year."""
        filled = [c for c in tab_cells if strip_markup(c)]
        year = strip_markup(filled[-1]) if len(filled) >= 2 else None
        row_year = year if year and re.fullmatch(r"(?:19|20)\d\d", year) else None
        for col, cell in enumerate(tab_cells):
            if not strip_markup(cell):
                continue
            listed = _split_list_items(cell)
            for part in listed or [cell]:
                self._add(part, number, gap_before=self.gap, row_year=row_year if col == 0 else None,
                          bullet=listed is not None, column=col)

    def _plain_line(self, number: int, raw: str) -> None:
        """A line of text: a bullet where it starts with a list marker (not a numbered line, nor bold)."""
        listed = _split_list_items(raw)
        if listed:
            for part in listed:
                self._add(part, number, gap_before=self.gap, bullet=True)
            return
        bullet = _BULLET.match(raw) is not None and not _NUMBERED.match(raw)
        self._add(raw, number, gap_before=self.gap, bullet=bullet and not re.match(r"^\s*\*\*", raw))


def _groups_publications(current: Section, marked: bool, level: int, title: str, kind: str | None,
                         capitals: bool) -> bool:
    """A heading, or a short title line (*capitals*: in capitals), that groups the entries of a
    publication list (a year, a status, a kind of work) and so stays inside the list."""
    if marked and _stays_in_publications(current, level, title):
        return True
    return (current.kind == "publications" and kind in (None, "publications") and not marked
            and len(title.split()) <= 6 and bool(publication_group(title, loose=capitals))
            and (not re.search(r"\d", title) or is_year_heading(title)))
