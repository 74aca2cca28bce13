"""Two people of one name in one list: a document that prints a name twice on one work.

A group's list that prints "Wei Li" twice among the authors of one of its own works (a work no
other document lists) holds two people of that name among its members, whatever else it prints.
The node of the name on that work (both people) joins neither: not the list's core, nor a shared
work's cluster. Its other mentions of the name are one of the two, and nothing in the list says which: the
document's core of that name is not one person to build on. It is kept as the document left it,
but it takes in nothing more on a name's word alone: a mention on a work other documents list too,
another form of the name in the list ("W. Li" beside "Wei Li"), another group's core of the name
(a person who moved), or the co-authors of a CV's owner. Each refusal is logged (``kg explain``)
and the people stay listed as possibly the same, joined by one curation line where a user knows.
On a work other documents list too, the second of the name is as often a guest of another group,
which proves nothing about the document's own members.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kg.identity.clusters import Cluster
from kg.identity.decisions import PendingDecision
from kg.identity.mentions import TWICE, Node

TWO_PEOPLE = "its document prints the name twice on one work: two people of that name, which one is unknown"


def two_people_of_a_name(nodes: list[Node], shared: set[int]) -> dict[tuple[str, tuple], str]:
    """The (document, key) of the names a document prints twice on one of its own works (*shared*:
    the nodes of works other documents list too, left out), each with the title key of such a work.

    >>> a, b = Node(0, "g.bib", ("li", "wei"), {"Wei Li": 2}, {"author", TWICE}), Node(1, "h.bib", ("li", "wei"))
    >>> b.roles = frozenset({TWICE})
    >>> a.titles = frozenset({"alpha"})
    >>> two_people_of_a_name([a, b], shared={1})
    {('g.bib', ('li', 'wei')): 'alpha'}
    """
    return {(n.document, n.key): min(n.titles, default="") for n in nodes if TWICE in n.roles and n.id not in shared}


class TwoPeople:
    """The checks of :class:`~kg.identity.evidence.Passes` for a name a document holds twice."""

    nodes: list[Node]
    log: list[PendingDecision]
    twice: dict[tuple[str, tuple], str]
    cl: Cluster

    if TYPE_CHECKING:
        def join(self, a: int, b: int, rule: str, evidence: str, force: bool = False) -> bool: ...

    def _two_people(self, core: int) -> bool:
        """Whether the document of *core* prints its name twice on one of its works."""
        return (self.nodes[core].document, self.nodes[core].key) in self.twice

    def _attach(self, core: int, root: int, found: set[int], rule: str, evidence: str) -> None:
        """Join the cluster *root* (mentions on a shared work) to *core* by *rule*, unless the cluster of
        *core* holds one of the cores *found* whose document holds the name twice: kept apart (logged),
        the mention is either of the two."""
        two = next((c for c in sorted(found) if self.cl.find(c) == self.cl.find(core) and self._two_people(c)), None)
        if two is None:
            self.join(core, root, rule, evidence)
            return
        a, b = self.nodes[root], self.nodes[two]
        self.log.append(PendingDecision("person", root, False, f"one name, kept apart: {TWO_PEOPLE}",
                                        f"{a.name} on {min(a.titles, default='')!r} ({a.document}) vs "
                                        f"{self._printed_twice(b)}", (a.document, b.document), related=(two,)))

    def _two_apart(self, n: Node, o: Node) -> bool:
        """Whether *n* or *o*, two forms of a name in one document, is a name that document holds twice
        (logged as kept apart): which of the two people the other form is, is unknown."""
        two = next((x for x in (n, o) if self._two_people(x.id)), None)
        if two is None:
            return False
        self.log.append(PendingDecision("person", n.id, False, f"one document, kept apart: {TWO_PEOPLE}",
                                        f"{n.name} ~ {o.name}; {self._printed_twice(two)}", (n.document,),
                                        related=(o.id,)))
        return True

    def _printed_twice(self, core: Node) -> str:
        """Where *core*'s document prints its name twice, for the log: ``Wei Li of a.bib, twice on 'alpha'``."""
        return f"{core.name} of {core.document}, twice on {self.twice[(core.document, core.key)]!r}"
