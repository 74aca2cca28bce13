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
from kg.outputs.cells import neutral_cell

FORMATS = ("graphml", "gexf", "csv", "vosviewer")

def neutral_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of *frame* with every text cell and column name passed through :func:`neutral_cell`."""
    out = frame.copy()
    for column in out.columns:
        if not pd.api.types.is_numeric_dtype(out[column]):
            out[column] = out[column].map(neutral_cell)
    out.columns = [neutral_cell(str(c)) for c in out.columns]
    return out


def csv_text(frame: pd.DataFrame) -> str:
    """*frame* as CSV for spreadsheets: no index, newline line ends, formulas neutralised.

    >>> import pandas as pd
    >>> print(csv_text(pd.DataFrame({"title": ["+cmd|' /C calc'!A0"], "n": [-1]})), end="")
    title,n
    '+cmd|' /C calc'!A0,-1
    """
    return neutral_frame(frame).to_csv(index=False, lineterminator="\n")

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


def _weights(attrs: dict) -> dict:
    """Edge attributes with one meaning per name: ``weight`` is the joint works (what Gephi and
    VOSviewer draw as link strength), Newman's fractional count is ``newman_weight``."""
    if "joint_works" not in attrs:
        return attrs  # other projections: weight is already a count (shared people)
    out = {k: v for k, v in attrs.items() if k != "weight"}
    out["weight"] = attrs["joint_works"]
    if "weight" in attrs:
        out["newman_weight"] = attrs["weight"]
    return out


def flat_graph(graph: nx.Graph) -> nx.Graph:
    """A copy of *graph* with only scalar attributes (see the module docstring).

    Nodes with a ``name`` get it as ``label`` too (what Gephi shows). On co-author edges
    ``weight`` is the number of joint works and ``newman_weight`` Newman's fractional count
    (the sum over joint works of ``1 / (authors - 1)``). Edge ``works``
    become ``works`` (titles with years) and ``work_iris``; ``links`` on
    person-organization edges are dropped (the edge keeps their summary); graph-level
    attributes other than scalars are dropped.

    Examples
    --------
    >>> g = nx.Graph(works={})
    >>> g.add_edge(1, 2, works=[{"iri": "w", "title": "T", "year": 2020}], people=["a", "b"])
    >>> flat_graph(g).edges[1, 2]
    {'works': 'T (2020)', 'work_iris': 'w', 'people': 'a; b'}
    >>> g.add_edge(2, 3, joint_works=2, weight=0.5)
    >>> flat_graph(g).edges[2, 3]
    {'joint_works': 2, 'weight': 2, 'newman_weight': 0.5}
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
        attrs = _weights(attrs)
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
    return csv_text(frame).encode("utf-8")


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


def _average_year(graph: nx.Graph, node) -> float | None:
    """The mean year of the distinct works on *node*'s edges (VOSviewer's overlay score)."""
    years = {}
    for _, _, attrs in graph.edges(node, data=True):
        for w in attrs.get("works") or ():
            if isinstance(w, dict) and str(w.get("year") or "")[:4].isdigit():
                years[w.get("iri") or w.get("title")] = int(str(w["year"])[:4])
    return round(sum(years.values()) / len(years), 2) if years else None


def _url(attrs: dict) -> str:
    """A link that resolves (homepage, ORCID, DOI), or nothing: the graph's own IRIs do not."""
    for key in ("homepage", "url", "orcid"):
        value = attrs.get(key)
        if isinstance(value, str) and value.startswith(("https://", "http://")):
            return value
    return ""


def _vosviewer(graph: nx.Graph) -> tuple[bytes, bytes]:
    """VOSviewer map and network files (tab-separated; items numbered from 1), formulas neutralised."""
    from kg.graphs.analyses import community_membership

    undirected = graph.to_undirected(as_view=True) if graph.is_directed() else graph
    clusters = community_membership(nx.Graph(undirected)) if graph.number_of_nodes() else {}
    ids = {node: i for i, node in enumerate(graph.nodes, start=1)}
    lines = ["id\tlabel\turl\tcluster\tweight<Links>\tweight<Works>\tscore<Avg. pub. year>"]
    for node, attrs in graph.nodes(data=True):
        label = neutral_cell(" ".join(str(attrs.get("name", node)).split()))
        works = attrs.get("works", 0) if isinstance(attrs.get("works"), int) else 0
        degree = sum(1 for other in undirected.neighbors(node) if other != node)
        year = _average_year(undirected, node)
        score = "" if year is None else f"{year:g}"
        lines.append(f"{ids[node]}\t{label}\t{neutral_cell(_url(attrs))}\t{clusters.get(node, 0)}\t{degree}"
                     f"\t{works}\t{score}")
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
        with ``map.txt`` (items, with a community as cluster and the average year of their
        works as ``score<Avg. pub. year>`` for overlay maps) and ``network.txt`` (links,
        strength = joint works); in VOSviewer choose "Create a map based on network data".
        Text cells that a spreadsheet would read as a formula start with ``'``.
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


