"""The evidence that joins person nodes of different documents, one pass per kind of evidence.

Each pass finds its candidates by lookup (a work's title, an identifier, a name with a
co-author, a block of compatible names), never by comparing all pairs, and every merge goes
through :class:`~kg.identity.clusters.Cluster`, which refuses what the evidence forbids.
Each merge and each refusal is logged as a pending decision for ``kg explain``.
"""

from __future__ import annotations

from collections import defaultdict

from kg.identity.careers import careers_in_common
from kg.identity.clusters import Cluster
from kg.identity.crowded import CROWDED_APART, CrowdedNames, is_crowded
from kg.identity.decisions import PendingDecision
from kg.identity.keys import name_variants
from kg.identity.labmates import (
    beside_both_owners,
    coauthor_keys,
    cv_documents,
    lab_mates,
    owner_keys,
    owner_work_groups,
)
from kg.identity.mentions import TWICE, Listing, Mentions, Node, by_document_key, years_agree
from kg.identity.names import block_keys, is_full_name, names_compatible, one_candidate
from kg.identity.posting import MAX_POSTING, Posting
from kg.identity.twice import TwoPeople, two_people_of_a_name

# The cores of one name that one shared work links, compared pairwise for lab mates (the first few only).
MAX_CORES = 8


class Passes(CrowdedNames, TwoPeople):
    """The nodes, their clusters and the decisions logged, with one method per pass."""

    def __init__(self, mentions: Mentions, cluster: Cluster):
        self.m, self.cl = mentions, cluster
        self.nodes = mentions.nodes
        self.log: list[PendingDecision] = []
        self.of_doc_key = by_document_key(mentions)

    def join(self, a: int, b: int, rule: str, evidence: str, force: bool = False) -> bool:
        """Merge nodes *a* and *b* by *rule*; a refusal is logged as a decision kept apart."""
        if self.cl.find(a) == self.cl.find(b):
            return False
        why = self.cl.union(a, b, force=force)
        sources = tuple(sorted({self.nodes[a].document, self.nodes[b].document}))
        if why:
            self.log.append(PendingDecision("person", a, False, f"{rule}, but refused: {why}", evidence, sources,
                                            related=(b,)))
            return False
        self.log.append(PendingDecision("person", a, True, rule, evidence, sources, related=(b,)))
        return True

    def listed_elsewhere(self) -> set[int]:
        """The author nodes of works that other documents list too."""
        docs: dict[str, set[str]] = defaultdict(set)
        for listing in self.m.listings:
            docs[listing.title].add(listing.document)
        return {a for x in self.m.listings if len(docs[x.title]) > 1 for a in x.authors}

    def local_cores(self, shared: set[int]) -> None:
        """One name in one document is one person: its mentions on works only this document lists
        (and its owner, its supervisors) form the document's core for that name."""
        owner_key = {d: self.nodes[o].key for d, o in self.m.owner_of.items()}
        self.core: dict[tuple[str, tuple], int] = {}
        self.owner_nodes = set(self.m.owner_of.values())
        # a node of a name printed twice on one work is two people: it joins no core
        apart = shared | {n.id for n in self.nodes if TWICE in n.roles}
        for (doc, key), ids in self.of_doc_key.items():
            owner = self.m.owner_of[doc] if key == owner_key.get(doc) else None
            local = sorted((i for i in ids if i not in apart or i == owner), key=lambda i: i != owner)
            if not local:
                continue
            # the owner's name is the owner throughout the document: a CV is about one person
            groups = [local] if owner is not None else self._person_groups(doc, local)
            self.core[(doc, key)] = groups[0][0]
            self._join_groups(doc, groups, "the same name in one document")
        self.twice = two_people_of_a_name(self.nodes, shared)

    def owner_groups(self) -> list[tuple[str, list[list[int]]]]:
        """Per CV and name, the mentions printed beside the owner, in groups of one person each
        (:func:`~kg.identity.labmates.owner_work_groups`). They read the mentions alone, no cluster, so
        they can be made on another core while the passes before :meth:`owner_works` run."""
        return list(owner_work_groups(self.nodes, self._cv_owners(), self.of_doc_key, self._person_groups))

    def owner_works(self, owner_groups: list[tuple[str, list[list[int]]]] | None = None) -> None:
        """In a CV, one name on works its owner co-wrote is one person, on works other documents list
        too (unless its co-authors fall into disjoint groups): every work a CV lists is its owner's.
        *owner_groups* are :meth:`owner_groups`, where made already."""
        for doc, groups in owner_groups if owner_groups is not None else self.owner_groups():
            if (doc, self.nodes[groups[0][0]].key) in self.twice:
                continue  # two co-authors of the owner print this name on one work: which is which is unknown
            kept = [g for g in (self._unclaimed(doc, g) for g in groups) if g]
            self._join_groups(doc, kept, "one name on the works of one CV's owner")

    def _unclaimed(self, doc: str, group: list[int]) -> list[int]:
        """The mentions of *group* whose cluster holds no other document's core of the name (a guest
        namesake a group lists a shared work for), and of those that do, the one cluster if only one."""
        claimed: dict[int, int] = {}
        free = []
        cvs = self._cv_owners()
        # (cluster, name) -> claimed by a group list's core (True), by CVs' cores only (False), by none (None)
        verdict: dict[tuple[int, tuple], bool | None] = {}
        for i in group:
            r, key = self.cl.find(i), self.nodes[i].key
            if (r, key) not in verdict:
                claims = {d for d in self.cl.documents[r] if d != doc and (d, key) in self.core
                          and self.cl.find(self.core[(d, key)]) == r}
                verdict[(r, key)] = any(d not in cvs for d in claims) if claims else None
            if verdict[(r, key)]:
                continue  # a group list's own member, its guest here: only another CV's core is the owner's lab mate
            if verdict[(r, key)] is False:
                claimed.setdefault(r, i)
            else:
                free.append(i)
        return free + list(claimed.values()) if len(claimed) <= 1 else free

    def _join_groups(self, doc: str, groups: list[list[int]], rule: str) -> None:
        """Join each group's mentions; the groups themselves are kept apart (co-authors in disjoint groups)."""
        for group in groups:
            for i in group[1:]:
                self.join(group[0], i, rule, f"{self.nodes[i].name} in {doc}")
        for group in groups[1:]:
            a, b = groups[0][0], group[0]
            why = CROWDED_APART if is_crowded(self.nodes[a].name) else "co-authors in disjoint groups"
            self.log.append(PendingDecision(
                "person", a, False, f"one name in one document, kept apart: {why}",
                f"{self.nodes[a].name} with {self._coauthors(groups[0])} vs {self.nodes[b].name} with "
                f"{self._coauthors(group)} in {doc}", (doc,), related=(b,)))

    def _coauthors(self, group: list[int]) -> str:
        names = sorted({self.nodes[c].name for i in group for c in self.nodes[i].context})
        return ", ".join(names[:3]) + (" ..." if len(names) > 3 else "")

    def attach_listed(self, shared: set[int]) -> None:
        """A mention on a work several documents list joins the one core its name has in them; where
        the documents have cores of that name that are not one person (a member and a guest namesake,
        a mover's two groups), it joins the core of the one document that lists the work for this
        name alone, or none: they are kept apart and listed as possibly the same."""
        cores, sole = self._listed_cores(shared)
        self._link_cores(cores, sole)
        coreless: dict[tuple, list[int]] = {}
        for root, found in cores.items():
            roots = {self.cl.find(c) for c in found}
            if any(TWICE in self.nodes[m].roles for m in self.cl.members[self.cl.find(root)]):
                continue  # two people of one name on one work: joining either would join both
            if len(roots) == 1:
                c = next(iter(found))
                self._attach(c, root, found, "the same name in one document, on a work other documents list too",
                          f"{self.nodes[root].name} in {self.nodes[c].document}")
            elif not roots:
                for m in list(self.cl.members[self.cl.find(root)]):
                    n = self.nodes[m]
                    seen = coreless.setdefault((n.document, n.key), [])
                    # the last few only: the cost stays linear however often a name recurs
                    fellow = next((f for f in seen[-MAX_POSTING:] if self._share_coauthors(f, m, n.document)), None)
                    if fellow is None:
                        seen.append(m)
                    else:
                        self.join(fellow, m, "the same name in one document, with a co-author in common", n.name)
            elif len({self.cl.find(c) for c in sole[root]}) == 1 and is_full_name(self.nodes[min(sole[root])].name):
                c = min(sole[root])  # an initials form of a common name is too often two people to go on
                self._attach(c, root, found, "the one author by whom a document lists a work other documents list too",
                          f"{self.nodes[c].name} in {self.nodes[c].document}")
            elif not sole[root] and (home := self._home_core(root)) is not None:
                self._attach(home, root, found, "the document whose own members wrote a work other documents list too",
                          f"{self.nodes[home].name} in {self.nodes[home].document}")
            else:
                a, b = sorted(found)[:2]
                self.log.append(PendingDecision(
                    "person", a, False, "one name, kept apart: a mention on a shared work fits several people",
                    f"{self.nodes[a].name} ({self.nodes[a].document}) vs {self.nodes[b].name} "
                    f"({self.nodes[b].document})", (self.nodes[a].document, self.nodes[b].document), related=(b,)))

    def _share_coauthors(self, a: int, b: int, document: str) -> bool:
        """Whether the clusters of *a* and *b* have a co-author in *document* in common (by family
        name and initial, so "J. Doe" and "Jane Doe" count as one), besides its owner."""
        owner = self.m.owner_of.get(document)
        owner = self.cl.find(owner) if owner is not None else None

        def coauthors(x: int) -> set[str]:
            return {k for m in self.cl.members[self.cl.find(x)] if self.nodes[m].document == document
                    for c in self.nodes[m].context if self.cl.find(c) != owner for k in block_keys(self.nodes[c].name)}

        return bool(coauthors(a) & coauthors(b))

    def _home_core(self, root: int) -> int | None:
        """The core of the document whose own members (authors it names on works of its own) wrote
        the shared work, where that is clear: at least two of them, twice as many as elsewhere."""
        best: dict[int, int] = {}
        for i in self.cl.members[self.cl.find(root)]:
            n = self.nodes[i]
            c = self.core.get((n.document, n.key))
            if c is not None and i in self.fellows:
                best[self.cl.find(c)] = max(best.get(self.cl.find(c), 0), self.fellows[i])
        ranked = sorted(best.items(), key=lambda kv: -kv[1])
        if len(ranked) >= 2 and ranked[0][1] >= 2 and ranked[0][1] >= 2 * ranked[1][1]:
            return ranked[0][0]
        return None

    def _listed_cores(self, shared: set[int]) -> tuple[dict[int, set[int]], dict[int, set[int]]]:
        """Per cluster of mentions on shared works: the cores of its names in the documents that list
        them, and among those the cores of documents that list a work for this name alone (the only
        one of its authors the document names on works of its own: a group lists a paper for its
        one member on it)."""
        anchors: set[int] = set()
        self.fellows: dict[int, int] = {}  # shared node -> its co-authors that the document names elsewhere
        for listing in self.m.listings:
            anchored = [a for a in listing.authors if (listing.document, self.nodes[a].key) in self.core]
            if len(anchored) == 1 and anchored[0] in shared:
                anchors.add(anchored[0])
            for a in listing.authors:
                self.fellows[a] = len(anchored) - (a in anchored)
        cores: dict[int, set[int]] = defaultdict(set)
        sole: dict[int, set[int]] = defaultdict(set)
        for i in sorted(shared):
            n = self.nodes[i]
            c = self.core.get((n.document, n.key))
            cores[self.cl.find(i)]  # noqa: B018 -- every listed cluster gets an entry, cores or not
            if c is not None:
                cores[self.cl.find(i)].add(c)
                if i in anchors:
                    sole[self.cl.find(i)].add(c)
        return cores, sole

    def _link_cores(self, cores: dict[int, set[int]], sole: dict[int, set[int]]) -> None:
        """Cores of one name in two documents that shared works link, joined where the evidence says
        one person: two owners, one owner's two documents, a declared owner, a person who moved."""
        links: dict[tuple[int, int], int] = defaultdict(int)
        alone: dict[tuple[int, int], set[int]] = {}  # the cores whose document lists every linking work for them
        owned: set[tuple[int, int]] = set()  # linked by a work that prints the name beside both documents' owners
        for root, found in cores.items():
            distinct = sorted({self.cl.find(c): c for c in sorted(found)}.values())
            members = self.cl.members[self.cl.find(root)]
            for a, b in zip(distinct, distinct[1:], strict=False):
                links[(a, b)] += 1
                alone[(a, b)] = alone.get((a, b), {a, b}) & sole[root]
            for k, a in enumerate(distinct[:MAX_CORES]):  # every pair: a work four CVs list links four cores
                for b in distinct[k + 1:MAX_CORES]:
                    if (a, b) not in owned and beside_both_owners(self.nodes, self._cv_owners(), members,
                                                                   self.nodes[a].document, self.nodes[b].document):
                        owned.add((a, b))
        owner = {d: self.cl.find(o) for d, o in self.m.owner_of.items()}
        for a, b in sorted(set(links) | owned,
                           key=lambda ab: (not (ab[0] in self.owner_nodes and ab[1] in self.owner_nodes), ab)):
            da, db = self.nodes[a].document, self.nodes[b].document
            same_owner = da in owner and db in owner and self.cl.find(owner[da]) == self.cl.find(owner[db])
            both_owners = a in self.owner_nodes and b in self.owner_nodes
            # an owner the document names with an email, homepage or ORCID, not one a reader inferred
            an_owner = any(x in self.owner_nodes and (self.nodes[x].handles or self.nodes[x].orcids)
                           for x in (a, b)) and links[(a, b)] >= 2
            # one work is enough between full names; an initials form of a common name wants two;
            # two works between full names are enough without the old group listing them for this name
            full = is_full_name(self.nodes[a].name) and is_full_name(self.nodes[b].name)
            left = self._left_for(a, b)
            moved = left is not None and (left in alone.get((a, b), ()) and (full or links[(a, b)] >= 2)
                                          or full and links[(a, b)] >= 2)
            lab_mate = (a, b) in owned and not both_owners and self._common_coauthor(a, b)
            if self._two_people(a) or self._two_people(b):  # which of the two is unknown: only an owner decides
                moved = lab_mate = False
            # a count of linking works alone never does: a frequent guest namesake co-writes five too
            if an_owner or same_owner or moved or lab_mate:
                rule = ("the owners of two documents that list the same works" if both_owners else
                        "a document's owner, named on their own work in another document's list" if an_owner else
                        "one name among the co-authors of one person's two documents" if same_owner else
                        "one name beside both owners on a work both documents list, with a co-author in common"
                        if lab_mate else
                        f"one name, {links[(a, b)]} works listed by both documents: a person who moved")
                self.join(a, b, rule, f"{self.nodes[a].name} ({da}) = {self.nodes[b].name} ({db})")

    def _common_coauthor(self, a: int, b: int) -> bool:
        """Whether the name of cores *a* and *b* (of two documents) has a co-author in common besides both
        owners, on works one document lists and the other does not (not the works that link them)."""
        da, db = self.nodes[a].document, self.nodes[b].document
        owners = owner_keys(self.nodes, self.m.owner_of, da, db)
        ia, ib = self.of_doc_key[(da, self.nodes[a].key)], self.of_doc_key[(db, self.nodes[b].key)]
        both = {t for i in ia for t in self.nodes[i].titles} & {t for i in ib for t in self.nodes[i].titles}
        return bool(coauthor_keys(self.nodes, ia, da, owners, both) & coauthor_keys(self.nodes, ib, db, owners, both))

    def within_documents(self) -> None:
        """In one document, a variant ("J. Doe", "John A. Doe") is the one compatible name beside it.
        A name printed only on shared works takes the core of that one compatible name as its own."""
        by_doc: dict[str, list[Node]] = defaultdict(list)
        coreless: dict[str, list[Node]] = defaultdict(list)
        seen = set()
        for n in self.nodes:
            if n.key[0] != "@" and (n.document, n.key) not in seen:
                seen.add((n.document, n.key))
                if (n.document, n.key) in self.core:
                    by_doc[n.document].append(self.nodes[self.core[(n.document, n.key)]])
                else:
                    coreless[n.document].append(n)
        for doc, nodes in by_doc.items():
            blocks: dict[str, list[Node]] = defaultdict(list)
            for n in nodes:
                for b in block_keys(n.name):
                    blocks[b].append(n)
            for n in coreless.get(doc, []):
                fits = _candidates(n, blocks)
                if len(fits) == 1:
                    self.core[(doc, n.key)] = fits[0].id
            for n in nodes:
                fits = _candidates(n, blocks)
                if len(fits) == 1 and not (is_full_name(n.name) and not is_full_name(fits[0].name)):
                    o = fits[0]
                    if self._crowded_apart(doc, n, o) or self._two_apart(n, o):
                        continue
                    self.join(o.id, n.id, f"one document, {names_compatible(n.name, o.name)}",
                              f"{n.name} ~ {o.name} in {n.document}")
                elif len(fits) > 1 and not is_full_name(n.name):
                    names = sorted(o.name for o in fits)
                    self.log.append(PendingDecision("person", n.id, False,
                                                    f"initials fit {len(fits)} names in one document: never merged",
                                                    f"{n.name} fits {', '.join(names)}", (n.document,),
                                                    related=tuple(o.id for o in fits)))

    def _cv_owners(self) -> dict[str, int]:
        """The owners of CVs (see :func:`~kg.identity.labmates.cv_documents`), built once."""
        if not hasattr(self, "_cvs"):
            cvs = cv_documents(self.nodes, self.m.owner_of, self.m.listings)
            self._cvs = {d: o for d, o in self.m.owner_of.items() if d in cvs}
        return self._cvs

    def _left_for(self, a: int, b: int) -> int | None:
        """Of two cores whose works' years overlap by at most a year (one person who moved from one
        group to the other, not two namesakes at work at once), the earlier; None if they overlap.
        A group that still lists its former member's new works lists them for that member alone:
        a guest namesake's works are listed by the host for its own members too."""
        spans = []
        for r in (a, b):
            years = [self._years()[i] for i in self.cl.members[self.cl.find(r)] if i in self._years()]
            if not years:
                return None
            spans.append((min(years), max(years), r))
        (s1, e1, old), (s2, e2, _) = sorted(spans)
        return old if min(e1, e2) - max(s1, s2) <= 1 else None

    def shared_works(self) -> None:
        """The same work listed by two documents: its authors are aligned by compatible names. Each
        listing is aligned with the first of its title, the previous one and the longest so far: lists
        cut short by "et al." at different places still meet the names they share in the longest."""
        by_title: dict[str, list[Listing]] = defaultdict(list)
        for listing in self.m.listings:
            by_title[listing.title].append(listing)
        for title, listings in by_title.items():
            if len({x.document for x in listings}) < 2:
                continue
            base = longest = listings[0]
            for prev, cur in zip(listings, listings[1:], strict=False):
                for other in {id(base): base, id(prev): prev, id(longest): longest}.values():
                    if other.document != cur.document and years_agree(other, cur):
                        self._align(other, cur, title)
                if len(cur.authors) > len(longest.authors):
                    longest = cur

    def _align(self, a: Listing, b: Listing, title: str) -> None:
        for x in b.authors:
            nx = self.nodes[x]
            fits = [y for y in a.authors if names_compatible(nx.name, self.nodes[y].name)]
            if len(fits) == 1:
                ny = self.nodes[fits[0]]
                self.join(fits[0], x, "the same work listed in both documents, the name in the same list",
                          f"{ny.name} = {nx.name} on {title!r}")

    def shared_identifiers(self) -> None:
        """Owners who share an email, ORCID or homepage are one person (different ORCIDs never are)."""
        first: dict[str, int] = {}
        for n in self.nodes:
            for h in sorted(n.handles | {"orcid:" + o for o in n.orcids}):
                if h in first:
                    self.join(first[h], n.id, "same contact identifier", h)
                else:
                    first[h] = n.id

    def shared_context(self) -> int:
        """One name in two documents, with two people already known to be one person in both among
        their co-authors (or one: the owner of both documents, as a supervisor in a thesis record and a
        co-author in the student's CV): one person. Returns the number of merges."""
        posting = Posting()
        merged = 0
        owners = {d: o for d, o in self.m.owner_of.items()}
        parent, find = self.cl.parent, self.cl.find
        for n in self.nodes:
            if n.key[0] == "@" or not n.context:
                continue
            roots = {p if parent[(p := parent[c])] == p else find(c) for c in n.context}
            me = find(n.id)  # the node's own cluster: never "found", whatever joins follow
            found = posting.found(name_variants(n.name), roots, me, n.document, self.cl)
            mine = owners.get(n.document)
            for other, via in sorted(found.items()):
                other = self.cl.find(other)
                if other == me:
                    continue
                by_owner = mine is not None and self.cl.find(mine) in via and any(
                    self.cl.find(owners.get(d, mine)) == self.cl.find(mine) for d in self.cl.documents[other]
                    if d in owners and d != n.document)
                by_owner = by_owner and not self._crowded_clusters_apart(other, n.id)
                lab = not by_owner and lab_mates(self.cl, self._cv_owners(), n, other, via)
                # co-authors alone never join (on crowded data even three shared ones join namesakes)
                if (by_owner or lab) and not self.cl.refusal(other, n.id):
                    names = sorted(self.nodes[r].name for r in via)
                    merged += self.join(other, n.id, "same name in two CVs whose owners write together, with a "
                                        "co-author in common besides them" if lab else
                                        "same name, connected to the owner of both documents",
                                        f"{self.nodes[other].name} = {n.name}; both with {', '.join(names[:3])}")
                    me = self.cl.find(n.id)
        return merged

    def same_organizations(self) -> None:
        """Owners of one name at the same organizations in most of the same years (see
        :func:`~kg.identity.careers.careers_in_common`)."""
        for a, b, both, shorter in careers_in_common(self.nodes):
            org, year = both[0]
            self.join(a, b, "same name, same organizations in most of the same years",
                      f"{self.nodes[b].name} at {org} in {year}; {len(both)} of {shorter} "
                      "(organization, year) pairs in common")


def _candidates(n: Node, blocks: dict[str, list[Node]]) -> list[Node]:
    """The cores of one document (by block) whose names fit *n*; variants of one name ("T.-H. Doe",
    "Taohai Doe") are one candidate, the most complete."""
    near = {o.id: o for b in block_keys(n.name) for o in blocks[b] if o.id != n.id}
    fits = [o for o in near.values() if o.id not in n.cannot and names_compatible(n.name, o.name)]
    if len(fits) > 1 and one_candidate([o.name for o in fits]):
        fits = [max(fits, key=lambda o: (is_full_name(o.name), len(o.name), -o.id))]
    return fits

