"""When the build's first half writes ``identity.json``, so that its writing holds nothing up.

Identity resolves the people first, on one core, and then the venues, organizations and works, which
read the people; the other core waits meanwhile. The people's decisions are almost all of the file
(at 1,000 CVs 329,000 of 332,000, 1.9 s to write), can all be made by then (from the people's clusters:
:class:`kg.identity.people.PeopleDecisions`, 1.5 s more) and nothing but this file reads them, and the
file lists them first (:data:`kg.identity.decisions.KINDS`). So a big build makes and writes them in a
fork of the first half on that core while identity goes on, and appends the rest once the fork is done,
at a step of the mapping: the mapping, and the store's load that follows it, begin without them. The
fork copies what it writes, though (Python's reference counts write to every object it reads), so it
writes only up to :data:`FORK_MAX_DECISIONS`. Where it may not, or no fork fits
(:func:`kg.memory.room_for_a_copy`) or no core is left, identity makes them itself, and a big build
writes the whole file a piece at a time while it maps (:mod:`kg.paced`), a small one before the
mapping. Each way gives the same bytes.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from kg.child import Child, child_where_room
from kg.identity.decisions import append_decisions, decision_pieces, decisions_json, write_decisions
from kg.paced import PacedFile

if TYPE_CHECKING:
    from kg.identity.decisions import Decision
    from kg.identity.people import PeopleDecisions
    from kg.identity.resolution import Resolution
    from kg.progress import Stopwatch

#: From this many cores on, the people's decisions are written in a fork while identity goes on: it
#: leaves every core but one idle.
FORK_BESIDE_IDENTITY_FROM_CORES = 2
#: The most decisions the fork writes. It copies about a kibibyte a decision: at 1,000 CVs (329,000) the
#: build's processes together held 1.01 GiB at their peak against 0.74 GiB, at 10,000 CVs (3.3 million)
#: 8.43 GiB against 5.46 GiB (the issue asks for 6 at most); the mapping took 2 s less at 1,000 CVs.
FORK_MAX_DECISIONS = 1_000_000


class IdentityFile:
    """``identity.json`` at *path*: :meth:`people_resolved` (given to :func:`kg.identity.resolve.resolve`)
    makes and writes the people's decisions in a fork, for more than *small* of them (and at most
    :data:`FORK_MAX_DECISIONS`) where *fork_fits*; :meth:`resolved` writes the whole file, or readies
    the rest of it, which the mapping's steps (:meth:`step`, then :meth:`finish`) write: the pieces of
    a :class:`PacedFile` as they are due, or the decisions after the fork's once the fork is done (the
    mapping does not wait for it: at 1,000 CVs the first half waited 0.3-4.1 s for it after identity);
    :meth:`close` ends the fork and the file after an error."""

    def __init__(self, path: Path, small: int, fork_fits) -> None:
        self.path, self.small, self.fork_fits = path, small, fork_fits
        self.people: PeopleDecisions | None = None  # what the fork makes the people's decisions from
        self.child: Child | None = None
        self.paced: PacedFile | None = None
        self.rest: list[Decision] | None = None  # the decisions after the fork's, once identity is done
        #: what the mapping's steps write beside it, for the name of its stage
        self.beside_mapping = ""

    def people_resolved(self, res: Resolution, people: PeopleDecisions) -> None:
        """Make the *people*'s decisions: in a fork that writes them, for more than *small* of them (and
        at most :data:`FORK_MAX_DECISIONS`) where one fits, else here, into ``res.decisions``."""
        if self.small < len(people) <= FORK_MAX_DECISIONS:
            self.child = child_where_room(self.fork_fits, FORK_BESIDE_IDENTITY_FROM_CORES)
        if self.child is not None:
            # what they are made from is kept here until the fork is done: objects freed meanwhile
            # would have their pages copied
            self.people = people
            self.child.start(_make_and_write, people, self.path)
        else:
            people.make(res.decisions)

    def resolved(self, res: Resolution, steps: int, clock: Stopwatch) -> None:
        """After identity: the file written, or what is left of it readied for the mapping's *steps* steps."""
        if self.child is not None:
            self.rest = res.decisions
            self.beside_mapping = ", with the rest of identity.json once its fork is done"
        elif len(res.decisions) > self.small:
            self.paced = PacedFile(decisions_json(res.decisions), decision_pieces(len(res.decisions)),
                                   self.path, steps=steps)
            self.beside_mapping = ", with identity.json beside them"
        else:
            write_decisions(res.decisions, self.path)
            clock.lap("identity.json")

    def step(self, done: int) -> None:
        """*done* of the mapping's steps are done: write what is due by now."""
        if self.paced is not None:
            self.paced.step(done)
        elif self.child is not None and self.child.ready():
            self._append_rest()

    def finish(self) -> None:
        """The mapping is done: write what is left (once the fork is done, where one runs)."""
        if self.paced is not None:
            self.paced.finish()
        elif self.child is not None:
            self._append_rest()

    def _append_rest(self) -> None:
        assert self.child is not None and self.rest is not None
        written = self.child.result()
        self.child = self.people = None  # on disk now
        append_decisions(self.rest, self.path, after=written)
        self.rest = None

    def close(self) -> None:
        """Stop the fork if it still runs, and close the paced file, written or not (after an error)."""
        if self.child is not None:
            self.child.cancel()
            self.child = None
        if self.paced is not None:
            self.paced.close()


def _make_and_write(people: PeopleDecisions, path: Path) -> int:
    """In the fork: the people's decisions made and written, the list left open; how many."""
    return write_decisions(people.make([]), path, ends=False)
