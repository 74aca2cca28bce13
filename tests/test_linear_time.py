"""Regressions for patterns that backtracked without end: each input here took longer than any
test may wait (the editor pattern: 11 s at 18 comma-separated pieces, doubling with each one).

The timeout turns a return of the bug into a failure rather than a hung suite."""

from __future__ import annotations

import pytest

from kg.sources.reference import parse_reference


@pytest.mark.timeout(30)
def test_an_entry_with_many_commas_and_a_parenthesis_but_no_editor_mark():
    # A venue of 40 comma-separated pieces then "(Springer)": the old editor pattern tried every way
    # of cutting the pieces before giving up. There is no "(Ed.)" here, so no editors; the title is
    # the sentence after the authors.
    ref = parse_reference(["J. Doe, R. Roe. A study of things. " + "Alpha Beta, " * 40 + "(Springer), 2020."])
    assert ref.editors == [] and ref.title == "A study of things"


@pytest.mark.timeout(60)
@pytest.mark.parametrize("piece, size", [("[", 20_000), ("<", 100_000), ("<http://a", 100_000), ("](", 100_000)])
def test_runs_of_markup_characters_read_in_linear_time(tmp_path, piece, size):
    # Each pattern used to scan from every "[" or "<" to the end of the text looking for its close:
    # 20 kB of "[" took about 245 s, 20 kB of "<" about 5 s (so 100 kB about 140 s). Such a file is
    # no document: it is reported, not read, and quickly.
    from kg.sources import read_document

    path = tmp_path / "junk.md"
    path.write_text(piece * (size // len(piece)))
    doc = read_document(path)
    assert doc.facts == [] and doc.skipped
