"""The questions users bring, answered as pandas DataFrames over the projected graphs.

Each function takes a graph from :mod:`kg.projections` (or any NetworkX graph of the same
shape), checks its inputs, and returns a :class:`pandas.DataFrame` whose columns are listed
in its docstring. Where a function picks an algorithm by the graph's size (exact or
sampled betweenness, exact diameter or a bound), the choice is in ``frame.attrs["method"]``
and a sentence for people in ``frame.attrs["note"]``.

Heavy lifting (betweenness, PageRank, communities, diameter) runs in igraph, which is
tens of times faster than pure-Python NetworkX; results are deterministic (fixed seeds,
sorted inputs).

Examples
--------
>>> import networkx as nx
>>> g = nx.Graph()
>>> g.add_edge("a", "b", joint_works=2, weight=1.5, works=[
...     {"iri": "w1", "title": "One", "year": 2020, "venue": "X"},
...     {"iri": "w2", "title": "Two", "year": 2021, "venue": "Y"}])
>>> g.add_edge("a", "c", joint_works=1, weight=1.0, works=[
...     {"iri": "w3", "title": "Three", "year": 2022, "venue": "X"}])
>>> top_collaborators(g, "a")[["collaborator", "joint_works", "years", "venues"]]
  collaborator  joint_works       years venues
0            b            2  2020, 2021   X, Y
1            c            1        2022      X
"""

from __future__ import annotations

import math
import random
from collections import Counter, defaultdict, deque
from datetime import date
from itertools import combinations

import networkx as nx
import pandas as pd

from kg.errors import UserError

#: Above this many node-edge products (n * m), betweenness is estimated from sampled pivots.
EXACT_BETWEENNESS_LIMIT = 300_000_000
#: Work budget (pivots * edges) for sampled betweenness.
SAMPLED_BETWEENNESS_BUDGET = 200_000_000
#: Above this many node-edge products, the diameter is bounded by repeated double sweeps.
EXACT_DIAMETER_LIMIT = 300_000_000


# --------------------------------------------------------------------------- helpers


def _check_graph(graph, directed: bool | None = False) -> None:
    if not isinstance(graph, nx.Graph):
        raise UserError(
            f"expected a networkx graph (from kg.projections), got {type(graph).__name__}; "
            "build one with kg.projections.coauthor_graph(store)"
        )
    if directed is False and graph.is_directed():
        raise UserError("expected an undirected graph; use kg.projections.coauthor_graph(store)")


def _check_node(graph, node) -> None:
    if node not in graph:
        raise UserError(
            f"{node!r} is not a node of this graph; pass a person IRI "
            "(kg.lookup.resolve_person(store, name).iri) of someone in the graph"
        )


def _name(graph, node) -> str:
    return str(graph.nodes[node].get("name", node))


def _joint(attrs: dict) -> int:
    return int(attrs.get("joint_works", 1))


def _years(works) -> list[int]:
    return sorted({w["year"] for w in works if w.get("year") is not None})


def _join(values) -> str:
    return ", ".join(str(v) for v in values)


def _venues(works) -> list[str]:
    return sorted({w["venue"] for w in works if w.get("venue")})


def _titles(works) -> str:
    return "; ".join(
        f"{w['title']} ({w['year']})" if w.get("year") is not None else str(w["title"]) for w in works
    )


def _frame(rows: list[dict], columns: list[str], **attrs) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=columns)
    frame.attrs.update(attrs)
    return frame


def to_igraph(graph: nx.Graph, weight: str | None = None):
    """The graph as an undirected :class:`igraph.Graph` without self-loops, and its node list.

    Vertex ``i`` is ``nodes[i]`` (NetworkX node order). With *weight*, edges carry a
    ``weight`` attribute read from that edge attribute (default 1).

    Examples
    --------
    >>> g, nodes = to_igraph(nx.path_graph(3))
    >>> g.vcount(), g.ecount(), nodes
    (3, 2, [0, 1, 2])
    """
    import igraph as ig

    nodes = list(graph.nodes)
    index = {n: i for i, n in enumerate(nodes)}
    edges, weights = [], []
    for a, b, attrs in graph.edges(data=True):
        if a == b:
            continue
        edges.append((index[a], index[b]))
        if weight is not None:
            weights.append(float(attrs.get(weight, 1.0)))
    g = ig.Graph(n=len(nodes), edges=edges, directed=False)
    if weight is not None:
        g.es["weight"] = weights
    return g, nodes


class _seeded:
    """Run igraph's randomised algorithms with a fixed seed, restoring the generator after."""

    def __init__(self, seed: int):
        self.seed = seed

    def __enter__(self):
        import igraph as ig

        ig.set_random_number_generator(random.Random(self.seed))

    def __exit__(self, *exc):
        import igraph as ig

        ig.set_random_number_generator(random)


# --------------------------------------------------------------------------- one person


def top_collaborators(graph: nx.Graph, person, n: int | None = 10) -> pd.DataFrame:
    """A person's closest collaborators: most joint works first.

    Parameters
    ----------
    graph : networkx.Graph
        A co-author graph (:func:`kg.projections.coauthor_graph`).
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
    _check_graph(graph)
    _check_node(graph, person)
    if n is not None and (not isinstance(n, int) or n < 1):
        raise UserError(f"n must be a positive whole number or None, got {n!r}")
    rows = []
    for other in graph.neighbors(person):
        if other == person:
            continue
        attrs = graph.edges[person, other]
        works = attrs.get("works", [])
        years = _years(works)
        rows.append({
            "collaborator": other, "name": _name(graph, other), "joint_works": _joint(attrs),
            "weight": round(float(attrs.get("weight", 1.0)), 6),
            "first_year": years[0] if years else None, "last_year": years[-1] if years else None,
            "years": _join(years), "venues": _join(_venues(works)), "works": _titles(works),
        })
    rows.sort(key=lambda r: (-r["joint_works"], -r["weight"], r["name"], r["collaborator"]))
    if n is not None:
        rows = rows[:n]
    frame = _frame(rows, ["collaborator", "name", "joint_works", "weight", "first_year", "last_year",
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
    _check_graph(graph)
    people = list(people)
    if len(people) < 2 or len(set(people)) != len(people):
        raise UserError(f"give two or more different people, got {len(set(people))}")
    for p in people:
        _check_node(graph, p)
    common = set(graph.neighbors(people[0]))
    for p in people[1:]:
        common &= set(graph.neighbors(p))
    common -= set(people)
    headers = []
    for p in people:
        header = _name(graph, p)
        headers.append(header if header not in headers else str(p))
    rows = []
    for c in common:
        counts = [_joint(graph.edges[p, c]) for p in people]
        row = {"collaborator": c, "name": _name(graph, c), "joint_works": sum(counts)}
        row.update(zip(headers, counts))
        rows.append(row)
    rows.sort(key=lambda r: (-r["joint_works"], r["name"], r["collaborator"]))
    return _frame(rows, ["collaborator", "name", "joint_works", *headers], people=people)


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
    _check_graph(graph)
    _check_node(graph, source)
    _check_node(graph, target)
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
        return _frame([], columns, connected=False, source=source, target=target)
    rows, node = [], source
    while node != target:
        step = [o for o in graph.neighbors(node) if dist.get(o) == dist[node] - 1]
        nxt = min(step, key=lambda o: (-_joint(graph.edges[node, o]), str(o)))
        attrs = graph.edges[node, nxt]
        rows.append({"hop": len(rows) + 1, "from": node, "from_name": _name(graph, node), "to": nxt,
                     "to_name": _name(graph, nxt), "joint_works": _joint(attrs),
                     "works": _titles(attrs.get("works", []))})
        node = nxt
    return _frame(rows, columns, connected=True, source=source, target=target)


# --------------------------------------------------------------------------- whole graph


def centrality(graph: nx.Graph, weight: str = "weight", method: str = "auto", pivots: int | None = None,
               seed: int = 0) -> pd.DataFrame:
    """Degree, weighted degree, betweenness and PageRank of every node.

    Parameters
    ----------
    graph : networkx.Graph
    weight : str
        Edge attribute for weighted degree and PageRank (missing -> 1).
    method : {"auto", "exact", "sampled"}
        Betweenness: exact (Brandes, in igraph), or estimated from *pivots* random source
        nodes scaled by ``n / pivots``. ``"auto"`` is exact while ``n * m`` is at most
        :data:`EXACT_BETWEENNESS_LIMIT`, sampled above.
    pivots : int, optional
        Sample size for sampled betweenness (default: fits
        :data:`SAMPLED_BETWEENNESS_BUDGET`, at least 64).
    seed : int
        Seed of the pivot sample.

    Returns
    -------
    pandas.DataFrame
        ``node``, ``name``, ``degree`` (collaborators), ``weighted_degree``,
        ``betweenness`` (normalised as NetworkX does, unweighted shortest paths),
        ``pagerank`` (weighted, damping 0.85); sorted by PageRank (descending), then node.
        ``attrs["method"]`` names the algorithms, ``attrs["note"]`` explains them.

    Examples
    --------
    >>> frame = centrality(nx.star_graph(3))
    >>> frame[["node", "degree", "betweenness"]].head(2)
       node  degree  betweenness
    0     0       3          1.0
    1     1       1          0.0
    >>> frame.attrs["method"]
    'betweenness: exact (igraph); pagerank: igraph PRPACK'
    """
    _check_graph(graph)
    if method not in ("auto", "exact", "sampled"):
        raise UserError(f"method must be 'auto', 'exact' or 'sampled', got {method!r}")
    g, nodes = to_igraph(graph, weight=weight)
    n, m = g.vcount(), g.ecount()
    columns = ["node", "name", "degree", "weighted_degree", "betweenness", "pagerank"]
    if n == 0:
        return _frame([], columns, method="empty graph", note="the graph is empty")
    exact = method == "exact" or (method == "auto" and n * m <= EXACT_BETWEENNESS_LIMIT)
    if exact:
        raw = g.betweenness(directed=False)
        how = "exact (igraph)"
        note = "betweenness is exact"
    else:
        k = pivots or max(64, SAMPLED_BETWEENNESS_BUDGET // max(m, 1))
        k = min(k, n)
        sources = sorted(random.Random(seed).sample(range(n), k))
        raw = [b * n / k for b in g.betweenness(directed=False, sources=sources)]
        how = f"sampled from {k} of {n} pivots (igraph, seed {seed})"
        note = (f"betweenness is estimated from shortest paths out of {k} randomly chosen "
                f"people of {n} (seed {seed}), scaled by {n}/{k}")
    scale = 2.0 / ((n - 1) * (n - 2)) if n > 2 else 1.0
    pagerank = g.pagerank(directed=False, weights="weight", damping=0.85)
    strength = g.strength(weights="weight")
    rows = [{"node": node, "name": _name(graph, node), "degree": g.degree(i),
             "weighted_degree": round(strength[i], 6), "betweenness": round(raw[i] * scale, 9),
             "pagerank": round(pagerank[i], 9)} for i, node in enumerate(nodes)]
    rows.sort(key=lambda r: (-r["pagerank"], str(r["node"])))
    return _frame(rows, columns, method=f"betweenness: {how}; pagerank: igraph PRPACK",
                  note=note + "; PageRank is weighted by " + weight)


def community_membership(graph: nx.Graph, algorithm: str = "louvain", weight: str = "weight",
                         resolution: float = 1.0, seed: int = 0) -> dict:
    """Which community each node belongs to (``{node: community number}``).

    Communities are numbered from 1 by size (largest first), ties by their smallest
    member. Isolated nodes are communities of one. See :func:`communities`.

    Examples
    --------
    >>> g = nx.Graph([(1, 2), (2, 3), (1, 3), (4, 5)])
    >>> community_membership(g)
    {1: 1, 2: 1, 3: 1, 4: 2, 5: 2}
    """
    _check_graph(graph)
    if algorithm not in ("louvain", "leiden"):
        raise UserError(f"algorithm must be 'louvain' or 'leiden', got {algorithm!r}")
    g, nodes = to_igraph(graph, weight=weight)
    if g.vcount() == 0:
        return {}
    with _seeded(seed):
        if algorithm == "louvain":
            parts = g.community_multilevel(weights="weight", resolution=resolution)
        else:
            parts = g.community_leiden(objective_function="modularity", weights="weight",
                                       resolution=resolution, n_iterations=-1)
    groups = defaultdict(list)
    for i, c in enumerate(parts.membership):
        groups[c].append(i)
    ordered = sorted(groups.values(), key=lambda members: (-len(members), min(members)))
    membership = {}
    for number, members in enumerate(ordered, start=1):
        for i in members:
            membership[nodes[i]] = number
    return {node: membership[node] for node in nodes}


def communities(graph: nx.Graph, algorithm: str = "louvain", weight: str = "weight",
                resolution: float = 1.0, seed: int = 0, label_size: int = 3) -> pd.DataFrame:
    """Groups of people who work mostly with each other (Louvain or Leiden, in igraph).

    Returns
    -------
    pandas.DataFrame
        One row per community: ``community`` (number, largest first), ``size``, ``label``
        (the names of its *label_size* most connected members, by weighted degree inside
        the community), ``members`` (all names, ``"; "``-separated, most connected first),
        ``internal_edges``. ``attrs["modularity"]`` is the partition's modularity and
        ``attrs["method"]`` the algorithm and seed.

    Examples
    --------
    >>> g = nx.Graph([("a", "b"), ("b", "c"), ("a", "c"), ("d", "e")])
    >>> communities(g)[["community", "size", "label"]]
       community  size    label
    0          1     3  a, b, c
    1          2     2     d, e
    """
    membership = community_membership(graph, algorithm, weight, resolution, seed)
    columns = ["community", "size", "label", "members", "internal_edges"]
    if not membership:
        return _frame([], columns, modularity=float("nan"), method=algorithm)
    inner = defaultdict(float)
    internal = Counter()
    for a, b, attrs in graph.edges(data=True):
        if a != b and membership[a] == membership[b]:
            w = float(attrs.get(weight, 1.0))
            inner[a] += w
            inner[b] += w
            internal[membership[a]] += 1
    groups = defaultdict(list)
    for node, c in membership.items():
        groups[c].append(node)
    rows = []
    for c in sorted(groups):
        members = sorted(groups[c], key=lambda v: (-inner[v], _name(graph, v), str(v)))
        names = [_name(graph, v) for v in members]
        rows.append({"community": c, "size": len(members), "label": ", ".join(names[:label_size]),
                     "members": "; ".join(names), "internal_edges": internal[c]})
    g, nodes = to_igraph(graph, weight=weight)
    modularity = g.modularity([membership[v] for v in nodes], weights="weight") if g.ecount() else 0.0
    return _frame(rows, columns, modularity=round(modularity, 6),
                  method=f"{algorithm} (igraph, seed {seed}, resolution {resolution})")


def brokers(graph: nx.Graph, membership: dict | None = None, n: int | None = 20, **community_options) -> pd.DataFrame:
    """People whose collaborators span several communities: the bridges between groups.

    Parameters
    ----------
    graph : networkx.Graph
    membership : dict, optional
        ``{node: community}``; computed with :func:`community_membership` if not given.
    n : int or None
        How many rows (``None``: all people with a collaborator outside their community).

    Returns
    -------
    pandas.DataFrame
        ``node``, ``name``, ``community``, ``communities_reached`` (other communities among
        their collaborators), ``external_collaborators``, ``collaborators``,
        ``participation`` (Guimerà-Amaral participation coefficient, 0 = all in one
        community). Only people with an outside collaborator; most communities reached
        first, then more external collaborators, then higher participation.

    Examples
    --------
    >>> g = nx.Graph([("a", "b"), ("b", "c"), ("c", "d")])
    >>> brokers(g, {"a": 1, "b": 1, "c": 2, "d": 2})[["node", "communities_reached"]]
      node  communities_reached
    0    b                    1
    1    c                    1
    """
    _check_graph(graph)
    if membership is None:
        membership = community_membership(graph, **community_options)
    missing = [v for v in graph if v not in membership]
    if missing:
        raise UserError(f"membership lacks {len(missing)} nodes (such as {missing[0]!r}); "
                        "pass a community for every node or leave membership out")
    rows = []
    for v in graph:
        neighbours = [u for u in graph.neighbors(v) if u != v]
        if not neighbours:
            continue
        own = membership[v]
        counts = Counter(membership[u] for u in neighbours)
        external = sum(c for k, c in counts.items() if k != own)
        if not external:
            continue
        total = len(neighbours)
        rows.append({"node": v, "name": _name(graph, v), "community": own,
                     "communities_reached": sum(1 for k in counts if k != own),
                     "external_collaborators": external, "collaborators": total,
                     "participation": round(1.0 - sum((c / total) ** 2 for c in counts.values()), 6)})
    rows.sort(key=lambda r: (-r["communities_reached"], -r["external_collaborators"], -r["participation"],
                             r["name"], str(r["node"])))
    if n is not None:
        rows = rows[:n]
    return _frame(rows, ["node", "name", "community", "communities_reached", "external_collaborators",
                         "collaborators", "participation"])


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
    _check_graph(graph)
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
        return _frame(rows, ["year", "works", "people", "pairs"])
    _check_node(graph, person)
    per_year = defaultdict(lambda: {"works": set(), "people": set()})
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
        rows.append({"year": y, "works": len(r["works"]), "collaborators": len(r["people"]),
                     "new_collaborators": len(r["people"] - seen)})
        seen |= r["people"]
    return _frame(rows, ["year", "works", "collaborators", "new_collaborators"], person=person)


def venues_per_person(graph: nx.Graph, person=None) -> pd.DataFrame:
    """Where each person published: works per venue, with first and last year.

    Reads ``graph.graph["works"]`` (set by :func:`kg.projections.coauthor_graph`, every
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
    _check_graph(graph)
    if person is not None:
        _check_node(graph, person)
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
        rows.append({"person": p, "name": _name(graph, p), "venue": venue, "works": len(years),
                     "first_year": min(known) if known else None, "last_year": max(known) if known else None})
    rows.sort(key=lambda r: (r["name"], str(r["person"]), -r["works"], r["venue"]))
    frame = _frame(rows, ["person", "name", "venue", "works", "first_year", "last_year"])
    return frame.astype({"first_year": "Int64", "last_year": "Int64"})


def graph_statistics(graph: nx.Graph, method: str = "auto") -> pd.DataFrame:
    """The summary statistics SNAP publishes for its networks.

    Self-loops count as edges (as in SNAP) but not in clustering or triangles. The
    clustering coefficient is the mean of local clustering over all nodes, nodes of
    degree below 2 counting as 0 (NetworkX's ``average_clustering``). The diameter is
    that of the largest connected component: exact (igraph BFS from every node) while
    ``n * m`` is at most :data:`EXACT_DIAMETER_LIMIT`, otherwise a lower bound from ten
    double sweeps (``method="exact"`` forces it).

    Returns
    -------
    pandas.DataFrame
        ``statistic``, ``value``, ``method``; statistics ``nodes``, ``edges``,
        ``self_loops``, ``largest_component_nodes``, ``largest_component_edges``,
        ``average_clustering``, ``triangles``, ``diameter``.

    Examples
    --------
    >>> stats = graph_statistics(nx.cycle_graph(4))
    >>> dict(zip(stats.statistic, stats.value))["diameter"]
    2
    """
    _check_graph(graph)
    if method not in ("auto", "exact"):
        raise UserError(f"method must be 'auto' or 'exact', got {method!r}")
    g, nodes = to_igraph(graph)
    self_loops = nx.number_of_selfloops(graph)
    rows = [("nodes", graph.number_of_nodes(), "count"), ("edges", graph.number_of_edges(), "count"),
            ("self_loops", self_loops, "count")]
    if g.vcount() == 0:
        rows += [(s, 0, "empty graph") for s in ("largest_component_nodes", "largest_component_edges",
                                                 "triangles", "diameter")]
        rows.insert(5, ("average_clustering", 0.0, "empty graph"))
        return _statistics_frame(rows)
    components = g.connected_components()
    biggest = max(components, key=lambda c: (len(c), -min(c)))
    lcc = g.subgraph(biggest)
    lcc_loops = sum(1 for v in biggest if graph.has_edge(nodes[v], nodes[v]))
    rows.append(("largest_component_nodes", lcc.vcount(), "connected components (igraph)"))
    rows.append(("largest_component_edges", lcc.ecount() + lcc_loops, "connected components (igraph), self-loops included"))
    clustering = g.transitivity_avglocal_undirected(mode="zero")
    rows.append(("average_clustering", round(clustering, 6), "mean local clustering, degree<2 as 0 (igraph)"))
    rows.append(("triangles", len(g.list_triangles()), "exact (igraph)"))
    n, m = lcc.vcount(), lcc.ecount()
    if method == "exact" or n * m <= EXACT_DIAMETER_LIMIT:
        rows.append(("diameter", lcc.diameter(directed=False), "exact, largest component (igraph)"))
    else:
        rows.append(("diameter", _double_sweep_bound(lcc, sweeps=10),
                     "lower bound from 10 double sweeps, largest component (igraph)"))
    return _statistics_frame(rows)


def _statistics_frame(rows) -> pd.DataFrame:
    return pd.DataFrame({"statistic": [r[0] for r in rows],
                         "value": pd.Series([r[1] for r in rows], dtype=object),
                         "method": [r[2] for r in rows]})


def _double_sweep_bound(g, sweeps: int, seed: int = 0) -> int:
    """A lower bound on the diameter: BFS from a node, then from the farthest node found."""
    rng = random.Random(seed)
    best = 0
    start = 0
    for _ in range(sweeps):
        far = g.distances(source=start)[0]
        ecc, node = max((d, -i) for i, d in enumerate(far) if d != math.inf)
        far2 = g.distances(source=-node)[0]
        best = max(best, ecc, max(d for d in far2 if d != math.inf))
        start = rng.randrange(g.vcount())
    return int(best)


# --------------------------------------------------------------------------- institutions


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
    _check_graph(po_graph)
    _check_node(po_graph, person)
    rows = [{"institution": place, "institution_name": _name(po_graph, place), "organization": org,
             "organization_name": _name(po_graph, org), "relation": link.get("relation"),
             "role": link.get("role"), "start": link.get("start"), "end": link.get("end"),
             "ongoing": bool(link.get("ongoing"))}
            for place, org, link in _person_links(po_graph, person, roll_up)]
    rows.sort(key=lambda r: (r["start"] or "", r["institution_name"], r["organization"], r["role"] or ""))
    return _frame(rows, ["institution", "institution_name", "organization", "organization_name", "relation",
                         "role", "start", "end", "ongoing"], person=person)


def institutions_in_common(po_graph: nx.Graph, people, roll_up: bool = True) -> pd.DataFrame:
    """Organizations where two or more of the given people studied or worked.

    Parameters
    ----------
    po_graph : networkx.Graph
        A person-organization graph (:func:`kg.projections.person_organization_graph`).
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
    _check_graph(po_graph)
    people = list(people)
    if len(people) < 2 or len(set(people)) != len(people):
        raise UserError(f"give two or more different people, got {len(set(people))}")
    for p in people:
        _check_node(po_graph, p)
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
            rows.append({"institution": place, "institution_name": _name(po_graph, place),
                         "people_in_common": len(who), "person": p, "name": _name(po_graph, p),
                         "organization": org, "organization_name": _name(po_graph, org),
                         "relation": link.get("relation"), "role": link.get("role"),
                         "start": link.get("start"), "end": link.get("end"),
                         "ongoing": bool(link.get("ongoing"))})
    rows.sort(key=lambda r: (r["institution_name"], r["name"], r["start"] or "", r["organization"]))
    return _frame(rows, ["institution", "institution_name", "people_in_common", "person", "name",
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


def overlaps_in_time(po_graph: nx.Graph, people=None, roll_up: bool = True) -> pd.DataFrame:
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

    Returns
    -------
    pandas.DataFrame
        One row per pair of overlapping links: ``institution``, ``institution_name``,
        ``person_a``, ``name_a``, ``role_a``, ``start_a``, ``end_a``, ``person_b``,
        ``name_b``, ``role_b``, ``start_b``, ``end_b``, ``overlap_start``, ``overlap_end``
        (ISO dates; ``overlap_end`` empty while both are ongoing). ``name_a`` sorts before
        ``name_b``; rows sorted by institution name, names, overlap start.
    """
    _check_graph(po_graph)
    wanted = None
    if people is not None:
        wanted = set(people)
        for p in wanted:
            _check_node(po_graph, p)
    at = defaultdict(list)
    for p in po_graph:
        if not _is_person(po_graph, p):
            continue
        for place, org, link in _person_links(po_graph, p, roll_up):
            first, last = period_bounds(link.get("start"), link.get("end"), bool(link.get("ongoing")))
            if first is not None:
                at[place].append((p, link, first, last))
    rows = []
    for place, entries in at.items():
        entries.sort(key=lambda e: (_name(po_graph, e[0]), str(e[0]), e[2]))
        for (pa, la, fa, ea), (pb, lb, fb, eb) in combinations(entries, 2):
            if pa == pb or (wanted is not None and pa not in wanted and pb not in wanted):
                continue
            start = max(fa, fb)
            end = eb if ea is None else ea if eb is None else min(ea, eb)
            if end is not None and end < start:
                continue
            rows.append({"institution": place, "institution_name": _name(po_graph, place),
                         "person_a": pa, "name_a": _name(po_graph, pa), "role_a": la.get("role"),
                         "start_a": la.get("start"), "end_a": la.get("end"),
                         "person_b": pb, "name_b": _name(po_graph, pb), "role_b": lb.get("role"),
                         "start_b": lb.get("start"), "end_b": lb.get("end"),
                         "overlap_start": start.isoformat(),
                         "overlap_end": end.isoformat() if end is not None else None})
    rows.sort(key=lambda r: (r["institution_name"], r["name_a"], r["name_b"], r["overlap_start"],
                             r["start_a"] or "", r["start_b"] or ""))
    return _frame(rows, ["institution", "institution_name", "person_a", "name_a", "role_a", "start_a", "end_a",
                         "person_b", "name_b", "role_b", "start_b", "end_b", "overlap_start", "overlap_end"])
