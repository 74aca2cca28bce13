"""Section parsers: turn a section's items into records, by what each item looks like.

Each item is classified (a date, a role, a degree, an organization, a place, an author
list, a venue, ...) and entries are cut where a slot that an entry has only once
(its dates, its role, its organization) would be filled twice, or where the layout
says so. This is what lets one parser read a table row, a two-column block and a run
of blank-separated lines alike.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from kg.records import (
    Award,
    Education,
    Interest,
    OrgRef,
    Period,
    Position,
    Project,
    ServiceRole,
    Skill,
    Skip,
    Span,
    Talk,
    VenueRef,
    Work,
)
from kg.sources.layout import PUBLICATION_GROUPS, Item, Section
from kg.sources.text import (
    CITIES,
    US_STATES,
    find_period,
    is_country,
    is_place,
    links_in,
    looks_like_author_list,
    parse_date,
    parse_period,
    short_year,
    split_author_list,
    strip_markup,
    years_in,
)

ROLE_WORDS = re.compile(
    r"\b(?:professor|engineer|intern|internship|researcher|scientist|fellow|assistant|associate|officer|"
    r"manager|director|lecturer|guest|developer|analyst|consultant|post-?doc(?:toral)?|visiting|visitor|"
    r"chair|head|lead|founder|co-founder|ceo|cto|coo|cfo|president|architect|technician|tutor|instructor|"
    r"teacher|advisor|staff|reader|programmer|designer|editor|reviewer)\b", re.I)
ORG_WORDS = re.compile(
    r"\b(?:university|universit[äé]t?|hochschule|polytechnique|politecnico|institute|institution|college|school|lab|labs|laboratory|group|"
    r"cent(?:er|re)|company|co\.|ltd|limited|inc|corp|corporation|academy|foundation|department|faculty|"
    r"gmbh|llc|plc|technologies|hospital|council|agency|ministry|bank|cloud|research)\b|\.com\b", re.I)
DEGREE = re.compile(
    r"^(?P<degree>Ph\.?\s?D\.?|D\.?Phil\.?|Doctor(?:ate)?(?: of [A-Z]\w+)?|M\.?S(?:c)?\.?|M\.?Eng\.?|M\.?Phil\.?|"
    r"M\.A\.|MBA|M\.?Tech\.?|Master(?:'s)?(?: of [A-Z]\w+)?|B\.?S(?:c)?\.?|B\.?Eng\.?|B\.A\.|B\.?Tech\.?|"
    r"Bachelor(?:'s)?(?: of [A-Z]\w+)?)(?=$|[\s,(])", re.I)
FIELDS = (
    "Computer Science and Engineering", "Computer Science", "Computer Engineering", "Electrical Engineering",
    "Electronic Engineering", "Electrical and Electronic Engineering", "Information Engineering",
    "Software Engineering", "Data Science", "Artificial Intelligence", "Mathematics", "Applied Mathematics",
    "Statistics", "Physics", "Chemistry", "Biology", "Economics", "Mechanical Engineering",
    "Information Technology", "Information Science", "Automation", "Computational Science",
)
GRADE = re.compile(r"^(?:GPA|CGPA|Grade|Classification)\b|^(?:Distinction|Merit|Pass|First[- ]Class|"
                   r"Upper Second|Cum Laude|Magna Cum Laude|Summa Cum Laude)\b", re.I)
PRIZE = re.compile(r"\b(?:medal|prize|place|winner|finalist|honou?rable mention|runner[- ]up)\b", re.I)
SERVICE_ROLE = re.compile(r"\b(?:chair|member|committee|reviewer|organi[sz]er|editor|pc|volunteer|judge)\b", re.I)
VENUE_WORDS = re.compile(r"\b(?:conference|proceedings|symposium|journal|transactions|workshop|series|"
                         r"surveys|letters|review|magazine|arxiv|forum|congress|meeting)\b", re.I)
VENUE_TAG = re.compile(r"^\[(?P<tag>[^\]]+)\]\s*(?P<rest>.*)$")
VENUE_TITLE = re.compile(r"^(?:(?:ACM|IEEE|USENIX|IOP|Springer|Elsevier|VLDB)\s+)?(?P<acro>[A-Z][A-Za-z]*[A-Z][A-Za-z]*)"
                         r"\s+(?P<year>(?:19|20)\d\d)\s*:\s*(?P<title>.+)$")
SUBJECT_ROLE = re.compile(r"^(?P<co>co-?)?first author\b\.?\s*", re.I)
ACCEPTED = re.compile(r"^(?:accepted (?:to|at|by|in)|presented at|published (?:in|at)|appeared (?:in|at))"
                      r"(?:\s+and\s+(?:presented|published)\s+(?:at|in))?\s+(?P<venue>.+?)\s*"
                      r"\((?P<acro>[A-Za-z][A-Za-z-]*)\s*['’](?P<yy>\d\d)\)\s*(?P<rest>.*)$", re.I)
NUMBERED = re.compile(r"^\s*(?:[-*+]\s+)?\d+[.)]\s+")


@dataclass
class Context:
    """What a section parser needs besides its items: where it is, and where to report skips."""

    document: str
    skipped: list[Skip] = field(default_factory=list)

    def span(self, items: list[Item]) -> Span:
        lines = [i.line for i in items] or [0]
        return Span(self.document, min(lines), max(lines))

    def skip(self, items: list[Item], reason: str) -> None:
        self.skipped.append(Skip(self.span(items), reason))


# --- organizations and places -----------------------------------------------------------

def split_place(text: str) -> tuple[str, str | None, str | None]:
    """``"Acme Robotics Beijing, China"`` -> ``("Acme Robotics", "Beijing, China", "China")``.

    >>> split_place("Seoul National University, Korea")
    ('Seoul National University', 'Korea', 'Korea')
    >>> split_place("School of Physics, University of Bristol")
    ('School of Physics, University of Bristol', None, None)
    """
    parts = [p.strip() for p in text.split(",")]
    place: list[str] = []
    while len(parts) > 1 and (is_country(parts[-1]) or parts[-1].lower() in US_STATES
                              or (place and parts[-1].lower() in CITIES)):
        place.insert(0, parts.pop())
    country = place[-1] if place and is_country(place[-1]) else None
    # "Acme Robotics Beijing" ends with a city; "Imperial College London" is an institution's name.
    if place and not ORG_WORDS.search(parts[-1]):
        words = parts[-1].split()
        for n in (2, 1):
            if len(words) > n + 1 and " ".join(words[-n:]).lower() in CITIES and words[-n - 1].lower() not in _JOINERS:
                place.insert(0, " ".join(words[-n:]))
                parts[-1] = " ".join(words[:-n])
                break
    return ", ".join(parts), (", ".join(place) or None), country


_JOINERS = {"of", "at", "in", "de", "du", "der", "for", "the", "and", "&"}


def parse_org(raw: str) -> OrgRef | None:
    """An organization with its parents from text such as ``"[Lab](#), Univ, Country"``.

    Units come first and parents after, separated by commas, or ``Parent - Unit``.

    >>> o = parse_org("[Vision Lab](#), KAIST, Korea")
    >>> (o.name, o.parent.name, o.country)
    ('Vision Lab', 'KAIST', 'Korea')
    >>> o = parse_org("Acme Cloud - ML, Systems and AI (MSA)")
    >>> (o.name, o.parent.name)
    ('ML, Systems and AI (MSA)', 'Acme Cloud')
    """
    text = strip_markup(raw).strip(" .;")
    if not text:
        return None
    if " - " in text:
        parent, unit = (p.strip() for p in text.split(" - ", 1))
        name, location, country = split_place(unit)
        return OrgRef(name, OrgRef(parent), location, country)
    name, location, country = split_place(text)
    parts = [p.strip() for p in name.split(",") if p.strip()]
    # Only split on commas where every part stands alone as an organization name.
    linked = _linked(raw)
    if len(parts) > 1 and all(p[:1].isupper() and len(p.split()) <= 6 for p in parts) and any(
            ORG_WORDS.search(p) or p in linked or re.fullmatch(r"[A-Z]{2,}", p) for p in parts):
        ref = None
        for part in reversed(parts):
            ref = OrgRef(part, ref)
        return OrgRef(ref.name, ref.parent, location, country)
    return OrgRef(name, None, location, country)


def _linked(raw: str) -> set[str]:
    return {strip_markup(m) for m in re.findall(r"\[([^\]]+)\]\(", raw)}


# --- item classification ----------------------------------------------------------------

def classify_career_item(item: Item) -> str:
    """The kind of one item in an experience, education or teaching section."""
    text = item.text
    if item.bullet:
        return "bullet"
    if re.match(r"^Thesis(?: Title)?\s*:", text, re.I):
        return "thesis"
    if re.match(r"^(?:Supervisors?|Advisors?|Supervised by)\s*:", text, re.I):
        return "supervisor"
    if GRADE.match(text):
        return "grade"
    if re.fullmatch(r"https?://\S+", text):
        return "url"
    if parse_period(text):
        return "date"
    if re.fullmatch(r"\(.*\)", text):
        return "note"
    if DEGREE.match(text):
        return "degree"
    if is_place(text):
        return "place"
    if ROLE_WORDS.search(text) and not (item.bold and ORG_WORDS.search(text)) and len(text.split()) <= 8:
        return "role"
    if item.bold or ORG_WORDS.search(text) or _linked(item.raw) or "," in text or len(text.split()) <= 6:
        return "org"
    return "other"


def _expand_embedded_dates(items: list[Item]) -> list[tuple[str, Item, str]]:
    """Split ``"Some University (2012-2017)"`` into an organization item and a date item."""
    out = []
    for item in items:
        text = item.text
        m = re.search(r"\(([^()]*\d{4}[^()]*)\)\s*$", text)
        if m and not parse_period(text) and parse_period(m.group(1)):
            head = Item(text[: m.start()].strip(), item.line, item.new_entry, item.gap_before, column=item.column)
            out.append((classify_career_item(head), head, head.text))
            out.append(("date", item, m.group(1)))
            continue
        kind = classify_career_item(item)
        out.append((kind, item, text))
    return out


def _split_degree(text: str) -> tuple[str, str | None, str | None, str | None]:
    """``"Ph.D in Computer Science The X University"`` -> degree, level, field, institution."""
    m = DEGREE.match(text)
    head = m.group("degree")
    low = head.lower().replace(".", "").replace(" ", "")
    level = ("doctorate" if low.startswith(("phd", "dphil", "doctor")) else
             "master" if low.startswith(("m", "master")) else "bachelor")
    rest = text[m.end():].strip()
    rest = re.sub(r"^student\b\s*", "", rest, flags=re.I)
    degree = f"{head} {rest}".strip() if rest else head
    field_, institution = None, None
    fm = re.match(r"^(?:in|of)\s+(.+)$", rest, re.I)
    if fm:
        tail = fm.group(1)
        cut = re.search(r"\s(The\s+[A-Z].*)$", tail)
        if cut:
            field_, institution = tail[: cut.start()].strip(), cut.group(1).strip()
        else:
            for known in sorted(FIELDS, key=len, reverse=True):
                if tail.lower().startswith(known.lower() + " ") and ORG_WORDS.search(tail[len(known):]):
                    field_, institution = tail[: len(known)], tail[len(known):].strip()
                    break
            else:
                field_ = tail
        degree = f"{head} in {field_}" if rest.lower().startswith("in") else f"{head} of {field_}"
    return degree, level, field_, institution


def _supervisor_names(text: str) -> list[str]:
    body = re.sub(r"^(?:Supervisors?|Advisors?|Supervised by)\s*:\s*", "", text, flags=re.I)
    return [a.name for a in split_author_list(body)]


# --- career: experience, education, teaching ------------------------------------------

SINGLE_SLOTS = ("date", "role", "degree", "org")


def _segment(kinds: list[tuple[str, Item, str]], starts: Callable[[dict, str, Item], bool]):
    """Cut entries where the layout says (table rows, column heads), else where *starts* says."""
    by_layout = any(item.new_entry for _, item, _ in kinds)
    entries: list[list[tuple[str, Item, str]]] = []
    slots: dict[str, int] = {}
    for kind, item, text in kinds:
        if not entries or item.new_entry or (not by_layout and starts(slots, kind, item)):
            entries.append([])
            slots = {}
        entries[-1].append((kind, item, text))
        slots[kind] = slots.get(kind, 0) + 1
    return entries


def _career_starts(slots: dict, kind: str, item: Item) -> bool:
    if kind in SINGLE_SLOTS and kind in slots:
        return True
    if kind == "role" and "degree" in slots or kind == "degree" and "role" in slots:
        return True
    # A place after the bullets of an entry belongs to the next entry.
    return kind in ("org", "place") and "bullet" in slots


def position_kind(role: str | None, section: str) -> str:
    """job, internship, visit, fellowship or teaching, from the role's words."""
    r = (role or "").lower()
    if section == "teaching" or re.search(r"\b(?:teaching|lecturer|instructor|tutor)\b", r):
        return "teaching"
    if re.search(r"\bintern(?:ship)?\b|student researcher", r):
        return "internship"
    if re.search(r"\b(?:visiting|visitor|guest)\b", r):
        return "visit"
    if re.search(r"\bfellow\b", r):
        return "fellowship"
    return "job"


def parse_career(section: Section, ctx: Context) -> list:
    """Positions and degrees of an experience, education or teaching section."""
    kinds = _expand_embedded_dates(section.items)
    records = []
    for entry in _segment(kinds, _career_starts):
        items = [i for _, i, _ in entry]
        span = ctx.span(items)
        got: dict[str, list[str]] = {}
        raws: dict[str, list[str]] = {}
        for kind, item, text in entry:
            got.setdefault(kind, []).append(text)
            raws.setdefault(kind, []).append(item.raw)
        period = parse_period(got["date"][0]) if "date" in got else Period()
        org = parse_org(raws["org"][0]) if "org" in got else None
        place = got.get("place", [None])[0]
        if org and place and not org.location:
            country = place.split(",")[-1].strip() if is_country(place.split(",")[-1]) else None
            org = OrgRef(org.name, org.parent, place, country)
        # A second value of a one-value slot (another organization, a second role) is kept as description.
        others = got.get("other", []) + got.get("note", []) + got.get("org", [])[1:] + got.get("place", [])[1:]
        if "degree" in got:
            degree, level, field_, institution = _split_degree(got["degree"][0])
            if institution and org is None:
                org = OrgRef(institution)
            if org is None and "role" not in got:
                ctx.skip(items, "education entry without an institution; add one to the document or the curation file")
                continue
            thesis = got.get("thesis", [None])[0]
            if thesis:
                thesis = re.sub(r"^Thesis(?: Title)?\s*:\s*", "", thesis, flags=re.I).strip(" \"“”")
            supervisors = [n for s in got.get("supervisor", []) for n in _supervisor_names(s)]
            records.append(Education(
                degree=degree, institution=org, period=period, span=span, level=level,
                field_of_study=field_ or (others[0] if others and section.kind == "education" else None),
                grade=got.get("grade", [None])[0], thesis_title=thesis, supervisors=supervisors,
                location=place or (org.location if org else None)))
            continue
        role = got.get("role", [None])[0]
        if org is None and role is None:
            what = "; ".join(t for _, _, t in entry)[:80]
            ctx.skip(items, f"entry with neither an organization nor a role: {what!r}")
            continue
        if org is None and others:
            org = parse_org(others.pop(0))
        bullets = [re.sub(r"^[-*+•]\s*", "", strip_markup(i.raw)) for k, i, _ in entry if k == "bullet"]
        url = next((u for k, i, _ in entry if k == "url" for u in links_in(i.raw) or [i.text]), None)
        kind = position_kind(role, section.kind)
        records.append(Position(
            role=role, organization=org, period=period, span=span, kind=kind,
            location=place or (org.location if org else None),
            description=others + ([] if kind == "teaching" else bullets),
            courses=bullets if kind == "teaching" else [], homepage=url))
    return records


# --- publications -------------------------------------------------------------------------

def parse_venue(text: str) -> tuple[VenueRef | None, str | None, str | None]:
    """Venue, year and status from a venue line.

    >>> parse_venue("[NSDI '24] USENIX Symposium on Networked Systems Design and Implementation")
    (VenueRef(name='USENIX Symposium on Networked Systems Design and Implementation', acronym='NSDI'), '2024', None)
    >>> parse_venue("Principles and Practice of Parallel Programming (PPoPP 2024)")
    (VenueRef(name='Principles and Practice of Parallel Programming', acronym='PPoPP'), '2024', None)
    >>> parse_venue("[Preprint] Submitted to a Conference")
    (None, None, 'under review')
    """
    text = text.strip(" .")
    acronym = year = status = None
    m = VENUE_TAG.match(text)
    if m:
        tag, text = m.group("tag").strip(), m.group("rest").strip(" .")
        if re.fullmatch(r"pre-?print|arxiv|under review|submitted", tag, re.I):
            status = "preprint"
        else:
            year = short_year(tag) or (years_in(tag) or [None])[0]
            acronym = re.sub(r"\s*(?:['’]\d\d|(?:19|20)\d\d)\s*$", "", tag).strip() or None
    sub = re.match(r"^(?:submitted|under review)(?:\s+(?:to|at))?\s*(.*)$", text, re.I)
    if sub:
        status = "under review"
        text = sub.group(1).strip()
        if re.fullmatch(r"(?:an?\s+)?(?:conference|journal|venue)?", text, re.I):
            return (VenueRef(None, acronym) if acronym else None), year, status
    paren = re.search(r"\s*\(([^()]*)\)\s*$", text)
    if paren:
        inner = paren.group(1).strip()
        found_year = years_in(inner) or ([short_year(inner)] if short_year(inner) else [])
        word = re.sub(r"\s*(?:['’]\d\d|(?:19|20)\d\d)\s*$", "", inner).strip()
        if found_year or re.fullmatch(r"[A-Z][A-Za-z]*[A-Z][A-Za-z-]*", word):
            year = year or (found_year[0] if found_year else None)
            if re.fullmatch(r"[A-Za-z]*[A-Z][A-Za-z-]*", word) and " " not in word and word:
                acronym = acronym or word
            text = text[: paren.start()].strip()
    text = re.sub(r"^(?:In\s+)?(?:Proceedings of\s+)?(?:the\s+)?(?:\d+(?:st|nd|rd|th)\s+)?", "", text, flags=re.I)
    text = re.sub(r",?\s*(?:19|20)\d\d$", "", text).strip(" ,.")
    if not text and not acronym:
        return None, year, status
    return VenueRef(text or None, acronym), year, status


def _is_prose(text: str) -> bool:
    words = text.split()
    return len(words) > 30 or bool(re.search(r"[a-z]{2}\.\s+[A-Z]", text)) or (text[:1].islower())


def _title_style(items: list[Item]) -> Callable[[Item], bool]:
    """How this list marks where a publication starts: the first style that its items use."""
    styles: list[Callable[[Item], bool]] = [
        lambda i: bool(VENUE_TITLE.match(i.text)),
        lambda i: bool(NUMBERED.match(i.raw)),
        lambda i: i.row_year is not None,
        lambda i: i.bold and not looks_like_author_list(i.raw),
    ]
    for style in styles:
        if sum(style(i) for i in items) >= 1:
            return style
    return lambda i: i.gap_before


def parse_publications(section: Section, ctx: Context) -> list[Work]:
    """Works of a publication list, with authors in printed order, venue, year and status."""
    is_title = _title_style([i for i in section.items if i.column != -1])
    status = "published"
    works: list[Work] = []
    entry: list[Item] = []
    loose: list[Item] = []

    def flush():
        if entry:
            work = _parse_work(entry, status, ctx)
            if work:
                works.append(work)
        entry.clear()

    for item in section.items:
        if item.column == -1:  # a group heading such as "Under Review"
            flush()
            status = PUBLICATION_GROUPS[strip_markup(item.raw).strip(" :").lower()]
            continue
        if item.column > 0 and item.text == (item.row_year or "") :
            entry.append(item)
            continue
        if is_title(item):
            flush()
            entry.append(item)
        elif entry:
            entry.append(item)
        else:
            loose.append(item)
    flush()
    if loose:
        ctx.skip(loose, "text before the first publication that is not a publication")
    return works


def _parse_work(items: list[Item], group_status: str, ctx: Context) -> Work | None:
    first = items[0]
    title = NUMBERED.sub("", strip_markup(first.raw)).strip().strip("*").strip()
    venue = None
    year = first.row_year
    status = group_status
    m = VENUE_TITLE.match(title)
    if m:
        title = m.group("title").strip()
        venue, year = VenueRef(None, m.group("acro")), m.group("year")
    work = Work(title=title.rstrip("."), span=ctx.span(items), year=year, venue=venue, status=status)
    abstract: list[str] = []
    for item in items[1:]:
        text = item.text
        if re.fullmatch(r"(?:19|20)\d\d", text):
            work.year = work.year or text
            continue
        role = SUBJECT_ROLE.match(text)
        if role and not work.authors:
            work.subject_ordinal = 1
            work.subject_equal_contribution = bool(role.group("co"))
            rest = text[role.end():]
            acc = ACCEPTED.match(rest)
            if acc:
                name = re.sub(r"^(?:the\s+)?(?:\d+(?:st|nd|rd|th)\s+)?", "", acc.group("venue"), flags=re.I)
                work.venue = VenueRef(name, acc.group("acro"))
                work.year = work.year or short_year("'" + acc.group("yy"))
                if acc.group("rest"):
                    abstract.append(acc.group("rest"))
            elif rest:
                abstract.append(rest)
            continue
        if not work.authors and not work.subject_ordinal and looks_like_author_list(item.raw):
            work.authors = split_author_list(item.raw)
            continue
        if re.search(r"\b(?:award|best paper|distinguished|honou?rable mention)\b", text, re.I) and len(text.split()) <= 8:
            work.recognitions.append(text)
            continue
        venue_like = VENUE_TAG.match(text) or (VENUE_WORDS.search(text) and len(text.split()) <= 20)
        if (work.venue is None or work.venue.name is None and not m) and (
                venue_like or not _is_prose(text) and ("(" in text or not abstract)):
            venue, vyear, vstatus = parse_venue(text)
            if vstatus:
                work.status = "under review" if group_status == "under review" else vstatus
            if venue:
                work.venue = VenueRef(venue.name, venue.acronym or (work.venue.acronym if work.venue else None))
            work.year = work.year or vyear
            continue
        abstract.append(text)
    if abstract:
        work.abstract = " ".join(abstract)
    if not work.title:
        ctx.skip(items, "publication without a title")
        return None
    if not work.authors and not work.subject_ordinal:
        ctx.skip(items, f"publication {work.title!r} has no author list and no author role; "
                        "add its authors to the curation file")
        return None
    return work


# --- awards, service, talks, interests, skills, projects, summary -----------------------

def parse_awards(section: Section, ctx: Context) -> list[Award]:
    entries: list[list[Item]] = []
    for item in section.items:
        text = item.text
        only_years = re.fullmatch(r"[\s,;]*(?:(?:19|20)\d\d(?:\s*\([^)]*\))?[\s,;]*)+", text)
        if entries and (only_years or PRIZE.search(text) and len(text.split()) <= 4):
            entries[-1].append(item)
            continue
        if item.new_entry or not entries or not (item.column > 0 and only_years):
            entries.append([item])
        else:
            entries[-1].append(item)
    awards = []
    for entry in entries:
        head = entry[0].text
        years = []
        prize = None
        for item in entry[1:]:
            t = item.text
            if re.fullmatch(r"[\s,;]*(?:(?:19|20)\d\d(?:\s*\([^)]*\))?[\s,;]*)+", t):
                years += re.findall(r"(?:19|20)\d\d(?:\s*\([^)]*\))?", t)
            else:
                prize = t
        trailing = re.search(r",\s*((?:19|20)\d\d)$", head)
        if trailing:
            years.insert(0, trailing.group(1))
            head = head[: trailing.start()].strip()
        for y in years or [None]:
            year = years_in(y)[0] if y else None
            qualifier = re.search(r"\(([^)]*)\)", y or "")
            title = f"{head} ({qualifier.group(1)})" if qualifier else head
            awards.append(Award(title=title, span=ctx.span(entry), year=year, prize=prize))
    return awards


def parse_service(section: Section, ctx: Context) -> list[ServiceRole]:
    roles, entry = [], []

    def flush():
        if not entry:
            return
        event = next((i.text for i in entry if not SERVICE_ROLE.search(i.text) or VENUE_TAG.match(i.text)), None)
        role = next((i.text for i in entry if i.text != event), None)
        if role is None:
            ctx.skip(entry, "service entry without a role")
        else:
            venue, year, _ = parse_venue(event) if event else (None, None, None)
            if venue and venue.name:
                venue = VenueRef(re.sub(r"\s*\(co-located[^)]*\)", "", venue.name).strip(), venue.acronym)
            roles.append(ServiceRole(role=role, span=ctx.span(entry), venue=venue, year=year,
                                     event=strip_markup(VENUE_TAG.sub(r"\g<rest>", event)) if event else None))
        entry.clear()

    for item in section.items:
        if item.new_entry or (entry and not SERVICE_ROLE.search(item.text) and len(entry) >= 2):
            flush()
        entry.append(item)
    flush()
    return roles


def parse_talks(section: Section, ctx: Context) -> list[Talk]:
    """Talks: a title, then one or more place-and-date pairs; also when run together with ``*``."""
    tokens: list[tuple[str, Item, bool]] = []
    for item in section.items:
        parts = [p for p in re.split(r"\*+", item.raw) if strip_markup(p)] if "*" in item.raw.strip("*") else [item.raw]
        for n, part in enumerate(parts):
            tokens.append((strip_markup(part), item, item.new_entry and n == 0))
    talks: list[Talk] = []
    title, title_item, place = None, None, None
    for n, (text, item, forced) in enumerate(tokens):
        date = parse_date(text) if parse_period(text) else None
        nxt_is_date = n + 1 < len(tokens) and parse_period(tokens[n + 1][0]) is not None
        if date:
            if title is None:
                ctx.skip([item], f"date {text!r} without a talk title")
                continue
            talks.append(Talk(title=title, span=ctx.span([title_item, item]), place=place, date=date))
            place = None
        elif nxt_is_date and title is not None and not forced:
            place = text
        else:
            title, title_item, place = text, item, None
    return talks


def parse_interests(section: Section, ctx: Context) -> list[Interest]:
    out = []
    for item in section.items:
        for part in re.split(r"\s*[;•]\s*", re.sub(r"^[-*+•]\s*", "", item.text)):
            if part:
                out.append(Interest(part.strip(" ."), ctx.span([item])))
    return out


def parse_skills(section: Section, ctx: Context) -> list[Skill]:
    """Skills from a list or a grid of names with dot ratings under them, read column by column."""
    columns: dict[int, list[Item]] = {}
    for item in section.items:
        columns.setdefault(item.column, []).append(item)
    skills: list[tuple[tuple[int, int], Skill, list[Item]]] = []
    for col, items in sorted(columns.items()):
        current: list | None = None
        for item in items:
            text = item.text
            dots = re.fullmatch(r"[●○◉◯•·\s]+", text)
            if dots and current is not None:
                current[1].level = text.count("●") + text.count("◉")
                current[1].level_out_of = current[1].level + text.count("○") + text.count("◯")
                current[2].append(item)
            elif current is not None and current[1].level is None and current[1].detail is None and "," not in text:
                current[1].detail = text
                current[2].append(item)
            else:
                for name in [p.strip() for p in re.split(r",|;", re.sub(r"^[-*+•]\s*", "", text)) if p.strip()]:
                    current = [(item.line, col), Skill(name, ctx.span([item])), [item]]
                    skills.append(current)
    out = []
    for _, skill, items in sorted(skills, key=lambda s: s[0]):
        skill.span = ctx.span(items)
        out.append(skill)
    return out


def parse_projects(section: Section, ctx: Context) -> list[Project]:
    projects: list[Project] = []
    entry: list[Item] = []

    def flush():
        if not entry:
            return
        head = entry[0].text
        name, funding = head, None
        m = re.match(r"^(?P<name>[^()]+?)\s*\((?P<paren>[^)]*)\)\s*(?:on|:|-|–)?\s*(?P<rest>.*)$", head)
        description = []
        if m and re.search(r"project|grant|fund|programme|program|council", m.group("paren"), re.I):
            name = m.group("name").strip()
            funding = re.sub(r"\s*project$", "", m.group("paren").strip(), flags=re.I)
            if m.group("rest"):
                description.append(m.group("rest").strip())
        period, url = Period(), None
        for item in entry[1:]:
            if parse_period(item.text):
                period = parse_period(item.text)
            elif links_in(item.raw) and re.fullmatch(r"https?://\S+", item.text):
                url = links_in(item.raw)[0]
            elif item.text not in description:
                description.append(item.text)
        projects.append(Project(name=name, span=ctx.span(entry), period=period, description=description,
                                funding=funding, homepage=url))
        entry.clear()

    for item in section.items:
        if entry and (item.bold or item.new_entry) and not parse_period(item.text):
            flush()
        entry.append(item)
    flush()
    return projects


def parse_summary(section: Section, ctx: Context) -> tuple[str | None, list[Interest]]:
    """A summary's prose as a biography; bullets that lead with a bold phrase name interests."""
    prose, interests = [], []
    for item in section.items:
        lead = re.match(r"^\s*(?:[-*+•]\s*)?\*\*(?P<lead>[^*]+?)\.?\*\*", item.raw)
        if item.bullet and lead:
            interests.append(Interest(strip_markup(lead.group("lead")).strip(" ."), ctx.span([item])))
        prose.append(re.sub(r"^[-*+•]\s*", "", item.text))
    return (" ".join(prose) or None), interests


def find_dates(text: str) -> list[str]:
    """Every date the text mentions, as ISO strings (for the document's latest date)."""
    out = []
    pos = 0
    while True:
        found = find_period(text[pos:])
        if not found:
            return out
        period, _, end = found
        out += [d for d in (period.start, period.end) if d]
        pos += end
