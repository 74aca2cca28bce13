"""Collaboration over time and venues: per year, overall or for one person; venues per person."""

from __future__ import annotations

from collections import defaultdict

import networkx as nx
import pandas as pd

from kg.graphs.common import (
    check_graph,
    check_node,
    frame_of,
)
from kg.graphs.rows import node_name


def _works_of(graph: nx.Graph) -> dict:
    """Joint works by IRI with the set of their authors in the graph, from the edges."""
    works: dict[str, dict] = {}
    for a, b, attrs in graph.edges(data=True):
        for w in attrs.get("works", []):
            rec = works.setdefault(w["iri"], {**w, "people": set()})
            rec["people"].update((a, b))
    return works


def collaborations_per_year(graph: nx.Graph, person=None) -> pd.DataFrame:
    """How much collaboration happened each year, in the whole graph or for one person.

    Only works with two or more authors count (a collaboration); works without a year
    are left out.

    Returns
    -------
    pandas.DataFrame
        Without *person*: ``year``, ``works`` (co-authored works that year), ``people``
        (distinct authors of them), ``pairs`` (distinct co-author pairs). With *person*:
        ``year``, ``works`` (their co-authored works), ``collaborators`` (distinct
        co-authors that year), ``new_collaborators`` (co-authors for the first time).
        Sorted by year.

    Examples
    --------
    >>> g = nx.Graph()
    >>> g.add_edge("a", "b", works=[{"iri": "w1", "title": "T", "year": 2020, "venue": None}])
    >>> collaborations_per_year(g, "a").values.tolist()
    [[2020, 1, 1, 1]]
    """
    check_graph(graph)
    if person is None:
        works = _works_of(graph)
        per_year = defaultdict(lambda: {"works": 0, "people": set(), "pairs": set()})
        for w in works.values():
            if w.get("year") is None:
                continue
            rec = per_year[w["year"]]
            rec["works"] += 1
            rec["people"].update(w["people"])
        for a, b, attrs in graph.edges(data=True):
            for y in {w["year"] for w in attrs.get("works", []) if w.get("year") is not None}:
                per_year[y]["pairs"].add((a, b))
        rows = [{"year": y, "works": r["works"], "people": len(r["people"]), "pairs": len(r["pairs"])}
                for y, r in sorted(per_year.items())]
        return frame_of(rows, ["year", "works", "people", "pairs"])
    return frame_of(person_year_rows(graph, person), PERSON_YEAR_COLUMNS, person=person)


#: The columns of :func:`person_year_rows`, in order.
PERSON_YEAR_COLUMNS = ["year", "works", "collaborators", "new_collaborators"]


def person_year_rows(graph, person) -> list[tuple]:
    """:func:`collaborations_per_year` of one person as plain tuples (:data:`PERSON_YEAR_COLUMNS`): the
    report writes one table per profiled person, and a DataFrame apiece was a tenth of ``kg analyze``
    at 10,000 CVs.

    >>> g = nx.Graph()
    >>> g.add_edge("a", "b", works=[{"iri": "w1", "year": 2020}, {"iri": "w2", "year": 2021}])
    >>> g.add_edge("a", "c", works=[{"iri": "w2", "year": 2021}, {"iri": "w3", "year": None}])
    >>> person_year_rows(g, "a")  # w2 has both co-authors; c is new in 2021; w3 has no year
    [(2020, 1, 1, 1), (2021, 1, 2, 1)]
    """
    check_node(graph, person)
    per_year: dict = defaultdict(lambda: {"works": set(), "people": set()})
    for other in graph.neighbors(person):
        if other == person:
            continue
        for w in graph.edges[person, other].get("works", []):
            if w.get("year") is None:
                continue
            per_year[w["year"]]["works"].add(w["iri"])
            per_year[w["year"]]["people"].add(other)
    seen: set = set()
    rows = []
    for y, r in sorted(per_year.items()):
        rows.append((y, len(r["works"]), len(r["people"]), len(r["people"] - seen)))
        seen |= r["people"]
    return rows


def venues_per_person(graph: nx.Graph, person=None) -> pd.DataFrame:
    """Where each person published: works per venue, with first and last year.

    Reads ``graph.graph["works"]`` (set by :func:`kg.graphs.projections.coauthor_graph`, every
    work including single-author ones); without it, the works on the edges.

    Returns
    -------
    pandas.DataFrame
        ``person``, ``name``, ``venue``, ``works``, ``first_year``, ``last_year``; one row
        per person and venue (works without a venue are left out), sorted by name, then
        works (descending), then venue.

    Examples
    --------
    >>> g = nx.Graph(works={"w1": {"iri": "w1", "title": "T", "year": 2020, "venue": "X",
    ...                            "authors": ["a", "b"]}})
    >>> g.add_edge("a", "b")
    >>> venues_per_person(g, "a")[["venue", "works"]].values.tolist()
    [['X', 1]]
    """
    check_graph(graph)
    if person is not None:
        check_node(graph, person)
    if "works" in graph.graph:
        listing = [(w, w.get("authors", [])) for w in graph.graph["works"].values()]
    else:
        listing = [(w, sorted(w["people"], key=str)) for w in _works_of(graph).values()]
    tally = defaultdict(list)
    for w, authors in listing:
        if not w.get("venue"):
            continue
        for p in authors:
            if p in graph and (person is None or p == person):
                tally[p, w["venue"]].append(w.get("year"))
    rows = []
    for (p, venue), years in tally.items():
        known = [y for y in years if y is not None]
        rows.append({"person": p, "name": node_name(graph, p), "venue": venue, "works": len(years),
                     "first_year": min(known) if known else None, "last_year": max(known) if known else None})
    rows.sort(key=lambda r: (r["name"], str(r["person"]), -r["works"], r["venue"]))
    frame = frame_of(rows, ["person", "name", "venue", "works", "first_year", "last_year"])
    return frame.astype({"first_year": "Int64", "last_year": "Int64"})
