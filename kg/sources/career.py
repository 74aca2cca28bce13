"""Career sections (experience, education, teaching) and the organizations and places in them.

Each item is classified (a date, a role, a degree, an organization, a place, ...) and entries are
cut where a slot that an entry has only once (its dates, its role, its organization) would be
filled twice, or where the layout says so. This is what lets one parser read a table row, a
two-column block and a run of blank-separated lines alike.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from kg.records import Education, OrgRef, Period, Position
from kg.sources.context import Context
from kg.sources.layout import Item, Section
from kg.sources.text import (
    CITIES,
    US_STATES,
    find_period,
    is_country,
    is_place,
    links_in,
    parse_period,
    split_author_list,
    strip_markup,
)
from kg.words import alternation, word_list

#: A role's words (``kg/words/role-words.txt``): "Research Associate", "Wissenschaftliche Mitarbeiterin".
ROLE_WORDS = re.compile(rf"\b(?:{alternation(word_list('role-words'))})\b", re.I)
#: An organization's words (``kg/words/organization-words.txt``), or a company's web address.
ORG_WORDS = re.compile(rf"\b(?:{alternation(word_list('organization-words'))})\b|\.com\b", re.I)
DEGREE = re.compile(
    r"^(?P<degree>Ph\.?\s?D\.?|D\.?Phil\.?|Doctor(?:ate)?(?: of [A-Z]\w+)?|M\.?S(?:c)?\.?|M\.?Eng\.?|M\.?Phil\.?|"
    r"M\.A\.|MBA|M\.?Tech\.?|Master(?:'s)?(?: of [A-Z]\w+)?|B\.?S(?:c)?\.?|B\.?Eng\.?|B\.A\.|B\.?Tech\.?|"
    r"Bachelor(?:'s)?(?: of [A-Z]\w+)?|"
    # other languages' degrees: German, French, Spanish, Italian, Portuguese
    r"Promotion|Dr\.\s?(?:rer\.\s?nat|phil|ing|med)\.|Doktor|Diplom(?:-\w+)?|Magister|Doctorat|Doctorado|"
    r"Dottorato(?: di ricerca)?|Doutorado|Doutoramento|Máster|Mestrado|Laurea(?: magistrale| triennale)?|"
    r"Licence|Licenciatura)(?=$|[\s,(])", re.I)
# the beginnings of a doctorate's and a master's names (any other degree is a bachelor's), lower case,
# without periods or spaces
_DOCTORATE = ("phd", "dphil", "doctor", "promotion", "dr", "doktor", "dottorato", "doutor")
_MASTER = ("m", "diplom", "laureamagistrale")
GRADE = re.compile(r"^(?:GPA|CGPA|Grade|Classification)\b|^(?:Distinction|Merit|Pass|First[- ]Class|"
                   r"Upper Second|Cum Laude|Magna Cum Laude|Summa Cum Laude)\b", re.I)


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

_THESIS_LABEL = re.compile(r"^(?:Thesis(?: Title)?|Dissertation)\s*:", re.I)
# a thesis's supervisors, or its committee (its members advise it)
_SUPERVISOR_LABEL = re.compile(r"^(?:Supervisors?|Advisors?|Supervised by|Committee)\s*:", re.I)
_URL = re.compile(r"https?://\S+")
_IN_PARENTHESES = re.compile(r"\(.*\)")


def classify_career_item(item: Item) -> str:
    """The kind of one item in an experience, education or teaching section."""
    text = item.text
    if item.bullet:
        return "bullet"
    if _THESIS_LABEL.match(text):
        return "thesis"
    if _SUPERVISOR_LABEL.match(text):
        return "supervisor"
    if GRADE.match(text):
        return "grade"
    if _URL.fullmatch(text):
        return "url"
    if parse_period(text):
        return "date"
    if _IN_PARENTHESES.fullmatch(text):
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
    """Split ``"Some University (2012-2017)"`` into an organization item and a date item, and a whole
    entry on one line into its parts (:func:`_one_line_entry`)."""
    out = []
    for item in items:
        text = item.text
        parts = _one_line_entry(item)
        if parts is not None:
            out += parts
            continue
        m = re.search(r"\(([^()]*\d{4}[^()]*)\)\s*$", text)
        if m and not parse_period(text) and parse_period(m.group(1)):
            head = Item(text[: m.start()].strip(), item.line, item.new_entry, item.gap_before, column=item.column)
            out.append((classify_career_item(head), head, head.text))
            out.append(("date", item, m.group(1)))
            continue
        kind = classify_career_item(item)
        out.append((kind, item, text))
    return out


def _one_line_entry(item: Item) -> list[tuple[str, Item, str]] | None:
    """A whole entry on one line, its date first or last: "2019-present: Research Associate, University
    of X", "- 2015: MSc Physics, University of Y", "Lecturer, College Z, 2010-2012". Its date, its role
    or degree, and the rest as its organization (with its place); None for any other line. A bulleted
    line is an entry only with a role or a degree ("- 2020: Led the graph project" describes the entry
    above it), and a line without one only with an organization."""
    text = item.unmarked
    found = find_period(text)
    if found is None or parse_period(text):
        return None
    _, a, b = found
    # what stands beside the date, without the marks next to it ("2019-present: ", ", 2015.")
    before, after = text[:a].rstrip(_AROUND_DATE).strip(), text[b:].lstrip(_AROUND_DATE).rstrip(" ,;:.")
    if not (before or after) or before.count("(") != before.count(")"):
        return None  # a date alone, or inside parentheses ("Econometrics (M.Sc, 2023)")
    if before and after:  # a PDF's columns: "Assistant Professor 2022–present Johns Hopkins University"
        head_item = Item(before, item.line, column=item.column)
        kind = classify_career_item(head_item)
        if kind not in ("role", "degree") or not ORG_WORDS.search(after):
            return None  # a date inside a sentence ("Visited X in 2019 for a month")
        return [(kind, head_item, before), ("date", item, text[a:b]),
                ("org", Item(after, item.line, column=item.column), after)]
    pieces = [Item(p.strip(), item.line, column=item.column) for p in _PIECES.split(before or after) if p.strip()]
    kinds = [classify_career_item(p) for p in pieces]
    head = next((i for i, k in enumerate(kinds) if k in ("role", "degree")), None)
    # a town not known as one before its country ("Delft, Netherlands") is a place too
    if len(pieces) >= 2 and is_country(pieces[-1].text) and not any(
            ORG_WORDS.search(p.text) or len(p.text.split()) > 3 for p in pieces[:-1]):
        kinds = ["place"] * len(pieces)
    if head is None and kinds and all(k == "place" for k in kinds):  # "01/09/2019 – CURRENT Delft, Netherlands"
        rest = ", ".join(p.text for p in pieces)
        date, place = ("date", item, text[a:b]), ("place", Item(rest, item.line, column=item.column), rest)
        return [date, place] if before == "" else [place, date]
    if head is None and (item.bullet or "org" not in kinds):
        return None
    role_alone = head is not None and kinds[head] == "role" and "org" not in kinds
    if role_alone and (cut := _org_after_role(pieces[head].text)):  # "Professor University College Dublin"
        pieces[head:head + 1] = [Item(part, item.line, column=item.column) for part in cut]
        kinds[head:head + 1] = ["role", "org"]
    # in printed order; a line with a date, a role or degree and an organization is an entry of its own,
    # where one with less may go on below ("Student-Teacher Supervisor, 2012-2013", then its organization)
    rest = ", ".join(p.text for i, p in enumerate(pieces) if i != head)
    whole = head is not None and bool(rest)
    out = [(kinds[head], pieces[head], pieces[head].text)] if head is not None else []
    if rest:
        out.append(("org", Item(rest, item.line, column=item.column), rest))
    date = ("date", Item(text[a:b], item.line, column=item.column), text[a:b])
    out = [date] + out if before == "" else out + [date]
    kind, first, first_text = out[0]
    out[0] = (kind, Item(first.raw, first.line, column=first.column, whole_entry=whole), first_text)
    return out


_AROUND_DATE = " ,;:|–—-()"


def _org_after_role(text: str, after: int | None = None) -> tuple[str, str] | None:
    """A role (or a degree) and its organization printed without a comma between them, as a PDF's
    columns or Europass come out ("Professor University College Dublin", "Head of School School of
    Economics", "PHD CANDIDATE DELFT UNIVERSITY"): cut before the first organization's word after the last
    role word (or *after*) that leaves the role no preposition at its end."""
    if after is None:
        roles = list(ROLE_WORDS.finditer(text))
        if not roles:
            return None
        after = roles[-1].end()
    for org in ORG_WORDS.finditer(text, after):
        # the organization's name may begin before its word ("Research Fellow Geary Institute"), in the
        # same case ("MSC COMPUTER SCIENCE Utrecht University" begins at "Utrecht")
        start, capitals = org.start(), org.group().isupper()
        for word in reversed(list(_WORD.finditer(text, after, org.start()))):
            w = word.group()
            if not w[:1].isupper() or ORG_WORDS.fullmatch(w) or ROLE_WORDS.fullmatch(w) or w.isupper() != capitals:
                break
            start = word.start()
        role, rest = text[:start].strip(), text[start:].strip()
        if role and not _DANGLING.search(role) and len(rest.split()) >= 2 and rest[:1].isupper():
            return role, rest
    return None


_WORD = re.compile(r"\S+")
_DANGLING = re.compile(r"\b(?:of|for|at|in|and|the|de|der|des|di|du)$", re.I)
# where a one-line entry's parts part: a comma, a semicolon or a dash between spaces (not inside parentheses)
_PIECES = re.compile(r"\s*[,;]\s*(?![^()]*\))|\s+[–—-]\s+")


def _split_degree(text: str) -> tuple[str, str | None, str | None, str | None]:
    """``"Ph.D in Computer Science The X University"`` -> degree, level, field, institution."""
    m = DEGREE.match(text)
    head = m.group("degree")
    low = head.lower().replace(".", "").replace(" ", "")
    level = "doctorate" if low.startswith(_DOCTORATE) else "master" if low.startswith(_MASTER) else "bachelor"
    rest = text[m.end():].strip()
    rest = re.sub(r"^student\b\s*", "", rest, flags=re.I)
    degree = f"{head} {rest}".strip() if rest else head
    field_, institution = None, None
    if not rest or rest[:1].islower() and not _IN_OR_OF.match(rest):  # "PhD", "PhD in", "PhD candidate"
        return degree, level, field_, institution
    prep = _IN_OR_OF.match(rest)
    tail = rest[prep.end():] if prep else rest
    cut = re.search(r"\s(The\s+[A-Z].*)$", tail)
    if cut:
        field_, institution = tail[: cut.start()].strip(), cut.group(1).strip()
    else:
        for known in sorted(word_list("fields-of-study"), key=len, reverse=True):
            if tail.lower().startswith(known.lower() + " ") and ORG_WORDS.search(tail[len(known):]):
                field_, institution = tail[: len(known)], tail[len(known):].strip()
                break
        else:
            field_ = tail
    if prep:
        return f"{head} {prep.group(1).lower()} {field_}", level, field_, institution
    # no "in" or "of" before the field: "PhD Economics Trinity College Dublin", "PHD CANDIDATE DELFT UNIVERSITY"
    if institution is None and (cut := _org_after_role(text, m.end())):
        return cut[0], level, None, cut[1]
    return degree if institution is None else f"{head} {field_}", level, field_, institution


_IN_OR_OF = re.compile(r"(in|of)\s+(?=\S)", re.I)


def _supervisor_names(text: str) -> list[str]:
    body = _SUPERVISOR_LABEL.sub("", text).strip()
    return [a.name for a in split_author_list(body)]


# --- career: experience, education, teaching ------------------------------------------

SINGLE_SLOTS = ("date", "role", "degree", "org")


def _segment(kinds: list[tuple[str, Item, str]], starts: Callable[[dict, str, Item], bool]):
    """Cut entries where the layout says (table rows, column heads), else where *starts* says."""
    by_layout = any(item.new_entry for _, item, _ in kinds)
    entries: list[list[tuple[str, Item, str]]] = []
    slots: dict[str, int] = {}
    for kind, item, text in kinds:
        if not entries or item.new_entry or item.whole_entry or (not by_layout and starts(slots, kind, item)):
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
                thesis = _THESIS_LABEL.sub("", thesis).strip(" \"“”_*")
            supervisors = [n for s in got.get("supervisor", []) for n in _supervisor_names(s)]
            records.append(Education(
                degree=degree, institution=org, period=period, span=span, level=level,
                field_of_study=field_ or (others[0] if others and section.kind == "education" else None),
                grade=got.get("grade", [None])[0], thesis_title=thesis, supervisors=supervisors,
                location=place or (org.location if org else None)))
            continue
        role = got.get("role", [None])[0]
        if org is None and role and (cut := _org_after_role(role)):  # "POSTDOCTORAL RESEARCHER UNIVERSITY OF X"
            role, org = cut[0], parse_org(cut[1])
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

