"""Commands of the sparql area: ``kg query`` and ``kg serve``."""

from __future__ import annotations

import re
import sys

import click

from kg.cli.output import output_path, store_option
from kg.errors import UsageError
from kg.files import write_atomic
from kg.outputs.workers import QUICK_WORKERS

#: SPARQL Update's operations: an update starts with one of these after its prologue.
_UPDATE = re.compile(
    r"^\s*(?:(?:PREFIX\s+[\w.-]*:\s*<[^>]*>|BASE\s*<[^>]*>)\s*)*"
    r"(INSERT|DELETE|LOAD|CLEAR|CREATE|DROP|COPY|MOVE|ADD|WITH)\b",
    re.IGNORECASE,
)


def is_update(text: str) -> bool:
    """Whether *text* is a SPARQL Update (comments ignored), which ``kg query`` refuses.

    >>> is_update("PREFIX ex: <http://e/>  # add one\\nINSERT DATA { ex:a ex:b ex:c }")
    True
    >>> is_update("PREFIX kg: <https://kg.example/ns#>\\nDELETE WHERE { ?s kg:name ?o }")
    True
    >>> is_update("SELECT * WHERE { ?s ?p ?o }  # no INSERT here")
    False
    """
    without_comments = re.sub(r"(^|\s)#[^\n]*", " ", text)  # not the '#' inside <...ns#>
    return _UPDATE.match(without_comments) is not None


def _is_name_variable(variable: str) -> bool:
    return variable.lower().startswith("name") or variable.lower().endswith("name")


def forgiving_names(store, bindings: dict) -> dict:
    """Bound person names matched as the other commands match them: a value that names exactly
    one person (any case, accents, order, a unique prefix) becomes that person's name in the graph."""
    if not bindings:
        return bindings  # nothing to match: the name index and its modules are not loaded
    import pyoxigraph

    from kg.errors import UserError
    from kg.query.lookup import resolve_people

    out = dict(bindings)
    for variable, term in bindings.items():
        name = getattr(variable, "value", str(variable))
        if not (_is_name_variable(name) and isinstance(term, pyoxigraph.Literal) and term.language is None):
            continue
        try:
            found = resolve_people(store, term.value)
        except UserError:
            continue
        if len(found) == 1 and found[0].name != term.value:
            click.echo(f"kg: note: --bind {name}={term.value!r} matched {found[0].name}", err=True)
            out[variable] = pyoxigraph.Literal(found[0].name)
    return out


@click.command()
@click.argument("query")
@click.option("--bind", "binds", multiple=True, metavar="NAME=VALUE",
              help="Bind a variable the query selects (repeatable). VALUE is a plain string, "
                   "<https://...> or prefix:name for an IRI, or \"text\"^^xsd:type.")
@click.option("--format", "fmt", default="table", show_default=True,
              type=click.Choice(["table", "csv", "tsv", "json", "xml", "turtle", "ntriples", "jsonld"]),
              help="table for people; csv, tsv, json, xml (SPARQL results) for SELECT/ASK; "
                   "turtle, ntriples, jsonld for CONSTRUCT/DESCRIBE.")
@click.option("--out", "out_dir", default="out", show_default=True, type=click.Path(file_okay=False),
              help="Folder that `kg build` wrote (the store is OUT/store).")
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None,
              help="Write the answer to this file (atomically) instead of standard output.")
@click.option("--allow-federation", is_flag=True,
              help="Let SERVICE send requests to the addresses the query names (refused by default).")
@store_option
def query(query, binds, fmt, out_dir, output, allow_federation, store):
    """Run a SPARQL QUERY (text, a .rq file, or an example's name) on the built graph.

    The default graph is the merged view; each source document is a named graph
    (GRAPH ?g { ... }). The prefixes kg:, id:, schema:, prov:, rdf:, rdfs:, xsd:, owl:,
    dcterms: and foaf: need no PREFIX line. --bind values are passed to the engine as
    values, never pasted into the query text.

    \b
    Examples:
      kg query 'SELECT (COUNT(*) AS ?n) WHERE { ?p a kg:Person }'
      kg query coauthors --bind name="Ana Ruiz"
      kg query coauthors --bind name="ana ruiz" --format csv
      kg query people-at-institution --bind institution="Example Institute of Technology" --bind year=2022
      kg query person-card --bind name="Ben Okafor" --format turtle
      kg query 'ASK { GRAPH ?g { ?s kg:title ?t } }' --format json

    Names bound to ?name (and ?name1, ?supervisorName ...) are matched forgivingly, as
    the other commands match them; an answer with no rows says which bindings matched nothing.
    CSV and TSV cells that a spreadsheet would read as a formula start with ' (OWASP).
    """
    from kg.query.examples import examples_dir, read_query
    from kg.query.formats import format_result
    from kg.query.sparql import run_query
    from kg.query.terms import parse_bindings
    from kg.store import open_location

    text, source = read_query(query, examples_dir())
    if is_update(text):
        raise UsageError("updates are not allowed: kg query only reads the graph; change the documents "
                         "in data/ (or data/curation.yaml) and run `kg build` again")
    try:
        bindings = parse_bindings(binds)
    except UsageError as err:
        raise UsageError(f"--bind: {err}") from None
    if output:
        output_path(output)
    store = open_location(out_dir, store)
    bindings = forgiving_names(store, bindings)
    result = run_query(store, text, bindings=bindings, source=source, allow_federation=allow_federation)
    if bindings and result.kind == "solutions" and not result.rows:
        shown = " ".join(f"{getattr(k, 'value', k)}={getattr(v, 'value', v)!r}" for k, v in bindings.items())
        click.echo(f"kg: warning: no rows; nothing in the graph matched --bind {shown}", err=True)
    try:
        data = format_result(result, fmt)
    except UsageError as err:
        raise UsageError(f"--format: {err}") from None
    if fmt in ("csv", "tsv") and result.kind == "solutions":
        data = neutral_results(data, fmt)
    if data and not data.endswith(b"\n"):
        data += b"\n"  # a terminal's prompt starts on its own line
    if output:
        write_atomic(output, data)
    else:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; the default answers only this machine.")
@click.option("--port", default=7878, show_default=True, type=click.IntRange(0, 65535),
              help="Port to listen on (0 picks a free one).")
@click.option("--timeout", default=30.0, show_default=True, type=click.FloatRange(min=0.01),
              help="Seconds a query may run before it is stopped (HTTP 503).")
@click.option("--max-results", default=100_000, show_default=True, type=click.IntRange(min=1),
              help="Most rows or triples an answer may have (more: HTTP 500 asking for a LIMIT).")
@click.option("--workers", default=QUICK_WORKERS, show_default=True, type=click.IntRange(1, 64),
              help="Worker processes for quick queries (each query runs in its own process).")
@click.option("--long-queries", default=2, show_default=True, type=click.IntRange(0, 64),
              help="Queries that may run past 1 s at once, in workers of their own; "
                   "one more is stopped (HTTP 503) so quick queries never wait for them.")
@click.option("--memory-limit", "memory_mb", default=1024, show_default=True, type=click.IntRange(min=16),
              help="Megabytes of memory a query may take (past it: HTTP 500 and a fresh worker).")
@click.option("--cors-origin", "cors_origins", multiple=True, metavar="ORIGIN",
              help="A web origin (https://example.org) whose pages may query this server (repeatable); "
                   "by default no other site may.")
@click.option("--allowed-host", "allowed_hosts", multiple=True, metavar="NAME",
              help="Another host name this server answers to (repeatable); by default only the "
                   "address it listens on, which protects against DNS rebinding.")
@click.option("--allow-federation", is_flag=True,
              help="Let SERVICE send requests to the addresses a query names (refused by default: "
                   "a web page could use the server to reach your network).")
@click.option("--out", "out_dir", default="out", show_default=True, type=click.Path(file_okay=False),
              help="Folder that `kg build` wrote (the store is OUT/store).")
@click.option("--queries", "queries_dir", default=None, type=click.Path(file_okay=False),
              help="Folder of example .rq queries shown on the query page "
                   "[default: the examples shipped in kg/data/queries].")
def serve(host, port, timeout, max_results, workers, long_queries, memory_mb, cors_origins, allowed_hosts,
          allow_federation, out_dir, queries_dir):
    """Serve the built graph as a read-only SPARQL 1.1 endpoint, with a query page.

    The endpoint is /sparql (GET ?query=..., POST form or application/sparql-query);
    results come as JSON, XML, CSV or TSV, graphs as Turtle, N-Triples or JSON-LD, by
    the Accept header or ?format=. Updates are refused. Open http://HOST:PORT/ in a
    browser for a query editor with the example queries; it needs no internet.
    A rebuilt graph is served from the next query on. docs/security.md lists the limits.

    \b
    Examples:
      kg serve                                  http://127.0.0.1:7878/
      kg serve --port 8890 --timeout 10 --max-results 5000
      curl -H 'Accept: text/csv' --data-urlencode 'query=SELECT * WHERE { ?s ?p ?o } LIMIT 3' \\
           http://127.0.0.1:7878/sparql
    """
    from kg.outputs.server import serve_forever
    from kg.query.examples import examples_dir

    if host not in ("127.0.0.1", "localhost", "::1"):
        click.echo(f"kg serve: listening on {host}: other machines can query this graph", err=True)
    try:
        serve_forever(out_dir, host=host, port=port, timeout=timeout, max_results=max_results,
                      workers=workers, long_queries=long_queries, memory_mb=memory_mb,
                      allow_federation=allow_federation, cors_origins=cors_origins, allowed_hosts=allowed_hosts,
                      queries_dir=queries_dir or examples_dir(),
                      announce=lambda url: click.echo(f"kg serve: SPARQL endpoint at {url}sparql, "
                                                      f"query page at {url} (Ctrl-C stops)", err=True))
    except OSError as err:
        raise UsageError(f"cannot listen on {host}:{port} ({err.strerror or err}); "
                         "choose another --port or --host") from None


def neutral_results(data: bytes, fmt: str) -> bytes:
    """SPARQL CSV/TSV results with cells that start a spreadsheet formula prefixed with ``'``.

    >>> neutral_results(b'name,n\\r\\n@SUM(A1),-1\\r\\n', "csv")
    b"name,n\\r\\n'@SUM(A1),-1\\r\\n"
    """
    import csv
    import io

    from kg.outputs.cells import neutral_cell

    text = data.decode("utf-8")
    if fmt == "tsv":  # TSV cells are RDF terms (<iri>, "literal"): only a bare one can start a formula
        lines = ["\t".join(neutral_cell(c) for c in line.split("\t")) for line in text.split("\n")]
        return "\n".join(lines).encode("utf-8")
    rows = list(csv.reader(io.StringIO(text, newline="")))
    buffer = io.StringIO(newline="")
    csv.writer(buffer, lineterminator="\r\n").writerows([[neutral_cell(c) for c in row] for row in rows])
    return buffer.getvalue().encode("utf-8")


#: The commands of this area, added to the ``kg`` group by :mod:`kg.cli.main`.
COMMANDS = (query, serve,)
