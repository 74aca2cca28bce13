"""Clusters of person nodes that refuse a merge the evidence forbids.

A union of two clusters is refused when one holds a node the other can never be (two authors
of one work, a name the curation file keeps apart), when they carry different ORCIDs, when
they give one doctorate at one university two periods (a person studies for it once), or when
two of their printed names cannot be one person ("Zhen Liu" and "Zeke Liu"). The
smaller cluster is merged into the larger, and only its members' cannot-sets are searched
for a member of the larger (the sets are symmetric: a work's authors are each other's), so
every check and merge costs the smaller side: near-linear in all, and no cluster keeps a
union of its members' sets.

>>> from kg.identity.mentions import Node
>>> a, b, c = (Node(i, doc, (name,), {name: 1}) for i, doc, name in [(0, "d", "Ann Lee"), (1, "d", "Bo Chen"),
...                                                               (2, "e", "Ann Lee")])
>>> a.cannot.add(1); b.cannot.add(0)
>>> cl = Cluster.of([a, b, c])
>>> cl.union(0, 2), cl.union(2, 1), cl.find(2) == cl.find(0)
(None, 'two authors of one work, or a pair the curation file keeps apart', True)
"""

from __future__ import annotations

from collections.abc import Collection
from collections.abc import Set as AbstractSet

from kg.identity.keys import person_key
from kg.identity.mentions import Node
from kg.identity.names import names_compatible

CANNOT = "two authors of one work, or a pair the curation file keeps apart"
ORCIDS = "different ORCIDs"
NAMES = "names that cannot be one person"
DOCTORATES = "a doctorate at one organization given two periods"
_NONE: frozenset = frozenset()
_NO_MEMBERS: list[int] = []  # the members of a node that is no root (never added to)


class Cluster:
    """Union-find over node ids with members, ORCIDs, names and documents kept at each root."""

    def __init__(self, size: int):
        # What a root holds is at its place in lists by node id (a dict by id cost 50 bytes more a
        # node for each: 40 MiB at 1,000 CVs); a place is emptied when its node stops being a root.
        self.parent = list(range(size))
        self.members: list[list[int]] = [[i] for i in range(size)]
        self.node_cannot: list[Collection[int]] = [_NONE] * size  # each node's own, never changed here
        self.forbidden: dict[int, set[int]] = {}  # root -> the nodes the curation file keeps apart from it
        self.doctorates: dict[int, frozenset[tuple[str, int, int]]] = {}  # root -> its owners' (few)
        # A root's sets are shared (one empty set, one per document or name) until something new is
        # added to one: then the root gets a copy of its own of that one (see _joined).
        self.orcids: list[AbstractSet[str]] = [_NONE] * size
        self.names: list[AbstractSet[str]] = [_NONE] * size
        self.documents: list[AbstractSet[str]] = [_NONE] * size

    @classmethod
    def of(cls, nodes: list[Node]) -> Cluster:
        out = cls(len(nodes))
        one: dict[str, frozenset[str]] = {}
        for n in nodes:
            out.node_cannot[n.id] = n.cannot
            out.orcids[n.id] = frozenset(n.orcids)
            if n.doctorates:
                out.doctorates[n.id] = n.doctorates
            if n.key[0] != "@":
                out.names[n.id] = one.setdefault(n.name, frozenset((n.name,)))
            out.documents[n.id] = one.setdefault(n.document, frozenset((n.document,)))
        return out

    def find(self, x: int) -> int:
        root = x
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[x] != root:
            self.parent[x], x = root, self.parent[x]
        return root

    def forbid(self, a: int, b: int) -> None:
        """Nodes *a* and *b* are never one person (the curation file's not_same_as)."""
        for x, y in ((a, b), (b, a)):
            self.forbidden.setdefault(self.find(x), set()).add(y)

    def refusal(self, a: int, b: int) -> str | None:
        """Why the clusters of *a* and *b* cannot be one, or None when they can (or already are)."""
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return None
        small, big = (rb, ra) if len(self.members[rb]) < len(self.members[ra]) else (ra, rb)
        find, cannot = self.find, self.node_cannot
        if any(find(c) == big for m in self.members[small] for c in cannot[m]) or \
                any(find(f) == big for f in self.forbidden.get(small, ())):
            return CANNOT
        oa, ob = self.orcids[ra], self.orcids[rb]
        if oa and ob and not oa & ob:
            return ORCIDS
        if ra in self.doctorates and rb in self.doctorates and \
                two_periods(self.doctorates[ra], self.doctorates[rb]):
            return DOCTORATES
        na, nb = self.names[ra], self.names[rb]
        if any(names_compatible(x, y) is None for x in na for y in nb if x != y):
            return NAMES
        return None

    def union(self, a: int, b: int, force: bool = False) -> str | None:
        """Merge the clusters of *a* and *b*; the reason it was refused, or None when merged (or one already)."""
        why = None if force else self.refusal(a, b)
        ra, rb = self.find(a), self.find(b)
        if why or ra == rb:
            return why
        la, lb = len(self.members[ra]), len(self.members[rb])
        small, big = (ra, rb) if (la, -ra) < (lb, -rb) else (rb, ra)
        self.parent[small] = big
        self.members[big] += self.members[small]
        self.members[small] = _NO_MEMBERS
        if small in self.forbidden:
            self.forbidden.setdefault(big, set()).update(self.forbidden.pop(small))
        self.orcids[big] = _joined(self.orcids[big], self.orcids[small])
        if small in self.doctorates:
            self.doctorates[big] = self.doctorates.get(big, frozenset()) | self.doctorates.pop(small)
        names = self.names[small]
        if not names <= self.names[big]:  # the names of big are distinct already
            self.names[big] = _distinct(self.names[big] | names)
        self.documents[big] = _joined(self.documents[big], self.documents[small])
        self.orcids[small] = self.names[small] = self.documents[small] = _NONE
        return None

    def elsewhere(self, x: int, document: str) -> bool:
        """Whether the cluster of *x* holds mentions in documents other than *document*."""
        docs = self.documents[self.find(x)]
        return len(docs) > 1 or document not in docs

    def roots(self) -> dict[int, list[int]]:
        """Root -> its member node ids (ascending)."""
        return {r: sorted(m) for r, m in enumerate(self.members) if self.parent[r] == r}


def two_periods(mine: AbstractSet[tuple[str, int, int]], theirs: AbstractSet[tuple[str, int, int]]) -> bool:
    """Whether two sets of (organization key, first year, last year) give a doctorate at one organization
    two periods, differing in both years. One person's CVs may move a doctorate's expected end (2020–2024,
    then 2020–2025) or correct one year; namesakes at one university start and finish in other years.

    >>> two_periods({("kyoto", 2011, 2016)}, {("kyoto", 2013, 2018)})
    True
    >>> two_periods({("kyoto", 2011, 2016)}, {("kyoto", 2011, 2017)}), two_periods({("kyoto", 2011, 2016)},
    ...                                                                           {("mit", 2013, 2018)})
    (False, False)
    """
    return any(org == other and first != start and last != end
               for org, first, last in mine for other, start, end in theirs)


class _Own(set):
    """A set one root holds alone (every other set a root holds may be shared: see _joined)."""

    __slots__ = ()


def _joined(mine: AbstractSet[str], theirs: AbstractSet[str]) -> AbstractSet[str]:
    """*mine* with *theirs* added: *mine* itself when nothing is new or it is a root's own, else a new
    own set. Most unions add no new document or ORCID (joins within one document): a copy of both for
    every root that took in another was 20 MiB at 1,000 CVs.

    >>> shared = frozenset({"a.md"}); _joined(shared, frozenset({"a.md"})) is shared
    True
    >>> own = _joined(shared, frozenset({"b.md"})); sorted(own), type(own).__name__
    (['a.md', 'b.md'], '_Own')
    >>> _joined(own, frozenset({"c.md"})) is own
    True
    """
    if theirs <= mine:
        return mine
    if type(mine) is _Own:
        mine.update(theirs)
        return mine
    if type(theirs) is _Own:  # the smaller root's own set, let go of by its root: it takes in mine
        theirs.update(mine)
        return theirs
    out = _Own(mine)
    out.update(theirs)
    return out


def _distinct(names: AbstractSet[str]) -> set[str]:
    """One printed form per name key: the names a cluster must stay compatible with."""
    by_key: dict[tuple, str] = {}
    for n in sorted(names):
        by_key.setdefault(person_key(n), n)
    return set(by_key.values())
