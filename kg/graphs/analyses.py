"""The questions users bring, answered as pandas DataFrames over the projected graphs.

Each function takes a graph from :mod:`kg.graphs.projections` (or any NetworkX graph of the same
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


# One import for notebook users and the report; each analysis lives in the module named for its job.
from kg.graphs.collaborators import collaboration_path, shared_collaborators, top_collaborators
from kg.graphs.common import to_igraph
from kg.graphs.institutions import (
    institutions_in_common,
    institutions_of,
    overlap_counts,
    overlaps_in_time,
    period_bounds,
)
from kg.graphs.rows import node_name
from kg.graphs.structure import (
    EXACT_BETWEENNESS_LIMIT,
    EXACT_DIAMETER_LIMIT,
    SAMPLED_BETWEENNESS_BUDGET,
    brokers,
    centrality,
    communities,
    community_membership,
    graph_statistics,
)
from kg.graphs.timeline import collaborations_per_year, venues_per_person

__all__ = [
    "EXACT_BETWEENNESS_LIMIT", "EXACT_DIAMETER_LIMIT", "SAMPLED_BETWEENNESS_BUDGET", "brokers", "centrality",
    "collaboration_path", "collaborations_per_year", "communities", "community_membership", "graph_statistics",
    "institutions_in_common", "institutions_of", "node_name", "overlap_counts", "overlaps_in_time",
    "period_bounds",
    "shared_collaborators", "to_igraph", "top_collaborators", "venues_per_person",
]
