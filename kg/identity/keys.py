"""Keys: the normal forms identity compares (names, titles, organizations, venues) and IRI slugs.

>>> person_key("Prof. Li Wei") == person_key("Wei Li")
True
>>> person_key("Joan Doe") == person_key("Jane Doe")
False
>>> title_key("Large-Scale GPU: a Survey") == title_key("large scale gpu — A SURVEY")
True
>>> org_initials("Massachusetts Institute of Technology")
'mit'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable
from functools import lru_cache
from sys import intern
from typing import Any, TypeVar, cast

from rapidfuzz import fuzz
from unidecode import unidecode

from kg.privacy import scrub
from kg.records import OrgRef, VenueRef
from kg.words import word_list

# Every word of every title ("assoc prof" gives "assoc" and "prof"): keys compare words, not phrases.
NAME_TITLES = frozenset(w for entry in word_list("name-titles") for w in re.split(r"[^a-z]+", entry) if w)
_STOP = {"of", "the", "and", "for", "in", "on", "at", "&", "a", "an", "de", "du"}
#: The entries each of identity's key caches holds: every distinct title and name of a big build, so
#: that each key is made once (10,000 CVs print 537,000 distinct titles, venues and names to split
#: into words, 451,000 titles). At 10,000 CVs caches of 200,000 made over a million keys again, and
#: identity took 257.6 s where it takes 236.2 s now.
KEY_CACHE = 1 << 20
_KEY_CACHES: list = []
_F = TypeVar("_F", bound=Callable[..., Any])


def key_cache(maxsize: int = KEY_CACHE) -> Callable[[_F], _F]:
    """``lru_cache(maxsize)``, cleared by :func:`release_key_caches`."""
    def decorate(function: _F) -> _F:
        cached = lru_cache(maxsize=maxsize)(function)
        _KEY_CACHES.append(cached)
        return cast(_F, cached)
    return decorate


def release_key_caches() -> None:
    """Empty identity's key caches (:func:`key_cache`): the keys of a build are made again if asked for."""
    for cached in _KEY_CACHES:
        cached.cache_clear()


_VENUE_NOISE = {"acm", "ieee", "usenix", "proceedings", "proc", "the", "of", "international", "annual", "iop",
                "springer", "sigplan", "sigops"}


def ascii_words(text: str) -> list[str]:
    return list(_ascii_words(text))


@key_cache()
def _ascii_words(text: str) -> tuple[str, ...]:
    # interned: titles share their words (the 33,755 titles of 1,000 CVs hold 286,045 words, 13,828
    # distinct), so a cached title holds pointers to them, not copies
    return tuple(intern(w) for w in re.split(r"[^a-z0-9]+", unidecode(text).lower()) if w)


def name_words(name: str) -> list[str]:
    """A name's words in printed order: ASCII, lower case, titles and nicknames in parentheses
    dropped, hyphenated parts joined.

    >>> name_words("Robert (Bob) Miller"), name_words("Mei-Ling Chao")
    (['robert', 'miller'], ['meiling', 'chao'])
    """
    return list(_name_words(name))


@key_cache()
def _name_words(name: str) -> tuple[str, ...]:
    text = re.sub(r"\([^)]*\)", " ", unidecode(name))
    text = re.sub(r"(?<=\w)-(?=\w)", "", text)
    return tuple(w for w in ascii_words(text) if w not in NAME_TITLES)


@key_cache()
def person_key(name: str) -> tuple[str, ...]:
    """Order-, case-, accent- and title-insensitive key; hyphenated given names join up."""
    return tuple(sorted(name_words(name)))


@key_cache()
def name_variants(name: str) -> frozenset[tuple[str, ...]]:
    """The name's key, plus keys with two neighbouring words joined ("Yu Zhong Wang" ~ "Yuzhong Wang")."""
    words = name_words(name)
    out = {tuple(sorted(words))}
    if len(words) >= 3:
        for i in range(len(words) - 1):
            out.add(tuple(sorted(words[:i] + [words[i] + words[i + 1]] + words[i + 2:])))
    return frozenset(out)


def is_initials_form(name: str) -> bool:
    """True for "Z. Wang", "Wang Z" or "T.W. Zhang": some words are single letters, one is not."""
    words = name_words(name)
    return any(len(w) == 1 for w in words) and any(len(w) > 1 for w in words)


@key_cache()
def title_key(title: str) -> str:
    """Case, punctuation, hyphen and space insensitive form of a title."""
    return "".join(ascii_words(title))


@key_cache()
def title_head(title: str) -> str | None:
    """The short name before a colon (``"Tessera"`` of ``"Tessera: A ..."``), if any."""
    if ":" not in title:
        return None
    head = title_key(title.split(":", 1)[0])
    return head or None


def org_key(name: str) -> str:
    name = re.sub(r"\([^)]*\)", " ", name)
    return " ".join(w for w in ascii_words(name) if w != "the")


def org_initials(name: str) -> str:
    words = [w for w in ascii_words(re.sub(r"\([^)]*\)", " ", name)) if w not in _STOP]
    return "".join(w[0] for w in words)


def venue_key(name: str) -> str:
    words = [w for w in ascii_words(name.replace("&", " and ")) if w not in _VENUE_NOISE]
    words = [w for w in words if not re.fullmatch(r"\d+(?:st|nd|rd|th)?", w)]
    return " ".join(words)


def slug(text: str, limit: int = 60) -> str:
    """A readable, IRI-safe slug, without the phone numbers and street addresses *text* holds
    (:func:`kg.privacy.scrub`): an IRI is an identifier in every output, whatever the build keeps.

    >>> slug("Universität Zürich"), slug("Institute of Graphs, 77 Massachusetts Avenue")
    ('universitat-zurich', 'institute-of-graphs')
    """
    s = "-".join(ascii_words(scrub(text)))
    if len(s) > limit:
        s = s[:limit].rsplit("-", 1)[0]
    return s or "x"


_NUMBERING = re.compile(r"^(?:\d+|[ivxlc]+|part|vol|volume|no)$")


def words_differ_only_by_numbering(a: Collection[str], b: Collection[str]) -> bool:
    """Whether two titles' :func:`ascii_words` differ only by numbers, "part", "vol"...: ``"Scaling Laws,
    Part I"`` vs ``"Scaling Laws, Part II"`` are different works of one series.

    >>> words_differ_only_by_numbering(ascii_words("Scaling Laws, Part I"), ascii_words("Scaling Laws, Part II"))
    True
    >>> pairs = [("Scaling Laws", "Scaling Laws 2"), ("Laws", "laws"), ("Laws, Part 1", "Rules, Part 2")]
    >>> [words_differ_only_by_numbering(ascii_words(a), ascii_words(b)) for a, b in pairs]
    [True, False, False]
    """
    # A word of one that the other lacks and that numbers nothing ends it, mostly at the first word,
    # without the two sets (two million pairs of titles at 10,000 CVs)
    if any(w not in b and not _NUMBERING.match(w) for w in a) or any(
            w not in a and not _NUMBERING.match(w) for w in b):
        return False
    return set(a) != set(b)


_TITLE_FUNCTION_WORDS = frozenset(word_list("title-function-words"))


def _spellings_of_one_word(a: str, b: str) -> bool:
    """"optimization"/"optimisation", "model"/"models", "learn"/"learning", a typo: one word spelt two ways."""
    shorter, longer = sorted((a, b), key=len)
    return len(shorter) >= 3 and longer.startswith(shorter) or fuzz.ratio(a, b) >= 80


def replaced_words(a: Iterable[str], b: Iterable[str]) -> tuple[str, str] | None:
    """A word of each of two titles' :func:`ascii_words` that the other title lacks in every spelling, where
    both have one: ``"Training for Graphs"`` and ``"Serving for Graphs"`` are two works. None where one
    title only adds words to the other, or they differ in function words (``word_list("title-function-words")``)
    and spellings.

    >>> replaced_words(ascii_words("Training for Graphs: A Survey"), ascii_words("Serving for Graphs: A Survey"))
    ('training', 'serving')
    >>> replaced_words(ascii_words("Graph Optimisation with Models"), ascii_words("Graph Optimization via Model"))
    >>> replaced_words(ascii_words("Zeta: Fast Graphs"), ascii_words("Fast Graphs on GPUs")) is None
    False
    >>> replaced_words(ascii_words("Zeta: Fast Graphs"), ascii_words("Fast Graphs"))
    """
    words_a, words_b = set(a), set(b)
    only_a = sorted(w for w in words_a - words_b if w not in _TITLE_FUNCTION_WORDS)
    only_b = sorted(w for w in words_b - words_a if w not in _TITLE_FUNCTION_WORDS)
    lone_a = [w for w in only_a if not any(_spellings_of_one_word(w, v) for v in only_b)]
    lone_b = [v for v in only_b if not any(_spellings_of_one_word(w, v) for w in only_a)]
    return (lone_a[0], lone_b[0]) if lone_a and lone_b else None


def venue_keys(ref: VenueRef) -> list[str]:
    """The keys a printed venue is known by: its acronym and its normalised name."""
    keys = []
    if ref.acronym:
        keys.append("acro:" + ref.acronym.lower())
    if ref.name and venue_key(ref.name):
        keys.append("name:" + venue_key(ref.name))
    return keys


def org_chain(ref: OrgRef | None) -> list[OrgRef]:
    """A unit, its parent, its parent's parent ... up to the top-level organization."""
    chain = []
    while ref is not None:
        chain.append(ref)
        ref = ref.parent
    return chain


def org_chain_key(ref: OrgRef) -> tuple:
    """The key of a unit within its parents: one :func:`org_key` per level, the unit first."""
    return tuple(org_key(r.name) for r in org_chain(ref))
