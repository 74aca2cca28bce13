"""The writer of one document's named graph: entities (people, organizations, venues) and provenance.

:mod:`kg.rdf.mapping` adds the facts on top of it.
"""

from __future__ import annotations

from rdflib import XSD, Literal, URIRef
from rdflib.namespace import RDFS

from kg.identity.resolution import Resolution
from kg.rdf.iris import repair_iri
from kg.rdf.privacy import scrub
from kg.rdf.quads import TripleSet, typed
from kg.rdf.terms import date_literal, local_name
from kg.records import Document, OrgRef, Period, Skip, Span, VenueRef
from kg.vocab import KG, SCHEMA, TYPE


class GraphWriter:
    """Adds one document's triples to its named graph: the entities facts point to, and provenance."""

    def __init__(self, graph: TripleSet, doc: Document, res: Resolution, source: URIRef, include_private: bool):
        self.g, self.doc, self.res, self.source = graph, doc, res, source
        self.include_private = include_private
        owner = res.subject_of_document.get(doc.path)
        self.subject = URIRef(owner) if owner else None  # the document's owner; None for a group page
        self.person_slug = local_name(owner) if owner else "unknown"
        self._described: set = set()  # entities (and printed names) already written to this graph

    def add(self, s, p, o):
        if o is None or o == "":
            return
        if type(o) is str and not self.include_private:  # the one place literals from documents enter:
            o = scrub(o)  # phone numbers and street addresses go
            if not o:
                return
        self.g.add((s, p, o))

    def link(self, s, p, value: str | None, span: Span | None = None, *, orcid: bool = False):
        """Add a link made from a document's value, repaired into a valid IRI, or report it as skipped."""
        if not value:
            return
        iri = repair_iri(value, orcid=orcid)
        if iri is None:
            span = span or Span(self.doc.path, 1, 1)
            what = "an ORCID iD" if orcid else "a link (an IRI such as https://...)"
            self.doc.skipped.append(Skip(span, f"{value[:80]!r} is not {what}; left out of the graph"))
            return
        self.g.add((s, p, URIRef(iri)))

    def provenance(self, node: URIRef, span: Span):
        """The source document (a collection's member file too, where it is one) and the lines of *node*."""
        self.add(node, KG.fromSource, self.source)
        self.add(node, KG.firstLine, typed(str(int(span.first_line)), XSD.positiveInteger))
        self.add(node, KG.lastLine, typed(str(int(span.last_line)), XSD.positiveInteger))
        if span.document != self.doc.path:
            self.add(node, KG.sourceFile, span.document)
        self.add(node, KG.sourcePlace, span.place)

    def period(self, node: URIRef, period: Period):
        if period.start:
            self.add(node, KG.startDate, date_literal(period.start))
        if period.end:
            self.add(node, KG.endDate, date_literal(period.end))
        if period.ongoing:
            self.add(node, KG.ongoing, Literal(True))

    def person(self, name: str, work_title: str | None = None) -> URIRef:
        iri = URIRef(self.res.person(name, work_title, self.doc.path))
        if (iri, name) in self._described:  # a co-author of many works: described once per graph
            return iri
        self._described.add((iri, name))
        person = self.res.people[str(iri)]
        canonical = person.name
        if person.label:
            self.add(iri, RDFS.label, person.label)
        self.add(iri, TYPE, KG.Person)
        self.add(iri, TYPE, SCHEMA.Person)
        self.add(iri, KG.name, canonical)
        self.add(iri, SCHEMA.name, canonical)
        if name != canonical:
            self.add(iri, KG.alternateName, name)
        return iri

    def organization(self, ref: OrgRef | None) -> URIRef | None:
        if ref is None:
            return None
        iri = self.res.organization(ref)
        node = URIRef(iri)
        while iri and iri not in self._described:
            self._described.add(iri)
            info = self.res.org_info[iri]
            n = URIRef(iri)
            self.add(n, TYPE, KG.Organization)
            self.add(n, TYPE, SCHEMA.Organization)
            self.add(n, KG.name, info["name"])
            self.add(n, SCHEMA.name, info["name"])
            for alt in info["names"]:
                if alt != info["name"]:
                    self.add(n, KG.alternateName, alt)
            if info["acronym"]:
                self.add(n, KG.acronym, info["acronym"])
            if info["country"]:
                self.add(n, KG.country, info["country"])
            if info["parent"]:
                self.add(n, TYPE, KG.OrganizationalUnit)
                self.add(n, KG.partOf, URIRef(info["parent"]))
            iri = info["parent"]
        return node

    def venue(self, ref: VenueRef | None) -> URIRef | None:
        if ref is None:
            return None
        iri = self.res.venue(ref)
        if iri is None:
            return None
        node = URIRef(iri)
        if iri in self._described:
            return node
        self._described.add(iri)
        info = self.res.venue_names[iri]
        self.add(node, TYPE, KG.Venue)
        self.add(node, TYPE, SCHEMA.CreativeWorkSeries)
        self.add(node, KG.name, info["name"])
        self.add(node, SCHEMA.name, info["name"])
        if info["acronym"]:
            self.add(node, KG.acronym, info["acronym"])
        return node
