"""pyshacl in a process of its own: the graph it is handed (read by Oxigraph, not by rdflib's
N-Triples parser) is the graph rdflib reads, and the forked process answers, fails and stops cleanly."""

from __future__ import annotations

import os

import pyoxigraph
import pytest
from conftest import DATA
from rdflib import Graph, Literal, URIRef
from rdflib.namespace import XSD

from kg import validate
from kg.build import read_documents, to_rdf, to_triples
from kg.identity.curation import CURATION_FILE, Curation
from kg.identity.resolve import resolve
from kg.rdf.quads import TripleSet

KG = "https://kg.example/ns#"
ID = "https://kg.example/id/"

# Every kind of term the build writes, and the escapes N-Triples has.
NT = f"""<{ID}work/w> <{KG}title> "Caches \\"fast\\"\\nand small \\u00e9t\\u00e9" .
<{ID}work/w> <{KG}year> "2020"^^<http://www.w3.org/2001/XMLSchema#gYear> .
<{ID}work/w> <{KG}hasAuthor> <{ID}person/a%7Cb> .
<{ID}authorship/x> <{KG}ordinal> "3"^^<http://www.w3.org/2001/XMLSchema#positiveInteger> .
<{ID}authorship/x> <{KG}equalContribution> "false"^^<http://www.w3.org/2001/XMLSchema#boolean> .
<{ID}person/a%7Cb> <{KG}name> "Zoë Ng" .
<{ID}person/a%7Cb> <{KG}note> "bonjour"@fr .
"""


def test_oxigraph_read_graph_has_the_terms_rdflib_reads():
    ours = validate.rdflib_graph(NT)
    assert set(ours) == set(Graph().parse(data=NT, format="nt"))
    # by hand: the escapes are decoded, a plain literal has no datatype, the others keep theirs
    w = URIRef(f"{ID}work/w")
    assert ours.value(w, URIRef(f"{KG}title")) == Literal('Caches "fast"\nand small été')
    assert ours.value(w, URIRef(f"{KG}title")).datatype is None
    assert ours.value(w, URIRef(f"{KG}year")) == Literal("2020", datatype=XSD.gYear)
    person = URIRef(f"{ID}person/a%7Cb")
    assert ours.value(person, URIRef(f"{KG}note")) == Literal("bonjour", lang="fr")
    assert ours.value(person, URIRef(f"{KG}name")) == Literal("Zoë Ng")
    assert len(ours) == 7


def test_on_the_seeds_pyshacl_gets_the_merged_view_kg_ttl_holds(seeds_out):
    curation = Curation.load(DATA / CURATION_FILE)
    docs, _ = read_documents(DATA, curation=curation)
    for d in docs:  # as the build does: the curation file's dates decide which source is newer
        d.latest_date = curation.document_dates.get(d.path, d.latest_date)
    res = resolve(docs, curation)
    _, merged = to_triples(docs, curation, res, include_private=False)
    handed = set(validate.rdflib_graph("".join(merged.lines())))
    # what the build used to hand pyshacl (rdflib's N-Triples parser), and what kg.ttl holds
    assert handed == set(to_rdf(docs, curation, res, include_private=False)[1])
    assert handed == set(Graph().parse(seeds_out / "kg.ttl", format="turtle"))
    assert len(handed) == len(merged) > 1000


def bad_work() -> TripleSet:
    # A work with a title and an author but a status outside sh:in ("lost"); no schema:author either.
    merged = TripleSet("")
    ttl = f"""@prefix kg: <{KG}> . @prefix schema: <http://schema.org/> .
<{ID}person/a> a kg:Person ; kg:name "Ann A" ; schema:name "Ann A" .
<{ID}work/w> a kg:Work ; kg:title "W" ; kg:status "lost" ; kg:hasAuthor <{ID}person/a> .
"""
    for t in pyoxigraph.parse(input=ttl.encode(), format=pyoxigraph.RdfFormat.TURTLE):
        merged.triples.add((str(t.subject), str(t.predicate), str(t.object)))
    return merged


def test_the_process_answers_what_pyshacl_in_this_process_answers():
    merged = bad_work()
    run = validate.ShaclProcess()
    try:
        run.check(merged)
        answer = run.result()
    finally:
        run.cancel()
    here = validate.validate_graph(Graph().parse(data="".join(merged.lines()), format="nt"))
    # the same focus nodes and paths (pyshacl lists an sh:in's values in a set's order); the property
    # checks find the same two, each with its own message
    assert answer[0] == here[0]
    assert {line.split(": ")[0] for line in answer[1]} == {line.split(": ")[0] for line in here[1]}
    assert answer[2] == "pyshacl on every triple + the shapes' property constraints on every node"
    # two violations of the Work shape: the missing schema:author (minCount) and the status (sh:in)
    assert not answer[0]
    assert sorted({line.split(": ")[0] for line in answer[1]}) == [f"{ID}work/w http://schema.org/author",
                                                                   f"{ID}work/w {KG}status"]
    assert any('Literal("lost")' in line for line in answer[1])  # pyshacl's own message is kept
    assert f"{ID}work/w {KG}status: value not in the allowed list" in answer[1]
    assert run.pid is None  # the child is reaped


def test_a_process_that_fails_says_so(monkeypatch):
    def broken(graph, focus_nodes=None, inplace=False):
        raise ValueError("pyshacl broke")

    monkeypatch.setattr(validate, "validate_graph", broken)  # the forked child runs it
    run = validate.ShaclProcess()
    run.check(bad_work())
    # the child's error arrives as itself (kg.child), the child's traceback attached
    with pytest.raises(ValueError, match="pyshacl broke") as caught:
        run.result()
    assert "ValueError: pyshacl broke" in caught.value.__notes__[0]  # the child's traceback
    assert run.pid is None  # the child is reaped


def test_a_build_that_stops_stops_the_process():
    run = validate.ShaclProcess()
    run.cancel()  # the build failed before the check started: nothing to stop
    run.check(bad_work())
    pid = run.pid
    run.cancel()  # the build failed while pyshacl ran
    assert run.pid is None
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # killed and reaped: no such child left
    run.cancel()  # twice is harmless


def test_without_room_for_a_second_process_the_check_runs_here(monkeypatch):
    def no_fork():
        raise OSError(12, "Cannot allocate memory")

    monkeypatch.setattr(os, "fork", no_fork)  # kg.child forks
    run = validate.ShaclProcess()
    run.check(bad_work())
    assert run.pid is None
    conforms, violations, _ = run.result()
    # the same two violations as in the process: schema:author missing, the status not in the list
    assert not conforms
    assert sorted({line.split(": ")[0] for line in violations}) == [f"{ID}work/w http://schema.org/author",
                                                                    f"{ID}work/w {KG}status"]


@pytest.mark.parametrize("small_graph", [20_000, 0])  # the seeds as a small graph, and as a big one
def test_the_build_reports_what_its_validation_process_found(tmp_path, monkeypatch, small_graph):
    # A small graph: the validation process forks before the documents are read (it inherits this
    # patch) and reads the merged view's N-Triples file once the first half wrote it. A big one: a fork
    # of the first half validates the merged view it holds. Either way every triple reaches it, and
    # what it finds reaches the build's report.
    import kg.build

    monkeypatch.setattr(kg.build, "SMALL_GRAPH", small_graph)
    monkeypatch.setattr(validate, "check_triples", lambda triples: [f"{len(triples)} triples checked"])
    report = kg.build.build_graph(DATA, tmp_path / "out")
    assert report.conforms is False
    assert report.violations == [f"{report.triples} triples checked"]
    assert report.validation == "pyshacl on every triple + the shapes' property constraints on every node"


def test_the_merged_view_read_back_from_its_file_is_the_one_written(tmp_path):
    # validate_ntriples cuts each line at its first two spaces: the literal with spaces, quotes and
    # escapes in NT must come back whole, so both ways find the same two violations
    merged = bad_work()
    merged.triples |= {(f"<{ID}work/w>", f"<{KG}abstract>", '"A \\"quoted\\" one . with spaces"')}
    path = tmp_path / "merged.nt"
    path.write_text("".join(merged.lines()), encoding="utf-8")
    from_file = validate.validate_ntriples(path)
    assert from_file == validate.validate_triples(merged)
    assert sorted({line.split(": ")[0] for line in from_file[1]}) == [f"{ID}work/w http://schema.org/author",
                                                                      f"{ID}work/w {KG}status"]


@pytest.mark.timeout(120)  # a validation run here that waited for the first half to send it would hang
def test_a_build_that_cannot_fork_validates_here_all_the_same(tmp_path, monkeypatch):
    from kg.build import build_graph

    def no_fork():
        raise OSError(12, "Cannot allocate memory")

    monkeypatch.setattr(os, "fork", no_fork)  # neither the validation nor the first half gets a process
    monkeypatch.setattr(validate, "check_triples", lambda triples: [f"{len(triples)} triples checked"])
    report = build_graph(DATA, tmp_path / "out", html=False)
    assert report.violations == [f"{report.triples} triples checked"]  # validated, on every merged triple
