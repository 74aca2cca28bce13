"""A read-only SPARQL 1.1 Protocol endpoint over the built store, with a query page.

``/sparql`` answers queries sent by GET (``?query=``), by POST as a form
(``query=``) or by POST with the query as the body (``application/sparql-query``);
without a query it returns a service description. Results are negotiated from the
``Accept`` header (or a ``format=``/``output=`` parameter): SPARQL JSON, XML, CSV, TSV
for SELECT and ASK; Turtle, N-Triples, JSON-LD, RDF/XML for CONSTRUCT and DESCRIBE.
Updates are refused with HTTP 403 and the store is only ever opened read-only.

Each query runs in a worker process that opened the store read-only, because an
Oxigraph query cannot be interrupted from another thread: a query that passes the time
limit has its process killed (HTTP 503) and a fresh worker takes its place. An answer
with more rows than the result-size limit is refused (HTTP 500) rather than cut.

``/`` is a query page (``kg/outputs/static/``, plain HTML and JavaScript, no external requests)
with the example queries preloaded from ``/examples.json``.

>>> negotiate("text/csv;q=0.5, application/sparql-results+json", RESULT_MEDIA, "json")
'json'
>>> negotiate("text/html,*/*;q=0.8", GRAPH_MEDIA, "turtle")
'turtle'
>>> negotiate("image/png", RESULT_MEDIA, "json") is None
True
"""

from __future__ import annotations

import json
import multiprocessing
import queue
import signal
import threading
import time
import urllib.parse
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from kg.errors import UsageError, UserError

STATIC_DIR = Path(__file__).resolve().parent / "static"
MAX_REQUEST_BYTES = 1 << 20

#: Media types accepted for SELECT and ASK answers, in order of preference.
RESULT_MEDIA = {
    "application/sparql-results+json": "json",
    "application/json": "json",
    "text/javascript": "json",
    "application/javascript": "json",
    "application/sparql-results+xml": "xml",
    "application/xml": "xml",
    "text/xml": "xml",
    "text/csv": "csv",
    "text/tab-separated-values": "tsv",
}
#: Media types accepted for CONSTRUCT and DESCRIBE answers, in order of preference.
GRAPH_MEDIA = {
    "text/turtle": "turtle",
    "application/turtle": "turtle",
    "application/x-turtle": "turtle",
    "text/n3": "turtle",
    "text/rdf+n3": "turtle",
    "application/n3": "turtle",
    "application/n-triples": "ntriples",
    "text/plain": "ntriples",
    "application/ld+json": "jsonld",
    "application/x-json+ld": "jsonld",
    "application/json": "jsonld",
    "application/rdf+xml": "rdfxml",
    "application/xml": "rdfxml",
    "text/xml": "rdfxml",
}
#: ``format=`` / ``output=`` / ``results=`` parameter values: (SELECT/ASK format, graph format).
FORMAT_PARAMS = {
    "json": ("json", "jsonld"),
    "xml": ("xml", "rdfxml"),
    "csv": ("csv", None),
    "tsv": ("tsv", None),
    "turtle": (None, "turtle"),
    "ttl": (None, "turtle"),
    "n3": (None, "turtle"),
    "ntriples": (None, "ntriples"),
    "nt": (None, "ntriples"),
    "n-triples": (None, "ntriples"),
    "json-ld": (None, "jsonld"),
    "jsonld": (None, "jsonld"),
    "rdf+xml": (None, "rdfxml"),
    "rdfxml": (None, "rdfxml"),
}

SERVICE_FORMATS = {
    "json": "http://www.w3.org/ns/formats/SPARQL_Results_JSON",
    "xml": "http://www.w3.org/ns/formats/SPARQL_Results_XML",
    "csv": "http://www.w3.org/ns/formats/SPARQL_Results_CSV",
    "tsv": "http://www.w3.org/ns/formats/SPARQL_Results_TSV",
    "turtle": "http://www.w3.org/ns/formats/Turtle",
    "ntriples": "http://www.w3.org/ns/formats/N-Triples",
    "jsonld": "http://www.w3.org/ns/formats/JSON-LD",
    "rdfxml": "http://www.w3.org/ns/formats/RDF_XML",
}


def negotiate(accept: str | None, media: dict[str, str], default: str) -> str | None:
    """The format to answer in for an ``Accept`` header, or ``None`` if none is acceptable.

    Media ranges are tried by falling quality (``q``), then in the order given; ``*/*``
    and an empty header give *default*; ``type/*`` gives the first format of that type.
    """
    if not accept or not accept.strip():
        return default
    ranges = []
    for index, part in enumerate(accept.split(",")):
        fields = [f.strip() for f in part.split(";")]
        kind = fields[0].lower()
        if not kind:
            continue
        q = 1.0
        for param in fields[1:]:
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if q > 0:
            ranges.append((-q, index, kind))
    for _, _, kind in sorted(ranges):
        if kind == "*/*":
            return default
        if kind in media:
            return media[kind]
        if kind.endswith("/*"):
            prefix = kind[:-1]
            for name, fmt in media.items():
                if name.startswith(prefix):
                    return fmt
    return None


def formats_for(accept: str | None, params: dict[str, list[str]]) -> tuple[str | None, str | None]:
    """The (SELECT/ASK format, CONSTRUCT/DESCRIBE format) a request asks for.

    A recognised ``format``, ``output`` or ``results`` parameter wins over ``Accept``.

    >>> formats_for("text/csv", {})
    ('csv', None)
    >>> formats_for("text/csv", {"format": ["json"]})
    ('json', 'jsonld')
    """
    results = negotiate(accept, RESULT_MEDIA, "json")
    graph = negotiate(accept, GRAPH_MEDIA, "turtle")
    for key in ("format", "output", "results"):
        for value in params.get(key, []):
            value = value.strip().lower()
            pair = FORMAT_PARAMS.get(value) or (RESULT_MEDIA.get(value), GRAPH_MEDIA.get(value))
            if pair != (None, None):
                return pair[0] or results, pair[1] or graph
    return results, graph


# ----------------------------------------------------------------------------- workers


def _worker_main(conn, store_path: str) -> None:  # pragma: no cover - runs in a child process
    """Answer queries sent over *conn* from a read-only store until the pipe closes."""
    import pyoxigraph

    from kg.query.formats import MEDIA_TYPES, format_result
    from kg.query.sparql import ResultTooLarge, run_query

    try:
        store = pyoxigraph.Store.read_only(store_path)
    except OSError as err:
        conn.send(("failed", str(err)))
        return
    conn.send(("ready", None))
    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError):
            return
        try:
            result = run_query(
                store,
                request["query"],
                limit=request["max_results"],
                default_graph=request.get("default_graph"),
                named_graphs=request.get("named_graphs"),
            )
            fmt = request["graph_format"] if result.kind == "graph" else request["results_format"]
            if fmt is None:
                kinds = "CONSTRUCT/DESCRIBE" if result.kind == "graph" else "SELECT/ASK"
                offered = GRAPH_MEDIA if result.kind == "graph" else RESULT_MEDIA
                reply = ("error", 406, f"no acceptable format for a {kinds} answer; "
                                       f"accept one of {', '.join(offered)}")
            else:
                reply = ("ok", MEDIA_TYPES[fmt], format_result(result, fmt))
        except ResultTooLarge as err:
            reply = ("error", 500, str(err))
        except UserError as err:
            status = 400 if isinstance(err, UsageError) else 500
            reply = ("error", status, str(err))
        except Exception as err:  # noqa: BLE001 - report, keep serving
            reply = ("error", 500, f"query failed: {err}")
        conn.send(reply)


class _Worker:
    def __init__(self, ctx, store_path: str):
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=_worker_main, args=(child, store_path), daemon=True)
        self.process.start()
        child.close()
        self.ready = False

    def wait_ready(self, seconds: float) -> None:
        if self.ready:
            return
        if not self.conn.poll(seconds):
            self.kill()
            raise UserError("a query worker did not start in time; try again")
        status, message = self.conn.recv()
        if status != "ready":
            self.kill()
            raise UserError(f"a query worker could not open the store: {message}")
        self.ready = True

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)
        self.conn.close()


class QueryTimeout(Exception):
    """A query ran past the time limit and its worker was stopped."""


class WorkerPool:
    """Worker processes that each hold the store open read-only and answer one query at a time."""

    def __init__(self, store_path: str | Path, size: int = 2):
        self.store_path = str(store_path)
        self.ctx = multiprocessing.get_context("spawn")
        self.idle: queue.Queue[_Worker] = queue.Queue()
        self.lock = threading.Lock()
        self.workers = [_Worker(self.ctx, self.store_path) for _ in range(size)]
        for worker in self.workers:
            worker.wait_ready(60)
            self.idle.put(worker)

    def run(self, request: dict, timeout: float) -> tuple:
        """The worker's reply to *request*; raises :class:`QueryTimeout` past *timeout* seconds."""
        try:
            worker = self.idle.get(timeout=timeout)
        except queue.Empty:
            raise QueryTimeout(f"every query worker stayed busy for {timeout:g} s; try again later") from None
        try:
            worker.wait_ready(timeout + 30)  # a replaced worker may still be starting: not the query's time
            deadline = time.monotonic() + timeout
            worker.conn.send(request)
            if worker.conn.poll(max(deadline - time.monotonic(), 0.0)):
                reply = worker.conn.recv()
                self.idle.put(worker)
                return reply
        except (EOFError, OSError, UserError):
            pass
        self._replace(worker)
        raise QueryTimeout(
            f"the query ran longer than the time limit of {timeout:g} s and was stopped; "
            "narrow it down or add a LIMIT"
        )

    def _replace(self, worker: _Worker) -> None:
        worker.kill()
        fresh = _Worker(self.ctx, self.store_path)
        with self.lock:
            self.workers = [fresh if w is worker else w for w in self.workers]
        self.idle.put(fresh)

    def close(self) -> None:
        with self.lock:
            for worker in self.workers:
                worker.kill()
            self.workers = []


# ----------------------------------------------------------------------------- HTTP


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


class Endpoint:
    """What the request handlers share: the worker pool, the limits and the page's examples."""

    def __init__(self, store_path, *, timeout: float, max_results: int, workers: int, queries_dir):
        import pyoxigraph

        from kg.query.examples import load_examples

        store = pyoxigraph.Store.read_only(str(store_path))
        self.graphs = sorted(g.value for g in store.named_graphs() if isinstance(g, pyoxigraph.NamedNode))
        [count] = store.query("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }")
        self.default_triples = int(count["n"].value)
        del store
        self.timeout = timeout
        self.max_results = max_results
        examples = load_examples(queries_dir) if queries_dir and Path(queries_dir).is_dir() else []
        self.examples_json = json.dumps(
            [{"name": e.name, "title": e.title, "description": e.description, "query": e.query} for e in examples],
            ensure_ascii=False, indent=1,
        ).encode("utf-8")
        self.pool = WorkerPool(store_path, workers)


class Handler(BaseHTTPRequestHandler):
    server_version = "kg-sparql/0.1"
    endpoint: Endpoint  # set on the subclass made by make_server

    # -- plumbing

    def log_message(self, format, *args):  # noqa: A002 - BaseHTTPRequestHandler's signature
        pass

    def _send(self, status: int, body: bytes, content_type: str, extra: dict | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Access-Control-Expose-Headers", "Content-Type, Content-Length")
        self.send_header("Vary", "Accept")
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _error(self, status: int, message: str, extra: dict | None = None) -> None:
        self._send(status, (message.rstrip() + "\n").encode("utf-8"), "text/plain; charset=utf-8", extra)

    def _params(self) -> tuple[str, dict[str, list[str]]]:
        url = urllib.parse.urlsplit(self.path)
        return url.path, urllib.parse.parse_qs(url.query, keep_blank_values=True)

    def _body(self) -> bytes | None:
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_REQUEST_BYTES:
            self._error(413, f"request body over {MAX_REQUEST_BYTES} bytes; send a shorter query")
            return None
        return self.rfile.read(length) if length else b""

    # -- methods

    def do_OPTIONS(self):
        self.send_response(HTTPStatus.NO_CONTENT)
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
        self.send_header("Access-Control-Allow-Headers", "Content-Type, Accept")
        self.send_header("Access-Control-Max-Age", "86400")
        self.send_header("Allow", "GET, POST, OPTIONS")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self):
        path, params = self._params()
        if path in ("/sparql", "/") and ("query" in params or "update" in params):
            return self._protocol(params)
        if path == "/sparql":
            return self._service_description(params)
        if path in ("/", "/index.html"):
            return self._static("index.html")
        if path == "/examples.json":
            return self._send(200, self.endpoint.examples_json, "application/json")
        if path.startswith("/static/"):
            return self._static(path[len("/static/"):])
        return self._error(404, f"nothing at {path}; the SPARQL endpoint is /sparql, the query page is /")

    do_HEAD = do_GET

    def do_POST(self):
        path, params = self._params()
        if path not in ("/sparql", "/"):
            return self._error(404, f"nothing at {path}; the SPARQL endpoint is /sparql")
        content_type = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        body = self._body()
        if body is None:
            return None
        if content_type == "application/sparql-update":
            return self._refuse_update()
        if content_type == "application/sparql-query":
            if "query" in params:
                return self._error(400, "a query in the body and in the URL; send one")
            params = {**params, "query": [body.decode("utf-8", errors="replace")]}
            return self._protocol(params)
        if content_type == "application/x-www-form-urlencoded":
            form = urllib.parse.parse_qs(body.decode("utf-8", errors="replace"), keep_blank_values=True)
            for key, values in form.items():
                params.setdefault(key, []).extend(values)
            if "query" not in params and "update" not in params:
                return self._error(400, "the form has no query= field")
            return self._protocol(params)
        return self._error(
            415, f"unsupported Content-Type {content_type or '(none)'}; send application/sparql-query "
                 "or an application/x-www-form-urlencoded form with query="
        )

    def do_PUT(self):
        self._error(405, "this endpoint is read-only", {"Allow": "GET, POST, OPTIONS"})

    do_DELETE = do_PATCH = do_PUT

    # -- answers

    def _refuse_update(self):
        return self._error(403, "updates are refused: this SPARQL endpoint is read-only "
                                "(change the graph by editing the documents and running `kg build`)")

    def _protocol(self, params: dict[str, list[str]]):
        if "update" in params:
            return self._refuse_update()
        queries = params.get("query", [])
        if len(queries) != 1:
            return self._error(400, "give exactly one query= parameter")
        results_format, graph_format = formats_for(self.headers.get("Accept"), params)
        request = {
            "query": queries[0],
            "results_format": results_format,
            "graph_format": graph_format,
            "max_results": self.endpoint.max_results,
            "default_graph": params.get("default-graph-uri") or None,
            "named_graphs": params.get("named-graph-uri") or None,
        }
        try:
            reply = self.endpoint.pool.run(request, self.endpoint.timeout)
        except QueryTimeout as err:
            return self._error(503, str(err), {"Retry-After": "1"})
        if reply[0] == "ok":
            return self._send(200, reply[2], reply[1])
        return self._error(reply[1], reply[2])

    def _service_description(self, params):
        import pyoxigraph

        from kg.query.formats import MEDIA_TYPES

        _, fmt = formats_for(self.headers.get("Accept"), params)
        fmt = fmt or "turtle"
        host = self.headers.get("Host") or f"{self.server.server_address[0]}:{self.server.server_address[1]}"
        triples = service_description(f"http://{host}/sparql", self.endpoint.graphs, self.endpoint.default_triples)
        formats = {"turtle": pyoxigraph.RdfFormat.TURTLE, "ntriples": pyoxigraph.RdfFormat.N_TRIPLES,
                   "jsonld": pyoxigraph.RdfFormat.JSON_LD, "rdfxml": pyoxigraph.RdfFormat.RDF_XML}
        prefixes = {"sd": "http://www.w3.org/ns/sparql-service-description#", "void": "http://rdfs.org/ns/void#",
                    "rdfs": "http://www.w3.org/2000/01/rdf-schema#"} if fmt == "turtle" else None
        body = pyoxigraph.serialize(triples, format=formats[fmt], prefixes=prefixes)
        return self._send(200, body, MEDIA_TYPES[fmt])

    def _static(self, name: str):
        path = (STATIC_DIR / name).resolve()
        if STATIC_DIR not in path.parents or not path.is_file():
            return self._error(404, f"no page {name}")
        types = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
                 ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml"}
        return self._send(200, path.read_bytes(), types.get(path.suffix, "application/octet-stream"))


def make_server(out_dir, *, host="127.0.0.1", port=7878, timeout=30.0, max_results=100_000,
                workers=2, queries_dir=None) -> ThreadingHTTPServer:
    """An HTTP server for the store in *out_dir*, bound but not yet serving.

    Raises
    ------
    UserError
        If *out_dir* holds no built store.
    ValueError
        If a limit is not positive (the command line checks its options before).
    """
    from kg.store import open_store, store_path

    if timeout <= 0 or max_results < 1 or workers < 1:
        raise ValueError(f"timeout, max_results and workers must be positive (got {timeout}, {max_results}, {workers})")
    del_store = open_store(out_dir)  # checks that a store is there, with a helpful error
    del del_store
    endpoint = Endpoint(store_path(out_dir), timeout=timeout, max_results=max_results,
                        workers=workers, queries_dir=queries_dir)
    handler = type("KgHandler", (Handler,), {"endpoint": endpoint})
    try:
        server = ThreadingHTTPServer((host, port), handler)
    except OSError:
        endpoint.pool.close()
        raise
    server.daemon_threads = True
    server.endpoint = endpoint
    return server


def serve_forever(out_dir, *, announce=None, **options) -> None:
    """Serve the store in *out_dir* until interrupted; *announce* gets the base URL once ready."""
    server = make_server(out_dir, **options)
    if threading.current_thread() is threading.main_thread():
        def stop(signum, frame):
            raise KeyboardInterrupt

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
    host, port = server.server_address[:2]
    shown = f"[{host}]" if ":" in host else host
    if announce:
        announce(f"http://{shown}:{port}/")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        server.endpoint.pool.close()
