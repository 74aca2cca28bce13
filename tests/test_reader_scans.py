"""The free-text reader's scans read their text once (issue 14, the build at scale): dates tried
only before years, author lists split with one search per separator, entry lines cut into blocks a
stretch at a time. Each test gives what the character-by-character scan gave, and the long inputs
finish in time in proportion to their size (the timeout turns a quadratic return into a failure)."""

from __future__ import annotations

import pytest

from kg.sources.authors import _LIST_SEPARATORS, _split_top_level, split_author_list
from kg.sources.reference_blocks import blocks_of
from kg.sources.sections import find_dates
from kg.sources.text import _RANGE, _SINGLE, date_matches
from kg.sources.venue import VENUE_TITLE, parse_venue


def test_dates_range_then_lone_dates_after_the_last_range():
    # "12 Jan. 2019 - Present": day, month with its period, year, dash, open end: one range whose
    # end is open (no date for it). "2010 to 2014": a second range. "May 2021" comes after the
    # last range: a lone date, month precision.
    text = "PhD, 12 Jan. 2019 - Present; BSc 2010 to 2014\nTalk, May 2021"
    assert find_dates(text) == ["2019-01-12", "2010", "2014", "2021-05"]


@pytest.mark.parametrize(("text", "matches"), [
    # Spaces, a period and a comma between the month and the year: all part of the range's start.
    ("Sept.   ,  2019 - 2020", ["Sept.   ,  2019 - 2020"]),
    # Spaces between the day and the month, and a dash with spaces around it.
    ("3      March 2020 – 2021", ["3      March 2020 – 2021"]),
    # "1920" cannot begin a range ("20" follows it, no dash); the year that overlaps it ("2020")
    # begins one: a scan that skipped overlapping years would miss it.
    ("192020 - 2021", ["2020 - 2021"]),
    # Two ranges; what is between them is no date.
    ("Jan 2001 to Feb 2002, and 1999-2000", ["Jan 2001 to Feb 2002", "1999-2000"]),
    ("no date here, 12 34 1850", []),
])
def test_date_ranges_found_where_a_full_scan_finds_them(text, matches):
    assert [m.group(0) for m in date_matches(_RANGE, text)] == matches
    assert [m.group(0) for m in date_matches(_RANGE, text)] == [m.group(0) for m in _RANGE.finditer(text)]


def test_lone_dates_from_a_position():
    # From position 5 on: "2019" at 0 is before it; "Mar 2020" and "2021" follow.
    text = "2019 Mar 2020 x 2021"
    assert [m.group(0) for m in date_matches(_SINGLE, text, 5)] == ["Mar 2020", "2021"]


@pytest.mark.timeout(60)
def test_dates_in_a_long_text_of_years_and_spaces():
    # 2,000 years each followed by 200 spaces (about 400 kB): each is one lone date, none a range.
    text = ("2019" + " " * 200) * 2000
    assert find_dates(text) == ["2019"] * 2000


def test_author_list_split_outside_brackets():
    # Commas inside the parentheses do not separate; ";" does; a ")" that closes nothing is text.
    assert _split_top_level("Doe, J. (Ed., 2nd), Roe, R.; Poe", _LIST_SEPARATORS) == [
        "Doe", "J. (Ed., 2nd)", "Roe", "R.", "Poe"]
    assert _split_top_level("a) , b", _LIST_SEPARATORS) == ["a)", "b"]


@pytest.mark.timeout(60)
def test_a_long_author_list_with_a_bracket_at_its_end_splits_in_linear_time():
    # 50,000 one-letter "names" then an open bracket: each separator is found once (the bracket at
    # the end is looked for once, not again after each separator).
    parts = _split_top_level("a, " * 50_000 + "(b, c", _LIST_SEPARATORS)
    assert len(parts) == 50_001 and parts[-1] == "(b, c"


def test_names_marked_inside_an_author_list_stay_in_it():
    # The bold name is one of a list (a comma follows it): it is not a block of its own, and the
    # list reads as three names in order.
    blocks = blocks_of("J. Roe, **A. Doe**, and B. Poe. A study of things. *Journal*, 2020.", 0)
    assert [(b.text, b.style) for b in blocks][:2] == [("J. Roe, A. Doe, and B. Poe.", "plain"),
                                                      ("A study of things.", "plain")]
    assert [a.name for a in split_author_list(blocks[0].raw)] == ["J. Roe", "A. Doe", "B. Poe"]


def test_blocks_keep_the_markup_of_their_raw_text():
    # The link's text has escaped brackets: its block reads "[NSDI '24]" and keeps the link as
    # printed; the italic block keeps its stars; the space between them is no block.
    blocks = blocks_of("[\\[NSDI '24\\]](#) *USENIX Symposium*", 0)
    assert [(b.text, b.style, b.raw) for b in blocks] == [
        ("[NSDI '24]", "link", "[\\[NSDI '24\\]](#)"), ("USENIX Symposium", "italic", "*USENIX Symposium*")]


def test_venue_before_the_title():
    m = VENUE_TITLE.match("ACM ASPLOS 2025: A Study of Things")
    assert (m.group("acro"), m.group("year"), m.group("title")) == ("ASPLOS", "2025", "A Study of Things")
    assert VENUE_TITLE.match("NeurIPS 2023: Title").group("acro") == "NeurIPS"
    assert VENUE_TITLE.match("Neurips 2023: Title") is None  # one capital: no acronym


@pytest.mark.timeout(30)
def test_a_long_word_of_capitals_is_read_once():
    # The acronym patterns used to cut such a word at every pair of capitals (50,000 letters: about
    # a minute). No year follows it, so it begins no "VENUE YEAR: Title"; in brackets after a venue's
    # name it is a word of two capitals or more, so it is read as the venue's acronym.
    word = "Ab" + "C" * 50_000
    assert VENUE_TITLE.match(word + " x") is None
    venue, year, _ = parse_venue(f"Some Venue ({word})")
    assert (venue.name, venue.acronym, year) == ("Some Venue", word, None)


def test_reading_a_cv_leaves_no_garbage_cycles_for_the_collector():
    # Refcounting frees what a reader lets go of unless it is in a cycle; each entry's style scanner
    # was one (it held its own bound methods), so after every document the collector had thousands
    # of objects to find. The seed CV has a publication list in markdown (bold, italics, links), so
    # every markup reader of the scanner runs; with the collector off, nothing may be left for it.
    import gc
    from pathlib import Path

    from kg.sources import find_sources, read_source

    found, _ = find_sources(Path(__file__).parent.parent / "data")
    for f in found:  # once first: a module imported on first use may leave garbage of its own
        read_source(f)
    enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        docs = [read_source(f) for f in found]
        assert sum(len(d.facts) for d in docs) > 20  # the reading itself did its work
        assert gc.collect() == 0
    finally:
        if enabled:
            gc.enable()
