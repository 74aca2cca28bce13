"""Section parsers for the short sections of a CV: awards, service, talks, interests, skills,
projects and summary. Career sections are in :mod:`kg.sources.career`, publication lists in
:mod:`kg.sources.publications`; both are re-exported here, as is the parsers' :class:`Context`.
"""

from __future__ import annotations

import re

from kg.records import Award, Interest, Period, Project, ServiceRole, Skill, Talk, VenueRef
from kg.sources.career import ORG_WORDS, parse_career, parse_org, split_place  # noqa: F401
from kg.sources.context import Context  # noqa: F401
from kg.sources.layout import Item, Section
from kg.sources.publications import parse_publications  # noqa: F401
from kg.sources.text import (
    _RANGE,
    _SINGLE,
    date_matches,
    find_period,
    links_in,
    parse_date,
    parse_period,
    strip_markup,
    years_in,
)
from kg.sources.venue import VENUE_TAG, parse_venue

PRIZE = re.compile(r"\b(?:medal|prize|place|winner|finalist|honou?rable mention|runner[- ]up)\b", re.I)
SERVICE_ROLE = re.compile(r"\b(?:chair|member|committee|reviewer|organi[sz]er|editor|pc|volunteer|judge)\b", re.I)


# --- awards, service, talks, interests, skills, projects, summary -----------------------

_LEADING_YEAR = re.compile(r"((?:19|20)\d\d)\s*[:.,–—-]?\s+(?=[^\W\d_])")  # then a word: not "2010 & 2011"


def parse_awards(section: Section, ctx: Context) -> list[Award]:
    entries: list[list[Item]] = []
    for item in section.items:
        text = item.unmarked
        only_years = re.fullmatch(r"[\s,;]*(?:(?:19|20)\d\d(?:\s*\([^)]*\))?[\s,;]*)+", text)
        # a prize on a line of its own ("$5,000") belongs to the award above it; a bullet is an award of its own
        if entries and (only_years or PRIZE.search(text) and len(text.split()) <= 4 and not item.bullet):
            entries[-1].append(item)
            continue
        if item.new_entry or not entries or not (item.column > 0 and only_years):
            entries.append([item])
        else:
            entries[-1].append(item)
    awards = []
    for entry in entries:
        head = entry[0].unmarked
        years = []
        prize = None
        if leading := _LEADING_YEAR.match(head):  # "2020: Best Dissertation Award", "2018 Graph Prize"
            years.append(leading.group(1))
            head = head[leading.end():]
        for item in entry[1:]:
            t = item.unmarked
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
    """Every date range the text mentions, then the lone dates after the last range, as ISO
    strings (for the document's latest date); one pass over the text."""
    out, end = [], 0
    for m in date_matches(_RANGE, text):
        period, _, _ = find_period(m.group(0))
        out += [d for d in (period.start, period.end) if d]
        end = m.end()
    for m in date_matches(_SINGLE, text, end):
        date = parse_date(m.group(0))
        if date:
            out.append(date)
    return out
