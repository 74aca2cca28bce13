"""The graph commands on a store built from the hand-written fixture, through the real CLI."""

import json

import pytest
from click.testing import CliRunner
from conftest import run_kg

from kg.cli.main import main


@pytest.fixture(scope="module")
def out(graph_fixture_out):
    return graph_fixture_out


def run(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    return result


def test_collaborators_table(out):
    result = run("collaborators", "ada lovelace", "--out", out)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].split()[:3] == ["name", "joint_works", "years"]  # Newman's count only in CSV/JSON
    assert [line.split()[:3] for line in lines[2:]] == [  # after the header's rule
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
    assert header.startswith("collaborator,name,joint_works,newman_weight")
    assert len(rows) == 2  # ada and cyd, one work each (Gamma)


def test_unknown_and_ambiguous_names_give_candidates_not_tracebacks(out):
    unknown = run_kg("collaborators", "Ada Lovelase", "--out", out)
    assert unknown.returncode == 1
    assert "Traceback" not in unknown.stderr
    assert "no person named 'Ada Lovelase'" in unknown.stderr and "Ada Lovelace" in unknown.stderr
    ambiguous = run_kg("collaborators", "ev", "--out", out)
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


# --------------------------------------------------------------------------- the seeds
# Hand counts from data/* (see tests/test_analyses.py for the reading rules).


def test_seeds_collaborators_cli(seeds_out):
    result = run("collaborators", "hu qinghao", "--out", seeds_out, "--format", "json", "-n", "7")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert [(r["name"], r["joint_works"]) for r in rows] == [
        ("Peng Sun", 12), ("Tianwei Zhang", 11), ("Yonggang Wen", 10), ("Meng Zhang", 6),
        ("Qiaoling Chen", 5), ("Zhisheng Ye", 4), ("Guoteng Wang", 4)]
    result = run("collaborators", "shenghao", "--out", seeds_out, "--format", "csv", "-n", "1")
    assert result.output.splitlines()[1].split(",")[1:3] == ["Zheng Wang", "6"]


def test_seeds_shared_and_path_cli(seeds_out):
    result = run("shared", "qiu", "wang zheng", "--out", seeds_out, "--format", "json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert len(rows) == 19
    assert {r["name"] for r in rows if r["joint_works"] == 4} == {"Liang You", "Renyu Yang", "Jie Xu", "Xiaoyang Sun"}
    result = run("path", "peng sun", "klimovic", "--out", seeds_out, "--format", "json")
    hops = json.loads(result.output)
    assert [(h["from_name"], h["to_name"], h["joint_works"]) for h in hops] == [
        ("Peng Sun", "Qinghao Hu", 12), ("Qinghao Hu", "Ana Klimovic", 1)]
    result = run("path", "qinghao", "shenghao", "--out", seeds_out)
    assert result.output.strip() == "no collaboration path between Qinghao Hu and Shenghao Qiu"


def test_seeds_ambiguous_name_lists_candidates(seeds_out):
    result = run("collaborators", "wang", "--out", seeds_out)
    assert result.exit_code == 1
    assert "matches" in result.output and "Zheng Wang" in result.output and "Zeke Wang" in result.output
    assert "Traceback" not in result.output


def test_seeds_analyze_report(seeds_out, tmp_path):
    report = tmp_path / "report.md"
    assert run("analyze", "--out", seeds_out, "--report", report).exit_code == 0
    text = report.read_text()
    for name in ("Qinghao Hu", "Shenghao Qiu", "Kaiqiang Xu"):
        assert f"### {name}" in text
    again = tmp_path / "again.md"
    run("analyze", "--out", seeds_out, "--report", again)
    assert again.read_bytes() == report.read_bytes()
