"""kg collaborators, shared and path answered from the build's tables without pandas or networkx.

The store is the hand-written tests/data/graph-fixture.trig. Its co-authorships, read by hand:
alpha (2019, CONFA) by Ada, Bob, Cyd; beta (2020, Journal B) by Ada, Bob; gamma (2021, CONFA) by
Ada, Cyd, Dée; delta (2022, JB, under review) by Bob, Eve; epsilon (2023, CONFA) by Eve, Fay;
Ada's thesis and Hal's "Solo" have one author each. So Ada's collaborators are Bob (alpha,
beta: 2 works, Newman weight 1/2 + 1/1 = 1.5), Cyd (alpha, gamma: 1/2 + 1/2 = 1.0) and Dée
(gamma: 0.5); Ada and Eve share Bob alone; the one shortest path from Ada to Fay is
Ada - Bob (alpha, beta) - Eve (delta) - Fay (epsilon).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import run_kg

from kg.cli.output import Rows, emit

ADA, BOB, EVE, FAY = (f"https://kg.example/id/person/{p}" for p in ("ada-lovelace", "bob-byte", "eve-edge", "fay-flop"))


@pytest.fixture(scope="module")
def with_tables(graph_fixture_out, tmp_path_factory):
    """The fixture's out/ folder with the tables the build writes beside the store."""
    from kg.tables import write_tables

    out = tmp_path_factory.mktemp("graph-tables-out")
    shutil.copytree(graph_fixture_out / "store", out / "store")
    write_tables(out / "store", out / "tables")
    return out


COMMANDS = [
    ("collaborators", "ada lovelace"),
    ("collaborators", "bob byte", "-n", "2"),
    ("shared", "ada lovelace", "eve edge"),
    ("shared", "ada lovelace", "bob byte", "cyd cache"),
    ("path", "ada lovelace", "fay flop"),
    ("path", "ada lovelace", "hal hash"),  # not connected
]


@pytest.mark.parametrize("fmt", ["table", "csv", "json"])
@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: "-".join(a[:2]))
def test_tables_give_the_bytes_of_the_whole_projection(graph_fixture_out, with_tables, args, fmt):
    # graph_fixture_out has no tables: the command projects the whole store with networkx
    assert not (graph_fixture_out / "tables").exists()
    projected = run_kg(*args, "--out", graph_fixture_out, "--format", fmt)
    from_tables = run_kg(*args, "--out", with_tables, "--format", fmt)
    assert projected.returncode == from_tables.returncode == 0, projected.stderr + from_tables.stderr
    assert from_tables.stdout == projected.stdout


def test_collaborators_from_tables_by_hand(with_tables):
    rows = json.loads(run_kg("collaborators", "ada lovelace", "--out", with_tables, "--format", "json").stdout)
    assert [(r["name"], r["joint_works"], r["newman_weight"], r["years"], r["venues"]) for r in rows] == [
        ("Bob Byte", 2, 1.5, "2019, 2020", "CONFA, Journal B"),
        ("Cyd Cache", 2, 1.0, "2019, 2021", "CONFA"),
        ("Dée Data", 1, 0.5, "2021", "CONFA")]


def test_shared_and_path_from_tables_by_hand(with_tables):
    shared = json.loads(run_kg("shared", "ada lovelace", "eve edge", "--out", with_tables, "--format", "json").stdout)
    assert shared == [{"collaborator": BOB, "name": "Bob Byte", "joint_works": 3, "Ada Lovelace": 2, "Eve Edge": 1}]
    hops = json.loads(run_kg("path", "ada lovelace", "fay flop", "--out", with_tables, "--format", "json").stdout)
    assert [(h["from_name"], h["to_name"], h["works"]) for h in hops] == [
        ("Ada Lovelace", "Bob Byte", "Alpha (2019); Beta (2020)"), ("Bob Byte", "Eve Edge", "Delta (2022)"),
        ("Eve Edge", "Fay Flop", "Epsilon (2023)")]
    none = run_kg("path", "ada lovelace", "hal hash", "--out", with_tables)
    assert none.stdout == "no collaboration path between Ada Lovelace and Hal Hash\n"


def test_shortest_path_people(with_tables):
    from kg.graphs.fromtables import shortest_path_people

    tables = with_tables / "tables"
    assert shortest_path_people(tables, ADA, FAY) == {ADA, BOB, EVE, FAY}
    assert shortest_path_people(tables, FAY, ADA) == {ADA, BOB, EVE, FAY}
    assert shortest_path_people(tables, ADA, "https://kg.example/id/person/hal-hash") == set()


def test_neighbourhood_has_the_projections_edges(with_tables):
    from kg.graphs.fromtables import coauthor_graph_from_tables, neighbourhood_from_tables

    tables = with_tables / "tables"
    full = coauthor_graph_from_tables(tables)
    near = neighbourhood_from_tables(tables, [ADA])
    assert sorted(near.neighbors(ADA)) == sorted(full.neighbors(ADA))  # bob, cyd, dee
    for other in full.neighbors(ADA):
        assert near.edges[ADA, other] == full.edges[ADA, other]
        assert near.nodes[other]["name"] == full.nodes[other]["name"]
    assert EVE not in near  # only the edges touching Ada


def test_the_commands_load_neither_pandas_nor_networkx(with_tables):
    code = ("import sys; from kg.cli.main import main; "
            f"main(['collaborators', 'ada lovelace', '--out', {str(with_tables)!r}], standalone_mode=False); "
            f"main(['shared', 'ada', 'bob', '--out', {str(with_tables)!r}], standalone_mode=False); "
            f"main(['path', 'ada', 'fay', '--out', {str(with_tables)!r}], standalone_mode=False); "
            "print(sorted(m for m in ('pandas', 'networkx') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines()[-1] == "[]"
    assert "Bob Byte" in done.stdout


@pytest.mark.parametrize("fmt", ["table", "csv", "json"])
def test_rows_print_as_the_dataframe_prints(fmt, capsys):
    pd = pytest.importorskip("pandas")
    columns = ["name", "n", "weight", "year", "note"]
    rows = [{"name": "=cmd", "n": 2, "weight": 1.5, "year": 2020, "note": 'a "quoted", text\nover lines'},
            {"name": "Dée", "n": 1, "weight": 0.333333, "year": None, "note": "-3"},
            {"name": "Bo", "n": 10, "weight": 1.0, "year": 1999, "note": ""}]
    emit(Rows(columns, rows), fmt, ["name", "n", "note"])
    ours = capsys.readouterr().out
    frame = pd.DataFrame(rows, columns=columns).astype({"year": "Int64"})
    emit(frame, fmt, ["name", "n", "note"])
    assert ours == capsys.readouterr().out


def test_the_projection_from_tables_is_the_projection_from_the_store(tmp_path):
    # the fixture twice: as an in-memory store (the projection reads it with SPARQL) and as an out/
    # folder with a store and tables (DuckDB reads the Parquet files); nodes, edges, their attributes
    # and the order networkx gives them in must not depend on the path taken. Bob's kg:about is
    # copied into the merged view, as a build puts it: the tables read the merged view only.
    import pyoxigraph

    from kg.graphs.pairs import coauthor_edges
    from kg.graphs.projections import coauthor_graph
    from kg.store import open_store
    from kg.tables import write_tables

    fixture = (Path(__file__).parent / "data" / "graph-fixture.trig").read_bytes() + (
        b"src:cv-bob-byte-txt a kg:SourceDocument ; kg:about person:bob-byte .\n")
    in_memory = pyoxigraph.Store()
    in_memory.load(fixture, format=pyoxigraph.RdfFormat.TRIG)
    on_disk = pyoxigraph.Store(str(tmp_path / "store"))
    on_disk.load(fixture, format=pyoxigraph.RdfFormat.TRIG)
    on_disk.flush()
    del on_disk
    write_tables(tmp_path / "store", tmp_path / "tables")
    built = open_store(tmp_path)
    by_sparql, by_duckdb = coauthor_graph(in_memory), coauthor_graph(built)
    assert list(by_duckdb.nodes(data=True)) == list(by_sparql.nodes(data=True))
    assert list(by_duckdb.edges(data=True)) == list(by_sparql.edges(data=True))
    assert list(by_duckdb.graph["works"].items()) == list(by_sparql.graph["works"].items())
    assert coauthor_edges(built).equals(coauthor_edges(in_memory))
    assert len(coauthor_edges(built)) == by_duckdb.number_of_edges() == 7  # the pairs test_projections lists


def test_authorships_table_keeps_printed_places(with_tables):
    # regression: the fixture gives each author of Alpha both kg:hasAuthor and an authorship with an
    # ordinal (Bob 1, Ada 2, Cyd 3); SPARQL's MIN over the two solutions was unbound, so every
    # ordinal in the table was null and authors came out in IRI order
    import duckdb

    rows = duckdb.sql(f"""SELECT person, ordinal FROM '{with_tables / "tables" / "authorships.parquet"}'
                          WHERE work LIKE '%/alpha' ORDER BY ordinal""").fetchall()
    assert [(p.rsplit("/", 1)[1], o) for p, o in rows] == [("bob-byte", 1), ("ada-lovelace", 2), ("cyd-cache", 3)]
