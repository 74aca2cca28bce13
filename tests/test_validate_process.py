"""The validation's place in the build: the first half checks a small merged view itself, a fork of
it a big one, and what they find reaches the report; ``kg validate`` hands pyshacl the graph rdflib
reads (read by Oxigraph, not by rdflib's N-Triples parser)."""

from __future__ import annotations

import os

import pytest
from conftest import DATA
from rdflib import Graph, Literal, URIRef
from rdflib.namespace import XSD

from kg import validate
from kg.build import read_documents, to_rdf, to_triples
from kg.identity.curation import CURATION_FILE, Curation
from kg.identity.resolve import resolve

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
    # the seeds conform (see test_build_graph): to pyshacl, and to the build's own check
    assert validate.validate_graph(validate.rdflib_graph("".join(merged.lines())))[0]
    assert validate.check_merged(merged.triples)[:2] == (True, [])


@pytest.mark.parametrize("small_graph", [20_000, 0])  # the seeds as a small graph, and as a big one
def test_the_build_reports_what_its_validation_process_found(tmp_path, monkeypatch, small_graph):
    # A small graph: the first half (a fork, which inherits this patch) checks the merged view itself.
    # A big one, with a core to spare (FORK_FROM_CORES at 1): a fork of the first half checks the merged
    # view it holds. Either way every triple
    # reaches the check, and what it finds reaches the build's report.
    import kg.build

    monkeypatch.setattr(kg.build, "SMALL_GRAPH", small_graph)
    monkeypatch.setattr(kg.build, "FORK_FROM_CORES", 1)
    monkeypatch.setattr(validate, "check_triples", lambda triples: [f"{len(triples)} triples checked"])
    report = kg.build.build_graph(DATA, tmp_path / "out")
    assert report.conforms is False
    assert report.violations == [f"{report.triples} triples checked"]
    assert report.validation == "kg.shape_checks: every constraint of shapes.ttl on every node"


@pytest.mark.timeout(120)  # a validation run here that waited for the first half to send it would hang
def test_a_build_that_cannot_fork_validates_here_all_the_same(tmp_path, monkeypatch):
    from kg.build import build_graph

    def no_fork():
        raise OSError(12, "Cannot allocate memory")

    monkeypatch.setattr(os, "fork", no_fork)  # the first half gets no process: all of it runs here
    monkeypatch.setattr(validate, "check_triples", lambda triples: [f"{len(triples)} triples checked"])
    report = build_graph(DATA, tmp_path / "out", html=False)
    assert report.violations == [f"{report.triples} triples checked"]  # validated, on every merged triple


def test_a_big_build_that_cannot_fork_writes_the_same_identity_json(tmp_path, monkeypatch, seeds_out):
    # The seeds as a big build (SMALL_GRAPH at 0) with a core for the people's decisions, but no fork:
    # the step that would make and write them beside identity runs in this process when identity has
    # resolved the people (into a list of its own), the rest is appended after identity, and the file is
    # the small build's, byte for byte.
    import kg.build
    import kg.identity_file

    def no_fork():
        raise OSError(12, "Cannot allocate memory")

    monkeypatch.setattr(kg.build, "SMALL_GRAPH", 0)
    monkeypatch.setattr(kg.identity_file, "FORK_BESIDE_IDENTITY_FROM_CORES", 1)
    monkeypatch.setattr(os, "fork", no_fork)
    report = kg.build.build_graph(DATA, tmp_path / "out", html=False)
    assert report.skipped == []
    assert (tmp_path / "out" / "identity.json").read_bytes() == (seeds_out / "identity.json").read_bytes()


def test_too_many_people_decisions_for_a_fork_are_written_while_the_mapping_goes_on(tmp_path, monkeypatch,
                                                                                  seeds_out):
    # The seeds as a big build with a core for the fork, but more people's decisions than the fork may
    # copy (FORK_MAX_DECISIONS at 0): no fork; the first half writes identity.json a piece at a time while
    # it maps, the small build's bytes all the same.
    import kg.build
    import kg.identity_file

    monkeypatch.setattr(kg.build, "SMALL_GRAPH", 0)
    monkeypatch.setattr(kg.identity_file, "FORK_BESIDE_IDENTITY_FROM_CORES", 1)
    monkeypatch.setattr(kg.identity_file, "FORK_MAX_DECISIONS", 0)
    report = kg.build.build_graph(DATA, tmp_path / "out", html=False)
    assert [name for name, _ in report.stages][:3] == [
        "reading", "identity", "mapping, and the sources' N-Quads, with identity.json beside them"]
    assert (tmp_path / "out" / "identity.json").read_bytes() == (seeds_out / "identity.json").read_bytes()


def test_the_steps_a_big_build_forks_write_the_same_files(tmp_path, monkeypatch, seeds_out):
    # With SMALL_GRAPH at 0 the seeds are built as a big graph: the people's identity decisions are
    # written by a fork while identity goes on (the rest appended after it) and the merged view
    # validated by another; the files are those of the build that does both in the first half itself.
    import kg.build
    import kg.identity_file

    monkeypatch.setattr(kg.build, "SMALL_GRAPH", 0)
    monkeypatch.setattr(kg.build, "FORK_FROM_CORES", 1)  # the forks on any machine
    monkeypatch.setattr(kg.identity_file, "FORK_BESIDE_IDENTITY_FROM_CORES", 1)
    report = kg.build.build_graph(DATA, tmp_path / "out", html=False)
    assert report.conforms is True and report.skipped == []
    for name in ("identity.json", "kg.trig", "kg.ttl", "kg.jsonld"):
        assert (tmp_path / "out" / name).read_bytes() == (seeds_out / name).read_bytes(), name
