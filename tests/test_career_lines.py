"""Career entries printed whole on one line, CVs in other languages than English, and the dates and
awards of both. Every document is invented for the test; the expected values are read off it by hand.
"""

from __future__ import annotations

import pytest

from kg.records import Award, Education, Position, Work
from kg.sources import read_document
from kg.sources.text import parse_period


def facts(tmp_path, text: str, name: str = "cv.md"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return read_document(path)


def positions(doc) -> list[tuple]:
    return [(p.role, p.organization.name if p.organization else None, p.period.start, p.period.end,
             p.period.ongoing) for p in doc.of_type(Position)]


def degrees(doc) -> list[tuple]:
    return [(e.degree, e.level, e.institution.name if e.institution else None, e.period.start)
            for e in doc.of_type(Education)]


HEADER = "# Ann Roe\n\nInstitute of Graphs, University of Leeds\n\n"
PUBLICATIONS = "\n## Publications\n\n1. Roe, A. (2019). Graph kernels. Journal of Graphs, 12, 1-10.\n"


def test_one_line_entries_in_a_bulleted_list(tmp_path):
    # "- DATE: Role, Organization": each bullet is an entry of its own, its date first; a PhD student's
    # position reads as the doctorate it leads to (as a two-line entry does)
    doc = facts(tmp_path, HEADER + "## Experience\n\n"
                "- 2019–present: Research Associate, University of Leeds\n"
                "- 2016–2019: Lecturer, College of Graphs\n\n"
                "## Education\n\n"
                "- 2015: MSc Computer Science, University of York\n"
                "- 2012: BSc Physics, University of Hull\n" + PUBLICATIONS)
    assert positions(doc) == [("Research Associate", "University of Leeds", "2019", None, True),
                              ("Lecturer", "College of Graphs", "2016", "2019", False)]
    assert degrees(doc) == [("MSc Computer Science", "master", "University of York", "2015"),
                            ("BSc Physics", "bachelor", "University of Hull", "2012")]
    assert doc.skipped == []


def test_one_line_entries_with_the_date_last_and_no_bullets(tmp_path):
    # "Role, Organization, DATE" on lines of their own, as plain-text and LaTeX CVs print them
    doc = facts(tmp_path, HEADER + "## Experience\n\n"
                "Assistant Professor, Department of Graphs, University of Leeds, 2021-2024\n\n"
                "Postdoctoral Fellow, Institute of Kernels, 2018-2021\n" + PUBLICATIONS)
    assert [(r, s, e) for r, _, s, e, _ in positions(doc)] == [("Assistant Professor", "2021", "2024"),
                                                               ("Postdoctoral Fellow", "2018", "2021")]
    # the organization keeps its department, as a two-line entry's does
    org = doc.of_type(Position)[0].organization
    assert (org.name, org.parent.name) == ("Department of Graphs", "University of Leeds")


def test_a_dated_bullet_that_describes_the_entry_above_stays_its_description(tmp_path):
    # "- 2020: Led the graph project" has no role, degree or organization: it describes the position
    doc = facts(tmp_path, HEADER + "## Experience\n\n"
                "**Research Associate**, University of Leeds, 2019-2022\n"
                "- 2020: Led the graph project\n" + PUBLICATIONS)
    [position] = doc.of_type(Position)
    assert (position.role, position.period.start) == ("Research Associate", "2019")
    assert position.description == ["2020: Led the graph project"]


def test_a_role_and_its_organization_without_a_comma(tmp_path):
    # a PDF's columns come out as "2018-2023 Assistant Professor University College Leeds": the
    # organization begins at its name ("Geary Institute"), and a role keeps its own "of School"
    doc = facts(tmp_path, HEADER + "## Experience\n\n"
                "2018-2023 Assistant Professor University College Leeds\n"
                "2018- Research Fellow Geary Institute for Graph Policy\n"
                "2024- Head of School School of Graphs\n" + PUBLICATIONS)
    assert [(r, o) for r, o, *_ in positions(doc)] == [
        ("Assistant Professor", "University College Leeds"), ("Research Fellow", "Geary Institute for Graph Policy"),
        ("Head of School", "School of Graphs")]


def test_a_date_inside_parentheses_is_no_one_line_entry(tmp_path):
    # "Econometrics (M.Sc, 2023)": a course taught, its year in its parentheses; the line is not cut at
    # the date, which would leave "Econometrics (M.Sc" as an organization
    doc = facts(tmp_path, HEADER + "## Teaching\n\nGraph Kernels (M.Sc, 2023)\n" + PUBLICATIONS)
    assert [o for _, o, *_ in positions(doc)] == ["Graph Kernels (M.Sc, 2023)"]  # read whole, as before


GERMAN_CV = """# Dr. Anna Beispiel

Institut für Graphenforschung, Universität Musterstadt

## Berufserfahrung

- 2019–heute: Wissenschaftliche Mitarbeiterin, Universität Musterstadt
- 2016–2019: Doktorandin, Technische Universität Beispielburg

## Ausbildung

- 2019: Promotion (Dr. rer. nat.) in Informatik, Technische Universität Beispielburg
- 2015: M.Sc. Informatik, Universität Musterstadt

## Veröffentlichungen

1. Beispiel, A.; Muster, T.: Graphen im Alltag. In: Zeitschrift für Graphen 12 (2019), S. 1-10.
2. A. Beispiel, K. Probe und T. Muster. Dünne Kerne für große Graphen. In: Proceedings of the Graph Conference, 2020.

## Auszeichnungen

- 2020: Preis für die beste Dissertation
"""


def test_a_german_cv(tmp_path):
    # German headings ("Berufserfahrung", "Ausbildung", "Veröffentlichungen", "Auszeichnungen"), "heute"
    # for a range not ended, a "Promotion" (a doctorate), German roles, "und" between authors
    doc = facts(tmp_path, GERMAN_CV, "lebenslauf.md")
    assert doc.subject.name == "Anna Beispiel"
    assert positions(doc) == [("Wissenschaftliche Mitarbeiterin", "Universität Musterstadt", "2019", None, True),
                              ("Doktorandin", "Technische Universität Beispielburg", "2016", "2019", False)]
    assert [(d, level, org) for d, level, org, _ in degrees(doc)] == [
        ("Promotion (Dr. rer. nat.) in Informatik", "doctorate", "Technische Universität Beispielburg"),
        ("M.Sc. Informatik", "master", "Universität Musterstadt")]
    works = doc.of_type(Work)
    assert [(w.title, [a.name for a in w.authors]) for w in works] == [
        ("Graphen im Alltag", ["A. Beispiel", "T. Muster"]),
        ("Dünne Kerne für große Graphen", ["A. Beispiel", "K. Probe", "T. Muster"])]
    assert [(a.title, a.year) for a in doc.of_type(Award)] == [("Preis für die beste Dissertation", "2020")]
    assert doc.skipped == []


@pytest.mark.parametrize(("heading", "kind"), [
    ("Publications scientifiques", Work), ("Publicaciones", Work), ("Pubblicazioni", Work), ("Publicações", Work),
    ("Publicaties", Work)])
def test_publication_headings_in_other_languages(tmp_path, heading, kind):
    doc = facts(tmp_path, f"# Ann Roe\n\n## Formation\n\n- 2015: MSc Physics, University of York\n\n## {heading}\n\n"
                          "1. Roe, A. (2019). Graph kernels. Journal of Graphs, 12, 1-10.\n")
    assert [w.title for w in doc.of_type(kind)] == ["Graph kernels"]


@pytest.mark.parametrize(("text", "start", "end", "ongoing"), [
    ("2019 – heute", "2019", None, True), ("2018 – aujourd'hui", "2018", None, True), ("2017 - presente", "2017", None, True),
    ("2019 bis heute", "2019", None, True),
    ("Summer 2013", "2013", None, False),  # a season says the year, no month
    ("Fall 2014 – Spring 2015", "2014", "2015", False),
    ("Aug 14, 2015", "2015-08-14", None, False),  # the day after the month
    ("2019 - Nowhere", None, None, None),  # "Now" only as a word of its own
    # month names of other languages, the day before them with its period, and months by number
    ("März 2019 – heute", "2019-03", None, True), ("1. Oktober 2018", "2018-10-01", None, False),
    ("enero de 2020 - actualidad", "2020-01", None, True), ("janvier 2017 – juin 2019", "2017-01", "2019-06", False),
    ("10/2016 – 09/2019", "2016-10", "2019-09", False), ("SEPT. 2019", "2019-09", None, False),
    # Europass and German CVs put the day first: "01/09/2019" is the 1st of September
    ("01/09/2015 – 31/08/2019", "2015-09-01", "2019-08-31", False), ("1.10.2018 - heute", "2018-10-01", None, True),
])
def test_dates_in_other_forms(text, start, end, ongoing):
    period = parse_period(text)
    if start is None:
        assert period is None
    else:
        assert (period.start, period.end, period.ongoing) == (start, end, ongoing)


def test_awards_in_a_bulleted_list_with_their_years_first(tmp_path):
    # the list marker is no part of the title; a leading year is the award's year; a bullet that names a
    # prize is an award of its own, not the prize of the one above; "2010 & 2011" keeps its words
    doc = facts(tmp_path, HEADER + "## Awards\n\n- 2020: Best Dissertation Award\n- Best Paper Award, 2019\n"
                "- 2018 Graph Prize\n" + PUBLICATIONS)
    assert [(a.title, a.year) for a in doc.of_type(Award)] == [
        ("Best Dissertation Award", "2020"), ("Best Paper Award", "2019"), ("Graph Prize", "2018")]


def test_status_words_and_sub_headings_in_german(tmp_path):
    # "Zeitschriftenartikel" and "Konferenzbeiträge" group a publication list's entries; "Eingereicht" (submitted)
    # says the works below it are under review, as "Eingereicht bei:" does in an entry
    doc = facts(tmp_path, "# Anna Beispiel\n\n## Ausbildung\n\n- 2015: M.Sc. Informatik, Universität Musterstadt\n\n"
                          "## Publikationen\n\n### Zeitschriftenartikel\n\n"
                          "1. Beispiel, A.; Muster, T.: Graphen im Alltag. In: Zeitschrift für Graphen 12 (2019), S. 1-10.\n\n"
                          "### Eingereicht\n\n2. Beispiel, A.: Kanten zählen. Zeitschrift für Graphen.\n\n"
                          "### Konferenzbeiträge\n\n3. A. Beispiel. Dünne Kerne. Eingereicht bei: Graph Conference, 2024.\n")
    assert [(w.title, w.status) for w in doc.of_type(Work)] == [
        ("Graphen im Alltag", "published"), ("Kanten zählen", "under review"), ("Dünne Kerne", "under review")]


def test_a_europass_cv_from_word(tmp_path):
    # Europass: day-first dates ("01/09/2019 – CURRENT") with the town and country on the date's line, then
    # the role and organization in capitals without a comma; the heading "Education and training"
    import docx

    d = docx.Document()
    d.add_paragraph("Jan Voorbeeld")
    d.add_paragraph("jan@example.org")
    d.add_heading("WORK EXPERIENCE", 1)
    d.add_paragraph("01/09/2019 – CURRENT Leiden, Netherlands")
    d.add_paragraph("POSTDOCTORAL RESEARCHER UNIVERSITY OF GRAPHS")
    d.add_heading("EDUCATION AND TRAINING", 1)
    d.add_paragraph("01/09/2015 – 31/08/2019 Delft, Netherlands")
    d.add_paragraph("PHD CANDIDATE DELFT UNIVERSITY OF KERNELS")
    d.add_heading("PUBLICATIONS", 1)
    d.add_paragraph("Voorbeeld, J., & Jansen, P. (2020). Graph kernels for streams. Journal of Graphs, 5(2), 1-20.")
    d.save(tmp_path / "europass.docx")
    doc = read_document(tmp_path / "europass.docx")
    assert positions(doc) == [("POSTDOCTORAL RESEARCHER", "UNIVERSITY OF GRAPHS", "2019-09-01", None, True)]
    assert doc.of_type(Position)[0].location == "Leiden, Netherlands"
    assert degrees(doc) == [("PHD CANDIDATE", "doctorate", "DELFT UNIVERSITY OF KERNELS", "2015-09-01")]
    assert doc.of_type(Education)[0].period.end == "2019-08-31"


def test_a_pdf_line_with_the_date_between_role_and_organization(tmp_path):
    # a PDF's columns run together: role, date, organization; a date inside a sentence stays in it
    doc = facts(tmp_path, HEADER + "## Experience\n\n"
                "Assistant Professor 2022–present Johns Hopkins Graph University\n"
                "Postdoctoral Fellow 2018–2022 Duke Graph University\n" + PUBLICATIONS)
    assert positions(doc) == [("Assistant Professor", "Johns Hopkins Graph University", "2022", None, True),
                              ("Postdoctoral Fellow", "Duke Graph University", "2018", "2022", False)]

