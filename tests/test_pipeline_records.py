"""The pipeline on records written by hand: documents without an owner, ORCID-style works without
an author list, several works on one line, collections of files, DOIs and editors, conflicts on
every single-valued property, and the per-document build summary."""

from __future__ import annotations

from pathlib import Path

import pytest
from rdflib import Literal, URIRef

from kg.build import BuildReport, DocumentReport, to_rdf, to_triples
from kg.identity.curation import Curation
from kg.identity.resolve import resolve
from kg.outputs.conflicts import conflicts
from kg.rdf.serialize import write_nquads, write_ntriples
from kg.records import Author, Document, Education, Position, Profile, Skill, Span, VenueRef, Work
from kg.store import create_store, open_store
from kg.vocab import DATA, KG

JANE = Profile("Jane Doe", Span("a.md", 1, 1))


def graphs(docs):
    res = resolve(docs)
    ds, merged = to_rdf(docs, Curation(), res, include_private=False)
    return res, ds, merged


def author(name):
    return Author(name, name)


def test_a_document_without_an_owner_gives_its_works_and_authors():
    # A group page: two works, three distinct authors, one venue; nobody owns the page.
    works = [Work("Alpha", Span("group.md", 3, 3), authors=[author("Ann Lee"), author("Bo Chen")],
                  venue=VenueRef("Systems Conference", "SYSC"), year="2021"),
             Work("Beta", Span("group.md", 4, 4), authors=[author("Bo Chen"), author("Cy Park")], year="2022")]
    doc = Document("group.md", "markdown", "0", None, facts=works)
    res, _, merged = graphs([doc])
    assert res.subject_of_document == {}
    assert sorted(p.name for p in res.people.values()) == ["Ann Lee", "Bo Chen", "Cy Park"]
    alpha = URIRef(res.work("group.md", works[0]))
    assert len(set(merged.objects(alpha, KG.hasAuthor))) == 2
    assert (alpha, KG.publishedIn, URIRef(DATA["venue/sysc"])) in merged


def test_an_orcid_work_without_authors_credits_the_owner_at_no_known_place():
    work = Work("Gamma", Span("orcid.json", 1, 1, place="works[0]"), authors_not_listed=True)
    doc = Document("orcid.json", "orcid", "0", Profile("Jane Doe", Span("orcid.json", 1, 1)), facts=[work])
    res, _, merged = graphs([doc])
    node = URIRef(res.work("orcid.json", work))
    jane = URIRef(DATA["person/jane-doe"])
    assert (node, KG.hasAuthor, jane) in merged
    authorship = next(merged.objects(node, KG.hasAuthorship))
    assert merged.value(authorship, KG.ordinal) is None  # the place is unknown: no ordinal
    # the place of the work in its file is kept as provenance
    assert merged.value(node, KG.sourcePlace) == Literal("works[0]")


def test_one_person_twice_on_an_author_list_starred_once_gives_one_mark():
    # Regression (1,000 generated CVs): "Ann Lee*, Bo Chen, Ann Lee" gave Ann's authorship both
    # true and false. Marks are written only where true, so it has one: true. Bo has none.
    work = Work("Delta", Span("list.md", 2, 3), authors=[Author("Ann Lee", "Ann Lee*", equal_contribution=True),
                                                        author("Bo Chen"), author("Ann Lee")])
    res, ds, merged = graphs([Document("list.md", "markdown", "0", None, facts=[work])])
    node = URIRef(res.work("list.md", work))
    marks = {merged.value(a, KG.author): list(merged.objects(a, KG.equalContribution))
             for a in merged.objects(node, KG.hasAuthorship)}
    assert marks == {URIRef(DATA["person/ann-lee"]): [Literal(True)], URIRef(DATA["person/bo-chen"]): []}
    # the authorships are read from the work's lines, which the work carries, not each authorship
    (source,) = [g for g in ds.graphs() if (node, KG.fromSource, None) in g]
    assert (int(source.value(node, KG.firstLine)), int(source.value(node, KG.lastLine))) == (2, 3)
    assert not any((a, KG.fromSource, None) in source for a in merged.objects(node, KG.hasAuthorship))


def test_an_orcid_work_without_authors_in_a_document_without_owner_has_no_author():
    work = Work("Gamma", Span("list.json", 1, 1), authors_not_listed=True)
    res, _, merged = graphs([Document("list.json", "json", "0", None, facts=[work])])
    assert list(merged.objects(URIRef(res.work("list.json", work)), KG.hasAuthor)) == []


def test_two_works_on_one_line_stay_two_works():
    # A JSON reader puts both entries on line 1; their places tell them apart.
    a = Work("First Paper", Span("x.json", 1, 1, place="works[0]"), authors=[author("Ann Lee")])
    b = Work("Second Paper", Span("x.json", 1, 1, place="works[1]"), authors=[author("Ann Lee")])
    res, _, _ = graphs([Document("x.json", "json", "0", None, facts=[a, b])])
    assert res.work("x.json", a) != res.work("x.json", b)
    assert len(res.work_titles) == 2


def test_a_fact_from_a_member_file_of_a_collection_names_that_file():
    work = Work("Delta", Span("site/pubs/delta.md", 2, 5), authors=[author("Ann Lee")])
    doc = Document("site", "front matter site", "0", None, facts=[work])
    res, ds, _ = graphs([doc])
    graph = next(g for g in ds.graphs() if str(g.identifier).endswith("/source/site"))
    node = URIRef(res.work("site", work))
    assert graph.value(node, KG.fileName) is None
    assert graph.value(node, KG.sourceFile) == Literal("site/pubs/delta.md")
    assert graph.value(node, KG.fromSource) == graph.identifier  # the source is the whole document


def test_doi_url_and_editors_are_mapped_and_editors_are_not_authors():
    work = Work("Epsilon", Span("a.md", 5, 5), authors=[author("Jane Doe")], kind="chapter",
                editors=["Ed Itor"], doi="10.1000/xyz123", url="https://example.org/epsilon")
    res, _, merged = graphs([Document("a.md", "markdown", "0", JANE, facts=[work])])
    node = URIRef(res.work("a.md", work))
    assert merged.value(node, KG.doi) == Literal("10.1000/xyz123")
    assert merged.value(node, KG.url) == URIRef("https://example.org/epsilon")
    editor = URIRef(DATA["person/ed-itor"])
    assert (node, KG.editor, editor) in merged
    assert set(merged.objects(node, KG.hasAuthor)) == {URIRef(DATA["person/jane-doe"])}


@pytest.mark.parametrize("prop, older, newer", [("level", 3, 4), ("levelOutOf", 5, 10)])
def test_conflicts_report_every_single_valued_property(tmp_path, prop, older, newer):
    # Two versions of Jane Doe's CV (one email: one owner) rate the same skill differently; the newer wins.
    def cv(path, date, **skill):
        values = {"level": 3, "level_out_of": 5} | skill
        return Document(path, "markdown", "0", Profile("Jane Doe", Span(path, 1, 1), emails=["jane@example.org"]),
                        latest_date=date,
                        facts=[Skill("Python", Span(path, 9, 9), **values)])
    field = {"level": "level", "levelOutOf": "level_out_of"}[prop]
    docs = [cv("cv-2023.md", "2023", **{field: older}), cv("cv-2024.md", "2024", **{field: newer})]
    res = resolve(docs)
    sources, merged = to_triples(docs, Curation(), res, include_private=False)
    write_nquads(sources, tmp_path / "sources.nq")
    write_ntriples(merged.in_order(), tmp_path / "merged.nt")
    create_store(tmp_path / "store", tmp_path / "sources.nq", tmp_path / "merged.nt")
    frame = conflicts(open_store(tmp_path))
    rows = frame[frame.property == prop]
    assert sorted(zip(rows.source, rows.value.astype(int), rows.chosen, strict=False)) == [
        ("cv-2023.md", older, False), ("cv-2024.md", newer, True)]


def test_the_build_summary_says_what_each_document_gave():
    report = BuildReport(documents=2, people=3, works=2, written=["out/kg.ttl"],
                         per_document=[DocumentReport("a.md", works=2, people=3),
                                       DocumentReport("group.md", works=1, people=2, skipped=1)])
    lines = report.summary().splitlines()
    assert lines[1:3] == ["  a.md: 2 works, 3 people, 0 skipped", "  group.md: 1 works, 2 people, 1 skipped"]


def test_owner_facts_of_a_document_without_owner_are_reported(tmp_path):
    from kg.build_report import ownerless_skip

    doc = Document("group.md", "markdown", "0", None,
                   facts=[Work("Alpha", Span("group.md", 3, 3)), Position("Lecturer", None, None, Span("group.md", 5, 5))])
    skip = ownerless_skip(doc)
    assert skip is not None and "1 Position records are not attributed" in skip.reason


def test_documents_sent_between_processes_arrive_as_they_were_read():
    # The reading processes send each document back pickled (kg.records picks each record's fields
    # in order): every seed document arrives equal to what was read, an author printed as the name
    # reads still holds one string for both, and works without keywords still share the empty tuple.
    import pickle

    from kg.sources import find_sources, read_source

    found, _ = find_sources(Path(__file__).resolve().parents[1] / "data")
    docs = [read_source(item) for item in found]
    assert len(docs) == 5  # the five seed documents (no reader takes curation.yaml)
    arrived = pickle.loads(pickle.dumps(docs))
    assert arrived == docs
    works = [f for d in arrived for f in d.facts if isinstance(f, Work)]
    authors = [a for w in works for a in w.authors]
    assert works and all(w.keywords == () or w.keywords for w in works)
    assert any(a.printed is a.name for a in authors) and all(a.printed is a.name for a in authors if a.printed == a.name)
    assert any(isinstance(f, Education) for d in arrived for f in d.facts)
