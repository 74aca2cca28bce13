"""Loading the store while the first half still writes the sources' N-Quads (kg.store_load): a file
read as it grows, to the end its writer marks by renaming it, and never past a writer that stopped."""

from __future__ import annotations

import os
import threading
import time

import pyoxigraph
import pytest

from kg.store import ONTOLOGY_GRAPH
from kg.store_load import GrowingFile, StoreLoad, WriterStopped, mark_whole, writing_path

# Three quads in two graphs, written by hand: the store must end with exactly these.
LINES = [
    b'<https://kg.example/id/person/a> <https://kg.example/ns#name> "Ann Able" <https://kg.example/graph/one> .\n',
    b'<https://kg.example/id/person/b> <https://kg.example/ns#name> "Bo Baker" <https://kg.example/graph/one> .\n',
    b'<https://kg.example/id/person/a> <https://kg.example/ns#name> "A. Able" <https://kg.example/graph/two> .\n',
]


def _write_slowly(path, lines, done: bool = True) -> None:
    """Write *lines* to *path*'s writing path a piece at a time (one line split mid-way), then rename it."""
    writing = writing_path(path)
    with open(writing, "wb") as out:
        for line in lines:
            for piece in (line[:20], line[20:]):  # a reader may see half a line: it must wait for the rest
                out.write(piece)
                out.flush()
                time.sleep(0.03)
    if done:
        mark_whole(path)


def test_a_store_loaded_from_a_growing_file_holds_every_quad_written(tmp_path):
    path = tmp_path / "sources.nq"
    writer = threading.Thread(target=_write_slowly, args=(path, LINES))
    writer.start()
    store = pyoxigraph.Store()
    with GrowingFile(path, threading.Event(), poll=0.005) as growing:
        store.bulk_load(input=growing, format=pyoxigraph.RdfFormat.N_QUADS)
    writer.join()
    # loaded while written: the same three quads as loading the finished file at once
    whole = pyoxigraph.Store()
    whole.bulk_load(path=str(path), format=pyoxigraph.RdfFormat.N_QUADS)
    assert len(store) == 3 and set(store) == set(whole)


def test_a_file_renamed_before_it_is_opened_is_read_whole(tmp_path):
    path = tmp_path / "sources.nq"
    path.write_bytes(b"".join(LINES))  # the writer finished before the reader looked
    with GrowingFile(path, threading.Event()) as growing:
        assert growing.read() == b"".join(LINES)


def test_a_reader_waiting_on_a_writer_that_stopped_raises(tmp_path):
    path = tmp_path / "sources.nq"
    writing_path(tmp_path / "sources.nq").write_bytes(LINES[0])  # never renamed: the writer failed
    stopped = threading.Event()
    threading.Timer(0.1, stopped.set).start()
    with GrowingFile(path, stopped) as growing, pytest.raises(WriterStopped, match="sources.nq was not finished"):
        growing.read()


def test_an_abandoned_load_stops_following_and_lets_the_folder_go(tmp_path):
    from kg.progress import Stopwatch

    sources, merged = tmp_path / "sources.nq", tmp_path / "merged.nt"
    load = StoreLoad(tmp_path / "store", sources, merged, Stopwatch())
    load.follow(None, os.getpid())
    writing_path(tmp_path / "sources.nq").write_bytes(LINES[0])  # begun, never finished
    time.sleep(0.2)
    started = time.perf_counter()
    load.abandon()  # the first half failed: following stops within a poll, not at some timeout
    assert time.perf_counter() - started < 5
    assert load.store is None


def test_a_load_that_did_not_follow_loads_the_sources_when_finished(tmp_path):
    from kg.progress import Stopwatch

    sources, merged = tmp_path / "sources.nq", tmp_path / "merged.nt"
    sources.write_bytes(b"".join(LINES))
    merged.write_bytes(LINES[0].rsplit(b" <https://kg.example/graph/one>", 1)[0] + b" .\n")
    store = StoreLoad(tmp_path / "store", sources, merged, Stopwatch()).finish().result()
    # the sources' three quads, the merged view's one triple in the default graph, and the ontology
    assert len(list(store.quads_for_pattern(None, None, None, pyoxigraph.DefaultGraph()))) == 1
    named = {q.graph_name.value for q in store if isinstance(q.graph_name, pyoxigraph.NamedNode)}
    named.discard(ONTOLOGY_GRAPH)
    assert len(list(store.quads_for_pattern(None, None, None, pyoxigraph.NamedNode(ONTOLOGY_GRAPH)))) > 10
    assert named == {"https://kg.example/graph/one", "https://kg.example/graph/two"}


@pytest.mark.parametrize("piece", [1, 30, 106, 250, 10_000])
def test_a_load_in_pieces_holds_every_quad_whatever_the_piece(tmp_path, monkeypatch, piece):
    # The lines are 106, 106 and 105 bytes long, the last without its line end. Pieces of 1 or 30 bytes
    # hold no line end at first (they are joined until one does); 106 ends the first at the first
    # line's end; 250 ends in the third line (its start opens the next piece); 10,000 takes all at once.
    # Every way, the store holds the three quads: no line lost, cut, or loaded twice.
    import io

    import kg.store

    monkeypatch.setattr(kg.store, "LOAD_PIECE", piece)
    assert [len(line) for line in LINES] == [106, 106, 105]
    store = pyoxigraph.Store(str(tmp_path / "store"))
    kg.store.load_sources(store, io.BytesIO(b"".join(LINES)[:-1]))
    assert sorted(str(q.object) for q in store) == ['"A. Able"', '"Ann Able"', '"Bo Baker"']
    assert sorted(str(q.graph_name) for q in store) == ["<https://kg.example/graph/one>"] * 2 + \
        ["<https://kg.example/graph/two>"]


def _table_files(folder) -> set[str]:
    return {p.name for p in folder.iterdir() if p.suffix == ".sst"}


def test_the_loaded_store_is_compacted_once_whole(tmp_path):
    # The sources, the merged view and the ontology are three bulk loads, and each adds table files
    # that overlap the last's. A store left as loaded has them merged into fewer here (19 into 16,
    # tried); compacted once whole, compacting it again leaves as many files (one table whose
    # entries Oxigraph filters as it compacts is written anew, so the names may change).
    from kg.progress import Stopwatch

    (tmp_path / "sources.nq").write_bytes(b"".join(LINES))
    (tmp_path / "merged.nt").write_bytes(b'<https://kg.example/id/person/a> <https://kg.example/ns#name> "Ann Able" .\n')
    clock = Stopwatch()
    store = StoreLoad(tmp_path / "store", tmp_path / "sources.nq", tmp_path / "merged.nt", clock).finish().result()
    del store
    loaded = _table_files(tmp_path / "store")
    store = pyoxigraph.Store(str(tmp_path / "store"))
    store.optimize()
    store.flush()
    # still what was loaded: the merged view's one triple, the sources' three quads
    assert len(list(store.quads_for_pattern(None, None, None, pyoxigraph.DefaultGraph()))) == 1
    assert sum(len(list(store.quads_for_pattern(None, None, None, pyoxigraph.NamedNode(f"https://kg.example/graph/{g}"))))
               for g in ("one", "two")) == 3
    del store
    assert loaded and len(_table_files(tmp_path / "store")) == len(loaded)
    # and `kg build --timings` shows the compaction's own time
    assert [stage for stage, _ in clock.laps if "compaction" in stage] == [
        "store compaction, the load's last step (beside the others)"]


def test_the_merged_view_is_loaded_as_soon_as_it_is_whole_before_finish(tmp_path):
    # The first half renames the sources' N-Quads, then the merged view's N-Triples, when each is whole;
    # the load follows both, without waiting for finish() (called once the first half has ended).
    from kg.progress import Stopwatch

    sources, merged = tmp_path / "sources.nq", tmp_path / "merged.nt"
    load = StoreLoad(tmp_path / "store", sources, merged, Stopwatch())
    load.follow(None, os.getpid())
    _write_slowly(sources, LINES)
    triple = LINES[0].rsplit(b" <https://kg.example/graph/one>", 1)[0] + b" .\n"
    writing_path(merged).write_bytes(triple)
    time.sleep(0.3)
    # not renamed yet: not loaded, though the sources are (three quads, none in the default graph)
    assert load.store is not None and len(list(load.store.quads_for_pattern(None, None, None, pyoxigraph.DefaultGraph()))) == 0
    mark_whole(merged)
    deadline = time.monotonic() + 10
    while not len(list(load.store.quads_for_pattern(None, None, None, pyoxigraph.DefaultGraph()))):
        assert time.monotonic() < deadline, "the merged view was not loaded once whole"
        time.sleep(0.02)
    store = load.finish().result()  # nothing left to load: the same store, the merged view once
    assert len(list(store.quads_for_pattern(None, None, None, pyoxigraph.DefaultGraph()))) == 1
    assert sum(1 for q in store if str(q.graph_name).startswith("<https://kg.example/graph/")) == 3
    load.abandon()
