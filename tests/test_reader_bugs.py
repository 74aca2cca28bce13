"""Regression tests for reader bugs that lost a whole document or misread a list (one test per bug)."""

from __future__ import annotations

from kg.records import Work
from kg.sources import read_document
from kg.sources.sections import find_dates
from kg.sources.text import split_author_list


def works_of(tmp_path, text: str) -> list[Work]:
    path = tmp_path / "cv.md"
    path.write_text(text, encoding="utf-8")
    doc = read_document(path)
    assert doc.skipped == [], [str(s) for s in doc.skipped]
    return [f for f in doc.facts if isinstance(f, Work)]


def test_an_entity_that_stands_for_several_characters_does_not_lose_the_document(tmp_path):
    # Regression: "&foo;" (an unknown entity, kept as its five characters) in an entry made cutting the
    # entry into blocks index past its units (IndexError), and the whole CV became one skip.
    works = works_of(tmp_path, "# Jane Doe\n\n## Publications\n\n"
                               "- Jane Doe, Rick Roe. Notes on &foo; and more. *Journal of X*, 2020.\n"
                               "- Jane Doe, Ann Lee. A second paper. *Journal of Y*, 2021.\n")
    assert [w.year for w in works] == ["2020", "2021"]  # both entries read, the document not lost
    assert [a.name for a in works[0].authors] == ["Jane Doe", "Rick Roe"]
    assert [a.name for a in works[1].authors] == ["Jane Doe", "Ann Lee"]


def test_an_ampersand_written_as_html_joins_the_last_two_authors():
    # Regression: "Rick Roe &amp; Ann Lee" (a list copied from a web page) gave an author named "amp".
    assert [a.name for a in split_author_list("Jane Doe, Rick Roe &amp; Ann Lee")] == [
        "Jane Doe", "Rick Roe", "Ann Lee"]


def test_a_month_with_a_long_s_is_read_as_its_month():
    # Regression: the case-blind month pattern takes "ſep" (long s), whose lower case is still "ſep",
    # and the month lookup raised KeyError, losing the document. "ſep 2019" is September 2019.
    dates = find_dates("Researcher, Uni X, ſep 2019 – 2021")
    assert "2019-09" in str(dates)


def test_an_owner_whose_given_name_is_also_a_name_particle_is_the_owner(tmp_path):
    # Regression: "bin" (as in "Ahmad bin Ali") is a name particle, and a two-word name that began
    # with one was refused, so a CV headed "Bin Li" lost its owner (31 of 10,000 generated CVs).
    # Capitalised, "Bin", "Le" and "Da" are given names; lower-case "van Gogh" still is no owner line.
    for owner in ("Bin Li", "Le Song", "Da Wang"):
        path = tmp_path / "cv.md"
        path.write_text(f"{owner}\n\n## Publications\n\n- {owner}, Ann Lee. A paper on graphs. *Journal of Y*, 2021.\n",
                        encoding="utf-8")
        doc = read_document(path)
        assert doc.subject is not None and doc.subject.name == owner, [str(s) for s in doc.skipped]
    path.write_text("van Gogh\n\n## Publications\n\n- Ann Lee. A paper on graphs. *Journal of Y*, 2021.\n",
                    encoding="utf-8")
    assert read_document(path).subject is None


def test_full_names_and_initials_forms_in_one_list_are_not_paired_as_family_first(tmp_path):
    # Regression: "Ada Lovelace, C. Babbage, M. Somerville" was read as APA pairs with a comma
    # mended ("Ada Lovelace, C." and "Babbage, M.", "Somerville" left over). The list scored too low
    # as an author list, so the entry's bold title, which has "with" in it, was taken for the authors
    # and the author line for the title. A name split off by a mended comma must pair in turn.
    assert [a.name for a in split_author_list("Ada Lovelace, C. Babbage, M. Somerville")] == [
        "Ada Lovelace", "C. Babbage", "M. Somerville"]
    works = works_of(tmp_path, "# Ada Lovelace\n\n## Publications\n\n"
                               "1. **Faster Engines with Careful Notes**\n"
                               "Ada Lovelace*, C. Babbage*, M. Somerville\n"
                               "[\\[ENG '24\\]](#) *Conference on Engines*\n")
    assert [w.title for w in works] == ["Faster Engines with Careful Notes"]
    assert [a.name for a in works[0].authors] == ["Ada Lovelace", "C. Babbage", "M. Somerville"]


def test_a_title_with_with_in_it_is_not_taken_for_two_authors(tmp_path):
    # Regression: "Optimising Engines with Punched Cards" splits into two "names" at "with", as many
    # as the two-name author line under it; the first of equals won, so title and authors swapped.
    # A block whose only separator is "with" now comes after every other candidate.
    works = works_of(tmp_path, "# Ada Tester\n\n## Publications\n\n"
                               "1. **Optimising Engines with Punched Cards**\n"
                               "Ada Tester, Charles Tester\n"
                               "*Journal of Engines*, 2020\n\n"
                               "2. Ada Tester with Charles Tester. Notes on Engines. Journal of Engines, 2021.\n\n"
                               "3. **Faster Engines with Fewer Cards**\n"
                               "Ada Tester\n"
                               "*Journal of Engines*, 2022\n")
    assert [w.title for w in works] == ["Optimising Engines with Punched Cards", "Notes on Engines",
                                        "Faster Engines with Fewer Cards"]
    # ... where "with" is all that lists the names, it still lists them; and a bold title with "with"
    # gives way to the lone plain name under it
    assert [[a.name for a in w.authors] for w in works] == [["Ada Tester", "Charles Tester"]] * 2 + [["Ada Tester"]]


def test_a_preprint_server_is_every_server_of_the_word_list_and_corr_only_as_a_whole_venue(tmp_path):
    # Regression: the reference reader had its own pattern of five servers, beside the word lists: any
    # venue that began with "Corr" was the preprint server CoRR, so "Corr. Sci." (Corrosion Science, a
    # journal) became a preprint at the venue "Corr"; and chemRxiv, not among the five, was published.
    works = works_of(tmp_path, "# Jane Doe\n\n## Publications\n\n"
                               "- Jane Doe, Rick Roe. Pitting of steel in sea water. Corr. Sci. 45 (2003) 1-10.\n"
                               "- Jane Doe, Ann Lee. Catalysts that learn. chemRxiv, 2021.\n"
                               "- Jane Doe, Ann Lee. Graphs of graphs. CoRR abs/2101.00001, 2021.\n")
    # the journal: its abbreviated name up to the volume (not "Corr" alone), published in 2003
    assert works[0].venue.name.startswith("Corr. Sci") and (works[0].status, works[0].year) == ("published", "2003")
    # chemRxiv is in kg/words/preprint-servers.txt; CoRR followed by its id is dblp's name for arXiv
    assert [(w.venue.name, w.status) for w in works[1:]] == [("chemRxiv", "preprint"), ("CoRR", "preprint")]
