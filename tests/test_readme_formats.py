"""README lists every format kg reads: one row per reader of the registry."""

from __future__ import annotations

from pathlib import Path

from kg.sources.registry import READERS

README = Path(__file__).resolve().parent.parent / "README.md"


def test_every_reader_has_a_row_in_the_readme():
    rows = [line for line in README.read_text(encoding="utf-8").splitlines() if line.startswith("   | ")]
    named = {cell.strip().strip("`") for row in rows for cell in row.split("|")[2:3]}
    assert {r.name for r in READERS} <= named, sorted({r.name for r in READERS} - named)
