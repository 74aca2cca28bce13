"""A query's answer written in a standard format (CSV, TSV, SPARQL JSON and XML, RDF) or as a table."""

from __future__ import annotations

import pyoxigraph
from pyoxigraph import QueryResultsFormat, RdfFormat

from kg.errors import UsageError
from kg.query.sparql import QueryResult
from kg.vocab import PREFIXES

#: Prefixes written into Turtle output (``id:`` is left out: its local names contain '/').
OUTPUT_PREFIXES = {k: v for k, v in PREFIXES.items() if k != "id"}

#: Formats for SELECT and ASK answers.
RESULT_FORMATS = ("table", "csv", "tsv", "json", "xml")
#: Formats for CONSTRUCT and DESCRIBE answers.
GRAPH_FORMATS = ("turtle", "ntriples", "jsonld", "rdfxml")
#: Every format name :func:`format_result` accepts.
FORMATS = RESULT_FORMATS + GRAPH_FORMATS

_RESULTS_FORMAT = {
    "csv": QueryResultsFormat.CSV,
    "tsv": QueryResultsFormat.TSV,
    "json": QueryResultsFormat.JSON,
    "xml": QueryResultsFormat.XML,
}
_RDF_FORMAT = {
    "turtle": RdfFormat.TURTLE,
    "ntriples": RdfFormat.N_TRIPLES,
    "jsonld": RdfFormat.JSON_LD,
    "rdfxml": RdfFormat.RDF_XML,
}

#: Media type of each format's output.
MEDIA_TYPES = {
    "table": "text/plain; charset=utf-8",
    "csv": "text/csv; charset=utf-8",
    "tsv": "text/tab-separated-values; charset=utf-8",
    "json": "application/sparql-results+json",
    "xml": "application/sparql-results+xml",
    "turtle": "text/turtle; charset=utf-8",
    "ntriples": "application/n-triples",
    "jsonld": "application/ld+json",
    "rdfxml": "application/rdf+xml",
}






def _short(term) -> str:
    """How a term shows in a table: IRIs with a known prefix, literals as their text."""
    if term is None:
        return ""
    if isinstance(term, pyoxigraph.NamedNode):
        iri = term.value
        for prefix, base in PREFIXES.items():
            if iri.startswith(base) and len(iri) > len(base):
                return f"{prefix}:{iri[len(base):]}"
        return f"<{iri}>"
    if isinstance(term, pyoxigraph.Literal):
        value = term.value.replace("\n", " ").replace("\t", " ")
        return f"{value}@{term.language}" if term.language else value
    return str(term)


def _table(result: QueryResult) -> str:
    if result.kind == "boolean":
        return ("true" if result.boolean else "false") + "\n"
    header = list(result.variables)
    cells = [[_short(t) for t in row] for row in result.rows]
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(header)]

    def line(values):
        return "  ".join(v.ljust(w) for v, w in zip(values, widths, strict=False)).rstrip()

    lines = [line(header), line(["-" * w for w in widths])] + [line(row) for row in cells]
    lines.append(f"({len(cells)} row{'' if len(cells) == 1 else 's'})")
    return "\n".join(lines) + "\n"


def _solutions(result: QueryResult):
    """The answer as pyoxigraph query results, rebuilt losslessly through TSV."""
    header = "\t".join(f"?{v}" for v in result.variables)
    lines = [header] + ["\t".join("" if t is None else str(t) for t in row) for row in result.rows]
    return pyoxigraph.parse_query_results("\n".join(lines) + "\n", QueryResultsFormat.TSV)


def format_result(result: QueryResult, fmt: str = "table") -> bytes:
    """The answer written in *fmt*, as bytes.

    ``table`` is text for people (a CONSTRUCT answer comes as Turtle); ``csv``, ``tsv``,
    ``json`` and ``xml`` are the SPARQL 1.1 results formats for SELECT and ASK;
    ``turtle``, ``ntriples``, ``jsonld`` and ``rdfxml`` are for CONSTRUCT and DESCRIBE.

    Raises
    ------
    UsageError
        If *fmt* is unknown or does not suit the kind of answer.

    >>> format_result(QueryResult("boolean", boolean=True), "json")
    b'{"head":{},"boolean":true}'
    """
    if fmt not in FORMATS:
        raise UsageError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    if result.kind == "graph":
        if fmt == "table":
            fmt = "turtle"
        if fmt not in GRAPH_FORMATS:
            raise UsageError(
                f"a CONSTRUCT or DESCRIBE query gives a graph; format {fmt} is for SELECT and ASK, "
                f"use one of {', '.join(GRAPH_FORMATS)}"
            )
        prefixes = OUTPUT_PREFIXES if fmt in ("turtle", "rdfxml") else None
        return pyoxigraph.serialize(result.triples, format=_RDF_FORMAT[fmt], prefixes=prefixes) or b""
    if fmt in GRAPH_FORMATS:
        raise UsageError(
            f"a SELECT or ASK query gives a table; format {fmt} is for CONSTRUCT and DESCRIBE, "
            f"use one of {', '.join(RESULT_FORMATS)}"
        )
    if fmt == "table":
        return _table(result).encode("utf-8")
    if result.kind == "boolean":
        answer = pyoxigraph.parse_query_results(
            '{"head":{},"boolean":%s}' % ("true" if result.boolean else "false"), QueryResultsFormat.JSON
        )
        return answer.serialize(format=_RESULTS_FORMAT[fmt])
    return _solutions(result).serialize(format=_RESULTS_FORMAT[fmt])


