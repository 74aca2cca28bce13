"""Validation that scales: the shapes' property constraints on every triple, and pyshacl on a sample above a size."""

from __future__ import annotations

import pyoxigraph

from kg import validate
from kg.rdf.quads import TripleSet
from kg.shape_checks import check_triples

KG = "https://kg.example/ns#"
ID = "https://kg.example/id/"
TTL = f"""@prefix kg: <{KG}> . @prefix schema: <http://schema.org/> . @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
<{ID}person/a> a kg:Person ; kg:name "Ann A" ; schema:name "Ann A" .
<{ID}work/good> a kg:Work ; kg:title "Good" ; kg:status "published" ; kg:hasAuthor <{ID}person/a> ;
    schema:author <{ID}person/a> ; kg:year "2020"^^xsd:gYear .
<{ID}work/bad> a kg:Work ; kg:status "lost" ; kg:hasAuthor <{ID}person/a> ; schema:author <{ID}person/a> ;
    kg:year "2020"^^xsd:gYear, "2021"^^xsd:gYear .
"""


def merged_of(ttl: str = TTL) -> TripleSet:
    merged = TripleSet("")
    for t in pyoxigraph.parse(input=ttl.encode(), format=pyoxigraph.RdfFormat.TURTLE):
        merged.triples.add((str(t.subject), str(t.predicate), str(t.object)))
    return merged


def test_the_property_constraints_find_each_broken_one():
    found = check_triples(merged_of().triples)
    bad = f"{ID}work/bad"
    # work/bad has no title (minCount 1), a status outside the list (sh:in) and two years (maxCount 1);
    # work/good and the person break nothing.
    assert sorted(line.split(" ")[1].rstrip(":") for line in found) == [
        f"{KG}status", f"{KG}title", f"{KG}year"]
    assert all(line.startswith(bad + " ") for line in found)


def test_above_the_limit_pyshacl_checks_a_sample_and_says_so(monkeypatch):
    monkeypatch.setattr(validate, "FULL_LIMIT", 3)
    monkeypatch.setattr(validate, "SAMPLE_SUBJECTS", 3)  # 3 subjects, a sample of 3: each is checked
    conforms, violations, what = validate.validate_triples(merged_of())
    assert not conforms
    # 15 triples: the person 3 (type, two names), work/good 6, work/bad 6 (two years, no title)
    assert what == "pyshacl on 3 sampled nodes of 15 triples + the shapes' property constraints on every node"
    # pyshacl's message for the missing title is the shape's own; the property check says the same
    assert f"{ID}work/bad {KG}title: a work needs exactly one title" in violations


def test_the_provenance_checks_find_facts_without_lines_or_source():
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
    found = sorted(line.rsplit(":", 1)[0] for line in check_triples(merged_of(ttl).triples))
    assert found == [f"{ID}fact/nolines {KG}firstLine", f"{ID}fact/nolines {KG}lastLine",
                     f"{ID}fact/stray {KG}fromSource"]


def test_datatype_pattern_and_class_are_checked_on_each_value():
    # Read against shapes.ttl: kg:year must be an xsd:gYear (work/w gives a plain string); a person
    # has exactly one kg:name (person/p has two); a source document's kg:sha256 matches ^[0-9a-f]{64}$
    # (source/d's has upper-case letters); kg:hasAuthor's values are kg:Persons (work/w names
    # person/q, which has no type). work/w's title, status and schema:author are fine; person/p has
    # its schema:name; source/d has its file name.
    ttl = f"""@prefix kg: <{KG}> . @prefix schema: <http://schema.org/> .
<{ID}work/w> a kg:Work ; kg:title "W" ; kg:status "preprint" ; kg:year "2020" ;
    kg:hasAuthor <{ID}person/p>, <{ID}person/q> ; schema:author <{ID}person/p> .
<{ID}person/p> a kg:Person ; kg:name "P One", "P Two" ; schema:name "P One" .
<{ID}source/d> a kg:SourceDocument ; kg:fileName "d.md" ; kg:sha256 "{'AB' * 32}" .
"""
    found = sorted(line.split(": ", 1)[0] for line in check_triples(merged_of(ttl).triples))
    assert found == [f"{ID}person/p {KG}name", f"{ID}source/d {KG}sha256",
                     f"{ID}work/w {KG}hasAuthor", f"{ID}work/w {KG}year"]


def test_the_build_reports_what_the_checks_find(tmp_path):
    # A seed-sized build checks every node: on a good build the report says so and finds nothing
    # (the seeds conform, see test_build_graph); here only the report's wording is new.
    from kg.build import build_graph

    data = tmp_path / "data"
    data.mkdir()
    (data / "cv.md").write_text("# Ann Example\n\n## Publications\n\n- A. Example, B. Other. A title. In Proc. X, 2020.\n",
                                encoding="utf-8")
    report = build_graph(data, tmp_path / "out", html=False)
    assert report.conforms is True
    assert report.validation == "kg.shape_checks: every constraint of shapes.ttl on every node"


def test_the_sample_is_every_kth_subject_with_the_nodes_it_points_to(monkeypatch):
    # Seven subjects s0..s6 (sorted by IRI), each pointing to the next; s6 points to o, which is no
    # subject, and s1 has a literal. With a sample of 3: step 7 // 3 = 2, so s0, s2, s4 and s6 are the
    # focus; each one's next (s1, s3, s5) joins the lines, o does not (it states nothing).
    monkeypatch.setattr(validate, "SAMPLE_SUBJECTS", 3)
    merged = TripleSet("")
    for k in range(7):
        merged.triples.add((f"<{ID}s{k}>", f"<{KG}next>", f"<{ID}s{k + 1}>" if k < 6 else f"<{ID}o>"))
    merged.triples.add((f"<{ID}s1>", f"<{KG}name>", '"one"'))
    focus, lines = validate._sample(merged)
    assert focus == [f"{ID}s{k}" for k in (0, 2, 4, 6)]
    assert lines == [f"<{ID}s0> <{KG}next> <{ID}s1> .\n", f'<{ID}s1> <{KG}name> "one" .\n',
                     f"<{ID}s1> <{KG}next> <{ID}s2> .\n"] + [
        f"<{ID}s{k}> <{KG}next> <{ID}s{k + 1}> .\n" for k in range(2, 6)] + [f"<{ID}s6> <{KG}next> <{ID}o> .\n"]


def test_kg_validate_reads_the_built_file(seeds_out, tmp_path):
    # kg.ttl is what kg validate checks: a copy with one more work, typed but without a title (or a
    # status, or the place it was read from), breaks "exactly one title" for that work
    import shutil

    from tests.conftest import run_kg

    out = tmp_path / "out"
    shutil.copytree(seeds_out, out)
    assert run_kg("validate", "--out", out).stdout == f"{out}/kg.ttl conforms to shapes.ttl\n"
    with open(out / "kg.ttl", "a", encoding="utf-8") as ttl:
        ttl.write(f"<{ID}work/untitled> a <{KG}Work> .\n")
    result = run_kg("validate", "--out", out)
    assert result.returncode == 1
    assert f"{ID}work/untitled {KG}title: a work needs exactly one title" in result.stdout.splitlines()
