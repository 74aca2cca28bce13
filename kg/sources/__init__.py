"""Readers: one per source format. Each turns a document into plain records with provenance.

``read_document`` picks the reader by content, not by file name, and never raises for
a bad document: what cannot be read comes back in ``Document.skipped`` with file,
line and reason.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from kg.records import Document, Skip, Span
from kg.sources.cv import looks_like_cv, read_cv
from kg.sources.repository_record import latest_metadata_date, looks_like_repository_record, read_repository_record
from kg.sources.sections import Context, find_dates

#: File name suffixes the build reads from a data folder; others are reported as skipped.
DOCUMENT_SUFFIXES = (".md", ".markdown", ".txt", ".text")


def read_document(path: str | Path, name: str | None = None) -> Document:
    """Read one document into records.

    Parameters
    ----------
    path : path of the file.
    name : how provenance names the document (default: the file name).
    """
    path = Path(path)
    name = name or path.name
    data = path.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    doc = Document(path=name, format="unknown", sha256=digest, subject=None)
    if not data.strip():
        doc.skipped.append(Skip(Span(name, 1, 1), "the document is empty; remove it or add content"))
        return doc
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        doc.skipped.append(Skip(Span(name, line, line),
                                f"not UTF-8 text (byte 0x{data[err.start]:02x} at offset {err.start}); "
                                "save the document as UTF-8"))
        return doc
    if "\x00" in text:
        doc.skipped.append(Skip(Span(name, 1, 1), "binary data, not text; convert it to markdown or plain text"))
        return doc
    ctx = Context(name)
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
