"""Benchmark of the interactive HTML graph: page size, build time and time to settle.

Builds pages for synthetic co-author graphs of 1k and 5k people (with organizations), opens
each in headless chromium with every network request refused, and measures the time from
navigation until the page sets its ready flag (``window.kgGraph.ready``: the layout has
settled and physics is off). Not part of the test suite.

Run: ``.venv/bin/python -m bench.bench_html [--sizes 1000 5000] [--repeat 3]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import networkx as nx

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
VENUES = ["OSDI", "SOSP", "NSDI", "ATC", "EuroSys", "ASPLOS", "SC", "ICML", "NeurIPS", "VLDB"]


def synthetic_projections(people: int, *, seed: int = 1) -> tuple[nx.Graph, nx.Graph]:
    """A co-author graph of *people* people and a person–organization graph, like the projections.

    Co-authorships follow a clustered power-law graph (about three links per person, as in
    real collaboration networks); one person in a hundred is profiled; there is one
    organization per 25 people and each person studied or worked at one or two of them.
    """
    rng = random.Random(seed)
    skeleton = nx.powerlaw_cluster_graph(people, 3, 0.3, seed=seed)
    iri = [f"https://kg.example/id/person/p{i:05d}" for i in range(people)]
    co = nx.Graph()
    works_of = {i: set() for i in range(people)}
    edge_works = {}
    w = 0
    for u, v in sorted(skeleton.edges):
        joint = 1 + min(int(rng.expovariate(0.9)), 9)
        items = []
        for _ in range(joint):
            year = rng.randint(2000, 2024)
            items.append({
                "iri": f"https://kg.example/id/work/w{w:06d}",
                "title": f"Study number {w} of large systems",
                "year": year,
                "venue": rng.choice(VENUES),
            })
            works_of[u].add(w)
            works_of[v].add(w)
            w += 1
        edge_works[u, v] = items
    for i in range(people):
        co.add_node(iri[i], name=f"Person {i:05d} Example", kind="person", profiled=(i % 100 == 0),
                    works=len(works_of[i]), first_year=None, last_year=None)
    first, last = {}, {}
    for (u, v), items in edge_works.items():
        co.add_edge(iri[u], iri[v], joint_works=len(items), works=items, weight=len(items))
        for it in items:
            for p in (u, v):
                first[p] = min(first.get(p, 9999), it["year"])
                last[p] = max(last.get(p, 0), it["year"])
    for p in first:
        co.nodes[iri[p]]["first_year"] = first[p]
        co.nodes[iri[p]]["last_year"] = last[p]
    org = nx.Graph()
    orgs = max(1, people // 25)
    for k in range(orgs):
        org.add_node(f"https://kg.example/id/org/o{k:04d}", name=f"Institute {k} of Technology",
                     kind="organization", parent=None)
    for i in range(people):
        org.add_node(iri[i], **co.nodes[iri[i]])
        for _ in range(rng.choice((1, 1, 2))):
            k = rng.randrange(orgs)
            start = rng.randint(2000, 2022)
            org.add_edge(iri[i], f"https://kg.example/id/org/o{k:04d}",
                         relation=rng.choice(("education", "position")), role="Researcher",
                         start=str(start), end=str(start + rng.randint(1, 5)), ongoing=False)
    return co, org


def settle_seconds(browser, path: Path) -> tuple[float, dict]:
    """Seconds from navigation until the page's ready flag, and the page's own counts."""
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    url = path.as_uri()
    page.route("**/*", lambda route: route.continue_() if route.request.url == url else route.abort())
    start = time.perf_counter()
    page.goto(url)
    page.wait_for_selector("html[data-ready=true]", state="attached", timeout=120_000)
    elapsed = time.perf_counter() - start
    counts = page.evaluate("({nodes: kgGraph.nodes.length, edges: kgGraph.edges.length, readyMs: kgGraph.readyMs})")
    # a click's work: highlight the neighbourhood and fill the side panel (script time only)
    counts["selectMs"] = page.evaluate(
        "(() => { const t = performance.now(); kgGraph.select(0); return performance.now() - t; })()")
    page.close()
    if errors:
        raise SystemExit(f"{path.name}: page errors: {errors[:3]}")
    return elapsed, counts


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 5000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    from kg.outputs.html.page import graph_html

    rows = []
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for people in args.sizes:
            co, org = synthetic_projections(people)
            t0 = time.perf_counter()
            page = graph_html(co, org)
            build = time.perf_counter() - t0
            path = Path(tmp) / f"graph-{people}.html"
            path.write_text(page, encoding="utf-8")
            times, selects = [], []
            for _ in range(args.repeat):
                seconds, counts = settle_seconds(browser, path)
                times.append(seconds)
                selects.append(counts["selectMs"])
            rows.append((people, counts["nodes"], counts["edges"], path.stat().st_size, build,
                         statistics.median(times), max(times), statistics.median(selects)))
        browser.close()
    print(f"{'people':>7} {'nodes':>6} {'edges':>6} {'size MB':>8} {'build s':>8} {'settle s (median)':>18} "
          f"{'max':>6} {'select ms':>10}")
    for people, n, e, size, build, med, worst, select in rows:
        print(f"{people:>7} {n:>6} {e:>6} {size / 1e6:>8.2f} {build:>8.2f} {med:>18.2f} {worst:>6.2f} {select:>10.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
