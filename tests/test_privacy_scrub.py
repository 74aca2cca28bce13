"""The scrub (kg.privacy) on generated addresses, and on hostile text in time in proportion to its size."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kg.privacy import scrub

KEPT = "Office: Lyon. I study graphs."
# a street's name that is no part of the text that stays ("Lyo" is in "Lyon")
NAME = st.from_regex(r"[A-Z][a-z]{2,9}", fullmatch=True).filter(lambda name: name not in KEPT)
# "place" and "route" count only where a postcode follows, as it always does here
FRENCH_WORDS = st.sampled_from(["rue", "avenue", "boulevard", "allée", "impasse", "chemin", "quai", "Rue", "place",
                                "route"])


@settings(max_examples=200, deadline=None, derandomize=True)
@given(number=st.integers(1, 999), extra=st.sampled_from(["", " bis", " ter"]), comma=st.sampled_from(["", ","]),
       word=FRENCH_WORDS, particle=st.sampled_from(["", " de", " de la", " du", " des", " d'"]), name=NAME,
       postcode=st.integers(10000, 99999))
def test_a_french_address_leaves_the_text_and_its_city_stays(number, extra, comma, word, particle, name, postcode):
    # "12 bis, rue de la Paix, 75002 Lyon": everything from the number to the postcode is the address; the city
    # after it is kept (as for "77 Massachusetts Avenue, Cambridge"). The name follows the particle, with a
    # space unless the particle is an elided "d'".
    space = "" if particle.endswith("'") else " "
    street = f"{number}{extra}{comma} {word}{particle}{space}{name}"
    text = f"Office: {street}, {postcode} Lyon. I study graphs."
    cleaned = scrub(text)
    assert name not in cleaned and str(postcode) not in cleaned and str(number) not in cleaned, cleaned
    assert "Lyon" in cleaned and "I study graphs." in cleaned


@settings(max_examples=200, deadline=None, derandomize=True)
@given(name=NAME, ending=st.sampled_from(["straat", "laan", "gracht", "plein", "dijk", "gatan", "vägen", "vej", "veien",
                                          "stræde", "katu"]),
       number=st.integers(1, 999), letter=st.sampled_from(["", "a", "b"]))
def test_a_street_whose_word_ends_its_name_leaves_the_text(name, ending, number, letter):
    # "Kerkstraat 12", "Drottninggatan 5b": the street's word closes one word, the house number follows.
    # (A capital after the number is left out: "Gateway 5G" is a title.)
    # The whole word and its number go; the city after the comma stays. Each ending is one the word
    # list kg/words/street-types.txt gained for Dutch, Swedish, Danish, Norwegian and Finnish streets.
    street = f"{name}{ending} {number}{letter}"
    cleaned = scrub(f"Office: {street}, Lyon. I study graphs.")
    assert name not in cleaned and ending not in cleaned and str(number) not in cleaned, cleaned
    assert cleaned == KEPT


@pytest.mark.parametrize(("text", "kept"), [
    # the street's word first, its name (with particles such as "degli"), then the house number
    ("Corso Duca degli Abruzzi 24, Torino", "Torino"),
    ("Paseo de la Castellana 100, Madrid", "Madrid"),
    ("ul. Marszałkowska 10, Warszawa", "Warszawa"),  # an abbreviation, matched as written too
    ("Ul. Marszałkowska 10, Warszawa", "Warszawa"),
    # "Via" counts only where a postcode of five digits follows the number, which stays with the city
    ("Via Roma 10, 00184 Roma", "00184 Roma"),
    ("Learning Via Graph Networks 2", "Learning Via Graph Networks 2"),
    ("Message passing via Graph Networks 2, 12345 samples", "Message passing via Graph Networks 2, 12345 samples"),
    # English words that end like a street's word are no street: the lists leave "gate", "gade", "kade" out
    ("Aggregate 10 models", "Aggregate 10 models"),
    ("Brigade 2", "Brigade 2"),
    ("Blockade 2 of the network", "Blockade 2 of the network"),
    ("Gateway 5G networks", "Gateway 5G networks"),  # a capital after the number: no house number
])
def test_streets_of_other_languages_go_and_titles_stay(text, kept):
    assert scrub(text) == kept


@pytest.mark.parametrize("piece", ["1 rue de la ", "12 Ab Cd Ef Gh ", "1 bis, avenue d'", "Rue A b c 1", "1 A ",
                                   "9999999 ", "Calle de la de la ", "Via degli Ab ", "Abstraat ", "ul. A "])
def test_hostile_text_is_scrubbed_in_time_in_proportion_to_its_size(piece):
    # Runs of what the address patterns begin with, 600 kB of each: each pattern's repetitions are bounded,
    # so a text costs time in proportion to its length (0.2 s of CPU at most when measured; a pattern
    # that backtracked over the runs would take minutes).
    text = piece * (600_000 // len(piece))
    start = time.process_time()
    scrub(text)
    assert time.process_time() - start < 5.0


@pytest.mark.parametrize(("text", "kept"), [
    # Regression: "Mar 02, 2013 First Place in Nanoscience ..." (an award in a CV) lost "2013 First Place":
    # a year was a house number before "Place". Before the words of street-types-not-after-a-year it is not.
    ("Award Mar 02, 2013 First Place in Nanoscience", "Award Mar 02, 2013 First Place in Nanoscience"),
    ("2019 Supreme Court clerkship", "2019 Supreme Court clerkship"),
    # another number is a house number before them, and a year still is before the other words
    ("12 Acacia Place, Leeds", "Leeds"),
    ("1999 Main Street, Leeds", "Leeds"),
])
def test_a_year_is_no_house_number_before_place_or_court(text, kept):
    assert scrub(text) == kept
