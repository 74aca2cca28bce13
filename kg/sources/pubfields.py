"""Publication entries given as fields (site data files, page front matter): which key holds what,
found through a table of synonyms kept as data (``kg/words/publication-fields.txt``). The values
are turned into record values by :mod:`kg.sources.fields`.

>>> e = Entry({"Title": "A *Study*", "Author": "Ada Lovelace and Mary Somerville", "date": "2020-04-12"})
>>> e.text("title"), e.get("authors"), e.get("year")
('A Study', 'Ada Lovelace and Mary Somerville', '2020-04-12')
"""

from __future__ import annotations

import datetime as dt
import re
from functools import cache

from kg.sources.text import strip_markup
from kg.words import word_table


def _norm_key(key) -> str:
    return re.sub(r"[\s-]+", "_", str(key).strip().lower())


@cache
def _fields() -> dict[str, tuple[str, ...]]:
    return {k: tuple(_norm_key(s) for s in v) for k, v in word_table("publication-fields").items()}


def synonyms(field: str) -> tuple[str, ...]:
    """The keys that may hold *field*, preferred first.

    >>> synonyms("venue")[:3]
    ('venue', 'journal', 'booktitle')
    """
    return _fields()[field]


def _empty(value) -> bool:
    return value is None or (isinstance(value, (str, list, dict)) and not (value.strip() if isinstance(value, str)
                                                                          else value))


class Entry:
    """One entry's fields, looked up by meaning rather than by key."""

    def __init__(self, fields: dict):
        self.raw = fields
        self._by_key = {}
        for key, value in fields.items():
            self._by_key.setdefault(_norm_key(key), value)

    def key_of(self, field: str) -> str | None:
        """The key (normalised) that holds *field* in this entry, if any."""
        return next((k for k in synonyms(field) if not _empty(self._by_key.get(k))), None)

    def get(self, field: str):
        key = self.key_of(field)
        return None if key is None else self._by_key[key]

    def has(self, key: str) -> bool:
        return _norm_key(key) in self._by_key

    def value(self, key: str):
        """The value of one exact key (normalised), whatever field it is."""
        return self._by_key.get(_norm_key(key))

    def text(self, field: str) -> str | None:
        """A field as plain text: markdown, HTML and entities removed; lists joined."""
        return plain_text(self.get(field))


def plain_text(value) -> str | None:
    """*value* (a string, number or list of them) as plain text, or None."""
    if isinstance(value, list):
        parts = [plain_text(v) for v in value]
        value = "; ".join(p for p in parts if p)
    if isinstance(value, (dt.date, int, float)) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        return None
    text = strip_markup(value).strip(" ,;")
    return text or None
