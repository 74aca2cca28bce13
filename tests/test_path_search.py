"""The people on shortest co-author paths, found by kg.graphs.fromtables.shortest_path_people (a
search in DuckDB from both ends), against networkx's shortest paths over the same authorships."""

from __future__ import annotations

import duckdb
import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from kg.graphs.fromtables import shortest_path_people


def _tables(folder, authorships: list[tuple[str, str]]):
    """*folder* with an ``authorships.parquet`` of (person, work) rows, as the build writes it."""
    con = duckdb.connect()
    con.execute("CREATE TABLE authorships (work VARCHAR, person VARCHAR)")
    con.executemany("INSERT INTO authorships VALUES (?, ?)", [(w, p) for p, w in authorships])
    con.execute(f"COPY authorships TO '{folder / 'authorships.parquet'}' (FORMAT PARQUET)")
    con.close()
    return folder


def test_two_shortest_paths_and_a_longer_one(tmp_path):
    # a-b-d-f and a-c-e-f are the two paths of three hops (works w1..w6); a-g-h-i-f is one of four
    # (w7..w10); x writes only with d (w11), so is on no path. By hand: {a, b, c, d, e, f}.
    rows = [("a", "w1"), ("b", "w1"), ("b", "w2"), ("d", "w2"), ("d", "w3"), ("f", "w3"),
            ("a", "w4"), ("c", "w4"), ("c", "w5"), ("e", "w5"), ("e", "w6"), ("f", "w6"),
            ("a", "w7"), ("g", "w7"), ("g", "w8"), ("h", "w8"), ("h", "w9"), ("i", "w9"), ("i", "w10"),
            ("f", "w10"), ("x", "w11"), ("d", "w11")]
    tables = _tables(tmp_path, rows)
    assert shortest_path_people(tables, "a", "f") == {"a", "b", "c", "d", "e", "f"}
    assert shortest_path_people(tables, "f", "a") == {"a", "b", "c", "d", "e", "f"}
    assert shortest_path_people(tables, "x", "a") == {"x", "d", "b", "a"}  # x-d-b-a: three hops, one path
    assert shortest_path_people(tables, "a", "nobody") == set()


def test_people_in_two_groups_that_never_write_together_have_no_path(tmp_path):
    # {a, b, c} and {d, e} share no work: no path either way, however far one side's search goes
    tables = _tables(tmp_path, [("a", "w1"), ("b", "w1"), ("b", "w2"), ("c", "w2"), ("d", "w3"), ("e", "w3")])
    assert shortest_path_people(tables, "a", "e") == set()
    assert shortest_path_people(tables, "e", "a") == set()


PEOPLE = [f"p{i}" for i in range(9)]


@settings(max_examples=40, deadline=None, derandomize=True)
@given(works=st.lists(st.lists(st.sampled_from(PEOPLE), min_size=1, max_size=4, unique=True), max_size=14),
       ends=st.lists(st.sampled_from(PEOPLE), min_size=2, max_size=2, unique=True))
def test_the_people_on_shortest_paths_are_networkx_s(tmp_path_factory, works, ends):
    rows = [(p, f"w{k}") for k, authors in enumerate(works) for p in authors]
    source, target = ends
    graph = nx.Graph()
    graph.add_nodes_from(p for p, _ in rows)
    graph.add_edges_from((x, y) for authors in works for x in authors for y in authors if x < y)
    if source in graph and target in graph and nx.has_path(graph, source, target):
        expected = {p for path in nx.all_shortest_paths(graph, source, target) for p in path}
    else:
        expected = set()
    if not rows:
        return  # no table to write
    tables = _tables(tmp_path_factory.mktemp("t"), rows)
    assert shortest_path_people(tables, source, target) == expected
