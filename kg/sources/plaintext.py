"""Reader for markdown and plain-text documents: CVs, publication lists, thesis records."""

from __future__ import annotations

import re

from kg.records import Document, Skip, Span
from kg.sources.cv import looks_like_cv, read_cv
from kg.sources.decode import decode_text
from kg.sources.entries import split_entries
from kg.sources.headings import section_title_kind
from kg.sources.layout import Section, split_sections
from kg.sources.publications import work_of
from kg.sources.registry import Source
from kg.sources.repository_record import latest_metadata_date, looks_like_repository_record, read_repository_record
from kg.sources.sections import Context, find_dates

_FRONT_MATTER = re.compile(r"\A\ufeff?---[ \t]*\r?\n(.*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|\Z)", re.S)


def strip_front_matter(text: str) -> tuple[str, str | None]:
    """A markdown page without its YAML front matter (blank lines keep the line numbers), and the
    page's ``title`` from it.

    >>> strip_front_matter("---\\ntitle: Publications\\n---\\nText")
    ('\\n\\n\\nText', 'Publications')
    """
    m = _FRONT_MATTER.match(text)
    if not m:
        return text, None
    title = re.search(r"^title:\s*[\"']?(.*?)[\"']?\s*$", m.group(1), re.M)
    return "\n" * m.group(0).count("\n") + text[m.end():], (title.group(1).strip() if title else None)


def looks_like_publication_list(text: str, sections: list[Section] | None = None) -> bool:
    """A page without CV sections that is a list of references: most of its entries read as works
    with authors. *sections*: ``split_sections(text, "publications")`` where the caller has it."""
    section = (split_sections(text, "publications") if sections is None else sections)[0]
    entries, _ = split_entries(section.items)
    if len(entries) < 2:
        return False
    trial = Context("")
    works = [w for w in (work_of(e, trial) for e in entries[:40]) if w and w.authors]
    return len(works) >= 0.6 * min(len(entries), 40)


def read(source: Source) -> Document:
    """Read a markdown or text document: a thesis record, or a CV or publication list."""
    doc = Document(path=source.name, format="unknown", sha256="", subject=None)
    text, doc.skipped = decode_text(source.data, source.name)
    return read_text(text, doc)


def _read_cv_or_list(text: str, page_title: str | None, doc: Document, ctx: Context) -> bool:
    """Fill *doc* from a CV or a publication list; False when *text* is neither. Each layout is
    split into sections once: the reading that decides what the text is hands them on."""
    sections = split_sections(text)
    if looks_like_cv(text, sections):
        doc.subject, doc.facts, doc.format = read_cv(text, doc.path, ctx, sections=sections)
        return True
    sections = split_sections(text, "publications")
    if section_title_kind(page_title or "") == "publications" or looks_like_publication_list(text, sections):
        doc.subject, doc.facts, doc.format = read_cv(text, doc.path, ctx, first="publications", sections=sections)
        doc.format = doc.format.replace("-cv", "-publication-list")
        return True
    return False


def read_text(text: str, doc: Document) -> Document:
    """Fill *doc* from *text* (markdown or plain text); converters of PDF, DOCX, LaTeX and
    HTML hand their text here too."""
    name = doc.path
    ctx = Context(name)
    text, page_title = strip_front_matter(text)
    if looks_like_repository_record(text):
        doc.subject, doc.facts, doc.format = read_repository_record(text, name, ctx)
        doc.latest_date = latest_metadata_date(text)
    elif not _read_cv_or_list(text, page_title, doc, ctx):
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
