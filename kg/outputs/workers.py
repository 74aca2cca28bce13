"""Query workers for the SPARQL endpoint: processes that each hold the store open read-only.

An Oxigraph query cannot be interrupted from another thread, so each query runs in a
worker process with a cap on its memory (``RLIMIT_AS``); one that passes the time limit is
killed, one that dies (out of memory, a crash in the engine) is reported as what happened,
and a fresh worker takes its place.

Long queries do not starve quick ones: every query starts as a quick one, and one still
running after ``quick_seconds`` needs one of the few *long-query slots* to go on. With
none free it is stopped (HTTP 503), so the other workers stay free for quick queries.
"""

from __future__ import annotations

import multiprocessing
import queue
import signal
import threading
import time
from pathlib import Path

from kg.errors import UsageError, UserError
from kg.outputs.negotiation import GRAPH_MEDIA, RESULT_MEDIA

MIB = 1 << 20


def _cap_memory(megabytes: int) -> None:  # pragma: no cover - runs in a child process
    """Cap this process's address space at what it uses now plus *megabytes*."""
    import resource

    used = 0
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmSize:"):
                used = int(line.split()[1]) * 1024
    limit = used + megabytes * MIB
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _answer(store, request: dict) -> tuple:  # pragma: no cover - runs in a child process
    from kg.query.formats import MEDIA_TYPES, format_result
    from kg.query.sparql import ResultTooLarge, run_query

    try:
        result = run_query(
            store,
            request["query"],
            limit=request["max_results"],
            default_graph=request.get("default_graph"),
            named_graphs=request.get("named_graphs"),
            allow_federation=request.get("allow_federation", False),
        )
        fmt = request["graph_format"] if result.kind == "graph" else request["results_format"]
        if fmt is None:
            kinds = "CONSTRUCT/DESCRIBE" if result.kind == "graph" else "SELECT/ASK"
            offered = GRAPH_MEDIA if result.kind == "graph" else RESULT_MEDIA
            return ("error", 406, f"no acceptable format for a {kinds} answer; accept one of {', '.join(offered)}")
        return ("ok", MEDIA_TYPES[fmt], format_result(result, fmt))
    except ResultTooLarge as err:
        return ("error", 500, str(err))
    except UserError as err:
        return ("error", 400 if isinstance(err, UsageError) else 500, str(err))
    except MemoryError:
        return ("error", 500, f"the query needed more memory than the limit of {request['memory_mb']} MB "
                              "and was stopped; narrow it down or add a LIMIT")
    except Exception as err:  # noqa: BLE001 - report, keep serving
        return ("error", 500, f"query failed: {err}")


def _worker_main(conn, store_path: str, memory_mb: int) -> None:  # pragma: no cover - child process
    """Answer queries sent over *conn* from a read-only store until the pipe closes."""
    import pyoxigraph

    import kg.query.formats  # noqa: F401 - imported before the memory cap
    import kg.query.sparql  # noqa: F401

    try:
        store = pyoxigraph.Store.read_only(store_path)
    except OSError as err:
        conn.send(("failed", str(err)))
        return
    _cap_memory(memory_mb)
    conn.send(("ready", None))
    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError):
            return
        conn.send(_answer(store, request))


class _Worker:
    def __init__(self, ctx, store_path: str, memory_mb: int):
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=_worker_main, args=(child, store_path, memory_mb), daemon=True)
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


def _renice(worker: _Worker, niceness: int) -> bool:
    """Set the worker's scheduling priority; False where that is not allowed (lowering it back needs rights)."""
    import os

    try:
        os.setpriority(os.PRIO_PROCESS, worker.process.pid, niceness)
    except OSError:
        return False
    return True


class _Renew(Exception):
    """A long query's answer, from a worker that must be replaced before it serves again."""

    def __init__(self, reply: tuple):
        super().__init__("renew")
        self.reply = reply


class QueryStopped(Exception):
    """A query was stopped or its worker died; ``status`` is the HTTP status to answer with."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def death_message(exitcode: int | None, memory_mb: int) -> str:
    """What a worker's exit status says happened to the query it was running.

    >>> death_message(-11, 512)
    'the query crashed its worker (signal SIGSEGV, a fault in the query engine); the server goes on; simplify the query'
    >>> death_message(-6, 512)[:60]
    'the query stopped its worker (signal SIGABRT): most likely i'
    """
    if exitcode is not None and exitcode < 0:
        name = signal.Signals(-exitcode).name if -exitcode in signal.Signals._value2member_map_ else str(-exitcode)
        if -exitcode in (signal.SIGABRT, signal.SIGKILL):
            return (f"the query stopped its worker (signal {name}): most likely it needed more memory "
                    f"than the limit of {memory_mb} MB; narrow it down or add a LIMIT")
        return (f"the query crashed its worker (signal {name}, a fault in the query engine); "
                "the server goes on; simplify the query")
    return f"the query's worker ended unexpectedly (exit status {exitcode}); the server goes on; try again"


#: Worker processes for quick queries by default. Four on two cores, not two: with two, a quick query
#: waits behind another's answer being sent, and 20 clients saw a p99 of 150-210 ms instead of 55-76 ms.
QUICK_WORKERS = 4


class WorkerPool:
    """Worker processes that each hold the store open read-only and answer one query at a time.

    Parameters
    ----------
    store_path : path
        The store to open.
    size : int
        Workers for quick queries; the pool has ``size + long_slots`` processes.
    long_slots : int
        Queries that may run past *quick_seconds* at once.
    memory_mb : int
        Memory each worker may take beyond what it holds once started.
    """

    def __init__(self, store_path: str | Path, size: int = QUICK_WORKERS, *, long_slots: int = 2,
                 memory_mb: int = 1024, quick_seconds: float = 1.0):
        self.store_path = str(store_path)
        self.memory_mb = memory_mb
        self.quick_seconds = quick_seconds
        self.ctx = multiprocessing.get_context("spawn")
        self.idle: queue.Queue[_Worker] = queue.Queue()
        self.long = threading.BoundedSemaphore(long_slots)
        self.long_slots = long_slots
        self.lock = threading.Lock()
        self.retired = False
        self.workers = [_Worker(self.ctx, self.store_path, memory_mb) for _ in range(size + long_slots)]
        for worker in self.workers:
            worker.wait_ready(60)
            self.idle.put(worker)

    def pids(self) -> list[int]:
        """The process ids of the workers (for tests and monitoring)."""
        with self.lock:
            return [w.process.pid for w in self.workers]

    def run(self, request: dict, timeout: float) -> tuple:
        """The worker's reply to *request*; raises :class:`QueryStopped` if it could not answer."""
        worker = self._idle_worker(timeout)
        request = {**request, "memory_mb": self.memory_mb}
        try:
            worker.wait_ready(timeout + 30)  # a replaced worker may still be starting: not the query's time
            worker.conn.send(request)
            reply = self._wait(worker, timeout)
        except (EOFError, OSError, UserError):
            worker.process.join(2)
            self._replace(worker)
            raise QueryStopped(500, death_message(worker.process.exitcode, self.memory_mb)) from None
        except QueryStopped:
            self._replace(worker)
            raise
        except _Renew as renew:  # its priority could not be raised again: a fresh worker takes its place
            self._replace(worker)
            return renew.reply
        self._release(worker)
        return reply

    def _idle_worker(self, timeout: float) -> _Worker:
        """An idle worker that is alive (one that died while idle is replaced first)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                worker = self.idle.get(timeout=max(deadline - time.monotonic(), 0.001))
            except queue.Empty:
                raise QueryStopped(503, f"every query worker stayed busy for {timeout:g} s; "
                                        "try again later") from None
            if worker.process.is_alive():
                return worker
            self._replace(worker)

    def _wait(self, worker: _Worker, timeout: float) -> tuple:
        start = time.monotonic()
        quick = min(self.quick_seconds, timeout)
        if worker.conn.poll(quick):
            return worker.conn.recv()
        if not self.long.acquire(blocking=False):
            raise QueryStopped(503, f"the query ran past {quick:g} s while {self.long_slots} long queries were "
                                    "already running, and was stopped to keep the server quick; try again later "
                                    "or narrow it down")
        _renice(worker, 10)  # a long query yields the processor to quick ones
        try:
            if worker.conn.poll(max(timeout - (time.monotonic() - start), 0.0)):
                reply = worker.conn.recv()
                if not _renice(worker, 0):
                    raise _Renew(reply)
                return reply
        finally:
            self.long.release()
        raise QueryStopped(503, f"the query ran longer than the time limit of {timeout:g} s and was stopped; "
                                "narrow it down or add a LIMIT")

    def _release(self, worker: _Worker) -> None:
        with self.lock:
            retired = self.retired
        if retired:
            worker.kill()
        else:
            self.idle.put(worker)

    def _replace(self, worker: _Worker) -> None:
        """Kill *worker* and start a fresh one, which joins the idle workers once it is ready,
        so no query waits for a worker to start."""
        worker.kill()
        with self.lock:
            if self.retired:
                self.workers = [w for w in self.workers if w is not worker]
                return
            fresh = _Worker(self.ctx, self.store_path, self.memory_mb)
            self.workers = [fresh if w is worker else w for w in self.workers]
        threading.Thread(target=self._when_ready, args=(fresh,), daemon=True).start()

    def _when_ready(self, fresh: _Worker) -> None:
        try:
            fresh.wait_ready(120)
        except UserError:
            pass  # a dead worker in the idle queue is replaced again by the next query
        self._release(fresh)

    def retire(self) -> None:
        """Stop the idle workers now and each busy one when its query ends (a newer build is served)."""
        with self.lock:
            self.retired = True
        while True:
            try:
                self.idle.get_nowait().kill()
            except queue.Empty:
                return

    def close(self) -> None:
        with self.lock:
            self.retired = True
            for worker in self.workers:
                worker.kill()
            self.workers = []
