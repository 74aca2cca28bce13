"""The merged view keeps one value of each single-valued property, whatever the sources give.

Regression: at 1,000 generated CVs the merged view broke shapes.ttl six times, because one
document gave two values (a work listed twice under two titles; one person at two places of
an author list) and because ``kg:equalContribution`` was written false as well as true (it is
now written only where true, like ``kg:etAlFollows``; see test_pipeline_records).
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from rdflib import URIRef

from kg.rdf.merge import MergedView, merged_graph
from kg.rdf.quads import TripleSet, typed
from kg.vocab import KG, SINGLE_VALUED

XSD = "http://www.w3.org/2001/XMLSchema#"
WORK, AUTHORSHIP = URIRef("https://kg.example/id/work/w"), URIRef("https://kg.example/id/authorship/w/p")


def _values(graph: TripleSet, s, p) -> list[str]:
    return sorted(o for ts, tp, o in graph.triples if ts == f"<{s}>" and tp == f"<{p}>")


def test_one_document_with_two_values_gives_one_in_the_merged_view():
    doc = TripleSet("https://kg.example/id/source/cv")
    doc.add((WORK, KG.title, "A Study of Graphs"))
    doc.add((WORK, KG.title, "A Study of Graphs (extended)"))
    doc.add((AUTHORSHIP, KG.ordinal, typed("2", XSD + "positiveInteger")))
    doc.add((AUTHORSHIP, KG.ordinal, typed("5", XSD + "positiveInteger")))
    merged = merged_graph([doc], {doc.identifier: "2024"})
    # N-Triples order decides: the two titles agree up to '"A Study of Graphs', then the
    # extended one has a space (0x20) where the short one has its closing quote (0x22), so the
    # extended title sorts first and is kept; the other becomes an alternative title. "2" < "5".
    titles = _values(merged, WORK, KG.title)
    alternatives = _values(merged, WORK, KG.alternativeTitle)
    assert len(titles) == 1 and len(alternatives) == 1
    assert {titles[0], alternatives[0]} == {'"A Study of Graphs"', '"A Study of Graphs (extended)"'}
    assert titles == ['"A Study of Graphs (extended)"']
    assert _values(merged, AUTHORSHIP, KG.ordinal) == [f'"2"^^<{XSD}positiveInteger>']


def test_an_equal_contribution_mark_from_any_source_stays():
    # kg writes the mark only where a document prints it (a document without it is silent), so
    # the older source's mark stays though the newer source, which prints none, wins elsewhere.
    assert KG.equalContribution not in SINGLE_VALUED
    old, new = TripleSet("https://kg.example/id/source/a"), TripleSet("https://kg.example/id/source/b")
    old.add((AUTHORSHIP, KG.equalContribution, typed("true", XSD + "boolean")))
    new.add((AUTHORSHIP, KG.ordinal, typed("1", XSD + "positiveInteger")))
    merged = merged_graph([old, new], {old.identifier: "2020", new.identifier: "2024"})
    assert _values(merged, AUTHORSHIP, KG.equalContribution) == [f'"true"^^<{XSD}boolean>']


def test_the_merge_marks_each_fact_it_chose_between_values():
    # Two CVs: the work's title and year differ (two marks); the status is the same in both
    # (no mark); the authorship's ordinal is given by one CV only (no mark); both CVs call the
    # work an article, the newer one a preprint too (rdf:type is not single-valued: no mark).
    old, new = TripleSet("https://kg.example/id/source/a"), TripleSet("https://kg.example/id/source/b")
    for doc, title, year in ((old, "Graphs", "2020"), (new, "Graphs, Revisited", "2021")):
        doc.add((WORK, KG.title, title))
        doc.add((WORK, KG.year, typed(year, XSD + "gYear")))
        doc.add((WORK, KG.status, "published"))
        doc.add((WORK, URIRef("http://www.w3.org/1999/02/22-rdf-syntax-ns#type"), KG.Article))
    new.add((WORK, URIRef("http://www.w3.org/1999/02/22-rdf-syntax-ns#type"), KG.Preprint))
    new.add((AUTHORSHIP, KG.ordinal, typed("1", XSD + "positiveInteger")))
    merged = merged_graph([old, new], {old.identifier: "2020", new.identifier: "2024"})
    assert _values(merged, WORK, KG.sourcesDisagreeOn) == [f"<{KG.title}>", f"<{KG.year}>"]
    assert _values(merged, AUTHORSHIP, KG.sourcesDisagreeOn) == []
    assert _values(merged, WORK, KG.title) == ['"Graphs, Revisited"']


def test_schema_mirrors_has_author_and_the_authorship_class_are_in_the_merged_view_only(seeds_store):
    # A source's graph records what the document said in kg's terms; schema.org's mirrors,
    # kg:hasAuthor and an authorship's class (kg:hasAuthorship's range) are entailed from those
    # (docs/data-model.md), so only the merged view has them.
    from kg.store import ONTOLOGY_GRAPH

    prefix = (
        "PREFIX kg: <https://kg.example/ns#> PREFIX schema: <http://schema.org/> "
        "PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> ")
    in_sources = prefix + f"""SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH ?g {{ ?s ?p ?o }}
        FILTER(?g != <{ONTOLOGY_GRAPH}> && (STRSTARTS(STR(?p), STR(schema:)) || ?p = kg:hasAuthor
               || (?p = rdf:type && (STRSTARTS(STR(?o), STR(schema:)) || ?o = kg:Authorship)))) }}"""
    assert next(iter(seeds_store.query(in_sources)))["n"].value == "0"
    # ...while the sources' graphs still link each work to its authorships (the seeds list works
    # with authors)
    assert seeds_store.query(prefix + "ASK { GRAPH ?g { ?w kg:hasAuthorship ?a . ?a kg:author ?p } }")
    # ...and the merged view has each of them wherever its kg fact is: a work's title is its
    # schema:name, each authorship's person is the work's kg:hasAuthor and schema:author, each
    # kg:Person is a schema:Person, each authorship a kg:Authorship; none is missing, so each count
    # below is 0
    missing = {
        "title": "?w kg:title ?t FILTER NOT EXISTS { ?w schema:name ?t }",
        "author": "?w kg:hasAuthorship/kg:author ?p FILTER NOT EXISTS { ?w kg:hasAuthor ?p ; schema:author ?p }",
        "person": "?p a kg:Person FILTER NOT EXISTS { ?p a schema:Person }",
        "year": "?w a kg:Work ; kg:year ?y FILTER NOT EXISTS { ?w schema:datePublished ?y }",
        "authorship": "?w kg:hasAuthorship ?a FILTER NOT EXISTS { ?a a kg:Authorship }",
    }
    for what, pattern in missing.items():
        rows = next(iter(seeds_store.query(prefix + f"SELECT (COUNT(*) AS ?n) WHERE {{ {pattern} }}")))
        assert rows["n"].value == "0", what
    # and the merged view really has them (the seeds list works with authors)
    has = prefix + "ASK { ?w schema:author ?p ; schema:name ?t ; kg:hasAuthor ?p }"
    assert seeds_store.query(has)


_SOURCES = st.lists(  # (graph name, newness, the work's titles in that graph)
    st.tuples(st.sampled_from("abcd"), st.sampled_from(["2019", "2020", "2021"]),
              st.lists(st.sampled_from(["Graphs", "Trees", "Paths"]), min_size=1, max_size=2, unique=True)),
    min_size=1, max_size=4, unique_by=lambda t: t[0])


@given(_SOURCES, st.randoms(use_true_random=False))
@settings(max_examples=150, deadline=None)
def test_the_merged_view_taken_a_graph_at_a_time_in_any_order_keeps_the_newest_title(sources, rng):
    # The build feeds MergedView one source at a time, in graph IRI order, letting go of each graph.
    # The rule, stated without the code: the newest source wins, a tie goes to the graph whose IRI
    # sorts last, and within that graph the title first in N-Triples order; every other title is an
    # alternative, and the work is marked disputed when the sources gave more than one title.
    graphs = []
    for name, _, titles in sources:
        g = TripleSet(f"https://kg.example/id/source/{name}")
        for t in titles:
            g.add((WORK, KG.title, t))
        graphs.append(g)
    newness = {f"https://kg.example/id/source/{name}": date for name, date, _ in sources}
    _, _, winners = max(sources, key=lambda s: (s[1], s[0]))
    kept = sorted(f'"{t}"' for t in winners)[0]
    every = {f'"{t}"' for _, _, titles in sources for t in titles}
    rng.shuffle(graphs)
    view = MergedView()
    for g in graphs:
        view.add(g, newness[g.identifier])
    merged = view.result()
    assert _values(merged, WORK, KG.title) == [kept]
    assert _values(merged, WORK, KG.alternativeTitle) == sorted(every - {kept})
    assert _values(merged, WORK, KG.sourcesDisagreeOn) == ([f"<{KG.title}>"] if len(every) > 1 else [])


def test_the_sources_written_as_mapped_are_the_sorted_n_quads(tmp_path):
    # write_sources writes each graph as it is made: it must make them in graph IRI order (the order
    # write_nquads sorts them into) and give the same merged view. The documents are given reversed,
    # so that their order is not their graphs' IRI order (a test of the order needs the two to differ).
    from kg.build import read_documents, to_triples
    from kg.identity.curation import Curation
    from kg.identity.resolve import resolve
    from kg.rdf.dataset import write_sources
    from kg.rdf.serialize import write_nquads
    from kg.rdf.terms import source_iri

    data = Path(__file__).parent.parent / "data"
    docs, _ = read_documents(data)
    docs.reverse()  # whatever order they come in
    assert [d.path for d in docs] != sorted((d.path for d in docs), key=source_iri)
    res = resolve(docs, Curation())
    graphs, merged = to_triples(docs, Curation(), res, include_private=False)
    write_nquads(graphs, tmp_path / "sorted.nq")
    streamed = write_sources(list(docs), Curation(), res, False, tmp_path / "streamed.nq")
    assert (tmp_path / "streamed.nq").read_bytes() == (tmp_path / "sorted.nq").read_bytes()
    assert streamed.triples == merged.triples and len(merged) > 1000


def test_the_store_keeps_whole_numbers_as_integers_the_files_as_positive_integers(seeds_out):
    # docs/data-model.md: Oxigraph keeps a value of a type derived from xsd:integer as an xsd:integer.
    # The seeds' works have authorships with places (kg:ordinal), written "1"^^xsd:positiveInteger.
    import pyoxigraph

    xsd = "http://www.w3.org/2001/XMLSchema#"
    assert f'"1"^^<{xsd}positiveInteger>' in (seeds_out / "kg.ttl").read_text(encoding="utf-8").replace(
        "xsd:positiveInteger", f"<{xsd}positiveInteger>")
    store = pyoxigraph.Store.read_only(str(seeds_out / "store"))
    types = {r["d"].value for r in store.query(
        "SELECT DISTINCT (DATATYPE(?o) AS ?d) WHERE { ?a <https://kg.example/ns#ordinal> ?o }")}
    assert types == {xsd + "integer"}
