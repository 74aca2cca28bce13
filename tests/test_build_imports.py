"""The build imports only what each of its processes needs (issue 14: a seed build within a second):
no rdflib and no pyshacl (the build validates with kg.shape_checks), networkx, igraph and DuckDB
only for the page and the tables, pandas nowhere. Each check runs in a fresh interpreter, whose
``sys.modules`` says what was imported."""

from __future__ import annotations

import json
import subprocess
import sys

from conftest import DATA

HEAVY = ("rdflib", "pyshacl", "networkx", "igraph", "duckdb", "pandas")


def loaded_after(code: str) -> set[str]:
    """The modules of :data:`HEAVY` a fresh interpreter holds after running *code*."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return set(json.loads(done.stdout.splitlines()[-1]))


def test_the_kg_command_and_the_build_module_import_none_of_them():
    assert loaded_after("import kg.cli.main, kg.build") == set()


def test_reading_resolving_and_mapping_import_none_of_them(tmp_path):
    # the build's first half (a forked process in a build), run in the probe itself: the readers,
    # identity and mapping make N-Triples strings, not rdflib terms, and the validation reads them
    code = (f"from pathlib import Path\nimport kg.build\n"
            f"kg.build._graph_files(Path({str(DATA)!r}), Path({str(tmp_path / 'out')!r}), Path({str(tmp_path)!r}), "
            "include_private=False, progress=False, force=False, validate=True)")
    assert loaded_after(code) == set()


def test_a_build_loads_no_rdflib_and_no_pandas(tmp_path):
    code = f"import kg.build\nkg.build.build_graph({str(DATA)!r}, {str(tmp_path / 'out')!r})"
    assert loaded_after(code) == {"networkx", "igraph", "duckdb"}  # the page's projections and layout, the tables
