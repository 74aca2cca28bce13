"""Person mentions in context: what each document says about each name it prints.

One :class:`Node` is one name (its curation key) on one entry of one document (a work's
author list, or the document itself for its owner and the supervisors of a degree). A node
keeps its evidence: the names printed, the work (title key) it is an author of, the nodes it
is connected to (co-authors, a supervisor and the student), the identifiers the document
gives its owner (ORCID, email, homepage), and the nodes it can never be (the other authors of
its work). Identity then decides which nodes are one person: a bibliography may list two
people of one name (a member and a guest author), so even one document's nodes are joined
by evidence.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

from kg.identity.curation import Curation
from kg.identity.keys import org_key, title_key
from kg.records import Document, Education, Position, Work

# A work with more authors than this (a physics collaboration) gives no co-author context or
# cannot-links: they would cost the square of its list and say little about any one author.
MAX_CONTEXT_AUTHORS = 60
TWICE = "printed twice on one work"


@dataclass(slots=True)
class Node:
    """One name in one document, with its evidence."""

    id: int
    document: str
    key: tuple
    # printed name -> times; never changed in place: the nodes that print one name once share one dict
    # (see Mentions.node)
    names: dict[str, int] = field(default_factory=dict)
    # roles and a single title are sets shared by many nodes (see Mentions): never changed in place
    roles: AbstractSet[str] = frozenset()
    titles: AbstractSet[str] = frozenset()
    # Sets while collect() links the nodes, then tuples where small (see _settle). collect() makes a
    # node's cannot-set its context set itself (an author's co-authors are both) until a link adds
    # context alone (a supervisor).
    context: Collection[int] = field(default_factory=set)
    cannot: Collection[int] = field(default_factory=set)
    # an owner's alone: every other node shares the one empty set (slots and these save a third of a node)
    handles: frozenset[str] = frozenset()
    orcids: frozenset[str] = frozenset()
    org_years: frozenset[tuple[str, int]] = frozenset()  # (organization key, year) for an owner
    # (organization key, first year, last year) of each doctorate an owner's CV gives both years of
    doctorates: frozenset[tuple[str, int, int]] = frozenset()
    # the name printed most often (see most_printed), kept up to date by Mentions.node
    name: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.name = most_printed(self.names)


def most_printed(names: dict[str, int]) -> str:
    """The name printed most often, the first in sorted order on a tie ("" for none).

    >>> most_printed({"J. Doe": 2, "Jane Doe": 2, "Doe": 1})
    'J. Doe'
    """
    return max(sorted(names), key=lambda n: names[n]) if names else ""


@dataclass(slots=True)
class Listing:
    """One work as one document lists it: its title key, year and author nodes in printed order."""

    document: str
    title: str
    year: str | None
    authors: list[int]


@dataclass
class Mentions:
    """Every node, the works listed, and where each (document, key) is."""

    nodes: list[Node] = field(default_factory=list)
    listings: list[Listing] = field(default_factory=list)
    node_of: dict[tuple[str, str | None, tuple], int] = field(default_factory=dict)  # (document, title, key)
    owner_of: dict[str, int] = field(default_factory=dict)  # document -> owner node
    # One object for each equal key, role set and single title: at 1,000 CVs there are 290,000 nodes
    # and a few hundred role sets; most nodes are on one work and share its title's set.
    _keys: dict[tuple, tuple] = field(default_factory=dict, repr=False)
    _roles: dict[frozenset[str], frozenset[str]] = field(default_factory=dict, repr=False)
    _titles: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)  # title -> {title}
    # name -> {name: 1}, for every node that prints the name once (nearly all: a node is one name on one
    # work); a dict of its own each took 180 bytes, at 10,000 CVs half a GiB
    _once: dict[str, dict[str, int]] = field(default_factory=dict, repr=False)

    def node(self, document: str, key: tuple, name: str, role: str, title: str | None = None) -> int:
        at = self.node_of.get((document, title, key))
        if at is None:
            key = self._keys.setdefault(key, key)
            at = self.node_of[(document, title, key)] = len(self.nodes)
            n = Node(at, document, key)
            n.cannot = n.context
            self.nodes.append(n)
        n = self.nodes[at]
        if not n.names:
            n.names = self._once.setdefault(name, {name: 1})
            n.name = name
        else:  # a dict of the node's own, never the shared one changed
            n.names = {**n.names, name: n.names.get(name, 0) + 1}
            n.name = most_printed(n.names)
        self.add_role(at, role)
        return at

    def add_role(self, at: int, role: str) -> None:
        n = self.nodes[at]
        if role not in n.roles:
            roles = frozenset(n.roles | {role})
            n.roles = self._roles.setdefault(roles, roles)

    def add_title(self, at: int, title: str) -> None:
        n = self.nodes[at]
        if not n.titles:
            n.titles = self._titles.setdefault(title, frozenset((title,)))
        elif title not in n.titles:
            if isinstance(n.titles, frozenset):  # a second title: the node's own set from here
                n.titles = set(n.titles)
            n.titles.add(title)  # type: ignore[attr-defined]


def _link(nodes: list[Node], members: list[int], cannot: bool) -> None:
    if len(members) > MAX_CONTEXT_AUTHORS:
        return
    for i in members:
        others = [j for j in members if j != i]
        n = nodes[i]
        if not cannot and n.cannot is n.context:  # context alone grows: the two sets part
            n.context = set(n.context)
        assert isinstance(n.context, set) and isinstance(n.cannot, set)  # collect() settles them after
        n.context.update(others)
        if cannot and n.cannot is not n.context:
            n.cannot.update(others)


def _settle(nodes: list[Node]) -> None:
    """Each small context and cannot-set made a tuple, in the set's own order (so every pass reads
    the nodes as before): at most a work's co-authors, where a tuple's search costs little and it
    takes a sixth of a set's memory (an author node's two went from 1,000 bytes to 120)."""
    for n in nodes:
        one = n.cannot is n.context
        if len(n.context) <= MAX_CONTEXT_AUTHORS:
            n.context = tuple(n.context)
        if one:
            n.cannot = n.context
        elif len(n.cannot) <= MAX_CONTEXT_AUTHORS:
            n.cannot = tuple(n.cannot)


def _owner(doc: Document, curation: Curation, out: Mentions) -> int | None:
    if not doc.subject:
        return None
    s = doc.subject
    at = out.owner_of[doc.path] = out.node(doc.path, curation.mention_key(s.name), s.name, "subject")
    node = out.nodes[at]
    node.handles = node.handles | {h.lower().rstrip("/") for h in s.emails + s.homepages if h}
    if s.orcid:
        node.orcids = node.orcids | {s.orcid.lower().rstrip("/").rsplit("/", 1)[-1]}
    return at


def _years(start: str | None, end: str | None) -> range:
    """The years from *start* to *end* (at most 15; one year where only one is known)."""
    a, b = (int(d[:4]) if d and d[:4].isdigit() else None for d in (start, end))
    a, b = a or b, b or a
    if a is None or b is None or b < a:
        return range(0)
    return range(a, min(b, a + 15) + 1)


def _top_key(ref) -> str:
    """The organization key of *ref*'s top organization (a university, not its lab)."""
    while ref.parent is not None:
        ref = ref.parent
    return org_key(ref.name)


def _at(node: Node, ref, start: str | None, end: str | None) -> None:
    """The owner was at *ref*'s top organization in those years."""
    if ref is not None:
        node.org_years = node.org_years | {(_top_key(ref), y) for y in _years(start, end)}


def _doctorate(node: Node, degree: Education) -> None:
    """The owner's doctorate at *degree*'s top organization, where its first and last years are given."""
    years = _years(degree.period.start, degree.period.end)
    if degree.level == "doctorate" and degree.institution is not None and len(years) > 1:
        node.doctorates = node.doctorates | {(_top_key(degree.institution), years[0], years[-1])}


def _work(doc: Document, work: Work, owner: int | None, curation: Curation, out: Mentions) -> None:
    authors = []
    tk = title_key(work.title)
    for a in work.authors:
        at = out.node(doc.path, curation.mention_key(a.name, work.title), a.name, "author", tk)
        if at not in authors:
            authors.append(at)
        else:  # one name printed twice on one work: two people this node cannot tell apart
            out.add_role(at, TWICE)
    owner_printed = owner is not None and any(out.nodes[a].key == out.nodes[owner].key for a in authors)
    if owner is not None and (work.subject_ordinal or work.authors_not_listed) and not owner_printed:
        authors.append(owner)
        if work.kind == "thesis":
            _at(out.nodes[owner], work.institution, work.year, work.year)
    for at in authors:
        out.add_title(at, tk)
    _link(out.nodes, authors, cannot=True)
    for role, names in (("supervisor", work.supervisors), ("editor", work.editors)):
        for n in names:
            at = out.node(doc.path, curation.mention_key(n, work.title), n, role, tk)
            if role == "supervisor":
                _link(out.nodes, [at, *authors[:1]], cannot=False)
    out.listings.append(Listing(doc.path, tk, (work.year or "")[:4] or None, authors))


def _collect_document(doc: Document, curation: Curation, out: Mentions) -> None:
    owner = _owner(doc, curation, out)
    for fact in doc.facts:
        if isinstance(fact, Work):
            _work(doc, fact, owner, curation, out)
        elif isinstance(fact, Education):
            supervisors = [out.node(doc.path, curation.mention_key(n), n, "supervisor") for n in fact.supervisors]
            if owner is not None:
                _link(out.nodes, [owner, *supervisors], cannot=True)
                if fact.thesis_title:
                    tk = title_key(fact.thesis_title)
                    out.add_title(owner, tk)
                    year = fact.period.end[:4] if fact.period.end else None
                    out.listings.append(Listing(doc.path, tk, year, [owner]))
            if owner is not None:
                _at(out.nodes[owner], fact.institution, fact.period.start, fact.period.end)
                _doctorate(out.nodes[owner], fact)
        elif isinstance(fact, Position) and owner is not None:
            _at(out.nodes[owner], fact.organization, fact.period.start, fact.period.end)


class Collector:
    """:func:`collect` a document at a time, as documents come: the build gathers the mentions while
    the other documents are still being read (on the other cores), not after, when identity alone runs.

    >>> from kg.records import Author, Document, Span, Work
    >>> doc = Document("a.md", "markdown", "0", None,
    ...                facts=[Work("A Paper", Span("a.md", 1, 1), authors=[Author("J. Doe", "J. Doe")])])
    >>> collector = Collector(Curation())
    >>> collector.add(doc)
    >>> [n.name for n in collector.result().nodes]
    ['J. Doe']
    """

    def __init__(self, curation: Curation) -> None:
        self.curation = curation
        self._mentions: Mentions | None = Mentions()

    def add(self, doc: Document) -> None:
        """Gather the mentions of *doc*, the next document."""
        if self._mentions is None:
            raise ValueError("the mentions were taken already: add every document before result()")
        _collect_document(doc, self.curation, self._mentions)

    def result(self) -> Mentions:
        """The mentions of every document added (once only)."""
        if self._mentions is None:
            raise ValueError("the mentions were taken already")
        out, self._mentions = self._mentions, None
        _settle(out.nodes)
        return out


def collect(documents: list[Document], curation: Curation) -> Mentions:
    """The nodes and listings of every document; see the module docstring."""
    collector = Collector(curation)
    for doc in documents:
        collector.add(doc)
    return collector.result()


def by_document_key(mentions: Mentions) -> dict[tuple[str, tuple], list[int]]:
    """(document, key) -> the nodes of that name in that document, in order."""
    out: dict[tuple, list[int]] = defaultdict(list)
    for n in mentions.nodes:
        out[(n.document, n.key)].append(n.id)
    return out


def by_key(mentions: Mentions) -> dict[tuple, list[int]]:
    """Key -> the nodes that carry it, in document order."""
    out: dict[tuple, list[int]] = defaultdict(list)
    for n in mentions.nodes:
        out[n.key].append(n.id)
    return out


def years_agree(a: Listing, b: Listing) -> bool:
    """Two listings of one title more than two years apart are two works (a later version, an erratum)."""
    return not (a.year and b.year and a.year.isdigit() and b.year.isdigit()) or abs(int(a.year) - int(b.year)) <= 2
