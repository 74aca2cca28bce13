"""Run every ``bench/bench_*.py`` module's ``main()`` in turn (``python -m bench``)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path


def main() -> int:
    status = 0
    for path in sorted(Path(__file__).parent.glob("bench_*.py")):
        name = f"bench.{path.stem}"
        print(f"== {name}", flush=True)
        module = importlib.import_module(name)
        status = max(status, int(module.main([]) or 0))
    return status


if __name__ == "__main__":
    sys.exit(main())
