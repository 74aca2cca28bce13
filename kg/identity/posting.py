"""The posting lists of :meth:`~kg.identity.evidence.Passes.shared_context`: which clusters of other
documents print a name beside a co-author's cluster, found by lookup, never by comparing all pairs.

A bucket (a name variant and a co-author's cluster) counts its first :data:`MAX_POSTING` mentions and
keeps one pair per cluster among them: the cluster's root when first counted, and the document its
mentions are in (None for several). A root that has since been joined to another still finds its
cluster; a mention whose cluster has a newer root starts a pair of its own.

>>> from kg.identity.clusters import Cluster
>>> posting, cl = Posting(), Cluster(4)
>>> dict(posting.found([("doe", "jane")], {3}, 0, "a.md", cl))  # Jane Doe (node 0) beside node 3 in a.md
{}
>>> dict(posting.found([("doe", "jane")], {3}, 1, "b.md", cl))  # and node 1, beside it in b.md, finds node 0
{0: {3}}
"""

from __future__ import annotations

from collections import defaultdict

from kg.identity.clusters import Cluster

# A name and a co-author shared by more mentions than this say little more; the rest are not compared.
MAX_POSTING = 30


class Posting:
    """Name variant -> co-author's cluster -> ``[mentions counted, root, document, root, document ...]``."""

    def __init__(self):
        self.buckets: dict[tuple, dict[int, list]] = {}

    def found(self, variants, roots: set[int], me: int, doc: str, cl: Cluster) -> dict[int, set[int]]:
        """The clusters (but *me*, the mention's own) printing one of *variants* in a document other than
        *doc* beside one of the co-author clusters *roots*, each with those roots; then the mention is counted."""
        parent, find = cl.parent, cl.find
        found: dict[int, set[int]] = defaultdict(set)
        for v in variants:
            of_root = self.buckets.setdefault(v, {})
            for r in roots:
                bucket = of_root.get(r)
                if bucket is None:
                    of_root[r] = [1, me, doc]
                    continue
                mine = 0
                for k in range(1, len(bucket), 2):
                    o = bucket[k]
                    if o == me:
                        mine = k
                    elif bucket[k + 1] != doc and (o := o if parent[o] == o else find(o)) != me:
                        found[o].add(r)
                if bucket[0] < MAX_POSTING:
                    bucket[0] += 1
                    if not mine:
                        bucket += (me, doc)
                    elif bucket[mine + 1] != doc:
                        bucket[mine + 1] = None
        return found
