"""The build at scale through the real path, and the commands and queries on the largest store.

For each size in ``--docs`` it writes synthetic CVs with ``../shared/tools/gen_corpus.py OUT N SEED``
(skipped with a message where that folder is absent), runs ``kg build`` as a subprocess (readers,
identity, RDF, store, validation, HTML) and reports wall seconds, the child's peak resident
memory (``wait4`` rusage), the growth exponent between successive sizes (log t2/t1 / log w2/w1 on
works), and correctness at scale: the works the build found against the generator's
``works_unique``, the people found against ``authors_unique_people``, and the SHACL result. It
runs ``kg build --timings`` and tabulates each stage's seconds at each size, its exponent, and both
carried on to the issue's north star, a million works (see :mod:`bench.build_stages`).

On the largest store it then times, each as a subprocess the way a user runs it (Python start-up
included; ``kg --version`` gives that baseline): ``kg collaborators``, ``kg shared``, ``kg explain``
and ``kg profile`` for a typical person (median number of works) and the busiest one, ``kg path``,
``kg conflicts`` (and ``--people``), ``kg analyze``, ``kg html``,
and every example query in ``queries/`` (or ``kg/data/queries/``) with its ``?name``-like
variables bound to each of the two people. Last, the co-author projection against a DuckDB
self-join over the same authorships (exported from the store with one SPARQL query): the pairs as
a table (``coauthor_edges``) and as a NetworkX graph with each pair's works (``coauthor_graph``),
their times and ratios to the self-join, and whether the edge counts and joint-work totals agree. The seed build
(``data/``) is timed too.

Run: ``.venv/bin/python -m bench.bench_build [--docs 5,10] [--seed 1] [--keep DIR] [--no-commands]
[--generator PATH] [--json FILE]``; ``--store OUT`` times only the commands, queries and
projection on a build already in OUT; ``--only REGEX`` times only the commands whose label matches
(``--only 'query|path'``) and skips the projection. Default: 3 and 6 CVs (about a minute); ``make bench-scale`` runs 50,100,200.
Issue 14 measured 100 CVs in 74 s and 1,000 CVs in 23 min and 10 GiB: mind the machine before
asking for 1,000. Output: markdown tables, also saved as JSON in ``bench/results/``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from bench.build_stages import growth, parse_timings, stages_markdown
from kg.memory import next_sample_in, tree_pss

ROOT = Path(__file__).resolve().parents[1]
# ../shared beside the project root (a worktree sits one level deeper: the nearest one up is taken).
GENERATOR = next((p / "shared" / "tools" / "gen_corpus.py" for p in Path(__file__).resolve().parents[1:]
                  if (p / "shared" / "tools" / "gen_corpus.py").is_file()),
                 Path(__file__).resolve().parents[2] / "shared" / "tools" / "gen_corpus.py")
RESULTS = ROOT / "bench" / "results"
KG = [sys.executable, "-m", "kg"]
AUTHORSHIPS = """PREFIX kg: <https://kg.example/ns#>
SELECT DISTINCT ?w ?p WHERE { { ?w kg:hasAuthor ?p } UNION { ?w kg:hasAuthorship/kg:author ?p } }"""


# A process forked from this one (big after the projection: pandas, a store) keeps this one's peak
# RSS in its rusage even after exec, so a command is started by this small launcher, which reports
# the peak of the processes it started itself, and the CPU seconds they and theirs used.
_LAUNCHER = """
import resource, subprocess, sys
status = subprocess.call(sys.argv[2:])
used = resource.getrusage(resource.RUSAGE_CHILDREN)
with open(sys.argv[1], "w") as out:
    out.write(f"{used.ru_maxrss} {used.ru_utime + used.ru_stime}")
sys.exit(status if status >= 0 else 128 - status)
"""


def run(cmd: list[str], timeout: float = 3600, tree: bool = False) -> dict:
    """Run *cmd*; its wall seconds, CPU seconds (all its processes, user and system), peak resident MiB
    (the largest of its processes), exit status and output; with *tree*, also the peak of its
    processes' summed PSS, sampled twice a second (less often where a sample costs more, see
    :func:`kg.memory.next_sample_in`)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile("r") as peak:
        t0 = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-c", _LAUNCHER, peak.name, *cmd], stdout=out, stderr=err,
                                cwd=ROOT, start_new_session=True)
        deadline, sampled, wait, tree_peak = t0 + timeout, 0.0, 0.5, 0.0
        while proc.poll() is None:
            if tree and time.perf_counter() - sampled >= wait:
                sampled, began = time.perf_counter(), time.thread_time()
                tree_peak = max(tree_peak, (tree_pss(proc.pid, include_root=False) or 0) / 2**20)
                # less often where a sample costs more: it takes CPU from the build it measures
                wait = next_sample_in(0.5, time.thread_time() - began)
            if time.perf_counter() > deadline:
                os.killpg(proc.pid, signal.SIGKILL)  # the launcher and the command it started
                proc.wait()
                break
            time.sleep(0.05)
        seconds = time.perf_counter() - t0
        kib, _, cpu = peak.read().strip().partition(" ")
        out.seek(0)
        err.seek(0)
        return {"seconds": round(seconds, 2), "cpu_seconds": round(float(cpu), 1) if cpu else None,
                "peak_mib": round(int(kib) / 1024, 1) if kib else None,
                "tree_pss_mib": round(tree_peak, 1) if tree else None,
                "status": proc.returncode, "stdout": out.read().decode("utf-8", "replace"),
                "stderr": err.read().decode("utf-8", "replace")}


def parse_summary(text: str) -> dict:
    """The counts and SHACL result in ``kg build``'s summary.

    >>> parse_summary("read 3 documents: 40 people (3 profiled), 99 works, 5 organizations\\n"
    ...               "validation: 2 violations of shapes.ttl\\nskipped: 1")
    {'people': 40, 'works': 99, 'shacl': '2 violations', 'skipped': 1}
    """
    out: dict = {}
    m = re.search(r"read \d+ documents?: (\d+) people.*?, (\d+) works", text)
    if m:
        out["people"], out["works"] = int(m.group(1)), int(m.group(2))
    m = re.search(r"validation: (?:(conforms)|(\d+) violations)", text)
    if m:
        out["shacl"] = "conforms" if m.group(1) else f"{m.group(2)} violations"
    m = re.search(r"skipped: (\d+)", text)
    if m:
        out["skipped"] = int(m.group(1))
    return out


def build_size(n: int, seed: int, base: Path, generator: Path = GENERATOR, memory_limit: str | None = None) -> dict:
    data, out = base / f"cv-{n}", base / f"out-{n}"
    gen = subprocess.run([sys.executable, str(generator), str(data), str(n), str(seed)],
                         capture_output=True, text=True, check=True)
    expected = json.loads(gen.stdout.strip().splitlines()[-1])
    limit = ["--memory-limit", memory_limit] if memory_limit else []
    result = run(KG + ["build", str(data), "--out", str(out), "--timings", *limit], tree=True)
    row = {"documents": n, "memory_limit": memory_limit, "works_expected": expected["works_unique"],
           "people_expected": expected["authors_unique_people"], "seconds": result["seconds"],
           "cpu_seconds": result["cpu_seconds"], "peak_mib": result["peak_mib"],
           "tree_pss_mib": result["tree_pss_mib"], "status": result["status"],
           "out": str(out)}
    row.update(parse_summary(result["stdout"]))
    row["stages"] = parse_timings(result["stdout"])
    if result["status"]:
        row["error"] = result["stderr"].strip().splitlines()[-1:] or ["exit " + str(result["status"])]
    return row


# --- after the build ------------------------------------------------------------------------

def people_to_ask(out: Path) -> dict[str, str]:
    """A typical person (median works) and the busiest, among names the store holds once."""
    from kg.store import open_store

    store = open_store(out)
    rows = store.query("""PREFIX kg: <https://kg.example/ns#>
        SELECT ?p ?name (COUNT(DISTINCT ?w) AS ?n) WHERE { ?w kg:hasAuthor ?p . ?p kg:name ?name }
        GROUP BY ?p ?name""")
    counts = [(int(r["n"].value), r["name"].value) for r in rows]
    org = next(iter(store.query("""PREFIX kg: <https://kg.example/ns#>
        SELECT ?name (COUNT(*) AS ?n) WHERE { ?x kg:organization ?o . ?o kg:name ?name }
        GROUP BY ?name ORDER BY DESC(?n) LIMIT 1""")), None)
    del store
    times = Counter(name for _, name in counts)
    unique = sorted((c, name) for c, name in counts if times[name] == 1)
    if not unique:
        return {}
    return {"typical": unique[len(unique) // 2][1], "busiest": unique[-1][1],
            "institution": org["name"].value if org else ""}


def query_files() -> list[Path]:
    for folder in (ROOT / "queries", ROOT / "kg" / "data" / "queries"):
        if folder.is_dir() and any(folder.glob("*.rq")):
            return sorted(folder.glob("*.rq"))
    return []


def query_binds(path: Path) -> list[str]:
    """The variables a query's header says it binds (between ``Binds:`` and ``Columns:``)."""
    header = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        header.append(line)
    text = "\n".join(header)
    m = re.search(r"Binds:(.*?)(?:Columns:|$)", text, re.S)
    return sorted(set(re.findall(r"\?(\w+)", m.group(1)))) if m else []


PERSON_VARIABLES = ("name", "name1", "name2", "supervisorName")


def bind_args(variables: list[str], who: str | None, people: dict[str, str]) -> list[str]:
    """``--bind`` options for the variables a query takes: its person ones bound to *who* (and the
    other person), an institution to the commonest organization, a year to 2020.

    >>> bind_args(["name", "year"], "typical", {"typical": "A B", "busiest": "C D"})
    ['--bind', 'name=A B', '--bind', 'year=2020']
    """
    values = {"institution": people.get("institution", ""), "year": "2020"}
    if who:
        other = people["busiest" if who == "typical" else "typical"]
        values.update(name=people[who], name1=people[who], name2=other, supervisorName=people[who])
    return [arg for v in variables if values.get(v) for arg in ("--bind", f"{v}={values[v]}")]


def time_commands(out: Path, only: str | None = None) -> list[dict]:
    """Time each command and query on the build in *out* (those whose label matches the regular
    expression *only*, if given)."""
    people = people_to_ask(out)
    rows = []

    def timed(label, args, who=""):
        if only and not re.search(only, label):
            return
        r = run(KG + args + ["--out", str(out)] if args[0] != "--version" else KG + args, timeout=1800)
        lines = len(r["stdout"].splitlines())
        rows.append({"command": label, "person": who, "seconds": r["seconds"], "peak_mib": r["peak_mib"],
                     "status": r["status"], "output_lines": lines})
        print(f"  {label} {who}: {r['seconds']} s", flush=True)

    timed("kg --version (start-up)", ["--version"])
    if not people:
        return rows
    for who in ("typical", "busiest"):
        name, other = people[who], people["busiest" if who == "typical" else "typical"]
        timed("kg collaborators", ["collaborators", name], f"{who}: {name}")
        timed("kg shared", ["shared", name, other], f"{who}: {name} + {other}")
        timed("kg explain", ["explain", name], f"{who}: {name}")
        timed("kg profile", ["profile", name], f"{who}: {name}")
    timed("kg path", ["path", people["typical"], people["busiest"]], f"{people['typical']} -> {people['busiest']}")
    timed("kg conflicts", ["conflicts", "--format", "csv"])
    timed("kg conflicts --people", ["conflicts", "--people", "--format", "csv"])
    with tempfile.TemporaryDirectory() as tmp:
        timed("kg analyze", ["analyze", "--report", str(Path(tmp) / "report.html")])
        timed("kg html", ["html", "-o", str(Path(tmp) / "graph.html")])
    for path in query_files():
        variables = query_binds(path)
        graph_result = re.search(r"^\s*(CONSTRUCT|DESCRIBE)\b", path.read_text(encoding="utf-8"), re.M | re.I)
        form = ["--format", "ntriples" if graph_result else "csv"]
        if not any(v in PERSON_VARIABLES for v in variables):
            binds = bind_args(variables, None, people)
            timed(f"kg query {path.stem}", ["query", path.stem, *form, *binds], " ".join(binds[1::2]))
            continue
        for who in ("typical", "busiest"):
            binds = bind_args(variables, who, people)
            timed(f"kg query {path.stem}", ["query", path.stem, *form, *binds], f"{who}: {people[who]}")
    return rows


def projection_vs_duckdb(out: Path) -> dict:
    """The co-author projection against a DuckDB self-join on the same authorships.

    Two projections are timed: the co-author pairs as a table (``coauthor_edges``, the projection
    analyses that need counts and weights use), and the NetworkX graph with each pair's works listed
    (``coauthor_graph``, for graph algorithms and the page). The self-join is given the authorships
    in memory; both projections read them from the build's files, so their time includes that.
    """
    import duckdb
    import pandas as pd

    from kg.graphs.pairs import coauthor_edges
    from kg.graphs.projections import coauthor_graph
    from kg.store import open_store

    store = open_store(out)
    t0 = time.perf_counter()
    authorships = pd.DataFrame([(r["w"].value, r["p"].value) for r in store.query(AUTHORSHIPS)], columns=["w", "p"])
    export = time.perf_counter() - t0

    con = duckdb.connect()
    t0 = time.perf_counter()
    con.register("authorships", authorships)
    edges = con.execute("""SELECT a.p, b.p, COUNT(*) AS joint FROM authorships a JOIN authorships b
                           ON a.w = b.w AND a.p < b.p GROUP BY a.p, b.p""").fetchall()
    duck = time.perf_counter() - t0
    joint_duck = sum(e[2] for e in edges)

    t0 = time.perf_counter()
    table = coauthor_edges(store)
    table_seconds = time.perf_counter() - t0
    t0 = time.perf_counter()
    graph = coauthor_graph(store)
    graph_seconds = time.perf_counter() - t0
    joint_graph = sum(d["joint_works"] for _, _, d in graph.edges(data=True))
    joint_table = int(table["joint_works"].sum())
    return {"authorships": len(authorships), "export_seconds": round(export, 3), "duckdb_seconds": round(duck, 3),
            "projection_seconds": round(table_seconds, 3), "graph_seconds": round(graph_seconds, 3),
            "ratio": round(table_seconds / duck, 1) if duck else None,
            "graph_ratio": round(graph_seconds / duck, 1) if duck else None,
            "edges_projection": len(table), "edges_graph": graph.number_of_edges(), "edges_duckdb": len(edges),
            "joint_works_projection": joint_table, "joint_works_graph": joint_graph, "joint_works_duckdb": joint_duck,
            "agree": len(table) == graph.number_of_edges() == len(edges) and joint_table == joint_graph == joint_duck}


# --- report ---------------------------------------------------------------------------------

def markdown(builds: list[dict], seed_build: dict | None, commands: list[dict], projection: dict | None,
             where: str | None = None) -> str:
    out = []
    if builds:
        out += ["| documents | works expected | works found | people expected | people found | `kg build` s "
                "| CPU s (cores busy) | peak MiB (largest process) | peak MiB (all processes, PSS) | exponent | SHACL |",
                "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in builds:
        exp = "" if r.get("exponent") is None else f"{r['exponent']:.2f}"
        out.append(f"| {r['documents']:,} | {r['works_expected']:,} | {_count(r.get('works'))} | "
                   f"{r['people_expected']:,} | {_count(r.get('people'))} | {r['seconds']:.1f} | {_cpu(r)} | "
                   f"{r['peak_mib']:.0f} | "
                   f"{r.get('tree_pss_mib') or 0:.0f} | {exp} | {r.get('shacl', r.get('error', '?'))} |")
    stages = stages_markdown(builds)
    if stages:
        out += ["\nWhere the time goes (`kg build --timings`; stages \"beside the others\" overlap the rest):\n", stages]
    if seed_build:
        first = f" (its first run, imports perhaps read from disk: {seed_build['first_seconds']:.2f} s)" if "first_seconds" in seed_build else ""
        out.append(f"\nSeed build (data/): {seed_build['seconds']:.2f} s{first}, {seed_build['peak_mib']:.0f} MiB peak, "
                   f"{seed_build.get('works', '?')} works, {seed_build.get('shacl', '?')}.")
    if commands:
        where = where or f"the largest store ({builds[-1]['documents']} CVs)"
        out += [f"\nOn {where}:\n",
                "| command | person | seconds | peak MiB | exit | output lines |", "|---|---|---|---|---|---|"]
        out += [f"| {c['command']} | {c['person']} | {c['seconds']:.2f} | {c['peak_mib']:.0f} | {c['status']} | "
                f"{c['output_lines']} |" for c in commands]
    if projection:
        p = projection
        out += ["", "| co-author projection | seconds | edges | joint works |", "|---|---|---|---|",
                f"| `coauthor_edges(store)` (table) | {p['projection_seconds']:.3f} | {p['edges_projection']:,} | "
                f"{p['joint_works_projection']:,} |",
                f"| `coauthor_graph(store)` (NetworkX, works listed) | {p['graph_seconds']:.3f} | "
                f"{p['edges_graph']:,} | {p['joint_works_graph']:,} |",
                f"| DuckDB self-join | {p['duckdb_seconds']:.3f} | {p['edges_duckdb']:,} | "
                f"{p['joint_works_duckdb']:,} |",
                f"\nratio {p['ratio']}x (the graph: {p['graph_ratio']}x); {p['authorships']:,} authorships exported in {p['export_seconds']:.2f} s; "
                f"counts {'agree' if p['agree'] else 'DISAGREE'}."]
    return "\n".join(out)


def _count(value) -> str:
    """A count as the table writes it ("?" where the build gave none).

    >>> _count(31190), _count(None)
    ('31,190', '?')
    """
    return "?" if value is None else f"{value:,}"


def _cpu(row: dict) -> str:
    """A build's CPU seconds and the cores they kept busy on average (CPU / wall): on two cores a
    build can be no faster than half its CPU seconds.

    >>> _cpu({"seconds": 50.0, "cpu_seconds": 80.0}), _cpu({"seconds": 50.0})
    ('80 (1.60)', '?')
    """
    cpu = row.get("cpu_seconds")
    return "?" if cpu is None else f"{cpu:.0f} ({cpu / row['seconds']:.2f})"


def save(path: Path, result: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, indent=1) + "\n")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", default="3,6", help="comma-separated numbers of CVs, e.g. 50,100,200")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=Path, help="write corpora and builds here and keep them")
    parser.add_argument("--no-commands", action="store_true", help="builds only: no commands, queries, projection")
    parser.add_argument("--generator", type=Path, default=GENERATOR, help=f"default: {GENERATOR}")
    parser.add_argument("--json", type=Path, default=RESULTS / "build.json")
    parser.add_argument("--store", type=Path, metavar="OUT",
                        help="no builds: time the commands, queries and projection on the build in OUT")
    parser.add_argument("--memory-limit", metavar="SIZE",
                        help="build with `kg build --memory-limit SIZE` (one step at a time where two would not fit)")
    parser.add_argument("--only", metavar="REGEX",
                        help="time only the commands whose label matches, e.g. 'query|path' (and no projection)")
    args = parser.parse_args(argv)
    if args.store:
        commands = time_commands(args.store, args.only)
        projection = None if args.only else projection_vs_duckdb(args.store)
        print(f"\n{markdown([], None, commands, projection, where=str(args.store))}")
        save(args.json, {"store": str(args.store), "commands": commands, "projection": projection})
        return 0
    if not args.generator.is_file():
        print(f"skipped: no corpus generator at {args.generator} (it lives in ../shared/tools beside the project)")
        return 0
    sizes = sorted(int(s) for s in args.docs.split(",") if s.strip())
    builds, commands, projection = [], [], None
    with tempfile.TemporaryDirectory(prefix="kg-build-") as tmp:
        base = args.keep or Path(tmp)
        base.mkdir(parents=True, exist_ok=True)
        seed_build = None
        if (ROOT / "data").is_dir():
            # twice: the first run's imports may come from disk (after a big build pushed them out of the
            # page cache: 1.3-1.9 s against 0.5-0.6 s); the second is what a user who builds again waits
            seeds = KG + ["build", str(ROOT / "data"), "--out", str(base / "out-seeds")]
            first, r = run(seeds), run(seeds)
            seed_build = {"seconds": r["seconds"], "first_seconds": first["seconds"], "peak_mib": r["peak_mib"],
                          **parse_summary(r["stdout"])}
        for n in sizes:
            row = build_size(n, args.seed, base, args.generator, args.memory_limit)
            if builds:
                prev = builds[-1]
                row["exponent"] = growth(prev["seconds"], row["seconds"], prev.get("works"), row.get("works"))
            builds.append(row)
            print(f"  {n} CVs: {row['seconds']} s ({row['cpu_seconds']} CPU-s), {row['peak_mib']} MiB, {row.get('works')} of "
                  f"{row['works_expected']} works, {row.get('people')} of {row['people_expected']} people, "
                  f"SHACL {row.get('shacl', row.get('error'))}", flush=True)
            save(args.json, {"builds": builds, "seed_build": seed_build})  # a long run keeps what it has
        largest = Path(builds[-1]["out"]) if builds and not builds[-1].get("status") else None
        if largest and not args.no_commands:
            commands = time_commands(largest, args.only)
            projection = None if args.only else projection_vs_duckdb(largest)
    text = markdown(builds, seed_build, commands, projection)
    limited = f"; --memory-limit {args.memory_limit}" if args.memory_limit else ""
    print(f"\n`kg build` on synthetic CVs (gen_corpus.py seed {args.seed}; {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.1f}{limited}):\n")
    print(text)
    save(args.json, {"builds": builds, "seed_build": seed_build, "commands": commands, "projection": projection})
    print(f"\nsaved {args.json}")
    failed = [r for r in builds if r.get("status") or r.get("works") != r["works_expected"]
              or r.get("shacl") != "conforms"]
    return 1 if any(r.get("status") for r in failed) else 0


if __name__ == "__main__":
    sys.exit(main())
