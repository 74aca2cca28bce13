"""Text helpers the readers share: markup stripping, dates, author lists, places.

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

import html
import re

from kg.records import Author, Period
from kg.words import word_list

# --- markup -----------------------------------------------------------------------------

_TAG = re.compile(r"<[^>]+>")
_MD_LINK = re.compile(r"\[((?:\\.|[^\]\\])*)\]\(([^)]*)\)")
_AUTOLINK = re.compile(r"<(https?://[^>\s]+)>")
_HREF = re.compile(r"""href\s*=\s*["']([^"']+)["']""", re.I)
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|~<>])")
# Icons that CV templates put before contact details or as rating dots.
_ICONS = re.compile("[\U0001F300-\U0001FAFF\u2600-\u27BF\uFE0F\u2022\u2192]")


def links_in(raw: str) -> list[str]:
    """URLs a fragment links to: markdown links, autolinks, HTML hrefs and bare URLs."""
    found = [m.group(2) for m in _MD_LINK.finditer(raw)]
    found += _AUTOLINK.findall(raw) + _HREF.findall(raw)
    found += re.findall(r"(?<![<\"'(=])\bhttps?://[^\s<>\"')\]]+", raw)
    return [u for u in dict.fromkeys(found) if u.startswith(("http://", "https://"))]


def strip_markup(raw: str, *, keep_stars: bool = False) -> str:
    """Plain text of a markdown/HTML fragment: tags, link syntax, emphasis and icons removed.

    With ``keep_stars`` single ``*`` marks (equal-contribution marks) survive while
    ``**bold**`` markers go.
    """
    text = raw.replace("<br>", " ").replace("<br/>", " ").replace("<br />", " ")
    text = _AUTOLINK.sub(r"\1", text)
    text = _TAG.sub("", text)
    text = _MD_LINK.sub(lambda m: m.group(1), text)
    text = text.replace("**", "").replace("__", "")
    if keep_stars:
        text = text.replace("\\*", "\x00")
    else:
        text = text.replace("\\*", "")
        text = re.sub(r"(?<!\w)\*(?=\S)|(?<=\S)\*(?!\w)", "", text)
    text = _ESCAPE.sub(r"\1", text)
    text = html.unescape(text)
    text = _ICONS.sub("", text)
    text = text.replace("\x00", "*")
    return re.sub(r"\s+", " ", text).strip()


def is_wholly_bold(raw: str) -> bool:
    """True when the whole fragment is one bold run (``**...**`` or ``<b>...</b>``)."""
    s = raw.strip()
    if s.startswith("**") and s.count("**") % 2 == 1:
        return True  # bold never closed: a document cut off mid-line
    return bool(re.fullmatch(r"\*\*[^*]+\*\*|<b>.*</b>|<strong>.*</strong>", s))


# --- dates ------------------------------------------------------------------------------

_MONTHS = {
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6,
    "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12,
}
MONTH = (r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?"
         r"|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?")
DATE = rf"(?:(?:\d{{1,2}}\s+)?{MONTH}\s*,?\s*)?(?:19|20)\d\d"
_OPEN_END = r"(?:Present|Now|Current|Today|Ongoing)"
_RANGE = re.compile(rf"(?P<start>{DATE})\s*(?:-|–|—|~|to|until)\s*(?P<end>{DATE}|{_OPEN_END})", re.I)
_SINGLE = re.compile(DATE, re.I)


def parse_date(text: str) -> str | None:
    """ISO form of one date such as ``"Aug. 2020"``, ``"16 Jan 2026"`` or ``"2018"``."""
    m = re.fullmatch(rf"\s*(?:(\d{{1,2}})\s+)?(?:({MONTH})\s*,?\s*)?((?:19|20)\d\d)\s*", text, re.I)
    if not m:
        return None
    day, month, year = m.group(1), m.group(2), m.group(3)
    if not month:
        return year
    mm = _MONTHS[month[:3].lower()]
    if day:
        return f"{year}-{mm:02d}-{int(day):02d}"
    return f"{year}-{mm:02d}"


def find_period(text: str) -> tuple[Period, int, int] | None:
    """The first date range (or else single date) in *text*, with its character span."""
    m = _RANGE.search(text)
    if m:
        end = m.group("end")
        ongoing = bool(re.fullmatch(_OPEN_END, end, re.I))
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
    return re.findall(r"(?<!\d)(?:19|20)\d\d(?!\d)", text)


def short_year(text: str) -> str | None:
    """``"'24"`` -> ``"2024"``: the two-digit years of venue tags."""
    m = re.search(r"['’](\d\d)\b", text)
    if not m:
        return None
    yy = int(m.group(1))
    return str(2000 + yy if yy < 70 else 1900 + yy)


# --- people -----------------------------------------------------------------------------

# The titles of kg/words/name-titles.txt, longest first ("assoc. prof" before "prof"); a '.' after each word is optional.
_TITLE_WORDS = re.compile(r"^(?:" + "|".join(dict.fromkeys(
    r"\.?\s*".join(map(re.escape, re.split(r"[.\s]+", t.strip(". "))))
    for t in sorted(word_list("name-titles"), key=len, reverse=True))) + r")\.?\s+", re.I)


def clean_person_name(printed: str) -> str:
    """A printed name cleaned of decoration and titles; ``"Family, Given"`` is turned round.

    The order of a name written family-first without a comma is kept: only identity,
    which sees every variant, can tell that ``"Li Wei"`` is ``"Wei Li"``.
    """
    text = strip_markup(printed).replace("*", "")
    text = re.sub(r"[\u2020\u2021#§¶]+", "", text)
    text = _TITLE_WORDS.sub("", text.strip())
    text = re.sub(r"\s+", " ", text).strip(" ,;.")
    if text.count(",") == 1:
        family, given = (p.strip() for p in text.split(","))
        if family and given:
            text = f"{given} {family}"
    return text


def _is_equal_contribution(printed: str) -> bool:
    return "*" in strip_markup(printed, keep_stars=True) or "\u2020" in printed


def looks_like_person_name(text: str) -> bool:
    """Two to five capitalised words, no digits and no lower-case function words."""
    words = text.replace("-", " ").split()
    if not 2 <= len(words) <= 5 or re.search(r"\d", text):
        return False
    return all(w[:1].isupper() or w[:1] in "'" for w in words)


_ET_AL = re.compile(r"^et\.?\s*al\.?$", re.I)


def _split_top_level(text: str) -> list[str]:
    """Split on commas, ``and`` and ``&`` that are not inside brackets or parentheses."""
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth = max(0, depth - 1)
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    out = []
    for p in parts:
        out += [q for q in re.split(r"\s+(?:and|&)\s+", p) if q.strip()]
    return [p.strip() for p in out if p.strip()]


def split_author_list(raw: str) -> list[Author]:
    """Authors of a printed list in order, ``et al.`` marked on the author before it."""
    authors: list[Author] = []
    for part in _split_top_level(raw.strip().rstrip(".") + ("." if raw.strip().endswith("al.") else "")):
        if _ET_AL.match(strip_markup(part)):
            if authors:
                last = authors[-1]
                authors[-1] = Author(last.printed, last.name, last.equal_contribution, True)
            continue
        name = clean_person_name(part)
        if name:
            authors.append(Author(part.strip(), name, _is_equal_contribution(part)))
    return authors


def looks_like_author_list(raw: str) -> bool:
    """True when most comma-separated parts of *raw* are person names."""
    text = strip_markup(raw)
    if re.search(r"\d{4}|[\[\]:;]", text):
        return False
    parts = [p for p in _split_top_level(text) if not _ET_AL.match(p)]
    if not parts:
        return False
    names = sum(looks_like_person_name(clean_person_name(p)) for p in parts)
    return names >= max(1, 0.8 * len(parts)) and (len(parts) >= 2 or "et al" in text)


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
