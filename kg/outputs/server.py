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

Content negotiation is in :mod:`kg.outputs.negotiation`, the worker processes in
:mod:`kg.outputs.workers`.
"""

from __future__ import annotations

import json
import signal
import threading
import urllib.parse
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from kg.outputs.negotiation import (  # noqa: F401
    FORMAT_PARAMS,
    GRAPH_MEDIA,
    RESULT_MEDIA,
    SERVICE_FORMATS,
    formats_for,
    negotiate,
)
from kg.outputs.workers import QueryTimeout, WorkerPool

STATIC_DIR = Path(__file__).resolve().parent / "static"
MAX_REQUEST_BYTES = 1 << 20


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

