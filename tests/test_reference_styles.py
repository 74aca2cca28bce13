"""One publication entry in each common citation style, read by the one entry parser.

Every entry is invented for the test (names, titles and venues are made up); the expected
values are read off the entry by hand, the reasoning in a comment where it is not obvious.
"""

from __future__ import annotations

import pytest

from kg.records import Work
from kg.sources import read_document
from kg.sources.reference import parse_reference
from kg.sources.reference_blocks import blocks_of


def read(*lines):
    ref = parse_reference(list(lines))
    assert ref.problem is None, ref.problem
    return ref


def names(ref):
    return [a.name for a in ref.authors]


def test_apa_with_bold_owner():
    # APA: "Family, I." pairs, "&" before the last, (year), title sentence, italic journal, volume.
    ref = read("Doe, J. A., Roe, R., & **Poe, E.** (2020). A study of small things. *Journal of Tests*, 3(2), 1-10.")
    assert (ref.title, ref.venue.name, ref.year) == ("A study of small things", "Journal of Tests", "2020")
    assert names(ref) == ["J. A. Doe", "R. Roe", "E. Poe"]
    assert ref.authors[2].printed == "**Poe, E.**"  # the printed form keeps the bold


def test_ieee_with_number_and_quoted_title():
    ref = read('[3] **J. Doe**, R. Roe, and E. Poe, "A study of small things," in Proc. Int. Conf. on Testing, 2021, '
               'pp. 1-5.')
    assert (ref.title, ref.year) == ("A study of small things", "2021")
    assert names(ref) == ["J. Doe", "R. Roe", "E. Poe"]
    assert ref.venue.name == "Proc. Int. Conf. on Testing"  # cut before the year and pages


def test_acm_with_bare_year_after_authors():
    # ACM: "Authors. Year. Title. In Proceedings ... (ACRO 'YY). Publisher, pages."
    ref = read("Jane Doe and Rick Roe. 2019. Small Things at Scale. In Proceedings of the Symposium on Tests "
               "(SoT '19). ACM, 10–20.")
    assert (ref.title, ref.year, names(ref)) == ("Small Things at Scale", "2019", ["Jane Doe", "Rick Roe"])
    assert ref.venue.acronym == "SoT"


def test_chicago_first_author_inverted():
    # Chicago inverts only the first name: "Doe, Jane, and Rick Roe" is two people.
    ref = read('Doe, Jane, and Rick Roe. 2018. "Small Things at Scale." *Journal of Tests* 12 (3): 45–67.')
    assert (ref.title, ref.venue.name, ref.year) == ("Small Things at Scale", "Journal of Tests", "2018")
    assert names(ref) == ["Jane Doe", "Rick Roe"]


def test_mla():
    ref = read('Doe, Jane, and Rick Roe. "Small Things at Scale." *Journal of Tests*, vol. 12, no. 3, 2018, pp. 45-67.')
    assert (ref.title, ref.venue.name, ref.year, names(ref)) == (
        "Small Things at Scale", "Journal of Tests", "2018", ["Jane Doe", "Rick Roe"])


def test_vancouver_names_turned_round():
    # Vancouver "Family GI" is given as "GI Family"; the list's final period is not an initial's.
    ref = read("Doe J, Roe RA, Poe E. Small things at scale. J Tests. 2017;12(3):45-67.")
    assert names(ref) == ["J Doe", "RA Roe", "E Poe"]
    assert (ref.title, ref.venue.name, ref.year) == ("Small things at scale", "J Tests", "2017")


def test_nature():
    ref = read("Doe, J., Roe, R. & Poe, E. Small things at scale. *Nature* **512**, 45–67 (2014).")
    assert (ref.title, ref.venue.name, ref.year) == ("Small things at scale", "Nature", "2014")
    assert names(ref) == ["J. Doe", "R. Roe", "E. Poe"]


def test_paper_list_bold_title_italic_authors_and_link_labels():
    ref = read("1. **Small Things at Scale**. *Jane Doe, Rick Roe and Eve Poe*. ICML 2020. "
               "[[pdf](https://example.org/a.pdf)] [[code](https://example.org/code)]")
    assert (ref.title, ref.venue.name, ref.year) == ("Small Things at Scale", "ICML", "2020")
    assert names(ref) == ["Jane Doe", "Rick Roe", "Eve Poe"]


def test_paper_list_preprint_without_year():
    ref = read("**Small Things at Scale**. *Jane Doe and Rick Roe*. Preprint.")
    assert (ref.title, ref.year, ref.status, ref.venue) == ("Small Things at Scale", None, "preprint", None)


def test_venue_tag_before_the_title():
    ref = read("[ICML '21] Small Things at Scale", "Jane Doe, Rick Roe")
    assert (ref.title, ref.venue.acronym, ref.year, names(ref)) == (
        "Small Things at Scale", "ICML", "2021", ["Jane Doe", "Rick Roe"])


def test_venue_and_year_before_the_title_with_an_author_role():
    # "VENUE YEAR: Title", then the owner's role instead of an author list, then an abstract.
    ref = read("ACME SoT 2024: Small Things at Scale", "First author. Accepted at Symposium on Tests (SoT '24)",
               "We measure small things at a scale nobody tried before and find that they stay small, which "
               "surprised everybody involved in the study and many others who read it later on.")
    assert (ref.title, ref.venue.acronym, ref.venue.name, ref.year) == (
        "Small Things at Scale", "SoT", "Symposium on Tests", "2024")
    assert ref.authors == [] and ref.subject_ordinal == 1 and ref.status == "published"
    assert ref.abstract.startswith("We measure small things")


def test_rendercv_heading_with_year_line():
    ref = read("## Jane Doe, **Rick Roe** (2022). **Small Things at Scale**. Journal of Tests, 4", "2022")
    assert (ref.title, ref.venue.name, ref.year, names(ref)) == (
        "Small Things at Scale", "Journal of Tests", "2022", ["Jane Doe", "Rick Roe"])


def test_lines_in_any_order_title_first_or_authors_first():
    title_first = read("**Small Things at Scale**", "Jane Doe, Rick Roe", "*Journal of Tests*, 2019")
    # The author line first and an italic title second: the title is not taken for the author list.
    authors_first = read("Jane Doe, Rick Roe", "*Small Things at Scale*", "Journal of Tests, 2019")
    for ref in (title_first, authors_first):
        assert (ref.title, ref.venue.name, ref.year, names(ref)) == (
            "Small Things at Scale", "Journal of Tests", "2019", ["Jane Doe", "Rick Roe"])


def test_title_first_hard_wrapped_with_comma_separated_names():
    # Wrapped lines are joined; the names sit between the title and an abbreviated journal whose
    # "J. Test." must not be taken for a person.
    ref = read("4. Small things at scale: a study of", "tiny objects, J. Doe, R.A. Roe, and",
               "E. Poe, J. Test. Sci. 12, 45 (2016).")
    assert ref.title == "Small things at scale: a study of tiny objects"
    assert names(ref) == ["J. Doe", "R.A. Roe", "E. Poe"]
    assert (ref.venue.name, ref.year) == ("J. Test. Sci", "2016")


def test_humanities_role_with_coauthors_and_editor():
    ref = read('"Small Things at Scale," second author with Jane Doe. _Journal of Tests_ 12 (2013): 1-9.')
    assert (ref.title, ref.venue.name, ref.year) == ("Small Things at Scale", "Journal of Tests", "2013")
    assert names(ref) == ["Jane Doe"] and ref.subject_ordinal == 2
    entry = read('["Tiny Things."](https://example.org/tiny) _Encyclopedia of Tests_ (Spring 2011 Edition). '
                 'Ed. Rick Roe. Test U.')
    # "Ed. Rick Roe" names an editor, not an author.
    assert (entry.title, entry.venue.name, entry.year) == ("Tiny Things", "Encyclopedia of Tests", "2011")
    assert entry.authors == [] and entry.editors == ["Rick Roe"]


def test_chapter_with_editors_in_brackets():
    ref = read("Roe, R. (2015). Small things. In J. Doe (Ed.), *Handbook of Tests* (pp. 1-10). Test Press.")
    assert (ref.title, ref.venue.name, ref.kind, ref.editors, names(ref)) == (
        "Small things", "Handbook of Tests", "chapter", ["J. Doe"], ["R. Roe"])
    hrsg = read("Small things at scale, J. Doe, R. Roe, in: Handbook of Tests, A. Poe, B. Loe (Hrsg.), Test Press, "
                "2005, pp. 1-9.")
    assert names(hrsg) == ["J. Doe", "R. Roe"] and hrsg.editors == ["A. Poe", "B. Loe"] and hrsg.year == "2005"


def test_chapter_whose_editors_are_joined_by_an_ampersand():
    # APA joins the last two editors with "&" as it does the authors; none of them is part of the book's name
    ref = read("Roe, R. (2004). Small things. In A. Poe, B. Loe, & C. Sample (Eds.), The handbook of graphs. "
               "London: Graph Press.")
    # (a venue's name drops its leading article: "The handbook of graphs" is the venue "handbook of graphs")
    assert (ref.venue.name, ref.editors) == ("handbook of graphs", ["A. Poe", "B. Loe", "C. Sample"])


def test_an_abbreviated_transactions_is_a_journal_not_a_translator():
    # "Trans." names a translator before a name ("Trans. J. Doe"), but a journal before an abbreviated word
    journal = read("Roe, A., and Tester, R. Degree factorizations of graphs. Trans. Amer. Math. Soc. 347, (1995), "
                   "2235-2243.")
    assert (journal.venue.name, journal.editors) == ("Trans. Amer. Math. Soc", [])
    translated = read("Roe, J. Graph kernels. Trans. J. Doe. Leeds: Graph Press, 1974.")
    assert (translated.venue.name, translated.editors) == ("Leeds: Graph Press", ["J. Doe"])


@pytest.mark.parametrize(("entry", "status", "year"), [
    ("Doe, J. (Forthcoming). Small things. Accepted at *Journal of Tests*.", "published", None),
    ("Doe, J. (In preparation). Small things. Book manuscript.", "preprint", None),
    ("J. Doe, R. Roe, Small things at scale, J. Test. Sci. (submitted)", "under review", None),
    ("Doe, J. (2021). Small things. *arXiv:2101.01234*.", "preprint", "2021"),
    ('J. Doe, "Small things," under review at Journal of Tests, 2024.', "under review", "2024"),
])
def test_status_words(entry, status, year):
    ref = read(entry)
    assert (ref.status, ref.year) == (status, year)


def test_thesis():
    ref = read("Small things at scale. J. Doe, Dissertation, University of Testing (2003).")
    assert (ref.kind, ref.venue.name, ref.year, names(ref)) == ("thesis", "University of Testing", "2003", ["J. Doe"])


def test_an_entry_of_names_only_has_no_title():
    ref = parse_reference(["Jane Doe, Rick Roe, Eve Poe"])
    assert ref.problem and "no title" in ref.problem


def test_labelled_author_line_and_italic_title_in_a_card():
    # A page card: journal name, the item number in its own column, the title in italics, an
    # abbreviated citation line, then "**Authors**:" naming the field. The label says which line is
    # the author list, the italic line is the title, the lone "12" is the item number (dropped),
    # the first plain line the venue, "(2021)" the year.
    ref = read("Journal of Invented Results", "12", "*Small steps in tiny rooms*",
               "J. Invent. Res. **7**, 101–109 (2021)", "**Authors**: A. Doe, B. Roe & **C. Poe***")
    assert (ref.title, ref.venue.name, ref.year) == ("Small steps in tiny rooms", "Journal of Invented Results", "2021")
    assert names(ref) == ["A. Doe", "B. Roe", "C. Poe"]


def test_abbreviated_journal_line_is_not_prose():
    # "Phys. Rev. X" has two word ends followed by capitals, like two sentences; on a six-word
    # line it is a venue, not an abstract, so its year (2016) is read.
    ref = read("*A made-up title about waves*", "Phys. Rev. X **6**(4), 041061 (2016)",
               "Authors: A. Doe & B. Roe")
    assert (ref.title, ref.year) == ("A made-up title about waves", "2016")
    assert names(ref) == ["A. Doe", "B. Roe"]


def test_apa_owner_family_name_alone_in_bold():
    # Only the owner's family name is bold ("**Poe**, E. A."): the bold must not cut the author
    # list; the three "Family, I." pairs are the authors, the sentence after (2019) the title.
    ref = read("Doe, J. (*), **Poe**, E. A., and Roe, R. (2019). Invented waves in made-up rock. "
               "*Journal of Tests*, *5*, 1-9.")
    assert names(ref) == ["J. Doe", "E. A. Poe", "R. Roe"]
    assert (ref.title, ref.venue.name, ref.year) == ("Invented waves in made-up rock", "Journal of Tests", "2019")


def test_bold_full_name_followed_by_a_coauthor_stays_apart():
    # IEEE: "**J. Doe**, R. Roe" - the bold name is whole; "R." begins the next name, not Doe's initials.
    ref = read('**J. Doe**, R. Roe, and E. Poe, “An invented title,” *Journal of Tests*, 2020.')
    assert names(ref) == ["J. Doe", "R. Roe", "E. Poe"]


def test_italic_title_wrapped_at_its_own_hyphen():
    # PDF text: the italic title opens on one line and breaks at the hyphen of "AB-CD"; the open
    # italic joins the lines and the hyphen keeps the word whole ("AB-CD: ...").
    ref = parse_reference(["7. A. Doe, B. Roe & C. Poe, *AB-", "CD: an invented method for tests*, J. Tests **5**, 12 (2020).",
                           "- Selected for a made-up highlight (2021)."])
    assert ref.title == "AB-CD: an invented method for tests"
    assert names(ref) == ["A. Doe", "B. Roe", "C. Poe"] and ref.year == "2020"  # the note's 2021 is not the year


def test_italic_title_with_a_colon_is_not_a_label_note():
    # "*Cartography: Mapping ...*" starts like a "Label: value" note line, but it is wholly italic:
    # it is the title. A bullet note joined to the long author line would spoil the last name.
    ref = read("Journal of Invented Maps", "*Cartography: Mapping Invented Spaces with Made-up Tools*",
               "J. Inv. Maps **3**(1), 7–9 (2015)", "**Authors**: A. Doe, B. Roe & C. Poe",
               "- This paper was selected for a made-up highlight (2016).")
    assert ref.title == "Cartography: Mapping Invented Spaces with Made-up Tools"
    assert names(ref) == ["A. Doe", "B. Roe", "C. Poe"] and ref.year == "2015"


def test_apa_family_name_starting_with_an_accented_capital():
    # "Örs, R." is a "Family, I." pair like "Roe, R.": an accented capital is a capital, so the
    # list pairs up into three authors instead of six loose pieces.
    ref = read("Doe, J., Örs, R., and Łoe, P. (2021). An invented survey of tests. *Journal of Tests*, 2, 3-4.")
    assert names(ref) == ["J. Doe", "R. Örs", "P. Łoe"]
    assert ref.title == "An invented survey of tests"


def test_a_lowercase_particle_initial_inside_an_author_list():
    # "F. d. J. Roe" abbreviates "de" as "d.": it is part of the name, not the end of a sentence,
    # so the list runs on to "B. Poe" and the italic block is the title.
    ref = read("A. Doe, F. d. J. Roe Carrillo, B. Poe & C. Loe, *An invented interface for data*, J. Tests **3**, 1-9 (2024).")
    assert names(ref) == ["A. Doe", "F. d. J. Roe Carrillo", "B. Poe", "C. Loe"]
    assert (ref.title, ref.year) == ("An invented interface for data", "2024")


def test_translated_book_credited_to_its_translator():
    # "J. Doe (translator)" credits the owner as translator; ". By Rob Bruce" names the book's
    # original author, not part of the title; "Barcelona: Cabaret, 2010" is place and publisher
    # (with the year), not a "Label: value" note.
    ref = read("- **J. Doe (translator)**, *The odd memories of Tom Pen. By Rob Bruce*.", "  Barcelona: Cabaret, 1 ed., 2010.")
    assert (ref.title, names(ref), ref.year) == ("The odd memories of Tom Pen", ["J. Doe"], "2010")
    assert ref.venue is not None and "Cabaret" in ref.venue.name


def test_an_initial_with_an_accented_capital_does_not_end_the_list():
    # "Á. Fekete" is an initial and a family name like "A. Doe": the author list runs on to
    # "B. Roe", and the italic block after it is the title.
    ref = read("A. Doe†, Á. Fekete†, B. Roe & C. Poe, *An invented interface for data*, Sci. Tests **8**, 217 (2021).")
    assert names(ref) == ["A. Doe", "Á. Fekete", "B. Roe", "C. Poe"]
    assert (ref.title, ref.year) == ("An invented interface for data", "2021")


def test_a_bold_title_that_splits_into_two_names_is_still_the_title():
    # Regression (1,000 generated CVs): "X with Y" splits at "with" into two capitalised "names",
    # so the bold title line was taken for the authors and the real author line for the title.
    # The line below it holds three names, more than two: it is the author list.
    ref = parse_reference(["**Accelerating Graph Queries with Sparse Kernels**",
                           "Ana Ruiz, Ben Okafor, Chen Li",
                           "[\\[GC '21\\]](#) *GraphConf*"])
    assert ref.title == "Accelerating Graph Queries with Sparse Kernels"
    assert [a.name for a in ref.authors] == ["Ana Ruiz", "Ben Okafor", "Chen Li"]


ONE_AUTHOR_OR_THE_FIRST_INVERTED = [
    # one author, then the title, in plain text: the name has initials, or is inverted, or is a plain
    # name before a title that reads as a sentence (lower-case words); the trailing period of "W. Li."
    # ends the author, it is no initial
    ("J. Roe. Sparse kernels for graph streams. Technical Report TR-12, 2004.",
     ["J. Roe"], "Sparse kernels for graph streams", "2004"),
    ("A. Wu. Sparse kernels for graph streams. Technical Report TR-12, 2004.",
     ["A. Wu"], "Sparse kernels for graph streams", "2004"),
    ("Roe, Jane (1998). Knowledge of graphs. Graph Press, Leeds.", ["Jane Roe"], "Knowledge of graphs", "1998"),
    ("Ada Tester. A new technique for sparse kernels. In Proceedings of the Graph Workshop, 2001.",
     ["Ada Tester"], "A new technique for sparse kernels", "2001"),
    # Chicago: the first author inverted with initials, the others in natural order; the year after them
    ("Roe, J. R., A. B. Tester, and C. D. Sample. 1990. Tolerance of graph kernels to noise. Journal of "
     "Graphs 14: 87-90.", ["J. R. Roe", "A. B. Tester", "C. D. Sample"], "Tolerance of graph kernels to noise", "1990"),
    # the year between the author and the title, with its period: it is no part of the title
    ("Roe, Jane. 1999. Tone of graphs. Graph Press, Leeds.", ["Jane Roe"], "Tone of graphs", "1999"),
    # no author: a short title in Title Case is no name when a venue, a publisher's place or a
    # translator follows it
    ("Graph Kernels. Journal of Machine Learning Research, 2019.", [], "Graph Kernels", "2019"),
    ("Counter Point. Garden City, N.Y.: Graph House, 1928.", [], "Counter Point", "1928"),
    ("Passing Time. Translated by Jane Roe. London: Graph House, 1961.", [], "Passing Time", "1961"),
    # MLA's books: the name inverted with the given name in full, then a title of two words, or one
    # whose first word is a venue's ("Science"), then the publisher
    ("Tester, Ada. Sparse Graphs. Translated by Jane Roe. Leeds: Graph Press, 1974.",
     ["Ada Tester"], "Sparse Graphs", "1974"),
    ("Roe, Jane. Science & Its Kernels: Graphs in Perspective. Leeds: Graph Press, 2000.",
     ["Jane Roe"], "Science & Its Kernels: Graphs in Perspective", "2000"),
    # a title with a comma before its publisher: "Graphs, Revisited" is no inverted name, as its
    # publisher follows it at once
    ("Graphs, Revisited. Graph Press, 2019.", [], "Graphs, Revisited", "2019"),
]


NAMES_FAMILY_FIRST_BEGIN_THE_LINE = [
    # the names begin the one block of a plain line, family first ("Roe, J. R.": a piece at a time, "Roe"
    # and "J. R." are no names), then the title up to its comma
    ("Roe, J. R., Graph kernels for streams, in: A. Tester (ed.), Graph Workshop, Leeds, 1978.",
     ["J. R. Roe"], "Graph kernels for streams", "1978"),
    ("Roe, J., Tester, A., and Sample, C., Sparse graph kernels: a survey, Lecture Notes in Graphs, Vol. 3, 1988.",
     ["J. Roe", "A. Tester", "C. Sample"], "Sparse graph kernels: a survey", "1988"),
]


def test_a_title_in_title_case_before_its_venue_is_no_name():
    # "Graph Kernels" could be a name, but one name without initials, not inverted, begins no author list
    assert read("Graph Kernels, Journal of Graphs, 2019.").authors == []


YEAR_PRINTED_AFTER_THE_NAMES = [
    # ACL and AAAI print the year after the names, no parentheses, in the names' sentence
    ("Roe, J. 1995. Graphs: a lexical database of edges. Journal of Graphs 38 39-41",
     ["J. Roe"], "Graphs: a lexical database of edges", "1995"),
    ("Roe, J. and Tester, A. 1978. Static kernels of dynamic graphs. In Proceedings of the Graph Conference, 1978.",
     ["J. Roe", "A. Tester"], "Static kernels of dynamic graphs", "1978"),
    # a plain name is the author where the year follows it at once
    ("Ada Tester (1992). A purely logical kernel for graphs. Journal of Graphs, 185-192.",
     ["Ada Tester"], "A purely logical kernel for graphs", "1992"),
    # no names before the year: a title of two capitalised words and a year is a title
    ("Graph Census 2020. Journal of Graphs, 2021.", [], "Graph Census 2020", "2021"),
    # American archaeology's style: names, year and title in one sentence, with no period between them
    ("Roe, J. R. and A. B. Tester 1973 Freshwater Kernels of Graphs. Bulletin 184. Graph Board, Leeds.",
     ["J. R. Roe", "A. B. Tester"], "Freshwater Kernels of Graphs", "1973"),
    # commas between them
    ("Roe, Jane, Ada Tester, 1995, Using a kernel for reliable graph streams, International Graph Conference "
     "187-94.", ["Jane Roe", "Ada Tester"], "Using a kernel for reliable graph streams", "1995"),
]


def test_names_and_year_then_a_journal_without_a_title():
    # astronomy's "Names, year, journal, volume, page" has no title: the abbreviated journal after the
    # year is its venue, not a title ("GrJ, 650, 102" has no piece of two words before its comma)
    ref = parse_reference(["Roe J., Tester A., 2006, GrJ, 650, 102"])
    assert ref.venue is not None and ref.venue.name == "GrJ"


@pytest.mark.parametrize(("entry", "title", "venue", "year"), [
    # the title's block runs on into the venue: cut at the comma before a capitalised piece with numbers
    ("A. Tester (1990), A note on sparse kernels, Journal of Graphs, 84, 119-127.",
     "A note on sparse kernels", "Journal of Graphs", "1990"),
    # or at a sentence's end before a venue's word, where the sentence ends in capitals ("CDMA.")
    ("J. Roe and A. Tester. Sparse kernels for coherent CDMA. Journal of Graphs, 10(12) 1952-1962, December 1992.",
     "Sparse kernels for coherent CDMA", "Journal of Graphs", "1992"),
    # a title's own numbering stays in it
    ("A. Tester (1990), Sparse kernels, Part 2.", "Sparse kernels, Part 2", None, "1990"),
])
def test_a_title_that_runs_on_into_its_venue(entry, title, venue, year):
    ref = read(entry)
    assert (ref.title, ref.year) == (title, year)
    if venue:
        assert ref.venue.name == venue


NAMES_END_WHERE_THE_TITLE_BEGINS = [
    # the last initial's period ends the names and the title follows in the same sentence
    # (in Title Case, which the sentence's split alone takes for more initials and names)
    ("Tester, A. Issues of Fault Tolerance in Sparse Graphs. Ph.D. dissertation, Graph University, June 1984.",
     ["A. Tester"], "Issues of Fault Tolerance in Sparse Graphs"),
    ("Roe, K., Tester, S., and Sample, G. Algorithms for Graph Algebra. Graph Press, Leeds, 1992.",
     ["K. Roe", "S. Tester", "G. Sample"], "Algorithms for Graph Algebra"),
    # Chicago: the first name inverted with two given names
    ("Tester, Ada Jane. Kernels and the beautiful graph. Graph Letters 20, no. 3 (1948): 305-312.",
     ["Ada Jane Tester"], "Kernels and the beautiful graph"),
    ("Tester, Ada Jane, and Rick S. Roe. The Oxford companion to graphs. Graph Press, 2004.",
     ["Ada Jane Tester", "Rick S. Roe"], "The Oxford companion to graphs"),
]


def test_a_list_in_natural_order_is_not_cut_at_an_initial():
    # Regression: "..., C. Toher & S. Curtarolo. Title" was cut after "C." (an initial, then a capital),
    # the title read as "Toher & S. Curtarolo" (ten names and "C." still read as a list of names). Only a
    # list family first from its first name is cut so.
    ref = read("M. Roe, C. Tester, D. Sample, A. Wu, B. Li, E. Ng, F. Ode, G. Poe, H. Lee, C. Toher & S. Poe. "
               "Graph kernels: a web of tools. Journal of Graphs 3, 2020.")
    assert names(ref)[-2:] == ["C. Toher", "S. Poe"] and len(ref.authors) == 11
    assert ref.title == "Graph kernels: a web of tools"


@pytest.mark.parametrize(("entry", "title", "year"), [
    # APA's date of a news item or a talk in the parentheses: the year is read, the day is no title
    ("Roe, K. (2015, Aug 6). Researchers hacked a graph, but the patch is out. Retrieved from https://example.org/a",
     "Researchers hacked a graph, but the patch is out", "2015"),
    ("Roe, K. (2006, 25-26 March). Why are we using graphs? Paper presented at the Graph Symposium.",
     "Why are we using graphs? Paper presented at the Graph Symposium", "2006"),
    # the year after the title's words, a comma between: the year, not the title's end
    ("Roe, K. The graph system, documentation and user's guide, 1997.", "The graph system, documentation and user's guide",
     "1997"),
])
def test_a_date_with_the_year_is_no_part_of_the_title(entry, title, year):
    ref = read(entry)
    assert (ref.title, ref.year, names(ref)) == (title, year, ["K. Roe"])


TITLES_IN_SINGLE_QUOTATION_MARKS = [
    # Harvard and British styles quote the title in single marks; an apostrophe inside stays in it
    ("Roe, J. (2010) ‘A study of Poe’s graphs’, Journal of Graphs, 3(2), pp. 1-10.",
     ["J. Roe"], "A study of Poe’s graphs", "2010"),
    ("Tester, Ada Jane. ‘Kernels and the beautiful graph’. Graph Letters 20, no. 3 (1948): 305-312.",
     ["Ada Jane Tester"], "Kernels and the beautiful graph", "1948"),
    # a "‘" that no closing mark follows opens nothing: the title is read as before
    ("Roe, J. (2010). Graphs of the ‘90s. Journal of Graphs, 3.", ["J. Roe"], "Graphs of the ‘90s", "2010"),
]


def test_names_family_first_that_begin_a_line_win_over_a_venue_that_reads_as_a_name():
    # "J. Graph Theory" could be a name ("J." an initial), and "Roe, S. K. and Tester, D. S., Title" a
    # title before it; names family first at the line's start say which is which.
    ref = read("Roe, S. K. and Tester, D. S., Automatic kernels for sparse graphs, J. Graph Theory, 5 207-229 (1988).")
    assert (names(ref), ref.title, ref.year) == (["S. K. Roe", "D. S. Tester"], "Automatic kernels for sparse graphs",
                                                 "1988")


def test_vancouver_without_markup_names_then_title_then_journal():
    # Vancouver: family names, then the initials run together ("Roe ED"); the title's question mark
    # ends it before the journal's name
    ref = read("Roe ED, Tester M. Overall survival of sparse graphs: an outcome, or a measure? Journal of Graph "
               "Oncology 2012; 30:1750-4.")
    assert names(ref) == ["ED Roe", "M Tester"]
    assert (ref.title, ref.year, ref.venue.name) == (
        "Overall survival of sparse graphs: an outcome, or a measure?", "2012", "Journal of Graph Oncology")


def test_names_in_natural_order_with_middle_initials_are_not_vancouver():
    # Regression: "Ada A. Tester, ..., Amy M. McRoe, ..." begins like Vancouver's "Roe ED," ("Ada A."),
    # and the list was cut after "Amy M.", its title "McRoe, ...". Vancouver's initials are undotted
    # and a comma follows them.
    ref = read("Ada A. Tester, Carl Roe, Ebru Sample, Yin Wang, Felix Poe, Amy M. McRoe, Masaru Lee, Zihua Niu. "
               "Training the next generation of graph scientists. Journal of Graphs 3, 2024.")
    assert names(ref)[0] == "Ada A. Tester" and names(ref)[5] == "Amy M. McRoe" and len(ref.authors) == 8
    assert ref.title == "Training the next generation of graph scientists"


def test_names_in_natural_order_then_the_title_in_one_sentence():
    # the names and the title share the first sentence, with no comma after the title; the venue is the
    # next sentence ("Proc. ..."), a block of its own
    ref = read("R. Roe, S. Tester, B. Sample, Scheduling and page migration for sparse graph servers. Proc. 6th "
               "Intl. Conf. on Graphs (GRAPHS-VI), San Jose, CA, pp. 12-24, 1994.")
    assert names(ref) == ["R. Roe", "S. Tester", "B. Sample"]
    assert (ref.title, ref.year) == ("Scheduling and page migration for sparse graph servers", "1994")


ONE_INVERTED_AUTHOR_BEFORE_THE_YEAR = [
    # an inverted family name with its particle
    ("van Tester, Paul (1990). Nested kernels for sparse graph modelling. PhD thesis, Graph University.",
     ["Paul van Tester"], "Nested kernels for sparse graph modelling"),
    # the title's block goes on to the venue ("Masters Thesis") after a comma: the title is still one
    ("Roe, Dan, (1995). On discretization as a step for sparse graph models, Masters Thesis, Graph University.",
     ["Dan Roe"], "On discretization as a step for sparse graph models"),
]


def test_editors_named_before_the_word_editors_are_no_part_of_the_venue():
    # ACM's and LNCS's "In A and B, editors, Proceedings ...": the names are the book's editors
    ref = read("A. Roe and B. Tester. Complexity of sparse graph queries. In S. Sample and A. Poe, editors, "
               "Logical Foundations of Graphs, pages 1-10, 1997.")
    assert ref.editors == ["S. Sample", "A. Poe"]
    assert ref.venue.name == "Logical Foundations of Graphs"


@pytest.mark.parametrize(("entry", "venue", "acronym"), [
    # where and when a meeting was, after its name, are no part of the venue's name: the same meeting in
    # another town is the same venue
    ("A. Roe and B. Tester. Sparse kernels for graphs. In Proceedings of the 6th Graph Computing Conference, "
     "Portland, OR, April 1991.", "Graph Computing Conference", None),
    ("A. Roe. Sparse kernels for graphs. IEEE Graph Society General Meeting (GSGM), Boston, MA, 2020.",
     "IEEE Graph Society General Meeting", "GSGM"),
    # a hostile run of commas after the venue costs time in proportion to its length
    ("A. Roe. Sparse kernels for graphs. In Proceedings of the Graph Conference" + ", " * 2000 + " 2001.",
     "Graph Conference", None),
])
def test_a_venue_without_its_place_and_month(entry, venue, acronym):
    ref = read(entry)
    assert (ref.venue.name, ref.venue.acronym) == (venue, acronym)


@pytest.mark.parametrize(("entry", "authors", "title", "year"), ONE_AUTHOR_OR_THE_FIRST_INVERTED
                         + NAMES_FAMILY_FIRST_BEGIN_THE_LINE + YEAR_PRINTED_AFTER_THE_NAMES
                         + TITLES_IN_SINGLE_QUOTATION_MARKS)
def test_plain_bibliography_entries(entry, authors, title, year):
    ref = read(entry)
    assert (names(ref), ref.title, ref.year) == (authors, title, year)


@pytest.mark.parametrize(("entry", "authors", "title"), NAMES_END_WHERE_THE_TITLE_BEGINS
                         + ONE_INVERTED_AUTHOR_BEFORE_THE_YEAR)
def test_plain_bibliography_entries_without_a_year_checked(entry, authors, title):
    ref = read(entry)
    assert (names(ref), ref.title) == (authors, title)


@pytest.mark.parametrize(("entry", "editors", "title", "year"), [
    # an edited book: the names it begins with are marked as its editors ("(Eds.)", "(ed.)", ", editors."
    # or ", eds."), so they are no authors, and the title is the sentence after the mark
    ("Roe, J. and A. Tester (Eds.). Sparse Graph Kernels. Graph Press, 1986.",
     ["J. Roe", "A. Tester"], "Sparse Graph Kernels", "1986"),
    ("A. Sample, editor. Models for Graph Streams. Graph House, 1992.", ["A. Sample"], "Models for Graph Streams",
     "1992"),
    # APA's year in its parentheses after the mark
    ("Tester, A. B. (Ed.). (1999). Coping with graphs: a handbook. Leeds: Graph Press.",
     ["A. B. Tester"], "Coping with graphs: a handbook", "1999"),
    # Chicago: the first editor inverted, "eds." after a comma, the year after the mark
    ("Roe, Jane, and Ada Tester, eds. 1997. Knowing Your Graph. New York: Graph House.",
     ["Jane Roe", "Ada Tester"], "Knowing Your Graph", "1997"),
    # the year right after the mark, before the title, with a comma (Harvard)
    ("Sample, C (ed.) 2003, The graph atlas, Graph Press, Leeds.", ["C Sample"], "The graph atlas", "2003"),
])
def test_an_edited_book_names_its_editors_first(entry, editors, title, year):
    ref = read(entry)
    assert (names(ref), ref.editors, ref.title, ref.year) == ([], editors, title, year)


def test_an_edited_book_credits_no_author_to_the_owner(tmp_path):
    # In a CV an entry with no authors is the owner's work ("authors not listed"); an edited book's
    # names are its editors, so the owner is not made its author.
    (tmp_path / "cv.md").write_text("# Jane Roe\n\n## Publications\n\n"
                                  "- Roe, J. and A. Tester (Eds.). Sparse Graph Kernels. Graph Press, 1986.\n"
                                  "- Roe, J. and A. Tester. Dense graph kernels for streams. Graph Letters, 1988.\n")
    doc = read_document(tmp_path / "cv.md")
    edited, written = doc.of_type(Work)
    assert (edited.title, list(edited.editors), edited.authors, edited.authors_not_listed) == (
        "Sparse Graph Kernels", ["J. Roe", "A. Tester"], [], False)
    assert [a.name for a in written.authors] == ["J. Roe", "A. Tester"]


@pytest.mark.parametrize(("entry", "authors", "title", "venue", "year"), [
    # Chicago's notes: "Full Name, Title (Place: Publisher, Year)." The parenthesis says where and when
    # the book came out; it is no part of the title, and the name before the first comma is the author
    ("Ada Tester, Origins of Graph Kernels: Lord and Peasant in Streams (Leeds: Graph Press, 1967).",
     ["Ada Tester"], "Origins of Graph Kernels: Lord and Peasant in Streams", "Leeds: Graph Press", "1967"),
    ("Jane Roe, Outline of a Theory of Graphs (Graph Press, 1977).",
     ["Jane Roe"], "Outline of a Theory of Graphs", "Graph Press", "1977"),
    # an edited book's parenthesis too
    ("Roe, Jane (ed.), Encounters with Graphs (Ithaca, NY: Graph Press, 1984).",
     [], "Encounters with Graphs", "Ithaca, NY: Graph Press", "1984"),
])
def test_chicago_note_with_where_the_book_came_out(entry, authors, title, venue, year):
    ref = read(entry)
    assert (names(ref), ref.title, ref.venue.name, ref.year) == (authors, title, venue, year)


@pytest.mark.parametrize(("entry", "authors", "title"), [
    # German and some medical styles end the names with a colon, the title after it in the same sentence
    ("Roe, T.; Tester, K.: Graphen im Alltag. In: Zeitschrift für Graphen 12 (2019), S. 1-10.",
     ["T. Roe", "K. Tester"], "Graphen im Alltag"),
    ("Roe JE, Tester RV, Sample RC: Kernels of sparse graphs. J Graph Res 68(4): 930-934, 2010.",
     ["JE Roe", "RV Tester", "RC Sample"], "Kernels of sparse graphs"),
    ("Tester, Jutta: Grundlagen der Graphen. In: Graphen-Info 5, 1998, S. 10-19.", ["Jutta Tester"],
     "Grundlagen der Graphen"),
    # no names before the colon: a title with a subtitle
    ("Graph Kernels: A Survey. Journal of Graphs, 2019.", [], "Graph Kernels: A Survey"),
])
def test_names_end_with_a_colon(entry, authors, title):
    ref = read(entry)
    assert (names(ref), ref.title) == (authors, title)


def test_a_title_with_a_colon_after_an_inverted_name_is_no_name():
    # Chicago: one name inverted, then a title with a colon; "Sparse Opera" is no second name, as it has
    # no initial and the names are not all family first
    assert names(read("Roe, Jane, Sparse Opera: Staging Graphs (Graph Press, 2007).")) == ["Jane Roe"]


@pytest.mark.parametrize(("entry", "authors", "title", "venue"), [
    # French quotes a title in guillemets, set off by spaces or not; the opening one is no part of the names
    ("Roe, Jane, « Formes et reflets des graphes », Cahiers des graphes, 22, 2000, p. 47-61.",
     ["Jane Roe"], "Formes et reflets des graphes", "Cahiers des graphes"),
    ("Tester A., 1999, «Graphes et capital social», Revue des graphes, Vol. 20, n° 1, p. 59-81.",
     ["A Tester"], "Graphes et capital social", "Revue des graphes"),
])
def test_a_title_in_guillemets(entry, authors, title, venue):
    ref = read(entry)
    assert (names(ref), ref.title, ref.venue.name) == (authors, title, venue)


def test_an_opening_guillemet_is_no_part_of_the_names_before_it():
    # the names keep their raw markup (bold, marks) for the printed form; the guillemet that opens the
    # title, and the space that sets it off, belong to the title's block
    blocks = blocks_of("Roe, Jane, « Formes des graphes », Cahiers des graphes, 2000.", 0, sentences=True)
    assert [(b.raw, b.style) for b in blocks[:2]] == [("Roe, Jane,", "plain"), ("« Formes des graphes »", "quote")]

