"""A big build's flat RDF files (TriG, Turtle, JSON-LD) written in a process of their own, beside the
store's load and the rest of the build, from the sources' N-Quads and the merged view's N-Triples
the first half writes.

The process begins as soon as both files are whole (the first half renames each when it is), while
the first half still validates and writes the tables, rather than once the first half has ended: where
a core is free, the files no longer wait for the tables. (On two cores, where the build keeps both
busy from the mapping on, the order changes nothing measurable: 1,000 CVs took 71.5-77.0 s either way.)
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from kg.child import Spawned
from kg.rdf.serialize import write_files

#: A merged view of at most this many bytes of N-Triples (some 20,000 triples) has its flat files
#: written by the build's own process (:func:`kg.build.write_outputs`), in milliseconds.
SMALL_FLAT_FILES = 4 * 2**20


def flat_files_once_whole(nquads: Path, ntriples: Path, folder: Path,
                          writer_ended: Callable[[float], bool]) -> Spawned | None:
    """The flat files' process (:func:`start_flat_files`), begun once *ntriples* exists (renamed when
    whole, after *nquads*); None where the writer of both ended first (``writer_ended(timeout)``, which
    waits up to *timeout* seconds, says so) or *ntriples* is at most :data:`SMALL_FLAT_FILES` bytes."""
    while not ntriples.exists():
        if writer_ended(0.05):
            return None
    if ntriples.stat().st_size <= SMALL_FLAT_FILES:
        return None
    return start_flat_files(nquads, ntriples, folder)


def start_flat_files(nquads: Path, ntriples: Path, folder: Path) -> Spawned:
    """:func:`kg.rdf.serialize.write_files` begun in a process of its own; its ``result()`` is each
    file's name with the seconds it took."""
    files = Spawned()
    files.start(write_files, nquads, ntriples, folder)
    return files
