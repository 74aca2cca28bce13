"""What a new user meets (issue 16) and spreadsheet-safe outputs (issue 15 item 11).

The stores are the hand-written graph fixture (tests/data/graph-fixture.trig: Ada Lovelace,
Bob Byte, Cyd Cache, Dée Data ...) and the seed build of data/.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import networkx as nx
import pytest
from click.testing import CliRunner

import kg
from kg.cli.main import main
from kg.cli.output import table_text
from kg.outputs.export import export_graph
from kg.outputs.report import report_text

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ["=HYPERLINK(\"http://evil\",\"x\")", "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A2)", "\tTab", "\rCR"]


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


# --------------------------------------------------------------------------- fresh clone, package


def test_the_grqc_list_ships_gzipped_and_nothing_reads_shared():
    assert (ROOT / "notebooks" / "data" / "ca-GrQc.txt.gz").stat().st_size > 50_000
    for path in [*ROOT.glob("kg/**/*.py"), *ROOT.glob("tests/*.py"), *ROOT.glob("notebooks/*.ipynb")]:
        if path.name != Path(__file__).name:
            text = path.read_text(encoding="utf-8")
            shared = ".." + "/shared"  # spelt in two pieces so that this file does not contain it
            assert shared not in text and "/work" + "/shared" not in text, path


def test_pyproject_metadata():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())
    project = meta["project"]
    assert project["name"] == "coauthorship-kg" and project["scripts"]["kg"] == "kg.cli.main:main"
    assert project["license"] == "MIT" and (ROOT / project["license-files"][0]).is_file()
    assert project["dynamic"] == ["version"] and "version" not in project
    assert meta["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "kg.__version__"}
    assert project["authors"] and project["classifiers"]
    deps = " ".join(project["dependencies"])
    assert "nameparser" not in deps and "pyvis==" in deps  # nameparser was unused; pyvis pinned
    assert not any("example" in url for url in project.get("urls", {}).values())


def test_version_is_one_value():
    result = run("--version")
    assert result.exit_code == 0 and result.output.strip() == f"kg, version {kg.__version__}"


def test_vis_network_comes_from_pyvis_not_the_repository():
    from kg.outputs.html.template import vis_network_js

    assert not list((ROOT / "kg" / "outputs" / "static").rglob("vis-network*"))
    assert vis_network_js().lstrip().startswith("/**") and "vis-network" in vis_network_js()[:600]


# --------------------------------------------------------------------------- spreadsheets


def _hostile_graph() -> nx.Graph:
    g = nx.Graph()
    for i, name in enumerate(HOSTILE):
        g.add_node(f"p{i}", name=name, kind="person", works=1)
    for i in range(1, len(HOSTILE)):
        g.add_edge("p0", f"p{i}", joint_works=1, weight=0.5,
                   works=[{"iri": "w", "title": "=1+1", "year": 2020, "venue": None}])
    return g


def _formula_cells(text: str, sep: str) -> list[str]:
    import csv
    import io

    rows = csv.reader(io.StringIO(text, newline=""), delimiter=sep) if sep == "," else (line.split(sep) for line in text.split("\n"))
    return [c for row in rows for c in row if c[:1] in ("=", "+", "-", "@", "\t", "\r")]


def test_csv_and_vosviewer_exports_neutralise_formulas(tmp_path):
    export_graph(_hostile_graph(), "csv", tmp_path / "csv")
    for name in ("nodes.csv", "edges.csv"):
        text = (tmp_path / "csv" / name).read_text()
        assert _formula_cells(text, ",") == [], name
    nodes = (tmp_path / "csv" / "nodes.csv").read_text()
    assert "'=HYPERLINK(" in nodes and "'@SUM(A1:A2)" in nodes and "'-2+3" in nodes
    export_graph(_hostile_graph(), "vosviewer", tmp_path / "vos")
    lines = (tmp_path / "vos" / "map.txt").read_text().splitlines()
    labels = [line.split("\t")[1] for line in lines[1:]]
    # tabs and CRs inside a label would break the tab-separated file; they become spaces, then the rest is neutral
    assert labels[:4] == ["'=HYPERLINK(\"http://evil\",\"x\")", "'+cmd|' /C calc'!A0", "'-2+3", "'@SUM(A1:A2)"]
    assert all(not label.startswith(("=", "+", "-", "@")) for label in labels)


def test_table_commands_neutralise_formulas_in_csv(graph_fixture_out):
    # the fixture's names are plain; the CSV writer is the same for every table command
    import pandas as pd

    from kg.cli.output import emit  # noqa: F401  (the writer the commands use)
    from kg.outputs.export import csv_text

    text = csv_text(pd.DataFrame({"name": HOSTILE, "joint_works": range(len(HOSTILE))}))
    assert _formula_cells(text, ",") == []
    result = run("collaborators", "ada", "--out", graph_fixture_out, "--format", "csv")
    assert result.exit_code == 0 and result.output.startswith("collaborator,name,joint_works,newman_weight")


def test_query_csv_neutralises_formulas(graph_fixture_out):
    result = run("query", "SELECT ?x WHERE { VALUES ?x { \"=1+2\" \"@A1\" 3 } }", "--out", graph_fixture_out,
                 "--format", "csv")
    assert result.exit_code == 0, result.output
    assert result.output.split() == ["x", "'=1+2", "'@A1", "3"]


def test_markdown_report_escapes_raw_html():
    g = nx.Graph()
    g.add_node("a", name="<script>alert(1)</script> Ann", profiled=True, works=1)
    g.add_node("b", name="Bo [x](javascript:y)", works=1)
    g.add_edge("a", "b", joint_works=1, weight=1.0, works=[{"iri": "w", "title": "<b>T</b>", "year": 2020}])
    text = report_text(g, fmt="markdown")
    assert "<script>" not in text and "&lt;script&gt;alert(1)&lt;/script&gt; Ann" in text
    assert "\\[x\\](javascript:y)" in text and "Bo [x](" not in text  # the link is shown, not made


# --------------------------------------------------------------------------- exports agree on `weight`


def test_weight_is_joint_works_in_every_export(tmp_path):
    g = nx.Graph()
    g.add_node("https://orcid.org/0000-0002-1825-0097", name="Ann", works=2, orcid="https://orcid.org/0000-0002-1825-0097")
    g.add_node("b", name="Bo", works=2)
    works = [{"iri": "w1", "title": "One", "year": 2019}, {"iri": "w2", "title": "Two", "year": 2022}]
    # two joint works, each with 4 authors: Newman's count is 2 * 1/3
    g.add_edge("https://orcid.org/0000-0002-1825-0097", "b", joint_works=2, weight=2 / 3, works=works)
    export_graph(g, "graphml", tmp_path / "g.graphml")
    edge = next(iter(nx.read_graphml(tmp_path / "g.graphml").edges(data=True)))[2]
    assert edge["weight"] == 2 and edge["newman_weight"] == pytest.approx(2 / 3)
    export_graph(g, "gexf", tmp_path / "g.gexf")
    assert next(iter(nx.read_gexf(tmp_path / "g.gexf").edges(data=True)))[2]["weight"] == 2
    export_graph(g, "vosviewer", tmp_path / "vos")
    header, ann, bo = (tmp_path / "vos" / "map.txt").read_text().splitlines()
    assert header.split("\t")[-1] == "score<Avg. pub. year>"
    # (2019 + 2022) / 2 = 2020.5 for both; Ann's url is her ORCID, Bo has no resolvable url
    assert ann.split("\t")[2] == "https://orcid.org/0000-0002-1825-0097" and ann.split("\t")[-1] == "2020.5"
    assert bo.split("\t")[2] == "" and "kg.example" not in (tmp_path / "vos" / "map.txt").read_text()
    assert (tmp_path / "vos" / "network.txt").read_text() == "1\t2\t2\n"


def test_schema_org_query_written_the_usual_way_finds_people(seeds_out):
    # as a client copying schema.org's JSON-LD context ("@vocab": "http://schema.org/") would write it
    query = ("PREFIX schema: <http://schema.org/> SELECT ?name WHERE { ?p a schema:Person ; schema:name ?name . "
             "?w a schema:ScholarlyArticle ; schema:author ?p } GROUP BY ?name ORDER BY ?name")
    result = run("query", query, "--out", seeds_out, "--format", "csv")
    assert result.exit_code == 0, result.output
    names = result.stdout.splitlines()[1:]
    assert {"Qinghao Hu", "Shenghao Qiu", "Kaiqiang Xu", "Peng Sun"} <= set(names)


# --------------------------------------------------------------------------- errors and messages


def test_unknown_example_query_and_updates(graph_fixture_out):
    result = run("query", "nosuchquery", "--out", graph_fixture_out)
    assert result.exit_code == 2
    assert "no example query named 'nosuchquery' (known: awards-by-year, coauthors," in result.output
    result = run("query", "INSERT DATA { <urn:a> <urn:b> <urn:c> }", "--out", graph_fixture_out)
    assert result.exit_code == 2 and "updates are not allowed" in result.output


def test_bound_names_are_forgiving_or_warn(graph_fixture_out):
    result = run("query", "coauthors", "--bind", "name=lovelace ada", "--out", graph_fixture_out, "--format", "json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["results"]["bindings"]
    assert {r["name"]["value"] for r in rows} == {"Ada Lovelace"} and len(rows) == 3  # Bob, Cyd, Dée
    assert "matched Ada Lovelace" in result.stderr
    result = run("query", "coauthors", "--bind", "name=Nobody Atall", "--out", graph_fixture_out)
    assert result.exit_code == 0 and "nothing in the graph matched --bind name='Nobody Atall'" in result.stderr


def test_json_ends_with_newline_and_keeps_slashes(graph_fixture_out):
    result = run("collaborators", "ada", "--out", graph_fixture_out, "--format", "json")
    assert result.output.endswith("]\n") and "\\/" not in result.output and "https://kg" in result.output
    result = run("query", "ASK { ?s ?p ?o }", "--out", graph_fixture_out, "--format", "json")
    assert result.output.endswith("}\n")


def test_output_paths_fail_in_one_line_and_create_no_folders(graph_fixture_out, tmp_path):
    missing = tmp_path / "no" / "such" / "dir"
    for args in (["export", "--format", "csv", "--output", missing / "x.csv"],
                 ["export", "--format", "graphml", "--output", tmp_path],
                 ["html", "-o", missing / "x.html"],
                 ["query", "ASK {}", "-o", missing / "a.json"],
                 ["analyze", "--report", missing / "r.md"]):
        result = run(*args, "--out", graph_fixture_out)
        assert result.exit_code == 1, (args, result.output)
        assert result.output.startswith("kg: error: cannot write") and result.output.count("\n") == 1, result.output
    assert not (tmp_path / "no").exists()


def test_usage_errors_are_one_kg_error_line():
    from conftest import run_kg

    result = run_kg("export", "--out", "nowhere")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if not line.startswith("Usage:")]
    assert errors == ["kg: error: Missing option '--format'. Choose from: graphml, gexf, csv, vosviewer"], errors


def test_table_fits_the_terminal():
    import pandas as pd

    frame = pd.DataFrame({"label": ["x" * 90], "value": ["y" * 60], "source": ["cv.md"]})
    lines = table_text(frame, width=80).splitlines()
    assert max(len(line) for line in lines) <= 80 and lines[2].endswith("cv.md")


def test_conflicts_table_fits(seeds_out, monkeypatch):
    monkeypatch.setenv("COLUMNS", "90")
    result = run("conflicts", "--out", seeds_out)
    assert result.exit_code == 0
    assert max(len(line) for line in result.output.splitlines()) <= 90


def test_empty_data_folder_says_what_to_do(tmp_path):
    (tmp_path / "data").mkdir()
    result = run("build", tmp_path / "data", "--out", tmp_path / "out")
    assert result.exit_code == 1 and "holds no documents kg can read" in result.output
    assert "Adding a document" in result.output and not (tmp_path / "out").exists()


# --------------------------------------------------------------------------- notebook users


def test_to_pyvis_returns_a_filled_network(seeds_out):
    from pyvis.network import Network

    from kg.notebook import load

    net = load(seeds_out).to_pyvis()
    assert isinstance(net, Network)
    names = {n["label"] for n in net.nodes}
    assert {"Qinghao Hu", "Shenghao Qiu", "Kaiqiang Xu"} <= names
    peng = next(e for e in net.edges if {e["from"], e["to"]} == {
        "https://kg.example/id/person/qinghao-hu", "https://kg.example/id/person/peng-sun"})
    assert peng["value"] == 12  # the seed CVs: 12 works with both (see tests/test_cli_graph.py)
    assert "<html>" in net.generate_html()


def test_habits_are_configured():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert meta["tool"]["mypy"]["packages"] == ["kg"] and "mypy>=1.10" in meta["project"]["optional-dependencies"]["test"]
    assert ".venv/bin/mypy" in (ROOT / ".ci" / "run").read_text()
    hooks = (ROOT / ".pre-commit-config.yaml").read_text()
    assert "ruff check" in hooks and "ruff format --check" in hooks
    assert (ROOT / "CHANGELOG.md").read_text().startswith("# Changelog")
