"""kg on a SPARQL server (issue 17): the generated corpus pushed to a local Oxigraph server, and every
command timed against the server and against the embedded store.

For each size in ``--docs`` it writes synthetic CVs with ``../shared/tools/gen_corpus.py OUT N SEED``
(skipping with a message where ../shared is absent), builds them, starts ``oxigraph serve`` on a
free loopback port, times the push (:func:`kg.remote.push.push_store`), then runs each command twice,
``--out OUT`` and ``--store URL``, and checks the two print the same.

    python -m bench.bench_remote --docs 100,1000      (make bench-remote DOCS=1000)
    python -m bench.bench_remote --out DIR/out-1000   (a build bench_build --keep DIR made)
    python -m bench.bench_remote --out DIR/out-1000 --server http://127.0.0.1:7878/query   (pushed already)
"""

from __future__ import annotations

import argparse
import json
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.bench_build import GENERATOR, KG, RESULTS, ROOT, people_to_ask, run


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(folder: Path) -> tuple[subprocess.Popen, str, str, str]:
    program = shutil.which("oxigraph") or str(Path(sys.executable).parent / "oxigraph")
    port = free_port()
    proc = subprocess.Popen([program, "serve", "--location", str(folder), "--bind", f"127.0.0.1:{port}"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.1)
    return proc, base + "/query", base + "/update", base + "/store"


def commands(people: dict[str, str], tmp: Path) -> list[tuple[str, list[str], str | None]]:
    """(label, arguments, file the command writes or None) for every read command."""
    typical, busiest = people["typical"], people["busiest"]
    return [
        ("profile", ["profile", typical], None),
        ("collaborators (typical)", ["collaborators", typical], None),
        ("collaborators (busiest)", ["collaborators", busiest], None),
        ("shared", ["shared", typical, busiest], None),
        ("path", ["path", typical, busiest], None),
        ("explain", ["explain", typical], None),
        ("conflicts", ["conflicts", "--format", "csv"], None),
        ("query coauthors", ["query", "coauthors", "--bind", f"name={busiest}", "--format", "csv"], None),
        ("query fact-sources", ["query", "fact-sources", "--bind", f"name={typical}", "--format", "csv"], None),
        ("query works-per-year-venue", ["query", "works-per-year-venue", "--format", "csv"], None),
        ("analyze", ["analyze", "--report", str(tmp / "report.{}.md")], "report.{}.md"),
        ("export graphml", ["export", "--format", "graphml", "--output", str(tmp / "g.{}.graphml")], "g.{}.graphml"),
        ("html", ["html", "-o", str(tmp / "graph.{}.html")], "graph.{}.html"),
    ]


def bench_size(n: int, seed: int, base: Path, push_only: bool = False) -> dict:
    data, out = base / f"cv-{n}", base / f"out-{n}"
    subprocess.run([sys.executable, str(GENERATOR), str(data), str(n), str(seed)], capture_output=True, check=True)
    built = run(KG + ["build", str(data), "--out", str(out), "--no-validate"])
    row: dict = {"documents": n, "build_seconds": built["seconds"], "commands": []}
    if not (out / "store").is_dir():
        row["error"] = built["stderr"].strip().splitlines()[-1:] or [f"exit {built['status']}"]
        print(f"  {n} CVs: the build failed: {row['error']}", flush=True)
        return row
    return bench_built(out, base, row, push_only)


def bench_built(out: Path, base: Path, row: dict, push_only: bool = False) -> dict:
    """Push the build in *out* to a new local Oxigraph server (twice: the second push finds every graph
    unchanged) and time every command both ways (unless *push_only*)."""
    n = row["documents"]
    proc, query, update, gsp = start_server(base / f"server-{n}")
    try:
        from kg.remote.push import push_store

        started = time.perf_counter()
        pushed = push_store(out / "store", query, update, gsp)  # the Graph Store Protocol, in 50,000-triple POSTs
        row.update(push_seconds=round(time.perf_counter() - started, 2), triples=pushed.triples)
        print(f"  {n} CVs: build {row['build_seconds']} s, push {row['push_seconds']} s ({pushed.triples:,} triples)",
              flush=True)
        started = time.perf_counter()
        again = push_store(out / "store", query, update, gsp)  # the same build again: digests only, nothing sent
        row.update(repush_seconds=round(time.perf_counter() - started, 2), repush_triples=again.triples)
        print(f"  {n} CVs: the same build pushed again in {row['repush_seconds']} s ({again.triples:,} triples sent)",
              flush=True)
        if not push_only:
            time_commands(out, base, row, query)
    finally:
        proc.terminate()
        proc.wait(30)
    return row


def time_commands(out: Path, base: Path, row: dict, query: str) -> dict:
    """Time every read command on the build in *out* and on the server whose query endpoint is *query*
    (where that build was pushed), and check the two print the same."""
    people = people_to_ask(out)
    for label, args, written in commands(people, base):
        times, outputs = {}, {}
        for where, extra in (("embedded", []), ("server", ["--store", query])):
            result = run(KG + [a.format(where) for a in args] + ["--out", str(out)] + extra, timeout=3600)
            times[where] = result["seconds"]
            outputs[where] = ((base / written.format(where)).read_bytes() if written and not result["status"]
                              else result["stdout"].encode()) + result["stderr"].encode()
        same = outputs["embedded"] == outputs["server"]
        row["commands"].append({"command": label, "embedded": times["embedded"], "server": times["server"],
                                "same_output": same})
        print(f"    {label}: embedded {times['embedded']} s, server {times['server']} s, "
              f"{'same' if same else 'DIFFERENT'} output", flush=True)
    return row


def markdown(rows: list[dict]) -> str:
    lines = ["| CVs | build s | push s | triples | same build again s |", "| ---: | ---: | ---: | ---: | ---: |"]
    lines += [f"| {r['documents']} | {r['build_seconds']} | {r.get('push_seconds', '-')} | {r.get('triples', 0):,} "
              f"| {r.get('repush_seconds', '-')} |" for r in rows]
    for r in rows:
        lines += ["", f"{r['documents']} CVs: each command (a new process, start-up included)", "",
                  "| command | embedded s | server s | same output |", "| --- | ---: | ---: | --- |"]
        lines += [f"| {c['command']} | {c['embedded']} | {c['server']} | {'yes' if c['same_output'] else 'NO'} |"
                  for c in r["commands"]]
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", default="100", help="sizes, comma-separated (default 100)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--generator", type=Path, default=GENERATOR)
    parser.add_argument("--out", type=Path, help="time a build made already (e.g. bench_build --keep DIR: DIR/out-1000)")
    parser.add_argument("--push-only", action="store_true", help="time the pushes, not the commands")
    parser.add_argument("--server", metavar="QUERY_URL",
                        help="with --out: time the commands against a server the build was pushed to already")
    args = parser.parse_args(argv)
    if not args.generator.is_file():
        print(f"skipped: no corpus generator at {args.generator} (it lives in ../shared/tools beside the project)")
        return 0
    rows = []
    with tempfile.TemporaryDirectory(prefix="kg-bench-remote-") as tmp:
        if args.out is not None and args.server:  # a build pushed already: the commands only
            documents = sum(1 for _ in (args.out.parent / args.out.name.replace("out-", "cv-")).glob("*.md"))
            rows.append(time_commands(args.out, Path(tmp), {"documents": documents, "build_seconds": "-",
                                                            "commands": []}, args.server))
        elif args.out is not None:  # a build made already (by bench_build --keep): push and time it only
            documents = sum(1 for _ in (args.out.parent / args.out.name.replace("out-", "cv-")).glob("*.md"))
            rows.append(bench_built(args.out, Path(tmp), {"documents": documents, "build_seconds": "-",
                                                          "commands": []}, args.push_only))
        for n in (int(d) for d in args.docs.split(",") if args.out is None):
            rows.append(bench_size(n, args.seed, Path(tmp), args.push_only))
    table = markdown(rows)
    print("\n" + table)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "remote.json").write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    print(f"\nwrote {(RESULTS / 'remote.json').relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
