"""The ``kg analyze`` report: tables and matplotlib plots of the co-author graph, in one file.

The report is HTML or Markdown with the plots embedded as PNG data URIs, so it is a
single file that can be mailed or committed. It is deterministic: the same graph gives
the same bytes (plots drawn with the Agg canvas, PNG metadata left out, fixed seeds).

Examples
--------
>>> import networkx as nx
>>> g = nx.Graph()
>>> g.add_node("a", name="Ann", profiled=True, works=1, first_year=2020, last_year=2020, kind="person")
>>> g.add_node("b", name="Bo", profiled=False, works=1, first_year=2020, last_year=2020, kind="person")
>>> g.add_edge("a", "b", joint_works=1, weight=1.0,
...            works=[{"iri": "w", "title": "T", "year": 2020, "venue": "V"}])
>>> text = report_text(g, fmt="markdown")
>>> text.startswith("# Co-authorship analysis")
True
>>> report_text(g, fmt="markdown") == text
True
"""

from __future__ import annotations

import base64
import html
import io
import re
from pathlib import Path

import networkx as nx
import pandas as pd

from kg.errors import UsageError, UserError
from kg.graphs import analyses as an
from kg.graphs.rows import collaborator_rows
from kg.graphs.timeline import PERSON_YEAR_COLUMNS, person_year_rows

FORMATS = ("html", "markdown")
#: Most profiled people drawn in the plots (the lines per year, a bar chart each): beyond it the report
#: draws those with the most works, and gives every profiled person's tables still. A plot takes a
#: fifth of a second; a thousand CVs would spend minutes drawing charts nobody reads.
PLOTTED_PEOPLE = 10
#: Most pairs the table of people at one institution at the same time lists. The pairs grow with the
#: square of an institution's people: 31,437 at 1,000 generated CVs, and at 10,000 CVs 584 MB of a
#: 611 MB report, which took 87 s to write. Beyond it the report counts them by institution.
LISTED_PAIRS = 500


# --------------------------------------------------------------------------- plots


def _figure(width: float = 6.4, height: float = 3.6):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=100)
    FigureCanvasAgg(fig)
    return fig


def _png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", metadata={"Software": None}, dpi=100)
    return buf.getvalue()


def degree_distribution_png(graph: nx.Graph) -> bytes:
    """A bar chart: how many people have k collaborators."""
    counts = pd.Series([d for _, d in graph.degree()]).value_counts().sort_index()
    fig = _figure()
    ax = fig.add_subplot()
    ax.bar(counts.index.astype(int), counts.values, color="#4c72b0")
    if len(counts) and counts.index.max() > 50:
        ax.set_xscale("symlog")
        ax.set_yscale("log")
    ax.set_xlabel("collaborators (degree)")
    ax.set_ylabel("people")
    ax.set_title("Degree distribution")
    fig.tight_layout()
    return _png(fig)


def collaborations_per_year_png(graph: nx.Graph, people: list) -> bytes:
    """One line per person: co-authored works per year."""
    fig = _figure()
    ax = fig.add_subplot()
    for p in people:
        frame = an.collaborations_per_year(graph, p)
        if not frame.empty:
            ax.plot(frame["year"], frame["works"], marker="o", label=an.node_name(graph, p))
    ax.set_xlabel("year")
    ax.set_ylabel("co-authored works")
    ax.set_title("Collaborations per year")
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.yaxis.get_major_locator().set_params(integer=True)
    if people:
        ax.legend(fontsize="small")
    fig.tight_layout()
    return _png(fig)


def top_collaborators_png(graph: nx.Graph, person, n: int = 10) -> bytes:
    """A horizontal bar chart of a person's top collaborators by joint works."""
    frame = an.top_collaborators(graph, person, n=n)
    fig = _figure(6.4, max(2.0, 0.35 * len(frame) + 1.2))
    ax = fig.add_subplot()
    ax.barh(list(frame["name"])[::-1], list(frame["joint_works"])[::-1], color="#55a868")
    ax.set_xlabel("joint works")
    ax.set_title(f"Top collaborators of {an.node_name(graph, person)}")
    ax.xaxis.get_major_locator().set_params(integer=True)
    fig.tight_layout()
    return _png(fig)


# --------------------------------------------------------------------------- tables


def _cell(value) -> str:
    if value is None or (isinstance(value, float) and pd.isna(value)) or value is pd.NA:
        return ""
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def markdown_text(text: str) -> str:
    """Text from documents made inert in Markdown: raw HTML escaped, link and code marks
    backslashed, one line.

    >>> markdown_text('<img src=x onerror=alert(1)> [click](javascript:x) `a|b`')
    '&lt;img src=x onerror=alert(1)&gt; \\\\[click\\\\](javascript:x) \\\\`a\\\\|b\\\\`'
    """
    text = html.escape(" ".join(str(text).split()), quote=False)
    return re.sub(r"([\\`\[\]|])", r"\\\1", text)


def _markdown_table(columns: list, rows: list) -> str:
    if not rows:
        return "_(none)_\n"
    head = "| " + " | ".join(markdown_text(str(c)) for c in columns) + " |"
    rule = "| " + " | ".join("---" for _ in columns) + " |"
    body = ["| " + " | ".join(markdown_text(_cell(v)) for v in row) + " |" for row in rows]
    return "\n".join([head, rule, *body]) + "\n"


def _html_table(columns: list, rows: list) -> str:
    if not rows:
        return "<p><em>(none)</em></p>\n"
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in columns)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(_cell(v))}</td>" for v in row) + "</tr>\n" for row in rows)
    return f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{body}</tbody>\n</table>\n"


class _Doc:
    def __init__(self, fmt: str):
        self.fmt = fmt
        self.parts: list[str] = []

    def heading(self, text: str, level: int = 2):
        if self.fmt == "markdown":
            self.parts.append(f"{'#' * level} {markdown_text(text)}\n")
        else:
            self.parts.append(f"<h{level}>{html.escape(text)}</h{level}>\n")

    def para(self, text: str):
        self.parts.append(f"{markdown_text(text)}\n" if self.fmt == "markdown" else f"<p>{html.escape(text)}</p>\n")

    def table(self, frame: pd.DataFrame):
        self.rows(list(frame.columns), list(frame.itertuples(index=False)))

    def rows(self, columns: list, rows: list):
        """A table of plain *rows* (tuples in the order of *columns*): a thousand profiled people
        each have one, and a DataFrame apiece took most of the report's time."""
        self.parts.append(_markdown_table(columns, rows) if self.fmt == "markdown" else _html_table(columns, rows))

    def image(self, png: bytes, alt: str):
        uri = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
        if self.fmt == "markdown":
            self.parts.append(f"![{markdown_text(alt)}]({uri})\n")
        else:
            self.parts.append(f'<img alt="{html.escape(alt)}" src="{uri}">\n')

    def text(self, title: str) -> str:
        body = "\n".join(self.parts)
        if self.fmt == "markdown":
            return body
        style = ("body{font-family:sans-serif;max-width:60em;margin:auto;padding:1em}"
                 "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .5em;"
                 "text-align:left;vertical-align:top}img{max-width:100%}")
        return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
                f"<title>{html.escape(title)}</title>\n<style>{style}</style>\n</head>\n<body>\n{body}</body>\n</html>\n")


# --------------------------------------------------------------------------- report


def report_text(graph: nx.Graph, po_graph: nx.Graph | None = None, fmt: str = "html", top: int = 10) -> str:
    """The analysis report as text.

    Parameters
    ----------
    graph : networkx.Graph
        The co-author graph (:func:`kg.graphs.projections.coauthor_graph`).
    po_graph : networkx.Graph, optional
        The person-organization graph, for the table of overlaps at institutions.
    fmt : {"html", "markdown"}
    top : int
        Rows in the "top" tables.

    Returns
    -------
    str
        Sections: graph statistics; degree distribution (plot); collaborations per year of
        each profiled person (plot); each profiled person's top collaborators (table, and a
        plot); most central people (with the betweenness method used); communities; brokers;
        people at the same institution at the same time (beyond :data:`LISTED_PAIRS` pairs, counted by
        institution and listed in part). With more than :data:`PLOTTED_PEOPLE` profiled people, the
        plots draw those :func:`plotted_people` picks.
    """
    if fmt not in FORMATS:
        raise UsageError(f"unknown report format {fmt!r}; choose html or markdown")
    if not isinstance(graph, nx.Graph):
        raise UserError(f"expected a networkx graph, got {type(graph).__name__}")
    from kg.graphs.common import conversions_kept
    from kg.graphs.structure import CentralityInBackground

    # the analyses read the graph and change nothing: one igraph conversion serves them all
    with conversions_kept():
        # betweenness is the report's longest step: another process computes it while the sections before it are made
        central_job = CentralityInBackground(graph)
        try:
            return _report_text(graph, po_graph, fmt, top, central_job)
        finally:
            central_job.cancel()


def _report_text(graph: nx.Graph, po_graph: nx.Graph | None, fmt: str, top: int, central_job) -> str:
    doc = _Doc(fmt)
    title = "Co-authorship analysis"
    doc.heading(title, 1)
    doc.para(f"{graph.number_of_nodes()} people, {graph.number_of_edges()} co-author pairs.")

    doc.heading("Graph statistics")
    doc.table(an.graph_statistics(graph))

    doc.heading("Degree distribution")
    doc.image(degree_distribution_png(graph), "degree distribution")

    profiled = sorted((n for n, d in graph.nodes(data=True) if d.get("profiled")),
                      key=lambda n: (an.node_name(graph, n), str(n)))
    plotted = plotted_people(graph, profiled)
    doc.heading("Collaborations per year")
    if profiled:
        if len(plotted) < len(profiled):
            doc.para(f"The plots show the {len(plotted)} profiled people with the most works, of "
                     f"{len(profiled)}; the tables list every one.")
        doc.image(collaborations_per_year_png(graph, plotted), "collaborations per year")
        for p in profiled:
            doc.heading(an.node_name(graph, p), 3)
            doc.rows(PERSON_YEAR_COLUMNS, person_year_rows(graph, p))
    else:
        doc.table(an.collaborations_per_year(graph))

    doc.heading("Top collaborators")
    if not profiled:
        doc.para("No profiled people in the graph.")
    for p in profiled:
        doc.heading(an.node_name(graph, p), 3)
        rows = collaborator_rows(graph, p, top)
        shown = ["name", "joint_works", "weight", "years", "venues"]
        doc.rows(shown, [tuple(r[c] for c in shown) for r in rows])
        if rows and p in plotted:
            doc.image(top_collaborators_png(graph, p, n=top), f"top collaborators of {an.node_name(graph, p)}")

    doc.heading("Most central people")
    central = central_job.result()
    doc.para(f"Method: {central.attrs.get('method', '')}. {central.attrs.get('note', '')}.")
    doc.table(central.head(top)[["name", "degree", "weighted_degree", "betweenness", "pagerank"]])

    doc.heading("Communities")
    membership = an.community_membership(graph)
    comms = an.communities(graph, membership=membership)
    doc.para(f"Method: {comms.attrs.get('method', '')}; modularity {comms.attrs.get('modularity', '')}.")
    doc.table(comms[comms["size"] > 1][["community", "size", "label"]].head(top))

    doc.heading("Brokers between communities")
    doc.table(an.brokers(graph, membership, n=top)[["name", "community", "communities_reached",
                                                   "external_collaborators", "participation"]])

    if po_graph is not None:
        doc.heading("Same institution, same time")
        _overlaps(doc, po_graph)
    return doc.text(title)


def _overlaps(doc: _Doc, po_graph: nx.Graph) -> None:
    """The pairs at one institution at the same time: every pair up to :data:`LISTED_PAIRS`, else the
    pairs counted by institution, then the first that many (the rest are never made)."""
    counts = an.overlap_counts(po_graph)
    total = int(counts["pairs"].sum())
    if total > LISTED_PAIRS:
        doc.para(f"{total:,} pairs of people were at one institution at the same time: counted by "
                 f"institution, then the first {LISTED_PAIRS:,} by institution and name. "
                 "`kg.graphs.institutions.overlaps_in_time` lists them all (a DataFrame).")
        doc.table(counts[["institution_name", "pairs"]])
    overlaps = an.overlaps_in_time(po_graph, first=LISTED_PAIRS if total > LISTED_PAIRS else None)
    doc.table(overlaps[["institution_name", "name_a", "role_a", "name_b", "role_b", "overlap_start",
                        "overlap_end"]])


def plotted_people(graph: nx.Graph, profiled: list) -> list:
    """The profiled people the plots draw, in the order of *profiled*: all of them up to
    :data:`PLOTTED_PEOPLE`, else that many with the most works (ties: the earlier in *profiled*).

    >>> g = nx.Graph()
    >>> g.add_nodes_from([("a", {"works": 1}), ("b", {"works": 5}), ("c", {"works": 5})])
    >>> plotted_people(g, ["a", "b", "c"]), plotted_people(g, ["c", "a", "b"])
    (['a', 'b', 'c'], ['c', 'a', 'b'])
    """
    if len(profiled) <= PLOTTED_PEOPLE:
        return list(profiled)
    place = {p: i for i, p in enumerate(profiled)}
    most = sorted(profiled, key=lambda p: (-int(graph.nodes[p].get("works") or 0), place[p]))[:PLOTTED_PEOPLE]
    return sorted(most, key=place.__getitem__)


def write_report(store, path: str | Path, fmt: str | None = None, top: int = 10) -> Path:
    """Project the store, write the report to *path* atomically, and return the path.

    *fmt* defaults to ``markdown`` for ``.md`` paths and ``html`` otherwise.
    """
    from kg.collector import collector_paused
    from kg.files import write_atomic
    from kg.graphs.projections import coauthor_graph, person_organization_graph

    path = Path(path)
    if fmt is None:
        fmt = "markdown" if path.suffix.lower() in (".md", ".markdown") else "html"
    # the graphs and tables make hundreds of thousands of objects and few cycles (the plots' go when
    # it is back on): the collector's passes were a tenth of the command's time at 1,000 CVs
    with collector_paused():
        coauthors = coauthor_graph(store)
        text = report_text(coauthors, person_organization_graph(store, coauthors), fmt=fmt, top=top)
    return write_atomic(path, text.encode("utf-8"))
