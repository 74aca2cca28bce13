"""Field values turned into record values, for every reader of structured entries (BibTeX, RIS,
CSL-JSON, ORCID, dblp, OpenAlex/Crossref, site data files, front matter, repository records):
printed names into :class:`~kg.records.Author`, dates into years, venues and notes into a status,
type names into a kind, and the owner of a file that names none.

>>> turn_name("Curie, Marie"), turn_name("Doe, J.-P."), turn_name("Marie Curie")
('Marie Curie', 'J.-P. Doe', 'Marie Curie')
>>> kind_and_status("phdthesis"), kind_and_status("JOUR"), kind_and_status("Book chapter")
(('thesis', None), ('article', None), ('chapter', None))
>>> status_in("arXiv preprint arXiv:2101.00001"), status_in("Submitted to Nature"), status_in("ICML")
('preprint', 'under review', None)
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from dataclasses import replace
from functools import cache

from unidecode import unidecode

from kg.records import Author, Profile, Span, Work
from kg.sources.pubfields import Entry
from kg.sources.text import clean_person_name, strip_markup
from kg.words import alternation, word_list, word_table

# --- names and authors ----------------------------------------------------------------------

# Marks printed after (or before) a name: equal contribution (*, †), corresponding author, advisee.
_MARKS = re.compile(r"\^\s*\{?[\w,*†‡§¶#]+\}?|\(\s*[*†‡§¶#]+\s*\)|[*†‡§¶#∗]+")
_EQUAL_MARKS = set("*†∗")
_ET_AL = re.compile(r"^(?:et\.?\s*al\.?|and others|others|\.\.\.|…)$", re.I)


def clean_mark(printed: str) -> tuple[str, bool]:
    """A name with the marks printed on it removed, and whether one of them marks equal contribution.

    >>> clean_mark("Jane Doe*"), clean_mark("Jane Doe^†"), clean_mark("Jane Doe")
    (('Jane Doe', True), ('Jane Doe', True), ('Jane Doe', False))
    """
    marks = "".join(m.group(0) for m in _MARKS.finditer(printed))
    name = _MARKS.sub(" ", printed)
    return " ".join(name.split()).strip(" ,;"), any(c in _EQUAL_MARKS for c in marks)


def turn_name(printed: str) -> str:
    """``"Family, Given"`` as ``"Given Family"`` (``"Family, Jr., Given"`` as ``"Given Family Jr."``);
    any other name as printed. Initials are kept as printed; whitespace is normalised."""
    parts = [p.strip() for p in printed.split(",")]
    if len(parts) == 2 and all(parts):
        return " ".join(f"{parts[1]} {parts[0]}".split())
    if len(parts) == 3 and all(parts):
        return " ".join(f"{parts[2]} {parts[0]} {parts[1]}".split())
    return " ".join(printed.split())


def author(printed: str, et_al_follows: bool = False, *, markup: bool = False) -> Author | None:
    """An :class:`Author` from a printed name: marks removed and noted, ``Family, Given`` turned;
    None when nothing of a name is left. With *markup* (site data, front matter) the name may also
    carry markdown or HTML (``**Jane Doe**`` is bold, not an equal-contribution mark) and titles.

    >>> author("Doe, Jane*").name, author("**Jane Doe**", markup=True).equal_contribution
    ('Jane Doe', False)
    """
    if markup:
        name, equal = clean_person_name(printed), clean_mark(strip_markup(printed, keep_stars=True))[1]
    else:
        name, equal = clean_mark(printed)
        name = turn_name(name)
    if not any(ch.isalpha() for ch in name):
        return None
    return Author(printed=printed.strip(), name=name, equal_contribution=equal, et_al_follows=et_al_follows)


def mark_et_al(authors: list[Author]) -> None:
    """Mark the last author as followed by "et al." / "and others"."""
    if authors:
        authors[-1] = replace(authors[-1], et_al_follows=True)


def authors_of(value) -> list[Author]:
    """Authors from a site's field: one string in any printed style (split by
    :func:`~kg.sources.text.split_author_list`), or a list of names or of name fields.

    >>> [a.name for a in authors_of(["Doe, Jane", {"given": "Li", "family": "Wei"}, "et al."])]
    ['Jane Doe', 'Li Wei']
    >>> authors_of(["Jane Doe*", "et al."])[0]
    Author(printed='Jane Doe*', name='Jane Doe', equal_contribution=True, et_al_follows=True)
    """
    from kg.sources.text import split_author_list

    if isinstance(value, str):
        return split_author_list(value)
    if isinstance(value, dict):  # one author as fields
        value = [value]
    authors: list[Author] = []
    for printed in filter(None, map(printed_name, value if isinstance(value, list) else [])):
        if _ET_AL.match(printed.strip()):
            mark_et_al(authors)
        elif person := author(printed, markup=True):
            authors.append(person)
    return authors


def printed_name(item) -> str | None:
    """A name given as a string or as fields (``name``, or ``given`` and ``family``...)."""
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


# --- year, status, kind, DOI, title ----------------------------------------------------------

_YEAR = re.compile(r"(?<!\d)(1[5-9]\d\d|20\d\d)(?!\d)")


def year_of(value) -> str | None:
    """The first plausible year (1500-2099) of a date field: a date, a number or a string such as
    ``"2020-04-12"`` or ``"May 2019"``.

    >>> year_of(dt.date(2019, 6, 1)), year_of(2024), year_of("Spring 2018"), year_of("n.d."), year_of("2150")
    ('2019', '2024', '2018', None, None)
    """
    if isinstance(value, (dt.date, dt.datetime)):
        return str(value.year)
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        value = str(int(value))
    match = _YEAR.search(value) if isinstance(value, str) else None
    return match.group(1) if match else None


@cache
def _whole_words(phrases: tuple[str, ...]) -> re.Pattern:
    return re.compile(r"(?<![\w])(?:" + alternation(phrases) + r")(?![\w])", re.I)


def _under_review_words() -> re.Pattern:
    return _whole_words(tuple(p for p, s in word_table("status-phrases").items() if s == ("under review",)))


@cache
def _preprint_words() -> re.Pattern:
    """A preprint server's name or a word such as "working paper", as a whole word."""
    return _whole_words(word_list("preprint-servers") + word_list("preprint-venues"))


def is_preprint_venue(venue: str | None) -> bool:
    """True for arXiv, SSRN, working-paper series and the like (``CoRR`` only as the whole venue).

    >>> is_preprint_venue("SSRN"), is_preprint_venue("Bank of Tests Working Paper No 7"), is_preprint_venue("Nature")
    (True, True, False)
    >>> is_preprint_venue("CoRR"), is_preprint_venue("Corr. Sci.")
    (True, False)
    """
    if not venue:
        return False
    return (bool(_preprint_words().search(venue))
            or " ".join(venue.lower().split()) in word_list("preprint-venue-names"))


def status_in(*texts: str | None) -> str | None:
    """``preprint`` or ``under review`` when one of *texts* (a venue, a note) says so, else None.

    >>> status_in("Nature", "revisions requested"), status_in("CoRR"), status_in("Corr. Sci.")
    ('under review', 'preprint', None)
    """
    texts = tuple(t for t in texts if t)
    text = " ".join(texts)
    if not text:
        return None
    if _under_review_words().search(text):
        return "under review"
    if _preprint_words().search(text) or any(map(is_preprint_venue, texts)):
        return "preprint"
    return None


@cache
def _status_prefixes() -> list[tuple[str, str]]:
    return sorted(((k, v[0]) for k, v in word_table("status-phrases").items() if v), key=lambda p: -len(p[0]))


def venue_status(venue: str | None) -> tuple[str | None, str | None]:
    """A venue with a leading status phrase removed, and the status it gave (None when none).

    >>> venue_status("Under review at Journal of Tests"), venue_status("Journal of Tests")
    (('Journal of Tests', 'under review'), ('Journal of Tests', None))
    >>> venue_status("Revision requested: The Journal of Tests")
    ('The Journal of Tests', 'under review')
    """
    if not venue:
        return venue, None
    low = venue.lower()
    for prefix, status in _status_prefixes():
        if low.startswith(prefix) and (len(low) == len(prefix) or not low[len(prefix)].isalnum()):
            rest = venue[len(prefix):].lstrip(" :-–—,.")
            return (rest or None), status
    return venue, None


def kind_and_status(value, table: str = "work-types") -> tuple[str | None, str | None]:
    """(kind, status) a type field gives through the type table *table* (``work-types``, or
    ``hugo-publication-types`` for Hugo's codes); the first known of a list; (None, None) when
    none is known.

    >>> kind_and_status("posted_content"), kind_and_status(["3"], "hugo-publication-types"), kind_and_status("zine")
    (('article', 'preprint'), ('article', 'preprint'), (None, None))
    """
    for v in value if isinstance(value, list) else [value]:
        if isinstance(v, (str, int)) and not isinstance(v, bool):
            found = word_table(table).get(re.sub(r"[\s_]+", "-", str(v).strip().lower()))
            if found:
                return found[0], (found[1] if len(found) > 1 else None)
    return None, None


def truthy(value) -> bool:
    """A YAML/JSON flag: true, "true", "yes", 1."""
    if isinstance(value, str):
        return value.strip().lower() in {"true", "yes", "y", "1"}
    return value is True or (isinstance(value, int) and not isinstance(value, bool) and value == 1)


def clean_doi(raw: str | None) -> str | None:
    """A DOI without its resolver prefix: ``https://doi.org/10.1/x`` -> ``10.1/x``."""
    if not raw:
        return None
    m = re.search(r"10\.\d{4,9}/\S+", raw)
    return m.group(0).rstrip(".,;") if m else None


def is_garbage_title(title: str) -> str | None:
    """Why *title* cannot be a work's title (no letters, only a URL), or None when it can."""
    if not any(ch.isalpha() for ch in title):
        return "its title has no letters"
    if re.fullmatch(r"(?:https?://|www\.|doi:)\S*", title.strip(), re.I):
        return "its title is only a link"
    return None


# --- the owner of a file that names none ------------------------------------------------------

def person_key(name: str) -> tuple[str, str]:
    """Family name (with its particles) and first initial, accents and case folded: the same
    person printed as ``Mei-Ling Chao``, ``Chao, Meiling`` or ``M. Chao`` has one key.

    >>> person_key("Wiśniewska, A.") == person_key("AGNIESZKA WIŚNIEWSKA") == person_key("Agnieszka B. Wisniewska")
    True
    >>> person_key("Van Houten, D."), person_key("Doe")
    (('van houten', 'd'), ('doe', ''))
    """
    words = re.findall(r"[^\W\d_]+", unidecode(turn_name(name)).lower())
    if not words:
        return ("", "")
    start = len(words) - 1  # the family name: the last word and the particles before it
    while start > 1 and words[start - 1] in word_list("name-particles"):
        start -= 1
    return " ".join(words[start:]), (words[0][0] if len(words) > 1 else "")


def _fullness(name: str, count: int) -> tuple:
    given = name.split()[:-1]
    initials_only = all(len(w.strip(".-")) <= 1 or re.fullmatch(r"(?:\w\.)+-?", w) for w in given)
    return (not initials_only, not name.isupper(), count, sum(not ch.isascii() for ch in name), len(name))


def fullest_name(names: list[str]) -> str:
    """The fullest of one person's printed names: full given names over initials, not all
    capitals, the most printed, then accents kept and the longest.

    >>> fullest_name(["D. Van Dijcke", "David Van Dijcke", "DAVID VAN DIJCKE"])
    'David Van Dijcke'
    >>> fullest_name(["Jane Doe", "Jane A. Doe", "Jane Doe"])
    'Jane Doe'
    """
    return max(Counter(names).items(), key=lambda item: _fullness(*item))[0]


def frequent_author(works: list[Work], document: str, *, share: float = 0.6, least: int = 3,
                    highlighted_only: bool = False) -> Profile | None:
    """The person among the authors of at least *share* of the works that list authors (and of at
    least *least* works), in the fullest printed form: the owner of a CV bibliography or of a personal
    site's publication list. With *highlighted_only* only authors the document prints in bold or
    underlined count: a lab's data file names its head in most entries but has no owner, while a
    personal site highlights its owner."""
    with_authors = [w for w in works if w.authors]
    per_key: Counter = Counter()
    printed: dict[tuple[str, str], list[str]] = {}
    first_span: dict[tuple[str, str], Span] = {}
    for work in with_authors:
        keys = set()
        for a in work.authors:
            key = person_key(a.name)
            if key[0] and not (highlighted_only and not _highlighted(a.printed)):
                keys.add(key)
                printed.setdefault(key, []).append(a.name)
                first_span.setdefault(key, work.span)
        per_key.update(keys)
    if not per_key:
        return None
    key, count = per_key.most_common(1)[0]
    if count < max(least, share * len(with_authors)):
        return None
    span = first_span[key]
    return Profile(name=fullest_name(printed[key]), span=Span(document, span.first_line, span.last_line, span.place))


def _highlighted(printed: str) -> bool:
    return bool(re.search(r"\*\*|__|<(?:b|strong|u|em)\b", printed, re.I))
