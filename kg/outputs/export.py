"""Write projected graphs for other tools: Gephi (GraphML, GEXF), spreadsheets (CSV), VOSviewer.

Attributes are flattened to what every format can hold: lists become ``"; "``-joined
strings, missing values are left out (GraphML/GEXF) or empty (CSV), nested records
(the works on an edge) become their titles and IRIs. Files are written atomically
(a temporary file in the same folder, then renamed) and are byte-identical for the same
graph.

Examples
--------
>>> import networkx as nx, tempfile, pathlib
>>> g = nx.Graph()
>>> g.add_node("a", name="Ann", kind="person", works=2, first_year=None)
>>> g.add_node("b", name="Bo", kind="person", works=1, first_year=2020)
>>> g.add_edge("a", "b", joint_works=1, weight=1.0,
...            works=[{"iri": "w", "title": "T", "year": 2020, "venue": None}])
>>> with tempfile.TemporaryDirectory() as d:
...     paths = export_graph(g, "vosviewer", pathlib.Path(d) / "vos")
...     print([p.name for p in paths])
...     network = (pathlib.Path(d) / "vos" / "network.txt").read_text()
['map.txt', 'network.txt']
>>> network.split()
['1', '2', '1']
"""

from __future__ import annotations

import re
from pathlib import Path

import networkx as nx
import pandas as pd

from kg.errors import UsageError, UserError
from kg.files import write_atomic

FORMATS = ("graphml", "gexf", "csv", "vosviewer")



def _flat(value):
    """A value every format can hold: str, int, float or bool; None stays None."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, dict):
        return value.get("title") or value.get("name") or value.get("iri") or str(value)
    if isinstance(value, (list, tuple, set)):
        items = sorted(value, key=str) if isinstance(value, set) else value
        return "; ".join(str(_flat(v)) for v in items)
    return str(value)


def flat_graph(graph: nx.Graph) -> nx.Graph:
    """A copy of *graph* with only scalar attributes (see the module docstring).

    Nodes with a ``name`` get it as ``label`` too (what Gephi shows). Edge ``works``
    become ``works`` (titles with years) and ``work_iris``; ``links`` on
    person-organization edges are dropped (the edge keeps their summary); graph-level
    attributes other than scalars are dropped.

    Examples
    --------
    >>> g = nx.Graph(works={})
    >>> g.add_edge(1, 2, works=[{"iri": "w", "title": "T", "year": 2020}], people=["a", "b"])
    >>> flat_graph(g).edges[1, 2]
    {'works': 'T (2020)', 'work_iris': 'w', 'people': 'a; b'}
    """
    if not isinstance(graph, nx.Graph):
        raise UserError(f"expected a networkx graph, got {type(graph).__name__}")
    out = graph.__class__()
    out.graph.update({k: v for k, v in graph.graph.items() if isinstance(v, (str, int, float, bool))})
    for node, attrs in graph.nodes(data=True):
        flat = {k: _flat(v) for k, v in attrs.items() if _flat(v) is not None}
        if "name" in flat and "label" not in flat:
            flat["label"] = flat["name"]  # Gephi shows `label`
        out.add_node(node, **flat)
    for a, b, attrs in graph.edges(data=True):
        flat = {}
        for k, v in attrs.items():
            if k == "links":
                continue
            if k == "works" and isinstance(v, list):
                flat["works"] = "; ".join(
                    f"{w.get('title')} ({w['year']})" if w.get("year") is not None else str(w.get("title"))
                    for w in v)
                flat["work_iris"] = "; ".join(str(w.get("iri")) for w in v)
                continue
            if _flat(v) is not None:
                flat[k] = _flat(v)
        out.add_edge(a, b, **flat)
    return out


def _xml_bytes(graph: nx.Graph, fmt: str) -> bytes:
    flat = flat_graph(graph)
    if fmt == "graphml":
        text = "\n".join(nx.generate_graphml(flat, encoding="utf-8", prettyprint=True)) + "\n"
    else:
        text = "\n".join(nx.generate_gexf(flat, encoding="utf-8", prettyprint=True)) + "\n"
        # the GEXF writer stamps today's date; same graph, same bytes
        text = re.sub(r' lastmodifieddate="[0-9-]+"', "", text)
    return text.encode("utf-8")


def _csv_bytes(frame: pd.DataFrame) -> bytes:
    return frame.to_csv(index=False, lineterminator="\n").encode("utf-8")


def node_table(graph: nx.Graph) -> pd.DataFrame:
    """One row per node: ``id`` then its flattened attributes (columns sorted)."""
    flat = flat_graph(graph)
    keys = sorted({k for _, attrs in flat.nodes(data=True) for k in attrs})
    return pd.DataFrame([{"id": n, **attrs} for n, attrs in flat.nodes(data=True)], columns=["id", *keys])


def edge_table(graph: nx.Graph) -> pd.DataFrame:
    """One row per edge: ``source``, ``target`` then flattened attributes (columns sorted)."""
    flat = flat_graph(graph)
    keys = sorted({k for _, _, attrs in flat.edges(data=True) for k in attrs})
    return pd.DataFrame([{"source": a, "target": b, **attrs} for a, b, attrs in flat.edges(data=True)],
                        columns=["source", "target", *keys])


def _vosviewer(graph: nx.Graph) -> tuple[bytes, bytes]:
    """VOSviewer map and network files (tab-separated; items numbered from 1)."""
    from kg.graphs.analyses import community_membership

    undirected = graph.to_undirected(as_view=True) if graph.is_directed() else graph
    clusters = community_membership(nx.Graph(undirected)) if graph.number_of_nodes() else {}
    ids = {node: i for i, node in enumerate(graph.nodes, start=1)}
    lines = ["id\tlabel\turl\tcluster\tweight<Links>\tweight<Works>"]
    for node, attrs in graph.nodes(data=True):
        label = str(attrs.get("name", node)).replace("\t", " ")
        works = attrs.get("works", 0) if isinstance(attrs.get("works"), int) else 0
        degree = sum(1 for other in undirected.neighbors(node) if other != node)
        lines.append(f"{ids[node]}\t{label}\t{node}\t{clusters.get(node, 0)}\t{degree}\t{works}")
    links = []
    for a, b, attrs in undirected.edges(data=True):
        if a == b:
            continue
        strength = attrs.get("joint_works", attrs.get("weight", 1))
        i, j = sorted((ids[a], ids[b]))
        links.append((i, j, strength))
    network = "".join(f"{i}\t{j}\t{s:g}\n" for i, j, s in sorted(links))
    return ("\n".join(lines) + "\n").encode("utf-8"), network.encode("utf-8")


def export_graph(graph: nx.Graph, fmt: str, path: str | Path) -> list[Path]:
    """Write *graph* in *fmt* and return the files written.

    Parameters
    ----------
    graph : networkx.Graph
        A projection from :mod:`kg.graphs.projections`.
    fmt : {"graphml", "gexf", "csv", "vosviewer"}
        ``graphml``/``gexf``: one file at *path* (for Gephi, yEd, Cytoscape). ``csv``: the
        folder *path* with ``nodes.csv`` and ``edges.csv``. ``vosviewer``: the folder *path*
        with ``map.txt`` (items, with a community as cluster) and ``network.txt`` (links,
        strength = joint works); in VOSviewer choose "Create a map based on network data".
    path : str or Path

    Raises
    ------
    UsageError
        For an unknown format.
    """
    if fmt not in FORMATS:
        raise UsageError(f"unknown export format {fmt!r}; choose one of {', '.join(FORMATS)}")
    if not isinstance(graph, nx.Graph):
        raise UserError(f"expected a networkx graph, got {type(graph).__name__}")
    path = Path(path)
    if fmt in ("graphml", "gexf"):
        return [write_atomic(path, _xml_bytes(graph, fmt))]
    if path.exists() and not path.is_dir():
        raise UserError(f"{path} is a file; the {fmt} export writes a folder, give a folder path")
    if fmt == "csv":
        return [write_atomic(path / "nodes.csv", _csv_bytes(node_table(graph))),
                write_atomic(path / "edges.csv", _csv_bytes(edge_table(graph)))]
    map_bytes, network_bytes = _vosviewer(graph)
    return [write_atomic(path / "map.txt", map_bytes), write_atomic(path / "network.txt", network_bytes)]


