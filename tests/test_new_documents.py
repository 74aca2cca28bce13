"""CVs written for the tests, about other people, in the seeds' styles: read without code changes."""

from conftest import TESTDATA

from kg.records import Award, Education, Interest, Position, ServiceRole, Talk, Work
from kg.sources import read_document


def test_markdown_cv_with_two_column_blocks_and_tab_rows():
    doc = read_document(TESTDATA / "cv-maria-garcia-lopez.md")
    assert doc.skipped == []
    p = doc.subject
    assert (p.name, p.emails, p.homepages) == ("Maria Garcia-Lopez", ["maria.garcia_lopez@example.org"],
                                               ["https://maria.example.org"])
    assert p.telephones == ["+33 6 12 34 56 78"] and p.street_addresses == ["12 Rue de la Paix, 75002 Paris"]
    assert [i.name for i in doc.of_type(Interest)] == ["Erasure Coding at Scale", "Storage for Machine Learning"]
    pos = {x.organization.name: (x.role, x.period.start, x.period.end, x.period.ongoing, x.kind)
           for x in doc.of_type(Position)}
    assert pos == {"Acme Storage Inc": ("Software Engineer (Intern)", "2019-06", "2019-08", False, "internship"),
                   "University of Lyon": ("Postdoctoral Researcher", "2023-09", None, True, "job")}
    lyon = next(x for x in doc.of_type(Position) if x.organization.name == "University of Lyon")
    assert lyon.homepage == "https://lyon.example.fr/"  # the link sits in the right-hand column
    edu = {e.level: (e.institution.name, e.degree, e.period.start, e.period.end, e.grade, e.thesis_title)
           for e in doc.of_type(Education)}
    assert edu == {
        "bachelor": ("Technical University of Munich", "Bachelor of Science", "2014-10", "2017-07", "Grade: 1.3",
                     "Fast Repair for Wide Stripes"),
        "doctorate": ("University of Lyon", "PhD", "2018-09", "2023-06", None, "Erasure Codes for Disaggregated Storage"),
    }
    assert [(a.title, a.year) for a in doc.of_type(Award)] == [("Best Paper Award at FAST", "2022")]
    works = {w.title: w for w in doc.of_type(Work)}
    wide = works["Wide Stripes Without Tears"]
    assert [a.name for a in wide.authors] == ["Maria Garcia-Lopez", "Jean Dupont", "Zheng Wang"]
    assert (wide.venue.acronym, wide.year) == ("FAST", "2022")
    repair = works["Repair Pipelining for Erasure-Coded Storage"]
    assert [a.name for a in repair.authors] == ["Jean Dupont", "Maria Garcia-Lopez", "Wei Chen"]
    assert (repair.venue.acronym, repair.venue.name, repair.year) == ("EuroSys", "European Conference on Computer Systems",
                                                                       "2021")


def test_plain_text_cv_with_numbered_publications_and_run_together_talks():
    doc = read_document(TESTDATA / "cv-tomas-novak.txt")
    assert doc.skipped == []
    assert doc.subject.name == "Tomas Novak" and doc.subject.homepages == ["https://novak.example.cz/"]
    edu = [(e.institution.name, e.degree, e.period.start, e.period.end) for e in doc.of_type(Education)]
    assert edu == [("The Czech Technical University in Prague", "Ph.D. in Computer Science", "2016", "2021-06"),
                   ("Brno University of Technology", "M.S. in Computer Engineering", "2014", "2016")]
    assert doc.of_type(Education)[0].thesis_title == "Polyhedral Scheduling for Tensor Accelerators"
    (job,) = doc.of_type(Position)
    assert (job.role, job.organization.name, job.organization.parent.name, job.location, job.period.ongoing) == \
        ("Compiler Engineer", "Compilers and Runtime (CR)", "Example Labs", "Zurich, Switzerland", True)
    works = doc.of_type(Work)
    assert [(w.title, w.status, w.venue.acronym if w.venue else None, w.year) for w in works] == [
        ("Tiling Tensor Programs with Polyhedra", "published", "CGO", "2022"),
        ("A Cost Model for Accelerator Schedules", "published", "PLDI", "2023"),
        ("Autotuning Without Search", "under review", None, None),
    ]
    assert [(a.name, a.equal_contribution, a.et_al_follows) for a in works[0].authors] == [
        ("Tomas Novak", True, False), ("Eva Svobodova", True, False), ("Zheng Wang", False, True)]
    assert works[1].recognitions == ["Distinguished Paper Award"]
    assert [(a.title, a.year) for a in doc.of_type(Award)] == [("Czech Science Foundation Junior Grant", "2022"),
                                                               ("Dean's Prize for Best Thesis", "2021")]
    assert [(s.venue.acronym, s.year, s.role) for s in doc.of_type(ServiceRole)] == \
        [("CGO", "2024", "Program Committee Member")]
    assert [(t.title, t.place, t.date) for t in doc.of_type(Talk)] == [
        ("Tiling Tensor Programs with Polyhedra", "Intel, Santa Clara United States", "2022-03"),
        ("Tiling Tensor Programs with Polyhedra", "CGO, Seoul Korea", "2022-04"),
        ("A Cost Model for Accelerator Schedules", "PLDI, Orlando United States", "2023-06"),
    ]
