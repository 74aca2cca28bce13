"""Latency of the example queries in kg/data/queries/ on a synthetic graph of about 1M triples.

The graph follows docs/data-model.md: people, works with qualified authorships (ordinal,
equal contribution), venues, organizations with units, positions and periods of study with
supervisors, awards and talks; the default graph is the merged view and each synthetic CV
is a named graph holding its facts with kg:fromSource / kg:firstLine / kg:lastLine. A
share of works is listed by two CVs with a different title or year, so that the
disagreement query has work to do. It also times opening the store read-only with
kg.store.open_store, the way every command does.

Run: .venv/bin/python -m bench.bench_sparql [--triples 1000000] [--repeat 5]
Not part of the test suite.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

import pyoxigraph

from kg.query.examples import examples_dir, load_examples
from kg.query.sparql import run_query
from kg.query.terms import parse_bindings
from kg.store import open_store

ROOT = Path(__file__).resolve().parent.parent
KG = "https://kg.example/ns#"
ID = "https://kg.example/id/"
SCHEMA = "http://schema.org/"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
XSD = "http://www.w3.org/2001/XMLSchema#"

GIVEN = ["Ada", "Alan", "Grace", "Edsger", "Barbara", "Donald", "Frances", "John", "Radia", "Leslie",
         "Shafi", "Tim", "Judea", "Butler", "Silvio", "Yoshua", "Fei", "Andrew", "Daphne", "Jeff"]
FAMILY = ["Lovelace", "Turing", "Hopper", "Dijkstra", "Liskov", "Knuth", "Allen", "McCarthy", "Perlman",
          "Lamport", "Goldwasser", "Berners", "Pearl", "Lampson", "Micali", "Bengio", "Li", "Ng", "Koller", "Dean"]


def iri(path: str) -> str:
    return f"<{ID}{path}>"


def lit(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def typed(value, datatype: str) -> str:
    return f'"{value}"^^<{XSD}{datatype}>'


class Writer:
    """Collects N-Quads lines: default graph (merged view) and per-source graphs."""

    def __init__(self):
        self.lines: list[str] = []

    def add(self, s, p, o, g=None):
        p = p if p.startswith("<") else f"<{KG}{p}>" if not p.startswith("schema:") else f"<{SCHEMA}{p[7:]}>"
        self.lines.append(f"{s} {p} {o} {g} .\n" if g else f"{s} {p} {o} .\n")

    def typ(self, s, *classes, g=None):
        for c in classes:
            o = f"<{SCHEMA}{c[7:]}>" if c.startswith("schema:") else f"<{KG}{c}>"
            self.add(s, f"<{RDF_TYPE}>", o, g)


def synthetic_graph(works: int, seed: int = 7) -> tuple[list[str], dict]:
    """N-Quads lines for a graph with *works* works, and bindings for the example queries."""
    rng = random.Random(seed)
    w = Writer()
    n_people = max(50, works // 2)
    n_profiled = max(5, works // 30)
    people = []
    for i in range(n_people):
        name = f"{GIVEN[i % 20]} {FAMILY[(i // 20) % 20]} {i}"
        person = iri(f"person/p{i}")
        people.append((person, name))
        w.typ(person, "Person", "schema:Person")
        w.add(person, "name", lit(name))
        w.add(person, "schema:name", lit(name))
    orgs = []
    for i in range(60):
        org = iri(f"org/u{i}")
        w.typ(org, "Organization", "schema:Organization")
        w.add(org, "name", lit(f"University {i}"))
        w.add(org, "acronym", lit(f"U{i}"))
        unit = iri(f"org/u{i}/lab")
        w.typ(unit, "OrganizationalUnit", "Organization", "schema:Organization")
        w.add(unit, "name", lit(f"Lab {i}"))
        w.add(unit, "partOf", org)
        orgs.append((org, unit))
    venues = []
    for i in range(80):
        venue = iri(f"venue/v{i}")
        w.typ(venue, "Venue")
        w.add(venue, "name", lit(f"Conference on Topic {i}"))
        w.add(venue, "acronym", lit(f"CT{i}"))
        venues.append(venue)

    sources = []
    for k in range(n_profiled):
        person, name = people[k]
        source = iri(f"source/cv-{k}-md")
        sources.append(source)
        for g in (None, source):
            w.typ(source, "SourceDocument", g=g)
            w.add(source, "fileName", lit(f"cv-{k}.md"), g)
            w.add(source, "documentDate", typed(2010 + k % 15, "gYear"), g)
            w.add(source, "about", person, g)
        line = 10
        for j in range(2):  # positions
            org, unit = orgs[(k + j) % 60]
            pos = iri(f"position/p{k}/{j}")
            start = 2005 + (k + 3 * j) % 15
            w.add(person, "hasPosition", pos)
            w.typ(pos, "Position", "Job" if j else "Visit")
            w.add(pos, "holder", person)
            w.add(pos, "organization", unit if j else org)
            w.add(pos, "role", lit("Researcher"))
            w.add(pos, "startDate", typed(f"{start}-0{1 + j}", "gYearMonth"))
            w.add(pos, "endDate", typed(start + 3, "gYear"))
            for p, o in (("holder", person), ("fromSource", source), ("firstLine", typed(line, "integer")),
                         ("lastLine", typed(line + 2, "integer"))):
                w.add(pos, p, o, source)
            line += 3
        for j, level in enumerate(("master", "doctorate")):
            org, _ = orgs[(k + 7 * j) % 60]
            edu = iri(f"education/p{k}/{level}")
            w.add(person, "hasEducation", edu)
            w.typ(edu, "Education")
            w.add(edu, "holder", person)
            w.add(edu, "organization", org)
            w.add(edu, "degree", lit(f"{level.title()} in Computer Science"))
            w.add(edu, "degreeLevel", lit(level))
            w.add(edu, "startDate", typed(2000 + k % 10 + 2 * j, "gYear"))
            w.add(edu, "endDate", typed(2002 + k % 10 + 2 * j, "gYear"))
            w.add(edu, "supervisor", people[n_profiled + (k * 3 + j) % (n_people - n_profiled)][0])
            for p, o in (("holder", person), ("fromSource", source), ("firstLine", typed(line, "integer")),
                         ("lastLine", typed(line + 3, "integer"))):
                w.add(edu, p, o, source)
            line += 4
        for j in range(3):
            award = iri(f"award/p{k}/{j}")
            w.add(person, "receivedAward", award)
            w.typ(award, "Award")
            w.add(award, "name", lit(f"Prize {j} of Society {k % 40}"))
            w.add(award, "year", typed(2008 + (k + j) % 16, "gYear"))
            for p, o in (("fromSource", source), ("firstLine", typed(line, "integer")),
                         ("lastLine", typed(line, "integer"))):
                w.add(award, p, o, source)
            line += 1
        for j in range(2):
            talk = iri(f"talk/p{k}/{j}")
            w.add(person, "gaveTalk", talk)
            w.typ(talk, "Talk")
            w.add(talk, "title", lit(f"Talk {j} by {name}"))
            w.add(talk, "place", lit(f"City {j}"))
            w.add(talk, "date", typed(f"20{10 + (k + j) % 14}-0{1 + j}", "gYearMonth"))
            for p, o in (("fromSource", source), ("firstLine", typed(line, "integer")),
                         ("lastLine", typed(line, "integer"))):
                w.add(talk, p, o, source)
            line += 1

    # Each profiled person has a circle of collaborators; works draw authors from it.
    circle = {k: rng.sample(range(n_profiled, n_people), 40) for k in range(n_profiled)}
    for i in range(works):
        k = i % n_profiled
        source = sources[k]
        others = rng.sample(circle[k], rng.randint(2, 6))
        if rng.random() < 0.1:  # a link to another profiled person's circle
            others.append(circle[(k + 1) % n_profiled][0])
        place = rng.randint(0, len(others))
        authors = list(dict.fromkeys(others[:place] + [k] + others[place:]))
        work = iri(f"work/w{i}")
        year = 2000 + rng.randint(0, 24)
        title = f"Work {i} on scalable systems"
        w.typ(work, "Work", "Article", "schema:CreativeWork", "schema:ScholarlyArticle")
        w.add(work, "title", lit(title))
        w.add(work, "schema:name", lit(title))
        w.add(work, "year", typed(year, "gYear"))
        w.add(work, "schema:datePublished", typed(year, "gYear"))
        w.add(work, "status", lit("published"))
        w.add(work, "publishedIn", venues[rng.randrange(80)])
        w.add(work, "title", lit(title), source)
        w.add(work, "year", typed(year, "gYear"), source)
        second = sources[(k + 1) % n_profiled] if rng.random() < 0.05 else None
        if second:  # an older CV listing it under another title and year
            w.add(work, "title", lit(title + " (preprint)"), second)
            w.add(work, "year", typed(year - 1, "gYear"), second)
            w.add(work, "alternativeTitle", lit(title + " (preprint)"))
            w.add(work, "sourcesDisagreeOn", f"<{KG}title>")  # the merge's marks (docs/data-model.md)
            w.add(work, "sourcesDisagreeOn", f"<{KG}year>")
        equal = rng.random() < 0.15
        for ordinal, a in enumerate(authors, 1):
            person, name = people[a]
            ship = iri(f"authorship/w{i}/p{a}")
            w.add(work, "hasAuthor", person)
            w.add(work, "schema:author", person)
            w.add(work, "hasAuthorship", ship)
            w.typ(ship, "Authorship")
            w.add(ship, "author", person)
            w.add(ship, "ordinal", typed(ordinal, "integer"))
            w.add(ship, "printedName", lit(name + ("*" if equal and ordinal <= 2 else "")))
            if equal and ordinal <= 2:
                w.add(ship, "equalContribution", typed("true", "boolean"))
            for g in filter(None, (source, second)):
                w.add(ship, "author", person, g)
                w.add(ship, "ordinal", typed(ordinal, "integer"), g)
                w.add(work, "hasAuthorship", ship, g)
        for g in filter(None, (source, second)):  # the authorships' lines are their work's
            for p, o in (("fromSource", g), ("firstLine", typed(100 + i % 500, "integer")),
                         ("lastLine", typed(102 + i % 500, "integer"))):
                w.add(work, p, o, g)
    bindings = {
        "name": people[0][1], "name1": people[0][1], "name2": people[circle[0][0]][1],
        "institution": "U3", "year": "2012",
    }
    return w.lines, bindings


def build_store(target: int, directory: Path) -> tuple[int, float, dict]:
    """Write a store of about *target* quads under *directory*/store; (quads, seconds, bindings)."""
    works = max(100, target // 80)
    lines, bindings = synthetic_graph(works)
    nq = directory / "synthetic.nq"
    nq.write_text("".join(lines), encoding="utf-8")
    started = time.perf_counter()
    store = pyoxigraph.Store(str(directory / "store"))
    store.bulk_load(path=str(nq), format=pyoxigraph.RdfFormat.N_QUADS)
    store.flush()
    store.optimize()
    quads = len(store)
    del store
    nq.unlink()
    return quads, time.perf_counter() - started, bindings


QUERY_BINDINGS = {
    "coauthors": ["name"], "shared-collaborators": ["name1", "name2"], "people-at-institution": ["institution", "year"],
    "fact-sources": ["name"], "two-hops": ["name"], "positions-timeline": ["name"], "venues-of-person": ["name"],
    "talks": ["name"], "works-of-person": ["name"], "person-card": ["name"], "awards-by-year": ["name"],
}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--triples", type=int, default=1_000_000, help="about how many quads to generate")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per query (median reported)")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="kg-bench-sparql-") as tmp:
        out = Path(tmp)
        quads, load_seconds, values = build_store(args.triples, out)
        opens = []
        for _ in range(5):
            started = time.perf_counter()
            store = open_store(out)
            opens.append(time.perf_counter() - started)
            del store
        store = open_store(out)
        default = len(list(store.quads_for_pattern(None, None, None, pyoxigraph.DefaultGraph())))
        print(f"synthetic graph: {quads:,} quads ({default:,} in the default graph, "
              f"{len(list(store.named_graphs())):,} named graphs); bulk load {load_seconds:.1f} s")
        print(f"open_store (read-only): median {statistics.median(opens) * 1000:.1f} ms, "
              f"max {max(opens) * 1000:.1f} ms")
        print()
        print(f"{'query':<24} {'bindings':<28} {'rows':>7} {'first ms':>9} {'median ms':>10}")
        for example in load_examples(examples_dir()):
            names = QUERY_BINDINGS.get(example.name, [])
            bindings = parse_bindings([f"{n}={values[n]}" for n in names])
            timings = []
            rows = 0
            for _ in range(args.repeat + 1):
                started = time.perf_counter()
                rows = len(run_query(store, example.query, bindings=bindings))
                timings.append(time.perf_counter() - started)
            shown = ", ".join(names) or "-"
            print(f"{example.name:<24} {shown:<28} {rows:>7} {timings[0] * 1000:>9.1f} "
                  f"{statistics.median(timings[1:]) * 1000:>10.1f}")
        del store


if __name__ == "__main__":
    main()
