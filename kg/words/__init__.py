"""Word lists kg reads by (section names, name titles, venue and status words): data files, one
entry per line, ``#`` starts a comment. Each list is read once.

>>> "prof" in word_list("name-titles")
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from importlib.resources import files


def alternation(words: Iterable[str], any_space: bool = False) -> str:
    r"""*words* as a pattern's alternatives, each escaped, the longest first (so that "st" does not take
    the start of "street"); with *any_space*, any run of spaces stands for a space.

    >>> alternation(["st", "street", "preprints.org"]) == r"preprints\.org|street|st"
    True
    >>> re.fullmatch(alternation(["research square"], any_space=True), "Research  Square", re.I) is not None
    True
    """
    if any_space:
        return "|".join(r"\s+".join(map(re.escape, w.split())) for w in sorted(words, key=len, reverse=True))
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


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
