"""One person's collaboration: top collaborators, collaborators shared by several people, the path between two."""

from __future__ import annotations

from collections import deque

import networkx as nx
import pandas as pd

from kg.errors import UserError
from kg.graphs.common import (
    check_graph,
    check_node,
    check_people,
    frame_of,
    join_values,
    joint_works_of,
    node_name,
    titles_text,
    work_venues,
    work_years,
)


def top_collaborators(graph: nx.Graph, person, n: int | None = 10) -> pd.DataFrame:
    """A person's closest collaborators: most joint works first.

    Parameters
    ----------
    graph : networkx.Graph
        A co-author graph (:func:`kg.graphs.projections.coauthor_graph`).
    person : str
        The person's node (IRI).
    n : int or None
        How many rows; ``None`` for all collaborators.

    Returns
    -------
    pandas.DataFrame
        ``collaborator`` (IRI), ``name``, ``joint_works``, ``weight`` (Newman's fractional
        weight), ``first_year``, ``last_year``, ``years``, ``venues`` (comma-separated) and
        ``works`` (titles with years, ``"; "``-separated). Sorted by joint works, then
        weight (both descending), then name.
    """
    check_graph(graph)
    check_node(graph, person)
    if n is not None and (not isinstance(n, int) or n < 1):
        raise UserError(f"n must be a positive whole number or None, got {n!r}")
    rows = []
    for other in graph.neighbors(person):
        if other == person:
            continue
        attrs = graph.edges[person, other]
        works = attrs.get("works", [])
        years = work_years(works)
        rows.append({
            "collaborator": other, "name": node_name(graph, other), "joint_works": joint_works_of(attrs),
            "weight": round(float(attrs.get("weight", 1.0)), 6),
            "first_year": years[0] if years else None, "last_year": years[-1] if years else None,
            "years": join_values(years), "venues": join_values(work_venues(works)), "works": titles_text(works),
        })
    rows.sort(key=lambda r: (-r["joint_works"], -r["weight"], r["name"], r["collaborator"]))
    if n is not None:
        rows = rows[:n]
    frame = frame_of(rows, ["collaborator", "name", "joint_works", "weight", "first_year", "last_year",
                          "years", "venues", "works"], person=person)
    return frame.astype({"first_year": "Int64", "last_year": "Int64"})


def shared_collaborators(graph: nx.Graph, people) -> pd.DataFrame:
    """Collaborators that two or more people have in common.

    Parameters
    ----------
    graph : networkx.Graph
        A co-author graph.
    people : list of str
        Two or more distinct person nodes.

    Returns
    -------
    pandas.DataFrame
        One row per person who co-authored with every one of *people* (and is not one of
        them): ``collaborator``, ``name``, ``joint_works`` (total with all of *people*), then
        one column per given person, headed by their name, with the joint works with them.
        Sorted by total joint works (descending), then name.

    Examples
    --------
    >>> g = nx.Graph([("a", "c"), ("b", "c"), ("a", "b"), ("b", "d")])
    >>> shared_collaborators(g, ["a", "b"])[["collaborator", "joint_works"]]
      collaborator  joint_works
    0            c            2
    """
    check_graph(graph)
    people = check_people(graph, people)
    common = set(graph.neighbors(people[0]))
    for p in people[1:]:
        common &= set(graph.neighbors(p))
    common -= set(people)
    headers = []
    for p in people:
        header = node_name(graph, p)
        headers.append(header if header not in headers else str(p))
    rows = []
    for c in common:
        counts = [joint_works_of(graph.edges[p, c]) for p in people]
        row = {"collaborator": c, "name": node_name(graph, c), "joint_works": sum(counts)}
        row.update(zip(headers, counts, strict=False))
        rows.append(row)
    rows.sort(key=lambda r: (-r["joint_works"], r["name"], r["collaborator"]))
    return frame_of(rows, ["collaborator", "name", "joint_works", *headers], people=people)


def collaboration_path(graph: nx.Graph, source, target) -> pd.DataFrame:
    """The shortest chain of co-authorships from one person to another, with the works.

    Among shortest paths, each hop prefers the pair with more joint works (then the
    smaller IRI), so the answer is the same every time.

    Returns
    -------
    pandas.DataFrame
        One row per hop: ``hop`` (1-based), ``from``, ``from_name``, ``to``, ``to_name``,
        ``joint_works``, ``works`` (titles with years). Empty when the two are not
        connected (``attrs["connected"]`` is then ``False``).

    Examples
    --------
    >>> g = nx.Graph([("a", "b"), ("b", "c"), ("x", "y")])
    >>> list(collaboration_path(g, "a", "c")["to"])
    ['b', 'c']
    >>> collaboration_path(g, "a", "x").attrs["connected"]
    False
    """
    check_graph(graph)
    check_node(graph, source)
    check_node(graph, target)
    if source == target:
        raise UserError("a path needs two different people; give two different names")
    columns = ["hop", "from", "from_name", "to", "to_name", "joint_works", "works"]
    dist = {target: 0}
    queue = deque([target])
    while queue and source not in dist:
        node = queue.popleft()
        for other in graph.neighbors(node):
            if other not in dist:
                dist[other] = dist[node] + 1
                queue.append(other)
    if source not in dist:
        return frame_of([], columns, connected=False, source=source, target=target)
    rows, node = [], source
    while node != target:
        step = [o for o in graph.neighbors(node) if dist.get(o) == dist[node] - 1]
        nxt = min(step, key=lambda o: (-joint_works_of(graph.edges[node, o]), str(o)))
        attrs = graph.edges[node, nxt]
        rows.append({"hop": len(rows) + 1, "from": node, "from_name": node_name(graph, node), "to": nxt,
                     "to_name": node_name(graph, nxt), "joint_works": joint_works_of(attrs),
                     "works": titles_text(attrs.get("works", []))})
        node = nxt
    return frame_of(rows, columns, connected=True, source=source, target=target)
