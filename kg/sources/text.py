"""Text helpers the readers share: dates and places; markup (kg.sources.markup) and author lists
(kg.sources.authors) are re-exported from here.

Everything here works on one string at a time and knows nothing of documents.

>>> strip_markup('[\\\\[NSDI \\'24\\\\]](#) *USENIX Symposium*')
"[NSDI '24] USENIX Symposium"
>>> parse_period("Aug. 2020 - Aug. 2024")
Period(start='2020-08', end='2024-08', ongoing=False)
>>> parse_period("July 2022 - Present")
Period(start='2022-07', end=None, ongoing=True)
>>> parse_period("2012-2017")
Period(start='2012', end='2017', ongoing=False)
>>> [a.name for a in split_author_list("Ada Lovelace, Charles Babbage and Mary Somerville")]
['Ada Lovelace', 'Charles Babbage', 'Mary Somerville']
>>> clean_person_name("Curie, Marie"), clean_person_name("Prof. Li Wei")
('Marie Curie', 'Li Wei')
"""

from __future__ import annotations

import re

from kg.records import Period
from kg.sources.authors import (  # noqa: F401  (re-exported: readers call them from here)
    clean_person_name,
    looks_like_author_list,
    looks_like_person_name,
    split_author_list,
)
from kg.sources.markup import is_wholly_bold, links_in, strip_markup  # noqa: F401
from kg.words import alternation, word_list, word_table

# --- dates ------------------------------------------------------------------------------

# month name -> number (kg/words/month-names.txt): "Aug", "September", "März", "janvier"
_MONTHS = {name: int(number[0]) for name, number in word_table("month-names").items()}
MONTH = rf"(?i:{alternation(_MONTHS)})\.?"  # any case, as the patterns using it may not ignore case
_SEASON = r"(?:Spring|Summer|Fall|Autumn|Winter)"
# "2019", "Aug. 2020", "16 Jan 2026", "Aug 14, 2015", "enero de 2020", "10/2016", "01/09/2019" (day first,
# as in Europe), "Summer 2013" (a season says no month); its parts named for parse_date
_DATE_PARTS = (rf"(?:(?:(?P<day>\d{{1,2}})\.?\s+)?(?P<month>{MONTH})(?:\s+(?P<day_after>\d{{1,2}}))?(?:\s+de)?\s*,?\s*"
               rf"|(?:(?P<day_number>0?[1-9]|[12]\d|3[01])[/.])?(?P<number>0?[1-9]|1[0-2])[/.]|{_SEASON}\s+)?"
               r"(?P<year>(?:19|20)\d\d)")
DATE = re.sub(r"\(\?P<\w+>", "(?:", _DATE_PARTS)  # the same, its groups unnamed, for patterns made of several dates
# the end of a range that has not ended: "present", "heute", "aujourd'hui" (kg/words/open-end-words.txt)
_OPEN_END = rf"(?:{alternation(word_list('open-end-words'), any_space=True)})(?!\w)"
_RANGE = re.compile(rf"(?P<start>{DATE})\s*(?:-|–|—|~|to|until|bis)\s*(?P<end>{DATE}|{_OPEN_END})", re.I)
_SINGLE = re.compile(DATE, re.I)
_YEAR = re.compile(r"(?:19|20)(?=\d\d)")  # "19"/"20" never begins one character after another: no year is skipped
_ONE_DATE = re.compile(rf"\s*{_DATE_PARTS}\s*", re.I)
_OPEN_END_WORD = re.compile(_OPEN_END, re.I)
_FOUR_DIGIT_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")
_SHORT_YEAR = re.compile(r"['’](\d\d)\b")


def date_matches(pattern: re.Pattern, text: str, pos: int = 0):
    """``pattern.finditer(text, pos)`` for a pattern whose matches begin with a ``DATE`` (``_RANGE``,
    ``_SINGLE``): the same matches, but the pattern is tried only in the few places before each year
    where a date with that year can begin, not at every character of a long document.

    >>> [m.group(0) for m in date_matches(_RANGE, "PhD, 12 Jan. 2019 - Present; BSc 2010 to 2014")]
    ['12 Jan. 2019 - Present', '2010 to 2014']
    """
    for year in _YEAR.finditer(text, pos):
        q = year.start()
        if q < pos:
            continue  # inside the last match
        for p in range(_earliest_date_start(text, q, pos), q + 1):
            m = pattern.match(text, p)
            if m:
                yield m
                pos = m.end()
                break


def _earliest_date_start(text: str, q: int, pos: int) -> int:
    """No date whose year is at *q* begins before this: ``"12  Sept. , 2019"`` - the day, spaces, a
    month name (nine letters at most), a period, spaces and a comma. Whatever is between a date's
    start and its year holds at most two digits, so a year between them begins no date."""
    a = q
    while a > pos and (text[a - 1].isspace() or text[a - 1] in ",."):
        a -= 1
    lo = a - 12  # a month (nine letters at most, "September"), a space and a day ("Aug 14, 2015")
    while lo > pos and text[lo - 1].isspace():
        lo -= 1
    return max(lo - 2, pos)


def parse_date(text: str) -> str | None:
    """ISO form of one date such as ``"Aug. 2020"``, ``"16 Jan 2026"``, ``"Aug 14, 2015"``, ``"März 2019"``,
    ``"10/2016"`` or ``"2018"``."""
    m = _ONE_DATE.fullmatch(text)
    if not m:
        return None
    day, month, year = m.group("day") or m.group("day_after"), m.group("month"), m.group("year")
    if m.group("number"):  # "10/2016", and Europass's "01/09/2019" (day first)
        day = f"-{int(m.group('day_number')):02d}" if m.group("day_number") else ""
        return f"{year}-{int(m.group('number')):02d}{day}"
    if not month:
        return year
    mm = _MONTHS[month.rstrip(".").casefold()]  # casefold: the pattern, case-blind, also takes "ſep" (long s)
    if day:
        return f"{year}-{mm:02d}-{int(day):02d}"
    return f"{year}-{mm:02d}"


def find_period(text: str) -> tuple[Period, int, int] | None:
    """The first date range (or else single date) in *text*, with its character span."""
    m = _RANGE.search(text)
    if m:
        end = m.group("end")
        ongoing = bool(_OPEN_END_WORD.fullmatch(end))
        return Period(parse_date(m.group("start")), None if ongoing else parse_date(end), ongoing), m.start(), m.end()
    m = _SINGLE.search(text)
    if m:
        return Period(parse_date(m.group(0))), m.start(), m.end()
    return None


def parse_period(text: str) -> Period | None:
    """A period when *text* is nothing but a date or date range (brackets allowed)."""
    found = find_period(text)
    if not found:
        return None
    period, a, b = found
    rest = (text[:a] + text[b:]).strip(" ()[],.;:")
    return period if not rest else None


def years_in(text: str) -> list[str]:
    """Every four-digit year in *text*, in order."""
    return _FOUR_DIGIT_YEAR.findall(text)


def short_year(text: str) -> str | None:
    """``"'24"`` -> ``"2024"``: the two-digit years of venue tags."""
    m = _SHORT_YEAR.search(text)
    if not m:
        return None
    yy = int(m.group(1))
    return str(2000 + yy if yy < 70 else 1900 + yy)


# --- places -----------------------------------------------------------------------------

COUNTRIES = {
    "argentina", "australia", "austria", "belgium", "brazil", "canada", "chile", "china",
    "czech republic", "denmark", "egypt", "finland", "france", "germany", "greece", "hong kong",
    "hungary", "india", "indonesia", "iran", "ireland", "israel", "italy", "japan", "korea",
    "south korea", "malaysia", "mexico", "netherlands", "new zealand", "nigeria", "norway",
    "pakistan", "poland", "portugal", "qatar", "romania", "russia", "saudi arabia", "singapore",
    "south africa", "spain", "sweden", "switzerland", "taiwan", "thailand", "turkey", "uae",
    "united arab emirates", "uk", "united kingdom", "usa", "us", "united states",
    "united states of america", "vietnam", "macau", "luxembourg", "scotland", "england", "wales",
}
# Major research cities, so that "Acme Robotics Beijing, China" splits into organization and city.
CITIES = {
    "amsterdam", "atlanta", "austin", "bangalore", "barcelona", "beijing", "berlin", "boston",
    "cambridge", "chengdu", "chicago", "delhi", "dubai", "edinburgh", "guangzhou", "hangzhou",
    "hong kong", "leeds", "london", "los angeles", "madrid", "manchester", "melbourne", "montreal",
    "mountain view", "munich", "nanjing", "new york", "oxford", "palo alto", "paris", "pittsburgh",
    "redmond", "san francisco", "san jose", "seattle", "seoul", "shanghai", "shenzhen", "singapore",
    "stanford", "sydney", "taipei", "tokyo", "toronto", "vancouver", "vienna", "wuhan", "xi'an",
    "york", "zurich", "zürich", "tel aviv", "hefei", "tianjin", "sunnyvale", "santa clara",
}
US_STATES = {"al", "ak", "az", "ca", "co", "ct", "fl", "ga", "il", "ma", "md", "mi", "mn", "nc",
             "nj", "ny", "oh", "or", "pa", "tx", "ut", "va", "wa", "wi", "dc"}


def is_country(text: str) -> bool:
    return text.strip(" .").lower() in COUNTRIES


def is_place(text: str) -> bool:
    """True for ``"China"``, ``"Beijing, China"``, ``"Seattle, WA, USA"`` and the like."""
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if not parts or not is_country(parts[-1]):
        return len(parts) == 1 and parts[0].lower() in CITIES
    middle = parts[:-1]
    return all(p.lower() in CITIES or p.lower() in US_STATES for p in middle)
