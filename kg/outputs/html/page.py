"""The interactive HTML graph: one self-contained, offline, hostile-input-safe page.

The page shows the co-author graph with the organizations its people studied or worked at.
Everything it needs is inside the file: the vis-network library (the build that pyvis ships,
vendored in ``kg/outputs/static/html``), its own CSS and script, and the data as JSON inside a
``<script type="application/json">`` block. A Content-Security-Policy forbids any network
access. Names and titles are shown with ``textContent`` or drawn on the canvas, never parsed
as HTML, so a title such as ``<img src=x onerror=alert(1)>`` shows as text.

The core takes networkx graphs (the projections of :mod:`kg.graphs.projections`):

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

import dataclasses
import html
import os

import networkx as nx

from kg.collector import collector_paused
from kg.errors import UserError
from kg.files import write_atomic
from kg.graphs import projections
from kg.outputs.html.page_data import page_data
from kg.outputs.html.selection import GraphSelection, check_max_nodes, combined_graph, select_graph
from kg.outputs.html.template import graph_html, selection_html
from kg.query.lookup import resolve_person
from kg.store import open_store

__all__ = [
    "GraphSelection",
    "combined_graph",
    "select_graph",
    "graph_html",
    "selection_html",
    "iframe_html",
    "write_graph_html",
    "write_tables_page",
    "show_graph",
    "page_data",
]


def _store_graphs(source):
    """(store, coauthor graph, person–organization graph) from an out dir or an open store."""
    store = open_store(os.fspath(source)) if isinstance(source, (str, os.PathLike)) else source
    coauthors = projections.coauthor_graph(store)
    return store, coauthors, projections.person_organization_graph(store, coauthors)


def _tables_with_affiliations(store):
    """The tables the build wrote beside *store*, where they hold every table a page reads (a build
    before the affiliations table did not write it), else None."""
    from kg.graphs.fromtables import tables_beside

    tables = tables_beside(store)
    return tables if tables is not None and (tables / "affiliations.parquet").is_file() else None


def _focus_iri(store, focus: str | None) -> str | None:
    if focus is None:
        return None
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
        Part of a person's name (resolved with :func:`kg.query.lookup.resolve_person`).
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
    # the graphs, layout and page make hundreds of thousands of objects and no cycles to speak of: the
    # collector's passes over them were a fifth of the page's time at 1,000 CVs (2.0 of 9.5 s)
    with collector_paused():
        store = open_store(os.fspath(source)) if isinstance(source, (str, os.PathLike)) else source
        tables = _tables_with_affiliations(store) if focus is None and max_nodes is not None else None
        if tables is not None:  # the cut chosen from the tables: no graph of every node is made
            return write_tables_page(tables, path, max_nodes=max_nodes, title=title)
        store, coauthors, affiliations = _store_graphs(store)
        selection = select_graph(coauthors, affiliations, focus=_focus_iri(store, focus), hops=hops,
                                 max_nodes=max_nodes)
        write_atomic(path, selection_html(selection, title=title))
    return selection


def write_tables_page(tables, path, *, max_nodes: int | None = None, title: str | None = None) -> GraphSelection:
    """:func:`write_graph_html` without a focus, drawn from the build's tables alone (the folder
    *tables*): the build's page of a big graph, with no SPARQL asked."""
    from kg.graphs.affiliations import person_organization_graph_from_tables
    from kg.graphs.fromtables import coauthor_graph_from_tables
    from kg.graphs.strongest import strongest_from_tables

    check_max_nodes(max_nodes)
    with collector_paused():
        # the cut is chosen from the tables first: only the nodes kept become networkx graphs
        cut = strongest_from_tables(tables, max_nodes) if max_nodes is not None else None
        keep = cut.keep if cut is not None else None
        coauthors = coauthor_graph_from_tables(tables, within=keep)
        affiliations = person_organization_graph_from_tables(tables, coauthors, within=keep)
        # the co-author graph made here becomes the page's graph: no copy of it
        selection = select_graph(coauthors, affiliations, focus=None, hops=1, max_nodes=max_nodes, in_place=True)
        if cut is not None:
            selection = dataclasses.replace(
                selection, total_nodes=cut.total_nodes, total_edges=cut.total_edges,
                cut_nodes=cut.cut_people + cut.cut_organizations, cut_people=cut.cut_people,
                cut_organizations=cut.cut_organizations)
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
