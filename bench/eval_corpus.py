"""Reader evaluation on the development corpus (``make eval``).

Runs ``kg read`` on every document of ``../shared/corpus/docs`` and scores the results with the
corpus's own ``score.py`` against its hand-checked gold. Prints the scorer's per-document table,
then the summary for the structured and the free-text documents separately. Skips with a
message where ``../shared`` is absent (a user's clone has none).

Run: ``.venv/bin/python -m bench.eval_corpus [--corpus DIR] [--keep DIR]``
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
# Which documents are structured data (readers issue) and which free text (any-style issue),
# by the format word in their names.
STRUCTURED = ("bibtex", "ris", "academicpages-vandijcke", "hugo", "data-yaml", "orcid", "html-dblp", "thesis-dspace")


def predict(corpus: Path, out: Path) -> dict[str, float]:
    """Write one prediction per document into *out*; return seconds per document."""
    times = {}
    for doc in sorted((corpus / "docs").iterdir()):
        start = time.perf_counter()
        result = subprocess.run([sys.executable, "-m", "kg", "read", str(doc)], capture_output=True, text=True)
        times[doc.name] = time.perf_counter() - start
        stem = doc.name if doc.is_dir() else doc.stem
        if result.returncode != 0:
            print(f"{doc.name}: kg read failed: {result.stderr.strip()[:300]}")
            continue
        data = json.loads(result.stdout)
        if isinstance(data, list):  # a folder read as several documents: pool their works
            owners = [d["owner"] for d in data if d.get("owner")]
            data = {"owner": owners[0] if owners else None, "works": [w for d in data for w in d["works"]]}
        gold = corpus / "gold" / f"{stem}.json"
        cap = json.loads(gold.read_text()).get("truncated_at") if gold.is_file() else None
        if cap:  # the gold covers only the document's first `cap` items, so score only those
            data["works"] = data["works"][:cap]
        (out / f"{stem}.json").write_text(json.dumps(data, ensure_ascii=False))
    return times


def score(corpus: Path, pred: Path, names: list[str]) -> str:
    """The scorer's output for the documents *names* (gold file stems)."""
    with tempfile.TemporaryDirectory() as gold_dir:
        for name in names:
            (Path(gold_dir) / f"{name}.json").write_bytes((corpus / "gold" / f"{name}.json").read_bytes())
        result = subprocess.run([sys.executable, str(corpus / "score.py"), str(pred), gold_dir],
                                capture_output=True, text=True)
    return result.stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--keep", type=Path, help="keep the predictions in this folder")
    args = parser.parse_args(argv)
    if not (args.corpus / "gold").is_dir():
        print(f"skipped: no evaluation corpus at {args.corpus} (it lives in ../shared/corpus beside the project)")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        pred = args.keep or Path(tmp)
        pred.mkdir(parents=True, exist_ok=True)
        times = predict(args.corpus, pred)
        names = sorted(p.stem for p in (args.corpus / "gold").glob("*.json"))
        structured = [n for n in names if any(k in n for k in STRUCTURED)]
        free = [n for n in names if n not in structured]
        print("== all documents")
        print(score(args.corpus, pred, names))
        for label, group in (("structured formats", structured), ("free text", free)):
            print(f"== {label}: " + score(args.corpus, pred, group).strip().splitlines()[-1])
        print(f"== kg read: {sum(times.values()):.1f} s for {len(times)} documents "
              f"(slowest {max(times, key=times.get)}: {max(times.values()):.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
