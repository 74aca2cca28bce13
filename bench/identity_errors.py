"""Why identity errs on a labelled corpus: false merges by the rule that made them, missed merges by cause.

Precision loss is decomposed exactly: replaying the merges identity logged, in order, each union of
clusters A and B adds |A| x |B| predicted pairs, of which the pairs of different true people are
wrong; those are charged to the merge's rule (and to whether its two sides were in one document).
Recall loss: for each true person split over several clusters, each pair of its clusters (with
n_i and n_j of its mentions) misses n_i x n_j pairs, charged to a cause: a refusal logged between
them, one document, a person who moved between groups, a guest appearance in another group's
list, and whether the two sides share a printed name or only an initials form.

Run: ``.venv/bin/python -m bench.identity_errors FOLDER [--top 10]`` on a folder written by
:mod:`bench.identity_corpus` (``bench.bench_identity --keep DIR`` keeps them).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

from bench.bench_identity import _key_of, read_corpus
from bench.identity_corpus import read_truth
from bench.identity_scores import bcubed_scores, pairwise_scores


def _groups_of(folder: Path) -> dict[str, set[str]]:
    """Person -> the group documents (``group-0007.bib``) they were a member of."""
    out = {}
    with open(folder / "people.tsv", encoding="utf-8") as handle:
        next(handle)
        for line in handle:
            pid, _, groups = line.rstrip("\n").split("\t")
            out[pid] = {f"group-{int(g):04d}.bib" for g in groups.split(",") if g}
    return out


def run(folder: Path):
    """Identity's nodes, clusters and log on the corpus, and each node's true people."""
    from kg.identity.clusters import Cluster
    from kg.identity.curation import Curation
    from kg.identity.evidence import Passes
    from kg.identity.keys import title_key
    from kg.identity.mentions import collect
    from kg.identity.people import run_passes
    from kg.records import Work

    docs = read_corpus(folder, cache=True)
    truth = read_truth(folder)
    curation = Curation()
    mentions = collect(docs, curation)
    passes = Passes(mentions, Cluster.of(mentions.nodes))
    run_passes(passes, curation)
    node_truth: dict[int, Counter] = defaultdict(Counter)
    for doc in docs:
        name = Path(doc.path).name
        for fact in doc.facts:
            if isinstance(fact, Work):
                key = _key_of(fact.span.place)
                for i, a in enumerate(fact.authors):
                    node = mentions.node_of[(doc.path, title_key(fact.title), curation.mention_key(a.name, fact.title))]
                    if (name, key, i) in truth:
                        node_truth[node][truth[(name, key, i)]] += 1
    return mentions, passes, node_truth


def false_merges(mentions, passes, node_truth) -> tuple[Counter, Counter, list]:
    """Wrong pairs per rule, merges per rule, and the worst merges (wrong pairs, rule, evidence)."""
    parent = {i: i for i in node_truth}
    content = {i: Counter(c) for i, c in node_truth.items()}

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    wrong_by, count_by, worst = Counter(), Counter(), []
    inside = sum(sum(c.values()) ** 2 - sum(n * n for n in c.values()) for c in node_truth.values()) // 2
    if inside:
        wrong_by["one node holds two people (one name printed twice on a work)"] += inside
    for d in passes.log:
        if not d.merged or d.kind != "person":
            continue
        a, b = d.subject, d.related[0]
        if a not in parent or b not in parent:
            continue
        ra, rb = find(a), find(b)
        if ra == rb:
            continue
        ca, cb = content[ra], content[rb]
        total = sum(ca.values()) * sum(cb.values())
        right = sum(n * cb[t] for t, n in ca.items())
        where = "one document" if len(set(d.sources)) == 1 else "two documents"
        rule = f"{d.rule} [{where}]"
        if total - right:
            wrong_by[rule] += total - right
            count_by[rule] += 1
            worst.append((total - right, rule, d.evidence))
        parent[rb] = ra
        content[ra] = ca + cb
        del content[rb]
    return wrong_by, count_by, sorted(worst, reverse=True)


def missed_merges(folder: Path, mentions, passes, node_truth, examples: dict | None = None) -> Counter:
    """Missed pairs per cause, over every pair of clusters that split one true person."""
    from kg.identity.keys import person_key

    groups = _groups_of(folder)
    cl = passes.cl
    per: dict[str, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))  # person -> root -> nodes
    for node, c in node_truth.items():
        for t in c:
            per[t][cl.find(node)].append(node)
    refused: set[tuple[int, int]] = set()
    reason: dict[tuple[int, int], str] = {}
    for d in passes.log:
        if d.kind == "person" and not d.merged and d.related and isinstance(d.related[0], int):
            ra, rb = cl.find(d.subject), cl.find(d.related[0])
            refused.add((ra, rb))
            refused.add((rb, ra))
            reason[(ra, rb)] = reason[(rb, ra)] = d.rule.split(": ")[-1] if "refused" in d.rule else d.rule
    missed: Counter = Counter()
    nodes = mentions.nodes
    for t, roots in per.items():
        items = sorted(roots.items())
        for i, (ra, na) in enumerate(items):
            for rb, nb in items[i + 1:]:
                pairs = sum(node_truth[x][t] for x in na) * sum(node_truth[x][t] for x in nb)
                da = {nodes[x].document.rsplit("/", 1)[-1] for x in na}
                db = {nodes[x].document.rsplit("/", 1)[-1] for x in nb}
                keys_a = {person_key(nodes[x].name) for x in na}
                keys_b = {person_key(nodes[x].name) for x in nb}
                names = "a printed name in common" if keys_a & keys_b else "no printed name in common"
                if (ra, rb) in refused:
                    cause = f"refused or kept apart: {reason[(ra, rb)]}"
                elif da & db:
                    cause = "one document"
                elif not (da - groups[t]) and not (db - groups[t]) and len(groups[t]) > 1:
                    cause = "a mover's two groups"
                elif (da - groups[t]) or (db - groups[t]):
                    cause = "a guest appearance in another group's list"
                else:
                    cause = "two documents of the person's group"
                missed[f"{cause}; {names}"] += pairs
                if examples is not None:
                    examples.setdefault(f"{cause}; {names}", []).append(
                        (pairs, t, sorted({nodes[x].name for x in na}), sorted(da), sorted({nodes[x].name for x in nb}),
                         sorted(db)))
    return missed


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--top", type=int, default=8)
    parser.add_argument("--examples", type=int, default=0, help="print this many examples of each missed cause")
    args = parser.parse_args(argv)
    mentions, passes, node_truth = run(args.folder)
    predicted, truth = {}, {}
    for node, c in node_truth.items():
        for t, n in c.items():
            for k in range(n):
                predicted[(node, t, k)] = passes.cl.find(node)
                truth[(node, t, k)] = t
    print(f"pairwise {tuple(pairwise_scores(predicted, truth))}, B3 {tuple(bcubed_scores(predicted, truth))}")
    wrong, count, worst = false_merges(mentions, passes, node_truth)
    print(f"False merges: {sum(wrong.values()):,} wrong pairs")
    for rule, n in wrong.most_common():
        print(f"  {n:8,} pairs  {count[rule]:5} merges  {rule}")
    print("  worst merges:")
    for n, rule, evidence in worst[:args.top]:
        print(f"    {n:6,}  {rule}: {evidence[:150]}")
    examples: dict = {}
    missed = missed_merges(args.folder, mentions, passes, node_truth, examples)
    print(f"Missed merges: {sum(missed.values()):,} missed pairs")
    for cause, n in missed.most_common():
        print(f"  {n:8,} pairs  {cause}")
        for ex in sorted(examples[cause], reverse=True)[:args.examples]:
            print(f"      {ex[0]:5} {ex[1]}: {ex[2]} in {ex[3][:3]} vs {ex[4]} in {ex[5][:3]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
