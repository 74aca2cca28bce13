"""Bad input: one clear line naming file and line, the rest of the build goes on, no traceback."""

from __future__ import annotations

import pytest
from conftest import DATA, run_kg

from kg.build import build_graph
from kg.errors import UserError
from kg.identity.curation import Curation


@pytest.fixture
def broken_data(data_copy):
    (data_copy / "empty.md").write_text("")
    (data_copy / "latin1.txt").write_bytes("Jos\xe9 Garc\xeda\n\nEDUCATION\n".encode("latin-1"))
    (data_copy / "notes.txt").write_text("Shopping list\n\nmilk, eggs and bread\n")
    (data_copy / "cv.pdf").write_bytes(b"%PDF-1.4\n")
    # A CV cut off in the middle of its publication list: the last entry has a title and nothing else.
    (data_copy / "truncated.md").write_text(
        "# Jane Roe\n\n## Education\n\nPh.D. in Physics\nUniversity of Testing\n2001 - 2005\n\n"
        "## Publications\n\n**A Complete Paper**\nJane Roe, John Doe\n[ABC '05] *Conference on Things*\n\n"
        "**A Paper Cut Off Mid-")
    return data_copy


def test_bad_documents_are_skipped_with_file_line_and_reason(broken_data, tmp_path):
    report = build_graph(broken_data, tmp_path / "out", html=False)
    assert report.conforms is True  # what the bad documents left out leaves no half-made node behind
    skipped = {s.span.document: (s.span.first_line, s.reason) for s in report.skipped}
    assert set(skipped) == {"empty.md", "latin1.txt", "notes.txt", "cv.pdf", "truncated.md"}
    assert "empty" in skipped["empty.md"][1]
    # The Latin-1 file is decoded (with a warning at its first bad byte, line 1), then found to be
    # no CV: a name and one empty section.
    latin1 = [(s.span.first_line, s.reason) for s in report.skipped if s.span.document == "latin1.txt"]
    assert latin1[0][0] == 1 and "not UTF-8" in latin1[0][1] and "not a recognised document" in latin1[1][1]
    assert "not a recognised document" in skipped["notes.txt"][1]
    assert "truncated" in skipped["cv.pdf"][1]  # read by the PDF reader: a header and nothing else
    # The cut-off entry is reported with what is missing, its text, and the curation line that would
    # complete it (a correction of a work can give its authors).
    line, reason = skipped["truncated.md"]
    assert line == 15 and reason.startswith("publication entry not read: beside its title there are no authors")
    assert "the entry reads 'A Paper Cut Off Mid-'" in reason
    assert reason.endswith('corrections: {works: [{document: truncated.md, title: "A Paper Cut Off Mid-", '
                           'authors: [Given Family, ...], year: YYYY}]}')
    # The rest went on: the five seeds and the good part of the truncated CV.
    assert report.documents == 6 and report.profiled == 4
    assert "A Complete Paper" in (tmp_path / "out" / "kg.ttl").read_text()


def test_cli_reports_skips_and_strict_fails(broken_data, tmp_path):
    ok = run_kg("build", str(broken_data), "--out", str(tmp_path / "a"))
    assert ok.returncode == 0, ok.stderr
    assert "skipped: 6" in ok.stdout and "truncated.md:15: publication" in ok.stdout
    assert "Traceback" not in ok.stderr
    # The same build with --strict (the SHACL check above need not run twice): exit 1 for the skips.
    strict = run_kg("build", str(broken_data), "--out", str(tmp_path / "b"), "--strict", "--no-validate")
    assert strict.returncode == 1 and "Traceback" not in strict.stderr


def test_a_malformed_curation_file_is_one_line_naming_its_line(data_copy, tmp_path):
    (data_copy / "curation.yaml").write_text("documents:\n  cv-shenghao-qiu.md:\n    date: 2025-03\npeople:\n"
                                             "  same_as: []\n  sameas: []\n")
    result = run_kg("build", str(data_copy), "--out", str(tmp_path))
    assert result.returncode == 1
    assert result.stderr.strip() == (f"kg: error: {data_copy / 'curation.yaml'}:6: unknown key 'sameas' under "
                                     "'people' (known: aliases, not_same_as, same_as, split)")


def test_curation_dates_are_checked():
    with pytest.raises(UserError, match=r"c.yaml:3: date 'June 2024' is not YYYY, YYYY-MM or YYYY-MM-DD"):
        Curation.from_text("documents:\n  a.md:\n    date: June 2024\n", "c.yaml")


def test_missing_data_folder_and_missing_build(tmp_path):
    result = run_kg("build", str(tmp_path / "nope"), "--out", str(tmp_path / "out"))
    assert result.returncode == 1 and "does not exist" in result.stderr and "Traceback" not in result.stderr
    result = run_kg("profile", "anyone", "--out", str(tmp_path / "out"))
    assert result.returncode == 1 and "run `kg build` first" in result.stderr


def test_a_thesis_record_whose_first_line_has_no_letters_is_one_skip(tmp_path):
    # Regression: the first non-blank line ("---") was taken as the author's name, whose name key is
    # empty, and identity failed with KeyError. The record is reported; the seed CV beside it is read.
    data = tmp_path / "data"
    data.mkdir()
    (data / "record.txt").write_text("---\n\n(2021)\n\nA Study of Graphs\n\nPhD thesis, Example University.\n")
    (data / "cv.md").write_text((DATA / "cv-kaiqiang-xu.txt").read_text())
    report = build_graph(data, tmp_path / "out", validate=False, html=False)
    record = [s for s in report.skipped if s.span.document == "record.txt"]
    assert len(record) == 1 and "line 1 should name the thesis's author but reads '---'" in record[0].reason
    assert report.documents == 1


def test_the_curation_line_from_a_skip_completes_the_entry(broken_data, tmp_path):
    # The skip of the cut-off entry shows a correction; filled in (two authors, a year) and added to
    # the curation file, the entry becomes a work with those authors and the skip is gone.
    curation = broken_data / "curation.yaml"
    curation.write_text(curation.read_text() + (
        "corrections:\n  works:\n    - document: truncated.md\n      title: \"A Paper Cut Off Mid-\"\n"
        "      authors: [Jane Roe, Ann Lee]\n      year: 2006\n"))
    report = build_graph(broken_data, tmp_path / "out", validate=False, html=False)
    assert not [s for s in report.skipped if s.span.document == "truncated.md"]
    ttl = (tmp_path / "out" / "kg.ttl").read_text()
    assert "A Paper Cut Off Mid-" in ttl and "Ann Lee" in ttl
    # A correction that gives authors for a title no document has is reported with its line (line 30:
    # the seed curation file has 27 lines, then "corrections:", "works:", and this entry).
    curation.write_text(curation.read_text().replace("A Paper Cut Off Mid-", "No Such Paper").replace(
        "      year: 2006\n", ""))
    report = build_graph(broken_data, tmp_path / "out2", validate=False, html=False)
    (fix,) = [s for s in report.skipped if "No Such Paper" in s.reason]
    assert fix.span.first_line == 30 and "no work titled 'No Such Paper' in truncated.md" in fix.reason
