"""The JSON the page script reads: nodes, edges, works, legend; plain values, sorted, never HTML."""

from __future__ import annotations

import math

from kg.graphs.projections import year_of
from kg.outputs.html.layout import layout_positions
from kg.outputs.html.selection import GraphSelection, node_kind, select_graph  # noqa: F401 (doctest)

#: at most this many nodes get a short physics run in the browser; bigger graphs keep the
#: layout computed in Python and open with physics off
PHYSICS_MAX_NODES = 400
DEFAULT_TITLE = "Co-authorship graph"


def _text(value) -> str | None:
    if value is None:
        return None
    text = str(value).strip()
    return text or None


def _span(a, b) -> list | None:
    if a is None and b is None:
        return None
    return [a, b]


def _link(link: dict) -> dict:
    out: dict = {"kind": _text(link.get("relation")) or "position"}
    role = _text(link.get("role"))
    if role:
        out["role"] = role
    ongoing = bool(link.get("ongoing"))
    out["years"] = _span(year_of(link.get("start")), None if ongoing else year_of(link.get("end")))
    if ongoing:
        out["ongoing"] = True
    return out


def _node_name(node, attrs) -> str:
    name = _text(attrs.get("name"))
    if name:
        return name
    text = str(node)
    return text.rstrip("/").rsplit("/", 1)[-1] or text


def _node_size(kind: str, works: int, degree: int) -> int:
    base = works if kind != "organization" else degree
    size = 9 + 3.2 * math.sqrt(max(base, 0))
    if kind == "profiled":
        size += 6
    return int(round(min(size, 48)))


def page_data(selection: GraphSelection, *, title: str = DEFAULT_TITLE) -> dict:
    """The JSON the page reads: nodes, edges and works, sorted, with a layout.

    Node and edge ids are their positions in the lists; works are listed once and referred to
    by position.

    Examples
    --------
    >>> import networkx as nx
    >>> g = nx.Graph()
    >>> g.add_edge("p:b", "p:a", joint_works=2, works=[
    ...     {"iri": "w:2", "title": "Two", "year": 2021, "venue": None},
    ...     {"iri": "w:1", "title": "One", "year": "2020", "venue": "V"}])
    >>> d = page_data(select_graph(g))
    >>> [n["iri"] for n in d["nodes"]], d["works"]
    (['p:a', 'p:b'], [['w:1', 'One', 2020, 'V'], ['w:2', 'Two', 2021, None]])
    >>> {k: d["edges"][0][k] for k in ("from", "to", "kind", "joint", "works", "years")}
    {'from': 0, 'to': 1, 'kind': 'coauthor', 'joint': 2, 'works': [0, 1], 'years': [2020, 2021]}
    """
    graph = selection.graph
    order = sorted(graph.nodes, key=str)
    index = {node: i for i, node in enumerate(order)}
    pairs = sorted(tuple(sorted((index[u], index[v]))) for u, v in graph.edges)
    pairs = [p for p in pairs if p[0] != p[1]]

    works: dict[str, tuple] = {}
    key_of: dict[int, str] = {}  # a work's dict is often shared by many edges: read it once
    for _u, _v, attrs in graph.edges(data=True):
        for w in attrs.get("works") or ():
            if id(w) in key_of:
                continue
            iri = key_of[id(w)] = _text(w.get("iri")) or _text(w.get("title")) or ""
            if iri not in works:
                works[iri] = (iri, _text(w.get("title")) or iri, year_of(w.get("year")), _text(w.get("venue")))
    work_ids = sorted(works)
    work_index = {iri: i for i, iri in enumerate(work_ids)}

    edges = []
    for eid, (a, b) in enumerate(pairs):
        attrs = graph.edges[order[a], order[b]]
        relation = _text(attrs.get("relation")) or "coauthor"
        edge: dict = {"id": eid, "from": a, "to": b, "kind": relation}
        if relation == "coauthor":
            ws = sorted({work_index[key_of[id(w)]] for w in attrs.get("works") or ()})
            joint = attrs.get("joint_works")
            edge["joint"] = int(joint) if joint is not None else (len(ws) or int(attrs.get("weight") or 1))
            edge["works"] = ws
            years = [works[work_ids[i]][2] for i in ws if works[work_ids[i]][2] is not None]
            edge["years"] = [min(years), max(years)] if years else None
        else:
            role = _text(attrs.get("role"))
            if role:
                edge["role"] = role
            ongoing = bool(attrs.get("ongoing"))
            start, end = year_of(attrs.get("start")), year_of(attrs.get("end"))
            edge["years"] = _span(start, None if ongoing else end)
            if ongoing:
                edge["ongoing"] = True
            links = attrs.get("links") or ()
            if len(links) > 1:  # a master's then a PhD at one place: say both
                edge["links"] = [_link(link) for link in links]
        edges.append(edge)

    positions = layout_positions(
        len(order),
        [(a, b) for a, b in pairs],
        [float(e.get("joint", 1)) for e in edges],
    )
    nodes = []
    for i, node in enumerate(order):
        attrs = graph.nodes[node]
        kind = node_kind(attrs)
        item: dict = {"id": i, "iri": str(node), "name": _node_name(node, attrs), "kind": kind}
        if kind != "organization":
            item["works"] = int(attrs.get("works") or 0)
            item["years"] = _span(year_of(attrs.get("first_year")), year_of(attrs.get("last_year")))
        else:
            parent = attrs.get("parent")
            if parent is not None and parent in index:
                item["parent"] = index[parent]
        item["x"], item["y"] = positions[i]
        item["size"] = _node_size(kind, item.get("works", 0), graph.degree(node))
        nodes.append(item)

    return {
        "title": title,
        "note": selection.note,
        "focus": index.get(selection.focus) if selection.focus is not None else None,
        "physics": len(order) <= PHYSICS_MAX_NODES,
        "physicsIterations": 250,
        "totals": {"nodes": selection.total_nodes, "edges": selection.total_edges},
        "works": [list(works[iri]) for iri in work_ids],
        "nodes": nodes,
        "edges": edges,
    }
