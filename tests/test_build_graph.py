"""The graph built from the seeds: identity, the merged view, provenance, the schema.org view, privacy."""

from __future__ import annotations

import hashlib
import tempfile
from pathlib import Path

import pytest
from conftest import DATA as DATA_DIR
from hypothesis import given, settings
from hypothesis import strategies as st
from rdflib import Dataset, Graph, Literal, URIRef
from rdflib.namespace import RDF, XSD

from kg.build import build_graph
from kg.vocab import DATA, KG, SCHEMA

P = lambda slug: URIRef(DATA["person/" + slug])  # noqa: E731
# The thesis title, "Accelerating Deep Learning by Optimising Communication and Computation Efficiency.",
# lower-cased and hyphenated, is cut to 60 characters ("...-communication-and-c") and back to the last
# whole word: slugs stay readable and short.
THESIS_SLUG = "accelerating-deep-learning-by-optimising-communication-and"


@pytest.fixture(scope="module")
def merged(seeds_out) -> Graph:
    return Graph().parse(seeds_out / "kg.ttl")


@pytest.fixture(scope="module")
def dataset(seeds_out) -> Dataset:
    ds = Dataset()
    ds.parse(seeds_out / "kg.trig", format="trig")
    return ds


def people_named(g, name):
    return set(g.subjects(KG.name, Literal(name)))


def test_counts_by_hand(merged):
    # 23 people in Shenghao Qiu's CV (the thesis record adds none), 30 in the two Qinghao Hu CVs, 1 in Kaiqiang Xu's.
    assert len(set(merged.subjects(RDF.type, KG.Person))) == 54
    # 7 + 2 degree theses + 1 PhD thesis; 13 (the older CV's 4 are all among them); 4 + 1 PhD thesis.
    assert len(set(merged.subjects(RDF.type, KG.Work))) == 28
    assert len(set(merged.objects(None, KG.about))) == 3


def test_family_name_first_is_the_same_person(merged):
    assert people_named(merged, "Tianwei Zhang") == {P("tianwei-zhang")}
    assert (P("tianwei-zhang"), KG.alternateName, Literal("Zhang Tianwei")) in merged
    assert people_named(merged, "Yonggang Wen") == {P("yonggang-wen")}
    # "Wang, Zheng" and "Xu, Jie" in the thesis record are the co-authors of the CV.
    thesis = URIRef(DATA["thesis/" + THESIS_SLUG])
    assert set(merged.objects(thesis, KG.supervisor)) == {P("zheng-wang"), P("jie-xu")}
    assert len(set(merged.subjects(KG.hasAuthor, P("zheng-wang")))) == 6


def test_similar_names_stay_apart(merged):
    # Both are people of their own (the check compares graph nodes, not two string constants).
    assert {P("zeke-wang"), P("zheng-wang")} <= set(merged.subjects(RDF.type, KG.Person))
    assert people_named(merged, "Zeke Wang") == {P("zeke-wang")}
    zeke_works = set(merged.subjects(KG.hasAuthor, P("zeke-wang")))
    zheng_works = set(merged.subjects(KG.hasAuthor, P("zheng-wang")))
    assert len(zeke_works) == 1 and not zeke_works & zheng_works


def test_two_cvs_of_one_person_give_one_person(merged, dataset):
    assert people_named(merged, "Qinghao Hu") == {P("qinghao-hu")}
    graphs = {str(g.identifier) for g in dataset.graphs() if (None, KG.about, P("qinghao-hu")) in g}
    assert graphs == {str(DATA["source/cv-qinghao-hu-2023-md"]), str(DATA["source/cv-qinghao-hu-2024-md"])}


def test_a_retitled_work_is_one_work_with_both_titles(merged):
    lucid = [w for w in merged.subjects(RDF.type, KG.Work) if str(merged.value(w, KG.title)).startswith("Lucid")]
    assert len(lucid) == 1
    (w,) = lucid
    assert str(merged.value(w, KG.title)) == \
        "Lucid: A Non-Intrusive, Scalable and Interpretable Scheduler for Deep Learning Training Jobs"
    assert set(map(str, merged.objects(w, KG.alternativeTitle))) == \
        {"Lucid: Non-Intrusive, Scalable and Interpretable Deep Learning Job Scheduling"}
    survey = [w for w in merged.subjects(RDF.type, KG.Work)
              if str(merged.value(w, KG.title)).startswith("Deep Learning Workload Scheduling")]
    assert len(survey) == 1
    # The preprint of the older CV became the CSUR paper of the newer one: the newer source wins.
    assert str(merged.value(survey[0], KG.status)) == "published"
    assert (survey[0], RDF.type, KG.Article) in merged and (survey[0], RDF.type, KG.Preprint) not in merged
    assert merged.value(survey[0], KG.year) == Literal("2024", datatype=XSD.gYear)


def test_dates_that_disagree_keep_both_sources_and_merge_to_the_newer(merged, dataset):
    phd = URIRef(DATA["education/qinghao-hu/nanyang-technological-university-doctorate"])
    assert merged.value(phd, KG.startDate) == Literal("2020", datatype=XSD.gYear)
    assert merged.value(phd, KG.endDate) == Literal("2023", datatype=XSD.gYear)
    older = dataset.graph(URIRef(DATA["source/cv-qinghao-hu-2023-md"]))
    assert older.value(phd, KG.startDate) == Literal("2020-08", datatype=XSD.gYearMonth)
    assert older.value(phd, KG.endDate) == Literal("2024-08", datatype=XSD.gYearMonth)


def test_every_fact_has_its_source_and_lines(dataset):
    # Lucid is item lines 35-37 of the 2023 CV and 65-68 of the 2024 CV (read from data/); its
    # authorships are read from those lines, which the work carries, not each authorship again.
    lucid = URIRef(DATA["work/lucid-a-non-intrusive-scalable-and-interpretable-scheduler"])
    authorship = URIRef(DATA["authorship/lucid-a-non-intrusive-scalable-and-interpretable-scheduler/qinghao-hu"])
    lines = {}
    for g in dataset.graphs():
        if (lucid, KG.hasAuthorship, authorship) in g:
            lines[str(g.value(g.identifier, KG.fileName))] = (int(g.value(lucid, KG.firstLine)),
                                                              int(g.value(lucid, KG.lastLine)))
            assert (authorship, KG.firstLine, None) not in g and (authorship, KG.fromSource, None) not in g
    assert lines == {"cv-qinghao-hu-2023.md": (35, 37), "cv-qinghao-hu-2024.md": (65, 68)}
    for g in dataset.graphs():
        if not len(g):
            continue
        source = g.identifier
        name = str(g.value(source, KG.fileName))
        assert str(g.value(source, KG.sha256)) == hashlib.sha256((DATA_DIR / name).read_bytes()).hexdigest()
        for node in set(g.subjects(KG.fromSource, None)):
            assert g.value(node, KG.fromSource) == source and g.value(node, KG.firstLine) is not None


def test_authorship_keeps_printed_name_and_marks(dataset):
    g = dataset.graph(URIRef(DATA["source/cv-qinghao-hu-2023-md"]))
    a = URIRef(DATA["authorship/lucid-a-non-intrusive-scalable-and-interpretable-scheduler/qinghao-hu"])
    assert str(g.value(a, KG.printedName)) == "**Qinghao Hu\\***"
    assert g.value(a, KG.equalContribution).toPython() is True and int(g.value(a, KG.ordinal)) == 1
    survey = URIRef(DATA["authorship/deep-learning-workload-scheduling-in-gpu-datacenters-a/peng-sun"])
    assert g.value(survey, KG.etAlFollows).toPython() is True


def test_schema_org_view(merged):
    for person in set(merged.subjects(RDF.type, KG.Person)):
        assert (person, RDF.type, SCHEMA.Person) in merged and merged.value(person, SCHEMA.name)
    for work in set(merged.subjects(RDF.type, KG.Work)):
        assert (work, RDF.type, SCHEMA.CreativeWork) in merged
        assert merged.value(work, SCHEMA.name) == merged.value(work, KG.title)
        assert set(merged.objects(work, SCHEMA.author)) == set(merged.objects(work, KG.hasAuthor)) != set()
        if merged.value(work, KG.year) is not None:
            assert merged.value(work, SCHEMA.datePublished) == merged.value(work, KG.year)
    for org in set(merged.subjects(RDF.type, KG.Organization)):
        assert (org, RDF.type, SCHEMA.Organization) in merged and merged.value(org, SCHEMA.name)
    thesis = URIRef(DATA["thesis/" + THESIS_SLUG])
    assert (thesis, RDF.type, SCHEMA.Thesis) in merged


def test_organizations_short_and_long_forms_and_units(merged):
    ntu = URIRef(DATA["org/nanyang-technological-university"])
    assert str(merged.value(ntu, KG.acronym)) == "NTU"
    slab = URIRef(DATA["org/nanyang-technological-university/s-lab-for-advanced-intelligence"])
    assert merged.value(slab, KG.partOf) == ntu
    position = URIRef(DATA["position/qinghao-hu/nanyang-technological-university-s-lab-for-advanced-intelligence-"
                           "research-assistant-professor"])
    assert merged.value(position, KG.organization) == slab
    assert (position, RDF.type, KG.Job) in merged and merged.value(position, KG.ongoing).toPython() is True


def test_phone_numbers_and_street_addresses_stay_out_unless_asked(seeds_out, tmp_path):
    private = ["8305 3277", "Nanyang Avenue", "07579877295", "Mercer West"]
    for f in ("kg.trig", "kg.ttl", "kg.jsonld", "graph.html"):
        text = (seeds_out / f).read_text(encoding="utf-8")
        assert not [p for p in private if p in text], f
    build_graph(DATA_DIR, tmp_path, include_private=True, validate=False, html=False)
    text = (tmp_path / "kg.ttl").read_text(encoding="utf-8")
    assert all(p in text for p in private)


def test_same_inputs_give_byte_identical_outputs(seeds_out, tmp_path):
    build_graph(DATA_DIR, tmp_path, validate=False)  # the SHACL check writes no file
    for f in ("kg.trig", "kg.ttl", "kg.jsonld", "identity.json", "graph.html"):
        assert (tmp_path / f).read_bytes() == (seeds_out / f).read_bytes(), f


def test_the_build_conforms_to_the_shapes(seeds_out):
    from kg.build import validate_output

    assert validate_output(seeds_out) == (True, [])


def test_identity_json_has_the_bytes_json_dumps_gives(tmp_path):
    # _write_decisions writes identity.json without json's (slow) indenting encoder: its bytes must
    # be those of json.dumps(rows, indent=1, ensure_ascii=False), for strings json must escape
    # (quotes, backslashes, control characters, non-ASCII), empty and long lists, and both booleans.
    # The rows are listed kind by kind (people, venues, organizations, works), each kind in the order
    # of the rows' compact JSON.
    import json

    from kg.identity.decisions import Decision, write_decisions

    decisions = [
        Decision("person", "https://kg.example/id/person/zoë", True, 'same "name"', "a\\b\nc\tZoë 李",
                 ("cv-a.md", "cv-b.md"), ()),
        Decision("work", "", False, "similar titles kept apart", "\u2028x\x01", (), ("https://x.org/1",)),
        # the same decision twice (identical rows, no order between them), and two that differ only in
        # a later field, so that the order within a kind is decided by "merged"
        Decision("venue", "v:1", True, "same acronym", "E", ("a.md",), ()),
        Decision("venue", "v:1", True, "same acronym", "E", ("a.md",), ()),
        Decision("organization", "o:1", True, "same name", "E", ("a.md",), ("o:2", "o:3")),
        Decision("organization", "o:1", False, "same name", "E", ("a.md",), ("o:2", "o:3")),
        # "é" sorts after "z" in the text but before it in the ASCII escapes json.dumps sorts by
        Decision("person", "p:1", True, "r", "é", (), ()),
        Decision("person", "p:1", True, "r", "z", (), ()),
    ]
    kinds = ["person", "venue", "organization", "work"]
    rows = sorted((d.as_dict() for d in decisions), key=lambda d: (kinds.index(d["kind"]), json.dumps(d, sort_keys=True)))
    expected = json.dumps(rows, indent=1, ensure_ascii=False) + "\n"
    assert [r["kind"] for r in rows] == ["person"] * 3 + ["venue"] * 2 + ["organization"] * 2 + ["work"]
    write_decisions(list(decisions), tmp_path / "identity.json")
    assert (tmp_path / "identity.json").read_text(encoding="utf-8") == expected
    write_decisions([], tmp_path / "empty.json")
    assert (tmp_path / "empty.json").read_text(encoding="utf-8") == json.dumps([], indent=1) + "\n"


_EVIDENCE = st.text(alphabet='ab"\\! é\x01', max_size=4)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_EVIDENCE, st.sampled_from(["person", "work"]), st.booleans(),
                          st.sampled_from(["p:1", "p:2"])), max_size=12))
def test_identity_json_is_in_json_dumps_order_for_any_evidence(fields):
    # write_decisions orders by kind (people first), then by the encoded evidence and by the whole JSON
    # only among decisions of one evidence, and writes a chunk at a time: the file must still be exactly
    # what json.dumps gives for the rows sorted by kind and then by their whole compact JSON. Written in
    # two parts (the people's, left open, then the rest appended: the build's way) it must be the same
    # bytes. The alphabet holds the characters that
    # sort around the closing quote ('!' and ' ' below it, '\\' escaped above it), a control character
    # and a non-ASCII letter (escaped in the key); kind, merged and subject break ties on one evidence.
    import json

    from kg.identity import decisions as module

    decisions = [module.Decision(kind, subject, merged, "r", evidence) for evidence, kind, merged, subject in fields]
    rows = sorted((d.as_dict() for d in decisions), key=lambda d: (d["kind"] != "person", json.dumps(d, sort_keys=True)))
    expected = json.dumps(rows, indent=1, ensure_ascii=False) + "\n"
    chunk, module._CHUNK = module._CHUNK, 3  # several chunks for a dozen decisions
    try:
        with tempfile.TemporaryDirectory() as tmp:
            module.write_decisions(list(decisions), Path(tmp) / "identity.json")
            assert (Path(tmp) / "identity.json").read_text(encoding="utf-8") == expected
            people = [d for d in decisions if d.kind == "person"]
            written = module.write_decisions(people, Path(tmp) / "parts.json", ends=False)
            module.append_decisions([d for d in decisions if d.kind != "person"], Path(tmp) / "parts.json",
                                    after=written)
            assert (Path(tmp) / "parts.json").read_text(encoding="utf-8") == expected
    finally:
        module._CHUNK = chunk
