"""A SPARQL server as kg's store: the same ``query`` the embedded Oxigraph store has, over HTTP.

:class:`RemoteStore` answers ``query(text, prefixes=, substitutions=, default_graph=,
named_graphs=)`` with pyoxigraph's own objects (``QuerySolutions``, ``QueryBoolean``, a list of
``Triple``), parsed from the server's standard answer, so every command prints the same bytes
for either store. Each query is first parsed by an empty in-memory Oxigraph store, which gives
the embedded store's syntax errors and tells the answer's form.

A server that kg pushed a build to (``kg build --store URL``) has a pointer to the current
build (:mod:`kg.remote.layout`): each query asks for exactly that build's graphs, and the
pointer is read again after the answer; if a push switched builds meanwhile, the query runs
again on the new build, so an answer always comes from one complete build. A server loaded by
someone else has no pointer: queries go to its dataset as it is.
"""

from __future__ import annotations

import json
import re
import time
import urllib.parse
from typing import Any

import pyoxigraph

from kg.errors import UserError
from kg.remote.http import RESULTS_JSON, AnswerCut, Endpoint, redact
from kg.remote.layout import BUILD_QUERY, EMPTY_GRAPH, POINTER_QUERY, SWITCHING, Build
from kg.remote.rewrite import standalone

#: How long a reader waits for a push's switch to finish, in seconds.
SWITCH_WAIT = 120.0
_GRAPH_ACCEPT = "application/n-triples, text/turtle;q=0.9, application/rdf+xml;q=0.5"
_RESULTS_ACCEPT = f"{RESULTS_JSON}, application/sparql-results+xml;q=0.9"


class RemoteStore:
    """The graph on the SPARQL server at *url* (its query endpoint), read-only.

    Examples
    --------
    >>> RemoteStore("http://127.0.0.1:7878/query")
    <RemoteStore http://127.0.0.1:7878/query>
    """

    def __init__(self, url: str):
        self.endpoint = Endpoint(url)
        self.url = url
        self._build: Build | None = None
        self._checked = False
        self._tables: Any = None  # the tables read from the server (or the user's cache), once asked

    def __repr__(self) -> str:
        return f"<RemoteStore {redact(self.url)}>"

    # ------------------------------------------------------------------ the current build

    @property
    def build(self) -> Build | None:
        """The build the last answer came from, or None on a server without kg's pointer."""
        if not self._checked:
            self._build = self.pointer()
            self._checked = True
        return self._build

    def pointer(self, wait: bool = True) -> Build | None:
        """The current build the server's pointer names (None if it has none); with *wait*, once a
        push that is switching builds has finished."""
        waited = 0.0
        while True:
            rows = list(self.select(POINTER_QUERY))
            if not rows:
                return None
            build = _build_of(rows)
            if not build.switching or not wait:
                return build
            if waited >= SWITCH_WAIT:
                raise UserError(f"the graph on {redact(self.url)} has been switching builds for {SWITCH_WAIT:.0f} s; "
                                "a push may have failed half-way: run `kg build --store` again")
            time.sleep(0.2)
            waited += 0.2

    def _build_id(self) -> str | None:
        ids = {r["build"].value for r in self.select(BUILD_QUERY)}
        return (ids.pop() if len(ids) == 1 else SWITCHING) if ids else None

    # ------------------------------------------------------------------ queries

    def query(self, query: str, *, prefixes=None, substitutions=None, default_graph=None, named_graphs=None,
              use_default_graph_as_union=False, base_iri=None):
        """Run *query* on the server; the same arguments and answers as ``pyoxigraph.Store.query``.

        Raises
        ------
        SyntaxError, RuntimeError
            As the embedded store raises them, for a query that does not parse or binds a
            variable it does not select (checked here before anything is sent).
        kg.errors.UserError
            When the server cannot be reached or refuses the query (one line).
        """
        form = _form_of(query, prefixes, substitutions, base_iri)
        bindings = {v.value: str(t) for v, t in substitutions.items()} if substitutions else None
        text = standalone(query, prefixes, bindings)
        if base_iri:
            text = f"BASE <{base_iri}> {text}"
        asked = _explicit_dataset(default_graph, named_graphs, self.build)
        for _ in range(50):
            build = self.build
            params = asked if asked is not None else build.dataset() if build is not None else []
            answer = self._ask(text, form, params)
            if build is None or asked is not None or self._build_id() == build.id:
                return answer
            self._checked = False  # a push switched builds while the query ran: ask the new build
        raise UserError(f"the graph on {redact(self.url)} kept changing while kg read it; try again")

    def _ask(self, text: str, form: str, params: list[tuple[str, str]]):
        accept = _GRAPH_ACCEPT if form == "graph" else _RESULTS_ACCEPT
        data, media, cut = self._post(text, params, accept)
        if cut is not None and not _limited_to(text, cut):
            raise AnswerCut(cut, f"the SPARQL server at {redact(self.url)} cut the answer at {cut:,} rows "
                                 "(Virtuoso's ResultSetMaxRows): raise it in virtuoso.ini, section [SPARQL], above "
                                 "your largest answer")
        if form == "graph":
            graph_format = pyoxigraph.RdfFormat.from_media_type(media) or pyoxigraph.RdfFormat.N_TRIPLES
            return [pyoxigraph.Triple(q.subject, q.predicate, _canonical(q.object))
                    for q in pyoxigraph.parse(data, format=graph_format)]
        results_format = pyoxigraph.QueryResultsFormat.from_media_type(media) or pyoxigraph.QueryResultsFormat.JSON
        if results_format == pyoxigraph.QueryResultsFormat.JSON and _BOOLEAN.encode() in data:
            data = _canonical_json(data)
        try:
            return pyoxigraph.parse_query_results(data, format=results_format)
        except (SyntaxError, ValueError) as err:
            raise UserError(f"the SPARQL server at {redact(self.url)} sent an answer kg cannot read "
                            f"({media or 'no content type'}): {' '.join(str(err).split())[:200]}") from None

    def select(self, text: str, params=()):
        """The solutions of a SELECT *text* as the server gives them: no prefixes, dataset or checks added."""
        data, media, _ = self._post(text, params, _RESULTS_ACCEPT)
        fmt = pyoxigraph.QueryResultsFormat.from_media_type(media) or pyoxigraph.QueryResultsFormat.JSON
        return pyoxigraph.parse_query_results(data, format=fmt)

    def _post(self, text: str, params, accept: str) -> tuple[bytes, str, int | None]:
        body = urllib.parse.urlencode([("query", text)] + list(params)).encode("ascii")
        return self.endpoint.post_answer(body, "application/x-www-form-urlencoded", accept, what="query")

    # ------------------------------------------------------------------ what else kg asks of a store

    def dump(self, format=None, from_graph=None) -> bytes:
        """The default graph (the merged view) as N-Triples."""
        triples = self.query("CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }")
        return pyoxigraph.serialize(triples, format=pyoxigraph.RdfFormat.N_TRIPLES) or b""

    def tables(self):
        """A folder of the build's Parquet tables (``kg.tables``), read from the server once (and kept in
        the user's cache for the server's current build: :func:`kg.remote.tables.fetch_tables`)."""
        if self._tables is None:
            from kg.remote.tables import fetch_tables

            self._tables = fetch_tables(self)
        return self._tables.name


def open_remote(url: str) -> RemoteStore:
    """The store at *url*, after one query that checks the server answers (and reads its pointer)."""
    store = RemoteStore(url)
    _ = store.build
    return store


def _form_of(query: str, prefixes, substitutions, base_iri) -> str:
    """``"solutions"``, ``"boolean"`` or ``"graph"``: parsed (and run) on an empty in-memory store,
    which raises the embedded store's errors for a bad query."""
    kwargs = {"prefixes": prefixes, "substitutions": substitutions, "base_iri": base_iri}
    answer = pyoxigraph.Store().query(query, **{k: v for k, v in kwargs.items() if v})
    if isinstance(answer, pyoxigraph.QuerySolutions):
        return "solutions"
    return "boolean" if isinstance(answer, pyoxigraph.QueryBoolean) else "graph"


_BOOLEAN = "http://www.w3.org/2001/XMLSchema#boolean"
_BOOLEAN_FORMS = {"1": "true", "0": "false"}


def _canonical(term):
    """A boolean literal in its canonical form: Virtuoso writes ``true`` as ``"1"^^xsd:boolean``."""
    if isinstance(term, pyoxigraph.Literal) and term.datatype.value == _BOOLEAN and term.value in _BOOLEAN_FORMS:
        return pyoxigraph.Literal(_BOOLEAN_FORMS[term.value], datatype=term.datatype)
    return term


def _canonical_json(data: bytes) -> bytes:
    """SPARQL JSON results with boolean literals in their canonical form (see :func:`_canonical`)."""
    results = json.loads(data)
    for row in results.get("results", {}).get("bindings", []):
        for term in row.values():
            if term.get("datatype") == _BOOLEAN and term.get("value") in _BOOLEAN_FORMS:
                term["value"] = _BOOLEAN_FORMS[term["value"]]
    return json.dumps(results).encode("utf-8")


_FINAL_LIMIT = re.compile(r"\bLIMIT\s+(\d+)(?:\s+OFFSET\s+\d+)?\s*$", re.IGNORECASE)


def _limited_to(query: str, rows: int) -> bool:
    """Whether *query* asks for at most *rows* rows (a page of kg's tables): a server's row cap then
    cuts nothing, though it says it reached it.

    >>> _limited_to("SELECT ?s WHERE { ?s ?p ?o } ORDER BY ?s LIMIT 100 OFFSET 200", 100)
    True
    >>> _limited_to("SELECT ?s WHERE { ?s ?p ?o }", 100), _limited_to("SELECT * {} LIMIT 500", 100)
    (False, False)
    """
    match = _FINAL_LIMIT.search(query)
    return match is not None and int(match.group(1)) <= rows


def _build_of(rows) -> Build:
    """The build the pointer's rows (:data:`~kg.remote.layout.POINTER_QUERY`) describe."""
    rows = list(rows)
    ids = {r["build"].value for r in rows}
    merged = {r["merged"].value for r in rows if r["merged"]}
    digests = {r["graph"].value: r["digest"].value for r in rows if r["graph"] and r["digest"]}
    digests |= {r["merged"].value: r["mergedDigest"].value for r in rows if r["merged"] and r["mergedDigest"]}
    return Build(ids.pop() if len(ids) == 1 else SWITCHING,
                 tuple(sorted({r["graph"].value for r in rows if r["graph"]})),
                 merged.pop() if len(merged) == 1 else EMPTY_GRAPH, digests)


def _explicit_dataset(default_graph, named_graphs, build: Build | None) -> list[tuple[str, str]] | None:
    """The protocol parameters for a dataset the caller chose, or None to use the current build's;
    the default graph is the build's merged view."""
    if not default_graph and not named_graphs:
        return None

    def iris(graphs):
        graphs = graphs if isinstance(graphs, (list, tuple)) else [graphs]
        # a server without kg's pointer has no name for its default graph: it is asked for by none
        default = [build.merged] if build is not None else []
        return [iri for g in graphs
                for iri in (default if isinstance(g, pyoxigraph.DefaultGraph) else [getattr(g, "value", str(g))])]

    return ([("default-graph-uri", g) for g in iris(default_graph or [])]
            + [("named-graph-uri", g) for g in iris(named_graphs or [])])
