"""Reader for a thesis record page from an institutional repository (EPrints style).

Such a page gives the author as ``Family, Given``, the year in parentheses, the title,
a line like ``PhD thesis, University of X.``, an abstract, and a metadata table
(supervisors, keywords, awarding institution, academic units, dates).
"""

from __future__ import annotations

import re

from kg.records import Education, OrgRef, Period, Profile, Span, Work
from kg.sources import sections as S
from kg.sources.layout import split_sections
from kg.sources.text import clean_person_name, parse_date, split_author_list, strip_markup

THESIS_LINE = re.compile(r"^(?P<kind>PhD|Ph\.D\.|Doctoral|DPhil|MPhil|Masters?|MSc|MRes|Bachelor'?s?|BSc)\s+thesis,\s*"
                         r"(?P<institution>.+?)\.?$", re.I)
# The repository page's own furniture: links and notices, not facts about the thesis.
PAGE_FURNITURE = re.compile(r"^(?:Download|Export|Statistics|Licence:?|License:?|Filename:.*|Final eThesis.*|"
                            r"This work is licensed.*|You (?:do not need to|can) contact us.*|Metadata|Abstract)$",
                            re.I)


def looks_like_repository_record(text: str) -> bool:
    return any(THESIS_LINE.match(line.strip()) for line in text.splitlines()[:15])


def read_repository_record(text: str, document: str, ctx: S.Context):
    """The thesis's author (as profile), the thesis as a work, and the degree it earned."""
    lines = text.splitlines()
    items = split_sections(text)[0].items + [i for s in split_sections(text)[1:] for i in s.items]
    meta: dict[str, tuple[str, int]] = {}
    pending = None
    for item in items:
        if item.new_entry:
            pending = item.text.rstrip(":").lower()
        elif pending and item.column == 1:
            meta[pending] = (item.text, item.line)
            pending = None

    name_line = next((n for n, line in enumerate(lines, 1) if line.strip()), None)
    if name_line is None:
        ctx.skip([], "empty record")
        return None, [], "repository-record"
    author = clean_person_name(lines[name_line - 1])
    if not re.search(r"[^\W\d_]", author):
        ctx.skip([], f"line {name_line} should name the thesis's author but reads {lines[name_line - 1].strip()!r}; "
                     "put the author's name on the first line")
        return None, [], "repository-record"
    profile = Profile(author, Span(document, name_line, name_line))
    orcid = re.search(r"https?://orcid\.org/[\d-]+X?", text)
    if orcid:
        profile.orcid = orcid.group(0)

    thesis_no = next(n for n, line in enumerate(lines, 1) if THESIS_LINE.match(line.strip()))
    m = THESIS_LINE.match(lines[thesis_no - 1].strip())
    year_no = next((n for n in range(thesis_no - 1, 0, -1)
                    if re.fullmatch(r"\((?:19|20)\d\d\)", lines[n - 1].strip())), None)
    title_lines = [lines[n - 1].strip() for n in range((year_no or name_line) + 1, thesis_no) if lines[n - 1].strip()]
    title = " ".join(title_lines).rstrip(".")
    year = lines[year_no - 1].strip("() ") if year_no else None
    institution = meta.get("awarding institution", (m.group("institution"), thesis_no))[0]
    units = [u.strip() for u in meta.get("academic units", ("", 0))[0].split(">") if u.strip()]
    unit = meta.get("academic unit", (None, 0))[0]
    org = OrgRef(institution)
    for u in units[1:]:
        org = OrgRef(re.sub(r"\s*\([^)]*\)$", "", u), org)
    if unit:
        org = OrgRef(unit, org)

    abstract_lines = []
    start = next((n for n, line in enumerate(lines, 1) if line.strip().lower() == "abstract"), None)
    end = next((n for n, line in enumerate(lines, 1) if line.strip().lower() == "metadata"), len(lines) + 1)
    if start:
        abstract_lines = [lines[n - 1].strip() for n in range(start + 1, end) if lines[n - 1].strip()]
    supervisors = [a.name for a in split_author_list(_family_first_list(meta.get("supervisors", ("", 0))[0]))]
    keywords = [k.strip() for k in meta.get("keywords", ("", 0))[0].split(",") if k.strip()]
    last = max([thesis_no] + [line for _, line in meta.values()])
    work = Work(title=title, span=Span(document, year_no or name_line, thesis_no), kind="thesis",
                year=year, subject_ordinal=1, abstract=" ".join(abstract_lines) or None,
                keywords=keywords, supervisors=supervisors, institution=org)
    kind = m.group("kind")
    level = ("doctorate" if re.match(r"ph|doc|dphil", kind, re.I)
             else "master" if re.match(r"m", kind, re.I) else "bachelor")
    education = Education(degree=kind, institution=org, period=Period(end=year), span=Span(document, thesis_no, last),
                          level=level, thesis_title=title, supervisors=supervisors)
    for item in items:
        known = (item.line <= thesis_no or (start and start <= item.line < end) or item.new_entry
                 or item.column == 1 or PAGE_FURNITURE.match(item.text))
        if not known:
            ctx.skip([item], f"line {strip_markup(item.raw)[:60]!r} of the record was not understood")
    return profile, [work, education], "repository-record"


def _family_first_list(text: str) -> str:
    """``"Curie, Marie and Babbage, Charles"`` -> ``"Marie Curie and Charles Babbage"``."""
    people = re.split(r"\s+(?:and|&)\s+|;\s*", text)
    return " and ".join(clean_person_name(p) for p in people if p.strip())


def latest_metadata_date(text: str) -> str | None:
    dates = [parse_date(d) for d in re.findall(r"\b\d{1,2} [A-Z][a-z]{2} (?:19|20)\d\d\b", text)]
    return max((d for d in dates if d), default=None)
