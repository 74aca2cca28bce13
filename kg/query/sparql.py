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
>>> from kg.query.formats import format_result
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

import pyoxigraph

from kg.errors import UsageError, UserError
from kg.query.terms import parse_bindings  # noqa: F401 (doctest)
from kg.vocab import PREFIXES


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
        ordered = sorted(triples, key=lambda t: (str(t.subject), str(t.predicate), str(t.object)))
        return QueryResult("graph", triples=ordered)
    except SyntaxError as err:
        raise UsageError(syntax_message(err, source)) from None
    except RuntimeError as err:
        message = " ".join(str(err).split())
        if "does not contains variable" in message or "does not contain variable" in message:
            raise UsageError(
                f"{source}: {message}; only the variables the query selects can be bound"
            ) from None
        raise UserError(f"{source} failed: {message}") from None
    except OSError as err:
        raise UserError(f"{source} failed reading the store: {err}") from None


