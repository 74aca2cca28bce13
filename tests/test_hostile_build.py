"""Issue 15, items 5, 7 and 10: the build under bad links, hostile curation files and private data.

Each test writes a small data folder of its own and builds it in-process.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kg.build import build_graph
from kg.errors import UserError
from kg.identity.curation import Curation

CV = """Ada Example

ada@example.org • {homepage}

BIOGRAPHY

I study graphs. Lab phone 0113 343 5430, School of Computing, University of Leeds.
Office: 32 Vassar Street, Cambridge, MA 02139.

PUBLICATION

- Ada Example, Bob Sample. A Study of Graphs. In Proceedings of GraphConf, 2021.
"""


def _build(tmp_path: Path, homepage: str, **options):
    data = tmp_path / "data"
    data.mkdir(exist_ok=True)
    (data / "cv-ada.txt").write_text(CV.format(homepage=homepage), encoding="utf-8")
    return build_graph(data, tmp_path / "out", html=False, validate=False, **options)


@pytest.mark.parametrize("homepage, written", [
    ("https://x.y/a|b", "<https://x.y/a%7Cb>"),  # | is not allowed in an IRI: percent-encoded
    ("https://x.y/a\x07b", "<https://x.y/a%07b>"),  # a control character: percent-encoded
])
def test_a_bad_link_is_repaired_not_a_traceback(tmp_path, homepage, written):
    _build(tmp_path, homepage)  # before: rdflib/Oxigraph raised on these, after part of out/ was rewritten
    assert written in (tmp_path / "out" / "kg.ttl").read_text(encoding="utf-8")


def test_phones_and_addresses_leave_every_output(tmp_path):
    old = os.umask(0o077)
    try:
        _build(tmp_path, "https://ada.example.org/")
    finally:
        os.umask(old)
    out = tmp_path / "out"
    ttl = (out / "kg.ttl").read_text(encoding="utf-8")
    assert "I study graphs" in ttl and "School of Computing, University of Leeds" in ttl
    for private in ("343 5430", "Vassar", "02139"):
        for name in ("kg.ttl", "kg.trig", "kg.jsonld"):
            assert private not in (out / name).read_text(encoding="utf-8"), (private, name)
    # Files that may hold private data follow the umask (077 here: owner only).
    assert (out / "kg.ttl").stat().st_mode & 0o077 == 0


def test_include_private_keeps_them(tmp_path):
    _build(tmp_path, "https://ada.example.org/", include_private=True)
    assert "343 5430" in (tmp_path / "out" / "kg.ttl").read_text(encoding="utf-8")


def _built_without(tmp_path, cv: str, private: tuple[str, ...]) -> tuple[dict[str, str], str]:
    """Build a data folder of one CV, *cv*, through the CLI: every line read (none skipped) and none of
    *private* in what the build printed or in kg.ttl, kg.trig and kg.jsonld. The three files' texts, and
    the kg.ttl of the same build with ``--include-private``."""
    from conftest import run_kg

    data = tmp_path / "data"
    data.mkdir()
    (data / "cv.md").write_text(cv, encoding="utf-8")
    result = run_kg("build", data, "--out", tmp_path / "out", "--no-validate")
    assert result.returncode == 0, result.stderr
    printed = result.stdout + result.stderr
    assert "skipped: 0" in printed  # the header lines read as the owner's addresses, not passed over
    written = {name: (tmp_path / "out" / name).read_text(encoding="utf-8") for name in ("kg.ttl", "kg.trig", "kg.jsonld")}
    for word in private:
        assert word not in printed, word
        for name, text in written.items():
            assert word not in text, (word, name)
    run_kg("build", data, "--out", tmp_path / "private", "--no-validate", "--include-private")
    return written, (tmp_path / "private" / "kg.ttl").read_text(encoding="utf-8")


def test_addresses_with_short_house_numbers_leave_the_report_and_every_output(tmp_path):
    # Regression: a header line "12 Acacia Crescent, Leeds" or "Rue de Rivoli 10, Paris" was no address to
    # the CV reader (its own list of street words had neither word), so the build's report printed it as a
    # skipped line; and the outputs' scrub looked for addresses only in texts of three digits or more.
    written, asked = _built_without(
        tmp_path,
        "# Ada Example\n\n12 Acacia Crescent, Leeds\n\nRue de Rivoli 10, Paris\n\nada@example.org\n\n"
        "## Biography\n\nI work at Keplerstr. 7, Stuttgart, on graphs.\n\n"
        "## Publications\n\n- Ada Example, Bob Sample. A Study of Graphs. *Journal of Graphs*, 2021.\n",
        ("Acacia", "Rivoli", "Keplerstr"))
    assert "on graphs" in written["kg.ttl"]  # the biography is kept, the address in it is not
    assert "Acacia" in asked and "Rivoli" in asked and "Keplerstr. 7" in asked  # kept where the user asks


def test_french_addresses_with_the_number_first_leave_every_output(tmp_path):
    # Regression: French writes the house number, then the street's word in lower case, then its name
    # ("10 rue de Rivoli"); the scrub knew only "Rue de Rivoli 10", so both addresses below reached the
    # outputs whole. A title that merely has a number before such a word and no name after it stays.
    written, asked = _built_without(
        tmp_path,
        "# Ada Example\n\n45 rue d'Ulm, 75005 Paris\n\nada@example.org\n\n"
        "## Biography\n\nI moved to 3 bis avenue Foch, Lyon, to study graphs.\n\n"
        "## Publications\n\n- Ada Example, Bob Sample. Ranking 2 rue words in graphs. *Journal of Graphs*, 2021.\n",
        ("Ulm", "Foch", "75005"))
    assert "to study graphs" in written["kg.ttl"]  # the biography stays, without the street
    assert "Ranking 2 rue words in graphs" in written["kg.ttl"]  # "rue" with no capitalised name after it
    assert "3 bis avenue Foch" in asked  # kept where the user asks


def test_streets_of_other_languages_are_the_owners_addresses_and_leave_every_output(tmp_path):
    # Regression: "Kerkstraat 12, 1017 GC Amsterdam" in a CV's header was no address to the CV reader
    # ("straat" ends the word, and the Dutch postcode has four digits): it was read as an organization,
    # named "Kerkstraat 12, ..." in the outputs and in its IRI. "ul. Marszałkowska 10" was a skipped
    # line, and "Via Roma 10" and "Drottninggatan 5" reached the outputs whole.
    written, asked = _built_without(
        tmp_path,
        "# Ada Example\n\nKerkstraat 12, 1017 GC Amsterdam\n\nVia Roma 10, 00184 Roma\n\n"
        "ul. Marszałkowska 10, 00-001 Warszawa\n\nada@example.org\n\n"
        "## Biography\n\nI moved to Drottninggatan 5, Stockholm, to study graphs.\n\n"
        "## Publications\n\n- Ada Example, Bob Sample. Learning Via Graph Networks 2. *Journal of Graphs*, 2021.\n",
        ("Kerkstraat", "kerkstraat", "Roma 10", "Marszałkowska", "Drottninggatan"))
    assert "I moved to, Stockholm, to study graphs." in written["kg.ttl"]  # the biography stays, without the street
    assert "Learning Via Graph Networks 2" in written["kg.ttl"]  # "Via" with no postcode after the number
    assert "kg:Organization" not in written["kg.ttl"]  # no address taken for an affiliation
    for street in ("Kerkstraat 12", "Via Roma 10", "ul. Marszałkowska 10", "Drottninggatan 5"):
        assert street in asked  # kept where the user asks


def test_an_address_in_an_organizations_name_is_in_no_iri(tmp_path):
    # Regression: the organization of "Institute of Graphs, 77 Massachusetts Avenue, Cambridge, USA" was
    # named "Institute of Graphs" in the outputs, but its IRI, made from the name as printed, was
    # id:org/institute-of-graphs-77-massachusetts-avenue, and so was the position's made from it: the
    # street reached kg.ttl, kg.trig, kg.jsonld and the tables. An IRI is made from the scrubbed
    # name, with --include-private too (an identifier does not change with what the build keeps).
    cv = ("# Ada Example\n\nada@example.org\n\n## Employment\n\nProfessor\n\nOct. 2021 ~ Now\n\n"
          "Institute of Graphs, 77 Massachusetts Avenue, Cambridge, USA\n\n"
          "## Publications\n\n- Ada Example, Bob Sample. A Study of Graphs. *Journal of Graphs*, 2021.\n")
    written, asked = _built_without(tmp_path, cv, ("Massachusetts", "massachusetts"))
    assert "id:org\\/institute-of-graphs " in written["kg.ttl"]  # the organization is there, named without it
    for path in (tmp_path / "out").rglob("*"):
        if path.is_file() and path.parent.name != "store":
            assert b"massachusetts" not in path.read_bytes().lower(), path.name
    assert "id:org\\/institute-of-graphs " in asked and "77 Massachusetts Avenue" in asked  # the name kept, asked


def test_a_skipped_line_that_holds_an_address_is_reported_without_it(tmp_path):
    # Regression: the report quotes a header line it passes over, private or not. "P.O. Box 4711,
    # Springfield" has no street word, so the CV reader skips it; the scrub knows a PO box.
    from conftest import run_kg

    data = tmp_path / "data"
    data.mkdir()
    (data / "cv.md").write_text("# Ada Example\n\nP.O. Box 4711, Springfield\n\n## Publications\n\n"
                                "- Ada Example, Bob Sample. A Study of Graphs. *Journal of Graphs*, 2021.\n",
                                encoding="utf-8")
    printed = run_kg("build", data, "--out", tmp_path / "out", "--no-validate").stdout
    assert "cv.md:3: header line ', Springfield' is neither" in printed  # reported, its place kept
    assert "4711" not in printed
    asked = run_kg("build", data, "--out", tmp_path / "private", "--no-validate", "--include-private").stdout
    assert "P.O. Box 4711, Springfield" in asked  # the user asked for private data


@pytest.mark.parametrize("text, message", [
    # A billion laughs: nine aliases of nine aliases would grow to gigabytes; refused at the first anchor.
    ("a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n", "c.yaml:1: YAML anchors"),
    ("people:\n  aliases:\n    [a, b]: [c]\n", "c.yaml:3: expected a single value"),  # a key that is a list
    ("documents:\n  cv.md:\n    date: [2020]\n", "c.yaml:3: expected a single value"),
])
def test_hostile_curation_is_one_short_line(text, message):
    with pytest.raises(UserError) as err:
        Curation.from_text(text, "c.yaml")
    assert str(err.value).startswith(message) and len(str(err.value)) < 200


def test_unreadable_curation_is_one_line(tmp_path):
    path = tmp_path / "curation.yaml"
    path.mkdir()  # a folder where the file belongs: reading it fails as an unreadable file would
    with pytest.raises(UserError, match="cannot read the curation file"):
        Curation.load(path)
