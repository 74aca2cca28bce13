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


#: Longest query text accepted, in characters (a hand-written query is a few hundred).
MAX_QUERY_CHARS = 100_000
#: Deepest nesting of ``{}``, ``()`` and ``[]`` accepted: the engine recurses per level
#: and a query nested some thousands deep crashes it.
MAX_QUERY_DEPTH = 64


def check_query(query: str, *, allow_federation: bool = False, max_chars: int = MAX_QUERY_CHARS,
                max_depth: int = MAX_QUERY_DEPTH, source: str = "query") -> None:
    """Refuse, before running it, a query that is too long, nested too deep, or federated.

    One pass over the text, outside strings, IRIs and comments: it counts the nesting of
    brackets and looks for the ``SERVICE`` keyword (a federated query makes the engine send
    requests to any address it names, so it is off unless *allow_federation*).

    >>> check_query("SELECT * WHERE { ?s ?p '{{{ SERVICE' }")
    >>> check_query("SELECT * WHERE { SERVICE <http://127.0.0.1:1/> { ?s ?p ?o } }")
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    kg.errors.UsageError: query uses SERVICE (a federated query, ...); it is refused unless ...
    >>> check_query("ASK " + "{" * 100 + "}" * 100)
    Traceback (most recent call last):
    ...
    kg.errors.UsageError: query is nested 100 levels deep, over the limit of 64; flatten it
    """
    if len(query) > max_chars:
        raise UsageError(f"{source} is {len(query)} characters long, over the limit of {max_chars}; shorten it")
    deepest, words = _scan(query)
    if deepest > max_depth:
        raise UsageError(f"{source} is nested {deepest} levels deep, over the limit of {max_depth}; flatten it")
    if "SERVICE" in words and not allow_federation:
        raise UsageError(
            f"{source} uses SERVICE (a federated query, which sends requests to other addresses); "
            "it is refused unless federation is turned on (--allow-federation)"
        )


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
_NOT_IN_IRI = frozenset('<>"{}|^`\\ \t\r\n')


def skip_string(query: str, i: int) -> int:
    """The index just past the SPARQL string literal that starts at ``query[i]`` (any of its four quotes).

    >>> skip_string('"a \\\\" b" x', 0)  # a string with an escaped quote inside
    8
    """
    quote = query[i:i + 3] if query[i:i + 3] in ("'''", '"""') else query[i]
    i += len(quote)
    while i < len(query) and not query.startswith(quote, i):
        i += 2 if query[i] == "\\" else 1
    return i + len(quote)


def _scan(query: str) -> tuple[int, set[str]]:
    """(deepest bracket nesting, keywords in upper case) of *query*, in one linear pass."""
    depth = deepest = 0
    words: set[str] = set()
    i, n = 0, len(query)
    while i < n:
        c = query[i]
        if c in "'\"":
            i = skip_string(query, i)
        elif c == "#":
            end = query.find("\n", i)
            i = n if end < 0 else end + 1
        elif c == "<":
            end = i + 1
            while end < n and query[end] not in _NOT_IN_IRI:
                end += 1
            i = end + 1 if end < n and query[end] == ">" else i + 1  # an IRI, or the operator <
        elif c in "{([":
            depth += 1
            deepest = max(deepest, depth)
            i += 1
        elif c in "})]":
            depth -= 1
            i += 1
        elif c in "?$":
            match = _WORD.match(query, i + 1)
            i = match.end() if match else i + 1
        elif match := _WORD.match(query, i):
            i = match.end()
            after, before = query[i] if i < n else "", query[match.start() - 1] if match.start() else ""
            if after != ":" and before != ":":  # service:x and x:service are names, not the keyword
                words.add(match.group().upper())
        else:
            i += 1
    return deepest, words


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
    allow_federation: bool = False,
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
    allow_federation : bool
        Whether ``SERVICE`` may send requests elsewhere; without it such a query is refused
        (see :func:`check_query`, which also caps length and nesting).

    Raises
    ------
    UsageError
        On a syntax error (with line and column), a binding the query cannot take, or a
        query :func:`check_query` refuses.
    ResultTooLarge
        If the answer is larger than *limit*.
    UserError
        If the query fails while running.
    """
    if not isinstance(query, str) or not query.strip():
        raise UsageError(f"{source} is empty; give a SPARQL query or a .rq file")
    check_query(query, allow_federation=allow_federation, source=source)
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


