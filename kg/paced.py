"""A file written a piece at a time while other work goes on in steps, so that the work is not held up.

The build's first half writes ``identity.json`` this way while it maps the documents: written whole
before the mapping, it held up the sources' N-Quads, and with them the store's load, which follows
them on the other core (at 10,000 CVs 27 s with that core idle).

>>> import pathlib, shutil, tempfile
>>> folder = pathlib.Path(tempfile.mkdtemp()); path = folder / "out.txt"
>>> paced = PacedFile(["a", "b", "c", "d"], 4, path, steps=10, lead=0.2)
>>> paced.step(2), path.stat().st_size  # within the lead: nothing yet (and nothing flushed)
(0, 0)
>>> paced.step(6), paced.step(10)  # then evenly over the other eight steps
(2, 4)
>>> paced.finish(); path.read_text()
'abcd'
>>> short = PacedFile(["a", "b"], 5, path, steps=2, lead=0)  # fewer pieces than counted: all written
>>> short.step(2), short.finish(), path.read_text()
(2, None, 'ab')
>>> shutil.rmtree(folder)
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

#: The share of the steps done before the first piece: the work's own output gets ahead of the first
#: piece, which may take longest (identity.json's sorts its decisions).
LEAD = 0.1


class PacedFile:
    """*count* pieces of text from *pieces*, written into *path* over *steps* steps of other work."""

    def __init__(self, pieces: Iterable[str], count: int, path: Path, steps: int, lead: float = LEAD):
        self._pieces = iter(pieces)
        self._count, self._steps, self._first = count, steps, int(steps * lead)
        self._written = 0
        self._out = open(path, "w", encoding="utf-8")

    def step(self, done: int) -> int:
        """*done* of the steps are done: write the pieces due by now; how many are written."""
        if done > self._first:
            due = -(-self._count * (done - self._first) // max(1, self._steps - self._first))
            while self._written < min(due, self._count) and self._write_next():
                pass
        return self._written

    def finish(self) -> None:
        """Write the pieces left and close the file (*count* only paces: every piece is written)."""
        with self._out:
            self._out.writelines(self._pieces)

    def close(self) -> None:
        """Close the file, written or not (after an error: the file is not whole)."""
        self._out.close()

    def _write_next(self) -> bool:
        """Write the next piece; False where none is left."""
        piece = next(self._pieces, None)
        if piece is None:
            return False
        self._out.write(piece)
        self._written += 1
        return True
