"""The writer of one document's named graph: entities (people, organizations, venues) and provenance.

:mod:`kg.rdf.mapping` adds the facts on top of it. Terms are N-Triples strings from the start
(nodes ``<iri>``, predicates from :class:`~kg.rdf.quads.Terms`, literals encoded once): the
mapping writes a million triples at a thousand CVs, and rdflib terms cost several times more.
"""

from __future__ import annotations

from kg.identity.resolution import Resolution
from kg.privacy import scrub
from kg.rdf.iris import repair_iri
from kg.rdf.quads import Terms, TripleSet, iri, literal
from kg.rdf.terms import date_term, local_name
from kg.records import Document, OrgRef, Period, Skip, Span, VenueRef
from kg.vocab import KG_IRIS, PREFIXES, SCHEMA_IRIS, TYPE_IRI

#: The terms of kg's ontology and of schema.org, as N-Triples strings.
K, S = Terms(KG_IRIS), Terms(SCHEMA_IRIS)
A = iri(TYPE_IRI)  # rdf:type
_LABEL = iri(PREFIXES["rdfs"] + "label")
POSITIVE = PREFIXES["xsd"] + "positiveInteger"
TRUE = literal("true", PREFIXES["xsd"] + "boolean")  # marks are written only where true


class GraphWriter:
    """Adds one document's triples to its named graph: the entities facts point to, and provenance.

    Nodes are N-Triples IRIs (``<https://...>``): :meth:`add` takes terms in that form, and
    :meth:`text` a document's text, which it makes a literal.
    """

    def __init__(self, graph: TripleSet, doc: Document, res: Resolution, source: str, include_private: bool):
        self.g, self.doc, self.res = graph, doc, res
        self.triples, self.entailed = graph.triples, graph.entailed
        self.include_private = include_private
        self._nodes: dict[str, str] = {}  # IRI -> its N-Triples form, made once (and one string) per graph
        self._numbers: dict[int, str] = {}  # line numbers and ordinals as literals
        self._venues: dict[VenueRef, str | None] = {}  # a CV names the same venues again and again
        self.source = self.node(str(source))
        owner = res.subject_of_document.get(doc.path)
        self.owner = owner  # the document's owner's IRI; None for a group page
        self.subject = self.node(owner) if owner else None
        self.person_slug = local_name(owner) if owner else "unknown"
        self._described: set = set()  # entities (and printed names) already written to this graph

    def node(self, value: str) -> str:
        """The N-Triples form of the IRI *value*."""
        encoded = self._nodes.get(value)
        if encoded is None:
            encoded = self._nodes[value] = iri(value)
        return encoded

    def positive(self, number: int) -> str:
        """*number* as an ``xsd:positiveInteger`` literal."""
        encoded = self._numbers.get(number)
        if encoded is None:
            encoded = self._numbers[number] = literal(str(int(number)), POSITIVE)
        return encoded

    def add(self, s: str, p: str, o: str | None) -> None:
        """Add a triple of N-Triples terms; none where *o* is None."""
        if o is not None:
            self.triples.add((s, p, o))

    def entail(self, s: str, p: str, o: str | None) -> None:
        """Add a triple the ontology entails from this graph's own (a schema.org mirror such as
        ``schema:name``, or ``kg:hasAuthor``): the merged view holds it, the source's named graph,
        which records what the document said in kg's terms, does not."""
        if o is not None:
            self.entailed.add((s, p, o))

    def text(self, s: str, p: str, value: str | None, *, entailed: bool = False) -> None:
        """Add *value*, a document's text, as a literal (with *entailed*, as :meth:`entail` does): the
        one place text from documents enters, so phone numbers and street addresses are scrubbed here
        (unless private data is asked for)."""
        if value is None or value == "":
            return
        if not self.include_private:
            value = scrub(value)
            if not value:
                return
        (self.entailed if entailed else self.triples).add((s, p, literal(value)))

    def link(self, s: str, p: str, value: str | None, span: Span | None = None, *, orcid: bool = False):
        """Add a link made from a document's value, repaired into a valid IRI, or report it as skipped."""
        if not value:
            return
        link = repair_iri(value, orcid=orcid)
        if link is None:
            span = span or Span(self.doc.path, 1, 1)
            what = "an ORCID iD" if orcid else "a link (an IRI such as https://...)"
            self.doc.skipped.append(Skip(span, f"{value[:80]!r} is not {what}; left out of the graph"))
            return
        self.triples.add((s, p, iri(link)))

    def provenance(self, node: str, span: Span):
        """The source document (a collection's member file too, where it is one) and the lines of *node*."""
        add = self.triples.add
        add((node, K.fromSource, self.source))
        add((node, K.firstLine, self.positive(span.first_line)))
        add((node, K.lastLine, self.positive(span.last_line)))
        if span.document != self.doc.path:
            self.text(node, K.sourceFile, span.document)
        self.text(node, K.sourcePlace, span.place)

    def period(self, node: str, period: Period):
        if period.start:
            self.add(node, K.startDate, date_term(period.start))
        if period.end:
            self.add(node, K.endDate, date_term(period.end))
        if period.ongoing:
            self.add(node, K.ongoing, TRUE)

    def person_iri(self, name: str, work_title: str | None = None) -> str:
        """The IRI of the person *name* refers to (on the work titled *work_title*), described in this
        graph the first time."""
        person_iri = self.res.person(name, work_title, self.doc.path)
        if (person_iri, name) in self._described:  # a co-author of many works: described once per graph
            return person_iri
        self._described.add((person_iri, name))
        node = self.node(person_iri)
        person = self.res.people[person_iri]
        canonical = person.name
        if person.label:
            self.text(node, _LABEL, person.label)
        self.add(node, A, K.Person)
        self.entail(node, A, S.Person)
        self.text(node, K.name, canonical)
        self.text(node, S.name, canonical, entailed=True)
        if name != canonical:
            self.text(node, K.alternateName, name)
        return person_iri

    def person(self, name: str, work_title: str | None = None) -> str:
        """The node of the person *name* refers to (see :meth:`person_iri`)."""
        return self.node(self.person_iri(name, work_title))

    def organization(self, ref: OrgRef | None) -> str | None:
        if ref is None:
            return None
        org = self.res.organization(ref)
        node = self.node(org)
        while org and org not in self._described:
            self._described.add(org)
            info = self.res.org_info[org]
            n = self.node(org)
            self.add(n, A, K.Organization)
            self.entail(n, A, S.Organization)
            self.text(n, K.name, info["name"])
            self.text(n, S.name, info["name"], entailed=True)
            for alt in info["names"]:
                if alt != info["name"]:
                    self.text(n, K.alternateName, alt)
            if info["acronym"]:
                self.text(n, K.acronym, info["acronym"])
            if info["country"]:
                self.text(n, K.country, info["country"])
            if info["parent"]:
                self.add(n, A, K.OrganizationalUnit)
                self.add(n, K.partOf, self.node(info["parent"]))
            org = info["parent"]
        return node

    def venue(self, ref: VenueRef | None) -> str | None:
        if ref is None:
            return None
        venue = self._venues.get(ref, "")
        if venue == "":
            venue = self._venues[ref] = self.res.venue(ref)
        if venue is None:
            return None
        node = self.node(venue)
        if venue in self._described:
            return node
        self._described.add(venue)
        info = self.res.venue_names[venue]
        self.add(node, A, K.Venue)
        self.entail(node, A, S.CreativeWorkSeries)
        self.text(node, K.name, info["name"])
        self.text(node, S.name, info["name"], entailed=True)
        if info["acronym"]:
            self.text(node, K.acronym, info["acronym"])
        return node
