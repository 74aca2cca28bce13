"""Printed author lists in every common style (kg.sources.text.split_author_list, which the
structured readers call too). Names are invented; expected values follow the corpus convention:
"Family, Given" turned round, Vancouver "Family GI" -> "GI Family", anything else as printed."""

from __future__ import annotations

import pytest

from kg.sources.text import split_author_list


def names(raw):
    return [a.name for a in split_author_list(raw)]


@pytest.mark.parametrize(("raw", "expected"), [
    ("Ada Lovelace, Charles Babbage and Mary Somerville", ["Ada Lovelace", "Charles Babbage", "Mary Somerville"]),
    ("Lovelace, Ada and Babbage, Charles", ["Ada Lovelace", "Charles Babbage"]),  # BibTeX-like
    ("Lovelace, A., Babbage, C. & Somerville, M.", ["A. Lovelace", "C. Babbage", "M. Somerville"]),  # APA
    ("A. Lovelace, C. Babbage, and M. Somerville", ["A. Lovelace", "C. Babbage", "M. Somerville"]),
    ("AL Lovelace, CB Babbage", ["AL Lovelace", "CB Babbage"]),  # initials first: kept as printed
    ("Wells, H.B.M, Crego, R.D. & Alston, J.M.", ["H.B.M Wells", "R.D. Crego", "J.M. Alston"]),  # compact initials
    ("Lovelace A, Babbage CB, Somerville M.", ["A Lovelace", "CB Babbage", "M Somerville"]),  # Vancouver
    ("Lovelace, Ada; Babbage, Charles; Mary Somerville", ["Ada Lovelace", "Charles Babbage", "Mary Somerville"]),
    # A missing comma between two APA pairs is mended: "Lovelace, A. Babbage, C."
    ("Lovelace, A. Babbage, C., & Somerville, M.", ["A. Lovelace", "C. Babbage", "M. Somerville"]),
    # ... but a full name before an initials form is not a family name: three names, not APA pairs
    ("Ada Lovelace, C. Babbage, M. Somerville", ["Ada Lovelace", "C. Babbage", "M. Somerville"]),
    ("Ludwig van Tester, Ana de la Prueba", ["Ludwig van Tester", "Ana de la Prueba"]),  # particles
    ("Lovelace, A.-M., Babbage, J.-P.", ["A.-M. Lovelace", "J.-P. Babbage"]),  # hyphenated initials
    ("with Ada Lovelace and Charles Babbage", ["Ada Lovelace", "Charles Babbage"]),  # humanities "with X and Y"
    ("Prof. Ada Lovelace, Dr. Charles Babbage", ["Ada Lovelace", "Charles Babbage"]),  # titles dropped
    # French and German lists join the last name with "et" and "und" (lower case, before a capital)
    ("Lovelace, A., Babbage, C., et Somerville, M.", ["A. Lovelace", "C. Babbage", "M. Somerville"]),
    ("Lovelace, Ada und Charles Babbage", ["Ada Lovelace", "Charles Babbage"]),
    # ... but "et al." is no "et", and Spanish "y" joins the two family names of one person
    ("Lovelace, A., Babbage, C., et al.", ["A. Lovelace", "C. Babbage"]),
    ("José Tester y Prueba, Ana Roe", ["José Tester y Prueba", "Ana Roe"]),
    # ... except after an initial, or before one: Spanish "y" and Portuguese "e" join two names there
    ("Lovelace, A., Babbage, C. y Somerville, M.", ["A. Lovelace", "C. Babbage", "M. Somerville"]),
    ("A. Lovelace e C. Babbage", ["A. Lovelace", "C. Babbage"]),
    # a suffix after its own comma belongs to the name before it, which keeps it at its end
    ("Lovelace, A. P. & Babbage, Jr., C. G.", ["A. P. Lovelace", "C. G. Babbage Jr."]),  # APA: family, suffix, initials
    ("Lovelace, A. E., Jr., Babbage, C.", ["A. E. Lovelace Jr.", "C. Babbage"]),  # APA: family, initials, suffix
    ("Ada Lovelace, Jr., Charles Babbage", ["Ada Lovelace Jr.", "Charles Babbage"]),
    ("Ada Lovelace, II, Charles Babbage", ["Ada Lovelace II", "Charles Babbage"]),
    # Chicago: the first name inverted, its family name with a suffix
    ("Babbage III, Charles and Ada Lovelace", ["Charles Babbage III", "Ada Lovelace"]),
    # ... but Vancouver's "II" and "IV" are initials: "Lovelace IV" is I. V. Lovelace
    ("Lovelace IV, Babbage AA", ["IV Lovelace", "AA Babbage"]),
])
def test_styles(raw, expected):
    assert names(raw) == expected


def test_marks_bold_underline_and_links_are_decoration():
    authors = split_author_list("**Lovelace, A.**\\*, <u>Babbage, C.</u>†, Somerville, M.‡, Tester, I.^1, "
                                "Poe, E.(*), Roe, S.<sup>2</sup>")
    assert [a.name for a in authors] == ["A. Lovelace", "C. Babbage", "M. Somerville", "I. Tester", "E. Poe", "S. Roe"]
    # *, † and ‡ mark equal contribution; (*), ^1 and superscripts are footnotes.
    assert [a.equal_contribution for a in authors] == [True, True, True, False, False, False]
    assert authors[0].printed == "**Lovelace, A.**\\*"
    linked = split_author_list("[Mary Somerville](https://example.org/ms)*, Ida Tester<sup>†</sup>, Eve Poe^1")
    assert [(a.name, a.equal_contribution) for a in linked] == [
        ("Mary Somerville", True), ("Ida Tester", True), ("Eve Poe", False)]


@pytest.mark.parametrize("raw", ["Ada Lovelace, Charles Babbage, et al.", "Ada Lovelace, Charles Babbage and others",
                                 "Ada Lovelace, Charles Babbage, ..."])
def test_a_list_cut_short(raw):
    authors = split_author_list(raw)
    assert [a.name for a in authors] == ["Ada Lovelace", "Charles Babbage"]
    assert [a.et_al_follows for a in authors] == [False, True]


def test_a_gap_in_the_middle_of_a_list():
    # "..." in the middle: the author before the gap is marked, the list goes on.
    authors = split_author_list("Ada Lovelace, Charles Babbage, ..., Mary Somerville")
    assert [(a.name, a.et_al_follows) for a in authors] == [
        ("Ada Lovelace", False), ("Charles Babbage", True), ("Mary Somerville", False)]


def test_no_break_spaces_and_chicago_inversion():
    assert names("A.\u00a0Lovelace, C.\u00a0Babbage") == ["A. Lovelace", "C. Babbage"]
    assert names("Lovelace, Ada, and Charles Babbage") == ["Ada Lovelace", "Charles Babbage"]


def test_a_two_word_name_before_a_whole_name_is_two_people():
    # Regression: "Bin Roe, Ada Tester" was read as one inverted name, "Ada Tester Bin Roe": "bin" is a
    # particle ("Mohammed bin Salman"), and the first piece was taken for a family name after one.
    # Particles count in lower case only ("van Tester, Paul" is one name).
    assert [a.name for a in split_author_list("Bin Roe, Ada Tester")] == ["Bin Roe", "Ada Tester"]
    assert [a.name for a in split_author_list("van Tester, Paul")] == ["Paul van Tester"]
