"""Load test of `kg serve` on loopback: 20 clients x 50 queries, two slow queries among them.

Builds a synthetic store (bench.bench_sparql), starts `kg serve`, runs the clients in threads
and prints the quick queries' p50/p99 latency, the errors, what the slow queries got, and the
peak memory of the server and its workers (summed RSS, sampled every 50 ms). Stops by itself.

    python -m bench.bench_server [--quads 20000] [--clients 20] [--queries 50]
"""

from __future__ import annotations

import argparse
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from bench.bench_sparql import build_store
from kg.outputs.workers import QUICK_WORKERS

KG = str(Path(sys.executable).parent / "kg")
QUICK = [
    "ASK { ?s a kg:Person }",
    "SELECT ?n WHERE { ?p a kg:Person ; kg:name ?n } LIMIT 10",
    "SELECT (COUNT(*) AS ?c) WHERE { ?w a kg:Work }",
]
SLOW = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i } "


def _rss_kib(pid: int) -> int:
    total = 0
    pids = [pid]
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        pids += [int(p) for p in task.read_text().split()]
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total


def _ask(endpoint: str, query: str) -> tuple[int, float]:
    url = endpoint + "?" + urllib.parse.urlencode({"query": query})
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            response.read()
            status = response.status
    except urllib.error.HTTPError as err:
        status = err.code
    except OSError:
        status = 0
    return status, time.perf_counter() - started


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quads", type=int, default=20_000)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--queries", type=int, default=50)
    parser.add_argument("--workers", type=int, default=QUICK_WORKERS, help="kg serve --workers (its default)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        quads, _, _ = build_store(args.quads, Path(folder))
        server = subprocess.Popen([KG, "serve", "--out", folder, "--port", "0", "--timeout", "5",
                                   "--workers", str(args.workers)],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            match = re.search(r"at (http://[^ ]+/sparql)", server.stderr.readline())
            if not match:
                print("kg serve did not start")
                return 1
            return _load(match[1], server.pid, quads, args)
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(30)


def _load(endpoint: str, pid: int, quads: int, args) -> int:
    quick, slow, errors, peak = [], [], [], [0]
    done = threading.Event()

    def sample():
        while not done.wait(0.05):
            peak[0] = max(peak[0], _rss_kib(pid))

    def client(index: int):
        for n in range(args.queries):
            is_slow = index in (3, 11) and n == 5  # two slow queries among the 1,000
            status, seconds = _ask(endpoint, SLOW if is_slow else QUICK[n % len(QUICK)])
            (slow if is_slow else quick).append((status, seconds))
            if status != 200 and not is_slow:
                errors.append(status)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    started = time.perf_counter()
    clients = [threading.Thread(target=client, args=(i,)) for i in range(args.clients)]
    for thread in clients:
        thread.start()
    for thread in clients:
        thread.join(300)
    wall = time.perf_counter() - started
    done.set()
    times = sorted(s for _, s in quick)
    p50 = statistics.median(times) * 1000
    p99 = times[int(len(times) * 0.99) - 1] * 1000
    print(f"store: {quads} quads; kg serve --workers {args.workers}; "
          f"{args.clients} clients x {args.queries} queries in {wall:.1f} s")
    print(f"quick queries: {len(times)}, p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {times[-1] * 1000:.0f} ms, "
          f"errors {len(errors)}")
    print("slow queries: " + ", ".join(f"HTTP {s} after {t:.1f} s" for s, t in slow))
    print(f"peak memory (server + workers, RSS): {peak[0] / 1024:.0f} MB")
    return 0 if not errors and p99 < 100 else 1


if __name__ == "__main__":
    sys.exit(main())
