"""The interactive HTML graph: one self-contained, offline, hostile-input-safe page.

The page shows the co-author graph with the organizations its people studied or worked at.
Everything it needs is inside the file: the vis-network library (the build that pyvis ships,
vendored in ``kg/static/html``), its own CSS and script, and the data as JSON inside a
``<script type="application/json">`` block. A Content-Security-Policy forbids any network
access. Names and titles are shown with ``textContent`` or drawn on the canvas, never parsed
as HTML, so a title such as ``<img src=x onerror=alert(1)>`` shows as text.

The core takes networkx graphs (the projections of :mod:`kg.projections`):

- :func:`select_graph` picks what to show (everything, one person's neighbourhood, the
  strongest part of a big graph) and says what it left out;
- :func:`graph_html` returns the page as a string;
- :func:`write_graph_html` reads a built store and writes the page atomically;
- :func:`show_graph` returns an ``IPython.display.HTML`` that shows the page in Jupyter.

The same graphs give byte-identical pages: nodes and edges are sorted by IRI, the layout is
computed in Python with a fixed seed, and the page holds no timestamp or random id.

>>> import networkx as nx
>>> g = nx.Graph()
>>> g.add_node("p:ada", name="Ada <b>Lovelace</b>", kind="person", profiled=True, works=2)
>>> g.add_node("p:bob", name="Bob", kind="person", profiled=False, works=1)
>>> g.add_edge("p:ada", "p:bob", joint_works=1, weight=1,
...            works=[{"iri": "w:1", "title": "On </script> tags", "year": 2023, "venue": "X"}])
>>> page = graph_html(g, title="Demo")
>>> page.startswith("<!DOCTYPE html>")
True
>>> "<b>Lovelace" in page, "</script> tags" in page
(False, False)
>>> page == graph_html(g, title="Demo")
True
"""

from __future__ import annotations

import html
import json
import math
import os
import random
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import networkx as nx

from kg.errors import UserError
from kg.files import write_atomic

__all__ = [
    "GraphSelection",
    "combined_graph",
    "select_graph",
    "graph_html",
    "selection_html",
    "iframe_html",
    "write_graph_html",
    "show_graph",
    "page_data",
]

#: node kinds shown in the page, in legend order
NODE_KINDS = ("profiled", "coauthor", "organization")
#: at most this many nodes get a short physics run in the browser; bigger graphs keep the
#: layout computed in Python and open with physics off
PHYSICS_MAX_NODES = 400
LAYOUT_SEED = 20240601
DEFAULT_TITLE = "Co-authorship graph"

_STATIC = "static/html"
_PLACEHOLDER = re.compile(r"@@(TITLE|CSS|VIS|JS|DATA)@@")


# --------------------------------------------------------------------------- inputs


def _check_graph(graph, what: str) -> None:
    if not isinstance(graph, nx.Graph) or graph.is_directed() or graph.is_multigraph():
        raise UserError(
            f"{what} must be an undirected networkx.Graph (got {type(graph).__name__}); "
            "build it with kg.projections"
        )


def _node_kind(attrs: dict) -> str:
    if attrs.get("kind") == "organization":
        return "organization"
    return "profiled" if attrs.get("profiled") else "coauthor"


def combined_graph(coauthor_graph: nx.Graph, person_org_graph: nx.Graph | None = None) -> nx.Graph:
    """The union of the co-author graph and the person–organization graph.

    Parameters
    ----------
    coauthor_graph : networkx.Graph
        People (node key = IRI) linked by joint works, as from ``kg.projections.coauthor_graph``.
    person_org_graph : networkx.Graph, optional
        People and organizations linked by ``relation`` ``"education"`` or ``"position"``, as
        from ``kg.projections.person_organization_graph``.

    Returns
    -------
    networkx.Graph
        Every node of both graphs (a person's attributes from the co-author graph win), every
        co-author edge with ``relation="coauthor"`` and every person–organization edge.

    Examples
    --------
    >>> a = nx.Graph([("p:1", "p:2")])
    >>> b = nx.Graph([("p:1", "o:x")])
    >>> b.nodes["o:x"]["kind"] = "organization"
    >>> g = combined_graph(a, b)
    >>> sorted(g.nodes), g.number_of_edges(), g.edges["p:1", "p:2"]["relation"]
    (['o:x', 'p:1', 'p:2'], 2, 'coauthor')
    """
    _check_graph(coauthor_graph, "coauthor_graph")
    if person_org_graph is not None:
        _check_graph(person_org_graph, "person_org_graph")
    out = nx.Graph()
    if person_org_graph is not None:
        for node, attrs in person_org_graph.nodes(data=True):
            out.add_node(node, **attrs)
    for node, attrs in coauthor_graph.nodes(data=True):
        merged = dict(out.nodes[node]) if node in out else {}
        merged.update(attrs)
        out.add_node(node, **merged)
    for u, v, attrs in coauthor_graph.edges(data=True):
        out.add_edge(u, v, **{**attrs, "relation": "coauthor"})
    if person_org_graph is not None:
        for u, v, attrs in person_org_graph.edges(data=True):
            if not out.has_edge(u, v):
                out.add_edge(u, v, **attrs)
    return out


# --------------------------------------------------------------------------- selection


@dataclass(frozen=True)
class GraphSelection:
    """What the page shows, and what it left out.

    Attributes
    ----------
    graph : networkx.Graph
        The combined graph restricted to the nodes shown.
    total_nodes, total_edges : int
        Size of the combined graph before selecting.
    focus : str or None
        IRI of the person whose neighbourhood is shown.
    hops : int
        Radius of that neighbourhood (co-authorship hops).
    max_nodes : int or None
        The cap asked for.
    """

    graph: nx.Graph
    total_nodes: int
    total_edges: int
    focus: str | None = None
    hops: int = 1
    max_nodes: int | None = None
    cut_nodes: int = 0
    cut_people: int = 0
    cut_organizations: int = 0

    @property
    def left_out_nodes(self) -> int:
        """Nodes of the combined graph not shown."""
        return self.total_nodes - self.graph.number_of_nodes()

    @property
    def left_out_edges(self) -> int:
        """Edges of the combined graph not shown."""
        return self.total_edges - self.graph.number_of_edges()

    @property
    def note(self) -> str:
        """One sentence saying what is shown when it is not everything; ``""`` otherwise."""
        shown_n, shown_e = self.graph.number_of_nodes(), self.graph.number_of_edges()
        parts = []
        if self.focus is not None:
            name = self.graph.nodes[self.focus].get("name") or self.focus
            parts.append(
                f"The {self.hops}-hop co-author neighbourhood of {name}, with their organizations"
            )
        if self.cut_nodes:
            what = []
            if self.cut_people:
                what.append(_count(self.cut_people, "person", "people"))
            if self.cut_organizations:
                what.append(_count(self.cut_organizations, "organization", "organizations"))
            parts.append(
                f"cut to the {self.max_nodes:,} strongest nodes (by joint works and links); "
                f"{' and '.join(what)} left out"
            )
        if not parts and not self.left_out_nodes and not self.left_out_edges:
            return ""
        head = "; ".join(parts)
        head = head[:1].upper() + head[1:]
        shown = (
            f"showing {shown_n:,} of {_count(self.total_nodes, 'node', 'nodes')} "
            f"and {shown_e:,} of {_count(self.total_edges, 'link', 'links')}."
        )
        return f"{head}: {shown}" if head else shown[:1].upper() + shown[1:]


def _count(n: int, one: str, many: str) -> str:
    return f"{n:,} {one if n == 1 else many}"


def _strength(graph: nx.Graph, node) -> int:
    total = 0
    for _, _, attrs in graph.edges(node, data=True):
        if attrs.get("relation") == "coauthor":
            total += int(attrs.get("joint_works") or attrs.get("weight") or 1)
        else:
            total += 1
    return total


def select_graph(
    coauthor_graph: nx.Graph,
    person_org_graph: nx.Graph | None = None,
    *,
    focus: str | None = None,
    hops: int = 1,
    max_nodes: int | None = None,
) -> GraphSelection:
    """The part of the combined graph to show.

    Parameters
    ----------
    coauthor_graph, person_org_graph : networkx.Graph
        See :func:`combined_graph`.
    focus : str, optional
        IRI of a person: keep the people within *hops* co-authorships of them, and the
        organizations those people are linked to. Find the IRI from a name with
        :func:`kg.lookup.resolve_person`.
    hops : int
        Radius of the focus view, 0 or more.
    max_nodes : int, optional
        Keep at most this many nodes: profiled people first, then the nodes with the most
        joint works (organizations count one per person linked), nearest the focus first.

    Returns
    -------
    GraphSelection

    Raises
    ------
    UserError
        If *focus* is not a person of the graph, or *hops* / *max_nodes* are out of range.

    Examples
    --------
    >>> g = nx.path_graph(["p:a", "p:b", "p:c", "p:d"])
    >>> sel = select_graph(g, focus="p:a", hops=2)
    >>> sorted(sel.graph.nodes), sel.left_out_nodes
    (['p:a', 'p:b', 'p:c'], 1)
    >>> sel.note
    'The 2-hop co-author neighbourhood of p:a, with their organizations: showing 3 of 4 nodes and 2 of 3 links.'
    >>> select_graph(g, max_nodes=0)
    Traceback (most recent call last):
    ...
    kg.errors.UserError: max_nodes must be a whole number of at least 1 (got 0); leave it out to show every node
    """
    if isinstance(hops, bool) or not isinstance(hops, int) or hops < 0:
        raise UserError(f"hops must be a whole number of at least 0 (got {hops!r}); 1 shows direct co-authors")
    if max_nodes is not None and (isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1):
        raise UserError(
            f"max_nodes must be a whole number of at least 1 (got {max_nodes!r}); leave it out to show every node"
        )
    full = combined_graph(coauthor_graph, person_org_graph)
    keep = set(full.nodes)
    distance: dict = {}
    if focus is not None:
        if focus not in full or _node_kind(full.nodes[focus]) == "organization":
            raise UserError(
                f"{focus!r} is not a person of the co-author graph; pass a person's IRI "
                "(kg.lookup.resolve_person finds it from a name)"
            )
        people = full.subgraph(n for n, a in full.nodes(data=True) if _node_kind(a) != "organization")
        distance = nx.single_source_shortest_path_length(people, focus, cutoff=hops)
        keep = set(distance)
        for person in list(distance):
            for nb in full.neighbors(person):
                if _node_kind(full.nodes[nb]) == "organization":
                    keep.add(nb)
                    distance[nb] = min(distance.get(nb, math.inf), distance[person] + 0.5)
    cut_people = cut_orgs = 0
    if max_nodes is not None and len(keep) > max_nodes:
        sub = full.subgraph(keep)

        def rank(node):
            kind = _node_kind(full.nodes[node])
            return (distance.get(node, 0), 0 if kind == "profiled" else 1, -_strength(sub, node), str(node))

        ordered = sorted(keep, key=rank)
        dropped = ordered[max_nodes:]
        keep = set(ordered[:max_nodes])
        cut_orgs = sum(1 for n in dropped if _node_kind(full.nodes[n]) == "organization")
        cut_people = len(dropped) - cut_orgs
    graph = full.subgraph(keep).copy()
    return GraphSelection(
        graph=graph,
        total_nodes=full.number_of_nodes(),
        total_edges=full.number_of_edges(),
        focus=focus,
        hops=hops,
        max_nodes=max_nodes,
        cut_nodes=cut_people + cut_orgs,
        cut_people=cut_people,
        cut_organizations=cut_orgs,
    )


# --------------------------------------------------------------------------- layout


def _layout(n: int, edges: list[tuple[int, int]], weights: list[float]) -> list[tuple[int, int]]:
    """Positions (in screen pixels) for nodes ``0..n-1``, the same on every run."""
    if n == 0:
        return []
    if n == 1:
        return [(0, 0)]
    import igraph as ig

    g = ig.Graph(n=n, edges=edges)
    previous = random
    ig.set_random_number_generator(random.Random(LAYOUT_SEED))
    try:
        # the grid variant is linear per iteration: 5k nodes in under a second
        coords = g.layout_fruchterman_reingold(weights=weights or None, niter=500, grid=n > 1000).coords
    finally:
        ig.set_random_number_generator(previous)
    xs = [c[0] for c in coords]
    ys = [c[1] for c in coords]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    extent = max(max(xs) - min(xs), max(ys) - min(ys)) or 1.0
    side = 170.0 * math.sqrt(n)  # about one node per 170 x 170 pixels
    scale = side / extent
    return [(round((x - cx) * scale), round((y - cy) * scale)) for x, y in coords]


# --------------------------------------------------------------------------- page data


def _text(value) -> str | None:
    if value is None:
        return None
    text = str(value).strip()
    return text or None


def _year(value) -> int | None:
    """A year from an int, ``"2023"``, ``"2023-05"``, a date or a literal; None if none."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if hasattr(value, "year") and isinstance(getattr(value, "year"), int):
        return value.year
    text = str(value).strip()
    digits = text[:4]
    if len(digits) == 4 and digits.isdigit():
        return int(digits)
    return None


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
    out["years"] = _span(_year(link.get("start")), None if ongoing else _year(link.get("end")))
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
    for u, v, attrs in graph.edges(data=True):
        for w in attrs.get("works") or ():
            iri = _text(w.get("iri")) or _text(w.get("title")) or ""
            if iri not in works:
                works[iri] = (iri, _text(w.get("title")) or iri, _year(w.get("year")), _text(w.get("venue")))
    work_ids = sorted(works)
    work_index = {iri: i for i, iri in enumerate(work_ids)}

    edges = []
    for eid, (a, b) in enumerate(pairs):
        attrs = graph.edges[order[a], order[b]]
        relation = _text(attrs.get("relation")) or "coauthor"
        edge: dict = {"id": eid, "from": a, "to": b, "kind": relation}
        if relation == "coauthor":
            ws = sorted({work_index[_text(w.get("iri")) or _text(w.get("title")) or ""] for w in attrs.get("works") or ()})
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
            start, end = _year(attrs.get("start")), _year(attrs.get("end"))
            edge["years"] = _span(start, None if ongoing else end)
            if ongoing:
                edge["ongoing"] = True
            links = attrs.get("links") or ()
            if len(links) > 1:  # a master's then a PhD at one place: say both
                edge["links"] = [_link(link) for link in links]
        edges.append(edge)

    positions = _layout(
        len(order),
        [(a, b) for a, b in pairs],
        [float(e.get("joint", 1)) for e in edges],
    )
    nodes = []
    for i, node in enumerate(order):
        attrs = graph.nodes[node]
        kind = _node_kind(attrs)
        item: dict = {"id": i, "iri": str(node), "name": _node_name(node, attrs), "kind": kind}
        if kind != "organization":
            item["works"] = int(attrs.get("works") or 0)
            item["years"] = _span(_year(attrs.get("first_year")), _year(attrs.get("last_year")))
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
        "physics": len(order) <= PHYSICS_MAX_NODES,
        "physicsIterations": 250,
        "totals": {"nodes": selection.total_nodes, "edges": selection.total_edges},
        "works": [list(works[iri]) for iri in work_ids],
        "nodes": nodes,
        "edges": edges,
    }


# --------------------------------------------------------------------------- page


@lru_cache(maxsize=None)
def _asset(name: str) -> str:
    return (resources.files("kg") / _STATIC / name).read_text(encoding="utf-8")


def _script_json(data) -> str:
    """JSON that can sit inside ``<script>``: ``<``, ``>``, ``&``, U+2028/2029 escaped."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=False, allow_nan=False)
    return (
        text.replace("&", "\\u0026")
        .replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


def _inline_script(code: str, name: str) -> str:
    lowered = code.lower()
    if "</script" in lowered or "<!--" in lowered:
        raise RuntimeError(f"{name} cannot be inlined: it contains '</script' or '<!--'")
    return code


def graph_html(
    coauthor_graph: nx.Graph,
    person_org_graph: nx.Graph | None = None,
    *,
    focus: str | None = None,
    hops: int = 1,
    max_nodes: int | None = None,
    title: str | None = None,
) -> str:
    """The interactive graph page, as one self-contained HTML string.

    Parameters
    ----------
    coauthor_graph, person_org_graph : networkx.Graph
        The projections (see :func:`combined_graph`).
    focus, hops, max_nodes
        What to show (see :func:`select_graph`).
    title : str, optional
        Page title; by default says what is shown.

    Returns
    -------
    str
        The page. It loads nothing from the network (its Content-Security-Policy forbids it).

    Examples
    --------
    >>> g = nx.Graph([("p:a", "p:b")])
    >>> page = graph_html(g, title="<Lab> & co")
    >>> "<title>&lt;Lab&gt; &amp; co</title>" in page
    True
    >>> "default-src 'none'" in page, "https://" in page.split("<script")[0]
    (True, False)
    """
    selection = select_graph(coauthor_graph, person_org_graph, focus=focus, hops=hops, max_nodes=max_nodes)
    return selection_html(selection, title=title)


def _default_title(selection: GraphSelection) -> str:
    if selection.focus is not None:
        name = selection.graph.nodes[selection.focus].get("name") or selection.focus
        return f"Co-authors of {name}"
    return DEFAULT_TITLE


def selection_html(selection: GraphSelection, *, title: str | None = None) -> str:
    """The page for a :class:`GraphSelection` (see :func:`graph_html`).

    Examples
    --------
    >>> sel = select_graph(nx.Graph([("p:a", "p:b")]))
    >>> selection_html(sel) == graph_html(nx.Graph([("p:a", "p:b")]))
    True
    """
    if title is None:
        title = _default_title(selection)
    data = page_data(selection, title=str(title))
    css = _asset("graph.css")
    if "</style" in css.lower():
        raise RuntimeError("graph.css cannot be inlined: it contains '</style'")
    values = {
        "TITLE": html.escape(str(title), quote=True),
        "CSS": css,
        "VIS": _inline_script(_asset("vis-network-9.1.2.min.js"), "vis-network"),
        "JS": _inline_script(_asset("graph.js"), "graph.js"),
        "DATA": _script_json(data),
    }
    # one pass: text put in is never searched for placeholders again
    return _PLACEHOLDER.sub(lambda m: values[m.group(1)], _asset("template.html"))


# --------------------------------------------------------------------------- store


def _store_graphs(source):
    """(store, coauthor graph, person–organization graph) from an out dir or an open store."""
    from kg import projections
    from kg.store import open_store

    store = open_store(source) if isinstance(source, (str, os.PathLike)) else source
    return store, projections.coauthor_graph(store), projections.person_organization_graph(store)


def _focus_iri(store, focus: str | None) -> str | None:
    if focus is None:
        return None
    from kg.lookup import resolve_person

    return resolve_person(store, focus).iri


def write_graph_html(
    source,
    path,
    *,
    focus: str | None = None,
    hops: int = 1,
    max_nodes: int | None = None,
    title: str | None = None,
) -> GraphSelection:
    """Write the graph page for a built graph to *path*, atomically.

    Parameters
    ----------
    source : str, os.PathLike or pyoxigraph.Store
        The folder ``kg build`` wrote (its ``store/`` is opened) or an open store.
    path : str or os.PathLike
        The HTML file to write; its folder is created if needed.
    focus : str, optional
        Part of a person's name (resolved with :func:`kg.lookup.resolve_person`).
    hops, max_nodes, title
        See :func:`select_graph` and :func:`graph_html`.

    Returns
    -------
    GraphSelection
        What the page shows; its ``note`` says what was left out.

    Raises
    ------
    UserError
        If no graph was built in *source*, or *focus* names nobody or several people.

    Examples
    --------
    >>> import pyoxigraph, shutil, tempfile
    >>> from pathlib import Path
    >>> store = pyoxigraph.Store()
    >>> store.load(input=b'''
    ... @prefix kg: <https://kg.example/ns#> . @prefix p: <https://kg.example/id/person/> .
    ... p:a a kg:Person ; kg:name "Ann Able" .  p:b a kg:Person ; kg:name "Bo Baker" .
    ... p:c a kg:Person ; kg:name "Cy Cole" .
    ... <https://kg.example/id/work/w1> a kg:Work ; kg:title "One" ; kg:hasAuthor p:a, p:b .
    ... <https://kg.example/id/work/w2> a kg:Work ; kg:title "Two" ; kg:hasAuthor p:b, p:c .
    ... ''', format=pyoxigraph.RdfFormat.TURTLE)
    >>> folder = Path(tempfile.mkdtemp())
    >>> shown = write_graph_html(store, folder / "ann.html", focus="ann", hops=1)
    >>> sorted(shown.graph.nodes), shown.left_out_nodes
    (['https://kg.example/id/person/a', 'https://kg.example/id/person/b'], 1)
    >>> (folder / "ann.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    True
    >>> shutil.rmtree(folder)
    """
    store, coauthors, affiliations = _store_graphs(source)
    selection = select_graph(coauthors, affiliations, focus=_focus_iri(store, focus), hops=hops, max_nodes=max_nodes)
    write_atomic(path, selection_html(selection, title=title))
    return selection


# --------------------------------------------------------------------------- jupyter


def iframe_html(page: str, *, height: int = 650) -> str:
    """An ``<iframe srcdoc=...>`` holding *page*, escaped, sandboxed to run scripts only.

    Examples
    --------
    >>> iframe_html('<p title="x">a & b</p>', height=300)[:101]
    '<div class="kg-graph-frame"><iframe srcdoc="&lt;p title=&quot;x&quot;&gt;a &amp; b&lt;/p&gt;" sandbox'
    """
    if isinstance(height, bool) or not isinstance(height, int) or height < 100:
        raise UserError(f"height must be a whole number of pixels, at least 100 (got {height!r})")
    return (
        f'<div class="kg-graph-frame"><iframe srcdoc="{html.escape(page, quote=True)}" sandbox="allow-scripts" '
        f'style="width:100%;height:{height}px;border:1px solid #d8dee4;border-radius:4px" '
        'title="kg interactive graph" loading="eager"></iframe></div>'
    )


def show_graph(
    graph_or_source,
    person_org_graph: nx.Graph | None = None,
    *,
    focus: str | None = None,
    hops: int = 1,
    max_nodes: int | None = None,
    title: str | None = None,
    height: int = 650,
):
    """The graph page for Jupyter: an ``IPython.display.HTML`` with the page in an iframe.

    The page sits in ``<iframe srcdoc=...>`` (sandboxed: scripts run, but cannot reach the
    notebook), which renders in JupyterLab, classic notebooks and notebooks exported to HTML.

    Parameters
    ----------
    graph_or_source : networkx.Graph, str, os.PathLike or pyoxigraph.Store
        A co-author graph, or a built graph (out folder or open store) to read both
        projections from.
    person_org_graph : networkx.Graph, optional
        With a co-author graph: the person–organization graph.
    focus : str, optional
        With a graph: a person's IRI. With a built graph: part of a person's name.
    hops, max_nodes, title
        See :func:`select_graph` and :func:`graph_html`.
    height : int
        Height of the frame in pixels.

    Examples
    --------
    >>> shown = show_graph(nx.Graph([("p:a", "p:b")]), height=400)
    >>> shown.data.startswith('<div class="kg-graph-frame"><iframe srcdoc=')
    True
    """
    from IPython.display import HTML

    if isinstance(graph_or_source, nx.Graph):
        page = graph_html(graph_or_source, person_org_graph, focus=focus, hops=hops, max_nodes=max_nodes, title=title)
    else:
        store, coauthors, affiliations = _store_graphs(graph_or_source)
        selection = select_graph(
            coauthors, affiliations, focus=_focus_iri(store, focus), hops=hops, max_nodes=max_nodes
        )
        page = selection_html(selection, title=title)
    return HTML(iframe_html(page, height=height))
