"""Commands that build and check the graph: build, validate, profile."""

from __future__ import annotations

import sys

import click

from kg.cli.output import json_text, store_option


@click.command()
@click.argument("data_dir", default="data", type=click.Path(file_okay=False))
@click.option("--out", "out_dir", default="out", show_default=True, type=click.Path(file_okay=False),
              help="Folder to write kg.trig, kg.ttl, kg.jsonld, store/, tables/ and graph.html into (replaced whole).")
@click.option("--include-private", is_flag=True,
              help="Also write telephone numbers and street addresses found in CVs (left out by default).")
@click.option("--strict", is_flag=True, help="Exit with status 1 when anything was skipped.")
@click.option("--no-validate", is_flag=True, help="Skip the SHACL check against shapes.ttl.")
@click.option("--force", is_flag=True, help="Replace a built graph even when DATA_DIR has no documents.")
@click.option("--timings", is_flag=True, help="Also print the seconds each stage of the build took.")
@click.option("--memory-limit", "memory_limit", envvar="KG_MEMORY_LIMIT", default=None, metavar="SIZE",
              help="Keep the build's processes together within SIZE (such as 6G; env KG_MEMORY_LIMIT): a big "
                   "build then runs one step at a time where it would run two side by side. Without it, the "
                   "memory the system has available bounds them.")
@click.option("--store", "store", envvar="KG_STORE", default=None, metavar="URL",
              help="Also push the graph to this SPARQL server (its query endpoint; env KG_STORE), "
                   "replacing the build there as a whole.")
@click.option("--store-update", "store_update", envvar="KG_STORE_UPDATE", default=None, metavar="URL",
              help="The server's SPARQL Update endpoint, if not the --store URL (env KG_STORE_UPDATE).")
@click.option("--store-gsp", "store_gsp", envvar="KG_STORE_GSP", default=None, metavar="URL",
              help="The server's Graph Store Protocol endpoint, to load graphs in large batches (env KG_STORE_GSP).")
def build(data_dir, out_dir, include_private, strict, no_validate, force, timings, memory_limit, store, store_update,
          store_gsp):
    """Read the documents in DATA_DIR and write the knowledge graph to --out.

    \b
    Examples:
      kg build                       data/ -> out/
      kg build my-cvs --out graph    another folder
      kg build --strict              fail (exit 1) if any line could not be read
      kg build --timings             where a long build spends its time
      kg build --memory-limit 6G     slower where need be, but within 6 GiB
      kg build --store http://127.0.0.1:7878/query --store-update http://127.0.0.1:7878/update
    """
    from kg.build import build_graph
    from kg.errors import UsageError

    if store and not _is_endpoint_url(store):
        raise UsageError(f"--store: {store!r} is not a SPARQL endpoint URL (http:// or https://); "
                         "the embedded store is always written to OUT/store")
    limit = None
    if memory_limit is not None:
        from kg.memory import parse_size

        try:
            limit = parse_size(memory_limit)
        except UsageError as error:
            raise UsageError(f"--memory-limit: {error}") from None
    _check_documents(data_dir)
    from contextlib import nullcontext

    from kg.memory import PeakMemory

    # all of the build's processes, sampled, where their memory is asked for (--timings) or bounded
    with PeakMemory() if timings or limit is not None else nullcontext() as together:
        report = build_graph(data_dir, out_dir, include_private=include_private, progress=sys.stderr.isatty(),
                             validate=not no_validate, force=force, memory_limit=limit)
    click.echo(report.summary())
    _echo_memory(limit, timings, together.peak if together is not None else None)
    if timings:
        click.echo("timings:\n" + report.timings())
    if store:
        from pathlib import Path

        from kg.remote.push import push_store
        from kg.store import store_path

        click.echo(push_store(store_path(Path(out_dir)), store, store_update, store_gsp,
                              progress=sys.stderr.isatty()).summary())
    if report.conforms is False or (strict and report.skipped):
        sys.exit(1)


def _echo_memory(limit: int | None, always: bool, together: int | None) -> None:
    """The build's largest process and, where the system says, all its processes together (*together*,
    their sampled peak), with --timings; and a word where the build went over --memory-limit, which
    bounds them together (the largest process where that is unknown)."""
    from kg.memory import largest_process, size_text

    peak = largest_process()
    if peak is None:
        return
    both = f"the largest process held {size_text(peak)}"
    if together is not None:
        both += f"; its processes together held {size_text(together)} at their peak (proportional set size, " \
                "sampled every second)"
    if limit is not None and (together if together is not None else peak) > limit:
        click.echo(f"memory: {both}, more than --memory-limit {size_text(limit)} (a limit makes the build run "
                   "its steps one at a time, but no step smaller); give the build more memory, or fewer documents")
    elif always:
        click.echo(f"memory: {both}")


def _is_endpoint_url(url: str) -> bool:
    from kg.remote.http import is_endpoint_url  # urllib's request module: only for a build with --store

    return is_endpoint_url(url)


def _check_documents(data_dir) -> None:
    """A first build from a folder with no documents stops with what to do, instead of an empty graph."""
    from pathlib import Path

    from kg.errors import UserError
    from kg.sources import find_sources
    from kg.sources.registry import READERS

    folder = Path(data_dir)
    if not folder.is_dir():
        return  # the build says the folder is missing
    found, _ = find_sources(folder, exclude=("curation.yaml",))
    if found:
        return
    suffixes = sorted({s for r in READERS for s in r.suffixes})
    raise UserError(
        f"{folder}/ holds no documents kg can read; put researchers' CVs, publication lists, BibTeX, "
        f"ORCID or thesis records in it ({', '.join(suffixes)}), then run `kg build {data_dir}` again "
        "(README: \"Adding a document\"; `kg read FILE` shows what kg gets from one file)")


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--format", "fmt", type=click.Choice(["json", "table"]), default="json", show_default=True)
def read(paths, fmt):
    """What kg reads from each document at PATHS, before identity: the owner and each work
    with its title, authors in printed order, year, venue and status, and what was skipped.

    A folder is read as the build reads a data folder, except that a site's front-matter
    pages in it are one document.

    \b
    Examples:
      kg read data/cv-ana-ruiz.md
      kg read data --format table
    """
    from kg.sources import read_path
    from kg.sources.summary import document_summary

    summaries = [document_summary(doc) for path in paths for doc in read_path(path)]
    if fmt == "json":
        click.echo(json_text(summaries[0] if len(summaries) == 1 else summaries), nl=False)
        return
    for s in summaries:
        click.echo(f"{s['document']} ({s['format']}): owner {s['owner'] or '-'}, {len(s['works'])} works, "
                   f"{s['other_facts']} other facts, {len(s['skipped'])} skipped")
        for w in s["works"]:
            authors = ", ".join(w["authors"]) + (" et al." if w.get("et_al") else "")
            click.echo(f"  {w['year'] or '----'}  {w['title'][:70]}  |  {authors[:60]}  |  {(w['venue'] or '')[:40]}"
                       f"  [{w['status']}]")
        for skip in s["skipped"]:
            click.echo(f"  skipped {skip}")


@click.command()
@click.option("--out", "out_dir", default="out", show_default=True, help="Folder of a built graph.")
def validate(out_dir):
    """Check the built graph (--out/kg.ttl) against the SHACL shapes in shapes.ttl.

    \b
    Example:
      kg validate --out out
    """
    from kg.build import validate_output

    conforms, violations = validate_output(out_dir)
    if conforms:
        click.echo(f"{out_dir}/kg.ttl conforms to shapes.ttl")
        return
    for v in violations:
        click.echo(v)
    click.echo(f"{len(violations)} violations of shapes.ttl", err=True)
    sys.exit(1)


@click.command()
@click.argument("name")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--out", "out_dir", default="out", show_default=True, help="Folder of a built graph.")
@store_option
def profile(name, fmt, out_dir, store):
    """A person's positions, education, works with co-authors, awards, talks and service,
    each fact with the document and lines it came from.

    NAME is matched forgivingly: case, accents and name order do not matter, and a
    unique prefix is enough.

    \b
    Examples:
      kg profile "Ana Ruiz"
      kg profile "ruiz, ana" --format json
    """
    from kg.outputs.profile import person_profile, profile_text
    from kg.query.lookup import resolve_person
    from kg.store import open_location

    store = open_location(out_dir, store)
    person = resolve_person(store, name)
    data = person_profile(store, person.iri)
    if fmt == "json":
        click.echo(json_text(data), nl=False)
    else:
        click.echo(profile_text(data))


@click.command()
@click.argument("text")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--out", "out_dir", default="out", show_default=True,
              help="Folder of a built graph (its identity.json says why identity merged).")
@store_option
def explain(text, fmt, out_dir, store):
    """Why identity merged (or kept apart) the person, work, venue or organization TEXT names.

    \b
    Examples:
      kg explain "Chen Li"          the documents whose mentions became one person
      kg explain "Graph Caches"      the titles that became one work
      kg explain "Example Institute of Technology"   short and long forms of an organization
    """
    from kg.outputs.explain import explain as explain_entity
    from kg.outputs.explain import explain_text
    from kg.store import open_location

    entries = explain_entity(open_location(out_dir, store), out_dir, text)
    click.echo(json_text(entries) if fmt == "json" else explain_text(entries) + "\n", nl=False)


@click.command()
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "json"]), default="table", show_default=True)
@click.option("--out", "out_dir", default="out", show_default=True, help="Folder of a built graph.")
@click.option("--people", is_flag=True, help="List people kept apart who are possibly the same instead.")
@store_option
def conflicts(fmt, out_dir, people, store):
    """Facts on which source documents disagree (dates of one degree, a paper's year, its title),
    each value with its source and lines; `chosen` marks the value the merged graph kept
    (the newer document's, by the dates in data/curation.yaml or else the latest date a document mentions).

    \b
    Examples:
      kg conflicts
      kg conflicts --format csv > conflicts.csv
      kg conflicts --people          namesakes kept apart, each with the line that joins them
    """
    from kg.cli.output import emit
    from kg.outputs.conflicts import conflicts as find_conflicts
    from kg.outputs.explain import possibly_same
    from kg.store import open_location

    frame = possibly_same(out_dir) if people else find_conflicts(open_location(out_dir, store))
    if fmt == "table" and frame.empty:
        click.echo("no namesakes kept apart" if people else
                   "no conflicts: the sources agree on every single-valued fact")
    else:
        hidden = ("person", "other") if people else ("subject",)
        emit(frame, fmt, [c for c in frame.columns if c not in hidden])


#: The commands of this area, added to the ``kg`` group by :mod:`kg.cli.main`.
COMMANDS = (build, read, validate, profile, explain, conflicts,)
