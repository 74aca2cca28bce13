"""Records to RDF: one named graph per source document, in ontology terms.

Each source graph holds exactly what its document says, in kg's terms, with identity-resolved IRIs
and line provenance on every fact node; what the ontology entails from that for schema.org readers
(``schema:name`` beside ``kg:title``, ``schema:author`` and ``kg:hasAuthor`` beside each authorship)
goes into the merged view only (see :meth:`kg.rdf.writer.GraphWriter.entail`). A document without
an owner (a group page, a lab bibliography) gives its works, authors and venues; facts about an
owner need one.
"""

from __future__ import annotations

from kg.collector import collector_paused
from kg.identity.keys import slug
from kg.identity.resolution import Resolution
from kg.identity.works import thesis_work
from kg.rdf.quads import TripleSet, iri, literal
from kg.rdf.terms import date_term, local_name, org_path, source_iri
from kg.rdf.writer import POSITIVE, TRUE, A, GraphWriter, K, S
from kg.records import Award, Document, Education, Interest, Position, Project, ServiceRole, Skill, Talk, Work
from kg.vocab import DATA_IRIS, PREFIXES, PROV_IRIS

POSITION_CLASS = {"job": K.Job, "internship": K.Internship, "visit": K.Visit, "fellowship": K.Fellowship,
                  "teaching": K.Teaching}
_AUTHORSHIP = DATA_IRIS["authorship/"]
_SOURCE_CLASSES = (K.SourceDocument, iri(PROV_IRIS.Entity))
_NON_NEGATIVE = PREFIXES["xsd"] + "nonNegativeInteger"


class DocumentWriter(GraphWriter):
    """Adds one document's facts to its named graph."""

    def profile(self):
        p = self.doc.subject
        if not p or self.subject is None:
            return
        me = self.person(p.name)
        self.add(self.source, K.about, me)
        for e in p.emails:
            self.text(me, K.email, e)
        for h in p.homepages:
            self.link(me, K.homepage, h, p.span)
        if p.orcid:
            self.link(me, K.orcid, p.orcid, p.span, orcid=True)
        if p.biography:
            self.text(me, K.biography, p.biography)
        for org in p.affiliations:
            self.add(me, K.affiliation, self.organization(org))
            self.entail(me, S.affiliation, self.node(self.res.organization(org)))
        if self.include_private:
            for t in p.telephones:
                self.text(me, K.telephone, t)
            for a in p.street_addresses:
                self.text(me, K.streetAddress, a)

    def work(self, w: Work) -> str:
        work_iri = self.res.work(self.doc.path, w)
        node = self.node(work_iri)
        kind_class = K.Thesis if w.kind == "thesis" else K.Preprint if w.status != "published" else K.Article
        schema_class = S.Thesis if w.kind == "thesis" else S.ScholarlyArticle
        for c in (K.Work, kind_class):
            self.add(node, A, c)
        for c in (S.CreativeWork, schema_class):
            self.entail(node, A, c)
        self.text(node, K.title, w.title)
        self.text(node, S.name, w.title, entailed=True)
        self.text(node, K.status, w.status)
        if w.year:
            year = date_term(w.year[:4])
            self.add(node, K.year, year)
            self.entail(node, S.datePublished, year)
        venue = self.venue(w.venue)
        if venue is not None:
            self.add(node, K.publishedIn if w.status == "published" else K.submittedTo, venue)
        self.text(node, K.abstract, w.abstract)
        for r in w.recognitions:
            self.text(node, K.recognition, r)
        for k in w.keywords:
            self.text(node, K.keyword, k)
        self.text(node, K.doi, w.doi)
        if w.url:
            self.link(node, K.url, w.url, w.span)
        self.provenance(node, w.span)
        work_slug = local_name(work_iri)
        for name, printed, ordinal, equal, et_al in self._authors(w):
            self.authorship(node, work_slug, w, name, printed, ordinal, equal, et_al)
        for s in w.supervisors:
            self.add(node, K.supervisor, self.person(s))
        for e in w.editors:
            self.add(node, K.editor, self.person(e, w.title))
        if w.institution is not None:
            self.add(node, K.awardingInstitution, self.organization(w.institution))
        return node

    def _authors(self, w: Work) -> list[tuple]:
        """(name, printed, ordinal or None, equal contribution, et al. follows) for each author of *w*.

        Where the document prints no author list, its owner is the one author known: at the place
        the document gives ("First author"), or at no known place (an ORCID work summary).
        """
        authors = [(a.name, a.printed, i + 1, a.equal_contribution, a.et_al_follows) for i, a in enumerate(w.authors)]
        if not authors and (w.subject_ordinal or w.authors_not_listed) and self.subject is not None:
            authors = [(self.res.people[self.owner].name, self.doc.subject.name, w.subject_ordinal,
                        w.subject_equal_contribution, False)]
        return authors

    def authorship(self, node: str, work_slug: str, w: Work, name: str, printed: str, ordinal: int | None,
                   equal: bool, et_al: bool) -> None:
        """The authorship of *name* on the work *node* (whose IRI ends in *work_slug*)."""
        owner = self.doc.subject
        is_owner = self.subject is not None and name == owner.name
        person_iri = self.owner if is_owner else self.person_iri(name, w.title)
        if self.subject is not None and person_iri == self.owner:
            self.person(owner.name)  # the owner's own name, as the document's header prints it
        person = self.node(person_iri)
        self.entailed.update(((node, K.hasAuthor, person), (node, S.author, person)))
        add = self.triples.add
        authorship = self.node(f"{_AUTHORSHIP}{work_slug}/{local_name(person_iri)}")
        add((node, K.hasAuthorship, authorship))
        self.entail(authorship, A, K.Authorship)  # kg:hasAuthorship's range: the merged view states it
        add((authorship, K.author, person))
        if ordinal:
            add((authorship, K.ordinal, self.positive(ordinal)))
        self.text(authorship, K.printedName, printed)
        if equal:  # a mark, like et al.: a document without it is silent, so no false is written
            add((authorship, K.equalContribution, TRUE))
        if et_al:
            add((authorship, K.etAlFollows, TRUE))
        # no provenance of its own: an authorship is read from its work's lines, which the work records

    def owner_fact(self, path: str, link: str, *types: str, schema_type: str | None = None) -> str:
        """The node ``id:path`` of one fact about the owner, with its *types* (and the entailed
        *schema_type*), linked from the owner by *link*."""
        node = self.node(DATA_IRIS[path])
        for t in types:
            self.add(node, A, t)
        self.entail(node, A, schema_type)
        self.add(self.subject, link, node)
        return node

    def position(self, p: Position):
        org = self.organization(p.organization)
        where = org_path(self.res.organization(p.organization)) if org else "unknown"
        node = self.owner_fact(f"position/{self.person_slug}/{where}-{slug(p.role or 'member', 40)}", K.hasPosition,
                               K.Position, POSITION_CLASS[p.kind], schema_type=S.OrganizationRole)
        self.add(node, K.holder, self.subject)
        self.add(node, K.organization, org)
        self.text(node, K.role, p.role)
        self.period(node, p.period)
        self.text(node, K.location, p.location)
        for d in p.description:
            self.text(node, K.description, d)
        for c in p.courses:
            self.text(node, K.course, c)
        if p.homepage:
            self.link(node, K.homepage, p.homepage, p.span)
        self.provenance(node, p.span)

    def education(self, e: Education):
        org = self.organization(e.institution)
        root = self.res.organization(e.institution) if org else None
        while root is not None and self.res.org_info[root]["parent"]:
            root = self.res.org_info[root]["parent"]
        where = local_name(root) if root else "unknown"
        node = self.owner_fact(f"education/{self.person_slug}/{where}-{e.level or slug(e.degree or 'degree')}",
                               K.hasEducation, K.Education, schema_type=S.OrganizationRole)
        self.add(node, K.holder, self.subject)
        self.add(node, K.organization, org)
        self.text(node, K.degree, e.degree)
        self.text(node, K.degreeLevel, e.level)
        self.text(node, K.field, e.field_of_study)
        self.text(node, K.grade, e.grade)
        self.text(node, K.location, e.location)
        self.period(node, e.period)
        for s in e.supervisors:
            self.add(node, K.supervisor, self.person(s))
        if e.thesis_title:
            thesis = thesis_work(e)
            existing = self.node(self.res.work(self.doc.path, thesis))
            # A record that lists the thesis as a work already stated it, with its own lines.
            stated = any(s == existing and p == K.title for s, p, _ in self.triples)
            self.add(node, K.thesis, existing if stated else self.work(thesis))
        self.provenance(node, e.span)

    def award(self, a: Award):
        node = self.owner_fact(f"award/{self.person_slug}/{slug(a.title, 50)}-{a.year or 'undated'}", K.receivedAward,
                               K.Award)
        self.text(self.subject, S.award, a.title, entailed=True)
        self.text(node, K.name, a.title)
        if a.year:
            self.add(node, K.year, date_term(a.year))
        self.text(node, K.prize, a.prize)
        self.provenance(node, a.span)

    def talk(self, t: Talk):
        when_where = f"{t.date or 'undated'}-{slug(t.place or '', 20)}"
        node = self.owner_fact(f"talk/{self.person_slug}/{slug(t.title, 50)}-{when_where}", K.gaveTalk,
                               K.Talk, schema_type=S.Event)
        self.text(node, K.title, t.title)
        self.text(node, S.name, t.title, entailed=True)
        self.text(node, K.place, t.place)
        if t.date:
            self.add(node, K.date, date_term(t.date))
            self.entail(node, S.startDate, date_term(t.date))
        self.provenance(node, t.span)

    def service(self, s: ServiceRole):
        venue = self.venue(s.venue)
        what = local_name(self.res.venue(s.venue)) if venue else slug(s.event or "service", 40)
        node = self.owner_fact(f"service/{self.person_slug}/{what}-{s.year or 'undated'}-{slug(s.role, 30)}",
                               K.hasServiceRole, K.ServiceRole)
        self.text(node, K.role, s.role)
        self.add(node, K.forVenue, venue)
        if s.year:
            self.add(node, K.year, date_term(s.year))
        self.text(node, K.description, s.event)
        self.provenance(node, s.span)

    def project(self, p: Project):
        node = self.owner_fact(f"project/{slug(p.name)}", K.participatedIn, K.Project, schema_type=S.Project)
        self.text(node, K.name, p.name)
        self.text(node, S.name, p.name, entailed=True)
        self.text(node, K.funding, p.funding)
        self.period(node, p.period)
        for d in p.description:
            self.text(node, K.description, d)
        if p.homepage:
            self.link(node, K.homepage, p.homepage, p.span)
        self.provenance(node, p.span)

    def skill(self, s: Skill):
        node = self.owner_fact(f"skill/{self.person_slug}/{slug(s.name)}", K.hasSkill, K.Skill)
        self.text(node, K.name, s.name)
        if s.level is not None:
            self.add(node, K.level, literal(str(s.level), _NON_NEGATIVE))
            self.add(node, K.levelOutOf, literal(str(s.level_out_of), POSITIVE))
        self.text(node, K.description, s.detail)
        self.provenance(node, s.span)

    def interest(self, i: Interest):
        node = self.owner_fact(f"interest/{self.person_slug}/{slug(i.name)}", K.hasResearchInterest,
                               K.ResearchInterest)
        self.text(self.subject, S.knowsAbout, i.name, entailed=True)
        self.text(node, K.name, i.name)
        self.provenance(node, i.span)


def document_graph(doc: Document, res: Resolution, document_date: str | None,
                   include_private: bool = False) -> TripleSet:
    """*doc*'s named graph."""
    with collector_paused():
        return _document_graph(doc, res, document_date, include_private)


def _document_graph(doc: Document, res: Resolution, document_date: str | None, include_private: bool) -> TripleSet:
    source = source_iri(doc.path)
    g = TripleSet(source)
    w = DocumentWriter(g, doc, res, source, include_private)
    for c in _SOURCE_CLASSES:
        w.add(w.source, A, c)
    w.entail(w.source, A, S.DigitalDocument)
    w.text(w.source, K.fileName, doc.path)
    w.text(w.source, K.sha256, doc.sha256)
    w.text(w.source, K.format, doc.format)
    if document_date:
        w.add(w.source, K.documentDate, date_term(document_date))
    w.profile()
    handlers = {Work: w.work, Position: w.position, Education: w.education, Award: w.award, Talk: w.talk,
                ServiceRole: w.service, Project: w.project, Skill: w.skill, Interest: w.interest}
    for fact in doc.facts:
        if w.subject is None and not isinstance(fact, Work):
            continue
        handlers[type(fact)](fact)
    return g
