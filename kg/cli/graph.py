"""Commands of the graph area: collaborators, shared, path, analyze, export.

Each reads the store that ``kg build`` wrote (``--out``, default ``out``). ``kg collaborators``,
``kg shared`` and ``kg path`` read only the co-authors around the people asked about, from the
tables the build wrote beside the store (:mod:`kg.graphs.fromtables`), and print plain rows
(:mod:`kg.graphs.rows`) without loading pandas or networkx; without tables (an older build) they
project the whole store. Names are matched forgivingly by :func:`kg.query.lookup.resolve_person`.
"""

from __future__ import annotations

from pathlib import Path

import click

from kg.cli.output import Rows, emit, output_path, store_option
from kg.errors import UserError

TABLE_FORMATS = ("table", "csv", "json")

_out_option = click.option("--out", "out_dir", default="out", show_default=True, type=click.Path(file_okay=False),
                           help="Folder where `kg build` wrote the graph.")
_format_option = click.option("--format", "fmt", type=click.Choice(TABLE_FORMATS), default="table",
                              show_default=True, help="Print a table for people, or CSV/JSON for programs.")


def _store(out_dir, store=None):
    from kg.store import open_location

    return open_location(out_dir, store)


def _person(store, text: str):
    from kg.query.lookup import resolve_person

    return resolve_person(store, text)


def _check_in(graph, person) -> None:
    if person.iri not in graph:
        raise UserError(f"{person.name} <{person.iri}> has no works in the graph, so no co-authors; "
                        "try someone who wrote a listed work")


def _coauthors(store, around, tables=None):
    """The co-author edges touching *around* (IRIs), from the build's tables (or the server's) where
    there are; else the whole co-author graph."""
    from kg.graphs.fromtables import tables_beside

    tables = tables or tables_beside(store)
    if tables is None:
        from kg.graphs.projections import coauthor_graph

        return coauthor_graph(store)
    from kg.graphs.fromtables import neighbourhood_from_tables

    return neighbourhood_from_tables(tables, around)


@click.command()
@click.argument("name")
@click.option("-n", "--top", default=10, show_default=True, type=click.IntRange(min=1),
              help="How many collaborators.")
@_out_option
@store_option
@_format_option
def collaborators(name, top, out_dir, fmt, store):
    """A person's closest collaborators: joint works, years and venues.

    CSV and JSON add `newman_weight`, Newman's fractional count (each joint work counts
    1 / (its authors - 1)), which favours small teams.

    \b
    Examples:
      kg collaborators "Ana Ruiz"
      kg collaborators "ruiz ana" -n 5 --format csv
    """
    from kg.graphs.rows import COLLABORATOR_COLUMNS, collaborator_rows

    store = _store(out_dir, store)
    person = _person(store, name)
    graph = _coauthors(store, [person.iri])
    _check_in(graph, person)
    # one meaning per name across kg: `weight` is joint works in the exports; Newman's count has its own name
    rows = [{("newman_weight" if k == "weight" else k): v for k, v in row.items()}
            for row in collaborator_rows(graph, person.iri, n=top)]
    columns = [("newman_weight" if c == "weight" else c) for c in COLLABORATOR_COLUMNS]
    emit(Rows(columns, rows), fmt, ["name", "joint_works", "years", "venues"])


@click.command()
@click.argument("names", nargs=-1, required=True)
@_out_option
@store_option
@_format_option
def shared(names, out_dir, fmt, store):
    """Collaborators that two or more people have in common.

    \b
    Examples:
      kg shared "Ana Ruiz" "Ben Okafor"
      kg shared ruiz "okafor ben" --format json
    """
    from kg.graphs.rows import shared_rows

    if len(names) < 2:
        raise UserError("give two or more names, such as: kg shared \"Ana Ruiz\" \"Ben Okafor\"")
    store = _store(out_dir, store)
    people = [_person(store, n) for n in names]
    iris = [p.iri for p in people]
    graph = _coauthors(store, iris)
    for p in people:
        _check_in(graph, p)
    if len(set(iris)) != len(iris):
        raise UserError(f"give two or more different people, got {len(set(iris))}")
    columns, rows = shared_rows(graph, iris)
    emit(Rows(columns, rows), fmt, [c for c in columns if c != "collaborator"])


@click.command()
@click.argument("source")
@click.argument("target")
@_out_option
@store_option
@_format_option
def path(source, target, out_dir, fmt, store):
    """The shortest chain of co-authors from one person to another, with the works on each hop.

    \b
    Examples:
      kg path "Ana Ruiz" "Dara Singh"
      kg path "ruiz ana" singh --format json
    """
    from kg.graphs.fromtables import tables_beside
    from kg.graphs.rows import PATH_COLUMNS, path_rows

    store = _store(out_dir, store)
    a, b = _person(store, source), _person(store, target)
    tables = tables_beside(store)
    if tables is not None and a.iri != b.iri:  # only the people on the shortest paths, and their edges
        from kg.graphs.fromtables import shortest_path_people

        on_paths = shortest_path_people(tables, a.iri, b.iri)
        graph = _coauthors(store, on_paths | {a.iri, b.iri}, tables)
    else:
        graph = _coauthors(store, [a.iri, b.iri], tables)
    _check_in(graph, a)
    _check_in(graph, b)
    rows = path_rows(graph, a.iri, b.iri)
    if not rows and fmt == "table":
        click.echo(f"no collaboration path between {a.name} and {b.name}")
        return
    emit(Rows(PATH_COLUMNS, rows or []), fmt, ["hop", "from_name", "to_name", "joint_works", "works"])


@click.command()
@_out_option
@store_option
@click.option("--report", "report_path", type=click.Path(dir_okay=False), default=None,
              help="Where to write the report [default: OUT/report.html, or .md with --format markdown].")
@click.option("--format", "fmt", type=click.Choice(("html", "markdown")), default=None,
              help="Report format [default: from the report's suffix, else html].")
@click.option("-n", "--top", default=10, show_default=True, type=click.IntRange(min=1),
              help="Rows in the top-N tables.")
def analyze(out_dir, report_path, fmt, top, store):
    """Write a report: statistics, plots, top collaborators, central people, communities, brokers.

    The plots (degree distribution, collaborations per year per profiled person, top
    collaborators) are embedded, so the report is one file. Same graph, same bytes.
    With more than 10 profiled people, the per-person plots show the 10 with the most
    works; the tables list everyone.

    \b
    Examples:
      kg analyze                          writes out/report.html
      kg analyze --report report.md       Markdown instead
    """
    from kg.outputs.report import write_report

    if report_path is None:
        report_path = Path(out_dir) / ("report.md" if fmt == "markdown" else "report.html")
    else:
        output_path(report_path)
    written = write_report(_store(out_dir, store), report_path, fmt=fmt, top=top)
    click.echo(f"wrote {written}")


GRAPHS = ("coauthor", "person-organization", "organization", "supervision")
_SUFFIX = {"graphml": ".graphml", "gexf": ".gexf", "csv": "-csv", "vosviewer": "-vosviewer"}


@click.command()
@click.option("--format", "fmt", type=click.Choice(("graphml", "gexf", "csv", "vosviewer")), required=True,
              help="graphml/gexf for Gephi; csv for spreadsheets; vosviewer map and network files.")
@click.option("--graph", "which", type=click.Choice(GRAPHS), default="coauthor", show_default=True,
              help="Which projection to export.")
@click.option("--output", type=click.Path(), default=None,
              help="File (graphml, gexf) or folder (csv, vosviewer) [default: OUT/GRAPH.graphml, OUT/GRAPH-csv/ ...].")
@_out_option
@store_option
def export(fmt, which, output, out_dir, store):
    """Export a projection of the graph for Gephi, VOSviewer or a spreadsheet.

    \b
    Examples:
      kg export --format graphml                       out/coauthor.graphml
      kg export --format vosviewer --output vos/       vos/map.txt, vos/network.txt
      kg export --format csv --graph person-organization
    """
    from kg.graphs import projections
    from kg.outputs.export import export_graph

    build = {"coauthor": projections.coauthor_graph,
             "person-organization": projections.person_organization_graph,
             "organization": projections.organization_graph,
             "supervision": projections.supervision_graph}[which]
    target = (output_path(output, folder=fmt in ("csv", "vosviewer")) if output
              else Path(out_dir) / f"{which}{_SUFFIX[fmt]}")
    graph = build(_store(out_dir, store))
    for written in export_graph(graph, fmt, target):
        click.echo(f"wrote {written}")


#: The commands of this area, added to the ``kg`` group by :mod:`kg.cli.main`.
COMMANDS = (collaborators, shared, path, analyze, export,)
