"""``kg explain`` and ``kg conflicts`` read only what they need: the decisions that name an entity, found in
identity.json without reading it whole; the labels from the build's label index; the facts the merged
view marks as disputed, not every source's every value."""

from __future__ import annotations

import json
import shutil

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kg.build import build_graph
from kg.identity import decisions as decisions_module
from kg.identity.decisions import Decision, decisions_holding, write_decisions
from kg.query.labelindex import LABEL_INDEX
from tests.conftest import run_kg

# IRIs that begin one another (namesakes' suffixes) or differ in one character: a lookup by text must
# still give each its own decisions.
IRIS = ["https://kg.example/id/person/jane-doe", "https://kg.example/id/person/jane-doe-2",
        "https://kg.example/id/person/jane-doe-20", "https://kg.example/id/person/jane-dee",
        "https://kg.example/id/work/a", "https://kg.example/id/work/a-b"]
# Evidence and rules that hold what the lookup searches for and what lays the file out: quotes, an IRI
# in quotes, line breaks, braces, a line that looks like a decision's end, text beyond ASCII.
TEXTS = st.sampled_from(['"https://kg.example/id/person/jane-doe"', "a\n }\n {\n b", "{}", "Zoë Müller",
                         'said "x"', "possibly the same: one name", "plain", ""])


def _decisions():
    decision = st.builds(Decision, kind=st.sampled_from(["person", "work"]), subject=st.sampled_from(IRIS),
                         merged=st.booleans(), rule=TEXTS, evidence=TEXTS,
                         sources=st.lists(st.sampled_from(["a.md", "b.bib", IRIS[0]]), max_size=2).map(tuple),
                         related=st.lists(st.sampled_from(IRIS), max_size=3).map(tuple))
    return st.lists(decision, max_size=12)


def _about(decisions: list[dict], iri: str) -> list[dict]:
    return [d for d in decisions if d["subject"] == iri or iri in d["related"]]


@settings(max_examples=200, deadline=None)
@given(decisions=_decisions(), wanted=st.lists(st.sampled_from(IRIS), min_size=1, max_size=3, unique=True),
       block=st.sampled_from([1, 7, 64, 1000, 2**24]))
def test_the_decisions_found_by_text_are_those_a_whole_read_finds(tmp_path_factory, decisions, wanted, block):
    # the file is searched a block at a time: small blocks put needles and decisions across their borders
    path = tmp_path_factory.mktemp("identity") / "identity.json"
    write_decisions(list(decisions), path)
    whole = json.loads(path.read_text(encoding="utf-8"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(decisions_module, "_BLOCK", block)
        found = decisions_holding(path, [json.dumps(iri) for iri in wanted])
        rules = decisions_holding(path, ['"rule": "possibly the same', '"rule": "plain'])
    assert found is not None and rules is not None  # the file is laid out as kg writes it
    # each decision once, in the file's order, and every one about a wanted IRI among them
    assert found == [d for d in whole if d in found]
    for iri in wanted:
        assert _about(found, iri) == _about(whole, iri)
    # kg conflicts --people looks for rules by how they begin: needles sharing no long start
    assert [d for d in rules if d["rule"].startswith(("possibly the same", "plain"))] == [
        d for d in whole if d["rule"].startswith(("possibly the same", "plain"))]


def test_a_file_laid_out_otherwise_is_read_whole(seeds_out, tmp_path):
    # a user's compact rewrite of identity.json: the same decisions, so the same explanations
    out = tmp_path / "out"
    shutil.copytree(seeds_out, out)
    path = out / "identity.json"
    decisions = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps(decisions), encoding="utf-8")
    assert decisions_holding(path, ['"x"']) is None
    for text in ("Zheng Wang", "Lucid"):
        assert run_kg("explain", text, "--out", out).stdout == run_kg("explain", text, "--out", seeds_out).stdout
    people = run_kg("conflicts", "--people", "--format", "csv", "--out", out).stdout
    assert people == run_kg("conflicts", "--people", "--format", "csv", "--out", seeds_out).stdout


def test_a_broken_identity_json_is_one_line_naming_it(seeds_out, tmp_path):
    out = tmp_path / "out"
    shutil.copytree(seeds_out, out)
    (out / "identity.json").write_text('[\n {\n  "kind": "person",', encoding="utf-8")  # cut short
    for args in (["explain", "Zheng Wang"], ["conflicts", "--people"]):
        result = run_kg(*args, "--out", out)
        assert result.returncode == 1
        assert result.stderr.startswith(f"kg: error: {out / 'identity.json'} is not the JSON kg build writes")
        assert "run `kg build` again" in result.stderr and "Traceback" not in result.stderr


def test_explain_finds_the_same_without_the_label_index(seeds_out, tmp_path):
    # an older build, without tables/labels.json: the labels are asked of the store instead
    out = tmp_path / "out"
    shutil.copytree(seeds_out, out)
    (out / "tables" / LABEL_INDEX).unlink()
    for text in ("Lucid", "NTU", "Nanyang Technological", "Zheng Wang", "STRONGHOLD"):
        assert run_kg("explain", text, "--out", out).stdout == run_kg("explain", text, "--out", seeds_out).stdout


def test_explain_shows_a_works_own_title_where_its_other_title_matches_too(seeds_out):
    # The seeds list Lucid under two titles (the 2023 and 2024 CVs); "Lucid" begins both, and the merged
    # view keeps the 2024 CV's as kg:title (test_identity: the newer document's title is chosen).
    out = run_kg("explain", "Lucid", "--out", seeds_out).stdout
    assert out.splitlines()[0].startswith(
        "Lucid: A Non-Intrusive, Scalable and Interpretable Scheduler for Deep Learning Training Jobs <")
    # "NTU" is only the university's short form: the label shown is the one that matched
    assert run_kg("explain", "NTU", "--out", seeds_out).stdout.startswith("NTU <")


def test_conflicts_from_the_marks_are_the_conflicts_a_scan_finds(seeds_out, tmp_path):
    # A store without the merged view's kg:sourcesDisagreeOn marks (loaded by someone else) is scanned:
    # both ways give the same rows. The seeds disagree on Qinghao Hu's doctorate's end and Lucid's title
    # (test_identity), so there is something to find.
    import pyoxigraph

    from kg.outputs.conflicts import conflicts
    from kg.store import open_store

    marked = conflicts(open_store(seeds_out))
    out = tmp_path / "out"
    shutil.copytree(seeds_out, out)
    store = pyoxigraph.Store(str(out / "store"))
    store.update("DELETE WHERE { ?s <https://kg.example/ns#sourcesDisagreeOn> ?p }")
    assert not store.query("ASK { ?s <https://kg.example/ns#sourcesDisagreeOn> ?p }")
    del store
    scanned = conflicts(open_store(out))
    assert {"endDate", "title", "ordinal"} <= set(marked["property"])
    assert marked.equals(scanned)


def test_a_document_listing_a_work_twice_disagrees_with_no_other_document(tmp_path):
    # One CV lists one paper twice, its title once in other capitals: one work (same title key), two
    # titles, both from this CV. The merged view marks the title as disputed, but no two documents
    # disagree on it: kg conflicts lists nothing, as a scan of the sources' graphs finds nothing.
    data = tmp_path / "data"
    data.mkdir()
    (data / "cv-ann-lee.md").write_text(
        "# Ann Lee\n\n## Publications\n\n**Fast Graph Caches**\nAnn Lee, Bo Chen\n\n"
        "**Fast graph caches**\nAnn Lee, Bo Chen\n", encoding="utf-8")
    out = tmp_path / "out"
    build_graph(data, out, html=False)
    marks = run_kg("query", "SELECT ?s ?p WHERE { ?s <https://kg.example/ns#sourcesDisagreeOn> ?p }",
                   "--format", "csv", "--out", out).stdout
    assert "https://kg.example/ns#title" in marks
    assert run_kg("conflicts", "--out", out).stdout.startswith("no conflicts")
