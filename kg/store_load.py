"""The build's store, loaded on a thread of its own beside the rest of the build.

The sources' N-Quads are two thirds of the store's load (at 1,000 CVs 20 of 30 CPU-seconds), and
the first half writes them while it maps the documents, on one core. So where memory allows, the
load follows that file as it grows (:class:`GrowingFile`) on the core the mapping leaves, then loads
the merged view and the ontology as soon as the first half has written the merged view whole (it
renames the file then, as it does the sources'), while the first half goes on with the tables and
the validation, which the load does not need. (On two cores, which the build keeps busy from the
mapping on, that order measured the same as loading it after the first half: 5,000 CVs in 530.6 s
against 533.1 s.) Either way the store holds the same quads: the loads run one after another, in
the same order. (Loading the merged view on a second thread as soon as it is whole, beside the
sources' load, measured the same too: at 1,000 CVs 66.3-68.2 s against 67.2-67.6 s, alternating,
with 0.4 GiB more; on two cores the first half then waits for the cores instead.)
"""

from __future__ import annotations

import io
import os
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

from kg.memory import resident_memory, room_for_the_store_load
from kg.store import create_store, load_rest, load_sources

if TYPE_CHECKING:
    import pyoxigraph

    from kg.progress import Stopwatch

#: The suffix of a file the store loads (the sources' N-Quads, the merged view's N-Triples) while the
#: first half writes it; renamed without it when whole.
WRITING = ".part"


def writing_path(path: Path) -> Path:
    """Where the first half writes *path* (the sources' N-Quads or the merged view's N-Triples) until
    it is whole (:func:`mark_whole`)."""
    return path.with_name(path.name + WRITING)


class WriterStopped(OSError):
    """The file's writer stopped before it finished the file."""


class GrowingFile(io.RawIOBase):
    """The file *complete* that another process writes as *complete* + :data:`WRITING` and renames
    when done, read to its end as it is written: at the end of what is written so far, a read waits
    for more, for the rename (the end of the file), or for *stopped* (then it raises
    :class:`WriterStopped`).

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> (folder / "a.nq.part").write_bytes(b"line one\\n")
    9
    >>> growing = GrowingFile(folder / "a.nq", threading.Event())
    >>> growing.read(100)
    b'line one\\n'
    >>> with open(folder / "a.nq.part", "ab") as writer:
    ...     _ = writer.write(b"line two\\n")
    >>> os.replace(folder / "a.nq.part", folder / "a.nq")  # the writer is done
    >>> growing.read(100), growing.read(100)
    (b'line two\\n', b'')
    """

    def __init__(self, complete: Path, stopped: threading.Event, poll: float = 0.02) -> None:
        super().__init__()
        self.complete, self.writing = complete, writing_path(complete)
        self.stopped, self.poll = stopped, poll
        self._file: io.FileIO | None = None
        self._whole = False  # renamed: what is left to read is the rest of the file

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        while True:
            if self._file is None:
                self._file = self._open()
            if self._file is not None:
                n = self._file.readinto(buffer)
                if n or self._whole:
                    return n or 0
                # renamed after its last write: one more read takes what came before the rename
                self._whole = self.complete.exists()
                if self._whole:
                    continue
            if self.stopped.wait(self.poll):
                raise WriterStopped(f"{self.complete.name} was not finished: the build's first half stopped")

    def _open(self) -> io.FileIO | None:
        for path in (self.writing, self.complete):  # renamed in between: the whole file
            try:
                return io.FileIO(path, "r")  # unbuffered: the reader wraps this file in a buffer of its own
            except FileNotFoundError:
                continue
        return None

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
        super().close()


class StoreLoad:
    """The store at *path* loaded on a thread: :meth:`follow` starts loading the sources' N-Quads
    (*sources*) as they are written, then the merged view (*merged*) once it is whole; :meth:`finish`
    loads what was not loaded yet and gives the store; :meth:`abandon` stops, where the first half failed."""

    def __init__(self, path: Path, sources: Path, merged: Path, clock: Stopwatch) -> None:
        self.path, self.sources, self.merged, self.clock = path, sources, merged, clock
        self._pool = ThreadPoolExecutor(1)
        self._stopped = threading.Event()
        self._following: Future[None] | None = None
        self._sources_loaded = self._rest_loaded = False
        self.store: pyoxigraph.Store | None = None

    def follow(self, memory_limit: int | None, writer_pid: int | None) -> None:
        """Load the sources while the process *writer_pid* writes them, if, once it begins to, there
        is room for the load beside it (:func:`kg.memory.room_for_the_store_load`); then the merged
        view, as soon as it is whole."""
        self._following = self._pool.submit(self._follow, memory_limit, writer_pid)

    def _follow(self, memory_limit: int | None, writer_pid: int | None) -> None:
        if not self._appeared(writing_path(self.sources), self.sources):  # written after reading and identity
            return
        writer = resident_memory(writer_pid) if writer_pid is not None else None
        if not room_for_the_store_load(memory_limit, writer):
            return
        with GrowingFile(self.sources, self._stopped) as growing, io.BufferedReader(growing, 1 << 20) as buffered:
            self.clock.timed("store load of the sources, as they were written",
                             lambda: load_sources(self._store(), buffered))
        self._sources_loaded = True
        if self._appeared(self.merged):  # renamed when whole
            self.clock.timed("store load of the merged view, once written", self._load_rest)

    def _appeared(self, *paths: Path) -> bool:
        """Whether one of *paths* exists, waited for until one does; False once the load is abandoned."""
        while not any(p.exists() for p in paths):
            if self._stopped.wait(0.05):
                return False
        return True

    def _load_rest(self) -> None:
        load_rest(self._store(), self.merged, self.clock)
        self._rest_loaded = True

    def _store(self) -> pyoxigraph.Store:
        if self.store is None:
            self.store = create_store(self.path)
        return self.store

    def finish(self) -> Future[pyoxigraph.Store]:
        """The store, once loaded; the rest of the load, once the first half wrote the sources' N-Quads
        and the merged view (on the load's thread: after what :meth:`follow` loads)."""
        return self._pool.submit(self._finish)

    def _finish(self) -> pyoxigraph.Store:
        if self._following is not None:
            self._following.result()
        if not self._sources_loaded:
            self.clock.timed("store load of the sources", lambda: load_sources(self._store(), self.sources))
        if not self._rest_loaded:
            self.clock.timed("store load of the merged view", self._load_rest)
        return self._store()

    def abandon(self) -> None:
        """Stop following (the first half failed) and wait for the thread, so that the folder can go."""
        self._stopped.set()
        self._pool.shutdown(wait=True, cancel_futures=True)
        self.store = None


def mark_whole(path: Path) -> None:
    """The first half's word that the sources' N-Quads or the merged view's N-Triples, written to
    :func:`writing_path`, are whole."""
    os.replace(writing_path(path), path)
