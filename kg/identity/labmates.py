"""Lab mates in the CVs of one lab: one name beside both owners on a work both CVs list.

Two CVs list a work their owners wrote together; a co-author of it whom each CV also names on
works of its own (each document's core of that name) is, in both, the person the owners write
with: one person, where the two cores also have a co-author in common besides the owners (on
works each CV lists alone). Group lists without an owner (a department's bibliography) never
give this evidence: there a shared work says nothing of who the member of the same name is.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator

from kg.identity.clusters import Cluster
from kg.identity.mentions import Listing, Node
from kg.identity.names import block_keys

# A document whose owner is printed on this share of its works (with co-authors) is a CV: every work
# it lists is its owner's. A group's list names its head on most works, not on all.
CV_SHARE = 0.9


def beside_both_owners(nodes: list[Node], owner_of: dict[str, int], members: list[int], da: str, db: str) -> bool:
    """Whether a mention among *members*, in document *da* or *db*, is printed on a work beside
    the owners of both documents (their names in the same author list).

    >>> nodes = [Node(i, d, (k,), {k: 1}) for i, (d, k) in enumerate([("a", "ann"), ("b", "bo"),
    ...                                                                ("a", "cy"), ("a", "ann"), ("a", "bo")])]
    >>> nodes[2].context = {3, 4}
    >>> beside_both_owners(nodes, {"a": 0, "b": 1}, [2], "a", "b"), beside_both_owners(nodes, {"a": 0}, [2], "a", "b")
    (True, False)
    """
    if da not in owner_of or db not in owner_of:
        return False
    want = {nodes[owner_of[da]].key, nodes[owner_of[db]].key}
    return any(want <= {nodes[c].key for c in nodes[i].context} for i in members if nodes[i].document in (da, db))


def coauthor_keys(nodes: list[Node], members: list[int], document: str, leave_out: set[str],
                  not_on: set[str]) -> set[str]:
    """The co-authors (``family|initial`` block keys) of *members* in *document*, but *leave_out*,
    on works whose title keys are not in *not_on*."""
    return {k for i in members if nodes[i].document == document and not nodes[i].titles & not_on
            for c in nodes[i].context for k in block_keys(nodes[c].name)} - leave_out


def owner_keys(nodes: list[Node], owner_of: dict[str, int], *documents: str) -> set[str]:
    """The block keys of the owners of *documents*."""
    return {k for d in documents if d in owner_of for k in block_keys(nodes[owner_of[d]].name)}


def cv_documents(nodes: list[Node], owner_of: dict[str, int], listings: list[Listing]) -> set[str]:
    """The documents whose owner is printed on nearly every work they list (:data:`CV_SHARE`): CVs,
    not a group's list whose head a reader took for its owner."""
    works: dict[str, int] = defaultdict(int)
    owned: dict[str, int] = defaultdict(int)
    for x in listings:
        if x.document in owner_of and len(x.authors) > 1:
            works[x.document] += 1
            owned[x.document] += any(nodes[a].key == nodes[owner_of[x.document]].key for a in x.authors)
    return {d for d, n in works.items() if owned[d] >= CV_SHARE * n}


def owner_work_groups(nodes: list[Node], owner_of: dict[str, int], of_doc_key: dict[tuple[str, tuple], list[int]],
                      person_groups: Callable[[str, list[int]], list[list[int]]],
                      ) -> Iterator[tuple[str, list[list[int]]]]:
    """Per document with an owner and per name (not the owner's): the mentions printed beside the
    owner on a work, in groups of one person each (*person_groups* of the document and the mentions)."""
    for (doc, key), ids in of_doc_key.items():
        owner = owner_of.get(doc)
        if owner is None or key == nodes[owner].key or key[0] == "@":
            continue
        owner_key = nodes[owner].key
        beside = [i for i in ids if any(nodes[c].key == owner_key for c in nodes[i].context)]
        if len(beside) > 1:
            yield doc, person_groups(doc, beside)


def lab_mates(cl: Cluster, cv_owners: dict[str, int], n: Node, other: int, via: set[int]) -> bool:
    """Whether *n* (in a CV) and the cluster *other* are lab mates: *other* is in a CV whose owner the
    CV of *n* names as a co-author, and they share a co-author (clusters *via*) besides both owners."""
    mine = cv_owners.get(n.document)
    if mine is None:
        return False
    for d in cl.documents[cl.find(other)]:
        theirs = cv_owners.get(d)
        if d != n.document and theirs is not None and n.document in cl.documents[cl.find(theirs)]:
            if via - {cl.find(mine), cl.find(theirs)}:
                return True
    return False
