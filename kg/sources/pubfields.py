"""Publication entries given as fields (site data files, page front matter): which key holds what,
found through a table of synonyms kept as data (``kg/words/publication-fields.txt``), and the
field values turned into record values (authors, year, venue and status, kind).

>>> e = Entry({"Title": "A *Study*", "Author": "Ada Lovelace and Mary Somerville", "date": "2020-04-12"})
>>> e.text("title"), [a.name for a in e.authors()], year_of(e.get("year"))
('A Study', ['Ada Lovelace', 'Mary Somerville'], '2020')
>>> venue_status("Revision requested: The Journal of Tests")
('The Journal of Tests', 'under review')
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from functools import cache

from kg.records import Author, Work
from kg.sources.text import clean_person_name, split_author_list, strip_markup
from kg.words import word_list


def _norm_key(key) -> str:
    return re.sub(r"[\s-]+", "_", str(key).strip().lower())


@cache
def _mapping(name: str) -> dict[str, tuple[str, ...]]:
    """A ``left = a, b, c`` word list as {left: (a, b, c)}."""
    out: dict[str, tuple[str, ...]] = {}
    for line in word_list(name):
        left, _, right = line.partition("=")
        out[left.strip()] = tuple(v.strip() for v in right.split(",") if v.strip())
    return out


def _fields() -> dict[str, tuple[str, ...]]:
    return {k: tuple(_norm_key(s) for s in v) for k, v in _mapping("publication-fields").items()}


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

    def authors(self) -> list[Author]:
        return authors_of(self.get("authors"))


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


# --- authors ------------------------------------------------------------------------------

_ET_AL = re.compile(r"^(?:et\.?\s*al\.?|and others|others|\.\.\.|…)$", re.I)


def authors_of(value) -> list[Author]:
    """Authors from a field: one string in any printed style (split by
    :func:`~kg.sources.text.split_author_list`), or a list of names or of name fields.

    >>> [a.name for a in authors_of(["Doe, Jane", {"given": "Li", "family": "Wei"}, "et al."])]
    ['Jane Doe', 'Li Wei']
    >>> authors_of(["Jane Doe*", "et al."])[0]
    Author(printed='Jane Doe*', name='Jane Doe', equal_contribution=True, et_al_follows=True)
    """
    if isinstance(value, str):
        return split_author_list(value)
    if isinstance(value, dict):  # one author as fields
        value = [value]
    if not isinstance(value, list):
        return []
    authors: list[Author] = []
    for item in value:
        printed = _printed_name(item)
        if not printed:
            continue
        if _ET_AL.match(printed.strip()):
            if authors:
                last = authors[-1]
                authors[-1] = Author(last.printed, last.name, last.equal_contribution, True)
            continue
        name = clean_person_name(printed)
        if name:
            marked = "*" in strip_markup(printed, keep_stars=True) or "\u2020" in printed
            authors.append(Author(printed.strip(), name, marked))
    return authors


def _printed_name(item) -> str | None:
    if isinstance(item, str):
        return item
    if not isinstance(item, dict):
        return None
    entry = Entry(item)
    name = entry.get("author_name")
    if isinstance(name, str):
        return name
    given, family = entry.get("author_given"), entry.get("author_family")
    if isinstance(family, str):
        return f"{given} {family}" if isinstance(given, str) else family
    return None


# --- year, venue, status, kind ------------------------------------------------------------

_YEAR = re.compile(r"(?<!\d)(1[5-9]\d\d|20\d\d)(?!\d)")


def year_of(value) -> str | None:
    """The year of a date field: a date, a number or a string such as ``"2020-04-12"`` or ``"May 2019"``.

    >>> year_of(dt.date(2019, 6, 1)), year_of(2024), year_of("Spring 2018"), year_of("n.d.")
    ('2019', '2024', '2018', None)
    """
    if isinstance(value, (dt.date, dt.datetime)):
        return str(value.year)
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        value = str(int(value))
    if isinstance(value, str):
        match = _YEAR.search(value)
        return match.group(1) if match else None
    return None


@cache
def _status_prefixes() -> list[tuple[str, str]]:
    pairs = [(k, v[0]) for k, v in _mapping("venue-status-prefixes").items() if v]
    return sorted(pairs, key=lambda p: -len(p[0]))


def venue_status(venue: str | None) -> tuple[str | None, str | None]:
    """A venue with a leading status phrase removed, and the status it gave (None when none).

    >>> venue_status("Under review at Journal of Tests"), venue_status("Journal of Tests")
    (('Journal of Tests', 'under review'), ('Journal of Tests', None))
    """
    if not venue:
        return venue, None
    low = venue.lower()
    for prefix, status in _status_prefixes():
        if low.startswith(prefix) and (len(low) == len(prefix) or not low[len(prefix)].isalnum()):
            rest = venue[len(prefix):].lstrip(" :-–—,.")
            return (rest or None), status
    return venue, None


@cache
def _preprint_words() -> re.Pattern:
    words = sorted(word_list("preprint-venues"), key=len, reverse=True)
    return re.compile(r"(?<!\w)(?:" + "|".join(re.escape(w) for w in words) + r")(?!\w)", re.I)


def is_preprint_venue(venue: str | None) -> bool:
    """True for arXiv, SSRN, working-paper series and the like.

    >>> is_preprint_venue("SSRN"), is_preprint_venue("Bank of Tests Working Paper No 7"), is_preprint_venue("Nature")
    (True, True, False)
    """
    return bool(venue and _preprint_words().search(venue))


def kind_status_of_type(value, table: str = "publication-types") -> tuple[str | None, str | None]:
    """(kind, status) a type field gives through the word list *table*; (None, None) when unknown.

    >>> kind_status_of_type("Book chapter"), kind_status_of_type(["3"], "hugo-publication-types")
    (('chapter', None), ('article', 'preprint'))
    """
    values = value if isinstance(value, list) else [value]
    mapping = _mapping(table)
    for v in values:
        if isinstance(v, (str, int)) and not isinstance(v, bool):
            found = mapping.get(str(v).strip().lower())
            if found:
                return found[0], (found[1] if len(found) > 1 else None)
    return None, None


def truthy(value) -> bool:
    """A YAML/JSON flag: true, "true", "yes", 1."""
    if isinstance(value, str):
        return value.strip().lower() in {"true", "yes", "y", "1"}
    return value is True or (isinstance(value, int) and not isinstance(value, bool) and value == 1)


# --- owner --------------------------------------------------------------------------------

def person_key(name: str) -> tuple[str, str]:
    """A loose key for one person's name variants: family name and first initial.

    >>> person_key("Van Dijcke, D.") == person_key("David Van Dijcke") == person_key("D. Van Dijcke")
    True
    """
    name = clean_person_name(name)
    words = [w for w in re.split(r"[\s.]+", name) if w]
    if not words:
        return ("", "")
    # family name: the last word and the particles before it ("Van Dijcke", "de la Cruz")
    particles = word_list("name-particles")
    family_start = len(words) - 1
    while family_start > 1 and words[family_start - 1].lower() in particles:
        family_start -= 1
    family = " ".join(words[family_start:]).lower()
    return family, words[0][:1].lower()


def fullest_name(names: list[str]) -> str:
    """The longest of a person's printed name variants (``"David Van Dijcke"`` over ``"D. Van Dijcke"``)."""
    return max(names, key=lambda n: (len(n.replace(".", "")), n))


def frequent_author(works: list[Work], *, share: float = 0.6, least: int = 3,
                    marked_only: bool = False) -> str | None:
    """The author in at least *share* of *works* (and at least *least* of them), fullest name;
    with *marked_only*, only an author the document highlights (bold, underline) counts."""
    counts: Counter = Counter()
    variants: dict[tuple, list[str]] = {}
    for work in works:
        seen = set()
        for a in work.authors:
            if marked_only and not _highlighted(a.printed):
                continue
            key = person_key(a.name)
            if key[0] and key not in seen:
                seen.add(key)
                counts[key] += 1
                variants.setdefault(key, []).append(a.name)
    if not counts or not works:
        return None
    key, n = counts.most_common(1)[0]
    if n >= least and n >= share * len(works):
        return fullest_name(variants[key])
    return None


def _highlighted(printed: str) -> bool:
    return bool(re.search(r"\*\*|__|<(?:b|strong|u|em)\b", printed, re.I))
