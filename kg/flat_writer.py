"""A big build's flat RDF files (TriG, Turtle, JSON-LD) written in a process of their own, beside the
store's load and the rest of the build, from the sources' N-Quads and the merged view's N-Triples
the first half writes.

The process begins as soon as both files are whole (the first half renames each when it is), while
the first half still validates and writes the tables, and gives way to the store's load
(:func:`kg.child.give_way`): from the mapping on the build keeps both cores busy, and the load is its
longest line. At 1,000 CVs the three files take some 20 CPU-seconds; begun once the first half had
ended, they were the build's last step when the load was given the cores first.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from kg.child import Spawned, give_way
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
    """:func:`kg.rdf.serialize.write_files` begun in a process of its own that gives way to the store's
    load; its ``result()`` is each file's name with the seconds it took."""
    files = Spawned()
    files.start(_write_files_giving_way, nquads, ntriples, folder)
    return files


def _write_files_giving_way(nquads: Path, ntriples: Path, folder: Path) -> list[tuple[str, float]]:
    give_way()
    return write_files(nquads, ntriples, folder)
