"""Word lists kg reads by (section names, name titles, venue and status words): data files, one
entry per line, ``#`` starts a comment. Each list is read once.

>>> "prof" in word_list("name-titles")
True
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files


@cache
def word_list(name: str) -> tuple[str, ...]:
    """The entries of ``kg/words/<name>.txt``, lower-cased, in file order, without comments or blanks."""
    text = files(__package__).joinpath(f"{name}.txt").read_text(encoding="utf-8")
    entries = (line.split("#", 1)[0].strip().lower() for line in text.splitlines())
    return tuple(e for e in entries if e)


@cache
def word_table(name: str) -> dict[str, tuple[str, ...]]:
    """A list of ``left = a, b, c`` lines as ``{left: (a, b, c)}`` (what :func:`word_list` gives, split).

    >>> word_table("work-types")["posted-content"]
    ('article', 'preprint')
    """
    table: dict[str, tuple[str, ...]] = {}
    for line in word_list(name):
        left, _, right = line.partition("=")
        table[left.strip()] = tuple(v.strip() for v in right.split(",") if v.strip())
    return table
