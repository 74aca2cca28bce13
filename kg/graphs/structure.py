"""The whole graph's structure: centrality, communities, brokers between communities, statistics.

Where a function picks an algorithm by the graph's size (exact or sampled betweenness, exact
diameter or a bound), the choice is in ``frame.attrs["method"]`` and a sentence for people in
``frame.attrs["note"]``. Heavy lifting runs in igraph; results are deterministic (fixed seeds).
"""

from __future__ import annotations

import math
import random
from collections import Counter, defaultdict

import networkx as nx
import pandas as pd

from kg.errors import UserError
from kg.graphs.betweenness import BetweennessProcess, betweenness
from kg.graphs.common import (
    check_graph,
    frame_of,
    seeded,
    to_igraph,
)
from kg.graphs.rows import node_name

CENTRALITY_COLUMNS = ["node", "name", "degree", "weighted_degree", "betweenness", "pagerank"]
#: Above this many node-edge products (n * m), betweenness is estimated from sampled pivots.
EXACT_BETWEENNESS_LIMIT = 300_000_000
#: Work budget (pivots * edges) for sampled betweenness.
SAMPLED_BETWEENNESS_BUDGET = 200_000_000
#: Above this many node-edge products, the diameter is bounded by repeated double sweeps.
EXACT_DIAMETER_LIMIT = 300_000_000


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
    plan = _centrality_plan(graph, weight, method, pivots, seed)
    if plan.get("frame") is not None:
        return plan["frame"]
    raw = betweenness(plan["g"], plan["sources"])
    return _centrality_frame(graph, plan, raw, weight)


class CentralityInBackground:
    """:func:`centrality` with its betweenness computed in another Python process
    (:class:`kg.graphs.betweenness.BetweennessProcess`) while this one goes on: :meth:`result` gives
    the frame :func:`centrality` gives for the same arguments. The inputs are checked at once.

    >>> job = CentralityInBackground(nx.star_graph(3))
    >>> job.result()[["node", "betweenness"]].head(1)
       node  betweenness
    0     0          1.0
    """

    def __init__(self, graph: nx.Graph, weight: str = "weight", method: str = "auto", pivots: int | None = None,
                 seed: int = 0):
        self.graph, self.weight = graph, weight
        self.plan = _centrality_plan(graph, weight, method, pivots, seed)
        self.job = None
        if self.plan.get("frame") is None:
            self.job = BetweennessProcess()
            self.job.start(self.plan["g"].vcount(), self.plan["g"].get_edgelist(), self.plan["sources"])

    def result(self) -> pd.DataFrame:
        if self.job is None:
            return self.plan["frame"]
        try:
            raw = self.job.result()
        finally:
            self.job.cancel()
        return _centrality_frame(self.graph, self.plan, raw, self.weight)

    def cancel(self) -> None:
        if self.job is not None:
            self.job.cancel()


def _centrality_plan(graph: nx.Graph, weight: str, method: str, pivots: int | None, seed: int) -> dict:
    """The igraph graph, its nodes, the betweenness sources (None: exact) and how it is described;
    or, for an empty graph, the answer itself (``frame``)."""
    check_graph(graph)
    if method not in ("auto", "exact", "sampled"):
        raise UserError(f"method must be 'auto', 'exact' or 'sampled', got {method!r}")
    g, nodes = to_igraph(graph, weight=weight)
    n, m = g.vcount(), g.ecount()
    if n == 0:
        return {"frame": frame_of([], CENTRALITY_COLUMNS, method="empty graph", note="the graph is empty")}
    exact = method == "exact" or (method == "auto" and n * m <= EXACT_BETWEENNESS_LIMIT)
    if exact:
        return {"g": g, "nodes": nodes, "sources": None, "how": "exact (igraph)", "note": "betweenness is exact"}
    k = pivots or max(64, SAMPLED_BETWEENNESS_BUDGET // max(m, 1))
    k = min(k, n)
    return {"g": g, "nodes": nodes, "sources": sorted(random.Random(seed).sample(range(n), k)),
            "how": f"sampled from {k} of {n} pivots (igraph, seed {seed})",
            "note": (f"betweenness is estimated from shortest paths out of {k} randomly chosen "
                     f"people of {n} (seed {seed}), scaled by {n}/{k}")}


def _centrality_frame(graph: nx.Graph, plan: dict, raw: list[float], weight: str) -> pd.DataFrame:
    g, nodes, sources = plan["g"], plan["nodes"], plan["sources"]
    n = g.vcount()
    if sources is not None:
        k = len(sources)
        raw = [b * n / k for b in raw]
    scale = 2.0 / ((n - 1) * (n - 2)) if n > 2 else 1.0
    pagerank = g.pagerank(directed=False, weights="weight", damping=0.85)
    strength = g.strength(weights="weight")
    rows = [{"node": node, "name": node_name(graph, node), "degree": g.degree(i),
             "weighted_degree": round(strength[i], 6), "betweenness": round(raw[i] * scale, 9),
             "pagerank": round(pagerank[i], 9)} for i, node in enumerate(nodes)]
    rows.sort(key=lambda r: (-r["pagerank"], str(r["node"])))
    return frame_of(rows, CENTRALITY_COLUMNS, method=f"betweenness: {plan['how']}; pagerank: igraph PRPACK",
                    note=plan["note"] + "; PageRank is weighted by " + weight)


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
    check_graph(graph)
    if algorithm not in ("louvain", "leiden"):
        raise UserError(f"algorithm must be 'louvain' or 'leiden', got {algorithm!r}")
    g, nodes = to_igraph(graph, weight=weight)
    if g.vcount() == 0:
        return {}
    with seeded(seed):
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
                resolution: float = 1.0, seed: int = 0, label_size: int = 3,
                membership: dict | None = None) -> pd.DataFrame:
    """Groups of people who work mostly with each other (Louvain or Leiden, in igraph).

    *membership* is :func:`community_membership`'s answer for the same options, where the caller
    has it already (it is computed otherwise).

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
    if membership is None:
        membership = community_membership(graph, algorithm, weight, resolution, seed)
    columns = ["community", "size", "label", "members", "internal_edges"]
    if not membership:
        return frame_of([], columns, modularity=float("nan"), method=algorithm)
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
        members = sorted(groups[c], key=lambda v: (-inner[v], node_name(graph, v), str(v)))
        names = [node_name(graph, v) for v in members]
        rows.append({"community": c, "size": len(members), "label": ", ".join(names[:label_size]),
                     "members": "; ".join(names), "internal_edges": internal[c]})
    g, nodes = to_igraph(graph, weight=weight)
    modularity = g.modularity([membership[v] for v in nodes], weights="weight") if g.ecount() else 0.0
    return frame_of(rows, columns, modularity=round(modularity, 6),
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
    check_graph(graph)
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
        rows.append({"node": v, "name": node_name(graph, v), "community": own,
                     "communities_reached": sum(1 for k in counts if k != own),
                     "external_collaborators": external, "collaborators": total,
                     "participation": round(1.0 - sum((c / total) ** 2 for c in counts.values()), 6)})
    rows.sort(key=lambda r: (-r["communities_reached"], -r["external_collaborators"], -r["participation"],
                             r["name"], str(r["node"])))
    if n is not None:
        rows = rows[:n]
    return frame_of(rows, ["node", "name", "community", "communities_reached", "external_collaborators",
                         "collaborators", "participation"])


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
    check_graph(graph)
    if method not in ("auto", "exact"):
        raise UserError(f"method must be 'auto' or 'exact', got {method!r}")
    # the weighted conversion, which the report's other analyses share (conversions_kept); no weight is read here
    g, nodes = to_igraph(graph, weight="weight")
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
    rows.append(("largest_component_edges", lcc.ecount() + lcc_loops,
                 "connected components (igraph), self-loops included"))
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
