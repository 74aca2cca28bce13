"""kg's own analysis functions reproduce the statistics SNAP publishes for ca-GrQc.

Expected values are SNAP's published table (https://snap.stanford.edu/data/ca-GrQc.html), not
program output. The edge list ships gzipped in notebooks/data/, shared with notebooks/ca-grqc.ipynb.
"""

from pathlib import Path

import pytest

from kg.errors import UserError
from kg.graphs.analyses import graph_statistics
from kg.graphs.edgelist import read_edge_list

GRQC = Path(__file__).resolve().parents[1] / "notebooks" / "data" / "ca-GrQc.txt.gz"


@pytest.fixture(scope="module")
def stats():
    graph = read_edge_list(GRQC)
    frame = graph_statistics(graph)
    return dict(zip(frame.statistic, frame.value, strict=False)), frame


def test_nodes_and_edges(stats):
    values, _ = stats
    assert values["nodes"] == 5242
    assert values["edges"] == 14496
    assert values["self_loops"] == 12


def test_largest_component(stats):
    values, _ = stats
    assert values["largest_component_nodes"] == 4158
    assert values["largest_component_edges"] == 13428


def test_clustering_triangles_diameter(stats):
    values, frame = stats
    assert round(values["average_clustering"], 4) == 0.5296
    assert values["triangles"] == 48260
    assert values["diameter"] == 17
    methods = dict(zip(frame.statistic, frame.method, strict=False))
    assert methods["diameter"].startswith("exact")


def test_missing_file_names_it(tmp_path):
    with pytest.raises(UserError, match="no edge list at .*nowhere.txt"):
        read_edge_list(tmp_path / "nowhere.txt")


def test_malformed_line_names_file_and_line(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("# header\n1\t2\n2\t1\n3 4 5\n")
    with pytest.raises(UserError, match=r"bad.txt:4: expected two node ids"):
        read_edge_list(path)


def test_both_directions_collapse_and_self_loops_stay(tmp_path):
    path = tmp_path / "toy.txt"
    path.write_text("# toy\n1\t2\n2\t1\n3\t3\n\n2 3\n")
    graph = read_edge_list(path)
    assert sorted(graph.edges()) == [(1, 2), (2, 3), (3, 3)]


def test_gzipped_list_reads_and_a_truncated_one_is_a_user_error(tmp_path):
    import gzip

    path = tmp_path / "toy.txt.gz"
    path.write_bytes(gzip.compress(b"# toy\n1\t2\n2 3\n"))
    assert sorted(read_edge_list(path).edges()) == [(1, 2), (2, 3)]
    broken = tmp_path / "broken.txt.gz"
    broken.write_bytes(path.read_bytes()[:-6])  # the gzip trailer cut off
    with pytest.raises(UserError, match="broken.txt.gz: not a complete gzip file"):
        read_edge_list(broken)
