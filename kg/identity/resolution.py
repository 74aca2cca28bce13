"""The outcome of identity: lookups from what documents print to entity IRIs, and the decisions taken."""

from __future__ import annotations

from dataclasses import dataclass, field

from kg.identity.curation import Curation
from kg.identity.decisions import Decision
from kg.identity.keys import org_chain_key, title_key, venue_keys
from kg.records import OrgRef, Span, VenueRef, Work
from kg.vocab import DATA_IRIS


@dataclass(slots=True)
class Person:
    iri: str
    name: str
    names: list[str] = field(default_factory=list)
    documents: set[str] = field(default_factory=set)
    label: str | None = None  # a disambiguating label where the curation file split a printed name


def work_mention(document: str, work: Work) -> tuple[str, Span, str]:
    """The key of one work as one document lists it: its file, its whole span (lines and place) and title.

    The whole span, not just the first line: readers of JSON or BibTeX may put several works on one line.
    """
    return (document, work.span, title_key(work.title))


class IriMinter:
    """Mints ``id:base``, then ``base-2``, ``base-3`` ... for bases already used (skipping any taken).

    >>> m = IriMinter(); [m.mint(b).rsplit("/", 1)[1] for b in ("work/x", "work/x-3", "work/x", "work/x")]
    ['x', 'x-3', 'x-2', 'x-4']
    """

    def __init__(self):
        self.used: set[str] = set()
        # the last suffix each base was given: a base minted k times tries k candidates in all, not k
        # squared over two (a title or name shared by thousands of works or people)
        self._last: dict[str, int] = {}

    def mint(self, base: str) -> str:
        n = self._last.get(base, 1)
        candidate = base if n == 1 else f"{base}-{n}"
        while candidate in self.used:  # what was taken once stays taken: resuming at the last is exact
            n += 1
            candidate = f"{base}-{n}"
        self.used.add(candidate)
        if n > 1:  # most bases are minted once: 1 is the default
            self._last[base] = n
        return DATA_IRIS[candidate]


@dataclass
class Resolution:
    """The outcome of identity: lookups from what documents print to entity IRIs."""

    curation: Curation = field(default_factory=Curation)
    people: dict[str, Person] = field(default_factory=dict)  # iri -> Person
    person_of_key: dict[tuple, str] = field(default_factory=dict)  # key -> the largest person printed so
    # (document, title key or None, key) and (document, key) -> iri: one name may be several people
    person_of_mention: dict[tuple, str] = field(default_factory=dict)
    subject_of_document: dict[str, str] = field(default_factory=dict)
    work_of: dict[tuple[str, Span, str], str] = field(default_factory=dict)  # work_mention(...) -> iri
    work_titles: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # iri -> [(document, title)]
    venue_of_key: dict[str, str] = field(default_factory=dict)
    venue_names: dict[str, dict] = field(default_factory=dict)
    org_of_key: dict[tuple, str] = field(default_factory=dict)
    org_info: dict[str, dict] = field(default_factory=dict)
    decisions: list[Decision] = field(default_factory=list)

    def mention_key(self, name: str, work_title: str | None = None) -> tuple:
        """The identity key of a printed name (on the work titled *work_title*), curation applied."""
        return self.curation.mention_key(name, work_title)

    def person(self, name: str, work_title: str | None = None, document: str | None = None) -> str:
        """The IRI of the person a printed name (on the work titled *work_title*, in *document*) refers to.

        Without *document*, the person most often printed under that name (one name may be several people).
        """
        key = self.mention_key(name, work_title)
        if document is not None:
            title = title_key(work_title) if work_title else None
            found = self.person_of_mention.get((document, title, key)) or self.person_of_mention.get((document, key))
            if found is not None:
                return found
        return self.person_of_key[key]

    def venue(self, ref: VenueRef) -> str | None:
        for k in venue_keys(ref):
            if k in self.venue_of_key:
                return self.venue_of_key[k]
        return None

    def organization(self, ref: OrgRef) -> str:
        return self.org_of_key[org_chain_key(ref)]

    def work(self, document: str, work: Work) -> str:
        """The IRI of a work as listed in *document*."""
        return self.work_of[work_mention(document, work)]
