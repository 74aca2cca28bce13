"""Commands of the html area: ``kg html``, the interactive graph as one offline HTML file."""

from __future__ import annotations

from pathlib import Path

import click

from kg.cli.output import output_path, store_option
from kg.errors import UsageError
from kg.outputs import html as html_page


@click.command("html")
@click.option("--out", "out_dir", default="out", show_default=True, type=click.Path(file_okay=False),
              help="The folder `kg build` wrote (the graph is read from its store/).")
@click.option("-o", "--output", type=click.Path(dir_okay=False),
              help="The HTML file to write  [default: OUT/graph.html].")
@click.option("--focus", metavar="NAME", help="Show one person's neighbourhood (any part of the name).")
@click.option("--hops", type=click.IntRange(min=0), default=1, show_default=True,
              help="With --focus: how many co-authorship steps away to go.")
@click.option("--max-nodes", type=click.IntRange(min=1), metavar="N",
              help="Keep at most N nodes: the strongest part (most joint works, then links)  "
                   f"[default: {html_page.PAGE_MAX_NODES:,}, as the build's page].")
@click.option("--title", help="Page title  [default: says what is shown].")
@store_option
def html_command(out_dir, output, focus, hops, max_nodes, title, store):
    """Write the interactive co-authorship graph as one self-contained HTML file.

    The page works offline (nothing is loaded from the network), shows people and the
    organizations they studied or worked at, and lets you search, filter by years, node kind
    and joint works, hover for details and click to list a node's works.

    \b
    Examples:
      kg html                                   write out/graph.html
      kg html -o team.html --max-nodes 500      the 500 strongest nodes
      kg html --focus "ana" --hops 2 -o ana.html
    """
    from kg.outputs.html.page import write_graph_html

    if hops != 1 and focus is None:
        raise UsageError("--hops needs --focus NAME (the person to start from)")
    path = output_path(output) if output else Path(out_dir) / "graph.html"
    if store:
        from kg.store import open_location

        source = open_location(out_dir, store)
    else:
        source = out_dir
    # a page of every node of a big graph is more than a browser draws (see PAGE_MAX_NODES): the cut is
    # the default, said on its own line with how to draw more
    cap = html_page.PAGE_MAX_NODES if max_nodes is None else max_nodes
    selection = write_graph_html(source, path, focus=focus, hops=hops, max_nodes=cap, title=title)
    graph = selection.graph
    click.echo(f"wrote {path}: {graph.number_of_nodes():,} nodes, {graph.number_of_edges():,} links")
    if selection.note:
        click.echo(selection.note)
    if max_nodes is None and selection.cut_nodes:
        click.echo(html_page.DRAW_MORE)


#: The commands of this area, added to the ``kg`` group by :mod:`kg.cli.main`.
COMMANDS = (html_command,)
