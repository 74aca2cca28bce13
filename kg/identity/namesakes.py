"""People minted from clusters, and the namesakes kept apart, listed so a user can decide.

Every cluster of nodes becomes a :class:`~kg.identity.resolution.Person`. Clusters that share a
printed name are *possibly the same*: each such pair is a decision kept apart whose evidence
gives the one curation line that would join them. Clusters with similar names in one block
(``Zeke Liu`` and ``Zhen Liu``) are near misses, explained too. Both are found per name or
per block, never over all pairs of people.
"""

from __future__ import annotations

from collections import defaultdict

from rapidfuzz import fuzz

from kg.identity.clusters import Cluster
from kg.identity.decisions import Decision
from kg.identity.keys import is_initials_form, person_key, slug
from kg.identity.mentions import Mentions
from kg.identity.names import block_keys, names_compatible
from kg.identity.resolution import IriMinter, Person, Resolution

POSSIBLY_SAME = "possibly the same: one name, but no shared work, identifier or co-author"
# A block with more distinct names than this is compared on its first ones only (cost stays bounded).
MAX_NAMES_PER_BLOCK = 60


def _display(names: dict[str, int], subject_names: list[str]) -> str:
    full = [n for n in names if not is_initials_form(n)] or list(names)
    pool = subject_names or sorted(full)
    return max(pool, key=lambda n: (names[n], -len(n)))


def mint(mentions: Mentions, cl: Cluster, res: Resolution) -> dict[int, str]:
    """One person per cluster, named by the owner's name or the most printed full name; node -> IRI."""
    nodes = mentions.nodes
    entries = []
    for members in cl.roots().values():
        names: dict[str, int] = defaultdict(int)
        subject = set()
        for i in members:
            for n, c in nodes[i].names.items():
                names[n] += c
            if "subject" in nodes[i].roles:
                subject.add(nodes[i].name)
        display = _display(names, sorted(subject))
        label = next((nodes[i].key[1] for i in members if nodes[i].key[0] == "@"), None)
        first = min((nodes[i].document, repr(nodes[i].key)) for i in members)
        entries.append((slug(label or display), first, members, display, names, label))
    minter = IriMinter()
    iri_of: dict[int, str] = {}
    weight: dict[tuple, int] = {}
    in_document: dict[tuple, int] = defaultdict(int)
    for base, _, members, display, names, label in sorted(entries, key=lambda e: e[:2]):
        iri = minter.mint("person/" + base)
        res.people[iri] = Person(iri, display, sorted(names), {nodes[i].document for i in members}, label)
        for i in members:
            iri_of[i] = iri
            node = nodes[i]
            in_document[(node.document, node.key, iri)] += 1
            if len(members) > weight.get(node.key, 0):
                weight[node.key] = len(members)
                res.person_of_key[node.key] = iri
    for (document, title, key), i in mentions.node_of.items():
        res.person_of_mention[(document, title, key)] = iri_of[i]
    # a name in a document is the person most of its mentions there are, the first IRI on a tie
    # (compared one by one: no sorted copy of every count, 2.9 million at 10,000 CVs)
    best: dict[tuple, tuple[int, str]] = {}
    for (document, key, iri), count in in_document.items():
        known = best.get((document, key))
        if known is None or count > known[0] or count == known[0] and iri < known[1]:
            best[(document, key)] = (count, iri)
    for (document, key), (_, iri) in best.items():
        res.person_of_mention[(document, key)] = iri
    return iri_of


def _summaries(mentions: Mentions, iri_of: dict[int, str], out: list[Decision]) -> None:
    """Per person and name: the printed variants joined, the documents the name was joined across."""
    per: dict[tuple, list[int]] = defaultdict(list)
    for n in mentions.nodes:
        per[(iri_of[n.id], n.key)].append(n.id)
    for (iri, _), ids in sorted(per.items(), key=lambda kv: (kv[0][0], repr(kv[0][1]))):
        variants = sorted({p for i in ids for p in mentions.nodes[i].names})
        documents = tuple(sorted({mentions.nodes[i].document for i in ids}))
        if len(variants) > 1:
            out.append(Decision("person", iri, True, "same name up to order, case, accents and titles",
                                " = ".join(variants), documents, related=(iri,)))
        elif len(documents) > 1:
            out.append(Decision("person", iri, True, "the same name in several documents",
                                f"{variants[0]} in {len(documents)} documents, joined by the evidence above",
                                documents, related=(iri,)))


def _possibly_same(mentions: Mentions, iri_of: dict[int, str], res: Resolution, out: list[Decision]) -> None:
    """People who share a printed name: kept apart, each pair with the curation line that joins it."""
    where: dict[tuple, dict[str, tuple[str, str]]] = defaultdict(dict)  # name key -> iri -> (name, document)
    for n in mentions.nodes:
        where[person_key(n.name)].setdefault(iri_of[n.id], (n.name, n.document))
    for _, people in sorted(where.items()):
        if len(people) < 2:
            continue
        iris = sorted(people)
        first = iris[0]
        for other in iris[1:]:
            (na, da), (nb, db) = people[first], people[other]
            a, b = res.people[first], res.people[other]
            if a.label or b.label:
                out.append(Decision("person", first, False, "same printed name, split by curation",
                                    f"{a.label or a.name} vs {b.label or b.name}", ("curation",), related=(other,)))
                continue
            out.append(Decision(
                "person", first, False, POSSIBLY_SAME,
                f"{na} ({da}) vs {nb} ({db}); to join them, add to curation.yaml under people: "
                f"same_as: [[{na} @ {da}, {nb} @ {db}]]", tuple(sorted(a.documents | b.documents)), related=(other,)))


def _similar_names(res: Resolution, out: list[Decision]) -> None:
    """Different names in one block (same family name and initial) that are similar: near misses."""
    blocks: dict[str, dict[str, str]] = defaultdict(dict)  # block -> name -> a person of that name
    for iri in sorted(res.people):
        p = res.people[iri]
        for b in block_keys(p.name):
            if len(blocks[b]) < MAX_NAMES_PER_BLOCK:
                blocks[b].setdefault(p.name, iri)
    seen = set()
    for _, named in sorted(blocks.items()):
        names = sorted(named)
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                if (a, b) in seen or person_key(a) == person_key(b) or names_compatible(a, b):
                    continue
                seen.add((a, b))
                score = fuzz.token_sort_ratio(" ".join(person_key(a)), " ".join(person_key(b)))
                if score >= 70:
                    pa, pb = res.people[named[a]], res.people[named[b]]
                    out.append(Decision(
                        "person", pa.iri, False, "similar names kept apart: the given names differ",
                        f"{a} vs {b} (similarity {score:.0f}); no shared identifier or curation same_as",
                        tuple(sorted(pa.documents | pb.documents)), related=(pb.iri,)))


def record_namesakes(mentions: Mentions, iri_of: dict[int, str], res: Resolution, out: list[Decision]) -> None:
    """The summaries of each person's names, the possibly-same pairs and the near misses, into *out*."""
    _summaries(mentions, iri_of, out)
    _possibly_same(mentions, iri_of, res, out)
    _similar_names(res, out)
