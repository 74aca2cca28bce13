r"""Run SPARQL on the built store and write the answer in a standard format.

A query runs on the store that ``kg build`` writes (see ``docs/data-model.md``): the
default graph is the merged view, each source document is a named graph. Values for
the query's variables are bound with :func:`parse_bindings` and passed to Oxigraph as
*substitutions* (SEP-0007), never pasted into the query text, so a value cannot change
what the query means.

>>> import pyoxigraph
>>> store = pyoxigraph.Store()
>>> store.add(pyoxigraph.Quad(pyoxigraph.NamedNode("https://kg.example/id/person/ada"),
...     pyoxigraph.NamedNode("https://kg.example/ns#name"), pyoxigraph.Literal("Ada")))
>>> result = run_query(store, "SELECT ?p ?name WHERE { ?p kg:name ?name }",
...                    bindings=parse_bindings(["name=Ada"]))
>>> print(format_result(result, "table").decode(), end="")
p              name
-------------  ----
id:person/ada  Ada
(1 row)
>>> format_result(result, "csv")
b'p,name\r\nhttps://kg.example/id/person/ada,Ada\r\n'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pyoxigraph
from pyoxigraph import QueryResultsFormat, RdfFormat

from kg.errors import UsageError, UserError

#: Prefixes every query may use without declaring them (a query's own PREFIX wins).
PREFIXES: dict[str, str] = {
    "kg": "https://kg.example/ns#",
    "id": "https://kg.example/id/",
    "schema": "https://schema.org/",
    "prov": "http://www.w3.org/ns/prov#",
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
    "owl": "http://www.w3.org/2002/07/owl#",
    "dcterms": "http://purl.org/dc/terms/",
    "foaf": "http://xmlns.com/foaf/0.1/",
}

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


class ResultTooLarge(UserError):
    """A query's answer has more rows or triples than the limit allows."""


@dataclass
class QueryResult:
    """A query's whole answer, read from the store.

    ``kind`` is ``"solutions"`` (SELECT: ``variables`` and ``rows``, each row a tuple of
    terms or ``None`` for unbound), ``"boolean"`` (ASK: ``boolean``) or ``"graph"``
    (CONSTRUCT and DESCRIBE: ``triples``, sorted so that output is byte-stable).
    """

    kind: str
    variables: list[str] = field(default_factory=list)
    rows: list[tuple] = field(default_factory=list)
    boolean: bool | None = None
    triples: list = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.rows) if self.kind == "solutions" else len(self.triples) if self.kind == "graph" else 1


# ----------------------------------------------------------------------------- bindings

_NT_LITERAL = re.compile(r'^"(?P<lex>(?:[^"\\]|\\.)*)"(?:@(?P<lang>[A-Za-z]+(?:-[A-Za-z0-9]+)*)|\^\^(?P<dt>\S+))?$')
_PREFIXED = re.compile(r"^(?P<prefix>[A-Za-z][\w.-]*)?:(?P<local>\S*)$")


def _unescape(text: str) -> str:
    return re.sub(r'\\(["\\nrt])', lambda m: {"n": "\n", "r": "\r", "t": "\t"}.get(m[1], m[1]), text)


def _iri(text: str, what: str) -> pyoxigraph.NamedNode:
    if text.startswith("<") and text.endswith(">"):
        text = text[1:-1]
    else:
        match = _PREFIXED.match(text)
        if not match or (match["prefix"] or "") not in PREFIXES:
            known = ", ".join(f"{p}:" for p in PREFIXES)
            raise UsageError(f"{what}: {text!r} is not an IRI; write <https://...> or use a known prefix ({known})")
        text = PREFIXES[match["prefix"] or ""] + match["local"]
    try:
        return pyoxigraph.NamedNode(text)
    except ValueError as err:
        raise UsageError(f"{what}: {text!r} is not a valid IRI ({err})") from None


def parse_term(text: str, what: str = "value"):
    """The RDF term a ``--bind`` value stands for.

    ``<https://...>`` or ``kg:Person`` (a known prefix) is an IRI; ``"2023"^^xsd:gYear`` or
    ``"chat"@fr`` is a literal written as in SPARQL; anything else is a plain string.

    >>> parse_term("Ada Lovelace")
    <Literal value=Ada Lovelace datatype=<NamedNode value=http://www.w3.org/2001/XMLSchema#string>>
    >>> parse_term("<https://kg.example/id/person/ada>")
    <NamedNode value=https://kg.example/id/person/ada>
    >>> parse_term("id:person/ada").value
    'https://kg.example/id/person/ada'
    >>> parse_term('"2023"^^xsd:gYear').datatype.value
    'http://www.w3.org/2001/XMLSchema#gYear'
    """
    if text.startswith("<") and text.endswith(">"):
        return _iri(text, what)
    match = _NT_LITERAL.match(text)
    if match:
        lexical = _unescape(match["lex"])
        if match["lang"]:
            return pyoxigraph.Literal(lexical, language=match["lang"])
        if match["dt"]:
            return pyoxigraph.Literal(lexical, datatype=_iri(match["dt"], what))
        return pyoxigraph.Literal(lexical)
    prefixed = _PREFIXED.match(text)
    if prefixed and (prefixed["prefix"] or "") in PREFIXES and not text.startswith(":"):
        return _iri(text, what)
    return pyoxigraph.Literal(text)


def parse_bindings(pairs) -> dict:
    """Variable bindings from ``name=value`` strings, for :func:`run_query`.

    Raises
    ------
    UsageError
        If a pair has no ``=``, the name is not a SPARQL variable name, or a name repeats.

    >>> sorted(str(v) for v in parse_bindings(["name=Ada", "?year=2023"]))
    ['?name', '?year']
    >>> parse_bindings(["name"])
    Traceback (most recent call last):
    ...
    kg.errors.UsageError: --bind 'name' has no '='; write --bind name=value
    """
    bindings: dict = {}
    for pair in pairs or ():
        name, sep, value = pair.partition("=")
        name = name.strip().lstrip("?$")
        if not sep:
            raise UsageError(f"--bind {pair!r} has no '='; write --bind name=value")
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            raise UsageError(f"--bind {pair!r}: {name!r} is not a variable name (letters, digits, _)")
        variable = pyoxigraph.Variable(name)
        if variable in bindings:
            raise UsageError(f"--bind {name} is given twice; give each variable once")
        bindings[variable] = parse_term(value, f"--bind {name}")
    return bindings


# ----------------------------------------------------------------------------- running

_SYNTAX_POSITION = re.compile(r"^error at (\d+):(\d+)(?:-\d+:\d+)?: ?(.*)$", re.S)


def syntax_message(err: Exception, source: str = "query") -> str:
    """A one-line explanation of a SPARQL syntax error, with its line and column.

    >>> syntax_message(SyntaxError("error at 1:25: expected one of LATERAL, SERVICE, [_]"))
    'query syntax error at line 1, column 25: expected one of LATERAL, SERVICE, [_]'
    """
    text = str(err).strip()
    match = _SYNTAX_POSITION.match(text)
    if match:
        line, column, rest = match.groups()
        return f"{source} syntax error at line {line}, column {column}: {' '.join(rest.split())}"
    return f"{source} syntax error: {' '.join(text.split())}"


def _check_limit(count: int, limit: int | None, what: str) -> None:
    if limit is not None and count > limit:
        raise ResultTooLarge(
            f"the answer has more than {limit} {what}, the result-size limit; "
            "add a LIMIT to the query or raise the limit"
        )


def run_query(
    store,
    query: str,
    *,
    bindings: dict | None = None,
    limit: int | None = None,
    default_graph=None,
    named_graphs=None,
    source: str = "query",
) -> QueryResult:
    """The answer to a SPARQL query on *store*, read in full.

    Parameters
    ----------
    store : pyoxigraph.Store
        The store to ask (for the built graph, :func:`kg.store.open_store`).
    query : str
        A SELECT, ASK, CONSTRUCT or DESCRIBE query; the prefixes in :data:`PREFIXES`
        need no declaration.
    bindings : dict, optional
        Values for variables, from :func:`parse_bindings`; each must be a variable the
        query selects.
    limit : int, optional
        Most rows (SELECT) or triples (CONSTRUCT, DESCRIBE) allowed; more raise
        :class:`ResultTooLarge`.
    default_graph, named_graphs : optional
        The SPARQL protocol's ``default-graph-uri`` and ``named-graph-uri``, as IRIs.
    source : str
        What to call the query in error messages (a file name, say).

    Raises
    ------
    UsageError
        On a syntax error (with line and column) or a binding the query cannot take.
    ResultTooLarge
        If the answer is larger than *limit*.
    UserError
        If the query fails while running.
    """
    if not isinstance(query, str) or not query.strip():
        raise UsageError(f"{source} is empty; give a SPARQL query or a .rq file")
    kwargs = {"prefixes": PREFIXES}
    if bindings:
        kwargs["substitutions"] = bindings
    if default_graph:
        kwargs["default_graph"] = [pyoxigraph.NamedNode(g) for g in default_graph]
    if named_graphs:
        kwargs["named_graphs"] = [pyoxigraph.NamedNode(g) for g in named_graphs]
    try:
        answer = store.query(query, **kwargs)
        if isinstance(answer, pyoxigraph.QuerySolutions):
            variables = [v.value for v in answer.variables]
            rows = []
            for solution in answer:
                rows.append(tuple(solution[i] for i in range(len(variables))))
                _check_limit(len(rows), limit, "rows")
            return QueryResult("solutions", variables=variables, rows=rows)
        if isinstance(answer, pyoxigraph.QueryBoolean):
            return QueryResult("boolean", boolean=bool(answer))
        triples = set()
        for triple in answer:
            triples.add(triple)
            _check_limit(len(triples), limit, "triples")
        return QueryResult("graph", triples=sorted(triples, key=lambda t: (str(t.subject), str(t.predicate), str(t.object))))
    except SyntaxError as err:
        raise UsageError(syntax_message(err, source)) from None
    except RuntimeError as err:
        message = " ".join(str(err).split())
        if "does not contains variable" in message or "does not contain variable" in message:
            raise UsageError(
                f"{source}: {message}; --bind can only bind variables the query selects"
            ) from None
        raise UserError(f"{source} failed: {message}") from None
    except OSError as err:
        raise UserError(f"{source} failed reading the store: {err}") from None


# ----------------------------------------------------------------------------- output


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
        return "  ".join(v.ljust(w) for v, w in zip(values, widths)).rstrip()

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
                f"a CONSTRUCT or DESCRIBE query gives a graph; --format {fmt} is for SELECT and ASK, "
                f"use one of {', '.join(GRAPH_FORMATS)}"
            )
        prefixes = OUTPUT_PREFIXES if fmt in ("turtle", "rdfxml") else None
        return pyoxigraph.serialize(result.triples, format=_RDF_FORMAT[fmt], prefixes=prefixes) or b""
    if fmt in GRAPH_FORMATS:
        raise UsageError(
            f"a SELECT or ASK query gives a table; --format {fmt} is for CONSTRUCT and DESCRIBE, "
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


# ----------------------------------------------------------------------------- query text


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:  # a query text too long or odd to be a file name
        return False


def read_query(text: str, examples_dir: str | Path | None = None) -> tuple[str, str]:
    """The query a command-line argument stands for, and what to call it in messages.

    *text* is a path to a ``.rq`` file, the name of an example in *examples_dir*
    (``coauthors`` for ``queries/coauthors.rq``), or the query itself.

    Raises
    ------
    UsageError
        If *text* names a ``.rq`` file that does not exist.
    """
    candidate = Path(text) if "\n" not in text and len(text) < 1024 else None
    if candidate is not None and _is_file(candidate):
        return candidate.read_text(encoding="utf-8"), str(candidate)
    if candidate is not None and examples_dir is not None and re.fullmatch(r"[\w.-]+", text):
        example = Path(examples_dir) / (text if text.endswith(".rq") else f"{text}.rq")
        if _is_file(example):
            return example.read_text(encoding="utf-8"), str(example)
    if candidate is not None and text.endswith(".rq"):
        raise UsageError(f"no query file {text}; give an existing .rq file or the query text")
    return text, "query"


def examples_dir() -> Path:
    """Where the example queries are: ``queries/`` beside the package, else in the working folder."""
    beside = Path(__file__).resolve().parent.parent / "queries"
    return beside if beside.is_dir() else Path("queries")


@dataclass(frozen=True)
class Example:
    """One example query: file name, its first comment line as a title, the comment, the text."""

    name: str
    title: str
    description: str
    query: str


def load_examples(directory: str | Path) -> list[Example]:
    """The example queries in *directory* (``*.rq``), sorted by file name.

    The comment lines at the top of each file are its description; the first of them
    is its title.
    """
    out = []
    for path in sorted(Path(directory).glob("*.rq")):
        text = path.read_text(encoding="utf-8")
        comment = []
        for line in text.splitlines():
            if not line.startswith("#"):
                break
            comment.append(line[1:].strip())
        description = "\n".join(comment).strip()
        title = description.split("\n\n")[0].replace("\n", " ") if description else path.stem
        out.append(Example(path.stem, title, description, text))
    return out
