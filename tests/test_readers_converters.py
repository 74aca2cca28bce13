"""Converters of PDF, DOCX, HTML and LaTeX: the markdown-like text they hand the free-text reader,
the structured data they read directly, and one clear skip for each broken input.

Every document here is written by the test itself; expected values are read off the input by hand.
"""

from __future__ import annotations

import io
import json
import zipfile

import pytest

from kg.records import Work
from kg.sources import FoundSource, read_source
from kg.sources.registry import READERS, Source, SourceFile, readers_for

READER = {r.name: r for r in READERS}


def run(reader: str, name: str, data: bytes):
    """Read one file through the same path a build takes (exceptions become skips there)."""
    return read_source(FoundSource(Source.single(name, data), READER[reader]))


# --- PDF ------------------------------------------------------------------------------------------

def make_pdf(pages: list[str], fonts=("Helvetica", "Helvetica-Bold")) -> bytes:
    """A PDF whose pages have the given content streams; F1, F2... are the standard *fonts*."""
    objects: list[bytes] = []
    font_refs = " ".join(f"/F{i + 1} {3 + i} 0 R" for i in range(len(fonts)))
    first_page = 3 + len(fonts)
    kids = " ".join(f"{first_page + 2 * i} 0 R" for i in range(len(pages)))
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {len(pages)} >>".encode())
    for font in fonts:
        objects.append(f"<< /Type /Font /Subtype /Type1 /BaseFont /{font} /Encoding /WinAnsiEncoding >>".encode())
    for i, content in enumerate(pages):
        stream = content.encode("latin-1")
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << {font_refs} >> >> "
                       f"/Contents {first_page + 2 * i + 1} 0 R >>".encode())
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for n, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % n + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def text_at(x: int, y: int, *runs: tuple[int, int, str]) -> str:
    """One line of text at (x, y): runs of (font number, size, text) one after the other."""
    body = " ".join(f"/F{font} {size} Tf ({text}) Tj" for font, size, text in runs)
    return f"BT {x} {y} Td {body} ET\n"


# Three pages, each with the same running header at the top and its number at the bottom.
HEADER = text_at(72, 760, (1, 9, "Jane Doe - Curriculum Vitae"))
CV_PAGES = [
    HEADER + text_at(72, 700, (2, 20, "Jane Doe"))
    + text_at(72, 660, (2, 14, "Publications"))
    + text_at(72, 630, (1, 10, "1. "), (2, 10, "Jane Doe"), (1, 10, ", R. Roe. A study of manage-"))
    + text_at(86, 618, (1, 10, "ment in small teams. Journal of Tests, 2020."))
    + text_at(72, 595, (1, 10, "2. R. Roe and "), (2, 10, "Jane Doe"), (1, 10, ". Another paper. Proc. of Things, 2019."))
    + text_at(300, 40, (1, 9, "1")),
    HEADER + text_at(72, 700, (1, 10, "3. Jane Doe. A third paper on page two. Some Venue, 2018."))
    + text_at(300, 40, (1, 9, "2")),
    HEADER + text_at(72, 700, (1, 10, "4. Jane Doe. A fourth paper on page three. Other Venue, 2017."))
    + text_at(300, 40, (1, 9, "3")),
]


def test_pdf_markdown_keeps_headings_bold_entries_and_drops_running_lines():
    from kg.sources.pdf import to_markdown

    md = to_markdown(make_pdf(CV_PAGES))
    lines = md.splitlines()
    # 20 pt against a 10 pt body is a title; 14 pt bold a section heading.
    assert lines[0] == "# Jane Doe"
    assert "## Publications" in lines
    # Entry 1: the owner's name in Helvetica-Bold is **bold**; "manage-" + "ment" joined.
    assert "1. **Jane Doe**, R. Roe. A study of management" in lines
    assert "in small teams. Journal of Tests, 2020." in lines
    assert "2. R. Roe and **Jane Doe**. Another paper. Proc. of Things, 2019." in lines
    # Each numbered entry starts after a blank line; entries of pages 2 and 3 are kept.
    assert lines[lines.index("2. R. Roe and **Jane Doe**. Another paper. Proc. of Things, 2019.") - 1] == ""
    assert any(line.startswith("4. Jane Doe. A fourth paper") for line in lines)
    # The running header (on all three pages) and the page numbers 1, 2, 3 are gone.
    assert "Curriculum Vitae" not in md
    assert not any(line.strip() in ("1", "2", "3") for line in lines)


def test_pdf_reader_spans_name_the_page():
    doc = run("pdf", "cv.pdf", make_pdf(CV_PAGES))
    assert doc.format == "pdf-cv"
    spans = [f.span for f in doc.facts] + [s.span for s in doc.skipped]
    # Whatever the free-text reader makes of it, its spans say on which page they are.
    assert spans and all(s.place and s.place.startswith("page ") for s in spans)


def test_pdf_sniff_and_registry():
    assert [r.name for r in readers_for("cv.pdf", b"%PDF-1.5\n")] == ["pdf"]
    assert readers_for("cv.pdf", b"<html>") == []


@pytest.mark.parametrize("data, words", [
    # A page with only a drawn rectangle: no characters at all.
    (make_pdf(["72 72 200 100 re f\n"]), "no text layer"),
    # The first half of a good PDF: no end-of-file marker, no text.
    (make_pdf(CV_PAGES)[:300], "truncated"),
    (b"%PDF-1.4\n" + bytes(range(256)) * 4, "could not be opened"),
])
def test_pdf_broken_inputs_give_one_skip(data, words):
    doc = run("pdf", "cv.pdf", data)
    assert doc.facts == [] and len(doc.skipped) == 1
    assert words in doc.skipped[0].reason and str(doc.skipped[0]).startswith("cv.pdf:1")


# --- DOCX -----------------------------------------------------------------------------------------

def make_docx() -> bytes:
    import docx

    document = docx.Document()
    document.add_heading("Jane Doe", 0)
    document.add_heading("Publications", 1)
    item = document.add_paragraph(style="List Number")
    for text, bold, italic in (("Jane", True, False), (" Doe", True, False), (", R. Roe. ", False, False),
                               ("A Title", False, True), (". Venue, 2020.", False, False)):
        run_ = item.add_run(text)
        run_.bold, run_.italic = bold, italic
    document.add_paragraph("R. Roe and J. Doe. Second paper. Venue, 2019.", style="List Bullet")
    document.add_heading("Awards", 2)
    table = document.add_table(rows=2, cols=2)
    for r, (year, award) in enumerate((("2021", "Best Paper"), ("2019", "Fellowship"))):
        table.cell(r, 0).text, table.cell(r, 1).text = year, award
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def test_docx_markdown_keeps_styles_lists_and_tables():
    from kg.sources.docx import to_markdown

    # Title and Heading 1 -> "#", Heading 2 -> "##"; the two bold runs "Jane" + " Doe" are one bold
    # run; "List Number" gives "1.", "List Bullet" "-"; each table row is one line, cells side by side.
    assert to_markdown(make_docx()) == (
        "# Jane Doe\n\n# Publications\n\n"
        "1. **Jane Doe**, R. Roe. *A Title*. Venue, 2020.\n\n"
        "- R. Roe and J. Doe. Second paper. Venue, 2019.\n\n"
        "## Awards\n\n2021  Best Paper\n\n2019  Fellowship\n")


def test_docx_reader_runs_and_names_paragraphs():
    doc = run("docx", "cv.docx", make_docx())
    assert doc.format == "docx-cv"
    spans = [f.span for f in doc.facts] + [s.span for s in doc.skipped]
    # Whatever the free-text reader makes of it, its spans name the Word paragraphs.
    assert spans and all(s.place and s.place.startswith("paragraph ") for s in spans)


def _zip(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return out.getvalue()


@pytest.mark.parametrize("data, words", [
    (_zip({"notes.txt": b"hello"}), "without word/document.xml"),
    (b"PK\x03\x04" + b"\x00garbage" * 20, "not a complete zip archive"),
    (_zip({"word/document.xml": b"<not xml", "[Content_Types].xml": b"<Types/>"}), "damaged"),
])
def test_docx_broken_inputs_give_one_skip(data, words):
    doc = run("docx", "cv.docx", data)
    assert doc.facts == [] and len(doc.skipped) == 1 and words in doc.skipped[0].reason


# --- HTML -----------------------------------------------------------------------------------------

def page(body: str, head: str = "") -> bytes:
    return f"<!DOCTYPE html><html><head>{head}</head><body>{body}</body></html>".encode()


def test_html_json_ld_gives_works_and_owner():
    graph = {"@context": "https://schema.org", "@graph": [
        {"@type": "Person", "name": "Jane Doe"},
        {"@type": "ScholarlyArticle", "name": "Reading Pages Well", "datePublished": "2021-05-02",
         "author": [{"@type": "Person", "name": "Jane Doe"}, {"@type": "Person", "name": "Rob Roe"}],
         "isPartOf": {"@type": "Periodical", "name": "Journal of Pages"},
         "sameAs": "https://doi.org/10.1234/pages.5"}]}
    doc = run("html", "home.html", page("<p>Hello</p>", f'<script type="application/ld+json">{json.dumps(graph)}</script>'))
    (work,) = doc.of_type(Work)
    assert doc.subject.name == "Jane Doe" and doc.format == "html-schema.org"
    assert (work.title, [a.name for a in work.authors], work.year) == ("Reading Pages Well", ["Jane Doe", "Rob Roe"], "2021")
    assert (work.venue.name, work.doi) == ("Journal of Pages", "10.1234/pages.5")


ENTRIES = """
<h1 class="author">Jane Doe</h1>
<h2>2020</h2>
<ul>
 <li class="pub"><span class="authors">Jane Doe, Rob Roe.</span> <span class="title">First Paper.</span>
   <span class="journal">J. Tests</span> <span class="year">2020</span></li>
 <li class="pub"><span class="authors">Rob Roe, Jane Doe.</span> <span class="title">Second Paper.</span>
   <span class="journal">arXiv</span></li>
 <li class="pub phdthesis"><span class="authors">Jane Doe.</span> <span class="title">My Thesis.</span>
   <span class="journal">University of Somewhere</span> <span class="year">2018</span></li>
</ul>
"""


def test_html_class_annotated_entries_are_read_as_fields():
    doc = run("html", "bib.html", page(ENTRIES))
    works = doc.of_type(Work)
    assert doc.format == "html-entries" and doc.subject.name == "Jane Doe"
    assert [w.title for w in works] == ["First Paper", "Second Paper", "My Thesis"]
    assert [a.name for a in works[1].authors] == ["Rob Roe", "Jane Doe"]
    # The second entry has no year field: the "2020" heading before the list gives it. arXiv is a preprint
    # server; the third entry's class says thesis.
    assert [w.year for w in works] == ["2020", "2020", "2018"]
    assert [(w.status, w.kind) for w in works] == [("published", "article"), ("preprint", "article"),
                                                  ("published", "thesis")]
    assert works[0].venue.name == "J. Tests" and works[0].span.first_line == 5


PLAIN = """
<nav><a href="/">Home</a></nav>
<header><p>Site banner</p></header>
<h2>Publications</h2>
<ol>
 <li><b>J. Doe</b><sup>&dagger;</sup>, R. Roe. <i>Title &amp; More</i>. Venue, 2020.
   <a href="https://example.org/p.pdf">pdf</a></li>
 <li>R. Roe, <strong>J. Doe</strong>.<br>Second <em>paper</em>.</li>
</ol>
<script>var x = "<li>not text</li>";</script>
<footer>(c) Jane Doe</footer>
"""


def test_html_page_structure_as_markdown():
    from kg.sources.html import to_markdown

    # Headings -> "##", ol items -> "1." "2." with continuation lines indented under the marker,
    # b/strong -> **, i/em -> *, sup marks kept, entities decoded, links kept; nav, header, script
    # and footer dropped.
    assert to_markdown(page(PLAIN)) == (
        "## Publications\n\n"
        "1. **J. Doe**†, R. Roe. *Title & More*. Venue, 2020. [pdf](https://example.org/p.pdf)\n\n"
        "2. R. Roe, **J. Doe**.\n   Second *paper*.\n")


def test_html_list_inside_a_repeated_entry_stays_in_the_entry():
    from kg.sources.html import to_markdown

    # Three div entries side by side are entries (blank lines between); the <ul> note inside the
    # second is written as its line, with no blank line that would cut the entry in two.
    card = '<div class="e"><i>Title {n}</i><br>J. Doe{note}<br>DOI: 10.1/x{n}</div>'
    note = "<ul><li>Featured on a cover.</li></ul>"
    text = to_markdown(page("".join(card.format(n=n, note=note if n == 2 else "") for n in (1, 2, 3))))
    assert "*Title 2*\nJ. Doe\n- Featured on a cover.\nDOI: 10.1/x2" in text


def test_html_text_route_names_the_owner_from_the_title():
    doc = run("html", "index.html", page(PLAIN, "<title>Jane Doe | Home</title>"))
    assert doc.format == "html-page" and doc.subject is not None and doc.subject.name == "Jane Doe"


def test_html_binary_junk_is_one_skip():
    assert readers_for("x.html", bytes(range(256))) == []  # the sniff refuses it
    doc = run("html", "x.html", b"<html>" + bytes(range(256)) * 8)
    assert doc.facts == [] and len(doc.skipped) == 1 and "binary" in doc.skipped[0].reason


# --- LaTeX ----------------------------------------------------------------------------------------

MAIN_TEX = rb"""\documentclass{article}
\newcommand{\me}[1]{\textbf{#1}}
\newboolean{long}
\setboolean{long}{false}
\begin{document}
\section{Publications}
\input{sections/pubs}
\ifthenelse{\boolean{long}}{\section{Long Version}}{\section{Teaching}}
Taught \emph{Statistics}.
\end{document}
"""
PUBS_TEX = rb"""% publications, newest first
\begin{itemize}
\item \me{J.~Doe} and R.~Roe. \textit{A Title}. In \href{https://venue.org}{Venue}, 2020.
% \item J. Doe. A commented-out paper, 2019.
\item R.~Roe and \textbf{J.~Doe}. Second paper --- part two. M\"unchen Press, 2018.
\end{itemize}
"""


def test_latex_folder_markdown():
    from kg.sources.latex import to_markdown

    md = to_markdown({"cv.tex": MAIN_TEX, "sections/pubs.tex": PUBS_TEX})
    # \section -> "##"; the \input file inlined; \me (defined with \textbf) and \textbf -> **,
    # \textit -> *, \href -> link, ~ -> space, --- -> em dash, \"u -> ü; the commented-out item is
    # no entry; \ifthenelse takes the false branch since \setboolean{long}{false}.
    assert md == (
        "## Publications\n\n"
        "- **J. Doe** and R. Roe. *A Title*. In [Venue](https://venue.org), 2020.\n\n"
        "- R. Roe and **J. Doe**. Second paper — part two. München Press, 2018.\n\n"
        "## Teaching\n\nTaught *Statistics*.\n")


def test_latex_collection_reads_included_file_with_its_lines():
    source = Source("cv", (SourceFile("cv.tex", MAIN_TEX), SourceFile("sections/pubs.tex", PUBS_TEX),
                           SourceFile("sections/old.tex", rb"\section{Old}")))
    doc = read_source(FoundSource(source, READER["latex"]))
    assert doc.format == "latex-cv"
    # sections/old.tex is in the folder but never \input: said once, not dropped silently.
    unused = [s for s in doc.skipped if "not included" in s.reason]
    assert len(unused) == 1 and "sections/old.tex" in unused[0].reason
    # Spans point into the .tex files: a place names the file.
    assert all(s.span.place in ("cv.tex", "sections/pubs.tex", "sections/old.tex") for s in doc.skipped)


def test_latex_input_outside_the_folder_is_refused():
    source = Source("cv.tex", (SourceFile("cv.tex", rb"\documentclass{article}\begin{document}"
                                                    rb"\input{../../etc/passwd}\end{document}"),))
    doc = read_source(FoundSource(source, READER["latex"]))
    assert any("no such file in the document's folder" in s.reason for s in doc.skipped)


def test_latex_unbalanced_braces_is_one_skip_and_no_exception():
    bad = rb"""\documentclass{article}
\begin{document}
\section{Publications}
\textbf{J. Doe. A title. Venue, 2020.
\end{document}
"""
    doc = run("latex", "cv.tex", bad)
    parse_skips = [s for s in doc.skipped if "does not parse" in s.reason]
    assert len(parse_skips) == 1 and parse_skips[0].span.first_line in (4, 5, 6)


def test_latex_moderncv_entries_read_in_order():
    from kg.sources.latex import to_markdown

    tex = rb"""\documentclass{moderncv}
\firstname{Jane}\familyname{Doe}
\email{jane@example.org}
\begin{document}
\section{Education}
\cventry{2010--2014}{PhD in Testing}{Some University}{Town}{}{Thesis on tests}
\end{document}
"""
    # The name and e-mail from the preamble head the text; \cventry's arguments read years first.
    assert to_markdown({"cv.tex": tex}) == (
        "# Jane Doe\njane@example.org\n\n## Education\n\n"
        "2010–2014: **PhD in Testing**, Some University, Town\nThesis on tests\n")
