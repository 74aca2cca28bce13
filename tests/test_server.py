"""`kg serve` as a real subprocess on a free loopback port, spoken to with SPARQLWrapper and urllib.

The store holds the hand-written fixture (tests/data/sparql-fixture.trig): 14 people,
7 works, 4 source graphs. The time limit is 1 second and the result-size limit 200 rows.
"""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pyoxigraph
import pytest
from conftest import run_kg, stop_process
from SPARQLWrapper import CSV, JSON, JSONLD, N3, POST, POSTDIRECTLY, TSV, TURTLE, URLENCODED, XML, SPARQLWrapper
from SPARQLWrapper.SPARQLExceptions import QueryBadFormed

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "data" / "sparql-fixture.trig"
KG = str(Path(sys.executable).parent / "kg")

PEOPLE = "SELECT ?name WHERE { ?p a kg:Person ; kg:name ?name } ORDER BY ?name"
SLOW = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }"


@pytest.fixture(scope="module")
def server(sparql_fixture_out):
    out = sparql_fixture_out  # opened read-only by the server's workers
    process = subprocess.Popen(
        [KG, "serve", "--out", str(out), "--port", "0", "--timeout", "1", "--max-results", "200",
         "--cors-origin", "http://allowed.example"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT,
    )
    try:
        line = process.stderr.readline()
        match = re.search(r"at (http://127\.0\.0\.1:\d+/)sparql", line)
        assert match, f"kg serve did not start: {line}{process.stderr.read() if process.poll() is not None else ''}"
        base = match[1]
        yield {"base": base, "endpoint": base + "sparql", "out": out}
    finally:
        stop_process(process)


def http(url, data=None, headers=None, method=None):
    """(status, headers, body) of a request, errors included."""
    request = urllib.request.Request(url, data=data, headers=headers or {}, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as err:
        return err.code, err.headers, err.read()


def get(server, query, accept=None, **params):
    url = server["endpoint"] + "?" + urllib.parse.urlencode({"query": query, **params})
    return http(url, headers={"Accept": accept} if accept else {})


def wrapper(server, query, fmt, method=None, request_method=None):
    sparql = SPARQLWrapper(server["endpoint"])
    sparql.setQuery(query)
    sparql.setReturnFormat(fmt)
    if method:
        sparql.setMethod(method)
    if request_method:
        sparql.setRequestMethod(request_method)
    return sparql.query()


def names_from_json(body):
    return [b["name"]["value"] for b in json.loads(body)["results"]["bindings"]]


# ----------------------------------------------------------------------------- protocol forms


def test_get_form(server):
    status, headers, body = get(server, PEOPLE, "application/sparql-results+json")
    assert status == 200
    assert headers["Content-Type"].startswith("application/sparql-results+json")
    names = names_from_json(body)
    assert len(names) == 14 and names[0] == "Chunwei Xia" and names[-1] == "Zhisheng Ye"


def test_post_form_urlencoded(server):
    data = urllib.parse.urlencode({"query": PEOPLE}).encode()
    status, _, body = http(server["endpoint"], data, {"Content-Type": "application/x-www-form-urlencoded",
                                                      "Accept": "application/sparql-results+json"})
    assert status == 200 and len(names_from_json(body)) == 14


def test_post_direct(server):
    status, _, body = http(server["endpoint"], PEOPLE.encode(), {"Content-Type": "application/sparql-query",
                                                                 "Accept": "text/csv"})
    rows = list(csv.reader(io.StringIO(body.decode())))
    assert status == 200 and rows[0] == ["name"] and len(rows) == 15


@pytest.mark.parametrize("method, request_method", [(None, None), (POST, URLENCODED), (POST, POSTDIRECTLY)])
def test_sparqlwrapper_every_protocol_form(server, method, request_method):
    result = wrapper(server, PEOPLE, JSON, method, request_method).convert()
    assert [b["name"]["value"] for b in result["results"]["bindings"]][:2] == ["Chunwei Xia", "Harsha Nori"]


def test_default_and_named_graph_parameters(server):
    # With one source graph as the default graph, only that CV's lines count.
    query = "SELECT (COUNT(*) AS ?n) WHERE { ?a kg:firstLine ?l }"
    graph = "https://kg.example/id/source/cv-qinghao-hu-2023-md"
    status, _, body = get(server, query, "application/sparql-results+json", **{"default-graph-uri": graph})
    assert status == 200
    # 2023 CV graph: 3 works (whose lines their authorships are read from), 2 educations, 2 talks,
    # 1 service role carry lines.
    assert json.loads(body)["results"]["bindings"][0]["n"]["value"] == "8"


# ----------------------------------------------------------------------------- results formats


def test_results_formats_by_accept(server):
    query = "SELECT ?name ?year WHERE { ?a kg:receivedAward ?w ; kg:name ?name . ?w kg:year ?year } ORDER BY ?year"
    status, headers, body = get(server, query, "application/sparql-results+xml")
    assert status == 200 and headers["Content-Type"].startswith("application/sparql-results+xml")
    assert body.decode().count("<result>") == 4
    status, headers, body = get(server, query, "text/tab-separated-values")
    assert headers["Content-Type"].startswith("text/tab-separated-values")
    assert body.decode().splitlines()[1] == '"Qinghao Hu"\t"2018"^^<http://www.w3.org/2001/XMLSchema#gYear>'
    status, headers, body = get(server, query, "text/csv")
    assert body.decode().splitlines()[2] == "Shenghao Qiu,2020"


@pytest.mark.parametrize("fmt, check", [
    (JSON, lambda r: len(r["results"]["bindings"]) == 4),
    (XML, lambda r: len(r.getElementsByTagName("result")) == 4),
    (CSV, lambda r: r.decode().splitlines()[1] == "Qinghao Hu,2024"),
    (TSV, lambda r: len(r.decode().splitlines()) == 5),
])
def test_sparqlwrapper_results_formats(server, fmt, check):
    query = ("SELECT ?name ?year WHERE { ?a kg:receivedAward ?w ; kg:name ?name . ?w kg:year ?year }"
             " ORDER BY DESC(?year)")
    assert check(wrapper(server, query, fmt).convert())


def test_ask(server):
    assert wrapper(server, "ASK { ?p kg:name 'Liang You' }", JSON).convert()["boolean"] is True
    status, _, body = get(server, "ASK { ?p kg:name 'Nobody' }", "text/csv")
    assert status == 200 and body.strip() == b"false"


CARD = "CONSTRUCT { ?p ?k ?v } WHERE { ?p kg:name 'Chunwei Xia' ; a kg:Person ; ?k ?v }"


@pytest.mark.parametrize("accept, media, rdf_format", [
    ("text/turtle", "text/turtle", pyoxigraph.RdfFormat.TURTLE),
    ("application/n-triples", "application/n-triples", pyoxigraph.RdfFormat.N_TRIPLES),
    ("application/ld+json", "application/ld+json", pyoxigraph.RdfFormat.JSON_LD),
    ("application/rdf+xml", "application/rdf+xml", pyoxigraph.RdfFormat.RDF_XML),
])
def test_graph_formats_by_accept(server, accept, media, rdf_format):
    status, headers, body = get(server, CARD, accept)
    assert status == 200 and headers["Content-Type"].startswith(media)
    # Chunwei Xia: kg:Person, schema:Person, kg:name, schema:name.
    assert len(list(pyoxigraph.parse(body, format=rdf_format))) == 4


@pytest.mark.filterwarnings("ignore:ConjunctiveGraph is deprecated:DeprecationWarning")
@pytest.mark.parametrize("fmt", [TURTLE, N3, JSONLD])
def test_sparqlwrapper_graph_formats(server, fmt):
    import rdflib

    graph = wrapper(server, CARD, fmt).convert()  # Turtle and N3 come as bytes, JSON-LD parsed
    if isinstance(graph, bytes):
        graph = rdflib.Graph().parse(data=graph, format="turtle")
    assert len(graph) == 4


def test_describe(server):
    status, _, body = get(server, "DESCRIBE <https://kg.example/id/venue/asplos>", "application/n-triples")
    assert status == 200 and len(body.decode().splitlines()) == 3  # a kg:Venue, name, acronym


def test_format_parameter_wins_over_accept(server):
    status, headers, _ = get(server, PEOPLE, "application/sparql-results+xml", format="csv")
    assert status == 200 and headers["Content-Type"].startswith("text/csv")


def test_unacceptable_format_is_406(server):
    status, _, body = get(server, PEOPLE, "image/png")
    assert status == 406 and b"accept one of" in body


# ----------------------------------------------------------------------------- errors and limits


def test_bad_query_is_400_with_parser_message(server):
    status, _, body = get(server, "SELECT ?s WHERE { ?s ?p }")
    assert status == 400
    assert re.match(r"query syntax error at line 1, column \d+: expected one of", body.decode())
    with pytest.raises(QueryBadFormed):
        wrapper(server, "SELECT ?s WHERE { ?s ?p }", JSON).convert()


def test_updates_are_refused_and_change_nothing(server):
    count = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"
    before = json.loads(get(server, count, "application/json")[2])
    insert = "INSERT DATA { <urn:x> <urn:y> <urn:z> }"
    status, _, body = http(server["endpoint"], insert.encode(), {"Content-Type": "application/sparql-update"})
    assert status == 403 and b"read-only" in body
    form = urllib.parse.urlencode({"update": "DELETE WHERE { ?s ?p ?o }"}).encode()
    status, _, _ = http(server["endpoint"], form, {"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 403
    status, _, _ = http(server["endpoint"] + "?" + urllib.parse.urlencode({"update": insert}))
    assert status == 403
    status, _, _ = get(server, insert)  # an update sent as a query does not parse
    assert status == 400
    sparql = SPARQLWrapper(server["endpoint"])
    sparql.setMethod(POST)
    sparql.setQuery(insert)
    with pytest.raises(urllib.error.HTTPError) as err:
        sparql.query()
    assert err.value.code == 403
    assert json.loads(get(server, count, "application/json")[2]) == before
    fixture = pyoxigraph.Dataset(pyoxigraph.parse(path=str(FIXTURE), format=pyoxigraph.RdfFormat.TRIG))
    merged = sum(1 for q in fixture if q.graph_name == pyoxigraph.DefaultGraph())
    assert before["results"]["bindings"][0]["n"]["value"] == str(merged)


def test_slow_query_hits_time_limit_and_server_recovers(server):
    started = time.monotonic()
    status, _, body = get(server, SLOW, "application/json")
    elapsed = time.monotonic() - started
    assert status == 503
    assert b"time limit of 1 s" in body
    assert elapsed < 5
    # The killed worker is replaced: the next queries are answered.
    for _ in range(3):
        assert get(server, "ASK {}", "application/json")[0] == 200


def test_result_size_limit(server):
    status, _, body = get(server, "SELECT * WHERE { ?s ?p ?o }", "text/csv")
    assert status == 500 and b"more than 200 rows" in body
    status, _, body = get(server, "SELECT * WHERE { ?s ?p ?o } LIMIT 200", "text/csv")
    assert status == 200 and len(body.decode().splitlines()) == 201


def test_unsupported_content_type_is_415(server):
    status, _, _ = http(server["endpoint"], b"{}", {"Content-Type": "application/json"})
    assert status == 415


# ----------------------------------------------------------------------------- CORS, description, page


def test_cors(server):
    # Only the origin given with --cors-origin may read answers; the old wildcard is gone (issue 15, item 1).
    status, headers, _ = http(server["endpoint"], method="OPTIONS",
                              headers={"Origin": "http://allowed.example", "Access-Control-Request-Method": "POST"})
    assert status == 204
    assert headers["Access-Control-Allow-Origin"] == "http://allowed.example"
    assert "POST" in headers["Access-Control-Allow-Methods"]
    assert "Content-Type" in headers["Access-Control-Allow-Headers"]
    assert get(server, "ASK {}", "application/json")[1]["Access-Control-Allow-Origin"] is None
    status, headers, body = http(server["endpoint"] + "?query=ASK%7B%7D", headers={"Origin": "http://evil.example"})
    assert status == 403 and headers["Access-Control-Allow-Origin"] is None and b"--cors-origin" in body


def test_service_description(server):
    status, headers, body = http(server["endpoint"], headers={"Accept": "text/turtle"})
    assert status == 200 and headers["Content-Type"].startswith("text/turtle")
    store = pyoxigraph.Store()
    store.load(body, format=pyoxigraph.RdfFormat.TURTLE)
    sd = "http://www.w3.org/ns/sparql-service-description#"
    [row] = store.query(f"SELECT ?s WHERE {{ ?s a <{sd}Service> ; <{sd}supportedLanguage> <{sd}SPARQL11Query> }}")
    assert row["s"].value == server["endpoint"]
    graphs = list(store.query(f"SELECT ?g WHERE {{ ?d <{sd}namedGraph>/<{sd}name> ?g }}"))
    assert len(graphs) == 4
    formats = list(store.query(f"SELECT ?f WHERE {{ ?s <{sd}resultFormat> ?f }}"))
    assert len(formats) == 8


def test_query_page_and_examples_are_served_without_external_links(server):
    status, headers, page = http(server["base"])
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    html = page.decode()
    assert "<textarea" in html and 'id="examples"' in html
    for asset in re.findall(r'(?:src|href)="(/static/[^"]+)"', html):
        assert http(server["base"].rstrip("/") + asset)[0] == 200
    script = http(server["base"] + "static/query.js")[2].decode()
    assert not re.search(r"https?://(?!kg\.example|schema\.org|www\.w3\.org)", html + script)
    examples = json.loads(http(server["base"] + "examples.json")[2])
    assert {e["name"] for e in examples} >= {"coauthors", "source-disagreements", "two-hops"}
    assert all(e["query"].lstrip().startswith("#") for e in examples)


def test_unknown_path_is_404(server):
    assert http(server["base"] + "nothing-here")[0] == 404
    assert http(server["base"] + "static/../sparql.py")[0] == 404


def test_serve_on_a_busy_port_says_so(server):
    port = urllib.parse.urlsplit(server["base"]).port
    run = run_kg("serve", "--out", server["out"], "--port", port)  # in this process: it stops before serving
    assert run.returncode == 2
    assert "cannot listen on 127.0.0.1" in run.stderr


@pytest.mark.browser
def test_query_page_runs_an_example_in_a_browser(server, browser):
    outside = []
    page = browser.new_page()
    page.on("request", lambda r: None if r.url.startswith(server["base"]) else outside.append(r.url))
    page.goto(server["base"] + "#example=coauthors")
    page.wait_for_function("document.getElementById('query').value.includes('coauthor')")
    page.click("#run")
    page.wait_for_selector("#output table")
    # Unbound, coauthors.rq lists every person's co-authors: Hu's 8 + Meng Zhang's 6 + ...
    rows = page.locator("#output tbody tr").count()
    status = page.text_content("#status")
    page.close()
    assert outside == []
    assert rows > 8 and status.startswith(f"{rows} rows")
