"""The reading stage alone: CPU seconds per document for ``read_document`` over generated CVs.

For each size in ``--docs`` it reads that many documents (the first N, sorted by name) of
``--folder`` (default: synthetic CVs written with ``../shared/tools/gen_corpus.py`` for the
largest size; skipped with a message where that tool is absent) in this process, and reports
CPU seconds (``time.process_time``, so other processes on the machine do not count), CPU per
document, works read and CPU per thousand works. The modules are imported and one document read
before the clock starts, so start-up and first-use compilation do not count. The sizes are read
in one process, one after another: a larger size finds the smaller one's lines in the readers'
caches, so give one size per run for a figure from cold caches.

Run: ``.venv/bin/python -m bench.bench_read [--docs 100,200] [--folder DIR] [--seed 1]``.
Default: 20 and 40 CVs (a few seconds).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.bench_build import GENERATOR


def time_reading(paths: list[Path]) -> dict:
    """CPU seconds to read every file in *paths*, and the works read."""
    from kg.records import Work
    from kg.sources import read_document

    works = 0
    start = time.process_time()
    for path in paths:
        works += len(read_document(path).of_type(Work))
    seconds = time.process_time() - start
    return {"documents": len(paths), "cpu_s": round(seconds, 2),
            "cpu_s_per_doc": round(seconds / max(len(paths), 1), 4),
            "works": works, "cpu_s_per_1000_works": round(1000 * seconds / max(works, 1), 3)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", default="20,40", help="comma-separated numbers of documents, e.g. 100,200")
    parser.add_argument("--folder", type=Path, help="read documents from here instead of generating CVs")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--generator", type=Path, default=GENERATOR)
    args = parser.parse_args(argv)
    sizes = [int(n) for n in args.docs.split(",") if n.strip()]
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.folder
        if folder is None:
            if not args.generator.is_file():
                print(f"skipped: no generator at {args.generator} (pass --folder DIR)")
                return 0
            folder = Path(tmp) / "cvs"
            subprocess.run([sys.executable, str(args.generator), str(folder), str(max(sizes)), str(args.seed)],
                           capture_output=True, text=True, check=True)
        files = sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith("."))
        if not files:
            print(f"no documents in {folder}")
            return 1
        time_reading(files[:1])  # imports and first-use compilation outside the clock
        print("| documents | CPU s | CPU s/doc | works | CPU s/1000 works |")
        print("|---:|---:|---:|---:|---:|")
        for n in sizes:
            row = time_reading(files[:n])  # once: a second run would find the readers' caches warm
            print(f"| {row['documents']} | {row['cpu_s']} | {row['cpu_s_per_doc']} | {row['works']} "
                  f"| {row['cpu_s_per_1000_works']} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
