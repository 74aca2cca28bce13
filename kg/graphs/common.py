"""What every analysis shares: argument checks, edge attributes, DataFrames, igraph conversion.

Nothing here imports networkx or pandas at start-up: ``kg collaborators`` reads rows around a person
from the build's tables without either (:mod:`kg.graphs.rows`).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from kg.errors import UserError
from kg.graphs.backend import igraph

if TYPE_CHECKING:  # pandas costs half a second, networkx a third: commands that need neither skip them
    import networkx as nx
    import pandas as pd


def check_graph(graph, what: str = "graph", *, directed: bool | None = False, multigraph: bool = True) -> None:
    """Raise ``TypeError`` unless *graph* is a networkx graph of the expected shape: a programming mistake.

    *directed* False wants an undirected graph, None takes either; *multigraph* False refuses multigraphs.
    """
    import networkx as nx

    if not isinstance(graph, nx.Graph):
        raise TypeError(f"{what} must be a networkx graph (from kg.graphs.projections), got {type(graph).__name__}")
    if (directed is False and graph.is_directed()) or (not multigraph and graph.is_multigraph()):
        raise TypeError(f"{what} must be an undirected networkx.Graph (got {type(graph).__name__}); "
                        "build it with kg.graphs.projections.coauthor_graph(store)")


def check_node(graph, node) -> None:
    """Raise ``ValueError`` unless *node* is in *graph* (callers resolve names to IRIs first)."""
    if node not in graph:
        raise ValueError(f"{node!r} is not a node of this graph; pass a person IRI "
                         "(kg.query.lookup.resolve_person(store, name).iri) of someone in the graph")


def check_people(graph, people) -> list:
    """*people* as a list of two or more different nodes of *graph*; a ``UserError`` for fewer."""
    people = list(people)
    if len(people) < 2 or len(set(people)) != len(people):
        raise UserError(f"give two or more different people, got {len(set(people))}")
    for p in people:
        check_node(graph, p)
    return people


def frame_of(rows: list[dict], columns: list[str], **attrs) -> pd.DataFrame:
    import pandas as pd

    frame = pd.DataFrame(rows, columns=columns)
    frame.attrs.update(attrs)
    return frame


# (graph id, weight) -> (graph, igraph graph, nodes) inside conversions_kept(), else None
_kept: dict | None = None


@contextmanager
def conversions_kept() -> Iterator[None]:
    """Within this block :func:`to_igraph` converts each graph once per weight, and gives every later
    caller the same igraph graph and node list: for callers that change neither the graphs they pass
    nor what they get back. ``kg analyze`` runs four analyses of one co-author graph, each of which
    converted it: at 10,000 CVs (1.3 million pairs) four conversions took 12 of its 84 s under the profiler.

    >>> import networkx as nx
    >>> g = nx.path_graph(3)
    >>> with conversions_kept():
    ...     first, again = to_igraph(g, weight="weight")[0], to_igraph(g, weight="weight")[0]
    ...     unweighted = to_igraph(g)[0]
    >>> first is again, unweighted is first, to_igraph(g, weight="weight")[0] is first
    (True, False, False)
    """
    global _kept
    outer, _kept = _kept, {}
    try:
        yield
    finally:
        _kept = outer


def to_igraph(graph: nx.Graph, weight: str | None = None):
    """The graph as an undirected :class:`igraph.Graph` without self-loops, and its node list.

    Vertex ``i`` is ``nodes[i]`` (NetworkX node order). With *weight*, edges carry a
    ``weight`` attribute read from that edge attribute (default 1).

    Examples
    --------
    >>> import networkx as nx
    >>> g, nodes = to_igraph(nx.path_graph(3))
    >>> g.vcount(), g.ecount(), nodes
    (3, 2, [0, 1, 2])

    Edges come in the order ``graph.edges()`` gives (nodes 2, 0, 1 as added: 2-0, then 0-1; the
    self-loop 1-1 is left out), each with its weight:

    >>> h = nx.Graph([(2, 0), (0, 1), (1, 1)])
    >>> h[2][0]["weight"] = 3
    >>> g, nodes = to_igraph(h, weight="weight")
    >>> [(nodes[e.source], nodes[e.target]) for e in g.es], g.es["weight"]
    ([(2, 0), (0, 1)], [3.0, 1.0])
    """
    if _kept is not None:
        hit = _kept.get((id(graph), weight))
        if hit is not None and hit[0] is graph:  # the graph itself, not one that took a freed one's id
            return hit[1], hit[2]
    ig = igraph()

    nodes = list(graph.nodes)
    index = {n: i for i, n in enumerate(nodes)}
    edges, weights = [], []
    # each edge once, from the endpoint that comes first, in the order graph.edges() gives them
    # (read from the adjacency dicts: edges(data=True) took 1 s at 1,000 CVs, for each conversion)
    for a, neighbours in graph.adjacency():
        i = index[a]
        for b, attrs in neighbours.items():
            j = index[b]
            if i < j:  # self-loops (i == j) left out
                edges.append((i, j))
                if weight is not None:
                    weights.append(float(attrs.get(weight, 1.0)))
    g = ig.Graph(n=len(nodes), edges=edges, directed=False)
    if weight is not None:
        g.es["weight"] = weights
    if _kept is not None:
        _kept[(id(graph), weight)] = (graph, g, nodes)
    return g, nodes


class seeded:
    """Run igraph's randomised algorithms with a fixed seed, restoring the generator after."""

    def __init__(self, seed: int):
        self.seed = seed

    def __enter__(self):
        ig = igraph()

        ig.set_random_number_generator(random.Random(self.seed))

    def __exit__(self, *exc):
        ig = igraph()

        ig.set_random_number_generator(random)
