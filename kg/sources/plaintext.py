"""Reader for markdown and plain-text documents: CVs, publication lists, thesis records."""

from __future__ import annotations

from kg.records import Document, Skip, Span
from kg.sources.cv import looks_like_cv, read_cv
from kg.sources.decode import decode_text
from kg.sources.registry import Source
from kg.sources.repository_record import latest_metadata_date, looks_like_repository_record, read_repository_record
from kg.sources.sections import Context, find_dates


def read(source: Source) -> Document:
    """Read a markdown or text document: a thesis record, or a CV or publication list."""
    doc = Document(path=source.name, format="unknown", sha256="", subject=None)
    text, doc.skipped = decode_text(source.data, source.name)
    return read_text(text, doc)


def _blank_front_matter(text: str) -> str:
    """A leading YAML front-matter block (``---`` ... ``---``: a site's page settings) as blank lines,
    so that line numbers stay right."""
    if not text.startswith("---"):
        return text
    from kg.sources.frontmatter import front_matter

    found = front_matter(text)
    if found is None:
        return text
    close_line = found[1]
    return "\n" * close_line + text.split("\n", close_line)[close_line] if text.count("\n") >= close_line else ""


def read_text(text: str, doc: Document) -> Document:
    """Fill *doc* from *text* (markdown or plain text); converters of PDF, DOCX, LaTeX and
    HTML hand their text here too."""
    name = doc.path
    ctx = Context(name)
    text = _blank_front_matter(text)
    if looks_like_repository_record(text):
        doc.subject, doc.facts, doc.format = read_repository_record(text, name, ctx)
        doc.latest_date = latest_metadata_date(text)
    elif looks_like_cv(text):
        doc.subject, doc.facts, doc.format = read_cv(text, name, ctx)
    else:
        lines = text.count("\n") + 1
        doc.skipped.append(Skip(Span(name, 1, lines),
                                "not a recognised document: a CV needs headed sections such as Education and "
                                "Publications, a publication list a Publications heading, and a thesis record a "
                                "line like 'PhD thesis, University of X.'"))
        return doc
    dates = find_dates(text)
    doc.latest_date = doc.latest_date or (max(dates) if dates else None)
    doc.skipped += ctx.skipped
    return doc
