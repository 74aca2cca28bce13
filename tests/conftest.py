"""Shared fixtures: the seed corpus built once per test session."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
TESTDATA = Path(__file__).resolve().parent / "data"


def run_kg(*args) -> subprocess.CompletedProcess:
    """Run the ``kg`` command in this process (click's CliRunner), as a user would call it.

    The answer looks like a finished process: ``returncode``, ``stdout``, ``stderr``. One test
    (tests/test_cli_build.py) runs the real console script end to end in a subprocess.
    """
    from click.testing import CliRunner

    from kg.cli.main import main

    result = CliRunner().invoke(main, [str(a) for a in args], prog_name="kg")
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return subprocess.CompletedProcess(["kg", *map(str, args)], result.exit_code, result.stdout, result.stderr)


def run_kg_process(*args) -> subprocess.CompletedProcess:
    """Run the installed ``kg`` console script in a subprocess: the end-to-end path."""
    kg = Path(sys.executable).parent / "kg"
    return subprocess.run([str(kg), *map(str, args)], capture_output=True, text=True)


@pytest.fixture(scope="session", autouse=True)
def private_cache(tmp_path_factory):
    """Tables read from SPARQL servers are kept in a cache of the session's own, not the user's."""
    import os

    os.environ["KG_CACHE_DIR"] = str(tmp_path_factory.mktemp("kg-cache"))


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


def _store_folder(out: Path, trig: Path) -> Path:
    import pyoxigraph

    store = pyoxigraph.Store(str(out / "store"))
    store.load(path=str(trig), format=pyoxigraph.RdfFormat.TRIG)
    store.flush()
    del store
    return out


@pytest.fixture(scope="session")
def sparql_fixture_out(tmp_path_factory) -> Path:
    """An out/ folder whose store holds the hand-written tests/data/sparql-fixture.trig
    (default graph = its merged view, one named graph per source)."""
    return _store_folder(tmp_path_factory.mktemp("sparql-out"), TESTDATA / "sparql-fixture.trig")


@pytest.fixture(scope="session")
def graph_fixture_out(tmp_path_factory) -> Path:
    """An out/ folder whose store holds the hand-written tests/data/graph-fixture.trig."""
    return _store_folder(tmp_path_factory.mktemp("graph-out"), TESTDATA / "graph-fixture.trig")


@pytest.fixture(scope="session")
def graph_fixture_store():
    """An in-memory store of the hand-written tests/data/graph-fixture.trig."""
    import pyoxigraph

    store = pyoxigraph.Store()
    store.load(path=str(TESTDATA / "graph-fixture.trig"), format=pyoxigraph.RdfFormat.TRIG)
    return store


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]


@pytest.fixture(scope="session")
def browser():
    """Debian's headless chromium driven by playwright; the test skips, saying why, where either is missing."""
    if not CHROMIUM:
        pytest.skip("no chromium on PATH (install Debian's chromium package to run browser tests)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("the playwright python package is not installed (pip install playwright)")
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def data_copy(tmp_path) -> Path:
    """A writable copy of data/ to add or break documents in."""
    target = tmp_path / "data"
    shutil.copytree(DATA, target)
    return target


def stop_process(process: subprocess.Popen) -> None:
    """Stop a server the test started: SIGTERM, then SIGKILL if it has not gone in 10 s."""
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
