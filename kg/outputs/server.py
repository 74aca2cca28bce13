"""A read-only SPARQL 1.1 Protocol endpoint over the built store, with a query page.

``/sparql`` answers queries sent by GET (``?query=``), by POST as a form
(``query=``) or by POST with the query as the body (``application/sparql-query``);
without a query it returns a service description. Results are negotiated from the
``Accept`` header (or a ``format=``/``output=`` parameter): SPARQL JSON, XML, CSV, TSV
for SELECT and ASK; Turtle, N-Triples, JSON-LD, RDF/XML for CONSTRUCT and DESCRIBE.
Updates are refused with HTTP 403 and the store is only ever opened read-only.

The HTTP side is waitress: it reads a whole request (under size limits and an idle
timeout) before a thread sees it, so a half-sent request holds no thread. The endpoint
sends no request anywhere (``SERVICE`` is refused unless federation is turned on), checks
``Host`` against the address it is bound to (DNS rebinding) and answers a browser's
cross-origin request only for the origins it is told to allow. Each query runs in a
worker process (:mod:`kg.outputs.workers`) with a memory cap and a time limit. Every
request serves one build: when ``kg build`` replaces the store, the next request starts
workers on the new store and the old ones finish what they run. See ``docs/security.md``.

``/`` is a query page (``kg/outputs/static/``, plain HTML and JavaScript, no external requests)
with the example queries preloaded from ``/examples.json``.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

from kg.outputs.negotiation import SERVICE_FORMATS, formats_for
from kg.outputs.workers import QUICK_WORKERS, QueryStopped, WorkerPool

STATIC_DIR = Path(__file__).resolve().parent / "static"
MAX_REQUEST_BYTES = 1 << 20
#: Seconds a connection may stay silent (a half-sent request, an idle keep-alive) before it is closed.
IDLE_SECONDS = 10
LOOPBACK = ("127.0.0.1", "localhost", "::1")
REASONS = {200: "OK", 204: "No Content", 400: "Bad Request", 403: "Forbidden", 404: "Not Found",
           405: "Method Not Allowed", 406: "Not Acceptable", 413: "Content Too Large",
           415: "Unsupported Media Type", 421: "Misdirected Request", 500: "Internal Server Error",
           503: "Service Unavailable"}


def service_description(endpoint: str, graphs: list[str], triples: int) -> list:
    """The SPARQL service description of the endpoint, as pyoxigraph triples."""
    from pyoxigraph import BlankNode, Literal, NamedNode, Triple

    sd = "http://www.w3.org/ns/sparql-service-description#"
    rdf_type = NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#type")
    service = NamedNode(endpoint)
    dataset, default = BlankNode("dataset"), BlankNode("default")
    out = [
        Triple(service, rdf_type, NamedNode(sd + "Service")),
        Triple(service, NamedNode(sd + "endpoint"), service),
        Triple(service, NamedNode(sd + "supportedLanguage"), NamedNode(sd + "SPARQL11Query")),
        Triple(service, NamedNode(sd + "defaultDataset"), dataset),
        Triple(dataset, rdf_type, NamedNode(sd + "Dataset")),
        Triple(dataset, NamedNode(sd + "defaultGraph"), default),
        Triple(default, rdf_type, NamedNode(sd + "Graph")),
        Triple(default, NamedNode("http://rdfs.org/ns/void#triples"), Literal(str(triples), datatype=NamedNode("http://www.w3.org/2001/XMLSchema#integer"))),
        Triple(service, NamedNode("http://www.w3.org/2000/01/rdf-schema#comment"),
               Literal("Read-only SPARQL 1.1 endpoint over a kg knowledge graph; the default graph is the "
                       "merged view, each source document is a named graph.")),
    ]
    out += [Triple(service, NamedNode(sd + "resultFormat"), NamedNode(iri)) for iri in SERVICE_FORMATS.values()]
    for index, graph in enumerate(graphs):
        node = BlankNode(f"g{index}")
        out += [
            Triple(dataset, NamedNode(sd + "namedGraph"), node),
            Triple(node, rdf_type, NamedNode(sd + "NamedGraph")),
            Triple(node, NamedNode(sd + "name"), NamedNode(graph)),
        ]
    return out


def build_key(store_dir: Path) -> tuple | None:
    """What tells one build's store from the next (``kg build`` swaps a new folder in), or None."""
    try:
        info = os.stat(store_dir)
    except OSError:
        return None
    return (info.st_dev, info.st_ino, info.st_mtime_ns)


@dataclass
class Build:
    """One build being served: its workers and what the service description says of it."""

    key: tuple
    pool: WorkerPool
    graphs: list[str] = field(default_factory=list)
    triples: int = 0


@dataclass
class Limits:
    timeout: float = 30.0
    max_results: int = 100_000
    workers: int = QUICK_WORKERS
    long_queries: int = 2
    memory_mb: int = 1024
    allow_federation: bool = False


class Endpoint:
    """The served builds, the limits and the checks every request passes."""

    def __init__(self, out_dir, limits: Limits, queries_dir=None):
        from kg.query.examples import load_examples
        from kg.store import store_path

        self.store_dir = store_path(out_dir)
        self.limits = limits
        self.lock = threading.Lock()
        examples = load_examples(queries_dir) if queries_dir and Path(queries_dir).is_dir() else []
        self.examples_json = json.dumps(
            [{"name": e.name, "title": e.title, "description": e.description, "query": e.query} for e in examples],
            ensure_ascii=False, indent=1,
        ).encode("utf-8")
        self.build = self._open(build_key(self.store_dir))
        self.hosts: set[str] = set()
        self.origins: set[str] = set()

    def _open(self, key) -> Build:
        import pyoxigraph

        store = pyoxigraph.Store.read_only(str(self.store_dir))
        graphs = sorted(g.value for g in store.named_graphs() if isinstance(g, pyoxigraph.NamedNode))
        [count] = store.query("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }")
        del store
        pool = WorkerPool(self.store_dir, self.limits.workers, long_slots=self.limits.long_queries,
                          memory_mb=self.limits.memory_mb, quick_seconds=1.0)
        return Build(key, pool, graphs, int(count["n"].value))

    def current(self) -> Build:
        """The build to answer this request from: a newer one than served is opened first."""
        key = build_key(self.store_dir)
        if key is None or key == self.build.key:
            return self.build  # mid-swap (no store) or unchanged: the served build goes on
        with self.lock:
            if key != self.build.key and build_key(self.store_dir) == key:
                try:
                    fresh = self._open(key)
                except OSError:
                    return self.build  # not a whole store yet; the next request tries again
                old, self.build = self.build, fresh
                old.pool.retire()
        return self.build

    def close(self) -> None:
        self.build.pool.close()


def _allowed_hosts(host: str, port: int, extra=()) -> set[str]:
    """The ``Host`` header values that name this server (the rest may be DNS rebinding)."""
    names = set(LOOPBACK) if host in LOOPBACK else {host}
    names |= set(extra)
    values = set()
    for name in names:
        shown = f"[{name}]" if ":" in name else name
        values |= {f"{shown}:{port}".lower()} | ({shown.lower()} if port == 80 else set())
    return values


class App:
    """The WSGI application: the checks, the routes and the answers."""

    def __init__(self, endpoint: Endpoint):
        self.endpoint = endpoint

    def __call__(self, environ, start_response):
        status, headers, body = self.respond(environ)
        headers = [("Content-Length", str(len(body))), ("Vary", "Accept, Origin"), *headers]
        origin = environ.get("HTTP_ORIGIN")
        if origin and origin in self.endpoint.origins:
            headers += [("Access-Control-Allow-Origin", origin),
                        ("Access-Control-Expose-Headers", "Content-Type, Content-Length")]
        start_response(f"{status} {REASONS.get(status, 'Status')}", headers)
        return [b""] if environ["REQUEST_METHOD"] == "HEAD" else [body]

    @staticmethod
    def text(status: int, message: str, extra=()) -> tuple:
        return status, [("Content-Type", "text/plain; charset=utf-8"), *extra], (message.rstrip() + "\n").encode()

    def respond(self, environ) -> tuple:
        refusal = self._refusal(environ)
        if refusal:
            return refusal
        method, path = environ["REQUEST_METHOD"], environ.get("PATH_INFO") or "/"
        params = urllib.parse.parse_qs(environ.get("QUERY_STRING", ""), keep_blank_values=True)
        if method == "OPTIONS":
            return 204, [("Allow", "GET, POST, OPTIONS"), ("Access-Control-Allow-Methods", "GET, POST, OPTIONS"),
                         ("Access-Control-Allow-Headers", "Content-Type, Accept"),
                         ("Access-Control-Max-Age", "600")], b""
        if method in ("GET", "HEAD"):
            return self._get(environ, path, params)
        if method == "POST":
            return self._post(environ, path, params)
        return self.text(405, "this endpoint is read-only", [("Allow", "GET, POST, OPTIONS")])

    def _refusal(self, environ) -> tuple | None:
        host = (environ.get("HTTP_HOST") or "").lower()
        if self.endpoint.hosts and host not in self.endpoint.hosts:
            return self.text(421, f"this server does not answer for Host {host or '(none)'}; "
                                  "use the address it printed when it started")
        origin = environ.get("HTTP_ORIGIN")
        if origin and origin != f"http://{host}" and origin not in self.endpoint.origins:
            return self.text(403, f"requests from web pages at {origin} are refused; "
                                  "allow that origin with kg serve --cors-origin")
        return None

    def _get(self, environ, path, params):
        if path in ("/sparql", "/") and ("query" in params or "update" in params):
            return self._protocol(environ, params)
        if path == "/sparql":
            return self._service_description(environ, params)
        if path in ("/", "/index.html"):
            return self._static("index.html")
        if path == "/examples.json":
            return 200, [("Content-Type", "application/json")], self.endpoint.examples_json
        if path.startswith("/static/"):
            return self._static(path[len("/static/"):])
        return self.text(404, f"nothing at {path}; the SPARQL endpoint is /sparql, the query page is /")

    def _post(self, environ, path, params):
        if path not in ("/sparql", "/"):
            return self.text(404, f"nothing at {path}; the SPARQL endpoint is /sparql")
        content_type = (environ.get("CONTENT_TYPE") or "").split(";")[0].strip().lower()
        length = int(environ.get("CONTENT_LENGTH") or 0)  # waitress checked it and read the body
        body = environ["wsgi.input"].read(length) if length > 0 else b""
        if content_type == "application/sparql-update":
            return self._refuse_update()
        if content_type == "application/sparql-query":
            if "query" in params:
                return self.text(400, "a query in the body and in the URL; send one")
            return self._protocol(environ, {**params, "query": [body.decode("utf-8", errors="replace")]})
        if content_type == "application/x-www-form-urlencoded":
            form = urllib.parse.parse_qs(body.decode("utf-8", errors="replace"), keep_blank_values=True)
            for key, values in form.items():
                params.setdefault(key, []).extend(values)
            if "query" not in params and "update" not in params:
                return self.text(400, "the form has no query= field")
            return self._protocol(environ, params)
        return self.text(415, f"unsupported Content-Type {content_type or '(none)'}; send application/sparql-query "
                              "or an application/x-www-form-urlencoded form with query=")

    def _refuse_update(self):
        return self.text(403, "updates are refused: this SPARQL endpoint is read-only "
                              "(change the graph by editing the documents and running `kg build`)")

    def _protocol(self, environ, params):
        from kg.errors import UsageError
        from kg.query.sparql import check_query

        if "update" in params:
            return self._refuse_update()
        queries = params.get("query", [])
        if len(queries) != 1:
            return self.text(400, "give exactly one query= parameter")
        limits = self.endpoint.limits
        try:
            check_query(queries[0], allow_federation=limits.allow_federation)
        except UsageError as err:
            return self.text(400, str(err))
        results_format, graph_format = formats_for(environ.get("HTTP_ACCEPT"), params)
        request = {
            "query": queries[0], "results_format": results_format, "graph_format": graph_format,
            "max_results": limits.max_results, "allow_federation": limits.allow_federation,
            "default_graph": params.get("default-graph-uri") or None,
            "named_graphs": params.get("named-graph-uri") or None,
        }
        build = self.endpoint.current()
        try:
            reply = build.pool.run(request, limits.timeout)
        except QueryStopped as err:
            return self.text(err.status, str(err), [("Retry-After", "1")] if err.status == 503 else ())
        if reply[0] == "ok":
            return 200, [("Content-Type", reply[1])], reply[2]
        return self.text(reply[1], reply[2])

    def _service_description(self, environ, params):
        import pyoxigraph

        from kg.query.formats import MEDIA_TYPES

        _, fmt = formats_for(environ.get("HTTP_ACCEPT"), params)
        fmt = fmt or "turtle"
        host = environ.get("HTTP_HOST") or f"{environ['SERVER_NAME']}:{environ['SERVER_PORT']}"
        build = self.endpoint.current()
        triples = service_description(f"http://{host}/sparql", build.graphs, build.triples)
        formats = {"turtle": pyoxigraph.RdfFormat.TURTLE, "ntriples": pyoxigraph.RdfFormat.N_TRIPLES,
                   "jsonld": pyoxigraph.RdfFormat.JSON_LD, "rdfxml": pyoxigraph.RdfFormat.RDF_XML}
        prefixes = {"sd": "http://www.w3.org/ns/sparql-service-description#", "void": "http://rdfs.org/ns/void#",
                    "rdfs": "http://www.w3.org/2000/01/rdf-schema#"} if fmt == "turtle" else None
        body = pyoxigraph.serialize(triples, format=formats[fmt], prefixes=prefixes)
        return 200, [("Content-Type", MEDIA_TYPES[fmt])], body

    def _static(self, name: str):
        path = (STATIC_DIR / name).resolve()
        if STATIC_DIR not in path.parents or not path.is_file():
            return self.text(404, f"no page {name}")
        types = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
                 ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml"}
        return 200, [("Content-Type", types.get(path.suffix, "application/octet-stream"))], path.read_bytes()


def make_server(out_dir, *, host="127.0.0.1", port=7878, queries_dir=None, cors_origins=(),
                allowed_hosts=(), threads=16, **limits):
    """A waitress server for the store in *out_dir*, bound but not yet serving.

    *limits* are the fields of :class:`Limits`. ``server.endpoint`` is the :class:`Endpoint`.

    Raises
    ------
    UserError
        If *out_dir* holds no built store.
    ValueError
        If a limit is not positive (the command line checks its options before).
    """
    import waitress

    from kg.store import open_store

    limits = Limits(**limits)
    if limits.timeout <= 0 or min(limits.max_results, limits.workers, limits.memory_mb) < 1 or limits.long_queries < 0:
        raise ValueError(f"limits must be positive (got {limits})")
    del_store = open_store(out_dir)  # checks that a store is there, with a helpful error
    del del_store
    endpoint = Endpoint(out_dir, limits, queries_dir)
    try:
        server = waitress.create_server(
            App(endpoint), host=host, port=port, threads=threads, ident="kg-sparql",
            channel_timeout=IDLE_SECONDS, cleanup_interval=1, connection_limit=256, backlog=1024,
            max_request_header_size=64 * 1024, max_request_body_size=MAX_REQUEST_BYTES,
            expose_tracebacks=False, clear_untrusted_proxy_headers=True,
        )
    except OSError:
        endpoint.close()
        raise
    bound_host, bound_port = server.socket.getsockname()[:2]
    wildcard = host in ("", "0.0.0.0", "::")
    endpoint.hosts = set() if wildcard and not allowed_hosts else _allowed_hosts(host, bound_port, allowed_hosts)
    endpoint.origins = {o.rstrip("/") for o in cors_origins}
    server.endpoint = endpoint
    server.address = (bound_host, bound_port)
    return server


def serve_forever(out_dir, *, announce=None, **options) -> None:
    """Serve the store in *out_dir* until interrupted; *announce* gets the base URL once ready."""
    server = make_server(out_dir, **options)
    if threading.current_thread() is threading.main_thread():
        def stop(signum, frame):
            raise KeyboardInterrupt

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
    host, port = server.address
    shown = f"[{host}]" if ":" in host else host
    if announce:
        announce(f"http://{shown}:{port}/")
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
        server.endpoint.close()
