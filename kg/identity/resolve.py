"""Identity: decide which mentions name the same person, work, venue or organization.

Readers give mentions (a document's owner, an author, a supervisor, an organization as
printed); :func:`resolve` groups them into entities with deterministic IRIs and keeps a
:class:`~kg.identity.decisions.Decision` for every merge and every near miss kept apart,
so that ``kg explain`` can say why. Documents without an owner (a group page, a lab
bibliography) take part like any other: their works, authors and venues are resolved.
"""

from __future__ import annotations

from kg.child import Child
from kg.collector import collector_paused
from kg.identity.curation import Curation
from kg.identity.organizations import resolve_organizations
from kg.identity.people import mint_people, record_people_decisions, resolve_people
from kg.identity.resolution import Resolution
from kg.identity.venues import resolve_venues
from kg.identity.works import resolve_works
from kg.records import Document


def resolve(documents: list[Document], curation: Curation | None = None, *, works_beside: bool = False) -> Resolution:
    """Group every mention in *documents* into entities; see the module docstring.

    With *works_beside*, the works are resolved in a fork of this process (:class:`kg.child.Child`)
    while this one records the decisions about people and resolves the organizations: the same
    resolution, decisions in the same order, on two cores (for a big build, where identity is the one
    stretch with a core idle; a fork of a small one costs more than it saves).

    >>> from kg.records import Author, Document, Span, Work
    >>> w = Work("A Paper", Span("group.md", 3, 3), authors=[Author("Jane Doe", "Jane Doe")])
    >>> res = resolve([Document("group.md", "markdown", "0", None, facts=[w])])
    >>> res.person("Jane Doe"), res.work("group.md", w)
    ('https://kg.example/id/person/jane-doe', 'https://kg.example/id/work/a-paper')
    """
    res = Resolution(curation=curation or Curation())
    with collector_paused():
        if not works_beside:
            resolve_people(documents, res)
            resolve_venues(documents, res)
            resolve_organizations(documents, res)
            resolve_works(documents, res)
            return res
        # the works ask people and venues for IRIs, not for decisions: those are recorded meanwhile
        minted = mint_people(documents, res)
        mark = len(res.decisions)
        resolve_venues(documents, res)
        venue_decisions = res.decisions[mark:]
        del res.decisions[mark:]
        works = Child()
        try:
            works.start(_works_alone, documents, res)
            record_people_decisions(minted, res)
            del minted
            res.decisions += venue_decisions
            resolve_organizations(documents, res)
            work_of, work_titles, work_decisions = works.result()
        finally:
            works.cancel()  # nothing to stop once it answered
        res.work_of.update(work_of)
        res.work_titles.update(work_titles)
        res.decisions += work_decisions
    return res


def _works_alone(documents: list[Document], res: Resolution) -> tuple[dict, dict, list]:
    """:func:`resolve_works` on *res*: what it adds (the lookups and the decisions about works)."""
    mark = len(res.decisions)
    resolve_works(documents, res)
    return res.work_of, res.work_titles, res.decisions[mark:]
