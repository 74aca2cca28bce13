"""Projections of the hand-written fixture (tests/data/graph-fixture.trig) and of the seeds.

Expected values are counted by hand from the fixture's triples and from data/*.
"""


import networkx as nx
import pytest

from kg.graphs.projections import (
    coauthor_graph,
    organization_graph,
    person_organization_graph,
    supervision_graph,
)

P = "https://kg.example/id/person/"
O = "https://kg.example/id/org/"  # noqa: E741 (O for organizations, beside P for people)


@pytest.fixture(scope="module")
def coauthors(graph_fixture_store):
    return coauthor_graph(graph_fixture_store)


def test_every_author_is_a_node_supervisor_only_is_not(coauthors):
    assert set(coauthors) == {P + x for x in ("ada-lovelace", "bob-byte", "cyd-cache", "dee-data",
                                              "eve-edge", "fay-flop", "hal-hash")}
    assert coauthors.degree(P + "hal-hash") == 0


def test_node_attributes(coauthors):
    ada = coauthors.nodes[P + "ada-lovelace"]
    # Alpha 2019, Beta 2020, Gamma 2021, her thesis 2022
    assert ada == {"name": "Ada Lovelace", "profiled": True, "works": 4, "first_year": 2019,
                   "last_year": 2022, "kind": "person"}
    # Bob's kg:about is only inside his source's named graph
    assert coauthors.nodes[P + "bob-byte"]["profiled"] is True
    assert coauthors.nodes[P + "cyd-cache"]["profiled"] is False
    assert coauthors.nodes[P + "dee-data"]["name"] == "Dée Data"


def test_edges_joint_works_and_newman_weight(coauthors):
    expected = {
        ("ada-lovelace", "bob-byte"): (2, 1.5, ["Alpha", "Beta"]),
        ("ada-lovelace", "cyd-cache"): (2, 1.0, ["Alpha", "Gamma"]),
        ("ada-lovelace", "dee-data"): (1, 0.5, ["Gamma"]),
        ("bob-byte", "cyd-cache"): (1, 0.5, ["Alpha"]),
        ("bob-byte", "eve-edge"): (1, 1.0, ["Delta"]),
        ("cyd-cache", "dee-data"): (1, 0.5, ["Gamma"]),
        ("eve-edge", "fay-flop"): (1, 1.0, ["Epsilon"]),
    }
    got = {}
    for a, b, d in coauthors.edges(data=True):
        key = tuple(sorted((a.removeprefix(P), b.removeprefix(P))))
        got[key] = (d["joint_works"], d["weight"], [w["title"] for w in d["works"]])
    assert got == expected


def test_edge_works_carry_year_and_venue(coauthors):
    works = coauthors.edges[P + "ada-lovelace", P + "bob-byte"]["works"]
    assert works == [
        {"iri": "https://kg.example/id/work/alpha", "title": "Alpha", "year": 2019, "venue": "CONFA"},
        {"iri": "https://kg.example/id/work/beta", "title": "Beta", "year": 2020, "venue": "Journal B"},
    ]


def test_authors_in_printed_order(coauthors):
    alpha = coauthors.graph["works"]["https://kg.example/id/work/alpha"]
    assert alpha["authors"] == [P + "bob-byte", P + "ada-lovelace", P + "cyd-cache"]


def test_person_organization_graph(graph_fixture_store):
    po = person_organization_graph(graph_fixture_store)
    assert po.nodes[O + "uni-x/lab-y"] == {"name": "Lab Y", "kind": "organization", "parent": O + "uni-x"}
    assert po.nodes[O + "uni-x"]["parent"] is None
    # gus wrote nothing but is a person with a position
    assert po.nodes[P + "gus-graph"]["kind"] == "person"
    edge = po.edges[P + "bob-byte", O + "uni-x/lab-y"]
    assert (edge["relation"], edge["role"], edge["start"], edge["end"], edge["ongoing"]) == (
        "position", "Postdoc", "2021-01", None, True)
    edge = po.edges[P + "ada-lovelace", O + "uni-x"]
    assert (edge["relation"], edge["role"], edge["start"], edge["end"], edge["ongoing"]) == (
        "education", "Ph.D. in Computing", "2018-09", "2022-06", False)
    assert nx.is_bipartite(po)
    assert po.number_of_edges() == 6


def test_organization_graph(graph_fixture_store):
    og = organization_graph(graph_fixture_store)
    assert sorted(tuple(sorted(e)) for e in og.edges()) == [
        (O + "corp-z", O + "uni-x"), (O + "uni-x", O + "uni-x/lab-y")]
    assert og.edges[O + "corp-z", O + "uni-x"]["people"] == [P + "ada-lovelace"]
    assert og.edges[O + "uni-x", O + "uni-x/lab-y"]["weight"] == 1


def test_supervision_graph(graph_fixture_store):
    sg = supervision_graph(graph_fixture_store)
    assert list(sg.edges()) == [(P + "gus-graph", P + "ada-lovelace")]
    assert sg.edges[P + "gus-graph", P + "ada-lovelace"]["via"] == [
        "https://kg.example/id/education/ada-lovelace-phd", "https://kg.example/id/work/ada-thesis"]


def test_same_store_same_graph(graph_fixture_store):
    a, b = coauthor_graph(graph_fixture_store), coauthor_graph(graph_fixture_store)
    assert list(a.nodes(data=True)) == list(b.nodes(data=True))
    assert list(a.edges(data=True)) == list(b.edges(data=True))


def test_not_a_store_is_a_programming_mistake():
    with pytest.raises(TypeError, match="pyoxigraph Store"):
        coauthor_graph("out")


def test_coauthor_edges_table(graph_fixture_store):
    from kg.graphs.pairs import coauthor_edges

    # the same seven pairs as test_edges_joint_works_and_newman_weight, one row each, in IRI order
    # (ada < bob < cyd < dee < eve < fay); Ada's thesis and Hal's "Solo" make no pair
    edges = coauthor_edges(graph_fixture_store)
    assert list(edges.columns) == ["person_a", "person_b", "joint_works", "weight"]
    assert [(a.removeprefix(P), b.removeprefix(P), n, w) for a, b, n, w in edges.itertuples(index=False)] == [
        ("ada-lovelace", "bob-byte", 2, 1.5), ("ada-lovelace", "cyd-cache", 2, 1.0),
        ("ada-lovelace", "dee-data", 1, 0.5), ("bob-byte", "cyd-cache", 1, 0.5),
        ("bob-byte", "eve-edge", 1, 1.0), ("cyd-cache", "dee-data", 1, 0.5), ("eve-edge", "fay-flop", 1, 1.0)]


def test_the_person_organization_graph_from_the_tables_or_from_the_store_is_one(seeds_out, tmp_path):
    # Where the build wrote the affiliations table the projection reads it (and the organizations
    # table); an output folder without it (a build before the table, a server's cached tables) is
    # read from the store. Both must give the same nodes, edges and attributes.
    import shutil

    import pyoxigraph

    from kg.store import open_store

    old = tmp_path / "old"
    shutil.copytree(seeds_out, old)
    (old / "tables" / "affiliations.parquet").unlink()

    def everything(graph):
        return sorted(graph.nodes(data=True)), sorted((a, b, sorted(d.items(), key=str)) for a, b, d in
                                                      graph.edges(data=True))

    from_tables = person_organization_graph(open_store(seeds_out))
    without_affiliations = person_organization_graph(open_store(old))
    # a store opened by itself, with no output folder known: everything read by SPARQL
    from_store = person_organization_graph(pyoxigraph.Store.read_only(str(seeds_out / "store")))
    assert from_tables.number_of_edges() > 5  # the seeds' CVs list educations and positions
    assert everything(from_tables) == everything(without_affiliations) == everything(from_store)
