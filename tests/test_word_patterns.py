"""The patterns made of word lists (kg.words.alternation): their common beginnings are taken out for
speed, and they must match exactly what a flat list of the words, the longest first, matches."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from kg.words import alternation

WORDS = st.lists(st.text(alphabet="abAB .", min_size=1, max_size=4), min_size=1, max_size=8, unique=True)


def flat(words: list[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


@settings(max_examples=400, deadline=None, derandomize=True)
@given(words=WORDS, text=st.text(alphabet="abAB .c", max_size=14),
       after=st.sampled_from(["", r"\b", "c", "(?!a)", "$"]), flags=st.sampled_from([0, re.I]))
def test_the_shared_beginnings_pattern_matches_what_the_flat_list_matches(words, text, after, flags):
    # the same matches, at the same places and of the same lengths, whatever follows the words and in
    # either case mode ("Ab" and "abc" ignoring case: the longer still wins)
    shared = re.compile(f"(?:{alternation(words)}){after}", flags)
    plain = re.compile(f"(?:{flat(words)}){after}", flags)
    assert [m.span() for m in shared.finditer(text)] == [m.span() for m in plain.finditer(text)]


def test_common_beginnings_are_taken_out_once():
    # "jan", "january", "june", "july": one "j", then "an" (with "uary" or not: the longer first) or "u"
    # and "ly" or "ne" (branches as long as each other in the order of their first letters)
    assert alternation(["jan", "january", "june", "july"]) == "j(?:an(?:uary)?|u(?:ly|ne))"
    assert re.fullmatch(alternation(["jan", "january"]), "january")
