"""A big build's TriG, Turtle and JSON-LD begun in a process of their own as soon as the first half has
written what they are made from (kg.flat_writer)."""

from __future__ import annotations

import threading
from pathlib import Path

from kg.rdf.serialize import write_files
from kg.store_load import mark_whole, writing_path

# One source's quad and the merged view's triple, written by hand.
QUAD = b'<https://kg.example/id/person/a> <https://kg.example/ns#name> "Ann Able" <https://kg.example/graph/one> .\n'
TRIPLE = b'<https://kg.example/id/person/a> <https://kg.example/ns#name> "Ann Able" .\n'


def _files(folder):
    return {name: (folder / name).read_bytes() for name in ("kg.trig", "kg.ttl", "kg.jsonld")}


def test_the_flat_files_begin_once_the_merged_view_is_whole_and_are_those_written_here(tmp_path, monkeypatch):
    import kg.flat_writer

    monkeypatch.setattr(kg.flat_writer, "SMALL_FLAT_FILES", 0)  # the two lines count as a big view
    (tmp_path / "sources.nq").write_bytes(QUAD)
    writing_path(tmp_path / "merged.nt").write_bytes(TRIPLE)
    ended = threading.Event()
    found = []
    waiting = threading.Thread(target=lambda: found.append(kg.flat_writer.flat_files_once_whole(
        tmp_path / "sources.nq", tmp_path / "merged.nt", tmp_path, lambda timeout: ended.wait(timeout))))
    waiting.start()
    waiting.join(0.3)
    assert waiting.is_alive()  # the merged view is not whole yet: nothing begun
    mark_whole(tmp_path / "merged.nt")
    waiting.join(10)
    files = found[0]
    assert files is not None
    assert [name for name, _ in files.result()] == ["kg.trig", "kg.ttl", "kg.jsonld"]
    # the same bytes as written here, one after another
    here = tmp_path / "here"
    here.mkdir()
    write_files(tmp_path / "sources.nq", tmp_path / "merged.nt", here)
    assert _files(tmp_path) == _files(here) and b"Ann Able" in _files(here)["kg.ttl"]


def test_nothing_begins_where_the_writer_ended_first_or_the_view_is_small(tmp_path):
    from kg.flat_writer import flat_files_once_whole

    # the first half ended (an error, say) before it wrote the merged view: nothing to wait for
    assert flat_files_once_whole(tmp_path / "sources.nq", tmp_path / "merged.nt", tmp_path, lambda t: True) is None
    # a merged view of one line is small: the build's own process writes its files
    (tmp_path / "sources.nq").write_bytes(QUAD)
    (tmp_path / "merged.nt").write_bytes(TRIPLE)
    assert flat_files_once_whole(tmp_path / "sources.nq", tmp_path / "merged.nt", tmp_path, lambda t: False) is None
    assert not (tmp_path / "kg.trig").exists()


def test_a_build_whose_flat_files_began_early_writes_the_same_files(tmp_path, monkeypatch, seeds_out):
    # The seeds' merged view counted as big (SMALL_FLAT_FILES at 0): the build begins the flat files in
    # a process of their own as soon as the first half has written the N-Triples, while it still writes
    # the tables; the files are the bytes the seed build (which writes them itself) wrote.
    import kg.flat_writer
    from kg.build import build_graph

    monkeypatch.setattr(kg.flat_writer, "SMALL_FLAT_FILES", 0)
    report = build_graph(Path(__file__).resolve().parents[1] / "data", tmp_path / "out")
    assert report.conforms
    # written beside the rest by their own process (a small view's are written by the build's own)
    assert "kg.trig (beside the others)" in dict(report.stages)
    assert _files(tmp_path / "out") == _files(seeds_out)
