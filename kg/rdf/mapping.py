"""Records to RDF: one named graph per source document, in ontology terms.

Each source graph holds exactly what its document says, with identity-resolved IRIs and
line provenance on every fact node. A document without an owner (a group page, a lab
bibliography) gives its works, authors and venues; facts about an owner need one.
"""

from __future__ import annotations

from rdflib import XSD, Literal, URIRef
from rdflib.namespace import PROV

from kg.identity.keys import slug
from kg.identity.resolution import Resolution
from kg.identity.works import thesis_work
from kg.rdf.quads import TripleSet, typed
from kg.rdf.terms import date_literal, local_name, org_path, source_iri
from kg.rdf.writer import GraphWriter
from kg.records import Award, Document, Education, Interest, Position, Project, ServiceRole, Skill, Talk, Work
from kg.vocab import DATA, KG, SCHEMA, TYPE

_TRUE, _FALSE = typed("true", XSD.boolean), typed("false", XSD.boolean)
POSITION_CLASS = {"job": KG.Job, "internship": KG.Internship, "visit": KG.Visit, "fellowship": KG.Fellowship,
                  "teaching": KG.Teaching}


class DocumentWriter(GraphWriter):
    """Adds one document's facts to its named graph."""

    def profile(self):
        p = self.doc.subject
        if not p or self.subject is None:
            return
        me = self.person(p.name)
        self.add(self.source, KG.about, me)
        for e in p.emails:
            self.add(me, KG.email, e)
        for h in p.homepages:
            self.link(me, KG.homepage, h, p.span)
        if p.orcid:
            self.link(me, KG.orcid, p.orcid, p.span, orcid=True)
        if p.biography:
            self.add(me, KG.biography, p.biography)
        for org in p.affiliations:
            self.add(me, KG.affiliation, self.organization(org))
            self.add(me, SCHEMA.affiliation, URIRef(self.res.organization(org)))
        if self.include_private:
            for t in p.telephones:
                self.add(me, KG.telephone, t)
            for a in p.street_addresses:
                self.add(me, KG.streetAddress, a)

    def work(self, w: Work):
        node = URIRef(self.res.work(self.doc.path, w))
        kind_class = KG.Thesis if w.kind == "thesis" else KG.Preprint if w.status != "published" else KG.Article
        schema_class = SCHEMA.Thesis if w.kind == "thesis" else SCHEMA.ScholarlyArticle
        for c in (KG.Work, kind_class, SCHEMA.CreativeWork, schema_class):
            self.add(node, TYPE, c)
        self.add(node, KG.title, w.title)
        self.add(node, SCHEMA.name, w.title)
        self.add(node, KG.status, w.status)
        if w.year:
            self.add(node, KG.year, date_literal(w.year[:4]))
            self.add(node, SCHEMA.datePublished, date_literal(w.year[:4]))
        venue = self.venue(w.venue)
        if venue is not None:
            self.add(node, KG.publishedIn if w.status == "published" else KG.submittedTo, venue)
        self.add(node, KG.abstract, w.abstract)
        for r in w.recognitions:
            self.add(node, KG.recognition, r)
        for k in w.keywords:
            self.add(node, KG.keyword, k)
        self.add(node, KG.doi, w.doi)
        if w.url:
            self.link(node, KG.url, w.url, w.span)
        self.provenance(node, w.span)
        for name, printed, ordinal, equal, et_al in self._authors(w):
            self.authorship(node, w, name, printed, ordinal, equal, et_al)
        for s in w.supervisors:
            self.add(node, KG.supervisor, self.person(s))
        for e in w.editors:
            self.add(node, KG.editor, self.person(e, w.title))
        if w.institution is not None:
            self.add(node, KG.awardingInstitution, self.organization(w.institution))
        return node

    def _authors(self, w: Work) -> list[tuple]:
        """(name, printed, ordinal or None, equal contribution, et al. follows) for each author of *w*.

        Where the document prints no author list, its owner is the one author known: at the place
        the document gives ("First author"), or at no known place (an ORCID work summary).
        """
        authors = [(a.name, a.printed, i + 1, a.equal_contribution, a.et_al_follows) for i, a in enumerate(w.authors)]
        if not authors and (w.subject_ordinal or w.authors_not_listed) and self.subject is not None:
            authors = [(self.res.people[str(self.subject)].name, self.doc.subject.name, w.subject_ordinal,
                        w.subject_equal_contribution, False)]
        return authors

    def authorship(self, node: URIRef, w: Work, name: str, printed: str, ordinal: int | None, equal: bool,
                   et_al: bool) -> None:
        owner = self.doc.subject
        person = self.subject if self.subject is not None and name == owner.name else self.person(name, w.title)
        if self.subject is not None and person == self.subject:
            self.person(owner.name)  # the owner's own name, as the document's header prints it
        self.add(node, KG.hasAuthor, person)
        self.add(node, SCHEMA.author, person)
        authorship = URIRef(DATA[f"authorship/{local_name(node)}/{local_name(person)}"])
        self.add(node, KG.hasAuthorship, authorship)
        self.add(authorship, TYPE, KG.Authorship)
        self.add(authorship, KG.author, person)
        if ordinal:
            self.add(authorship, KG.ordinal, typed(str(int(ordinal)), XSD.positiveInteger))
        self.add(authorship, KG.printedName, printed)
        self.add(authorship, KG.equalContribution, _TRUE if equal else _FALSE)
        if et_al:
            self.add(authorship, KG.etAlFollows, _TRUE)
        self.provenance(authorship, w.span)

    def owner_fact(self, path: str, link: URIRef, *types: URIRef) -> URIRef:
        """The node ``DATA[path]`` of one fact about the owner, with its *types*, linked from the owner by *link*."""
        node = URIRef(DATA[path])
        for t in types:
            self.add(node, TYPE, t)
        self.add(self.subject, link, node)
        return node

    def position(self, p: Position):
        org = self.organization(p.organization)
        where = org_path(org) if org else "unknown"
        node = self.owner_fact(f"position/{self.person_slug}/{where}-{slug(p.role or 'member', 40)}", KG.hasPosition,
                               KG.Position, POSITION_CLASS[p.kind], SCHEMA.OrganizationRole)
        self.add(node, KG.holder, self.subject)
        self.add(node, KG.organization, org)
        self.add(node, KG.role, p.role)
        self.period(node, p.period)
        self.add(node, KG.location, p.location)
        for d in p.description:
            self.add(node, KG.description, d)
        for c in p.courses:
            self.add(node, KG.course, c)
        if p.homepage:
            self.link(node, KG.homepage, p.homepage, p.span)
        self.provenance(node, p.span)

    def education(self, e: Education):
        org = self.organization(e.institution)
        root = org
        while root is not None and self.res.org_info[str(root)]["parent"]:
            root = URIRef(self.res.org_info[str(root)]["parent"])
        where = local_name(root) if root else "unknown"
        node = self.owner_fact(f"education/{self.person_slug}/{where}-{e.level or slug(e.degree or 'degree')}",
                               KG.hasEducation, KG.Education, SCHEMA.OrganizationRole)
        self.add(node, KG.holder, self.subject)
        self.add(node, KG.organization, org)
        self.add(node, KG.degree, e.degree)
        self.add(node, KG.degreeLevel, e.level)
        self.add(node, KG.field, e.field_of_study)
        self.add(node, KG.grade, e.grade)
        self.add(node, KG.location, e.location)
        self.period(node, e.period)
        for s in e.supervisors:
            self.add(node, KG.supervisor, self.person(s))
        if e.thesis_title:
            thesis = thesis_work(e)
            existing = URIRef(self.res.work(self.doc.path, thesis))
            # A record that lists the thesis as a work already stated it, with its own lines.
            self.add(node, KG.thesis, existing if (existing, KG.title, None) in self.g else self.work(thesis))
        self.provenance(node, e.span)

    def award(self, a: Award):
        node = self.owner_fact(f"award/{self.person_slug}/{slug(a.title, 50)}-{a.year or 'undated'}", KG.receivedAward,
                               KG.Award)
        self.add(self.subject, SCHEMA.award, a.title)
        self.add(node, KG.name, a.title)
        if a.year:
            self.add(node, KG.year, date_literal(a.year))
        self.add(node, KG.prize, a.prize)
        self.provenance(node, a.span)

    def talk(self, t: Talk):
        when_where = f"{t.date or 'undated'}-{slug(t.place or '', 20)}"
        node = self.owner_fact(f"talk/{self.person_slug}/{slug(t.title, 50)}-{when_where}", KG.gaveTalk,
                               KG.Talk, SCHEMA.Event)
        self.add(node, KG.title, t.title)
        self.add(node, SCHEMA.name, t.title)
        self.add(node, KG.place, t.place)
        if t.date:
            self.add(node, KG.date, date_literal(t.date))
            self.add(node, SCHEMA.startDate, date_literal(t.date))
        self.provenance(node, t.span)

    def service(self, s: ServiceRole):
        venue = self.venue(s.venue)
        what = local_name(venue) if venue else slug(s.event or "service", 40)
        node = self.owner_fact(f"service/{self.person_slug}/{what}-{s.year or 'undated'}-{slug(s.role, 30)}",
                               KG.hasServiceRole, KG.ServiceRole)
        self.add(node, KG.role, s.role)
        self.add(node, KG.forVenue, venue)
        if s.year:
            self.add(node, KG.year, date_literal(s.year))
        self.add(node, KG.description, s.event)
        self.provenance(node, s.span)

    def project(self, p: Project):
        node = self.owner_fact(f"project/{slug(p.name)}", KG.participatedIn, KG.Project, SCHEMA.Project)
        self.add(node, KG.name, p.name)
        self.add(node, SCHEMA.name, p.name)
        self.add(node, KG.funding, p.funding)
        self.period(node, p.period)
        for d in p.description:
            self.add(node, KG.description, d)
        if p.homepage:
            self.link(node, KG.homepage, p.homepage, p.span)
        self.provenance(node, p.span)

    def skill(self, s: Skill):
        node = self.owner_fact(f"skill/{self.person_slug}/{slug(s.name)}", KG.hasSkill, KG.Skill)
        self.add(node, KG.name, s.name)
        if s.level is not None:
            self.add(node, KG.level, Literal(s.level, datatype=XSD.nonNegativeInteger))
            self.add(node, KG.levelOutOf, Literal(s.level_out_of, datatype=XSD.positiveInteger))
        self.add(node, KG.description, s.detail)
        self.provenance(node, s.span)

    def interest(self, i: Interest):
        node = self.owner_fact(f"interest/{self.person_slug}/{slug(i.name)}", KG.hasResearchInterest,
                               KG.ResearchInterest)
        self.add(self.subject, SCHEMA.knowsAbout, i.name)
        self.add(node, KG.name, i.name)
        self.provenance(node, i.span)


def document_graph(doc: Document, res: Resolution, document_date: str | None,
                   include_private: bool = False) -> TripleSet:
    """*doc*'s named graph."""
    source = source_iri(doc.path)
    g = TripleSet(source)
    w = DocumentWriter(g, doc, res, source, include_private)
    for c in (KG.SourceDocument, PROV.Entity, SCHEMA.DigitalDocument):
        w.add(source, TYPE, c)
    w.add(source, KG.fileName, doc.path)
    w.add(source, KG.sha256, doc.sha256)
    w.add(source, KG.format, doc.format)
    if document_date:
        w.add(source, KG.documentDate, date_literal(document_date))
    w.profile()
    handlers = {Work: w.work, Position: w.position, Education: w.education, Award: w.award, Talk: w.talk,
                ServiceRole: w.service, Project: w.project, Skill: w.skill, Interest: w.interest}
    for fact in doc.facts:
        if w.subject is None and not isinstance(fact, Work):
            continue
        handlers[type(fact)](fact)
    return g
