"""Shared fixtures: the seed corpus built once per test session."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
TESTDATA = Path(__file__).resolve().parent / "data"


@pytest.fixture(scope="session")
def seeds_out(tmp_path_factory) -> Path:
    """An output folder built from data/ (the seed documents and curation file)."""
    from kg.build import build_graph

    out = tmp_path_factory.mktemp("seeds-out")
    report = build_graph(DATA, out)
    assert report.skipped == [], [str(s) for s in report.skipped]
    return out


@pytest.fixture(scope="session")
def seeds_store(seeds_out):
    from kg.store import open_store

    return open_store(seeds_out)


@pytest.fixture
def data_copy(tmp_path) -> Path:
    """A writable copy of data/ to add or break documents in."""
    target = tmp_path / "data"
    shutil.copytree(DATA, target)
    return target
