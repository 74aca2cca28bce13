"""Whole documents that are publication lists, written for the tests: pages without CV sections,
README paper lists, plain numbered lists, front matter, year and status sub-headings, and an entry
that cannot be read. Expected values are read off each document by hand."""

from __future__ import annotations

import pytest

from kg.records import Work
from kg.sources import read_document
from kg.sources.headings import publication_group, section_title_kind


def read(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return read_document(path, name)


def titles(doc):
    return [w.title for w in doc.of_type(Work)]


def test_a_page_that_is_only_a_publication_list_with_front_matter_and_year_headings(tmp_path):
    doc = read(tmp_path, "pubs.md", """---
title: "Publications"
permalink: /publications/
---

## 2021 ##
**Doe, J.**, Roe, R. & Poe, E. (2021). Small things at scale. *Journal of Tests*, 4, 1-9.

## 2019 ##
Roe, R., & **Doe, J.** (2019). Tiny things in large rooms. *Review of Tests*, 2(1), 10-20.

**Doe, J.** (2019). A third small study. *Letters on Tests*, 7, e101.
""")
    assert titles(doc) == ["Small things at scale", "Tiny things in large rooms", "A third small study"]
    assert [w.year for w in doc.of_type(Work)] == ["2021", "2019", "2019"]
    # The front matter is not content (no skip for "permalink"); the owner is the author printed in bold.
    assert doc.skipped == [] and doc.subject.name == "J. Doe"
    assert doc.of_type(Work)[1].span.first_line == 10  # line numbers count the front matter


def test_a_readme_paper_list_reads_reference_sections_under_any_heading(tmp_path):
    doc = read(tmp_path, "README.md", """# Reading list on small things

## Introduction

We collect papers on small things. Suggestions are welcome.

## Released tools

1. **TinyKit**. A toolkit for small things, 2021. [[code](https://example.org/tinykit)]
2. **MiniLab**. A laboratory in a box, 2020. [[code](https://example.org/minilab)]

## Survey

**Small Things: A Survey**. *Jane Doe, Rick Roe and Eve Poe*. arXiv:2101.00001 2021. [[pdf](https://example.org/s)]

## Papers on Measuring Things

1. **Measuring Small Things**. *Ann Lee, Bo Chen*. ICML 2020. [[pdf](https://example.org/a)]
2. **Counting Tiny Things**. *Cy Twombly, Di Moss,
Ed Park and Flo Rida*. Preprint. [[pdf](https://example.org/b)]
""")
    works = {w.title: w for w in doc.of_type(Work)}
    # "Released tools" lists no authors: not a publication list, reported rather than read.
    assert list(works) == ["Small Things: A Survey", "Measuring Small Things", "Counting Tiny Things"]
    assert doc.subject is None  # a reading list has no owner
    survey = works["Small Things: A Survey"]
    assert (survey.venue.name, survey.year, survey.status) == ("arXiv", "2021", "preprint")
    # The wrapped italic author list is one list.
    assert [a.name for a in works["Counting Tiny Things"].authors] == ["Cy Twombly", "Di Moss", "Ed Park", "Flo Rida"]
    assert (works["Counting Tiny Things"].status, works["Counting Tiny Things"].year) == ("preprint", None)
    assert any("Released tools" in s.reason for s in doc.skipped)


def test_a_plain_numbered_text_list_without_headings(tmp_path):
    doc = read(tmp_path, "list.txt", """1. Small things at scale, J. Doe, R. Roe, and E. Poe,
J. Test. Sci. 12, 45 (2016).

2. Tiny things in large rooms, R. Roe and J. Doe, Rev. Test. 3,
101-110 (2014).

3. Very small things, J. Doe, Dissertation, University of Testing (2010).
""")
    works = doc.of_type(Work)
    assert [w.title for w in works] == ["Small things at scale", "Tiny things in large rooms", "Very small things"]
    assert [[a.name for a in w.authors] for w in works] == [["J. Doe", "R. Roe", "E. Poe"], ["R. Roe", "J. Doe"],
                                                           ["J. Doe"]]
    assert [w.year for w in works] == ["2016", "2014", "2010"]
    assert works[2].kind == "thesis"
    assert doc.subject.name == "J. Doe"  # the one author of every work


def test_status_groups_and_kind_headings(tmp_path):
    doc = read(tmp_path, "cv.md", """# Jane Doe

## Education

PhD in Testing, University of Testing, 2010 - 2014

## Selected Publications

### Refereed Conference Papers

- Jane Doe, Rick Roe, "Small things at scale," in Proc. Symposium on Tests, 2021.

### Under Review

- Jane Doe, "Tiny things in large rooms," submitted to Journal of Tests.

### Working Papers

- Jane Doe, Eve Poe, "Very small things," 2023.

### Book Chapters

- Jane Doe, "Small things, a history," in Handbook of Tests, Test Press, 2019.

## AWARDS / HONORS

Best Test Award, 2020
""")
    works = {w.title: w for w in doc.of_type(Work)}
    assert [(w.status, w.kind) for w in works.values()] == [
        ("published", "article"), ("under review", "article"), ("preprint", "article"), ("published", "chapter")]
    assert works["Tiny things in large rooms"].venue.name == "Journal of Tests"


def test_an_entry_that_cannot_be_read_is_reported_with_its_place_and_text(tmp_path):
    doc = read(tmp_path, "cv.md", """# Jane Doe

## Publications

1. **Small Things at Scale**
Jane Doe, Rick Roe
*Journal of Tests*, 2020
2. Jane Doe, Rick Roe, Eve Poe
3. **Tiny Things**
Jane Doe
*Review of Tests*, 2019
""")
    # The middle entry is names only: no work is made whose title is an author list.
    assert titles(doc) == ["Small Things at Scale", "Tiny Things"]
    (skip,) = doc.skipped
    assert (skip.span.first_line, skip.span.last_line) == (8, 8)
    assert "no title" in skip.reason and "'2. Jane Doe, Rick Roe, Eve Poe'" in skip.reason
    assert "curation" not in skip.reason


def test_setext_headings_and_headings_without_a_space(tmp_path):
    doc = read(tmp_path, "pubs.md", """Preprints
=========

- **J. Doe**, R. Roe, "Small things at scale", arXiv:2101.00001, 2021.

Journal Papers
==============

###Peer-Reviewed

[2] **J. Doe** and R. Roe, "Tiny things," Journal of Tests, vol. 3, pp. 1-9, 2020.

[1] **J. Doe**, "Very small things," Review of Tests, vol. 1, pp. 5-6, 2018.
""")
    assert [(w.title, w.status, w.year) for w in doc.of_type(Work)] == [
        ("Small things at scale", "preprint", "2021"), ("Tiny things", "published", "2020"),
        ("Very small things", "published", "2018")]


@pytest.mark.parametrize(("heading", "kind"), [
    ("AWARDS / HONORS", "awards"), ("RESEACH INTERESTS", "interests"), ("Selected Publications", "publications"),
    ("Peer-reviewed articles", "publications"), ("Refereed Presentations", "talks"),
    ("Chapter in Book", "publications"), ("Publications Legend", None), ("Phd Advisees", None),
])
def test_section_headings_in_many_forms(heading, kind):
    assert section_title_kind(heading) == kind


@pytest.mark.parametrize(("heading", "status"), [
    ("Under review", "under review"), ("Submitted", "under review"), ("R&R", "under review"),
    ("Preprints", "preprint"), ("Working papers", "preprint"), ("In preparation", "preprint"),
    ("Forthcoming", "published"), ("In press", "published"), ("Journal Articles", "published"), ("### 2023", "published"),
    ("Distinguished Paper Award", None),
])
def test_publication_group_headings(heading, status):
    assert publication_group(heading) == status


def test_a_huge_entry_is_reported_not_parsed(tmp_path):
    # One "entry" of 198,007 characters ("Doe, J. " and 22,000 times "word and ", less the final space
    # the layout strips): a list that lost its line breaks. One skip, quickly.
    doc = read(tmp_path, "pubs.md", "# Publications\n\nDoe, J. " + "word and " * 22000 + "\n")
    assert titles(doc) == []
    (skip,) = doc.skipped
    assert skip.span.first_line == 3 and "longer (198007 characters) than one publication entry" in skip.reason


def test_the_owner_of_a_list_is_the_author_of_every_work_under_any_initials(tmp_path):
    # "A.B. Doe" and "A. Doe" are the same author of all three works; R. Roe is in only two of them.
    doc = read(tmp_path, "list.txt", """1. Small things at scale, A.B. Doe and R. Roe, J. Test. Sci. 12, 45 (2016).

2. Tiny things in large rooms, A. Doe and R. Roe, Rev. Test. 3, 101 (2014).

3. Very small things, A.B. Doe, Dissertation, University of Testing (2010).
""")
    assert doc.subject.name == "A.B. Doe"  # the variant printed most often


def test_a_bullet_note_inside_blank_line_separated_entries_does_not_cut_them(tmp_path):
    # Three entries separated by blank lines; the second carries a "- Featured..." bullet note.
    # One bullet among three blocks is a note inside an entry, not the list's entry marker: still
    # three works, the note's year (2024) not taken for the entry's (2022).
    doc = read(tmp_path, "pubs.md", """# Publications

A. Doe & B. Roe. Invented findings on sand. *Journal of Tests* 1, 1-2 (2023).

A. Doe & C. Poe. Made-up results on glass. *Review of Tests* 2, 3-4 (2022).
- Featured on the cover of Review of Tests (2024).

B. Roe & A. Doe. Fictional notes on stone. *Letters on Tests* 3, 5-6 (2021).
""")
    assert titles(doc) == ["Invented findings on sand", "Made-up results on glass", "Fictional notes on stone"]
    assert [w.year for w in doc.of_type(Work)] == ["2023", "2022", "2021"]


def test_press_section_is_not_read_as_publications(tmp_path):
    # "Press and News Releases" lists outlets and dates, not works: no work, one skip for the section.
    doc = read(tmp_path, "cv.md", """# Jane Doe

## Publications

J. Doe & R. Roe. An invented study. *Journal of Tests* 1, 1-2 (2020).

## Press and News Releases

Invented University News, Jun 2024: Doe wins a made-up award.
""")
    assert titles(doc) == ["An invented study"]
    assert any("Press and News Releases" in s.reason for s in doc.skipped)


def test_a_heading_with_a_counting_parenthesis_names_its_section():
    # "(12 seminars, 9 countries)" only counts the items: the heading is "Invited Seminars" -> talks,
    # so its year lines and institution lists are not read as publications.
    assert section_title_kind("Invited Seminars (12 seminars, 9 countries)") == "talks"
    assert section_title_kind("Publications (selected)") == "publications"


def test_bullet_notes_under_a_numbered_list_are_not_entries(tmp_path):
    # Numbered entries (3) with one "- Selected ..." bullet under the second: in a numbered list a
    # few bullets are notes of the entry above, so three works, none titled "Selected for ...".
    doc = read(tmp_path, "pubs.md", """# Publications

3. A. Doe & B. Roe, *Invented findings on sand*, J. Tests **1**, 1-2 (2023).

2. A. Doe & C. Poe, *Made-up results on glass*, Rev. Tests **2**, 3-4 (2022).

- Selected for the cover of Review of Tests (2024).

1. B. Roe & A. Doe, *Fictional notes on stone*, Lett. Tests **3**, 5-6 (2021).
""")
    assert titles(doc) == ["Invented findings on sand", "Made-up results on glass", "Fictional notes on stone"]
    assert [w.year for w in doc.of_type(Work)] == ["2023", "2022", "2021"]


def test_a_year_heading_gives_its_year_to_entries_that_print_none(tmp_path):
    # Chapters under "## 2019" print no year: they take 2019 from the heading, also below a
    # "Book Chapters" kind line; the article under "## 2018" prints (2018) itself.
    doc = read(tmp_path, "pubs.md", """# Publications

## 2019

Book Chapters

A. Doe & B. Roe, *An invented chapter on tests*, in Handbook of Made-up Things, Springer.

## 2018

A. Doe & C. Poe, *A made-up article on glass*, J. Tests **2**, 3-4 (2018).
""")
    assert titles(doc) == ["An invented chapter on tests", "A made-up article on glass"]
    assert [w.year for w in doc.of_type(Work)] == ["2019", "2018"]


def test_an_unknown_sub_heading_stays_in_its_known_section(tmp_path):
    # "### Invented Institute (II)" under "## Service" is a place where the owner served, not a new
    # section of unknown kind; its italic-worded role line must not be guessed into a work.
    doc = read(tmp_path, "cv.md", """# Jane Doe

## Publications

J. Doe & R. Roe. An invented study. *Journal of Tests* 1, 1-2 (2020).

## Service

### Invented Institute (II)

Deputy Director of the Area *Sand and Glass* (2015-2021)
Manager of the made-up seminar series (2013-2017)
""")
    assert titles(doc) == ["An invented study"]
