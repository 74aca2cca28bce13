"""How the build decides whether a step may run in a fork: the memory a copy of the process would
need against what is left (kg.memory), and a big build under --memory-limit, which runs those steps
in its first half instead, writing the same files."""

from __future__ import annotations

import os
import subprocess
import sys

import pyoxigraph
import pytest
from conftest import DATA, run_kg

from bench.build_stages import parse_timings
from kg.memory import (
    SAMPLE_COST_RATIO,
    STORE_LOAD,
    PeakMemory,
    available_memory,
    resident_memory,
    room_for_a_copy,
    tree_pss,
)

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


@linux_only
def test_this_process_is_resident_and_the_system_has_memory_left():
    mine = resident_memory()
    # a Python process with pytest and kg's modules loaded holds more than 10 MiB and less than the machine
    assert mine is not None and 10 * 2**20 < mine < os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    assert resident_memory(os.getppid()) is not None
    free = available_memory()
    assert free is not None and 0 < free <= os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


@linux_only
def test_a_copy_fits_in_a_limit_only_with_room_for_both_processes():
    mine, parent = resident_memory(), resident_memory(os.getppid()) or 0
    # the limit must hold this process twice (it and its copy) and its parent (the build's own process)
    assert room_for_a_copy(2 * mine + parent + 2**30)  # a gibibyte to spare: RSS moves while the test runs
    assert not room_for_a_copy(mine)  # room for this process alone, none for its copy
    assert not room_for_a_copy(1)


CHILD = """
import time
held = b"x" * (80 * 2**20)   # 80 MiB, written: resident in the child alone
time.sleep(1.5)
"""


@linux_only
def test_the_peak_counts_a_child_process_and_outlasts_it():
    # The child holds 80 MiB of its own for 1.5 s, sampled every 0.2 s: the peak of this process and
    # its children together is at least 80 MiB over this process alone (the child's interpreter adds
    # its own few MiB); once the child is gone the tree is back to about this process, and the peak stays.
    before = tree_pss()
    with PeakMemory(interval=0.2) as memory:
        subprocess.run([sys.executable, "-c", CHILD], check=True)
    after = tree_pss()
    assert before is not None and after is not None and memory.peak is not None
    assert memory.peak - before >= 80 * 2**20
    assert memory.peak - after >= 70 * 2**20


@linux_only
def test_the_sampler_takes_at_most_a_fiftieth_of_a_core_whatever_its_interval():
    # Regression: the build's sampler read every process's page map once a second whatever that cost
    # (65 ms a sample for the 5 GiB of 10,000 CVs). Asked for a sample every millisecond for 1.5 s, it
    # waits 50 times as long as each sample cost it, so every sample but the last is paid for by a wait
    # 50 times its cost: the samples take at most the elapsed time / 50, and the last sample. Sampling
    # every millisecond would take most of the 1.5 s (measured: 1.06 CPU-s).
    import time

    began = time.perf_counter()
    with PeakMemory(interval=0.001) as memory:
        time.sleep(1.5)
    elapsed = time.perf_counter() - began
    assert memory.peak is not None and memory.sampling > 0 and memory.longest > 0
    assert memory.sampling <= elapsed / SAMPLE_COST_RATIO + memory.longest
    assert memory.sampling < 0.2 * elapsed


@linux_only
def test_a_big_build_under_a_memory_limit_runs_its_forked_steps_in_its_first_half(tmp_path, monkeypatch,
                                                                                      seeds_out):
    # SMALL_GRAPH at 0 makes the seeds a big build, and FORK_FROM_CORES at 1 gives its forks a core on
    # any machine: it would make and write the people's identity decisions in a fork while identity goes
    # on (then the rest of identity.json, once the fork is done, while it maps) and validate the merged
    # view in another (a wait); under a limit of 1 MiB no copy fits, so the first half does both itself
    # (identity.json a piece at a time while it maps, "validation" after the mapping), and writes the
    # same files.
    import kg.build
    import kg.identity_file

    monkeypatch.setattr(kg.build, "SMALL_GRAPH", 0)
    monkeypatch.setattr(kg.build, "FORK_FROM_CORES", 1)
    monkeypatch.setattr(kg.identity_file, "FORK_BESIDE_IDENTITY_FROM_CORES", 1)
    forked = parse_timings(run_kg("build", DATA, "--out", tmp_path / "forked", "--timings").stdout)
    assert list(forked)[:3] == ["reading", "identity",
                                "mapping, and the sources' N-Quads, with the rest of identity.json once its fork is done"]
    assert "waiting for the validation" in forked and "validation" not in forked

    result = run_kg("build", DATA, "--out", tmp_path / "limited", "--timings", "--memory-limit", "1M")
    assert result.returncode == 0, result.stderr
    limited = parse_timings(result.stdout)
    assert list(limited)[:3] == ["reading", "identity", "mapping, and the sources' N-Quads, with identity.json beside them"]
    assert "validation" in limited and "waiting for the validation" not in limited
    assert "conforms to shapes.ttl" in result.stdout
    # no process of a build fits in 1 MiB: the build says by how much it went over, and what to do
    over = [line for line in result.stdout.splitlines() if line.startswith("memory: ")]
    assert len(over) == 1 and "more than --memory-limit 1.0 MiB" in over[0] and "give the build more memory" in over[0]
    for name in ("identity.json", "kg.trig", "kg.ttl", "kg.jsonld"):
        assert (tmp_path / "limited" / name).read_bytes() == (seeds_out / name).read_bytes(), name
    # A big build's TriG, Turtle and JSON-LD are written by a process of their own in both builds; the
    # page is drawn while the store loads only where it fits beside the load (not in 1 MiB), and is
    # the same page either way (both read the tables).
    for stages in (forked, limited):
        assert {"kg.trig (beside the others)", "kg.ttl (beside the others)", "kg.jsonld (beside the others)",
                "waiting for kg.trig, kg.ttl and kg.jsonld"} <= set(stages)
    assert "graph.html" in limited and "graph.html, while the store loads" not in limited
    if (available_memory() or 0) >= STORE_LOAD + 2**30:
        assert "graph.html, while the store loads" in forked and "graph.html" not in forked
    assert (tmp_path / "limited" / "graph.html").read_bytes() == (tmp_path / "forked" / "graph.html").read_bytes()


def _quads(out) -> list[str]:
    """Every quad of the store built into *out*, as text, sorted."""
    from kg.store import open_store

    return sorted(str(q) for q in open_store(out))


@linux_only
def test_the_store_loads_the_sources_as_they_are_written_where_memory_allows(tmp_path):
    # With room for the load (STORE_LOAD) beside the first half, the store loads the sources' N-Quads
    # while the mapping writes them (a stage of its own), then the merged view once written; under a
    # limit of 1 MiB it loads both after the first half. Both stores must hold the same quads.

    if (available_memory() or 0) < STORE_LOAD + 2**30:
        pytest.skip("less memory available than the store's load beside the build: the build would not follow")
    followed = parse_timings(run_kg("build", DATA, "--out", tmp_path / "followed", "--timings").stdout)
    assert "store load of the sources, as they were written (beside the others)" in followed
    assert "store load of the merged view, once written (beside the others)" in followed
    limited = parse_timings(run_kg("build", DATA, "--out", tmp_path / "limited", "--timings",
                                   "--memory-limit", "1M").stdout)
    assert not {"store load of the sources, as they were written (beside the others)",
                "store load of the merged view, once written (beside the others)"} & set(limited)
    assert {"store load of the sources (beside the others)", "store load of the merged view (beside the others)"} \
        <= set(limited)
    quads = _quads(tmp_path / "followed")
    assert quads == _quads(tmp_path / "limited")
    # none lost by following a file that grew: the store holds as many quads as kg.trig (the sources)
    # and kg.ttl (the merged view) together, besides the ontology's graph
    from kg.store import ONTOLOGY_GRAPH

    files = [pyoxigraph.parse(path=str(tmp_path / "followed" / name), format=f) for name, f in
             (("kg.trig", pyoxigraph.RdfFormat.TRIG), ("kg.ttl", pyoxigraph.RdfFormat.TURTLE))]
    ontology = sum(f"<{ONTOLOGY_GRAPH}>" in q for q in quads)
    assert ontology > 10 and len(quads) - ontology == sum(len(list(f)) for f in files)


@linux_only
def test_a_big_build_without_a_core_to_spare_runs_its_forked_steps_in_its_first_half(tmp_path, monkeypatch,
                                                                                      seeds_out):
    # The seeds as a big build (SMALL_GRAPH at 0) on a machine one core short of FORK_FROM_CORES and
    # FORK_BESIDE_IDENTITY_FROM_CORES: the first half and the store's load have every core, so the first
    # half writes identity.json (a piece at a time while it maps) and validates the merged view itself,
    # without a memory limit, and the view still conforms, and identity.json is the one a small build
    # writes before the mapping.
    import kg.build
    import kg.identity_file

    monkeypatch.setattr(kg.build, "SMALL_GRAPH", 0)
    monkeypatch.setattr(kg.build, "FORK_FROM_CORES", (os.cpu_count() or 1) + 1)
    monkeypatch.setattr(kg.identity_file, "FORK_BESIDE_IDENTITY_FROM_CORES", (os.cpu_count() or 1) + 1)
    result = run_kg("build", DATA, "--out", tmp_path / "out", "--timings")
    assert result.returncode == 0, result.stderr
    stages = parse_timings(result.stdout)
    assert list(stages)[:3] == ["reading", "identity", "mapping, and the sources' N-Quads, with identity.json beside them"]
    assert "validation" in stages and "waiting for the validation" not in stages
    assert "conforms to shapes.ttl" in result.stdout
    assert (tmp_path / "out" / "identity.json").read_bytes() == (seeds_out / "identity.json").read_bytes()
