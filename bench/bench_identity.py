"""Identity alone: how well and how fast kg tells people apart on crowded labelled corpora.

For each size in ``--mentions`` it generates a crowded corpus with :mod:`bench.identity_corpus`
(BibTeX files of research groups sharing common names, movers, initials-only lists, printed
variants), reads it with kg's readers (not timed), then runs identity alone through
:mod:`bench.identity_adapter` in a forked child and reports its seconds and peak memory (the
child's high-water resident set above its start, so the documents read before are not
counted), the growth exponent between successive sizes (log t2/t1 / log m2/m1), and the scores
of its clustering of author mentions against the truth: pairwise and B-cubed precision, recall
and F1 (:mod:`bench.identity_scores`), false merges (clusters joining several people) and split
people. The goal of issue 13: precision >= 0.99 and B3 F1 >= 0.97; 100k mentions in under a minute.

Then the seed documents (``data/`` with its curation file): the expectations the identity issue
names (Zheng Wang and Zeke Wang apart; "Zhang Tianwei" is Tianwei Zhang; the thesis supervisors
join the co-authors of the same name), and every cluster that joins differently printed names,
for review. Then the real corpus in ``../shared/corpus`` scored against its gold
``distinct_people`` per document (:mod:`bench.identity_gold`; skipped where absent), and the
people and works found on 100 generated CVs (``--cvs N``) against the generator's truth, mention by
mention (:mod:`bench.identity_cvs`; skipped where absent).

Run: ``.venv/bin/python -m bench.bench_identity [--mentions 10000,100000,1000000] [--seed 1]
[--keep DIR] [--no-seeds] [--no-corpus] [--no-cvs] [--cvs N] [--corpus DIR] [--generator FILE] [--json FILE]``. Default: 10k mentions (about 15 s); ``make bench-identity``
runs 10k and 100k. The table is printed as markdown and saved as JSON in ``bench/results/``.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import re
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from bench.bench_graph import _kib  # one reader of /proc/self/status
from bench.build_stages import growth
from bench.identity_corpus import generate, read_truth, write
from bench.identity_scores import bcubed_scores, cluster_errors, pairwise_scores

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"

# What the identity issue expects of the seeds: (together?, name a, role a, name b, role b); a role
# of None takes every mention of the name.
SEED_EXPECTATIONS = [
    (False, "Zheng Wang", None, "Zeke Wang", None),
    (True, "Zhang Tianwei", None, "Tianwei Zhang", "author"),
    (True, "Zheng Wang", "supervisor", "Zheng Wang", "author"),
    (True, "Jie Xu", "supervisor", "Jie Xu", "author"),
]


def in_child(step):
    """Run *step* in a forked child: ``(seconds, peak MiB above the child's start, its result)``."""
    read, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            start = _kib("VmRSS")
            t0, c0 = time.perf_counter(), time.process_time()
            result = step()
            # wall seconds, peak MiB, result; CPU seconds beside it (the machine is shared: wall time
            # grows with the load, CPU time much less)
            payload = (time.perf_counter() - t0, (_kib("VmHWM") - start) / 1024, (result, time.process_time() - c0))
        except BaseException as err:  # report, never hang the parent
            payload = (float("nan"), float("nan"), f"failed: {err!r}")
        with os.fdopen(write_end, "wb") as handle:
            pickle.dump(payload, handle)
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read, "rb") as handle:
        payload = pickle.load(handle)
    os.waitpid(pid, 0)
    return payload


def _key_of(place: str | None) -> str | None:
    """The BibTeX key in a work's place (``@inproceedings{w12}`` -> ``w12``)."""
    found = re.search(r"\{([^}]*)\}", place or "")
    return found.group(1) if found else place


def read_corpus(folder: Path, cache: bool = False):
    """The documents kg reads from *folder*; with *cache*, kept in ``documents.pickle`` there and
    read back from it on the next run (reading 1M mentions takes longer than resolving them)."""
    from kg.sources import read_document

    pickled = folder / "documents.pickle"
    if cache and pickled.exists():
        with open(pickled, "rb") as handle:
            return pickle.load(handle)
    docs = [read_document(p) for p in sorted(folder.glob("*.bib"))]
    if cache:
        with open(pickled, "wb") as handle:
            pickle.dump(docs, handle, protocol=pickle.HIGHEST_PROTOCOL)
    return docs


def score_corpus(folder: Path, sizes_label: int, cache: bool = False) -> dict:
    """Identity on one generated corpus: timing in a child process, then the scores."""
    from bench.identity_adapter import person_clusters

    t0 = time.perf_counter()
    docs = read_corpus(folder, cache)
    read_seconds = time.perf_counter() - t0
    truth = read_truth(folder)

    def step():
        clusters = person_clusters(docs)
        predicted = {(Path(m.document).name, _key_of(m.work), m.position): person
                     for m, person in clusters.items() if m.role == "author"}
        return predicted

    seconds, mib, outcome = in_child(step)
    predicted, cpu = outcome if isinstance(outcome, tuple) else (outcome, float("nan"))
    row = {"mentions": len(truth), "people": len(set(truth.values())), "read_seconds": round(read_seconds, 2),
           "seconds": round(seconds, 2), "cpu_seconds": round(cpu, 2), "peak_mib": round(mib, 1)}
    if isinstance(predicted, str):
        row["error"] = predicted
        return row
    row["scored"] = sum(1 for m in predicted if m in truth)
    row["unmatched"] = len(truth) - row["scored"]
    row["clusters"] = len({p for m, p in predicted.items() if m in truth})
    row["pairwise"] = pairwise_scores(predicted, truth)._asdict()
    row["bcubed"] = bcubed_scores(predicted, truth)._asdict()
    row.update(cluster_errors(predicted, truth)._asdict())
    return row


def _name_key(name: str) -> tuple[str, ...]:
    return tuple(sorted(re.findall(r"[a-z]+", name.lower())))


def check_seeds(data: Path) -> dict:
    """The seed expectations, and the clusters that join differently printed names."""
    from bench.identity_adapter import person_clusters
    from kg.sources import find_sources, read_source

    curation = data / "curation.yaml"
    found, _ = find_sources(data, exclude=(curation.name,))
    docs = [read_source(f) for f in found]
    clusters = person_clusters(docs, curation if curation.exists() else None)

    def clusters_of(name, role):
        return {p for m, p in clusters.items() if _name_key(m.name) == _name_key(name) and role in (None, m.role)}

    checks = []
    for together, a, role_a, b, role_b in SEED_EXPECTATIONS:
        ca, cb = clusters_of(a, role_a), clusters_of(b, role_b)
        ok = bool(ca and cb) and (ca == cb and len(ca) == 1 if together else not (ca & cb))
        side_a, side_b = f"{a}{f' ({role_a})' if role_a else ''}", f"{b}{f' ({role_b})' if role_b else ''}"
        what = f"{side_a} {'=' if together else '!='} {side_b}"
        checks.append({"expectation": what, "holds": ok, "clusters": [len(ca), len(cb)]})
    names = defaultdict(set)
    for m, p in clusters.items():
        names[p].add(m.name)
    joined = sorted(sorted(v) for v in names.values() if len({_name_key(n) for n in v}) > 1)
    return {"mentions": len(clusters), "clusters": len(names), "checks": checks, "joined_names": joined}


def markdown(rows: list[dict]) -> str:
    head = ("| mentions | people | clusters | identity s (CPU s) | peak MiB | exponent | pairwise P / R / F1 "
            "| B3 P / R / F1 | false merges | split people |\n|---|---|---|---|---|---|---|---|---|---|")
    lines = [head]
    for r in rows:
        if "error" in r:
            lines.append(f"| {r['mentions']} | {r['people']} | {r['error']} |")
            continue
        pw, b3 = r["pairwise"], r["bcubed"]
        exp = "" if r.get("exponent") is None else f"{r['exponent']:.2f}"
        lines.append(f"| {r['mentions']:,} | {r['people']:,} | {r['clusters']:,} | {r['seconds']:.2f} "
                     f"({r.get('cpu_seconds', float('nan')):.2f}) | "
                     f"{r['peak_mib']:.0f} | {exp} | {pw['precision']:.3f} / {pw['recall']:.3f} / {pw['f1']:.3f} | "
                     f"{b3['precision']:.3f} / {b3['recall']:.3f} / {b3['f1']:.3f} | {r['false_merges']} | "
                     f"{r['split_people']} |")
    return "\n".join(lines)


def save(path: Path, result: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, indent=1) + "\n")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mentions", default="10000", help="comma-separated corpus sizes (author mentions)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=Path, help="write the corpora here (one folder per size) and keep them, "
                        "with the documents read (a second run with the same folder reads them back)")
    parser.add_argument("--no-seeds", action="store_true", help="skip the seed documents in data/")
    parser.add_argument("--no-corpus", action="store_true", help="skip the corpus in ../shared/corpus")
    parser.add_argument("--no-cvs", action="store_true", help="skip the generated CVs of ../shared/tools/gen_corpus.py")
    parser.add_argument("--cvs", type=int, default=100, help="how many CVs to generate and score (default 100)")
    parser.add_argument("--generator", type=Path, default=ROOT.parent / "shared" / "tools" / "gen_corpus.py",
                        help="the CV generator (gen_corpus.py); pass it from a worktree")
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus",
                        help="the real corpus (docs/ and gold/); pass it from a worktree")
    parser.add_argument("--json", type=Path, default=RESULTS / "identity.json")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.mentions.split(",") if s.strip()]

    rows = []
    with tempfile.TemporaryDirectory(prefix="kg-identity-") as tmp:
        base = args.keep or Path(tmp)
        for n in sizes:
            folder = base / f"mentions-{n}"
            if not (args.keep and (folder / "documents.pickle").exists()):
                docs, truth, people = generate(n, args.seed)
                write(folder, docs, truth, people)
            row = score_corpus(folder, n, cache=bool(args.keep))
            if rows and "error" not in row and "error" not in rows[-1]:  # of CPU time: the load varies
                row["exponent"] = growth(rows[-1]["cpu_seconds"], row["cpu_seconds"], rows[-1]["mentions"],
                                         row["mentions"])
            rows.append(row)
            print(f"  {n:,} mentions: identity {row.get('seconds')} s (reading {row['read_seconds']} s); "
                  + markdown([row]).splitlines()[-1], flush=True)
            save(args.json, {"corpora": rows})  # a long run keeps what it measured so far
    print(f"\nIdentity alone on generated crowded corpora (seed {args.seed}; {os.cpu_count()} cores):\n")
    print(markdown(rows))
    for r in rows:
        if r.get("unmatched"):
            print(f"- {r['unmatched']} of {r['mentions']} labelled mentions not found in what kg read (not scored)")
    result = {"corpora": rows}
    if not args.no_seeds and (ROOT / "data").is_dir():
        seeds = check_seeds(ROOT / "data")
        result["seeds"] = seeds
        print(f"\nSeeds (data/): {seeds['mentions']} person mentions in {seeds['clusters']} clusters")
        for c in seeds["checks"]:
            print(f"- {'holds' if c['holds'] else 'FAILS'}: {c['expectation']}")
        print(f"- clusters joining differently printed names: {len(seeds['joined_names'])}")
        for names in seeds["joined_names"]:
            print(f"  - {' | '.join(names)}")
    if not args.no_corpus:
        from bench.identity_gold import check_corpus
        from bench.identity_gold import markdown as corpus_markdown

        corpus = check_corpus(args.corpus)
        if corpus is None:
            print(f"\nno corpus at {args.corpus}: its distinct_people are not scored")
        else:
            result["corpus"] = corpus
            print("\nCorpus (../shared/corpus, all documents resolved together; pairs of one printed name "
                  "per document, split where the gold's distinct_people splits):\n")
            print(corpus_markdown(corpus))
    if not args.no_cvs:
        from bench.identity_cvs import check_cvs, cvs_markdown

        cvs = check_cvs(args.cvs, generator=args.generator)
        if cvs is None:
            print(f"\nno {args.generator}: the generated CVs are not measured")
        else:
            result["cvs"] = cvs
            print(f"\nGenerated CVs (gen_corpus.py seed 1): {cvs_markdown(cvs)}")
    save(args.json, result)
    print(f"\nsaved {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
