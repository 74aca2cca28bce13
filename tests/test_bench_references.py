"""bench/eval_references.py on a small labelled file written here (AnyStyle's format), and its skip."""

from __future__ import annotations

from bench.eval_references import main, score, sequences, summary

# Two invented references in AnyStyle's format: each segment labelled, in printed order.
LABELLED = """<?xml version="1.0" encoding="UTF-8"?>
<dataset>
  <sequence>
    <author>Roe, J. R., A. B. Tester, and C. D. Sample.</author>
    <date>1990.</date>
    <title>Tolerance of graph kernels to noise.</title>
    <journal>Journal of Graphs</journal>
    <volume>14:</volume>
    <pages>87-90.</pages>
  </sequence>
  <sequence>
    <author>Ada Tester,</author>
    <title>Sparse kernels,</title>
    <date>2001.</date>
  </sequence>
</dataset>
"""


def test_each_field_is_scored_against_its_label(tmp_path):
    path = tmp_path / "gold.xml"
    path.write_text(LABELLED, encoding="utf-8")
    first, second = (score(s) for s in sequences(path))
    # The first reads whole: three authors (every name word found, nothing else), the title, the
    # year, and "Journal of Graphs" as its venue.
    assert (first["title"], first["year"], first["authors"], first["venue"]) == (True, True, (1.0, 1.0), True)
    # "Ada Tester, Sparse kernels, 2001." has no venue segment, so no venue is scored; whatever kg
    # makes of it, the title, year and authors are scored.
    assert "venue" not in second and {"title", "year", "authors"} <= set(second)
    assert summary([first, second]).startswith("references=2 title=")


def test_it_skips_with_a_message_where_the_data_is_absent(tmp_path, capsys):
    assert main(["--datasets", str(tmp_path)]) == 0
    assert "skipped: no AnyStyle data" in capsys.readouterr().out
