"""Venues: a printed acronym and a printed name are one venue where a document prints them together."""

from __future__ import annotations

from collections import defaultdict

from kg.identity.decisions import PendingDecision, UnionFind
from kg.identity.keys import slug, venue_key, venue_keys
from kg.identity.resolution import IriMinter, Resolution
from kg.records import Document, ServiceRole, VenueRef, Work


def _all_venue_refs(documents: list[Document]) -> list[tuple[VenueRef, str]]:
    return [(f.venue, doc.path) for doc in documents for f in doc.facts
            if isinstance(f, (Work, ServiceRole)) and f.venue is not None]


def _display(keys: list[str], info: dict) -> tuple[str | None, str | None, dict[str, int]]:
    """The acronym (upper case first), the longest printed name and every name's count of a venue group."""
    names: dict[str, int] = defaultdict(int)
    acronyms: set[str] = set()
    for k in keys:
        if k in info:
            for n, c in info[k]["names"].items():
                names[n] += c
            acronyms |= info[k]["acronyms"]
    acronym = sorted(acronyms, key=lambda a: (a.upper() != a, a))[0] if acronyms else None
    name = max(sorted(names), key=lambda n: (len(venue_key(n)), names[n])) if names else acronym
    return acronym, name, names


class VenueGroups:
    """The venues printed together, gathered a document at a time (the build does it as documents are
    read, while the other documents are still being read): :func:`resolve_venues` names each group.

    >>> from kg.records import Document, Span, Work
    >>> w = Work("A Paper", Span("a.md", 1, 1), venue=VenueRef("Journal of Graphs", "JG"))
    >>> groups = VenueGroups(); groups.add(Document("a.md", "markdown", "0", None, facts=[w]))
    >>> sorted(groups.uf.groups().values())  # the name's key leaves out its noise words ("of")
    [['acro:jg', 'name:journal graphs']]
    """

    def __init__(self) -> None:
        self.uf = UnionFind()
        self.info: dict[str, dict] = defaultdict(lambda: {"names": defaultdict(int), "acronyms": set()})
        self.pending: list[PendingDecision] = []

    def add(self, doc: Document) -> None:
        """Take in the venues *doc* prints (the next document)."""
        uf, info = self.uf, self.info
        for ref, path in _all_venue_refs([doc]):
            keys = venue_keys(ref)
            for k in keys:
                uf.find(k)
            for k in keys[1:]:
                if uf.find(keys[0]) != uf.find(k):
                    self.pending.append(PendingDecision("venue", keys[0], True, "acronym and name printed together",
                                                        f"{ref.acronym} = {ref.name}", (path,)))
                uf.union(keys[0], k)
            if keys:
                i = info[keys[0]]
                if ref.name:
                    i["names"][ref.name] += 1
                if ref.acronym:
                    i["acronyms"].add(ref.acronym)


def resolve_venues(documents: list[Document], res: Resolution, grouped: VenueGroups | None = None) -> None:
    """Fill ``res.venue_of_key`` and ``res.venue_names``; record each acronym-name merge. The groups are
    *grouped*'s, where given (gathered from *documents* as they were read, see
    :class:`kg.identity.resolve.Gathered`), else gathered here."""
    if grouped is None:
        grouped = VenueGroups()
        for doc in documents:
            grouped.add(doc)
    minter = IriMinter()
    for _, keys in sorted(grouped.uf.groups().items()):
        acronym, name, names = _display(keys, grouped.info)
        iri = minter.mint("venue/" + slug(acronym or name))
        res.venue_names[iri] = {"name": name, "acronym": acronym, "names": sorted(names)}
        for k in keys:
            res.venue_of_key[k] = iri
    res.decisions += [d.settle(res.venue_of_key.get) for d in grouped.pending]
