"""Text converted from another format (PDF, DOCX, HTML, LaTeX), handed to the free-text reader.

Converters build markdown-like text line by line, each line with the place in the original it
came from (:class:`Origin`). :func:`read_converted` gives the text to
:func:`kg.sources.plaintext.read_text` and then points every span of what it read back at the
original: a source line where the original has lines (HTML, LaTeX), else a page or paragraph.

>>> md = MarkdownLines()
>>> md.add("# Publications", Origin(place="page 1"))
>>> md.blank(); md.blank()
>>> md.add("- J. Doe. A title.\\n  Venue, 2020.", Origin(line=7))
>>> md.text()
'# Publications\\n\\n- J. Doe. A title.\\n  Venue, 2020.\\n'
>>> md.origins[3]
Origin(line=7, place=None)
"""

from __future__ import annotations

import dataclasses
import re
import sys
import unicodedata
from dataclasses import dataclass

from kg.records import Document, Profile, Skip, Span

# Typographic ligatures (U+FB00-FB06) that PDF and DOCX text carries; NFKC turns each into letters.
_LIGATURES = re.compile("[\ufb00-\ufb06]")


@dataclass(frozen=True)
class Origin:
    """Where a converted line came from: a line of the source file, and/or a place ("page 3")."""

    line: int | None = None
    place: str | None = None


class MarkdownLines:
    """Markdown-like text being built, one origin per line; runs of blank lines collapse to one."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.origins: list[Origin] = []

    def add(self, text: str, origin: Origin) -> None:
        """Append *text* (one or more lines) from *origin*; blank lines inside it collapse."""
        for line in text.split("\n"):
            if line.strip():
                self.lines.append(line.rstrip())
                self.origins.append(origin)
            else:
                self.blank()

    def blank(self) -> None:
        """End the paragraph or entry: one blank line, never two, none at the start."""
        if self.lines and self.lines[-1]:
            self.lines.append("")
            self.origins.append(self.origins[-1])

    def text(self) -> str:
        lines = self.lines[:-1] if self.lines and not self.lines[-1] else self.lines
        return "\n".join(lines) + "\n" if lines else ""

    def __bool__(self) -> bool:
        return any(line.strip() for line in self.lines)


def normalise_ligatures(text: str) -> str:
    """``"ﬁnal"`` -> ``"final"``; other characters are left as they are (NFKC on ligatures only).

    >>> normalise_ligatures("e\ufb03cient \u2020")
    'efficient \u2020'
    """
    return _LIGATURES.sub(lambda m: unicodedata.normalize("NFKC", m.group()), text)


def read_converted(md: MarkdownLines, doc: Document, fmt: str, how_to_see: str) -> Document:
    """Read *md* with the free-text reader into *doc* and point its spans back at the original.

    *fmt* names the format (``"pdf-cv"``); a skip over the whole text says *how_to_see* the
    converted text (``"python -m kg.sources.pdf FILE"``), since its lines are that text's lines.
    """
    from kg.sources.plaintext import read_text  # the free-text reader imports much; only when needed

    before = len(doc.skipped)
    read_text(md.text(), doc)
    doc.format = fmt
    for fact in doc.facts:
        if isinstance(getattr(fact, "span", None), Span):
            fact.span = _original_span(fact.span, md)
    if isinstance(doc.subject, Profile):
        doc.subject.span = _original_span(doc.subject.span, md)
    for i in range(before, len(doc.skipped)):
        skip = doc.skipped[i]
        reason = skip.reason
        if skip.span.last_line - skip.span.first_line > 20:
            reason += f" (the text kg made of this document: `{how_to_see}`)"
        doc.skipped[i] = Skip(_original_span(skip.span, md), reason)
    return doc


def read_with(source, fmt: str, convert) -> Document:
    """Read a one-file *source* that *convert* (``bytes -> (MarkdownLines, problem or None)``) turns
    into text for the free-text reader; a problem is the document's one skip."""
    doc = Document(path=source.name, format=fmt, sha256="", subject=None)
    md, problem = convert(source.data)
    if problem:
        doc.skipped.append(Skip(Span(source.name, 1, 1), problem))
        return doc
    return read_converted(md, doc, fmt, f"python -m {convert.__module__} {source.name}")


def _original_span(span: Span, md: MarkdownLines) -> Span:
    """*span* (lines of the converted text) as lines or places of the original document."""
    if not md.origins:
        return span
    first = md.origins[min(max(span.first_line, 1), len(md.origins)) - 1]
    last = md.origins[min(max(span.last_line, 1), len(md.origins)) - 1]
    if first.line is not None and last.line is not None:
        place = first.place if first.place == last.place else " to ".join(p for p in (first.place, last.place) if p)
        return dataclasses.replace(span, first_line=first.line, last_line=max(first.line, last.line),
                                   place=place or span.place)
    places = first.place if first.place == last.place else f"{first.place} to {last.place}"
    return dataclasses.replace(span, place=f"{places}, lines of the extracted text" if places else span.place)


def looks_binary(data: bytes) -> bool:
    """Bytes that are no text document: a NUL, or many control bytes, in the first 4 KiB.

    >>> looks_binary(b"<html>\\n<p>Hi</p>"), looks_binary(bytes(range(256)))
    (False, True)
    """
    head = data[:4096]
    controls = sum(1 for b in head if b < 32 and b not in (9, 10, 12, 13))
    return b"\0" in head or controls * 20 > len(head)


def print_converted(convert, argv: list[str]) -> int:
    """``python -m kg.sources.<format> FILE...``: the text *convert* makes of each file, or why it makes none."""
    for path in argv:
        with open(path, "rb") as f:
            md, problem = convert(f.read())
        sys.stdout.write(problem + "\n" if problem else md.text())
    return 0
