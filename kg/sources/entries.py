"""A publication list cut into entries: by numbers, bullets, headings, table rows, a bold title
line, or blank lines, whichever the list itself uses; with the status and kind its sub-headings
("Under Review", "Book Chapters", "2023") give the entries below them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from kg.sources.authors import looks_like_author_list
from kg.sources.headings import heading_key, is_year_heading, publication_group
from kg.sources.layout import Item
from kg.sources.venue import VENUE_TITLE

NUMBERED = re.compile(r"^\s*(?:[-*+]\s+)?(?:\d+[.)]|\[\d+\]|\(\d+\))\s+")
BULLET = re.compile(r"^\s*[-*+•]\s+")
_KINDS = {"chapter": "chapter", "book": "book", "monograph": "book", "report": "report", "thes": "thesis",
          "dissertation": "thesis"}  # "Book Chapters" are chapters: the more specific word first


@dataclass
class Entry:
    """One publication entry's items, with what its group heading says."""

    items: list[Item]
    status: str = "published"
    kind: str | None = None
    year: str | None = None  # the year heading the entry's group ("## 2019"), for entries that print none

    @property
    def split_lines(self) -> bool | None:
        """Lines of a table row or tab layout are fields of their own; otherwise judged later."""
        return True if any(i.row_year or i.column for i in self.items) else None


def _group_kind(text: str) -> str | None:
    key = heading_key(text)
    for word, kind in _KINDS.items():
        if re.search(rf"\b{word}", key):
            return kind
    return None


def is_group_heading(item: Item) -> bool:
    """A sub-heading that groups entries (rather than an entry written as a heading)."""
    return bool(item.heading) and publication_group(item.raw) is not None and len(item.text.split()) <= 8


def _bulleted(item: Item) -> bool:
    return bool(BULLET.match(item.raw)) and not NUMBERED.match(item.raw) and not re.match(r"^\s*\*\*", item.raw)


def _start_style(items: list[Item]) -> Callable[[Item], bool]:
    """How this list marks where an entry starts: the first style that its items use."""
    styles: list[Callable[[Item], bool]] = [
        lambda i: bool(VENUE_TITLE.match(i.text)),
        lambda i: bool(NUMBERED.match(i.raw)),
        lambda i: i.heading > 0,
        lambda i: i.row_year is not None,
        lambda i: bool(BULLET.match(i.raw)) and not re.match(r"^\s*\*\*", i.raw),
        lambda i: i.bold and not looks_like_author_list(i.raw),
    ]
    listed = lambda i: bool(NUMBERED.match(i.raw) or BULLET.match(i.raw) and not re.match(r"^\s*\*\*", i.raw))  # noqa: E731
    blocks = 1 + sum(1 for i in items[1:] if i.gap_before)
    for n, style in enumerate(styles):
        marked = sum(1 for i in items if style(i))
        if n in (1, 4) and blocks >= 3 and marked < blocks / 2:
            continue  # a few bullets among blank-line-separated entries are notes inside them
        if n == 1 and marked and 3 * sum(1 for i in items if _bulleted(i)) <= marked:
            return style  # a numbered list: its few bullets are notes under the entries ("- Selected for ...")
        if marked:
            return listed if n in (1, 4) else style
    return lambda i: i.gap_before


def split_entries(items: list[Item]) -> tuple[list[Entry], list[Item]]:
    """Entries of a publication list, and the items before the first entry that belong to none."""
    headed = any(i.heading and i.heading < 7 and not is_group_heading(i) for i in items)
    if headed:  # entries written as headings: a bare year line under one is the entry's year, no group
        items = [replace(i, heading=0) if i.heading == 7 else i for i in items]
    starts = _start_style([i for i in items if not is_group_heading(i)])
    status, kind, year, year_level = "published", None, None, 0
    entries: list[Entry] = []
    loose: list[Item] = []
    current: Entry | None = None
    grouped = False
    for item in items:
        if is_group_heading(item):
            status = publication_group(item.raw) or "published"
            kind = _group_kind(item.raw)
            if is_year_heading(item.raw):
                year, year_level = heading_key(item.raw)[:4], item.heading
            elif item.heading <= year_level:  # a kind heading under a year heading keeps the year
                year = None
            current, grouped = None, True
            continue
        if item.column > 0 and item.text == (item.row_year or ""):
            if current:
                current.items.append(item)
            continue
        if starts(item) or current is None and (entries or grouped):
            current = Entry([item], status, kind, year)
            entries.append(current)
        elif current is not None:
            current.items.append(item)
        else:
            loose.append(item)
    return entries, loose
