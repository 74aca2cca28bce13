"""One printed name in one document that is two people: groups of its works with no co-author in common.

A department's list may hold two "Wei Wang"s, each writing with a team of their own at the same
time. The mentions of one name in one document are grouped by shared co-authors (by name key);
two or more groups of :data:`MIN_GROUP` works or more, at work in the same years, are that many
people. One team after another (years that do not overlap) is one person who changed team, and
a mention linked to no group joins the largest.
"""

from __future__ import annotations

from collections import defaultdict
from functools import partial

from kg.identity.mentions import Node

# Works of one name in one document with co-authors of their own: from this many on, a second such
# group with no co-author in common is a second person of that name (fewer is one person's side project).
MIN_GROUP = 3


def root_of(parent: dict[int, int], x: int) -> int:
    """The root of *x* in the union-find forest *parent* (halving the path on the way).

    >>> root_of({1: 2, 2: 3, 3: 3}, 1)
    3
    """
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


def coauthor_groups(nodes: list[Node], ids: list[int], years: dict[int, int]) -> list[list[int]]:
    """The mentions *ids* (of one name in one document) as one list per person, the first holding
    ``ids[0]`` first; *years* gives a node's year where known. See the module docstring.

    >>> from kg.identity.mentions import Node
    >>> nodes = [Node(i, "d", (n,), {n: 1}) for i, n in enumerate(["w"] * 6 + ["a", "b", "c", "e"])]
    >>> for i in range(3): nodes[i].context = {6, 7}; nodes[3 + i].context = {8, 9}
    >>> coauthor_groups(nodes, list(range(6)), {i: 2020 + i % 3 for i in range(6)})
    [[0, 1, 2], [3, 4, 5]]
    >>> coauthor_groups(nodes, list(range(6)), {i: 2010 + 4 * i for i in range(6)})  # one team, then another
    [[0, 1, 2, 3, 4, 5]]
    """
    if len(ids) < 2 * MIN_GROUP:
        return [ids]
    parent = {i: i for i in ids}
    find = partial(root_of, parent)

    first: dict[tuple, int] = {}
    for i in ids:
        mine = find(i)  # stays the root: only other roots are put under it
        for c in nodes[i].context:
            j = first.setdefault(nodes[c].key, i)
            if j != i:
                parent[find(j)] = mine
    parts: dict[int, list[int]] = defaultdict(list)
    for i in ids:
        parts[find(i)].append(i)
    big = sorted((p for p in parts.values() if len(p) >= MIN_GROUP), key=lambda p: (-len(p), p[0]))
    if len(big) < 2 or not _at_once(big, years):
        return [ids]
    for p in parts.values():
        if len(p) < MIN_GROUP:
            big[0] += p
    return [sorted(p, key=lambda i: i != ids[0]) for p in big]


def _at_once(groups: list[list[int]], years: dict[int, int]) -> bool:
    """Whether every group's years overlap every other's by two years or more: namesakes at work at
    the same time, not one person who worked with one team, then with another."""
    spans = []
    for g in groups:
        known = [years[i] for i in g if i in years]
        if not known:
            return False
        spans.append((min(known), max(known)))
    return all(min(e1, e2) - max(s1, s2) >= 2 for k, (s1, e1) in enumerate(spans) for s2, e2 in spans[k + 1:])
