"""A big build's ``kg.trig``, ``kg.ttl`` and ``kg.jsonld``, begun as soon as what each is written from is whole.

``kg.trig`` is written from the sources' N-Quads, whole once the first half has mapped the documents;
``kg.ttl`` and ``kg.jsonld`` from the merged view's N-Triples, whole soon after (the first half renames
each file when whole: :func:`kg.store_load.mark_whole`). Their process yields the cores to the rest
(:class:`kg.child.Spawned`), so begun then it writes in the moments the first half and the store's load
leave a core idle, instead of after the first half, when the build's last seconds left one idle while it
wrote alone.
"""

from __future__ import annotations

import os
import threading
from functools import partial
from pathlib import Path
from time import sleep

from kg.child import Spawned
from kg.rdf.serialize import write_files

#: How often a file is looked for.
POLL = 0.05


class ParentGone(RuntimeError):
    """The build that started this process has ended: nothing will make the file whole."""


def wait_whole(path: Path, parent: int, poll: float = POLL) -> None:
    """Wait until *path* exists (it is renamed there when whole), while the process *parent* lives."""
    while not path.exists():
        if os.getppid() != parent:
            raise ParentGone(f"{path.name} was not finished: the build stopped")
        sleep(poll)


def write_files_when_whole(nquads: Path, ntriples: Path, folder: Path, parent: int) -> list[tuple[str, float]]:
    """:func:`kg.rdf.serialize.write_files`, each file begun once what it is written from is whole."""
    return write_files(nquads, ntriples, folder, wait=partial(wait_whole, parent=parent))


class EarlyFiles:
    """Waits on a thread for the sources' N-Quads (*nquads*) to be whole and, where they hold at least
    *least* bytes (a big graph's), starts the process that writes the three files into *folder*;
    :meth:`take` gives that process (or None), :meth:`cancel` stops both."""

    def __init__(self, nquads: Path, ntriples: Path, folder: Path, least: int) -> None:
        self.nquads, self.ntriples, self.folder, self.least = nquads, ntriples, folder, least
        self._stopped = threading.Event()
        self._lock = threading.Lock()
        self._process: Spawned | None = None
        self._thread = threading.Thread(target=self._wait, name="kg-early-files", daemon=True)
        self._thread.start()

    def _wait(self) -> None:
        while not self.nquads.exists():
            if self._stopped.wait(POLL):
                return
        if self.nquads.stat().st_size < self.least:
            return
        with self._lock:
            if not self._stopped.is_set():
                self._process = Spawned(yielding=True)
                self._process.start(write_files_when_whole, self.nquads, self.ntriples, self.folder, os.getpid())

    def take(self) -> Spawned | None:
        """The process writing the files, if one was started (None: the caller writes them); no process
        starts after this."""
        with self._lock:
            self._stopped.set()
        self._thread.join()
        process, self._process = self._process, None
        return process

    def cancel(self) -> None:
        """Stop waiting, and stop the process if one runs; twice is harmless."""
        process = self.take()
        if process is not None:
            process.cancel()
