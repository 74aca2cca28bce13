"""Query workers for the SPARQL endpoint: processes that each hold the store open read-only.

An Oxigraph query cannot be interrupted from another thread, so each query runs in a
worker process; one that passes the time limit is killed and a fresh worker takes its place.
"""

from __future__ import annotations

import multiprocessing
import queue
import threading
import time
from pathlib import Path

from kg.errors import UsageError, UserError
from kg.outputs.negotiation import GRAPH_MEDIA, RESULT_MEDIA


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
