"""The shared field-value functions (kg.sources.fields) and safe loading (kg.sources.safe), where the
bibliographic and the site-data readers used to have rules of their own that differed."""

from kg.records import Author, Skip, Span, Work
from kg.sources.fields import (
    author,
    authors_of,
    frequent_author,
    fullest_name,
    is_preprint_venue,
    kind_and_status,
    person_key,
    status_in,
    venue_status,
    year_of,
)
from kg.sources.safe import JsonLines, load_json, parse_xml


def _work(*printed: str, line: int = 1) -> Work:
    return Work(title="T", span=Span("x", line, line), authors=[Author(p, p.strip("*_")) for p in printed])


# --- the owner: one function, two rules -------------------------------------------------------

def test_owner_of_a_cv_bibliography_is_the_frequent_author():
    # Ann Lee is on 3 of 4 works (0.75 >= 0.6, and >= 3 works): the owner, found on line 1 first.
    works = [_work("Ann Lee", "Bo Chan", line=1), _work("A. Lee", line=2), _work("Ann Lee", "Cy Dee", line=3),
             _work("Dan Fox", line=4)]
    owner = frequent_author(works, "cv.bib")
    assert owner.name == "Ann Lee" and (owner.span.document, owner.span.first_line) == ("cv.bib", 1)


def test_a_lab_head_printed_plainly_is_no_owner_when_only_highlighted_authors_count():
    # A lab's data file: its head Pia Quint is on every entry, never in bold. As a CV bibliography she
    # would be the owner; counting only highlighted authors, there is none.
    works = [_work("Pia Quint", f"Student {c}") for c in "ABCD"]
    assert frequent_author(works, "lab.yml").name == "Pia Quint"
    assert frequent_author(works, "lab.yml", highlighted_only=True) is None


def test_a_highlighted_author_owns_a_personal_site():
    # "**Rae Sol**" is bold on 3 of 3 works; Tom Vik (plain) is on 3 too but does not count.
    works = [_work("**Rae Sol**", "Tom Vik") for _ in range(3)]
    assert frequent_author(works, "site.yml", highlighted_only=True).name == "Rae Sol"


def test_works_without_authors_do_not_count_against_the_owner():
    # 3 works list Ann Lee, 3 list nobody: she is on 3 of the 3 works that list authors.
    works = [_work("Ann Lee") for _ in range(3)] + [_work() for _ in range(3)]
    assert frequent_author(works, "x").name == "Ann Lee"


def test_fullest_name_prefers_full_given_names_then_the_most_printed():
    # initials lose to a full given name; among full forms the most printed wins over a longer one.
    assert fullest_name(["J. Doe", "Jane Doe"]) == "Jane Doe"
    assert fullest_name(["Jane Doe", "Jane A. Doe", "Jane Doe"]) == "Jane Doe"
    assert fullest_name(["JANE DOE", "Jane Doe"]) == "Jane Doe"


def test_person_key_folds_accents_keeps_particles():
    # accents folded (ł -> l), family-first turned, particles joined to the family name
    assert person_key("Łukasz, Ola") == person_key("O. Lukasz") == ("lukasz", "o")
    assert person_key("de la Cruz, Ana") == person_key("Ana de la Cruz") == ("de la cruz", "a")
    assert person_key("Prince") == ("prince", "")


# --- authors --------------------------------------------------------------------------------

def test_bold_is_not_an_equal_contribution_mark_in_site_fields():
    # a structured field's '*' marks equal contribution; in site fields '**...**' is bold
    assert author("Jane Doe*").equal_contribution is True
    assert author("**Jane Doe**", markup=True) == Author("**Jane Doe**", "Jane Doe", False)
    assert author("Jane Doe∗", markup=True).equal_contribution is True  # the asterisk operator, U+2217


def test_author_lists_in_fields():
    # et al. marks the author before it; a name with no letters is no author
    found = authors_of(["Doe, Jane", {"family": "Wei", "given": "Li"}, "123", "et al."])
    assert [(a.name, a.et_al_follows) for a in found] == [("Jane Doe", False), ("Li Wei", True)]


# --- year, status, kind ---------------------------------------------------------------------

def test_years():
    # 1500-2099 only; the first year of a string
    assert [year_of(v) for v in ("2150", "1499", "May 2019 - 2020", 2021.0, True)] == [None, None, "2019", "2021",
                                                                                         None]


def test_status_words_are_one_list():
    # the under-review phrases of status-phrases.txt count anywhere ...
    assert status_in("Journal of Tests (revisions requested)") == "under review"
    assert status_in("Resubmitted to Journal of Tests") == "under review"
    # ... and all phrases count at the start of a venue, where they are taken off
    assert venue_status("Under revision at Journal of Tests") == ("Journal of Tests", "under review")
    assert venue_status("Forthcoming in Journal of Tests") == ("Journal of Tests", "published")
    assert status_in("Forthcoming in Journal of Tests") is None  # 'published' phrases only as prefixes
    # dblp's name for arXiv is a preprint venue for every reader, as a whole venue only
    assert is_preprint_venue("CoRR") and not is_preprint_venue("Corr. Sci.")


def test_one_type_table():
    # BibTeX and site spellings of one type agree; unknown types give no kind
    assert kind_and_status("incollection") == kind_and_status("Book section") == ("chapter", None)
    assert kind_and_status("Working paper") == kind_and_status("working_paper") == ("report", "preprint")
    assert kind_and_status("proceedings") == ("book", None)  # a whole volume, as in BibTeX
    assert kind_and_status(["zine", "Journal article"]) == ("article", None)  # the first known of a list
    assert kind_and_status("zine") == (None, None)
    # Hugo's codes: the same lookup, their own table ("3" is a preprint; plain "article" too)
    assert kind_and_status("article", "hugo-publication-types") == ("article", "preprint")


# --- safe loading ---------------------------------------------------------------------------

def test_json_lines_by_path():
    text = '{"works": [\n  {"title": "A"},\n  {\n    "title": "B"\n  }\n]}\n'
    lines = JsonLines(text)
    # works[1] opens on line 3 and closes on line 5; a path deeper than known falls back to its holder
    assert lines.span("x.json", ("works", 1)) == Span("x.json", 3, 5, "works[1]")
    assert lines.lines(("works", 0, "title")) == (2, 2)
    assert lines.lines(("nowhere",)) == (1, 6)  # the whole text: "{" on line 1 to "]}" on line 6


def test_broken_json_and_xml_name_their_line():
    skip = load_json('[\n{"a": 1}\n{"b": 2}]', "x.json")
    # the missing comma is noticed at the third line's '{'
    assert isinstance(skip, Skip) and skip.span.first_line == 3 and "line 3, column 1" in skip.reason
    skip = parse_xml(b"<a>\n<b>\n</a>", "x.xml")
    assert isinstance(skip, Skip) and skip.span.first_line == 3
    skip = parse_xml(b'<?xml version="1.0"?>\n<!DOCTYPE a [\n<!ENTITY e "x">]>\n<a>&e;</a>', "x.xml")
    assert skip.span.first_line == 3 and "declares XML entities" in skip.reason
