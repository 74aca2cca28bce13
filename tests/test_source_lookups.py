"""Facts' sources looked up graph by graph (``kg conflicts``, the lines ``kg profile`` cites) on small
stores written here by hand: kg's own layout (facts name their sources with ``kg:fromSource`` in
the merged view) and a store loaded by someone else (no ``kg:fromSource``), where every graph must
be searched. Regression: with ``GRAPH ?g`` unbound, a server given a thousand graphs took minutes
(conflicts) and 13 s (one profile); the bound lookups must give the same rows on either layout."""

from __future__ import annotations

import pyoxigraph as ox
import pytest

from kg.outputs.conflicts import conflicts
from kg.outputs.profile import _sources

KG = "https://kg.example/ns#"
ID = "https://kg.example/id/"


def _iri(local: str) -> ox.NamedNode:
    return ox.NamedNode(ID + local)


def _kg(local: str) -> ox.NamedNode:
    return ox.NamedNode(KG + local)


def _store(with_sources: bool) -> ox.Store:
    """Work W's year is 2019 in a.md (lines 3-4) and 2020 in b.md (line 7) and c.md (no lines); its
    title is the same in a.md and b.md (no conflict); position P's end date is only in a.md (one
    source, no conflict); a blank node has two years in two graphs (it names nothing across documents).
    The merged view kept 2020 and names its sources when *with_sources*."""
    store = ox.Store()
    work, position, blank = _iri("work/w"), _iri("position/p"), ox.BlankNode("b0")
    graphs = {name: _iri(f"source/{name}") for name in ("a.md", "b.md", "c.md")}
    quads = []
    for name, g in graphs.items():
        quads.append(ox.Quad(g, _kg("fileName"), ox.Literal(name), g))
    quads.append(ox.Quad(graphs["a.md"], _kg("documentDate"), ox.Literal("2021-05"), graphs["a.md"]))
    for name, year, lines in (("a.md", "2019", (3, 4)), ("b.md", "2020", (7, 7)), ("c.md", "2020", None)):
        g = graphs[name]
        quads.append(ox.Quad(work, _kg("year"), ox.Literal(year), g))
        if lines:
            quads += [ox.Quad(work, _kg("firstLine"), ox.Literal(str(lines[0]), datatype=ox.NamedNode(
                          "http://www.w3.org/2001/XMLSchema#integer")), g),
                      ox.Quad(work, _kg("lastLine"), ox.Literal(str(lines[1]), datatype=ox.NamedNode(
                          "http://www.w3.org/2001/XMLSchema#integer")), g)]
    for name in ("a.md", "b.md"):
        quads.append(ox.Quad(work, _kg("title"), ox.Literal("Graphs"), graphs[name]))
    quads.append(ox.Quad(position, _kg("endDate"), ox.Literal("2020"), graphs["a.md"]))
    quads += [ox.Quad(blank, _kg("year"), ox.Literal(y), graphs[n]) for n, y in (("a.md", "2001"), ("b.md", "2002"))]
    merged = [ox.Quad(work, _kg("year"), ox.Literal("2020"), ox.DefaultGraph()),
              ox.Quad(work, _kg("title"), ox.Literal("Graphs"), ox.DefaultGraph())]
    if with_sources:
        merged += [ox.Quad(work, _kg("fromSource"), g, ox.DefaultGraph()) for g in graphs.values()]
    store.extend(quads + merged)
    return store


@pytest.mark.parametrize("with_sources", [True, False], ids=["kg-layout", "foreign-layout"])
def test_conflicts_find_each_source_of_a_disagreement(with_sources):
    frame = conflicts(_store(with_sources))
    # Only W's year disagrees (2019 vs 2020): one row per source file, ordered by file; the label
    # is the title; the merged view kept 2020, so the b.md and c.md rows are chosen; only a.md has
    # a document date; c.md gave no lines.
    assert frame[["label", "property", "value", "source", "lines", "document_date", "chosen"]].values.tolist() == [
        ["Graphs", "year", "2019", "a.md", "3-4", "2021-05", False],
        ["Graphs", "year", "2020", "b.md", "7-7", "", True],
        ["Graphs", "year", "2020", "c.md", "", "", True],
    ]
    assert set(frame.subject) == {ID + "work/w"}


def test_no_conflicts_give_an_empty_table_with_the_columns():
    store = ox.Store()
    g = _iri("source/a.md")
    store.extend([ox.Quad(g, _kg("fileName"), ox.Literal("a.md"), g),
                  ox.Quad(_iri("work/w"), _kg("year"), ox.Literal("2019"), g)])
    frame = conflicts(store)
    assert frame.empty and list(frame.columns) == [
        "subject", "label", "property", "value", "source", "lines", "document_date", "chosen"]


@pytest.mark.parametrize("with_sources", [True, False], ids=["kg-layout", "foreign-layout"])
def test_profile_cites_the_lines_of_every_source(with_sources):
    # W has lines 3-4 in a.md and 7 in b.md; c.md states its year without lines (no citation);
    # the position is in a.md with no lines: nothing to cite for it.
    found = _sources(_store(with_sources), [ID + "work/w", ID + "position/p"])
    assert found == {ID + "work/w": ["a.md:3-4", "b.md:7"]}
