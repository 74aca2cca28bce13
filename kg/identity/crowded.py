"""Crowded names: one printed name that many researchers hold, which one document alone does not settle.

"Y. Wang", "Yang Liu" or "Na Li" (a family name from ``kg/words/common-family-names.txt`` and one
given name or initial, nothing more) is held by so many people that a CV or a reading list printing
it twice may well mean two of them. For such a name the document is not evidence enough: its
mentions are one person where they have a co-author in common (besides the document's owner) or
two co-authors who write together elsewhere in the document (one circle of
colleagues), or where their works follow on in time (within :data:`GAP` years: one collaboration going on). A
mention with neither, on a work of another time or of unknown year, is kept apart and listed as
possibly the same. A rarer name ("Xipeng Qiu", "Peter J. Liu") keeps the document's word.
"""

from __future__ import annotations

from collections import defaultdict
from functools import cache, partial
from typing import TYPE_CHECKING

from kg.identity.clusters import Cluster
from kg.identity.coauthors import coauthor_groups, root_of
from kg.identity.decisions import PendingDecision
from kg.identity.keys import name_words
from kg.identity.labmates import owner_keys
from kg.identity.mentions import Listing, Mentions, Node
from kg.identity.names import block_keys
from kg.words import word_list

# Works of one crowded name this many years apart or fewer, without a co-author in common, are one
# collaboration going on (a student's papers over a PhD); further apart they are two people as often.
GAP = 2
# Clusters of a crowded name compared mention by mention (co-authors, years) up to this size; larger ones are not.
MAX_CROWDED = 200
CROWDED_APART = "a crowded name, co-authors in disjoint groups and years apart"


@cache
def _common() -> frozenset[str]:
    return frozenset(word_list("common-family-names"))


def is_crowded(name: str) -> bool:
    """Whether *name* is a common family name with one given name or initial and nothing more.

    >>> is_crowded("Y. Wang"), is_crowded("Liu, Yang"), is_crowded("Peter J. Liu"), is_crowded("Xipeng Qiu")
    (True, True, False, False)
    """
    words = name_words(name)
    return len(words) == 2 and any(w in _common() for w in words)


def crowded_groups(nodes: list[Node], ids: list[int], years: dict[int, int], leave_out: frozenset[str],
                   fellows: dict[str, set[str]]) -> list[list[int]]:
    """The mentions *ids* of one crowded name in one document as one list per person (the first
    holding ``ids[0]`` first): joined by a co-author in common (``family|initial``, but *leave_out*:
    the owner's and the name's own), or by two co-authors who write together elsewhere in the
    document (*fellows*: block key -> the block keys it shares a work with), then groups whose
    years come within :data:`GAP` of each other; a group of no known year stays apart.

    >>> nodes = [Node(i, "d", (n,), {n: 1}) for i, n in enumerate(["Y. Wang"] * 3 + ["Ann Day", "Bo Ni", "Cy Ott"])]
    >>> nodes[0].context = {3}; nodes[1].context = {4}; nodes[2].context = {5}
    >>> crowded_groups(nodes, [0, 1, 2], {0: 2019, 1: 2025, 2: 2024}, frozenset(), {})
    [[0], [1, 2]]
    >>> crowded_groups(nodes, [0, 1, 2], {0: 2019}, frozenset(), {"day|a": {"ott|c"}})
    [[0, 2], [1]]
    """
    parent = {i: i for i in ids}
    find = partial(root_of, parent)

    leave_out = leave_out | block_keys(nodes[ids[0]].name)
    coauthors = {i: {k for c in nodes[i].context for k in block_keys(nodes[c].name)} - leave_out for i in ids}
    first: dict[str, int] = {}
    for i in ids:
        mine = find(i)
        for k in coauthors[i]:
            j = first.setdefault(k, i)
            if j != i:
                parent[find(j)] = mine
    # co-authors who write together elsewhere: one circle of colleagues. The mentions of a co-author are
    # one group already: the fellows of its first mention's keys stand for every mention's.
    near: dict[int, set[str]] = {}
    for k, i in first.items():
        if k in fellows:
            near.setdefault(i, set()).update(fellows[k])
    keys = set(first)
    for i, fs in near.items():
        mine = find(i)
        for j in {first[f] for f in fs & keys}:
            if (j := find(j)) != mine:
                parent[j] = mine
    spans: dict[int, list[int]] = {}
    for i in ids:
        if i in years:
            span = spans.setdefault(find(i), [years[i], years[i]])
            span[0], span[1] = min(span[0], years[i]), max(span[1], years[i])
    last, end = None, 0
    for root, (start, stop) in sorted(spans.items(), key=lambda rs: rs[1]):
        if last is not None and start - end <= GAP:
            parent[find(root)] = find(last)
        last, end = root, max(end, stop) if last is not None else stop
    parts: dict[int, list[int]] = {}
    for i in ids:
        parts.setdefault(find(i), []).append(i)
    return sorted(parts.values(), key=lambda p: ids[0] not in p)


#: How many documents' fellows (see fellows_of) are kept, the most recently asked: all of them were
#: a seventh of identity's peak memory at 1,000 CVs (150 MB); keeping 64 makes 2,370 of them at
#: 1,000 CVs instead of 1,000 (under a second) and changes no decision.
FELLOWS_KEPT = 64


def fellows_of(nodes: list[Node], listings: list) -> dict[str, set[str]]:
    """Block key -> the block keys of the authors it shares a work with, over *listings* (one document's)."""
    out: dict[str, set[str]] = {}
    for x in listings:
        keys = {k for a in x.authors for k in block_keys(nodes[a].name)}
        for k in keys:
            out.setdefault(k, set()).update(keys)
    return out


class CrowdedNames:
    """The checks of a crowded name, for :class:`~kg.identity.evidence.Passes` (its nodes, clusters and log)."""

    # what Passes has, which these checks read
    nodes: list[Node]
    m: Mentions
    cl: Cluster
    of_doc_key: dict[tuple[str, tuple], list[int]]
    log: list[PendingDecision]

    if TYPE_CHECKING:
        def _coauthors(self, group: list[int]) -> str: ...

    def _years(self) -> dict[int, int]:
        """Node -> the year of its work, built once, on the first question that needs it."""
        if not hasattr(self, "_year"):
            self._year = {i: int(x.year) for x in self.m.listings if x.year and x.year.isdigit() for i in x.authors}
        return self._year

    def _person_groups(self, doc: str, ids: list[int], crowded: bool = False) -> list[list[int]]:
        """The mentions *ids* of one name in *doc* as one list per person: co-author groups
        (:mod:`~kg.identity.coauthors`), and a crowded name's by co-author or time (:mod:`~kg.identity.crowded`)."""
        groups = [ids] if crowded else coauthor_groups(self.nodes, ids, self._years())
        supervised = any("supervisor" in self.nodes[i].roles for i in ids)
        if supervised or not (crowded or is_crowded(self.nodes[ids[0]].name)):
            return groups  # a degree record names a supervisor: the document's word, not a co-author's
        owner = frozenset(owner_keys(self.nodes, self.m.owner_of, doc))
        if not hasattr(self, "_fellows"):  # built once, for the documents that print a crowded name
            self._fellows: dict[str, dict[str, set[str]]] = {}
            self._listings_of: dict[str, list[Listing]] = defaultdict(list)
            for x in self.m.listings:
                self._listings_of[x.document].append(x)
        fellows = self._fellows.pop(doc, None)
        if fellows is None:
            fellows = fellows_of(self.nodes, self._listings_of[doc])
            if len(self._fellows) >= FELLOWS_KEPT:  # the documents asked about longest ago go first
                del self._fellows[next(iter(self._fellows))]
        self._fellows[doc] = fellows  # the most recent last
        return [part for g in groups for part in crowded_groups(self.nodes, g, self._years(), owner, fellows)]

    def _crowded_apart(self, doc: str, n: Node, o: Node) -> bool:
        """Whether the cores of *n* and *o*, two forms of a crowded name in *doc* ("Y. Wang" and "Yinzhi
        Wang"), share no co-author, no circle of colleagues and no years (logged as kept apart)."""
        if not (is_crowded(n.name) or is_crowded(o.name)):
            return False
        mine = [i for i in self.of_doc_key[(doc, n.key)] if self.cl.find(i) == self.cl.find(n.id)]
        theirs = [i for i in self.of_doc_key[(doc, o.key)] if self.cl.find(i) == self.cl.find(o.id)]
        groups = self._person_groups(doc, mine + theirs, crowded=True)
        if any(set(g) & set(mine) and set(g) & set(theirs) for g in groups):
            return False
        self.log.append(PendingDecision(
            "person", n.id, False, f"one document, {CROWDED_APART}",
            f"{n.name} with {self._coauthors(mine)} vs {o.name} with {self._coauthors(theirs)} in {doc}",
            (doc,), related=(o.id,)))
        return True

    def _crowded_clusters_apart(self, a: int, b: int) -> bool:
        """Whether the clusters of *a* and *b*, authors of a crowded name both printed beside one owner,
        share no co-author besides the owners and no years: the owner's two collaborators of that name.
        A supervisor (a degree record's word, not a co-author's) is never apart on this ground."""
        ids = self.cl.members[self.cl.find(a)] + self.cl.members[self.cl.find(b)]
        if not is_crowded(self.nodes[a].name) or len(ids) > MAX_CROWDED or any(
                "supervisor" in self.nodes[i].roles for i in ids):
            return False
        owners = frozenset(owner_keys(self.nodes, self.m.owner_of, *{self.nodes[i].document for i in ids}))
        mine = set(self.cl.members[self.cl.find(a)])
        groups = crowded_groups(self.nodes, ids, self._years(), owners, {})
        return not any(set(g) & mine and set(g) - mine for g in groups)
