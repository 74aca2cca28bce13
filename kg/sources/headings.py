"""What a heading names: a CV section ("AWARDS / HONORS"), or a group of a publication list
("Under Review", "Journal Articles", "2023").

Headings are read from the word lists ``section-titles``, ``publication-groups`` and
``publication-kinds`` (kg/words): exactly, then allowing a misspelling (rapidfuzz), then by the
heading's head word ("Refereed Conference Papers" -> papers).

>>> section_title_kind("RESEACH INTERESTS"), section_title_kind("Refereed Presentations")
('interests', 'talks')
>>> section_title_kind("Chapter in Book"), section_title_kind("Publications Legend")
('publications', None)
>>> publication_group("Manuscripts under review:"), publication_group("## 2023 ##")
('under review', 'published')
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from rapidfuzz import fuzz, process

from kg.sources.markup import strip_markup
from kg.words import word_list

_PREPOSITIONS = {"on", "of", "in", "for", "about", "from", "with", "at", "by", "to"}


def _pairs(name: str) -> dict[str, str]:
    pairs = {}
    for line in word_list(name):
        key, _, value = line.partition("=")
        pairs[key.strip()] = value.strip()
    return pairs


@cache
def _section_titles() -> dict[str, str]:
    return _pairs("section-titles")


@cache
def _groups() -> dict[str, str]:
    return _pairs("publication-groups")


_HASHES = re.compile(r"^#+|#+$")
_SPACES = re.compile(r"\s+")
_WORD = re.compile(r"[\w'-]+")
_FINAL_PARENTHESES = re.compile(r"\s*\([^()]*\)$")
_YEAR_HEADING = re.compile(r"(?:19|20)\d\d(?:\s*[-–]\s*(?:(?:19|20)?\d\d|present))?(?:\s*\([^)]*\))?")


@lru_cache(maxsize=8192)
def heading_key(text: str) -> str:
    """A heading as compared: no markup, no ``#`` around it, no trailing colon, lower case."""
    key = strip_markup(_HASHES.sub("", text.strip()))
    return _SPACES.sub(" ", key).strip(" :.-").lower()


def _head_word(key: str) -> str | None:
    """``"papers on model analysis"`` -> ``"papers"``; ``"refereed conference papers"`` -> ``"papers"``."""
    words = _WORD.findall(key)
    for n, word in enumerate(words):
        if word in _PREPOSITIONS and n:
            return words[n - 1]
    return words[-1] if words else None


@lru_cache(maxsize=4096)
def section_title_kind(text: str, loose: bool = True) -> str | None:
    """The section kind a heading names, or None. Only a *loose* reading (of a line marked as a
    heading) goes by the head word: a line such as "Best Paper Award" inside a list is no heading."""
    key = heading_key(text)
    bare = _FINAL_PARENTHESES.sub("", key)  # "Invited Seminars (69 seminars, 12 countries)"
    if bare and bare != key and (kind := section_title_kind(bare, loose)):
        return kind
    if not key or len(key) > 60:
        return None
    titles = _section_titles()
    variants = {key, key.replace(" / ", " and ").replace(" & ", " and "), key.replace("/", " and ")}
    for variant in variants:
        variant = _SPACES.sub(" ", variant)
        if variant in titles:
            return titles[variant]
    if len(key) >= 6:
        found = process.extractOne(key, list(titles), scorer=fuzz.ratio, score_cutoff=90)
        if found:
            return titles[found[0]]
    head = _head_word(key)
    if not loose:
        return None
    if head in word_list("publication-kinds"):
        return "publications"
    if head and head in titles and head != key:
        return titles[head]
    return None


def is_year_heading(text: str) -> bool:
    """``"2023"``, ``"## 2023 ##"``, ``"2019-2020"``, ``"2023 (in press)"``: a year group heading."""
    return bool(_YEAR_HEADING.fullmatch(heading_key(text)))


@lru_cache(maxsize=4096)
def publication_group(text: str, loose: bool = True) -> str | None:
    """The status a publication-list sub-heading gives the works below it ("published" for a
    heading that only groups works by kind or year), or None when the text is not such a heading.
    Without *loose* (a line not marked as a heading) only the listed headings and years count."""
    key = heading_key(text)
    if not key or len(key.split()) > 8:
        return None
    groups = _groups()
    for variant in (key, key.rstrip("s"), key + "s"):
        if variant in groups:
            return groups[variant]
    if is_year_heading(text):
        return "published"
    if not loose:
        return "published" if section_title_kind(text, loose=False) == "publications" else None
    for phrase, status in groups.items():
        if status != "published" and len(phrase) > 6 and re.search(rf"\b{re.escape(phrase)}\b", key):
            return status
    if section_title_kind(text) == "publications" or _head_word(key) in word_list("publication-kinds"):
        return "published"
    return None
