"""Reader for Word (.docx) CVs and publication lists, as markdown-like text.

python-docx gives the paragraphs and tables in order: ``Heading N`` and ``Title`` styles become
``#`` headings, list paragraphs ``-`` items (``1.`` where the style says numbered), bold and
italic runs ``**bold**`` and ``*italic*``, hyperlinks ``[text](url)``, table rows one line each.
Where the author separates entries with empty paragraphs those are the blank lines; else each
paragraph is an entry of its own. Spans name the paragraph (``paragraph 12``).

Run ``python -m kg.sources.docx CV.docx`` to see the text kg makes of a document.
"""

from __future__ import annotations

import io
import re
import sys
import zipfile

from kg.records import Document
from kg.sources.converted import MarkdownLines, Origin, normalise_ligatures, print_converted, read_with
from kg.sources.registry import Source

# A part this large (uncompressed) is no CV: refuse it rather than inflate it (a zip bomb).
MAX_PART_BYTES = 64 * 1024 * 1024
# Empty paragraphs separate entries when at least this share of paragraphs is empty.
_EMPTY_SEPARATORS = 0.1
_HEADING_STYLE = re.compile(r"^heading\s*(\d)$", re.I)


def sniff(head: bytes) -> bool:
    """A zip archive (what every .docx is); :func:`read` checks it holds a Word document."""
    return head[:4] == b"PK\x03\x04"


def read(source: Source) -> Document:
    return read_with(source, "docx-cv", convert)


def to_markdown(data: bytes) -> str:
    return convert(data)[0].text()


def convert(data: bytes) -> tuple[MarkdownLines, str | None]:
    """The document as markdown lines with their paragraph numbers, or why it cannot be read."""
    import docx
    from docx.table import Table

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = {info.filename: info.file_size for info in archive.infolist()}
    except (zipfile.BadZipFile, ValueError, OSError) as err:
        return MarkdownLines(), f"not a Word document: the file is not a complete zip archive ({err}); save it again"
    if "word/document.xml" not in names:
        return MarkdownLines(), ("not a Word document: a zip archive without word/document.xml (another file "
                                 "renamed .docx?); save the CV from Word as .docx")
    if max(names.values()) > MAX_PART_BYTES:
        return MarkdownLines(), "a part of the document inflates to over 64 MiB; no CV is that large: not read"
    try:
        document = docx.Document(io.BytesIO(data))
        blocks = list(document.iter_inner_content())
    except Exception as err:  # noqa: BLE001 - python-docx raises many kinds on a damaged file
        return MarkdownLines(), f"the Word document is damaged ({type(err).__name__}: {str(err)[:120]}); save it again"
    md = MarkdownLines()
    paragraphs = [b for b in blocks if not isinstance(b, Table)]
    empty = sum(1 for p in paragraphs if not p.text.strip())
    separators = paragraphs and empty >= _EMPTY_SEPARATORS * len(paragraphs)
    number = 0
    for n, block in enumerate(blocks, 1):
        origin = Origin(place=f"paragraph {n}")
        if isinstance(block, Table):
            _table(block, md, origin)
            continue
        text = normalise_ligatures(_runs(block)).strip()
        style = (block.style.name if block.style is not None else "") or ""
        heading = _HEADING_STYLE.match(style)
        if not text:
            md.blank()
        elif heading or style.lower() in ("title", "subtitle"):
            level = int(heading.group(1)) if heading else 1
            md.blank()
            md.add("#" * min(level, 6) + " " + text.replace("**", "").replace("\n", " "), origin)
            md.blank()
        elif _is_list(block, style):
            number = number + 1 if "number" in style.lower() else 0
            marker = f"{number}. " if number else "- "
            md.blank()
            md.add(marker + text.replace("\n", "\n" + " " * len(marker)), origin)
            md.blank()
        else:
            number = 0
            md.add(text, origin)
            if not separators:
                md.blank()
    return md, None


def _is_list(paragraph, style: str) -> bool:
    ppr = paragraph._p.pPr
    return "list" in style.lower() or (ppr is not None and ppr.numPr is not None)


def _runs(paragraph) -> str:
    """A paragraph's text with bold, italic and links marked; runs Word split mid-phrase
    ("Jane" and " Doe", both bold) are one run."""
    from docx.text.hyperlink import Hyperlink

    style_font = paragraph.style.font if paragraph.style is not None else None
    runs: list[list] = []  # [mark, text]; mark None for a link, written as is
    for item in paragraph.iter_inner_content():
        if isinstance(item, Hyperlink):
            label = item.text.strip()
            runs.append([None, f"[{label}]({item.url})" if label and item.url else item.text])
            continue
        if not item.text.strip() and runs:
            runs[-1][1] += item.text  # spaces take the style of the run before
            continue
        bold = item.bold if item.bold is not None else bool(style_font and style_font.bold)
        italic = item.italic if item.italic is not None else bool(style_font and style_font.italic)
        mark = "**" * bool(bold) + "*" * bool(italic)
        if runs and runs[-1][0] == mark and mark is not None:
            runs[-1][1] += item.text
        else:
            runs.append([mark, item.text])
    out = []
    for mark, text in runs:
        core = text.strip()
        if mark and core:
            text = text[: len(text) - len(text.lstrip())] + mark + core + mark[::-1] + text[len(text.rstrip()):]
        out.append(text)
    return "".join(out).replace("\t", " ")


def _table(table, md: MarkdownLines, origin: Origin) -> None:
    """Each row one entry, its cells side by side."""
    md.blank()
    for row in table.rows:
        cells = []
        for cell in row.cells:
            text = " ".join(_runs(p).strip() for p in cell.paragraphs if p.text.strip())
            if text and (not cells or cells[-1] != text):  # merged cells repeat their text
                cells.append(text)
        if cells:
            md.add(normalise_ligatures("  ".join(cells)), origin)
            md.blank()


if __name__ == "__main__":
    sys.exit(print_converted(convert, sys.argv[1:]))
