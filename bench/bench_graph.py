"""Benchmark of the graph projection and analyses on a synthetic co-authorship graph.

Builds synthetic works for ``--people`` people (default 100,000) in research groups, with
enough works for about 1M co-author pairs, writes them as RDF into an in-memory
**pyoxigraph store** shaped like ``docs/data-model.md`` (persons, works, venues,
``kg:hasAuthor``), then times the real projection (``kg.graphs.projections.coauthor_graph(store)``)
and each analysis in ``kg.graphs.analyses`` with the methods they pick automatically for a graph
of this size (sampled betweenness, diameter bound, igraph backends).

Each step runs in a forked child process, so its peak memory is measured on its own:
"peak MiB" is the child's high-water resident set (VmHWM) minus its resident set when it
started (the projected graph it inherits is not counted). Not part of the test suite.

Run: ``.venv/bin/python -m bench.bench_graph [--people 100000] [--works N] [--seed 0]``
"""

from __future__ import annotations

import argparse
import os
import pickle
import random
import sys
import time

GROUP = 50  # people per research group
VENUES = 200


def synthetic_works(people: int, works: int, seed: int = 0) -> list[tuple[int, int, int, list[int]]]:
    """``(work, year, venue, authors)`` tuples: 2-8 authors mostly from one group, sometimes an outsider."""
    rng = random.Random(seed)
    groups = max(1, people // GROUP)
    out = []
    for w in range(works):
        g = rng.randrange(groups)
        lo = g * GROUP
        hi = min(people, lo + GROUP)
        size = min(hi - lo, rng.choice((2, 3, 3, 4, 4, 5, 5, 6, 7, 8)))
        authors = rng.sample(range(lo, hi), size)
        if rng.random() < 0.3:
            outsider = rng.randrange(people)
            if outsider not in authors:
                authors.append(outsider)
        out.append((w, rng.randrange(1995, 2025), rng.randrange(VENUES), authors))
    return out


def ntriples(people: int, works) -> bytes:
    kg = "https://kg.example/ns#"
    base = "https://kg.example/id/"
    xsd = "http://www.w3.org/2001/XMLSchema#"
    rdf_type = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>"
    lines = []
    for p in range(people):
        lines.append(f"<{base}person/p{p}> {rdf_type} <{kg}Person> .")
        lines.append(f'<{base}person/p{p}> <{kg}name> "Person {p}" .')
    for v in range(VENUES):
        lines.append(f"<{base}venue/v{v}> {rdf_type} <{kg}Venue> .")
        lines.append(f'<{base}venue/v{v}> <{kg}acronym> "V{v}" .')
    for w, year, venue, authors in works:
        s = f"<{base}work/w{w}>"
        lines.append(f"{s} {rdf_type} <{kg}Work> .")
        lines.append(f'{s} <{kg}title> "Work {w}" .')
        lines.append(f'{s} <{kg}year> "{year}"^^<{xsd}gYear> .')
        lines.append(f"{s} <{kg}publishedIn> <{base}venue/v{venue}> .")
        for p in authors:
            lines.append(f"{s} <{kg}hasAuthor> <{base}person/p{p}> .")
    for p in range(0, people, 1000):  # a few profiled people
        lines.append(f"<{base}source/s{p}> <{kg}about> <{base}person/p{p}> .")
    return ("\n".join(lines) + "\n").encode("utf-8")


def _kib(field: str) -> int:
    with open("/proc/self/status") as handle:
        for line in handle:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def measured(step):
    """Run *step* in a forked child; return (seconds, peak MiB above the child's start, note)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        os.close(read)
        try:
            start_rss = _kib("VmRSS")
            t0 = time.perf_counter()
            note = step()
            seconds = time.perf_counter() - t0
            payload = (seconds, (_kib("VmHWM") - start_rss) / 1024, str(note or ""))
        except BaseException as err:  # report, never hang the parent
            payload = (float("nan"), float("nan"), f"failed: {err!r}")
        with os.fdopen(write, "wb") as handle:
            pickle.dump(payload, handle)
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as handle:
        payload = pickle.load(handle)
    os.waitpid(pid, 0)
    return payload


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, default=100_000)
    parser.add_argument("--works", type=int, default=None, help="default: 1.3 x people")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    n_works = args.works or int(args.people * 1.3)

    import pyoxigraph

    from kg.graphs import analyses as an
    from kg.graphs.projections import coauthor_graph

    rows = []

    t0 = time.perf_counter()
    works = synthetic_works(args.people, n_works, args.seed)
    data = ntriples(args.people, works)
    triples = data.count(b"\n")
    rows.append(("synthesize works + N-Triples", time.perf_counter() - t0, float("nan"),
                 f"{n_works} works, {triples} triples"))

    t0 = time.perf_counter()
    store = pyoxigraph.Store()
    store.bulk_load(input=data, format=pyoxigraph.RdfFormat.N_TRIPLES)
    rows.append(("load pyoxigraph store (in memory)", time.perf_counter() - t0, float("nan"), ""))
    del data

    def project():
        g = coauthor_graph(store)
        return f"{g.number_of_nodes()} nodes, {g.number_of_edges()} edges"

    rows.append(("projection: coauthor_graph(store)", *measured(project)))

    graph = coauthor_graph(store)
    hub = max(graph.degree(), key=lambda item: (item[1], item[0]))[0]
    rng = random.Random(args.seed)
    nodes = list(graph)
    a, b = rng.choice(nodes), rng.choice(nodes)
    neighbour = next(iter(graph.neighbors(hub)))

    steps = [
        ("top_collaborators (highest degree)", lambda: f"{len(an.top_collaborators(graph, hub))} rows"),
        ("shared_collaborators (hub + neighbour)",
         lambda: f"{len(an.shared_collaborators(graph, [hub, neighbour]))} rows"),
        ("collaboration_path (random pair)", lambda: f"{len(an.collaboration_path(graph, a, b))} hops"),
        ("centrality (auto)", lambda: an.centrality(graph).attrs["method"]),
        ("communities (louvain)", lambda: f"{len(an.communities(graph))} communities"),
        ("brokers (communities included)", lambda: f"{len(an.brokers(graph, n=None))} brokers"),
        ("collaborations_per_year (all)", lambda: f"{len(an.collaborations_per_year(graph))} years"),
        ("collaborations_per_year (hub)", lambda: f"{len(an.collaborations_per_year(graph, hub))} years"),
        ("venues_per_person (all)", lambda: f"{len(an.venues_per_person(graph))} rows"),
        ("graph_statistics (auto)", lambda: "; ".join(
            f"{s}={v}" for s, v, m in an.graph_statistics(graph).itertuples(index=False)
            if s in ("triangles", "diameter", "average_clustering")) + " (diameter: bound)"),
    ]
    for name, step in steps:
        rows.append((name, *measured(step)))

    print(f"synthetic co-authorship graph: {args.people} people, {n_works} works, "
          f"{graph.number_of_edges()} co-author pairs; {os.cpu_count()} cores")
    width = max(len(r[0]) for r in rows)
    print(f"{'step':<{width}}  {'seconds':>8}  {'peak MiB':>8}  note")
    for name, seconds, mib, note in rows:
        mib_text = "" if mib != mib else f"{mib:8.0f}"
        print(f"{name:<{width}}  {seconds:8.2f}  {mib_text:>8}  {note}")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
