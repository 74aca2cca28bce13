"""The graph page's selection as a ``pyvis.network.Network``, for notebook users who know pyvis."""

from __future__ import annotations

from kg.outputs.html.page_data import page_data
from kg.outputs.html.selection import GraphSelection

#: Node colours of the page (graph.css), by kind.
COLOURS = {"profiled": "#f08c00", "coauthor": "#4dabf7", "organization": "#69db7c"}


def to_pyvis(selection: GraphSelection, *, height: str = "650px", notebook: bool = True):
    """A ``pyvis.network.Network`` holding *selection*, filled directly (its ``nodes`` and ``edges``
    lists, not one ``add_edge`` per edge), with the page's layout, sizes and colours.

    Node ids are the graph's IRIs; ``value`` on a co-author edge is its joint works. The
    vis-network library is inlined (``cdn_resources="in_line"``), so the page works offline.

    Examples
    --------
    >>> import networkx as nx
    >>> from kg.outputs.html.selection import select_graph
    >>> g = nx.Graph()
    >>> g.add_edge("p:a", "p:b", joint_works=2, works=[])
    >>> net = to_pyvis(select_graph(g), notebook=False)
    >>> [n["id"] for n in net.nodes], [(e["from"], e["to"], e["value"]) for e in net.edges]
    (['p:a', 'p:b'], [('p:a', 'p:b', 2)])
    """
    from pyvis.network import Network

    data = page_data(selection)
    net = Network(height=height, width="100%", notebook=notebook, cdn_resources="in_line")
    net.nodes = [{"id": n["iri"], "label": n["name"], "title": n["name"], "size": n["size"],
                  "x": n["x"], "y": n["y"], "shape": "square" if n["kind"] == "organization" else "dot",
                  "color": COLOURS.get(n["kind"], COLOURS["coauthor"]), "group": n["kind"]} for n in data["nodes"]]
    iris = [n["iri"] for n in data["nodes"]]
    net.node_ids = list(iris)
    net.node_map = {node["id"]: node for node in net.nodes}
    net.edges = [{"from": iris[e["from"]], "to": iris[e["to"]], "value": e.get("joint", 1),
                  "title": f"{e['joint']} joint works" if e["kind"] == "coauthor" else e["kind"]}
                 for e in data["edges"]]
    return net


def knowledge_graph_to_pyvis(kg, focus: str | None = None, *, hops: int = 1, max_nodes: int | None = None,
                             height: str = "650px", notebook: bool = True):
    """``KnowledgeGraph.to_pyvis``: *kg*'s co-author graph (or *focus*'s neighbourhood of *hops*
    steps, at most *max_nodes* nodes, as in ``KnowledgeGraph.show``) as a pyvis network."""
    from kg.outputs.html.selection import select_graph

    person = None if focus is None else kg.person(focus)
    selection = select_graph(kg.coauthors(), kg.affiliations(), focus=person, hops=hops, max_nodes=max_nodes)
    return to_pyvis(selection, height=height, notebook=notebook)
