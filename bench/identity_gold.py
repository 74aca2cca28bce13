"""Identity on the real corpus: kg's person clusters per document against the gold ``distinct_people``.

All documents of ``../shared/corpus/docs`` are resolved together (as a user combining them
would), then each document is scored on its own. The gold says, per document, which printed
names stand for several people (``distinct_people``: the printed name and, per person, the
works -- by item number or quoted title -- they wrote); every other printed name is one person
within its document. So the truth of a document groups its author mentions by printed name
(up to order, case, accents), split where ``distinct_people`` splits; pairs of mentions with
different printed names are not judged (the gold does not say whether "Y. Wang" is "Yinzhi
Wang"). Reported per document: mentions, pairwise precision and recall over the judged pairs,
the printed names kg splits, and the distinct people kg merges (a false merge). Then the
clusters that join names across documents, for review.

Run: ``.venv/bin/python -m bench.identity_gold [--corpus DIR]``; skips with a message where the
corpus is absent.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"


def _title_key(title: str) -> str:
    from kg.identity.keys import title_key

    return title_key(title)


def _same_title(a: str, b: str) -> bool:
    """The corpus scorer's rule: equal keys, or one a prefix of the other of at least 20 characters."""
    short, long = sorted((a, b), key=len)
    return short == long or (len(short) >= 20 and long.startswith(short))


def _works_of(description: str, works: list[dict]) -> list[str]:
    """The title keys of the gold works a person's description names: ``item(s) 60, 59`` or quoted titles
    (``"Geometric Controls ... Gorkha Earthquake"``: each part between ellipses in the title)."""
    found = []
    for numbers in re.findall(r"items?\s+((?:\d+(?:,\s*|\s+and\s+)?)+)", description):
        wanted = {int(n) for n in re.findall(r"\d+", numbers)}
        found += [_title_key(w["title"]) for w in works if w.get("item_number") in wanted]
    for quoted in re.findall(r"\"([^\"]{8,})\"", description):
        parts = [_title_key(p) for p in re.split(r"\.\.\.|…", quoted) if _title_key(p)]
        found += [_title_key(w["title"]) for w in works if all(p in _title_key(w["title"]) for p in parts)]
    return found


def gold_truth(gold: dict, mentions: list) -> dict:
    """``mention -> true label`` for the author mentions of one document (see the module docstring);
    mentions of a split name on works the gold does not attribute are left out."""
    from kg.identity.keys import person_key

    splits = {}
    for entry in gold.get("distinct_people") or []:
        printed = entry["printed_name"]
        quoted = re.search(r"gold \"([^\"]+)\"", printed)
        name = quoted.group(1) if quoted else printed
        splits[person_key(name)] = [_works_of(p, gold["works"]) for p in entry["people"]]
    truth = {}
    for m, title in mentions:
        key = person_key(m.name)
        if key not in splits:
            truth[m] = key
            continue
        tk = _title_key(title or "")
        for i, titles in enumerate(splits[key]):
            if any(_same_title(tk, t) for t in titles):
                truth[m] = (key, i)
    return truth


def _is_split(label: tuple) -> bool:
    """Whether a true label is one person of a split name, ``(name key, index)``, not a name key."""
    return isinstance(label[-1], int)


def _shown(label: tuple) -> str:
    return " ".join(label[0]) + f" (person {label[1] + 1})" if _is_split(label) else " ".join(label)


def check_corpus(corpus: Path) -> dict | None:
    """Per-document scores of kg's person clusters on the corpus; None where it is absent."""
    from bench.identity_adapter import mentions_of, person_clusters
    from kg.sources import read_path

    if not (corpus / "docs").is_dir():
        return None
    docs_of: dict[str, list] = {}
    for path in sorted((corpus / "docs").iterdir()):
        docs_of[path.stem if path.is_file() else path.name] = read_path(path)
    clusters = person_clusters([d for docs in docs_of.values() for d in docs])
    rows, documents_of = [], defaultdict(set)
    for m, person in clusters.items():
        documents_of[person].add(m.document)
    for stem, docs in docs_of.items():
        gold_file = corpus / "gold" / f"{stem}.json"
        if not gold_file.is_file():
            continue
        gold = json.loads(gold_file.read_text())
        mentions = [(m, t) for d in docs for m, t in mentions_of(d) if m.role == "author"]
        truth = gold_truth(gold, mentions)
        predicted = {m: clusters[m] for m, _ in mentions if m in truth}
        by_label: dict = defaultdict(set)  # true label -> kg's people
        for m, label in truth.items():
            by_label[label].add(predicted[m])
        split = sorted(_shown(label) for label, people in by_label.items() if len(people) > 1)
        sides: dict = defaultdict(list)  # a split name -> kg's people of each of its true people
        for label, people in by_label.items():
            if _is_split(label):
                sides[label[0]].append(people)
        merged = sum(1 for s in sides.values() for i, a in enumerate(s) for b in s[i + 1:] if a & b)
        # Judge only pairs of one printed name: per name, count its pairs and add up.
        tp = fp = fn = 0
        names: dict = defaultdict(list)
        for m, label in truth.items():
            names[label[0] if _is_split(label) else label].append(m)
        for sub in names.values():
            counts: dict = defaultdict(int)
            for m in sub:
                counts[(predicted[m], truth[m])] += 1
            pred_sizes: dict = defaultdict(int)
            true_sizes: dict = defaultdict(int)
            for (p, t), n in counts.items():
                pred_sizes[p] += n
                true_sizes[t] += n
            both = sum(n * (n - 1) // 2 for n in counts.values())
            tp += both
            fp += sum(n * (n - 1) // 2 for n in pred_sizes.values()) - both
            fn += sum(n * (n - 1) // 2 for n in true_sizes.values()) - both
        rows.append({"document": stem, "mentions": len(truth), "names": len(names),
                     "precision": round(tp / (tp + fp), 4) if tp + fp else 1.0,
                     "recall": round(tp / (tp + fn), 4) if tp + fn else 1.0,
                     "split_names": split, "distinct_people": len(gold.get("distinct_people") or []),
                     "distinct_merged": merged})
    across = defaultdict(set)
    for m, person in clusters.items():
        if len(documents_of[person]) > 1:
            across[person].add(m.name)
    return {"documents": rows, "joined_across_documents": sorted(sorted(v) for v in across.values())}


def markdown(result: dict) -> str:
    lines = ["| document | mentions | printed names | P | R | names split | distinct people | merged |",
             "|---|---|---|---|---|---|---|---|"]
    for r in result["documents"]:
        lines.append(f"| {r['document']} | {r['mentions']} | {r['names']} | {r['precision']:.3f} | "
                     f"{r['recall']:.3f} | {len(r['split_names'])} | {r['distinct_people']} | {r['distinct_merged']} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    args = parser.parse_args(argv)
    result = check_corpus(args.corpus)
    if result is None:
        print(f"no corpus at {args.corpus}: skipped")
        return 0
    print(markdown(result))
    for r in result["documents"]:
        if r["split_names"]:
            print(f"- {r['document']}: kg splits {', '.join(r['split_names'])}")
    joined = result["joined_across_documents"]
    varied = [names for names in joined if len(names) > 1]
    print(f"- clusters joining mentions of several documents: {len(joined)}; those joining differently "
          f"printed names, for review: {len(varied)}")
    for names in varied:
        print(f"  - {' | '.join(names)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
