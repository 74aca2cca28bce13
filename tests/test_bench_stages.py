"""The build benchmark's stage table: ``kg build --timings`` read back, and the north star's projection."""

from __future__ import annotations

import doctest

from conftest import DATA, run_kg

import bench.build_stages
from bench.build_stages import NORTH_STAR_WORKS, parse_timings, stage_rows, stages_markdown


def test_the_examples_in_the_docstrings_hold():
    # bench/ is not among the doctest paths (its benchmarks need the shared corpora); this module's are
    # hand-worked figures the table relies on
    result = doctest.testmod(bench.build_stages)
    assert result.attempted >= 10 and result.failed == 0


def test_the_stages_of_a_real_build_are_read_in_order_and_end_at_the_total(tmp_path):
    result = run_kg("build", DATA, "--out", tmp_path / "out", "--timings")
    assert result.returncode == 0, result.stderr
    stages = parse_timings(result.stdout)
    # the first half reads, then resolves identity; the report ends with the total, and nothing after
    # the timings (the lines before them, "memory: ...", "skipped: 0", are not stages)
    assert list(stages)[:2] == ["reading", "identity"]
    assert list(stages)[-1] == "total"
    assert "skipped" not in stages and not any(name.startswith("memory") for name in stages)
    # reading and identity run one after the other in the first half: the whole build takes longer
    assert stages["total"] >= stages["reading"] + stages["identity"]


def test_the_table_has_a_row_a_stage_and_carries_the_build_to_the_north_star():
    # Hand-made figures: from 30,000 to 300,000 works identity takes 20 then 400 s, a growth of 20
    # for 10 times the works: exponent log 20 / log 10 = 1.30; to 1,000,000 works (10/3 times more)
    # 400 * (10/3)^1.301 = 400 * 4.789 = 1,916 s. Reading grows in proportion: 13 then 130 s, 433 s.
    small = {"documents": 1_000, "works": 30_000, "seconds": 70.0, "tree_pss_mib": 700.0,
             "stages": {"reading": 13.0, "identity": 20.0, "total": 70.0}}
    big = {"documents": 10_000, "works": 300_000, "seconds": 700.0, "tree_pss_mib": 7_000.0,
           "stages": {"reading": 130.0, "identity": 400.0, "total": 700.0}}
    rows = {r["stage"]: r for r in stage_rows([small, big])}
    assert round(rows["identity"]["exponent"], 2) == 1.30 and round(rows["identity"]["projected"]) == 1916
    assert rows["reading"]["exponent"] == 1.0 and round(rows["reading"]["projected"]) == 433
    text = stages_markdown([small, big])
    assert "| identity | 20.00 | 400.00 | 1.30 | 1,916 |" in text
    # the whole build grows in proportion too (70 to 700 s, 700 to 7,000 MiB): 2,333 s, 22.8 GiB
    assert f"North star ({NORTH_STAR_WORKS:,} works" in text
    assert "2,333 s (exponent 1.00; 7.8 times the goal) and 22.8 GiB (exponent 1.00; 2.8 times the goal)" in text
    # one size alone gives no exponent, and nothing to carry
    alone = stage_rows([small])
    assert [r["exponent"] for r in alone] == [None, None, None] and "North star" not in stages_markdown([small])
