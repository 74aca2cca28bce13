"""The bibliographic readers (BibTeX, RIS, CSL-JSON, ORCID, dblp, OpenAlex/Crossref) on small
invented documents in tests/data/readers/. Expected values are read off those files by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kg.records import Work
from kg.sources import read_document
from kg.sources.fields import frequent_author, person_key
from kg.sources.registry import readers_for
from tests.conftest import run_kg

DATA = Path(__file__).parent / "data" / "readers"


def works(name: str) -> list[Work]:
    return read_document(DATA / name).of_type(Work)


def skips(name: str) -> list[str]:
    return [str(s) for s in read_document(DATA / name).skipped]


# --- BibTeX -----------------------------------------------------------------------------------

def test_bibtex_latex_decoded_and_family_given_turned():
    first = works("cv-marvik.bib")[0]
    # title={{Ice} Cover on {{Nordic}} Lakes: A M{\"u}ller--Garc{\'\i}a Model}: braces go, accents
    # decode, "--" is an en dash.
    assert first.title == "Ice Cover on Nordic Lakes: A Müller–García Model"
    # "Marvik, Ilse" turned; "{Van der Berg}, Anna" keeps its braced family name whole;
    # "Ol{\'\i}via Santos" is already Given Family.
    assert [a.name for a in first.authors] == ["Ilse Marvik", "Jonas Müller", "Anna Van der Berg", "Olívia Santos"]
    # "and others" ends the list: et al. after the last printed author.
    assert first.authors[-1].et_al_follows and first.et_al
    # journal=jfl is an @string macro.
    assert first.venue.name == "Journal of Fictional Limnology"
    assert first.doi == "10.5555/jfl.2021.7"  # the resolver prefix is dropped
    # The entry runs from its @article line (4) to its closing brace (10).
    assert (first.span.first_line, first.span.last_line, first.span.place) == (4, 10, "@article{marvik2021lakes}")


def test_bibtex_marks_removed_and_recorded():
    second = works("cv-marvik.bib")[1]
    # author={Karl Tamm* and I. Marvik* and Rosa Lind$^\dagger$}: marks off the names, initials kept.
    assert [a.name for a in second.authors] == ["Karl Tamm", "I. Marvik", "Rosa Lind"]
    assert [a.equal_contribution for a in second.authors] == [True, True, True]
    assert second.title == "Sediment Transport under Thin Ice"  # the final period is dropped


def test_bibtex_duplicate_field_keeps_first_and_says_so():
    # tamm2022sediment gives year twice (2022 then 2023): the first is read, and a note names the entry.
    assert works("cv-marvik.bib")[1].year == "2022"
    assert any("tamm2022sediment" in s and "given twice (year)" in s for s in skips("cv-marvik.bib"))


def test_bibtex_status_and_kind():
    by_title = {w.title: w for w in works("cv-marvik.bib")}
    # @misc with archivePrefix=arXiv and no venue: a preprint.
    assert by_title["Winter Mixing in Shallow Basins"].status == "preprint"
    # @misc with an arXiv url but a conference _venue: published at that venue (al-folio field).
    accepted = by_title["Melt Ponds as Heat Traps"]
    assert (accepted.status, accepted.venue.name) == ("published", "ICML")
    thesis = by_title["Lakes in Winter"]
    assert (thesis.kind, thesis.venue.name) == ("thesis", "University of Nowhere")
    report = by_title["A Field Guide to Lake Ice"]
    assert (report.kind, report.venue.name) == ("report", "Nowhere Lake Institute")


def test_bibtex_owner_is_the_author_of_most_entries():
    # Ilse Marvik (as "Marvik, Ilse", "I. Marvik", "Ilse Marvik") is in 5 of the 6 entries; the
    # fullest form (full given name) is printed.
    doc = read_document(DATA / "cv-marvik.bib")
    assert doc.subject is not None and doc.subject.name == "Ilse Marvik"


def test_bibtex_truncated_entry_is_skipped_and_the_rest_read():
    # broken2021 (lines 7-9) never closes its title brace; first2020 and last2022 are read.
    assert [w.title for w in works("truncated.bib")] == ["The First Entry", "The Last Entry"]
    (skip,) = skips("truncated.bib")
    assert skip.startswith("truncated.bib:7-9 (@article{broken2021}): entry not read")


def test_bibtex_stray_byte_costs_one_character(tmp_path):
    # A UTF-8 file (accented names, an abstract of 30 "é") with one stray byte 0xff in the title
    # on line 2: that byte becomes U+FFFD with a warning naming line 2; the rest reads as UTF-8.
    path = tmp_path / "stray.bib"
    path.write_bytes(b"@article{a,\n title={Gr\xffn},\n" + " author={Åsa Öberg and Élodie Çelik},\n".encode()
                     + (" abstract={" + "é" * 30 + "},\n year={2020}}\n").encode())
    doc = read_document(path)
    (work,) = doc.of_type(Work)
    assert work.title == "Gr\ufffdn" and [a.name for a in work.authors] == ["Åsa Öberg", "Élodie Çelik"]
    assert [s.span.first_line for s in doc.skipped] == [2]


def test_bibtex_without_entries_says_so(tmp_path):
    path = tmp_path / "notes.bib"
    path.write_text("just some notes, no entries here\n")
    doc = read_document(path)
    assert doc.of_type(Work) == [] and "no BibTeX entry" in str(doc.skipped[0])


# --- RIS --------------------------------------------------------------------------------------

def test_ris_records_in_order_with_repeats_kept():
    found = works("export-sandoval.ris")
    # Six records; the GEN one titled "---" is skipped; the CHAP printed twice stays two works.
    assert [w.title for w in found] == ["Soil Crusts of Invented Deserts", "Dunes That Never Were",
                                        "Dunes That Never Were", "Wind Ripples in Sand Tables", "Crusts and Dunes"]
    first = found[0]
    assert [a.name for a in first.authors] == ["Pilar Sandoval", "C. N. Okafor"]  # AU "Family, Given" turned
    assert (first.year, first.venue.name, first.venue.acronym) == ("2019", "Journal of Made-up Ecology", "J. Made-up Ecol.")
    assert found[1].year == "2020" and found[1].venue.name == "A Handbook of Imaginary Landscapes"  # DA, T2
    # UNPB with A1/T1/Y1: a preprint; "SANDOVAL, PILAR" is turned but kept in capitals as printed.
    assert [a.name for a in found[3].authors] == ["PILAR SANDOVAL", "Lan Wu"]
    assert (found[3].status, found[3].year) == ("preprint", "2022")
    assert found[4].kind == "thesis"
    assert (found[0].span.first_line, found[0].span.last_line) == (1, 9)


def test_ris_garbage_title_skipped_and_owner_found():
    assert any("export-sandoval.ris:32-36" in s and "no letters" in s for s in skips("export-sandoval.ris"))
    # Sandoval is in all 5 works (as "Sandoval, Pilar", "Pilar Sandoval", "SANDOVAL, PILAR"):
    # the mixed-case full form wins over the capitals.
    assert read_document(DATA / "export-sandoval.ris").subject.name == "Pilar Sandoval"


def test_ris_last_record_cut_short(tmp_path):
    path = tmp_path / "cut.ris"
    path.write_text("TY  - JOUR\nTI  - Whole\nER  - \n\nTY  - JOUR\nTI  - Cut\n")
    doc = read_document(path)
    assert [w.title for w in doc.of_type(Work)] == ["Whole", "Cut"]
    assert "cut.ris:5-6" in str(doc.skipped[0]) and "no 'ER  - ' line" in str(doc.skipped[0])


def test_ris_suffix_with_other_content_is_refused():
    (skip,) = skips("prose.ris")
    assert "no reader recognises this '.ris' file's content" in skip


# --- CSL-JSON ---------------------------------------------------------------------------------

def test_csl_json_items():
    found = works("items.csl.json")
    first = found[0]
    # given + non-dropping particle + family; container-title and its short form.
    assert [a.name for a in first.authors] == ["Signe Hallberg", "Luc de Beaumont"]
    assert (first.year, first.venue.name, first.venue.acronym) == ("2018", "Annals of Pretend Botany", "Ann. Pretend Bot.")
    # the item's object: "{" on line 2 to "}" on line 11
    assert (first.span.first_line, first.span.last_line, first.span.place) == (2, 11, "[0]")
    # type "article" published by bioRxiv: a preprint; a literal name is kept whole; issued.raw gives the year.
    assert (found[1].status, found[1].year) == ("preprint", "2023")
    assert [a.name for a in found[1].authors] == ["S. Hallberg", "The Lichen Consortium"]
    assert found[2].kind == "thesis" and found[2].venue.name == "University of Somewhere"
    # The fourth item has no title: skipped at its place.
    assert any("([3])" in s and "no title" in s for s in skips("items.csl.json"))


def test_invalid_json_names_line_and_column():
    (skip,) = skips("invalid.csl.json")
    # The file ends inside the fourth line's object: json reports line 4, column 1.
    assert skip.startswith("invalid.csl.json:4: not valid JSON") and "line 4, column 1" in skip


def test_json_of_another_kind_is_refused():
    (skip,) = skips("settings.json")
    assert "no reader recognises this '.json' file's content" in skip


# --- ORCID ------------------------------------------------------------------------------------

def test_orcid_json_one_work_per_group_and_owner():
    doc = read_document(DATA / "record.orcid.json")
    assert (doc.subject.name, doc.subject.orcid) == ("Tavi K. Rannaste", "https://orcid.org/0000-0002-1825-0097")
    found = doc.of_type(Work)
    # Four groups, four works: the second summary of group 0 is a copy; two groups share a title
    # (ORCID did not merge them) and stay two works.
    assert [w.title for w in found] == ["Plasma Edges in Toy Tokamaks", "Gas Puffs Revisited",
                                        "Gas Puffs Revisited", "On Edge Localised Modes"]
    assert all(w.authors == [] and w.authors_not_listed for w in found)
    assert [w.year for w in found] == ["2017", "2020", "2021", None]
    assert [w.status for w in found[:3]] == ["published", "preprint", "published"]
    assert found[3].kind == "thesis" and found[0].doi == "10.5555/ptt.2017"
    assert [w.span.first_line for w in found] == [6, 13, 17, 21]  # each title's line


def test_orcid_xml():
    doc = read_document(DATA / "record.orcid.xml")
    assert doc.subject.name == "Tavi Rannaste"  # no credit name: given + family
    found = doc.of_type(Work)
    assert [(w.title, w.year, w.status) for w in found] == [("Plasma Edges in Toy Tokamaks", "2017", "published"),
                                                            ("Working Notes on Gas Puffs", "2019", "preprint")]
    assert found[0].venue.name == "Fusion Fancies"


def test_xml_entities_are_refused():
    # &lol4; would expand to 10,000 "lol"s: the file is refused at its first <!ENTITY (line 3), never expanded.
    assert works("entity-bomb.orcid.xml") == []
    assert skips("entity-bomb.orcid.xml") == [
        "entity-bomb.orcid.xml:3: the file declares XML entities (<!ENTITY ...>), which kg does not expand (they "
        "can make a small file huge); remove the DOCTYPE block"]


def test_broken_xml_names_its_line(tmp_path):
    path = tmp_path / "broken.xml"
    path.write_text('<dblpperson name="A B">\n<r><article><title>T</title>\n</r>\n</dblpperson>\n')
    (skip,) = read_document(path).skipped
    # <article> is closed by </r> on line 3.
    assert str(skip).startswith("broken.xml:3: not well-formed XML")


# --- dblp -------------------------------------------------------------------------------------

def test_dblp_person():
    doc = read_document(DATA / "person.dblp.xml")
    assert doc.subject.name == "Wen Zhou"  # "Wen Zhou 0042" without dblp's homonym number
    found = doc.of_type(Work)
    assert [a.name for a in found[0].authors] == ["Wen Zhou", "Mara Ekdahl"]
    assert (found[0].status, found[0].venue.name) == ("preprint", "CoRR")
    # Inline <i> kept as text, the final period dropped, &#246; decoded by the XML parser.
    assert found[1].title == "Ranking Imaginary Documents"
    assert found[1].authors[2].name == "Jörg Albrecht"
    assert (found[1].span.first_line, found[1].span.last_line) == (16, 24)
    assert found[2].kind == "thesis" and found[2].year == "2015"


# --- OpenAlex / Crossref ----------------------------------------------------------------------

def test_openalex_results_page():
    doc = read_document(DATA / "works.openalex.json")
    assert doc.subject is None
    first, second = doc.of_type(Work)
    assert [a.name for a in first.authors] == ["Noor Haddad", "Piet Visser"]
    assert (first.year, first.venue.name, first.doi) == ("2022", "Journal of Fake Astronomy", "10.5555/fk.2022.1")
    assert second.status == "preprint"


def test_crossref_message():
    (work,) = works("work.crossref.json")
    assert (work.title, work.year, work.venue.name) == ("Comets Made of Cardboard", "2016", "Cardboard Cosmology Reviews")
    assert [a.name for a in work.authors] == ["Ines Moretti", "Abel Osei"]


# --- registry, helpers, the command -----------------------------------------------------------

@pytest.mark.parametrize("name, reader", [("cv-marvik.bib", "bibtex"), ("export-sandoval.ris", "ris"),
                                          ("items.csl.json", "csl-json"), ("record.orcid.json", "orcid"),
                                          ("record.orcid.xml", "orcid"), ("person.dblp.xml", "dblp"),
                                          ("works.openalex.json", "work-json"), ("work.crossref.json", "work-json")])
def test_each_file_goes_to_its_reader(name, reader):
    data = (DATA / name).read_bytes()
    assert readers_for(name, data)[0].name == reader


def test_person_key_joins_printed_forms():
    assert person_key("Liao, Tian-Hua") == person_key("Tianhua Liao") == person_key("T. Liao") == ("liao", "t")
    assert person_key("Tianhua Liao") != person_key("Wei Liao")


def test_no_owner_for_few_or_scattered_entries():
    # Two works are too few to tell an owner, even if one author is on both.
    assert frequent_author(works("cv-marvik.bib")[:2], "x.bib") is None
    # OpenAlex-like mixed authorship: Noor Haddad is on 2 of 2, but two works are too few.
    assert frequent_author(works("works.openalex.json"), "x.json") is None


def test_kg_read_prints_the_works():
    result = run_kg("read", DATA / "cv-marvik.bib")
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["owner"] == "Ilse Marvik" and len(out["works"]) == 6
    assert out["works"][0]["et_al"] is True and out["works"][4]["status"] == "thesis"
