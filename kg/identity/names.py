"""Printed names compared: which two names could be one person, and the blocks that find candidates.

Blocking keys (a family-name candidate and the first letter of another word) put every name
that could be compatible with another into a shared block, so candidates are found by lookup,
never by comparing all pairs.

>>> names_compatible("Mei-Ling Chao", "Chao Meiling") is not None
True
>>> names_compatible("Zhen Liu", "Zeke Liu") is None
True
>>> sorted(block_keys("Z. Liu")), "liu|z" in block_keys("Zhen Liu")
(['liu|z'], True)
"""

from __future__ import annotations

import re

from kg.identity.keys import key_cache, name_variants, name_words

SAME = "same name up to order, case, accents, titles, hyphens and spacing"
MIDDLE = "same name, a middle initial printed in one form only"
INITIALS = "the initials fit the full name"
#: Pairs of names compared, cached: 10,000 CVs compare 2.2 million pairs, but with a cache of them all
#: identity took no less time (238.4 s against 233.3 s): the per-name keys are what it asks for again.
PAIR_CACHE = 400_000
_HYPHENATED = re.compile(r"(?<![^\W\d_])[^\W\d_]\.?\s?-\s?[^\W\d_](?![^\W\d_])")  # "X.-B.", "X-B"


@key_cache()
def _parts(name: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(words longer than a letter, single letters), both in printed order."""
    words = name_words(name)
    return tuple(w for w in words if len(w) > 1), tuple(w for w in words if len(w) == 1)


def block_keys(name: str) -> frozenset[str]:
    """``family|letter`` for each word that could be the family name and each other word's first letter."""
    return _block_keys(name)


@key_cache()
def _block_keys(name: str) -> frozenset[str]:
    words = name_words(name)
    keys: set[str] = set()
    for i, w in enumerate(words):
        if len(w) > 1:
            keys.update(f"{w}|{o[0]}" for j, o in enumerate(words) if j != i)
    if not keys and words:
        keys.add("|".join(sorted(words)))  # a one-word name blocks with itself only
    return frozenset(keys)


def _initials_fit(short: str, full: str) -> bool:
    """Whether *short* (one or more initials and the family name) abbreviates *full*."""
    long_s, letters_s = _parts(short)
    long_f, letters_f = _parts(full)
    if not letters_s or not long_s or len(long_f) <= len(long_s):
        return False
    rest = list(long_f)
    for w in long_s:
        if w not in rest:
            return False
        rest.remove(w)
    for given in (rest, rest[::-1]):
        joined = "".join(given)
        if joined[0] != letters_s[0]:
            continue
        pos, left = 1, []
        for ch in letters_s[1:]:
            found = joined.find(ch, pos)
            if found < 0:
                left.append(ch)
            else:
                pos = found + 1
        # initials left over are middle initials: the full form prints the same ones, or none
        # (but "X.-B." is one hyphenated given name, whose second letter the full name must hold)
        if not left or tuple(left) == letters_f[:len(left)] or not (letters_f or _HYPHENATED.search(short)):
            return True
    return False


def names_compatible(a: str, b: str) -> str | None:
    """The rule by which printed names *a* and *b* could name one person, or None.

    >>> names_compatible("John A. Smith", "John Smith") == MIDDLE
    True
    >>> names_compatible("J. Smith", "John Smith") == INITIALS, names_compatible("K. Smith", "John Smith")
    (True, None)
    >>> names_compatible("T.-H. Liao", "Tianhua Liao") == INITIALS
    True
    >>> names_compatible("J. M. Doe", "Jane Doe") == INITIALS  # a full form that drops the middle initial
    True
    """
    return _compatible(a, b) if a <= b else _compatible(b, a)


@key_cache(PAIR_CACHE)
def _compatible(a: str, b: str) -> str | None:
    if name_variants(a) & name_variants(b):
        return SAME
    (long_a, letters_a), (long_b, letters_b) = _parts(a), _parts(b)
    if len(long_a) >= 2 and sorted(long_a) == sorted(long_b):
        if not letters_a or not letters_b or letters_a == letters_b:
            return MIDDLE
        return None
    if len(long_a) >= 2 and len(long_b) >= 2:
        return None
    if _initials_fit(a, b) or _initials_fit(b, a):
        return INITIALS
    if long_a and sorted(long_a) == sorted(long_b) and letters_a and letters_b:
        shorter, longer = sorted((letters_a, letters_b), key=len)
        if longer[:len(shorter)] == shorter:
            return MIDDLE
    return None


def is_full_name(name: str) -> bool:
    """Two or more words longer than a letter: a name that is not only initials and a family name."""
    return len(_parts(name)[0]) >= 2


def one_candidate(names: list[str]) -> bool:
    """Whether every two of *names* could be one person: variants of one name ("T. He", "T.-H. He",
    "Taohai He") are one candidate for an initials form, two different full names are two.

    >>> one_candidate(["T. Doe", "T.-H. Doe", "Taohai Doe"]), one_candidate(["Tao Doe", "Taohai Doe"])
    (True, False)
    """
    return all(names_compatible(a, b) for i, a in enumerate(names) for b in names[i + 1:])
