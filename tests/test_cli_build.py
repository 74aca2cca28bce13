"""The build, validate and profile commands run on the seed documents, as a user runs them."""

from __future__ import annotations

import json
import re
import sys

import pytest
from conftest import DATA, run_kg, run_kg_process


def test_build_prints_a_summary(tmp_path):
    # The one end-to-end run of the installed console script, in its own process.
    result = run_kg_process("build", str(DATA), "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    # Counted by hand from the documents (people and works: see tests/test_build_graph.py::test_counts_by_hand).
    # Organizations, 20: Kaiqiang Xu's CV names Google Cloud and its unit MSCA, Renmin University, HKUST,
    # Vincross and Zhihu (6); Qinghao Hu's CVs ETH Zürich and its Systems Group, NTU and its S-Lab, NUS and
    # Zhejiang University (6); Shenghao Qiu's CV Alibaba, Foshan University, Nubificus, the University of Leeds
    # and its School of Computing, and the University of York (6); the thesis record adds Leeds's Faculty of
    # Engineering and that faculty's School of Computer Science (2).
    assert lines[0].startswith("read 5 documents: 54 people (3 profiled), 28 works, 20 organizations")
    # One line per document, in file-name order, before the list of files written.
    assert [line.split(":")[0].strip() for line in lines[1:6]] == [
        "cv-kaiqiang-xu.txt", "cv-qinghao-hu-2023.md", "cv-qinghao-hu-2024.md", "cv-shenghao-qiu.md",
        "thesis-record-shenghao-qiu.txt"]
    # The thesis record lists one work, the thesis (year on line 3, title on line 4), and three people:
    # its owner (line 1) and the two supervisors of line 12, "Wang, Zheng and Xu, Jie".
    assert lines[5] == "  thesis-record-shenghao-qiu.txt: 1 works, 3 people, 0 skipped"
    assert "validation: conforms to shapes.ttl" in lines
    assert lines[-1] == "skipped: 0 (nothing)"
    for name in ("kg.trig", "kg.ttl", "kg.jsonld", "identity.json"):
        assert (tmp_path / name).is_file()
    assert (tmp_path / "store").is_dir()


def test_build_timings_name_every_stage(tmp_path):
    # --timings adds, after the summary, a line per stage: the first half's (reading to identity.json,
    # in their own process), then the rest, and the total, which no stage can exceed.
    result = run_kg("build", str(DATA), "--out", str(tmp_path), "--timings", "--no-validate")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    timed = lines[lines.index("timings:") + 1:]
    seconds = {line.split(": ")[0].strip(): float(line.rsplit(": ", 1)[1].removesuffix(" s")) for line in timed}
    # the seeds give few decisions and a small merged view, so the first half writes identity.json
    # itself (no fork), before the mapping; the sources' N-Quads are written as each document is mapped,
    # and the merged view's N-Triples before the tables, so that the store can load them meanwhile
    assert list(seconds)[:6] == ["reading", "identity", "identity.json", "mapping, and the sources' N-Quads",
                                 "N-Triples (merged view)", "tables (CSV, from the merged view)"]
    # the store loads the sources as they are written, then the merged view, beside the rest
    loads = [stage for stage in seconds if stage.startswith("store load of the")]
    assert [stage.split(",")[0].removesuffix(" (beside the others)") for stage in loads] == [
        "store load of the sources", "store load of the merged view"], loads
    assert "kg.jsonld" in seconds and "tables" in seconds
    assert list(seconds)[-1] == "total"
    assert all(0 <= s <= seconds["total"] for s in seconds.values())
    # Without --timings the summary ends with what was skipped.
    plain = run_kg("build", str(DATA), "--out", str(tmp_path / "again"), "--no-validate")
    assert "timings:" not in plain.stdout and plain.stdout.splitlines()[-1] == "skipped: 0 (nothing)"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_build_timings_give_the_memory_of_the_largest_process_and_of_all_together(tmp_path):
    # A command of its own (in this process the largest would be the test run's): the line before the
    # timings names the largest process and the sampled peak of all of them together. The command's
    # own process, with click, rdflib, pyoxigraph and the readers loaded, holds more than 40 MiB; the
    # seeds need far less than 2 GiB.
    result = run_kg_process("build", str(DATA), "--out", str(tmp_path), "--timings", "--no-validate")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    memory = lines[lines.index("timings:") - 1]
    found = re.fullmatch(r"memory: the largest process held ([\d.]+) MiB; its processes together held "
                         r"([\d.]+) MiB at their peak \(proportional set size, sampled every second\)", memory)
    assert found, memory
    assert all(40 < float(size) < 2048 for size in found.groups())


def test_validate_and_profile(seeds_out):
    result = run_kg("validate", "--out", str(seeds_out))
    assert result.returncode == 0 and "conforms" in result.stdout
    text = run_kg("profile", "QIU shenghao", "--out", str(seeds_out))
    assert text.returncode == 0, text.stderr
    # Lines 27-28 of the CV are the two-column row "University of York | July 2024 - Present" / "Research Fellow".
    assert "2024-07 – present  Research Fellow, University of York (fellowship)  [cv-shenghao-qiu.md:27-28]" in text.stdout
    assert "orcid.org/0000-0001-6345-0306" in text.stdout
    data = json.loads(run_kg("profile", "Shenghao", "--format", "json", "--out", str(seeds_out)).stdout)
    theses = [w for w in data["works"] if w["title"].startswith("Accelerating Deep Learning")]
    assert theses[0]["sources"] == ["thesis-record-shenghao-qiu.txt:3-5"]
    phd = next(e for e in data["education"] if e["level"] == "doctorate")
    assert sorted(phd["sources"]) == ["cv-shenghao-qiu.md:27-28", "thesis-record-shenghao-qiu.txt:5-20"]
    assert len(data["works"]) == 10 and len(data["skills"]) == 6


def test_profile_of_an_ambiguous_or_unknown_name_lists_candidates(seeds_out):
    result = run_kg("profile", "wang", "--out", str(seeds_out))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "matches 7 people" in result.stderr and "Zeke Wang" in result.stderr and "Zheng Wang" in result.stderr
    result = run_kg("profile", "Qinghau Hu", "--out", str(seeds_out))
    assert result.returncode == 1 and "closest: Qinghao Hu" in result.stderr
