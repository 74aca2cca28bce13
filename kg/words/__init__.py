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
    the start of "street"), their common beginnings taken out (:func:`_trie`); with *any_space*, any run
    of spaces stands for a space.

    >>> alternation(["st", "street", "preprints.org"]) == r"preprints\.org|st(?:reet)?"
    True
    >>> re.fullmatch(alternation(["research square"], any_space=True), "Research  Square", re.I) is not None
    True
    """
    if any_space:
        return _trie([[r"\s+" if c == " " else re.escape(c) for c in " ".join(w.split())] for w in words])
    return _trie([[re.escape(c) for c in w] for w in words])


def _trie(words: list[list[str]]) -> str:
    """The alternatives *words* (each a list of pattern pieces, one per character) with their common
    beginnings taken out ("jan|june|july" as "j(?:u(?:ne|ly)|an)"): Python's engine then tries the first
    character of each branch once, not of every word, and a long list (month names in seven languages,
    organizations' words) costs little more than a short one. Longer words come first at every branch,
    so the match is the longest word that fits, as in a flat list sorted by length."""
    by_first: dict[str, list[list[str]]] = {}
    for w in words:
        if w:
            by_first.setdefault(w[0], []).append(w[1:])
    if len({c.casefold() for c in by_first}) < len(by_first):
        # "Ab" and "abc": ignoring case both branches could match at one place, and the shorter word
        # might be tried first: these stay a flat list, the longest first
        return "|".join("".join(w) for w in sorted(words, key=len, reverse=True))
    branches = []
    for first, rests in sorted(by_first.items(), key=lambda kv: (-max(map(len, kv[1])), kv[0])):
        inner = _trie(rests)
        if not inner:
            branches.append(first)
        elif not all(rests):  # a word ends here: the longer ones are tried first, then none
            branches.append(f"{first}(?:{inner})?")
        else:
            branches.append(f"{first}(?:{inner})" if "|" in inner else first + inner)
    return "|".join(branches)


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
