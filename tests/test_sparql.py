"""kg.query and `kg query` on the hand-written fixture (tests/data/sparql-fixture.trig).

Expected values come from reading the fixture, which copies facts from data/: for instance
Qinghao Hu's 2024 CV lists Lucid, Hydro, Primo and Characterization, all with Peng Sun.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pyoxigraph
import pytest
from conftest import run_kg

from kg.errors import UsageError, UserError
from kg.query.examples import load_examples, read_query
from kg.query.formats import format_result
from kg.query.sparql import ResultTooLarge, run_query
from kg.query.terms import parse_bindings, parse_term

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "data" / "sparql-fixture.trig"
QUERY_FILE = ROOT / "kg" / "data" / "queries" / "coauthors.rq"


@pytest.fixture(scope="module")
def fixture_out(sparql_fixture_out) -> Path:
    return sparql_fixture_out


@pytest.fixture(scope="module")
def store(fixture_out):
    return pyoxigraph.Store.read_only(str(fixture_out / "store"))


def kg(*args, check=True):
    run = run_kg(*args)
    if check:
        assert run.returncode == 0, run.stderr
    return run


# ----------------------------------------------------------------------------- library


def test_fixture_has_merged_default_graph_and_four_source_graphs(store):
    graphs = sorted(g.value for g in store.named_graphs())
    assert graphs == [
        "https://kg.example/id/source/cv-qinghao-hu-2023-md",
        "https://kg.example/id/source/cv-qinghao-hu-2024-md",
        "https://kg.example/id/source/cv-shenghao-qiu-md",
        "https://kg.example/id/source/thesis-record-shenghao-qiu-txt",
    ]


def test_select_counts_people_with_builtin_prefixes(store):
    # 14 people in the fixture: Hu and his 8 co-authors, Qiu, You, Wang, Xia, and Jie Xu.
    result = run_query(store, "SELECT (COUNT(?p) AS ?n) WHERE { ?p a kg:Person }")
    assert result.kind == "solutions"
    assert result.variables == ["n"]
    assert result.rows[0][0].value == "14"


def test_bind_is_a_value_not_query_text(store):
    query = "SELECT ?p ?name WHERE { ?p kg:name ?name }"
    hu = run_query(store, query, bindings=parse_bindings(["name=Qinghao Hu"]))
    assert [row[0].value for row in hu.rows] == ["https://kg.example/id/person/qinghao-hu"]
    # A value that would break out of a pasted string matches nothing instead.
    evil = run_query(store, query, bindings=parse_bindings(['name=x" } UNION { ?p kg:name ?name } #']))
    assert evil.rows == []


def test_bind_an_iri(store):
    query = "SELECT ?person (COUNT(?w) AS ?n) WHERE { ?w kg:hasAuthor ?person } GROUP BY ?person"
    result = run_query(store, query, bindings=parse_bindings(["person=id:person/zheng-wang"]))
    # Zheng Wang: the Sparse (LCPC 2020) and Tensor-train (IPDPS 2025) papers.
    assert [row[1].value for row in result.rows] == ["2"]


def test_bind_a_variable_the_query_does_not_select_is_a_usage_error(store):
    with pytest.raises(UsageError, match=r"only the variables the query selects can be bound"):
        run_query(store, "SELECT ?p WHERE { ?p kg:name ?n }", bindings=parse_bindings(["name=x"]))


def test_parse_term_forms():
    assert parse_term("<https://kg.example/id/x>").value == "https://kg.example/id/x"
    assert parse_term("kg:Person").value == "https://kg.example/ns#Person"
    lit = parse_term('"chat"@fr')
    assert (lit.value, lit.language) == ("chat", "fr")
    assert parse_term("2023").datatype.value == "http://www.w3.org/2001/XMLSchema#string"
    assert parse_term("Hu, Qinghao").value == "Hu, Qinghao"
    with pytest.raises(UsageError, match="is not an IRI"):
        parse_term('"x"^^nope:thing')


@pytest.mark.parametrize("pair, message", [
    ("name", "has no '='"),
    ("1x=2", "is not a variable name"),
])
def test_bad_bindings(pair, message):
    with pytest.raises(UsageError, match=message):
        parse_bindings([pair])


def test_bind_twice_is_refused():
    with pytest.raises(UsageError, match="bound twice"):
        parse_bindings(["a=1", "?a=2"])


def test_syntax_error_gives_line_and_column(store):
    with pytest.raises(UsageError) as err:
        run_query(store, "SELECT ?s\nWHERE { ?s ?p }", source="q.rq")
    assert str(err.value).startswith("q.rq syntax error at line 2, column ")
    assert isinstance(err.value, UsageError)  # the command line exits 2 for it (tests/test_cli_errors.py)


def test_ask_and_construct(store):
    assert run_query(store, "ASK { GRAPH ?g { ?s kg:firstLine 126 } }").boolean is True
    graph = run_query(store, "CONSTRUCT { ?w kg:year ?y } WHERE { ?w a kg:Work ; kg:year ?y }")
    assert graph.kind == "graph"
    assert len(graph.triples) == 7  # 7 works in the fixture, each with one year


def test_result_limit(store):
    query = "SELECT ?p WHERE { ?p a kg:Person }"
    assert len(run_query(store, query, limit=14)) == 14
    with pytest.raises(ResultTooLarge, match="more than 13 rows"):
        run_query(store, query, limit=13)


def test_result_formats(store):
    result = run_query(store, """
        SELECT ?name ?year WHERE { ?a kg:receivedAward ?w . ?a kg:name ?name . ?w kg:year ?year }
        ORDER BY ?year""")
    # The four awards of the fixture: 2018, 2020 (Qiu), 2023, 2024.
    rows = list(csv.reader(io.StringIO(format_result(result, "csv").decode())))
    assert rows == [["name", "year"], ["Qinghao Hu", "2018"], ["Shenghao Qiu", "2020"],
                    ["Qinghao Hu", "2023"], ["Qinghao Hu", "2024"]]
    tsv = format_result(result, "tsv").decode().splitlines()
    assert tsv[0] == "?name\t?year"
    assert tsv[1] == '"Qinghao Hu"\t"2018"^^<http://www.w3.org/2001/XMLSchema#gYear>'
    data = json.loads(format_result(result, "json"))
    assert data["head"]["vars"] == ["name", "year"]
    assert data["results"]["bindings"][1]["name"] == {"type": "literal", "value": "Shenghao Qiu"}
    xml = format_result(result, "xml").decode()
    assert xml.count("<result>") == 4 and "sparql-results" in xml
    table = format_result(result, "table").decode().splitlines()
    assert table[0].split() == ["name", "year"]
    assert table[2].split() == ["Qinghao", "Hu", "2018"]
    assert table[-1] == "(4 rows)"


def test_graph_formats(store):
    graph = run_query(store, "CONSTRUCT { ?p kg:name ?n } WHERE { ?p kg:name ?n ; a kg:Person } ")
    nt = format_result(graph, "ntriples").decode().splitlines()
    assert len(nt) == 14
    assert nt[0] == '<https://kg.example/id/person/chunwei-xia> <https://kg.example/ns#name> "Chunwei Xia" .'
    turtle = format_result(graph, "turtle")
    parsed = list(pyoxigraph.parse(turtle, format=pyoxigraph.RdfFormat.TURTLE))
    assert len(parsed) == 14
    doc = json.loads(format_result(graph, "jsonld"))
    assert len(doc) == 14 and doc[0]["@id"] == "https://kg.example/id/person/chunwei-xia"
    assert format_result(graph, "table") == turtle


def test_format_mismatch_is_a_usage_error(store):
    select = run_query(store, "SELECT * WHERE { ?s kg:acronym ?a }")
    with pytest.raises(UsageError, match="for CONSTRUCT and DESCRIBE"):
        format_result(select, "turtle")
    graph = run_query(store, "CONSTRUCT WHERE { ?s kg:acronym ?a }")
    with pytest.raises(UsageError, match="for SELECT and ASK"):
        format_result(graph, "csv")
    with pytest.raises(UsageError, match="unknown format"):
        format_result(select, "yaml")


def test_same_query_same_bytes(store):
    query = "CONSTRUCT WHERE { ?s ?p ?o }"
    first = format_result(run_query(store, query), "turtle")
    assert first == format_result(run_query(store, query), "turtle")


def test_read_query_and_examples(tmp_path):
    (tmp_path / "hello.rq").write_text("# Says hello.\n#\n# Binds: nothing.\nASK {}\n", encoding="utf-8")
    assert read_query(str(tmp_path / "hello.rq"))[0].endswith("ASK {}\n")
    assert read_query("hello", tmp_path)[1] == str(tmp_path / "hello.rq")
    assert read_query("ASK {}", tmp_path) == ("ASK {}", "query")
    long_line = "SELECT ?s WHERE { " + "?s ?p ?o . " * 40 + "}"  # longer than a file name may be
    assert read_query(long_line, tmp_path) == (long_line, "query")
    with pytest.raises(UsageError, match="no query file"):
        read_query(str(tmp_path / "missing.rq"))
    [example] = load_examples(tmp_path)
    assert (example.name, example.title) == ("hello", "Says hello.")


def test_empty_query_is_refused(store):
    with pytest.raises(UserError, match="empty"):
        run_query(store, "   ")


# ----------------------------------------------------------------------------- CLI


def test_cli_query_file_with_bind_csv(fixture_out):
    run = kg("query", str(QUERY_FILE), "--out", str(fixture_out), "--bind", "name=Qinghao Hu",
             "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(run.stdout)))
    assert [(r["coauthor"], r["works"]) for r in rows[:3]] == [
        ("Peng Sun", "4"), ("Tianwei Zhang", "4"), ("Yonggang Wen", "4")]
    assert len(rows) == 8


def test_cli_example_by_name_as_turtle(fixture_out, tmp_path):
    target = tmp_path / "card.ttl"
    kg("query", "person-card", "--out", str(fixture_out), "--bind", "name=Chunwei Xia",
       "--format", "turtle", "--output", str(target))
    triples = list(pyoxigraph.parse(path=str(target), format=pyoxigraph.RdfFormat.TURTLE))
    # Chunwei Xia: two types, kg:name, schema:name.
    assert len(triples) == 4


def test_cli_ask_json(fixture_out):
    run = kg("query", "ASK { ?p kg:name 'Jie Xu' }", "--out", str(fixture_out), "--format", "json")
    assert json.loads(run.stdout) == {"head": {}, "boolean": True}


def test_cli_syntax_error_exits_2_with_position(fixture_out):
    run = kg("query", "SELECT * WHERE { ?s ?p }", "--out", str(fixture_out), check=False)
    assert run.returncode == 2
    assert run.stderr.startswith("kg: error: query syntax error at line 1, column 25")
    assert "Traceback" not in run.stderr


def test_cli_missing_store_says_what_to_do(tmp_path):
    run = kg("query", "ASK {}", "--out", str(tmp_path / "nowhere"), check=False)
    assert run.returncode == 1
    assert "run `kg build` first" in run.stderr


def test_cli_help_has_examples():
    assert "kg query coauthors --bind name=\"Ana Ruiz\"" in kg("query", "--help").stdout
    assert "kg serve --port" in kg("serve", "--help").stdout
