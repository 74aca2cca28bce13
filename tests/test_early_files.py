"""A big build's TriG, Turtle and JSON-LD begin as soon as what each is written from is whole
(kg.early_files): the same files as when written after the first half, from a real process."""

from __future__ import annotations

import os
import threading
import time

import pytest
from conftest import DATA

from kg.early_files import EarlyFiles, ParentGone, wait_whole, write_files_when_whole
from kg.rdf.serialize import write_files
from kg.store_load import mark_whole, writing_path

# One source graph and the merged view of one fact, sorted, as the first half writes them.
NQUADS = ('<https://kg.example/id/work/a> <https://kg.example/ns#title> "A \\"quoted\\" title" '
          '<https://kg.example/id/source/cv-md> .\n')
NTRIPLES = ('<https://kg.example/id/work/a> <http://schema.org/name> "A \\"quoted\\" title" .\n'
            '<https://kg.example/id/work/a> <https://kg.example/ns#title> "A \\"quoted\\" title" .\n')
NAMES = ("kg.trig", "kg.ttl", "kg.jsonld")


def _write_whole(path, text):
    writing_path(path).write_text(text, encoding="utf-8")
    mark_whole(path)


def test_the_early_process_writes_the_files_the_late_one_writes(tmp_path):
    # The process starts once the N-Quads are whole (they hold more than least=0 bytes), waits for the
    # N-Triples, written later, and writes the same bytes write_files writes from the whole files.
    stage, late = tmp_path / "stage", tmp_path / "late"
    stage.mkdir()
    late.mkdir()
    nquads, ntriples = stage / ".sources.nq", stage / ".merged.nt"
    early = EarlyFiles(nquads, ntriples, stage, least=0)
    _write_whole(nquads, NQUADS)
    deadline = time.monotonic() + 10
    while early._process is None and time.monotonic() < deadline:  # noqa: SLF001 (started on its thread)
        time.sleep(0.02)
    assert not (stage / "kg.ttl").exists()  # it waits for the merged view
    _write_whole(ntriples, NTRIPLES)
    process = early.take()
    assert process is not None
    timings = process.result()
    assert [name for name, _ in timings] == list(NAMES)
    write_files(nquads, ntriples, late)
    for name in NAMES:
        assert (stage / name).read_bytes() == (late / name).read_bytes(), name
    assert b"quoted" in (stage / "kg.trig").read_bytes()


def test_small_sources_start_no_process_and_cancel_stops_the_wait(tmp_path):
    # Under *least* bytes no process starts (the build writes a small graph's files itself); a wait
    # that is cancelled before the file comes ends at once.
    small = EarlyFiles(tmp_path / "a.nq", tmp_path / "a.nt", tmp_path, least=10**6)
    _write_whole(tmp_path / "a.nq", NQUADS)
    time.sleep(0.2)
    assert small.take() is None
    waiting = EarlyFiles(tmp_path / "never.nq", tmp_path / "never.nt", tmp_path, least=0)
    started = time.monotonic()
    waiting.cancel()
    assert time.monotonic() - started < 5 and waiting.take() is None


def test_a_wait_ends_when_the_build_is_gone(tmp_path):
    # The process polls for the file while its parent lives: under another parent than the one it
    # was told of (the build that started it has ended) it gives up with a message naming the file.
    with pytest.raises(ParentGone, match="never.nt was not finished"):
        wait_whole(tmp_path / "never.nt", parent=os.getppid() + 1)
    (tmp_path / "there.nt").write_text("")
    wait_whole(tmp_path / "there.nt", parent=-1)  # a whole file: no wait, whoever the parent


def test_the_writer_waits_for_each_file_in_turn(tmp_path):
    # write_files_when_whole, here on a thread: kg.trig is written once the N-Quads are whole, and
    # the rest only once the N-Triples are.
    nquads, ntriples = tmp_path / "s.nq", tmp_path / "m.nt"
    done: list = []
    thread = threading.Thread(target=lambda: done.append(
        write_files_when_whole(nquads, ntriples, tmp_path, os.getppid())))
    thread.start()
    _write_whole(nquads, NQUADS)
    deadline = time.monotonic() + 10
    while not (tmp_path / "kg.trig").exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert (tmp_path / "kg.trig").exists() and not (tmp_path / "kg.ttl").exists()
    _write_whole(ntriples, NTRIPLES)
    thread.join(10)
    assert [name for name, _ in done[0]] == list(NAMES)


def test_a_big_build_with_the_early_process_writes_the_small_builds_files(tmp_path, monkeypatch, seeds_out):
    # The seeds as a big build whose sources are big enough for the early process (EARLY_FILES_FROM at
    # 0): the flat files are the ones the seeds' own build writes in its process.
    import kg.build

    monkeypatch.setattr(kg.build, "SMALL_GRAPH", 0)
    monkeypatch.setattr(kg.build, "EARLY_FILES_FROM", 0)
    report = kg.build.build_graph(DATA, tmp_path / "out", html=False)
    stages = [name for name, _ in report.stages]
    assert "kg.trig (beside the others)" in stages and "waiting for kg.trig, kg.ttl and kg.jsonld" in stages
    for name in NAMES:
        assert (tmp_path / "out" / name).read_bytes() == (seeds_out / name).read_bytes(), name
