"""The graph commands on a store built from the hand-written fixture, through the real CLI."""

import json
import subprocess
import sys
from pathlib import Path

import pyoxigraph
import pytest
from click.testing import CliRunner

from kg.cli import main

FIXTURE = Path(__file__).parent / "data" / "graph-fixture.trig"


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    out = tmp_path_factory.mktemp("fixture-out")
    store = pyoxigraph.Store(str(out / "store"))
    store.load(path=str(FIXTURE), format=pyoxigraph.RdfFormat.TRIG)
    store.flush()
    del store
    return out


def run(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    return result


def test_collaborators_table(out):
    result = run("collaborators", "ada lovelace", "--out", out)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].split()[:3] == ["name", "joint_works", "weight"]
    assert [line.split()[:3] for line in lines[1:]] == [
        ["Bob", "Byte", "2"], ["Cyd", "Cache", "2"], ["Dée", "Data", "1"]]


def test_collaborators_json_forgiving_name(out):
    # family name first, no accents needed elsewhere, a prefix of the given name
    result = run("collaborators", "Lovelace, A", "--out", out, "--format", "json", "-n", "1")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert [(r["name"], r["joint_works"], r["years"]) for r in rows] == [("Bob Byte", 2, "2019, 2020")]


def test_collaborators_csv(out):
    result = run("collaborators", "dee data", "--out", out, "--format", "csv")
    assert result.exit_code == 0, result.output
    header, *rows = result.output.splitlines()
    assert header.startswith("collaborator,name,joint_works,weight")
    assert len(rows) == 2  # ada and cyd, one work each (Gamma)


def test_unknown_and_ambiguous_names_give_candidates_not_tracebacks(out):
    # CliRunner does not go through the console script's exit path; run the real one
    cmd = [str(Path(sys.executable).parent / "kg")]
    unknown = subprocess.run([*cmd, "collaborators", "Ada Lovelase", "--out", str(out)],
                             capture_output=True, text=True)
    assert unknown.returncode == 1
    assert "Traceback" not in unknown.stderr
    assert "no person named 'Ada Lovelase'" in unknown.stderr and "Ada Lovelace" in unknown.stderr
    ambiguous = subprocess.run([*cmd, "collaborators", "ev", "--out", str(out)], capture_output=True, text=True)
    assert ambiguous.returncode == 1
    assert "Traceback" not in ambiguous.stderr
    assert "matches 2 people" in ambiguous.stderr
    assert "Eva Echo" in ambiguous.stderr and "Eve Edge" in ambiguous.stderr


def test_person_without_works(out):
    result = run("collaborators", "gus graph", "--out", out)
    assert result.exit_code == 1
    assert "has no works in the graph" in result.output


def test_shared(out):
    result = run("shared", "ada", "bob", "--out", out, "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == [{
        "collaborator": "https://kg.example/id/person/cyd-cache", "name": "Cyd Cache",
        "joint_works": 3, "Ada Lovelace": 2, "Bob Byte": 1}]
    result = run("shared", "ada", "--out", out)
    assert result.exit_code == 1 and "two or more names" in result.output


def test_path(out):
    result = run("path", "ada", "fay", "--out", out, "--format", "csv")
    assert result.exit_code == 0, result.output
    rows = [line.split(",") for line in result.output.splitlines()[1:]]
    assert [(r[2], r[4], r[5]) for r in rows] == [
        ("Ada Lovelace", "Bob Byte", "2"), ("Bob Byte", "Eve Edge", "1"), ("Eve Edge", "Fay Flop", "1")]
    result = run("path", "ada", "hal", "--out", out)
    assert result.exit_code == 0
    assert result.output.strip() == "no collaboration path between Ada Lovelace and Hal Hash"


def test_analyze_is_deterministic(out, tmp_path):
    first, second = tmp_path / "a.html", tmp_path / "b.html"
    assert run("analyze", "--out", out, "--report", first).exit_code == 0
    assert run("analyze", "--out", out, "--report", second).exit_code == 0
    text = first.read_text()
    assert first.read_bytes() == second.read_bytes()
    assert text.count("data:image/png;base64,") == 4  # degree, per year, top of ada, top of bob
    assert "Top collaborators" in text and "Same institution, same time" in text
    md = tmp_path / "r.md"
    assert run("analyze", "--out", out, "--report", md).exit_code == 0
    assert md.read_text().startswith("# Co-authorship analysis")


def test_export_formats(out, tmp_path):
    import networkx as nx

    result = run("export", "--format", "graphml", "--out", out, "--output", tmp_path / "g.graphml")
    assert result.exit_code == 0, result.output
    graph = nx.read_graphml(tmp_path / "g.graphml")
    assert graph.number_of_nodes() == 7 and graph.number_of_edges() == 7
    assert graph.nodes["https://kg.example/id/person/ada-lovelace"]["label"] == "Ada Lovelace"

    assert run("export", "--format", "gexf", "--out", out, "--output", tmp_path / "g.gexf").exit_code == 0
    assert nx.read_gexf(tmp_path / "g.gexf").number_of_edges() == 7

    assert run("export", "--format", "csv", "--graph", "person-organization", "--out", out,
               "--output", tmp_path / "po").exit_code == 0
    edges = (tmp_path / "po" / "edges.csv").read_text().splitlines()
    assert len(edges) == 1 + 6

    assert run("export", "--format", "vosviewer", "--out", out, "--output", tmp_path / "vos").exit_code == 0
    network = (tmp_path / "vos" / "network.txt").read_text().splitlines()
    assert len(network) == 7
    assert "1\t2\t2" in network  # ada (item 1) and bob (item 2): two joint works

    bad = run("export", "--format", "pdf", "--out", out)
    assert bad.exit_code == 2


def test_no_store_is_one_line(tmp_path):
    result = run("collaborators", "ada", "--out", tmp_path / "empty")
    assert result.exit_code == 1
    assert "run `kg build` first" in result.output
