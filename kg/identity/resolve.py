"""Identity: decide which mentions name the same person, work, venue or organization.

Readers give mentions (a document's owner, an author, a supervisor, an organization as
printed); :func:`resolve` groups them into entities with deterministic IRIs and keeps a
:class:`~kg.identity.decisions.Decision` for every merge and every near miss kept apart,
so that ``kg explain`` can say why. Documents without an owner (a group page, a lab
bibliography) take part like any other: their works, authors and venues are resolved.
"""

from __future__ import annotations

from collections.abc import Callable

from kg.collector import collector_paused
from kg.identity.curation import Curation
from kg.identity.mentions import Collector
from kg.identity.organizations import resolve_organizations
from kg.identity.people import Helper, PeopleDecisions, resolve_people
from kg.identity.resolution import Resolution
from kg.identity.venues import VenueGroups, resolve_venues
from kg.identity.works import resolve_works
from kg.records import Document


class Gathered:
    """What identity takes from each document, gathered as the documents are read (the build does it
    while the other documents are still being read, not after, when identity has one core): the
    people's mentions (:class:`~kg.identity.mentions.Collector`) and the venues printed together
    (:class:`~kg.identity.venues.VenueGroups`). Given to :func:`resolve` with the same documents."""

    def __init__(self, curation: Curation) -> None:
        self.people = Collector(curation)
        self.venues = VenueGroups()
        self.paths: list[str] = []

    def add(self, doc: Document) -> None:
        """Take in *doc*, the next document."""
        self.people.add(doc)
        self.venues.add(doc)
        self.paths.append(doc.path)


def resolve(documents: list[Document], curation: Curation | None = None,
            people_resolved: Callable[[Resolution, PeopleDecisions], None] | None = None,
            gathered: Gathered | None = None, beside: Callable[[], Helper | None] | None = None) -> Resolution:
    """Group every mention in *documents* into entities; see the module docstring. *people_resolved*,
    where given, is called with the resolution once the people are resolved, before the venues,
    organizations and works, and with the people's decisions, which it makes (``make(res.decisions)``,
    or in a fork that writes them, as the build does), else they are made here, first in ``res.decisions``.
    *gathered*, where given, holds what identity takes from *documents*, gathered as they were read.
    *beside*, where given, gives a helper for steps that can run on another core, or None where none is
    free (see :func:`kg.identity.people.run_passes`).

    >>> from kg.records import Author, Document, Span, Work
    >>> w = Work("A Paper", Span("group.md", 3, 3), authors=[Author("Jane Doe", "Jane Doe")])
    >>> res = resolve([Document("group.md", "markdown", "0", None, facts=[w])])
    >>> res.person("Jane Doe"), res.work("group.md", w)
    ('https://kg.example/id/person/jane-doe', 'https://kg.example/id/work/a-paper')
    """
    if gathered is not None and gathered.paths != [d.path for d in documents]:
        raise ValueError("what identity takes from the documents was gathered from other documents than those given")
    res = Resolution(curation=curation or Curation())
    with collector_paused():
        people = resolve_people(documents, res, gathered.people if gathered is not None else None, beside)
        if people_resolved is not None:
            people_resolved(res, people)
        else:
            people.make(res.decisions)
        resolve_venues(documents, res, gathered.venues if gathered is not None else None)
        resolve_organizations(documents, res)
        resolve_works(documents, res)
    return res
