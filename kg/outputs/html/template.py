"""The page itself: the HTML template with the CSS, vis-network, the script and the data inlined."""

from __future__ import annotations

import html
import json
import re
from importlib import resources, util
from pathlib import Path

import networkx as nx

from kg.outputs.html.page_data import DEFAULT_TITLE, page_data
from kg.outputs.html.selection import GraphSelection, select_graph

_STATIC = "outputs/static/html"
_PLACEHOLDER = re.compile(r"@@(TITLE|CSS|VIS|JS|DATA)@@")


#: The vis-network build pyvis ships (pinned in pyproject.toml), read from the installed pyvis.
VIS_NETWORK = "templates/lib/vis-9.1.2/vis-network.min.js"


def _asset(name: str) -> str:
    return (resources.files("kg") / _STATIC / name).read_text(encoding="utf-8")


def vis_network_js() -> str:
    """vis-network's standalone build, as the installed pyvis package ships it.

    >>> "vis" in vis_network_js()[:2000]
    True
    """
    spec = util.find_spec("pyvis")  # found, not imported: pyvis's __init__ loads IPython
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("pyvis is not installed; `pip install pyvis` (kg's graph page uses its vis-network)")
    return (Path(spec.submodule_search_locations[0]) / VIS_NETWORK).read_text(encoding="utf-8")


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
        "VIS": _inline_script(vis_network_js(), "vis-network"),
        "JS": _inline_script(_asset("graph.js"), "graph.js"),
        "DATA": _script_json(data),
    }
    # one pass: text put in is never searched for placeholders again
    return _PLACEHOLDER.sub(lambda m: values[m.group(1)], _asset("template.html"))
