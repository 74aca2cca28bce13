"""Clusters of person nodes that refuse a merge the evidence forbids.

A union of two clusters is refused when one holds a node the other can never be (two authors
of one work, a name the curation file keeps apart), when they carry different ORCIDs, or when
two of their printed names cannot be one person ("Zhen Liu" and "Zeke Liu"). The
smaller cluster is merged into the larger, and only its members are checked against the
larger's cannot-set, so every check and merge costs the smaller side: near-linear in all.

>>> from kg.identity.mentions import Node
>>> a, b, c = (Node(i, doc, (name,), {name: 1}) for i, doc, name in [(0, "d", "Ann Lee"), (1, "d", "Bo Chen"),
...                                                               (2, "e", "Ann Lee")])
>>> a.cannot.add(1); b.cannot.add(0)
>>> cl = Cluster.of([a, b, c])
>>> cl.union(0, 2), cl.union(2, 1), cl.find(2) == cl.find(0)
(None, 'two authors of one work, or a pair the curation file keeps apart', True)
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet

from kg.identity.keys import person_key
from kg.identity.mentions import Node
from kg.identity.names import names_compatible

CANNOT = "two authors of one work, or a pair the curation file keeps apart"
ORCIDS = "different ORCIDs"
NAMES = "names that cannot be one person"
_NONE: frozenset = frozenset()


class Cluster:
    """Union-find over node ids with members, cannot-sets and ORCIDs kept at each root."""

    def __init__(self, size: int):
        self.parent = list(range(size))
        self.members: dict[int, list[int]] = {i: [i] for i in range(size)}
        # A root's sets are shared (one empty set, a node's own cannot-set, one per document or name) until
        # the root first takes in another cluster or a curation pair: then it gets copies of its own.
        self.cannot: dict[int, AbstractSet[int]] = dict.fromkeys(range(size), _NONE)
        self.orcids: dict[int, AbstractSet[str]] = dict.fromkeys(range(size), _NONE)
        self.names: dict[int, AbstractSet[str]] = dict.fromkeys(range(size), _NONE)
        self.documents: dict[int, AbstractSet[str]] = dict.fromkeys(range(size), _NONE)
        self._own: set[int] = set()

    @classmethod
    def of(cls, nodes: list[Node]) -> Cluster:
        out = cls(len(nodes))
        one: dict[str, frozenset[str]] = {}
        for n in nodes:
            out.cannot[n.id] = n.cannot  # read only here: copied before the cluster changes it
            out.orcids[n.id] = frozenset(n.orcids)
            if n.key[0] != "@":
                out.names[n.id] = one.setdefault(n.name, frozenset((n.name,)))
            out.documents[n.id] = one.setdefault(n.document, frozenset((n.document,)))
        return out

    def _own_sets(self, root: int) -> None:
        """Give *root* sets of its own before they change (they were shared)."""
        if root not in self._own:
            self._own.add(root)
            self.cannot[root] = set(self.cannot[root])
            self.orcids[root] = set(self.orcids[root])
            self.documents[root] = set(self.documents[root])

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
            root = self.find(x)
            self._own_sets(root)
            own = self.cannot[root]
            assert isinstance(own, set)  # _own_sets made it the root's own
            own.add(y)

    def refusal(self, a: int, b: int) -> str | None:
        """Why the clusters of *a* and *b* cannot be one, or None when they can (or already are)."""
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return None
        small, big = (rb, ra) if len(self.members[rb]) < len(self.members[ra]) else (ra, rb)
        big_cannot = self.cannot[big]
        if any(m in big_cannot for m in self.members[small]):
            return CANNOT
        oa, ob = self.orcids[ra], self.orcids[rb]
        if oa and ob and not oa & ob:
            return ORCIDS
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
        self._own_sets(big)
        self._own.discard(small)
        self.members[big] += self.members.pop(small)
        self.cannot[big] |= self.cannot.pop(small)
        self.orcids[big] |= self.orcids.pop(small)
        names = self.names.pop(small)
        if not names <= self.names[big]:  # the names of big are distinct already
            self.names[big] = _distinct(self.names[big] | names)
        self.documents[big] |= self.documents.pop(small)
        return None

    def elsewhere(self, x: int, document: str) -> bool:
        """Whether the cluster of *x* holds mentions in documents other than *document*."""
        docs = self.documents[self.find(x)]
        return len(docs) > 1 or document not in docs

    def roots(self) -> dict[int, list[int]]:
        """Root -> its member node ids (ascending)."""
        return {r: sorted(m) for r, m in self.members.items()}


def _distinct(names: AbstractSet[str]) -> set[str]:
    """One printed form per name key: the names a cluster must stay compatible with."""
    by_key: dict[tuple, str] = {}
    for n in sorted(names):
        by_key.setdefault(person_key(n), n)
    return set(by_key.values())
