"""Analyses on the hand-written fixture (tests/data/graph-fixture.trig).

Every expected value is worked out by hand from the fixture's header comment and triples.
"""


import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kg.errors import UserError
from kg.graphs import analyses as an
from kg.graphs import structure
from kg.graphs.projections import coauthor_graph, person_organization_graph

P = "https://kg.example/id/person/"
ADA, BOB, CYD, DEE, EVE, FAY, GUS, HAL = (P + x for x in (
    "ada-lovelace", "bob-byte", "cyd-cache", "dee-data", "eve-edge", "fay-flop", "gus-graph", "hal-hash"))


@pytest.fixture(scope="module")
def g(graph_fixture_store):
    return coauthor_graph(graph_fixture_store)


@pytest.fixture(scope="module")
def po(graph_fixture_store):
    return person_organization_graph(graph_fixture_store)


def test_top_collaborators(g):
    top = an.top_collaborators(g, ADA)
    assert list(top.name) == ["Bob Byte", "Cyd Cache", "Dée Data"]
    assert list(top.joint_works) == [2, 2, 1]
    assert list(top.weight) == [1.5, 1.0, 0.5]
    assert top.loc[0, "years"] == "2019, 2020"
    assert top.loc[0, "venues"] == "CONFA, Journal B"
    assert top.loc[0, "works"] == "Alpha (2019); Beta (2020)"
    assert an.top_collaborators(g, ADA, n=1).shape[0] == 1
    assert an.top_collaborators(g, HAL).empty


def test_top_collaborators_checks_inputs(g):
    # A node that is not in the graph is a caller's mistake (names are resolved to IRIs first).
    with pytest.raises(ValueError, match="not a node"):
        an.top_collaborators(g, P + "nobody")
    with pytest.raises(UserError, match="positive whole number"):
        an.top_collaborators(g, ADA, n=0)


def test_shared_collaborators(g):
    shared = an.shared_collaborators(g, [ADA, BOB])
    assert shared.to_dict("records") == [
        {"collaborator": CYD, "name": "Cyd Cache", "joint_works": 3, "Ada Lovelace": 2, "Bob Byte": 1}]
    assert an.shared_collaborators(g, [ADA, BOB, EVE]).empty
    with pytest.raises(UserError, match="two or more different people"):
        an.shared_collaborators(g, [ADA, ADA])


def test_collaboration_path(g):
    path = an.collaboration_path(g, ADA, FAY)
    assert list(zip(path["from_name"], path["to_name"], path["joint_works"], strict=False)) == [
        ("Ada Lovelace", "Bob Byte", 2), ("Bob Byte", "Eve Edge", 1), ("Eve Edge", "Fay Flop", 1)]
    assert path.loc[1, "works"] == "Delta (2022)"
    # two shortest paths dee-ada-bob and dee-cyd-bob, one joint work each: the smaller IRI wins
    assert list(an.collaboration_path(g, DEE, BOB)["to"]) == [ADA, BOB]
    none = an.collaboration_path(g, ADA, HAL)
    assert none.empty and none.attrs["connected"] is False
    with pytest.raises(UserError, match="two different people"):
        an.collaboration_path(g, ADA, ADA)


def test_centrality_exact(g):
    c = an.centrality(g).set_index("node")
    # pairs through bob: eve and fay to ada, cyd, dee = 6 of C(6,2)=15 -> normalised 6*2/(6*5)
    assert c.loc[BOB, "betweenness"] == pytest.approx(0.4)
    assert c.loc[EVE, "betweenness"] == pytest.approx(4 / 15)
    # dee-bob, dee-eve, dee-fay each have two shortest paths, one through ada: 1.5 / 15
    assert c.loc[ADA, "betweenness"] == pytest.approx(0.1)
    assert c.loc[HAL, "betweenness"] == 0
    assert c.loc[ADA, "degree"] == 3 and c.loc[ADA, "weighted_degree"] == pytest.approx(3.0)
    assert c.pagerank.sum() == pytest.approx(1.0)
    assert "exact" in c.attrs["method"]


def test_centrality_sampled_with_every_pivot_equals_exact(g):
    sampled = an.centrality(g, method="sampled", pivots=7).set_index("node")
    assert "sampled from 7 of 7" in sampled.attrs["method"]
    assert sampled.loc[BOB, "betweenness"] == pytest.approx(0.4)


def test_communities_cover_everyone_with_labels(g):
    frame = an.communities(g)
    assert frame["size"].sum() == 7
    assert list(frame["community"]) == list(range(1, len(frame) + 1))
    membership = an.community_membership(g)
    assert set(membership) == set(g)
    # hal wrote alone: a community of one, labelled with his name
    assert frame.loc[frame.community == membership[HAL], "label"].item() == "Hal Hash"
    assert frame.equals(an.communities(g))  # same seed, same answer


def test_brokers(g):
    membership = {ADA: 1, BOB: 1, CYD: 1, DEE: 1, EVE: 2, FAY: 2, HAL: 3}
    frame = an.brokers(g, membership)
    assert list(frame.node) == [EVE, BOB]
    assert list(frame.participation) == [0.5, round(1 - 5 / 9, 6)]
    with pytest.raises(UserError, match="membership lacks"):
        an.brokers(g, {ADA: 1})


def test_collaborations_per_year(g):
    ada = an.collaborations_per_year(g, ADA)
    assert ada.values.tolist() == [[2019, 1, 2, 2], [2020, 1, 1, 0], [2021, 1, 2, 1]]
    everyone = an.collaborations_per_year(g)
    assert everyone.values.tolist() == [[2019, 1, 3, 3], [2020, 1, 2, 1], [2021, 1, 3, 3],
                                        [2022, 1, 2, 1], [2023, 1, 2, 1]]


def test_venues_per_person(g):
    frame = an.venues_per_person(g, ADA)
    assert frame[["venue", "works", "first_year", "last_year"]].values.tolist() == [
        ["CONFA", 2, 2019, 2021], ["Journal B", 1, 2020, 2020]]


def test_graph_statistics_fixture(g):
    stats = dict(zip(*an.graph_statistics(g)[["statistic", "value"]].T.values, strict=False))
    assert stats["nodes"] == 7 and stats["edges"] == 7 and stats["self_loops"] == 0
    assert stats["largest_component_nodes"] == 6 and stats["largest_component_edges"] == 7
    assert stats["triangles"] == 2  # ada-bob-cyd, ada-cyd-dee
    assert stats["average_clustering"] == pytest.approx((2 / 3 + 1 / 3 + 2 / 3 + 1) / 7, abs=1e-6)
    assert stats["diameter"] == 4  # dee-ada-bob-eve-fay


def test_diameter_bound_on_large_graphs_is_labelled(monkeypatch):
    monkeypatch.setattr(structure, "EXACT_DIAMETER_LIMIT", 0)
    frame = an.graph_statistics(nx.path_graph(10))
    row = frame.set_index("statistic").loc["diameter"]
    assert row["value"] == 9  # a double sweep finds a path's diameter exactly
    assert "lower bound" in row["method"]


def test_institutions_in_common(po):
    frame = an.institutions_in_common(po, [ADA, BOB])
    assert frame[["institution_name", "name", "organization_name", "role"]].values.tolist() == [
        ["University X", "Ada Lovelace", "University X", "Ph.D. in Computing"],
        ["University X", "Bob Byte", "University X", "M.Sc. in Computing"],
        ["University X", "Bob Byte", "Lab Y", "Postdoc"],
    ]
    units = an.institutions_in_common(po, [ADA, BOB], roll_up=False)
    assert list(units.role) == ["Ph.D. in Computing", "M.Sc. in Computing"]
    assert list(an.institutions_in_common(po, [ADA, EVE]).institution_name) == ["Corp Z", "Corp Z"]
    assert an.institutions_in_common(po, [EVE, GUS]).empty


def test_overlaps_in_time(po):
    frame = an.overlaps_in_time(po)
    got = frame[["name_a", "role_a", "name_b", "role_b", "overlap_start", "overlap_end"]].fillna("ongoing")
    got = got.values.tolist()
    assert got == [
        ["Ada Lovelace", "Ph.D. in Computing", "Bob Byte", "M.Sc. in Computing", "2018-09-01", "2018-12-31"],
        ["Ada Lovelace", "Ph.D. in Computing", "Bob Byte", "Postdoc", "2021-01-01", "2022-06-30"],
        ["Ada Lovelace", "Ph.D. in Computing", "Gus Graph", "Professor", "2018-09-01", "2022-06-30"],
        ["Bob Byte", "M.Sc. in Computing", "Gus Graph", "Professor", "2016-01-01", "2018-12-31"],
        ["Bob Byte", "Postdoc", "Gus Graph", "Professor", "2021-01-01", "ongoing"],
    ]
    # ada's internship (2020-06..09) and eve's job (2021..2023) at Corp Z do not overlap
    assert "Corp Z" not in set(frame.institution_name)
    assert len(an.overlaps_in_time(po, [GUS])) == 3


# --------------------------------------------------------------------------- the seeds
# Hand counts from reading data/*: the two CVs of Qinghao Hu are one person, a paper in both
# is one work (Lucid under two titles; the survey, a preprint in 2023 with a shorter author
# list); "Zhang Tianwei" = "Tianwei Zhang"; "Wang, Zheng" = "Zheng Wang" != "Zeke Wang";
# "et al." lists only the printed authors; thesis supervisors are not co-authors.

@pytest.fixture(scope="module")
def seeds(seeds_store):
    return coauthor_graph(seeds_store), person_organization_graph(seeds_store)


def _joint(graph, person):
    top = an.top_collaborators(graph, person, n=None)
    return dict(zip(top.name, top.joint_works, strict=False))


def test_seeds_qinghao_top_collaborators(seeds_store, seeds):
    from kg.query.lookup import resolve_person

    g, _ = seeds
    qinghao = resolve_person(seeds_store, "Qinghao Hu").iri
    joint = _joint(g, qinghao)
    # 13 works (9 papers + 4 under review in the 2024 CV; the 2023 CV's four are among them)
    assert g.nodes[qinghao]["works"] == 13
    # Peng Sun: every work but DeltaServe; Tianwei Zhang: not the NSDI'24 paper (cut by et al.)
    # nor DeltaServe; Yonggang Wen: neither those two nor the survey
    assert joint["Peng Sun"] == 12
    assert joint["Tianwei Zhang"] == 11
    assert joint["Yonggang Wen"] == 10
    assert joint["Meng Zhang"] == 6  # NSDI, OSDI, ASPLOS, SC'24, ICDE, WWW
    assert joint["Qiaoling Chen"] == 5  # NSDI, OSDI, LoongTrain, InternEvo, AMSP
    assert joint["Zhisheng Ye"] == 4  # NSDI, OSDI, survey, AMSP
    assert joint["Guoteng Wang"] == 4  # NSDI, LoongTrain, InternEvo, AMSP
    for name in ("Haozhao Wang", "Diandian Gu", "Ting Huang", "Xun Chen", "Yingdong Xiong", "Xin Jin"):
        assert joint[name] == 2, name
    assert sum(1 for v in joint.values() if v == 1) == 16
    assert len(joint) == 29
    assert "Zheng Wang" not in joint and "Zeke Wang" in joint
    top = an.top_collaborators(g, qinghao, n=3)
    assert list(top.name) == ["Peng Sun", "Tianwei Zhang", "Yonggang Wen"]
    # DeltaServe: Xiaozhe Yao, Qinghao Hu, Ana Klimovic -> 1/(3-1)
    ana = resolve_person(seeds_store, "Ana Klimovic").iri
    assert g.edges[qinghao, ana]["weight"] == pytest.approx(0.5)
    assert g.edges[qinghao, ana]["joint_works"] == 1


def test_seeds_shenghao_top_collaborators(seeds_store, seeds):
    from kg.query.lookup import resolve_person

    g, _ = seeds
    shenghao = resolve_person(seeds_store, "Shenghao Qiu").iri
    joint = _joint(g, shenghao)
    assert joint["Zheng Wang"] == 6  # every paper but the 2018 GPRS one
    for name in ("Liang You", "Renyu Yang", "Jie Xu", "Xiaoyang Sun"):
        assert joint[name] == 2, name
    assert len(joint) == 22 and sum(1 for v in joint.values() if v == 1) == 17
    zheng = resolve_person(seeds_store, "Zheng Wang").iri
    # 3, 8, 7, 4, 10 and 3 authors: 1/2 + 1/7 + 1/6 + 1/3 + 1/9 + 1/2
    assert g.edges[shenghao, zheng]["weight"] == pytest.approx(1 / 2 + 1 / 7 + 1 / 6 + 1 / 3 + 1 / 9 + 1 / 2)


def test_seeds_kaiqiang_has_works_but_no_coauthors(seeds_store, seeds):
    from kg.query.lookup import resolve_person

    g, _ = seeds
    kaiqiang = resolve_person(seeds_store, "Kaiqiang Xu").iri
    assert g.degree(kaiqiang) == 0
    assert g.nodes[kaiqiang]["works"] >= 4  # four papers listed without author lists
    assert g.nodes[kaiqiang]["profiled"] is True


def test_seeds_shared_collaborators(seeds_store, seeds):
    from kg.query.lookup import resolve_person

    g, _ = seeds
    q, s, t, z = (resolve_person(seeds_store, n).iri
                  for n in ("Qinghao Hu", "Shenghao Qiu", "Tianwei Zhang", "Zheng Wang"))
    assert an.shared_collaborators(g, [q, s]).empty  # Zeke Wang is not Zheng Wang; Wei Gao not Wei Wang
    shared = an.shared_collaborators(g, [q, t])
    # Qinghao's 29 co-authors minus Tianwei and the three who never wrote with him
    # (Zerui Wang: NSDI'24 cut by et al.; Xiaozhe Yao and Ana Klimovic: DeltaServe)
    assert len(shared) == 25
    assert shared.iloc[0][["name", "joint_works", "Qinghao Hu", "Tianwei Zhang"]].tolist() == [
        "Peng Sun", 23, 12, 11]
    shared = an.shared_collaborators(g, [s, z])
    assert len(shared) == 19  # Shenghao's 22 minus Zheng and the GPRS co-authors
    assert set(shared[shared.joint_works == 4].name) == {"Liang You", "Renyu Yang", "Jie Xu", "Xiaoyang Sun"}


def test_seeds_paths(seeds_store, seeds):
    from kg.query.lookup import resolve_person

    g, _ = seeds
    iri = {n: resolve_person(seeds_store, n).iri for n in (
        "Peng Sun", "Ana Klimovic", "Yangqing Zhu", "Chunwei Xia", "Qinghao Hu", "Shenghao Qiu", "Zerui Wang",
        "Xiaozhe Yao")}
    path = an.collaboration_path(g, iri["Peng Sun"], iri["Ana Klimovic"])
    assert list(zip(path.from_name, path.to_name, path.joint_works, strict=False)) == [
        ("Peng Sun", "Qinghao Hu", 12), ("Qinghao Hu", "Ana Klimovic", 1)]
    assert path.loc[1, "works"].startswith("DeltaServe")
    path = an.collaboration_path(g, iri["Yangqing Zhu"], iri["Chunwei Xia"])
    assert list(path.to_name) == ["Shenghao Qiu", "Chunwei Xia"]
    assert list(path.joint_works) == [1, 1]
    path = an.collaboration_path(g, iri["Zerui Wang"], iri["Xiaozhe Yao"])
    assert list(path.to_name) == ["Qinghao Hu", "Xiaozhe Yao"]
    assert an.collaboration_path(g, iri["Qinghao Hu"], iri["Shenghao Qiu"]).attrs["connected"] is False


def test_seeds_institutions(seeds_store, seeds):
    from kg.query.lookup import resolve_person

    _, po = seeds
    q, s, k = (resolve_person(seeds_store, n).iri for n in ("Qinghao Hu", "Shenghao Qiu", "Kaiqiang Xu"))
    # the three studied and worked at different places: nothing in common, no overlaps
    assert an.institutions_in_common(po, [q, s, k]).empty
    assert an.overlaps_in_time(po).empty
    places = an.institutions_of(po, q)
    # NTU twice (PhD; Research Assistant Professor at its S-Lab), ETH Zurich, NUS, Zhejiang
    assert places.institution.nunique() == 4
    ntu = places[places.institution_name == "Nanyang Technological University"]
    assert sorted(ntu.relation) == ["education", "position"]
    assert places[places.role == "Research Assistant Professor"].ongoing.item() is True
    leeds = an.institutions_of(po, s)
    leeds = leeds[leeds.institution_name == "University of Leeds"]
    assert {"Master of Science", "PhD", "Teaching Assistant"} <= set(leeds.role)


def test_seeds_supervision(seeds_store):
    from kg.graphs.projections import supervision_graph
    from kg.query.lookup import resolve_person

    sg = supervision_graph(seeds_store)
    name = {n: d["name"] for n, d in sg.nodes(data=True)}
    arcs = sorted((name[a], name[b]) for a, b in sg.edges())
    assert arcs == [("Jie Xu", "Shenghao Qiu"), ("Tianwei Zhang", "Qinghao Hu"),
                    ("Yonggang Wen", "Qinghao Hu"), ("Zheng Wang", "Shenghao Qiu")]
    # supervisors of the thesis are not its co-authors
    g = coauthor_graph(seeds_store)
    shenghao = resolve_person(seeds_store, "Shenghao Qiu").iri
    thesis = [w for w in g.graph["works"].values() if w["title"].startswith("Accelerating Deep Learning by")]
    assert [w["authors"] for w in thesis] == [[shenghao]]


def _three_places() -> nx.Graph:
    # By hand: at Alpha U, p1 (2010-2015) and p2 (2012-2014) overlap: 1 pair. At Beta U, p1 (2016-2018),
    # p2 (2016-2017) and p3 (2017-2020) overlap pairwise, p2 and p3 in 2017 only: 3 pairs. At Gamma U,
    # p4 (2000-2001) and p1 (2005) never meet: none.
    po = nx.Graph()
    for p in ("p1", "p2", "p3", "p4"):
        po.add_node(p, kind="person", name=p.upper())
    for org in ("Alpha U", "Beta U", "Gamma U"):
        po.add_node(org, kind="organization", name=org)
    for person, org, start, end in [("p1", "Alpha U", "2010", "2015"), ("p2", "Alpha U", "2012", "2014"),
                                    ("p1", "Beta U", "2016", "2018"), ("p2", "Beta U", "2016", "2017"),
                                    ("p3", "Beta U", "2017", "2020"), ("p4", "Gamma U", "2000", "2001"),
                                    ("p1", "Gamma U", "2005", "2005")]:
        po.add_edge(person, org, links=[{"relation": "position", "role": "R", "start": start, "end": end}])
    return po


def test_overlap_counts_count_the_rows_overlaps_in_time_makes():
    po = _three_places()
    counts = an.overlap_counts(po)
    assert counts[["institution_name", "pairs"]].values.tolist() == [["Beta U", 3], ["Alpha U", 1]]
    every = an.overlaps_in_time(po)
    assert len(every) == 4 and list(every.institution_name) == ["Alpha U", "Beta U", "Beta U", "Beta U"]
    # the first k rows are made from the institutions they come from only, and are the first k of all
    for k in range(6):
        assert an.overlaps_in_time(po, first=k).to_dict("records") == every.head(k).to_dict("records"), k
    assert an.overlap_counts(nx.Graph()).empty
    with pytest.raises(ValueError, match="first must be 0 or more, got -1"):
        an.overlaps_in_time(po, first=-1)


_DAYS = st.integers(min_value=0, max_value=60)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("abcd"), _DAYS, st.one_of(st.none(), _DAYS)), max_size=25))
def test_overlapping_pairs_counted_without_pairing_are_the_pairs_made(periods):
    # overlap_counts counts an institution's overlapping pairs with sorted ends (no pairing); the rows
    # overlaps_in_time makes pair every two links. Random periods of four people, a day apart at most 60
    # days, some ongoing (no end), some ending before they begin, several of one person: the same count.
    from datetime import date, timedelta

    from kg.graphs.institutions import _overlap, _pairs_at

    day = date(2020, 1, 1)
    entries = [(p, {}, day + timedelta(first), None if last is None else day + timedelta(last))
               for p, first, last in periods]
    paired = sum(1 for i, (pa, _, fa, ea) in enumerate(entries) for pb, _, fb, eb in entries[i + 1:]
                 if pa != pb and _overlap(fa, ea, fb, eb) is not None)
    assert _pairs_at(entries, None) == paired
