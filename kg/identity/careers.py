"""Careers in common: owners of one name who were at the same organizations in the same years.

Two versions of one CV give the same positions and degrees; a thesis record gives its author's
university in the year of the degree. Two people of a common name at one large university overlap
a year or two (one's doctorate ending as the other's post begins): one year in common is not enough
where both careers give several.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from kg.identity.mentions import Node


def careers_in_common(nodes: list[Node]) -> Iterator[tuple[int, int, list[tuple[str, int]], int]]:
    """Each pair of nodes of one name key whose (organization, year) pairs in common are most of the
    shorter career's: (node, node, the pairs in common in order, the shorter career's length), pairs
    in order. Curation labels (keys beginning with "@") take no part.

    >>> def owner(i, *org_years):
    ...     return Node(i, f"cv{i}.md", ("doe", "jane"), {"Jane Doe": 1}, org_years=frozenset(org_years))
    >>> nodes = [owner(0, ("uni", 2020), ("uni", 2021), ("lab", 2022)),
    ...          owner(1, ("uni", 2021), ("lab", 2022)),                  # 2 of 2 in common with 0
    ...          owner(2, ("uni", 2021), ("ace", 2018), ("ace", 2019))]   # 1 of 3 with 0 and with 1
    >>> list(careers_in_common(nodes))
    [(0, 1, [('lab', 2022), ('uni', 2021)], 2)]
    """
    holders: dict[tuple, list[int]] = defaultdict(list)  # (name key, organization, year) -> nodes
    for n in nodes:
        if n.key[0] != "@":
            for org, year in n.org_years:
                holders[(n.key, org, year)].append(n.id)
    common: dict[tuple[int, int], list[tuple[str, int]]] = defaultdict(list)
    for (_, org, year), ids in holders.items():
        for x, a in enumerate(ids):
            for b in ids[x + 1:]:
                common[(a, b)].append((org, year))
    for (a, b), both in sorted(common.items()):
        shorter = min(len(nodes[a].org_years), len(nodes[b].org_years))
        if 2 * len(both) > shorter:
            yield a, b, sorted(both), shorter
