"""The rows of ``kg collaborators``, ``kg shared`` and ``kg path``, as plain lists of dicts.

They read a graph through three things only: ``graph.neighbors(node)``, ``graph.edges[a, b]``
(the edge's attributes) and ``graph.nodes[node]`` (the node's), so they take a NetworkX
co-author graph (:mod:`kg.graphs.collaborators` wraps them in DataFrames for notebooks and
the report) or a :class:`Neighbourhood`, the few edges around some people that
:func:`kg.graphs.fromtables.neighbourhood_from_tables` reads, which needs neither networkx nor pandas.

>>> g = Neighbourhood()
>>> g.add_node("a", name="Ann")
>>> g.add_node("b", name="Bo")
>>> g.add_edge("a", "b", joint_works=1, weight=1.0, works=[{"iri": "w", "title": "T", "year": 2020, "venue": "X"}])
>>> [(r["name"], r["years"], r["works"]) for r in collaborator_rows(g, "a")]
[('Bo', '2020', 'T (2020)')]
"""

from __future__ import annotations

from collections import deque

from kg.errors import UserError

#: Columns of each kind of row, in order.
COLLABORATOR_COLUMNS = ["collaborator", "name", "joint_works", "weight", "first_year", "last_year",
                        "years", "venues", "works"]
PATH_COLUMNS = ["hop", "from", "from_name", "to", "to_name", "joint_works", "works"]


class Neighbourhood:
    """An undirected graph of dicts with the part of NetworkX's interface the rows use.

    >>> g = Neighbourhood()
    >>> g.add_edge("a", "b", joint_works=2)
    >>> "b" in g, sorted(g.neighbors("a")), g.edges["b", "a"]["joint_works"], g.nodes["a"]
    (True, ['b'], 2, {})
    """

    def __init__(self) -> None:
        self.nodes: dict[str, dict] = {}
        self.adjacency: dict[str, dict[str, dict]] = {}
        self.edges = _Edges(self.adjacency)

    def add_node(self, node: str, **attrs) -> None:
        self.nodes.setdefault(node, {}).update(attrs)
        self.adjacency.setdefault(node, {})

    def add_edge(self, a: str, b: str, **attrs) -> None:
        for node in (a, b):
            self.add_node(node)
        data = self.adjacency[a].setdefault(b, {})
        data.update(attrs)
        self.adjacency[b][a] = data

    def neighbors(self, node: str):
        return iter(self.adjacency[node])

    def __contains__(self, node) -> bool:
        return node in self.nodes


class _Edges:
    def __init__(self, adjacency: dict[str, dict[str, dict]]) -> None:
        self._adjacency = adjacency

    def __getitem__(self, pair: tuple[str, str]) -> dict:
        a, b = pair
        return self._adjacency[a][b]


def node_name(graph, node) -> str:
    return str(graph.nodes[node].get("name", node))


def joint_works_of(attrs: dict) -> int:
    return int(attrs.get("joint_works", 1))


def work_years(works) -> list[int]:
    return sorted({w["year"] for w in works if w.get("year") is not None})


def join_values(values) -> str:
    return ", ".join(str(v) for v in values)


def work_venues(works) -> list[str]:
    return sorted({w["venue"] for w in works if w.get("venue")})


def titles_text(works) -> str:
    return "; ".join(
        f"{w['title']} ({w['year']})" if w.get("year") is not None else str(w["title"]) for w in works
    )


def collaborator_rows(graph, person, n: int | None = 10) -> list[dict]:
    """*person*'s collaborators, most joint works first (columns :data:`COLLABORATOR_COLUMNS`);
    see :func:`kg.graphs.collaborators.top_collaborators`."""
    if n is not None and (not isinstance(n, int) or n < 1):
        raise UserError(f"n must be a positive whole number or None, got {n!r}")
    # ranked first, and only the top n made rows: the years, venues and titles of every collaborator
    # were most of kg analyze's tables
    ranked = []
    for other in graph.neighbors(person):
        if other != person:
            attrs = graph.edges[person, other]
            weight = round(float(attrs.get("weight", 1.0)), 6)
            ranked.append((-joint_works_of(attrs), -weight, node_name(graph, other), other, attrs))
    ranked.sort(key=lambda r: r[:4])
    rows = []
    for joint, weight, name, other, attrs in ranked if n is None else ranked[:n]:
        works = attrs.get("works", [])
        years = work_years(works)
        rows.append({
            "collaborator": other, "name": name, "joint_works": -joint, "weight": -weight,
            "first_year": years[0] if years else None, "last_year": years[-1] if years else None,
            "years": join_values(years), "venues": join_values(work_venues(works)), "works": titles_text(works),
        })
    return rows


def shared_rows(graph, people: list) -> tuple[list[str], list[dict]]:
    """(columns, rows) of the collaborators every one of *people* has; see
    :func:`kg.graphs.collaborators.shared_collaborators`."""
    common = set(graph.neighbors(people[0]))
    for p in people[1:]:
        common &= set(graph.neighbors(p))
    common -= set(people)
    headers: list[str] = []
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
    return ["collaborator", "name", "joint_works", *headers], rows


def path_rows(graph, source, target) -> list[dict] | None:
    """The hops of the shortest path from *source* to *target* (columns :data:`PATH_COLUMNS`), or
    None when they are not connected; see :func:`kg.graphs.collaborators.collaboration_path`."""
    if source == target:
        raise UserError("a path needs two different people; give two different names")
    dist = {target: 0}
    queue = deque([target])
    while queue and source not in dist:
        node = queue.popleft()
        for other in graph.neighbors(node):
            if other not in dist:
                dist[other] = dist[node] + 1
                queue.append(other)
    if source not in dist:
        return None
    rows: list[dict] = []
    node = source
    while node != target:
        step = [o for o in graph.neighbors(node) if dist.get(o) == dist[node] - 1]
        nxt = min(step, key=lambda o: (-joint_works_of(graph.edges[node, o]), str(o)))
        attrs = graph.edges[node, nxt]
        rows.append({"hop": len(rows) + 1, "from": node, "from_name": node_name(graph, node), "to": nxt,
                     "to_name": node_name(graph, nxt), "joint_works": joint_works_of(attrs),
                     "works": titles_text(attrs.get("works", []))})
        node = nxt
    return rows
