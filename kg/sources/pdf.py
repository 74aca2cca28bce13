"""Reader for PDF CVs and publication lists: the text layer, with its layout, as markdown-like text.

pdfminer.six (the engine under pdfplumber, used directly without its layout analysis: a 10-page
CV reads in about half a second instead of two) gives every character with its font and box.
Characters are grouped into lines by their height on the page; font names give **bold** and
*italic* runs; lines in a larger font, short all-capital lines and short bold lines at the margin
are headings; a wider gap, a bullet or a number at the line start begins a new entry. Lines
repeated at the same place on most pages (running headers and footers) and page numbers are
dropped; a word hyphenated at a line end is joined; ligatures are written as letters.

Run ``python -m kg.sources.pdf CV.pdf`` to see the text kg makes of a PDF.
"""

from __future__ import annotations

import io
import re
import sys
from collections import Counter
from dataclasses import dataclass
from itertools import pairwise

from kg.records import Document
from kg.sources.converted import MarkdownLines, Origin, normalise_ligatures, print_converted, read_with
from kg.sources.registry import Source

_BOLD = re.compile(r"bold|black|heavy|semibold|demi|[-,]b(?:d|x)?$|medi", re.I)
_ITALIC = re.compile(r"italic|oblique|ital|[-,]it$|slanted", re.I)
_PAGE_NUMBER = re.compile(r"^\W*(?:page\s*)?\d{1,4}(?:\s*(?:of|/)\s*\d{1,4})?\W*$", re.I)
_MARKER = re.compile(r"^(?:[•·▪◦●■‣∙\-–]\s|\[\d{1,4}\]|\(\d{1,4}\)|\d{1,4}[.)]\s)")
_UNMAPPED = re.compile(r"\(cid:\d+\)")
_BULLET = re.compile(r"^[•·▪◦●■‣∙]\s*")
_NUMBERING = re.compile(r"^\s*(?:\d+(?:\.\d+)*|[IVX]+)[.)]?\s+(?=\S)")
# Share of pages a line must repeat on, at the same height, to be a running header or footer.
_RUNNING_SHARE = 0.5
_EDGE = 0.12  # top and bottom share of the page where running lines and page numbers sit


@dataclass
class _Char:
    text: str
    x0: float
    x1: float
    top: float  # from the top of the page
    bottom: float
    size: float
    bold: bool
    italic: bool


@dataclass
class _Line:
    chars: list
    page: int
    page_height: float

    @property
    def top(self) -> float:
        return min(c.top for c in self.chars)

    @property
    def bottom(self) -> float:
        return max(c.bottom for c in self.chars)

    @property
    def x0(self) -> float:
        return self.chars[0].x0

    @property
    def size(self) -> float:
        return Counter(round(c.size, 1) for c in self.chars if c.text.strip()).most_common(1)[0][0]

    def plain(self) -> str:
        return _join(self.chars, styled=False)


def sniff(head: bytes) -> bool:
    return head.lstrip()[:5] == b"%PDF-"


def read(source: Source) -> Document:
    return read_with(source, "pdf-cv", convert)


def to_markdown(data: bytes) -> str:
    """The PDF as markdown-like text (what the free-text reader gets); ``""`` if it has no text."""
    return convert(data)[0].text()


def convert(data: bytes) -> tuple[MarkdownLines, str | None]:
    """The PDF's text as markdown lines with their pages, or why there is none."""
    try:
        pages = _pages(data)
    except Exception as err:  # noqa: BLE001 - pdfminer raises many kinds on a broken file
        kind = "encrypted" if "encrypt" in f"{type(err).__name__} {err}".lower() else \
            "truncated: it has no end-of-file marker" if b"%%EOF" not in data[-2048:] else "damaged or not a PDF"
        return MarkdownLines(), (f"the PDF could not be opened ({kind}: {type(err).__name__}); "
                                 "save it again from its source, without a password, or export the CV as text")
    if sum(len(chars) for chars, _ in pages) < 20 and b"%%EOF" not in data[-2048:]:
        return MarkdownLines(), ("the PDF is truncated (it has no end-of-file marker) and no text was found; "
                                 "download or export it again")
    if sum(len(chars) for chars, _ in pages) < 20:
        return MarkdownLines(), "no text layer (a scanned PDF?): run OCR or export the CV as text"
    lines = [line for n, (chars, height) in enumerate(pages, 1) for line in _lines(chars, n, height)]
    lines = _drop_running(lines, len(pages))
    return _markdown(lines), None


def _pages(data: bytes) -> list[tuple[list[_Char], float]]:
    from pdfminer.converter import PDFPageAggregator
    from pdfminer.layout import LTChar
    from pdfminer.pdfdocument import PDFDocument
    from pdfminer.pdfinterp import PDFPageInterpreter, PDFResourceManager
    from pdfminer.pdfpage import PDFPage
    from pdfminer.pdfparser import PDFParser

    document = PDFDocument(PDFParser(io.BytesIO(data)))
    if not document.is_extractable:
        raise PermissionError("the PDF is encrypted against text extraction")
    resources = PDFResourceManager(caching=True)
    device = PDFPageAggregator(resources, laparams=None)
    interpreter = PDFPageInterpreter(resources, device)
    pages = []
    for page in PDFPage.create_pages(document):
        interpreter.process_page(page)
        layout = device.get_result()
        height = layout.height
        chars = []
        stack = list(layout)
        while stack:
            item = stack.pop()
            if isinstance(item, LTChar):
                font = item.fontname.split("+")[-1]
                if _UNMAPPED.fullmatch(item.get_text()):
                    continue
                chars.append(_Char(item.get_text(), item.x0, item.x1, height - item.y1, height - item.y0,
                                   item.size, bool(_BOLD.search(font)), bool(_ITALIC.search(font))))
            elif hasattr(item, "__iter__"):
                stack.extend(item)
        pages.append((chars, height))
    return pages


def _lines(chars: list[_Char], page: int, height: float) -> list[_Line]:
    """Characters grouped into lines: a character joins the line whose vertical middle band it
    overlaps (superscript marks join the line they sit on), then each line is read left to right."""
    chars = sorted((c for c in chars if c.text), key=lambda c: (round(c.bottom, 1), c.x0))
    lines: list[list[_Char]] = []
    band = (0.0, -1.0)
    for c in chars:
        middle = (c.top + c.bottom) / 2
        if lines and band[0] <= middle <= band[1] or lines and band[0] <= c.bottom <= band[1] + 0.5:
            lines[-1].append(c)
        else:
            lines.append([c])
            pad = (c.bottom - c.top) * 0.3
            band = (c.top + pad, c.bottom + 0.5)
    return [_Line(sorted(line, key=lambda c: c.x0), page, height) for line in lines if "".join(
        c.text for c in line).strip()]


def _join(chars: list[_Char], styled: bool) -> str:
    """A line's text: a space where the gap between characters is a word space (two where it is
    a column gap), and bold/italic marks around runs of such characters."""
    runs: list[list] = []  # [(bold, italic), text]
    prev = None
    for c in chars:
        if prev is not None and c.text != " " and prev.text != " ":
            gap, size = c.x0 - prev.x1, min(c.size, prev.size)
            runs[-1][1] += "  " if gap > 1.5 * size else " " if gap > 0.12 * size else ""
        style = (c.bold, c.italic) if styled and c.text.strip() else runs[-1][0] if runs else (False, False)
        if not runs or runs[-1][0] != style:
            runs.append([style, ""])
        runs[-1][1] += c.text
        prev = c
    out = []
    for style, text in runs:
        core = text.strip()
        lead, trail = text[: len(text) - len(text.lstrip())], text[len(text.rstrip()):]
        out.append(lead + _open(style) + core + _close(style) + trail if core else text)
    return "".join(out)


def _open(style: tuple[bool, bool]) -> str:
    return "**" * style[0] + "*" * style[1]


def _close(style: tuple[bool, bool]) -> str:
    return "*" * style[1] + "**" * style[0]


def _drop_running(lines: list[_Line], pages: int) -> list[_Line]:
    """Without running headers and footers (the same text, digits aside, at the same height on
    most pages, near the top or bottom) and page numbers."""
    def key(line: _Line):
        return re.sub(r"\d+", "#", line.plain().replace(" ", "")), round(line.top / 3)

    def at_edge(line: _Line) -> bool:
        return line.top < _EDGE * line.page_height or line.bottom > (1 - _EDGE) * line.page_height

    counts = Counter(key(line) for line in lines if at_edge(line))
    needed = max(2, _RUNNING_SHARE * pages)
    return [line for line in lines if not (at_edge(line) and (counts[key(line)] >= needed and pages > 1
                                                               or _PAGE_NUMBER.match(line.plain())))]


def _markdown(lines: list[_Line]) -> MarkdownLines:
    md = MarkdownLines()
    if not lines:
        return md
    sizes = Counter()
    for line in lines:
        sizes[line.size] += len(line.chars)
    body = sizes.most_common(1)[0][0]
    margin = min(line.x0 for line in lines)
    gaps = Counter(round(b.top - a.bottom) for a, b in pairwise(lines) if a.page == b.page and b.top > a.bottom)
    usual_gap = gaps.most_common(1)[0][0] if gaps else body * 0.3
    prev: _Line | None = None
    texts: list[tuple[str, _Line]] = []
    lines = [part for line in lines for part in _split_heading(line, body)]
    for line in lines:
        text = normalise_ligatures(_join(line.chars, styled=True)).strip()
        plain = normalise_ligatures(line.plain()).strip()
        heading = _heading_level(line, plain, body, margin)
        if heading:
            texts.append(("\0" + "#" * heading + " " + _NUMBERING.sub("", plain), line))
        else:
            new_entry = prev is None or _MARKER.match(plain) or (
                prev.page == line.page and line.top - prev.bottom > usual_gap + 0.45 * body)
            texts.append((("\0" if new_entry else "") + _BULLET.sub("- ", text), line))
        prev = line
    _join_hyphenated(texts)
    for text, line in texts:
        origin = Origin(place=f"page {line.page}")
        if text.startswith("\0"):
            md.blank()
            text = text[1:]
            md.add(text, origin)
            if text.startswith("#"):
                md.blank()
        elif text:
            md.add(text, origin)
    return md


def _split_heading(line: _Line, body: float) -> list[_Line]:
    """A line that opens with bold text in a larger font and goes on in a smaller one (a section
    title with a note beside it) as two lines."""
    first = line.chars[0]
    if not (first.bold and first.size >= 1.15 * body):
        return [line]
    cut = next((i for i, c in enumerate(line.chars) if c.text.strip() and c.size < first.size - 0.5), None)
    if cut is None or cut < 3:
        return [line]
    return [_Line(line.chars[:cut], line.page, line.page_height), _Line(line.chars[cut:], line.page, line.page_height)]


def _heading_level(line: _Line, plain: str, body: float, margin: float) -> int:
    words = plain.split()
    if not words or len(words) > 12 or plain.endswith((".", ",", ";")):
        return 0
    if line.size >= 1.6 * body:
        return 1
    letters = [ch for ch in plain if ch.isalpha()]
    capitals = len(letters) >= 4 and all(ch.isupper() for ch in letters) and len(words) <= 8
    bold = all(c.bold for c in line.chars if c.text.strip()) and len(words) <= 8
    if line.size >= 1.15 * body and (bold or capitals):
        return 2
    at_margin = line.x0 <= margin + 2
    if at_margin and (capitals or bold and len(words) <= 6 and not re.search(r"\d", plain)):
        return 3
    return 0


def _join_hyphenated(texts: list[tuple[str, _Line]]) -> None:
    """A word split at a line end by a hyphen ("manage-" / "ment") is joined on the first line;
    bold or italics running on over a line end is one run ("*A long*" / "*title*")."""
    for i in range(len(texts) - 1):
        text, following = texts[i][0], texts[i + 1][0]
        for mark in ("***", "**", "*"):
            if text.endswith(mark) and following.startswith(mark) and not following.startswith(mark + "*") \
                    and not text.endswith("*" + mark):
                texts[i] = (text[: -len(mark)], texts[i][1])
                texts[i + 1] = (following[len(mark):], texts[i + 1][1])
                break
    for i in range(len(texts) - 1):
        text, line = texts[i]
        following, next_line = texts[i + 1]
        if following.startswith("\0") or not re.search(r"[a-z]-$|\u00ad$", text):
            continue
        word, _, rest = following.partition(" ")
        if word[:1].islower():
            texts[i] = (text[:-1] + word, line)
            texts[i + 1] = (rest, next_line)


if __name__ == "__main__":
    sys.exit(print_converted(convert, sys.argv[1:]))
