"""Identity decisions (why mentions were merged or kept apart) and the union-find that groups mentions."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Decision:
    """Why two mentions were merged, or kept apart (``merged=False``).

    >>> Decision("venue", "https://kg.example/id/venue/x", True, "same acronym", "X = X").as_dict()["merged"]
    True
    """

    kind: str  # person | work | venue | organization
    subject: str  # the IRI decided about
    merged: bool
    rule: str
    evidence: str
    sources: tuple[str, ...] = ()
    related: tuple[str, ...] = ()  # the other entities (IRIs) the decision was about

    def as_dict(self) -> dict:
        return {"kind": self.kind, "subject": self.subject, "related": list(self.related),
                "merged": self.merged, "rule": self.rule, "evidence": self.evidence, "sources": list(self.sources)}


@dataclass(frozen=True)
class PendingDecision:
    """A decision taken before the entities have IRIs: it names them by their keys, resolved later.

    *subject* and *related* are keys of whatever the resolver groups (name keys, mention
    numbers, venue keys); :meth:`settle` turns them into IRIs with the resolver's lookup.
    """

    kind: str
    subject: object
    merged: bool
    rule: str
    evidence: str
    sources: tuple[str, ...] = ()
    related: tuple = ()

    def settle(self, iri_of) -> Decision:
        """The :class:`Decision` with every key replaced by ``iri_of(key)`` ("" where unknown)."""
        return Decision(self.kind, iri_of(self.subject) or "", self.merged, self.rule, self.evidence, self.sources,
                        tuple(iri_of(k) or "" for k in self.related))


class UnionFind:
    """Disjoint sets with a deterministic root: the smallest member by ``repr``.

    >>> uf = UnionFind(); uf.union("b", "a"); uf.find("b")
    'a'
    """

    def __init__(self):
        self.parent: dict = {}

    def find(self, x):
        self.parent.setdefault(x, x)
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a, b) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            lo, hi = sorted((ra, rb), key=repr)
            self.parent[hi] = lo

    def groups(self) -> dict:
        """Root -> members, for every element seen."""
        out: dict = {}
        for x in list(self.parent):
            out.setdefault(self.find(x), []).append(x)
        return out
