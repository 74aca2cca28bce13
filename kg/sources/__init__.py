"""Readers: one module per source format, listed once in :mod:`kg.sources.registry`.

:func:`find_sources` walks a data folder and pairs each document with its reader;
:func:`read_source` reads one and never raises for a bad document: what cannot be read
comes back in ``Document.skipped`` with file, place and reason.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from kg.records import Document, Skip, Span
from kg.sources.registry import READERS, SNIFF_BYTES, Reader, Source, SourceFile, known_suffixes, readers_for

#: Documents larger than this are skipped with a message: no CV or publication list is near it.
MAX_DOCUMENT_BYTES = 20 * 1024 * 1024

__all__ = ["READERS", "Reader", "Source", "SourceFile", "FoundSource", "find_sources", "read_source", "read_path",
           "read_document", "MAX_DOCUMENT_BYTES"]


@dataclass(frozen=True)
class FoundSource:
    """A document found in a data folder and the reader that will read it."""

    source: Source
    reader: Reader


def find_sources(root: str | Path, *, one_collection: bool = False,
                 exclude: tuple[str, ...] = ()) -> tuple[list[FoundSource], list[Skip]]:
    """The documents under *root* in a stable order, each with its reader, and what was passed over.

    Files of a ``collection`` reader (front-matter pages of a site) are read as one document
    per folder directly under *root* (or, with *one_collection*, one for all of *root*).
    Hidden files and the relative names in *exclude* are not documents; every other file that no reader
    takes is reported.
    """
    root = Path(root)
    found: list[FoundSource] = []
    skipped: list[Skip] = []
    collections: dict[tuple[str, str], list[SourceFile]] = {}
    for path, rel in _walk(root, skipped):
        if rel in exclude:
            continue
        result = _source_of(path, rel)
        if isinstance(result, Skip):
            skipped.append(result)
        elif result.reader.collection:
            group = root.name if one_collection or "/" not in rel else rel.split("/", 1)[0]
            collections.setdefault((group, result.reader.name), []).append(result.source.files[0])
        else:
            found.append(result)
    by_name = {r.name: r for r in READERS}
    for (group, reader_name), files in sorted(collections.items()):
        name = files[0].name if len(files) == 1 and "/" not in files[0].name else group
        found.append(FoundSource(Source(name, tuple(files)), by_name[reader_name]))
    found.sort(key=lambda f: f.source.name)
    return found, skipped


def _source_of(path: Path, rel: str) -> FoundSource | Skip:
    """The file at *path* (named *rel*) with its reader, or why it cannot be read."""
    try:
        size = path.stat().st_size
        if size > MAX_DOCUMENT_BYTES:
            return Skip(Span(rel, 1, 1), f"{size >> 20} MiB is over the {MAX_DOCUMENT_BYTES >> 20} MiB a document "
                                         "may have; split it or convert it to text")
        data = path.read_bytes()
    except OSError as err:
        return Skip(Span(rel, 1, 1), f"cannot read the file ({err.strerror or err}); check its permissions")
    readers = readers_for(rel, data[:SNIFF_BYTES])
    if not readers:
        return Skip(Span(rel, 1, 1), _no_reader_reason(rel))
    return FoundSource(Source.single(rel, data), readers[0])


def _walk(root: Path, skipped: list[Skip]):
    """(path, relative name) of the files under *root*, sorted; unreadable folders, links that
    loop and special files are reported, not dropped silently."""
    def on_error(err: OSError):
        rel = Path(err.filename).relative_to(root).as_posix() if err.filename else str(root)
        skipped.append(Skip(Span(rel, 1, 1), f"cannot read the folder ({err.strerror or err}); check its permissions"))

    seen_dirs = set()
    entries = []
    for folder, dirs, files in os.walk(root, onerror=on_error, followlinks=True):
        real = os.path.realpath(folder)
        rel_folder = Path(folder).relative_to(root).as_posix()
        if real in seen_dirs:
            skipped.append(Skip(Span(rel_folder, 1, 1), "a link to a folder already read (a loop); not read again"))
            dirs[:] = []
            continue
        seen_dirs.add(real)
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for file in files:
            if file.startswith("."):
                continue
            path = Path(folder) / file
            rel = path.relative_to(root).as_posix()
            if not path.is_file():
                skipped.append(Skip(Span(rel, 1, 1), "not a regular file (a socket, FIFO or broken link); not read"))
                continue
            entries.append((path, rel))
    return sorted(entries, key=lambda e: e[1])


def _no_reader_reason(rel: str) -> str:
    suffix = Path(rel).suffix.lower()
    if suffix in known_suffixes():
        return (f"no reader recognises this '{suffix}' file's content; check that it is what its name says "
                "(`kg read FILE` shows what kg gets from a document)")
    return (f"no reader for '{suffix or Path(rel).name}' files (kg reads {', '.join(known_suffixes())}); "
            "convert it to one of these")


def read_source(found: FoundSource) -> Document:
    """Read one found document; a reader's failure becomes a skip naming the document, never an exception."""
    source, reader = found.source, found.reader
    digest = hashlib.sha256(source.data) if len(source.files) == 1 else hashlib.sha256()
    if len(source.files) > 1:  # a collection: its files' names and bytes, in order
        for f in source.files:
            digest.update(f.name.encode() + b"\0" + f.data + b"\0")
    if all(not f.data.strip() for f in source.files):
        doc = Document(path=source.name, format=reader.name, sha256=digest.hexdigest(), subject=None)
        doc.skipped.append(Skip(Span(source.name, 1, 1), "the document is empty; remove it or add content"))
        return doc
    try:
        doc = reader.read(source)
    except RecursionError:
        doc = Document(path=source.name, format=reader.name, sha256="", subject=None)
        doc.skipped.append(Skip(Span(source.name, 1, 1), f"nested too deeply to read as {reader.name}; not read"))
    except Exception as err:  # noqa: BLE001 - one bad document must not stop a build; the skip names it
        doc = Document(path=source.name, format=reader.name, sha256="", subject=None)
        doc.skipped.append(Skip(Span(source.name, 1, 1),
                                f"could not be read as {reader.name} ({type(err).__name__}: {str(err)[:200]}); "
                                "check the file, or report it if it opens elsewhere"))
    doc.path = source.name
    doc.sha256 = digest.hexdigest()
    return doc


def read_document(path: str | Path, name: str | None = None) -> Document:
    """Read the one document at *path*; *name* is how provenance names it (default: the file name)."""
    path = Path(path)
    result = _source_of(path, name or path.name)
    if isinstance(result, Skip):
        return Document(path=name or path.name, format="none", sha256="", subject=None, skipped=[result])
    return read_source(result)


def read_path(path: str | Path) -> list[Document]:
    """Read a file, or every document under a folder (a site's front-matter pages as one), for ``kg read``."""
    path = Path(path)
    if path.is_dir():
        found, skipped = find_sources(path, one_collection=True)
    else:
        return [read_document(path)]
    docs = [read_source(f) for f in found]
    if skipped:
        docs.append(Document(path=path.name, format="none", sha256="", subject=None, skipped=skipped))
    return docs
