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
from kg.identity.people import resolve_people
from kg.identity.resolution import Resolution
from kg.identity.venues import resolve_venues
from kg.identity.works import resolve_works
from kg.records import Document


def resolve(documents: list[Document], curation: Curation | None = None,
            people_resolved: Callable[[Resolution], None] | None = None,
            collected: Collector | None = None) -> Resolution:
    """Group every mention in *documents* into entities; see the module docstring. *people_resolved*,
    where given, is called with the resolution once the people are resolved, before the venues,
    organizations and works: the people's decisions are all made then (the build writes them meanwhile).
    *collected*, where given, holds the people's mentions, gathered from *documents* as they were read.

    >>> from kg.records import Author, Document, Span, Work
    >>> w = Work("A Paper", Span("group.md", 3, 3), authors=[Author("Jane Doe", "Jane Doe")])
    >>> res = resolve([Document("group.md", "markdown", "0", None, facts=[w])])
    >>> res.person("Jane Doe"), res.work("group.md", w)
    ('https://kg.example/id/person/jane-doe', 'https://kg.example/id/work/a-paper')
    """
    res = Resolution(curation=curation or Curation())
    with collector_paused():
        resolve_people(documents, res, collected)
        if people_resolved is not None:
            people_resolved(res)
        resolve_venues(documents, res)
        resolve_organizations(documents, res)
        resolve_works(documents, res)
    return res
