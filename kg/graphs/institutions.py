"""People and institutions: where someone was, institutions in common, overlaps in time."""

from __future__ import annotations

from bisect import bisect_left
from collections import defaultdict
from datetime import date
from itertools import combinations

import networkx as nx
import pandas as pd

from kg.graphs.common import (
    check_graph,
    check_node,
    check_people,
    frame_of,
)
from kg.graphs.rows import node_name


def _links(po_graph: nx.Graph, person, org) -> list[dict]:
    attrs = po_graph.edges[person, org]
    return attrs.get("links") or [{"relation": attrs.get("relation"), "role": attrs.get("role"),
                                   "start": attrs.get("start"), "end": attrs.get("end"),
                                   "ongoing": attrs.get("ongoing", False)}]


def _institution(po_graph: nx.Graph, org):
    """The top-level organization above a unit (following ``parent``)."""
    seen = {org}
    while True:
        parent = po_graph.nodes[org].get("parent")
        if parent is None or parent not in po_graph or parent in seen:
            return org
        seen.add(parent)
        org = parent


def _is_person(po_graph, node) -> bool:
    return po_graph.nodes[node].get("kind") == "person"


def _person_links(po_graph: nx.Graph, person, roll_up: bool):
    for org in sorted(po_graph.neighbors(person), key=str):
        if _is_person(po_graph, org):
            continue
        place = _institution(po_graph, org) if roll_up else org
        for link in _links(po_graph, person, org):
            yield place, org, link


def institutions_of(po_graph: nx.Graph, person, roll_up: bool = True) -> pd.DataFrame:
    """Where one person studied and worked, rolled up to institutions.

    Returns
    -------
    pandas.DataFrame
        One row per link: ``institution``, ``institution_name``, ``organization`` (the unit
        as recorded), ``organization_name``, ``relation``, ``role``, ``start``, ``end``,
        ``ongoing``; sorted by start, then institution name.
    """
    check_graph(po_graph)
    check_node(po_graph, person)
    rows = [{"institution": place, "institution_name": node_name(po_graph, place), "organization": org,
             "organization_name": node_name(po_graph, org), "relation": link.get("relation"),
             "role": link.get("role"), "start": link.get("start"), "end": link.get("end"),
             "ongoing": bool(link.get("ongoing"))}
            for place, org, link in _person_links(po_graph, person, roll_up)]
    rows.sort(key=lambda r: (r["start"] or "", r["institution_name"], r["organization"], r["role"] or ""))
    return frame_of(rows, ["institution", "institution_name", "organization", "organization_name", "relation",
                         "role", "start", "end", "ongoing"], person=person)


def institutions_in_common(po_graph: nx.Graph, people, roll_up: bool = True) -> pd.DataFrame:
    """Organizations where two or more of the given people studied or worked.

    Parameters
    ----------
    po_graph : networkx.Graph
        A person-organization graph (:func:`kg.graphs.projections.person_organization_graph`).
    people : list of str
        Two or more person IRIs.
    roll_up : bool
        Count a unit (a lab in a university) as its top-level institution.

    Returns
    -------
    pandas.DataFrame
        One row per person and link at an institution shared by at least two of *people*:
        ``institution``, ``institution_name``, ``people_in_common``, ``person``, ``name``,
        ``organization`` (the unit as recorded), ``organization_name``, ``relation``,
        ``role``, ``start``, ``end``, ``ongoing``. Sorted by institution name, person name,
        start.
    """
    check_graph(po_graph)
    people = check_people(po_graph, people)
    found = defaultdict(list)
    for p in people:
        for place, org, link in _person_links(po_graph, p, roll_up):
            found[place].append((p, org, link))
    rows = []
    for place, entries in found.items():
        who = {p for p, _, _ in entries}
        if len(who) < 2:
            continue
        for p, org, link in entries:
            rows.append({"institution": place, "institution_name": node_name(po_graph, place),
                         "people_in_common": len(who), "person": p, "name": node_name(po_graph, p),
                         "organization": org, "organization_name": node_name(po_graph, org),
                         "relation": link.get("relation"), "role": link.get("role"),
                         "start": link.get("start"), "end": link.get("end"),
                         "ongoing": bool(link.get("ongoing"))})
    rows.sort(key=lambda r: (r["institution_name"], r["name"], r["start"] or "", r["organization"]))
    return frame_of(rows, ["institution", "institution_name", "people_in_common", "person", "name",
                         "organization", "organization_name", "relation", "role", "start", "end", "ongoing"])


def period_bounds(start: str | None, end: str | None, ongoing: bool = False):
    """The first and last day a period covers, from ISO dates of any precision.

    ``end`` is ``None`` for an ongoing period (open-ended). A period without a start
    has no bounds (``(None, None)``); one without an end that is not ongoing covers its
    start's year, month or day.

    Examples
    --------
    >>> period_bounds("2018-09", "2022")
    (datetime.date(2018, 9, 1), datetime.date(2022, 12, 31))
    >>> period_bounds("2021", None, ongoing=True)
    (datetime.date(2021, 1, 1), None)
    """
    first = _day(start, last=False)
    if first is None:
        return None, None
    if ongoing:
        return first, None
    last = _day(end, last=True) or _day(start, last=True)
    return first, last


def _day(text: str | None, last: bool):
    if not text:
        return None
    parts = text.split("-")
    try:
        year = int(parts[0])
        if len(parts) == 1:
            return date(year, 12, 31) if last else date(year, 1, 1)
        month = int(parts[1])
        if len(parts) == 2:
            if not last:
                return date(year, month, 1)
            following = date(year + month // 12, month % 12 + 1, 1)
            return date.fromordinal(following.toordinal() - 1)
        return date(year, month, int(parts[2][:2]))
    except (ValueError, IndexError):
        return None


def overlaps_in_time(po_graph: nx.Graph, people=None, roll_up: bool = True, first: int | None = None
                     ) -> pd.DataFrame:
    """Pairs of people who were at the same institution at the same time.

    Periods are compared at day precision after widening partial dates ("2020" covers the
    whole year, "2020-08" the whole month); an ongoing period has no end. Links without a
    start date cannot be placed in time and are left out.

    Parameters
    ----------
    po_graph : networkx.Graph
        A person-organization graph.
    people : list of str, optional
        Only pairs with at least one of these people (default: everyone).
    roll_up : bool
        Count a unit as its top-level institution.
    first : int, optional
        Only the first this many rows: the pairs are made only at the institutions they come from (an
        institution's pairs grow with the square of its people: 3.4 million in all at 10,000
        generated CVs).

    Returns
    -------
    pandas.DataFrame
        One row per pair of overlapping links: ``institution``, ``institution_name``,
        ``person_a``, ``name_a``, ``role_a``, ``start_a``, ``end_a``, ``person_b``,
        ``name_b``, ``role_b``, ``start_b``, ``end_b``, ``overlap_start``, ``overlap_end``
        (ISO dates; ``overlap_end`` empty while both are ongoing). ``name_a`` sorts before
        ``name_b``; rows sorted by institution name, names, overlap start.
    """
    check_graph(po_graph)
    if first is not None and first < 0:
        raise ValueError(f"first must be 0 or more, got {first}")
    wanted = None
    if people is not None:
        wanted = set(people)
        for p in wanted:
            check_node(po_graph, p)
    at = _dated_links(po_graph, roll_up)
    if first is not None:
        at = _first_places(po_graph, at, wanted, first)
    rows = []
    for place, entries in at.items():
        entries.sort(key=lambda e: (node_name(po_graph, e[0]), str(e[0]), e[2]))
        for (pa, la, fa, ea), (pb, lb, fb, eb) in combinations(entries, 2):
            if not _paired(pa, pb, wanted):
                continue
            both = _overlap(fa, ea, fb, eb)
            if both is None:
                continue
            start, end = both
            rows.append({"institution": place, "institution_name": node_name(po_graph, place),
                         "person_a": pa, "name_a": node_name(po_graph, pa), "role_a": la.get("role"),
                         "start_a": la.get("start"), "end_a": la.get("end"),
                         "person_b": pb, "name_b": node_name(po_graph, pb), "role_b": lb.get("role"),
                         "start_b": lb.get("start"), "end_b": lb.get("end"),
                         "overlap_start": start.isoformat(),
                         "overlap_end": end.isoformat() if end is not None else None})
    rows.sort(key=lambda r: (r["institution_name"], r["name_a"], r["name_b"], r["overlap_start"],
                             r["start_a"] or "", r["start_b"] or ""))
    return frame_of(rows if first is None else rows[:first], [
        "institution", "institution_name", "person_a", "name_a", "role_a", "start_a", "end_a",
        "person_b", "name_b", "role_b", "start_b", "end_b", "overlap_start", "overlap_end"])


def overlap_counts(po_graph: nx.Graph, roll_up: bool = True) -> pd.DataFrame:
    """How many rows :func:`overlaps_in_time` gives at each institution, counted without making them.

    Returns
    -------
    pandas.DataFrame
        ``institution``, ``institution_name``, ``pairs``: one row per institution with a pair, the
        most pairs first (ties by name).
    """
    check_graph(po_graph)
    counts = [(n, node_name(po_graph, place), place)
              for place, entries in _dated_links(po_graph, roll_up).items() if (n := _pairs_at(entries, None))]
    counts.sort(key=lambda c: (-c[0], c[1], str(c[2])))
    return frame_of([{"institution": place, "institution_name": name, "pairs": n} for n, name, place in counts],
                    ["institution", "institution_name", "pairs"])


def _dated_links(po_graph: nx.Graph, roll_up: bool) -> dict:
    """Institution -> [(person, link, first day, last day or None)] for each link with a start date."""
    at = defaultdict(list)
    for p in po_graph:
        if not _is_person(po_graph, p):
            continue
        for place, _org, link in _person_links(po_graph, p, roll_up):
            first, last = period_bounds(link.get("start"), link.get("end"), bool(link.get("ongoing")))
            if first is not None:
                at[place].append((p, link, first, last))
    return at


def _paired(a, b, wanted: set | None) -> bool:
    return a != b and (wanted is None or a in wanted or b in wanted)


def _overlap(fa: date, ea: date | None, fb: date, eb: date | None) -> tuple[date, date | None] | None:
    """The days two periods share (an end of None: ongoing), or None where they share none."""
    start = max(fa, fb)
    end = eb if ea is None else ea if eb is None else min(ea, eb)
    return None if end is not None and end < start else (start, end)


def _pairs_at(entries: list, wanted: set | None) -> int:
    """How many pairs of one institution's dated links overlap (the rows :func:`overlaps_in_time` makes).

    Without *wanted*, counted without pairing them: the periods that overlap are all pairs but those
    where one ends before the other begins, and those are counted with the ends sorted; pairs of one
    person's own links are then taken out. (At 10,000 CVs the 3.4 million pairs one by one took 3 s.)
    A period that ends before it begins overlaps nothing.

    >>> d = date
    >>> entries = [("ann", {}, d(2010, 1, 1), d(2012, 1, 1)), ("bo", {}, d(2011, 1, 1), None),
    ...            ("cy", {}, d(2013, 1, 1), d(2014, 1, 1)), ("ann", {}, d(2011, 6, 1), d(2013, 6, 1)),
    ...            ("dee", {}, d(2015, 1, 1), d(2014, 1, 1))]
    >>> _pairs_at(entries, None), _pairs_at(entries, {"cy"})  # ann-bo twice, bo-cy, cy-ann
    (4, 2)
    """
    if wanted is not None:
        return sum(1 for (pa, _, fa, ea), (pb, _, fb, eb) in combinations(entries, 2)
                   if _paired(pa, pb, wanted) and _overlap(fa, ea, fb, eb) is not None)
    periods = [(p, first, last) for p, _, first, last in entries if last is None or first <= last]
    ends = sorted(last for _, _, last in periods if last is not None)
    apart = sum(bisect_left(ends, first) for _, first, _ in periods)  # pairs where one ends before the other begins
    overlapping = len(periods) * (len(periods) - 1) // 2 - apart
    own: dict = defaultdict(list)
    for p, first, last in periods:
        own[p].append((first, last))
    own_pairs = sum(1 for mine in own.values() for (fa, ea), (fb, eb) in combinations(mine, 2)
                    if _overlap(fa, ea, fb, eb) is not None)
    return overlapping - own_pairs


def _first_places(po_graph: nx.Graph, at: dict, wanted: set | None, first: int) -> dict:
    """The institutions of *at* whose pairs make the first *first* rows (the rows sort by institution name
    first): by name, counted until that many, with every institution of the last name; the rest are
    never paired."""
    of_name: dict[str, list] = defaultdict(list)
    for place in at:
        of_name[node_name(po_graph, place)].append(place)
    kept: set = set()
    total = 0
    for name in sorted(of_name):
        if total >= first:
            break
        kept.update(of_name[name])
        total += sum(_pairs_at(at[place], wanted) for place in of_name[name])
    return {place: entries for place, entries in at.items() if place in kept}
