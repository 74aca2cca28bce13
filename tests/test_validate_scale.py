"""Validation that scales: the shapes as SPARQL over the store, and pyshacl on a sample above a size."""

from __future__ import annotations

import pyoxigraph

from kg import validate
from kg.rdf.quads import TripleSet

KG = "https://kg.example/ns#"
ID = "https://kg.example/id/"
TTL = f"""@prefix kg: <{KG}> . @prefix schema: <http://schema.org/> . @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
<{ID}person/a> a kg:Person ; kg:name "Ann A" ; schema:name "Ann A" .
<{ID}work/good> a kg:Work ; kg:title "Good" ; kg:status "published" ; kg:hasAuthor <{ID}person/a> ;
    schema:author <{ID}person/a> ; kg:year "2020"^^xsd:gYear .
<{ID}work/bad> a kg:Work ; kg:status "lost" ; kg:hasAuthor <{ID}person/a> ; schema:author <{ID}person/a> ;
    kg:year "2020"^^xsd:gYear, "2021"^^xsd:gYear .
"""


def store_dir(tmp_path):
    path = tmp_path / "store"
    store = pyoxigraph.Store(str(path))
    store.load(input=TTL.encode(), format=pyoxigraph.RdfFormat.TURTLE, to_graph=pyoxigraph.DefaultGraph())
    store.flush()
    del store
    return tmp_path


def merged_of(tmp_path) -> TripleSet:
    merged = TripleSet("")
    for t in pyoxigraph.parse(input=TTL.encode(), format=pyoxigraph.RdfFormat.TURTLE):
        merged.triples.add((str(t.subject), str(t.predicate), str(t.object)))
    return merged


def test_the_shapes_as_sparql_find_each_broken_constraint(tmp_path):
    out = store_dir(tmp_path)
    found = validate.sparql_checks(pyoxigraph.Store.read_only(str(out / "store")))
    bad = f"{ID}work/bad"
    # work/bad has no title (minCount 1), a status outside the list (sh:in) and two years (maxCount 1);
    # work/good and the person break nothing.
    assert sorted(line.split(" ")[1].rstrip(":") for line in found) == [
        f"{KG}status", f"{KG}title", f"{KG}year"]
    assert all(line.startswith(bad + " ") for line in found)


def test_above_the_limit_pyshacl_checks_a_sample_and_says_so(tmp_path, monkeypatch):
    out = store_dir(tmp_path)
    monkeypatch.setattr(validate, "FULL_LIMIT", 3)
    monkeypatch.setattr(validate, "SAMPLE_SUBJECTS", 3)  # 3 subjects, a sample of 3: each is checked
    conforms, violations, what = validate.validate_build(out, merged_of(tmp_path))
    assert not conforms
    # 15 triples: the person 3 (type, two names), work/good 6, work/bad 6 (two years, no title)
    assert what == "pyshacl on 3 sampled nodes of 15 triples + the shapes as SPARQL on every node"
    # pyshacl's message for the missing title is the shape's own; the SPARQL line says the same focus and path
    assert f"{ID}work/bad {KG}title: a work needs exactly one title" in violations


def test_the_provenance_checks_find_facts_without_lines_or_source(tmp_path):
    # The Provenance shape targets every subject of kg:fromSource. fact/good has a source document and
    # both lines; fact/nolines has a source but no lines (two required values missing); fact/stray
    # points at a node that is no kg:SourceDocument (a value of the wrong class). The document itself
    # has its name and a well-formed sha256, so it breaks nothing.
    sha = "0" * 64
    ttl = f"""@prefix kg: <{KG}> . @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
<{ID}source/d> a kg:SourceDocument ; kg:fileName "d.md" ; kg:sha256 "{sha}" .
<{ID}fact/good> kg:fromSource <{ID}source/d> ; kg:firstLine "3"^^xsd:positiveInteger ;
    kg:lastLine "4"^^xsd:positiveInteger .
<{ID}fact/nolines> kg:fromSource <{ID}source/d> .
<{ID}fact/stray> kg:fromSource <{ID}person/x> ; kg:firstLine "1"^^xsd:positiveInteger ;
    kg:lastLine "1"^^xsd:positiveInteger .
"""
    store = pyoxigraph.Store(str(tmp_path / "store"))
    store.load(input=ttl.encode(), format=pyoxigraph.RdfFormat.TURTLE, to_graph=pyoxigraph.DefaultGraph())
    found = sorted(line.rsplit(":", 1)[0] for line in validate.sparql_checks(store))
    assert found == [f"{ID}fact/nolines {KG}firstLine", f"{ID}fact/nolines {KG}lastLine",
                     f"{ID}fact/stray {KG}fromSource"]
