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

from kg.identity.keys import person_key
from kg.identity.mentions import Node
from kg.identity.names import names_compatible

CANNOT = "two authors of one work, or a pair the curation file keeps apart"
ORCIDS = "different ORCIDs"
NAMES = "names that cannot be one person"


class Cluster:
    """Union-find over node ids with members, cannot-sets and ORCIDs kept at each root."""

    def __init__(self, size: int):
        self.parent = list(range(size))
        self.members: dict[int, list[int]] = {i: [i] for i in range(size)}
        self.cannot: dict[int, set[int]] = {i: set() for i in range(size)}
        self.orcids: dict[int, set[str]] = {i: set() for i in range(size)}
        self.names: dict[int, set[str]] = {i: set() for i in range(size)}
        self.documents: dict[int, set[str]] = {i: set() for i in range(size)}

    @classmethod
    def of(cls, nodes: list[Node]) -> Cluster:
        out = cls(len(nodes))
        for n in nodes:
            out.cannot[n.id] = set(n.cannot)
            out.orcids[n.id] = set(n.orcids)
            out.names[n.id] = {n.name} if n.key[0] != "@" else set()
            out.documents[n.id] = {n.document}
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
        self.cannot[self.find(a)].add(b)
        self.cannot[self.find(b)].add(a)

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


def _distinct(names: set[str]) -> set[str]:
    """One printed form per name key: the names a cluster must stay compatible with."""
    by_key: dict[tuple, str] = {}
    for n in sorted(names):
        by_key.setdefault(person_key(n), n)
    return set(by_key.values())
