"""Records to RDF: one named graph per source document, and the merged view.

Each source graph holds exactly what its document says, in ontology terms, with
identity-resolved IRIs and line provenance on every fact node. The merged view is
the union of the source graphs where single-valued properties take the newest
source's value (see :func:`merged_graph`).
"""

from __future__ import annotations

from collections import defaultdict

from rdflib import RDF, XSD, Dataset, Graph, Literal, URIRef
from rdflib.namespace import DCTERMS, FOAF, OWL, PROV, RDFS

from kg.identity import Resolution, slug, work_iri
from kg.records import (
    Award, Document, Education, Interest, OrgRef, Period, Position, Project, ServiceRole, Skill, Span, Talk, Work,
)
from kg.vocab import DATA, KG, SCHEMA

POSITION_CLASS = {"job": KG.Job, "internship": KG.Internship, "visit": KG.Visit, "fellowship": KG.Fellowship,
                  "teaching": KG.Teaching}
WORK_KIND_CLASSES = (KG.Article, KG.Preprint, KG.Thesis, SCHEMA.ScholarlyArticle, SCHEMA.Thesis)
# Properties with one value per subject in the merged view: where sources disagree, the newest wins.
SINGLE_VALUED = (KG.startDate, KG.endDate, KG.ongoing, KG.year, SCHEMA.datePublished, KG.title, SCHEMA.name, KG.ordinal,
                 KG.status, KG.degree, KG.field, KG.grade, KG.date, KG.place, KG.level, KG.levelOutOf)
PRIVATE = (KG.telephone, KG.streetAddress)


def date_literal(iso: str) -> Literal:
    """``"2024"`` -> xsd:gYear, ``"2024-06"`` -> xsd:gYearMonth, ``"2024-06-16"`` -> xsd:date.

    >>> date_literal("2024-06").datatype == XSD.gYearMonth
    True
    """
    kind = {4: XSD.gYear, 7: XSD.gYearMonth, 10: XSD.date}[len(iso)]
    return Literal(iso, datatype=kind)


def source_iri(document: str) -> URIRef:
    return URIRef(DATA["source/" + slug(document, 100)])


class _GraphWriter:
    """Adds one document's triples to its named graph."""

    def __init__(self, graph: Graph, doc: Document, res: Resolution, source: URIRef, include_private: bool):
        self.g, self.doc, self.res, self.source = graph, doc, res, source
        self.include_private = include_private
        self.subject = URIRef(res.subject_of_document[doc.path]) if doc.path in res.subject_of_document else None
        self.person_slug = self.subject.rsplit("/", 1)[1] if self.subject else "unknown"

    def add(self, s, p, o):
        if o is None or o == "":
            return
        if not isinstance(o, (URIRef, Literal)):
            o = Literal(o)
        self.g.add((s, p, o))

    def provenance(self, node: URIRef, span: Span):
        self.add(node, KG.fromSource, self.source)
        self.add(node, KG.firstLine, Literal(span.first_line, datatype=XSD.positiveInteger))
        self.add(node, KG.lastLine, Literal(span.last_line, datatype=XSD.positiveInteger))

    def period(self, node: URIRef, period: Period):
        if period.start:
            self.add(node, KG.startDate, date_literal(period.start))
        if period.end:
            self.add(node, KG.endDate, date_literal(period.end))
        if period.ongoing:
            self.add(node, KG.ongoing, Literal(True))

    def person(self, name: str, work_title: str | None = None) -> URIRef:
        iri = URIRef(self.res.person(name, work_title))
        person = self.res.people[str(iri)]
        canonical = person.name
        if person.label:
            self.add(iri, RDFS.label, person.label)
        self.add(iri, RDF.type, KG.Person)
        self.add(iri, RDF.type, SCHEMA.Person)
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
        while iri:
            info = self.res.org_info[iri]
            n = URIRef(iri)
            self.add(n, RDF.type, KG.Organization)
            self.add(n, RDF.type, SCHEMA.Organization)
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
                self.add(n, RDF.type, KG.OrganizationalUnit)
                self.add(n, KG.partOf, URIRef(info["parent"]))
            iri = info["parent"]
        return node

    def venue(self, ref) -> URIRef | None:
        if ref is None:
            return None
        iri = self.res.venue(ref)
        if iri is None:
            return None
        node = URIRef(iri)
        info = self.res.venue_names[iri]
        self.add(node, RDF.type, KG.Venue)
        self.add(node, RDF.type, SCHEMA.CreativeWorkSeries)
        self.add(node, KG.name, info["name"])
        self.add(node, SCHEMA.name, info["name"])
        if info["acronym"]:
            self.add(node, KG.acronym, info["acronym"])
        return node

    # --- facts ------------------------------------------------------------------------

    def profile(self):
        p = self.doc.subject
        if not p or self.subject is None:
            return
        me = self.person(p.name)
        self.add(self.source, KG.about, me)
        for e in p.emails:
            self.add(me, KG.email, e)
        for h in p.homepages:
            self.add(me, KG.homepage, URIRef(h))
        if p.orcid:
            self.add(me, KG.orcid, URIRef(p.orcid))
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
        node = URIRef(work_iri(self.res, self.doc.path, w))
        kind_class = KG.Thesis if w.kind == "thesis" else KG.Preprint if w.status != "published" else KG.Article
        schema_class = SCHEMA.Thesis if w.kind == "thesis" else SCHEMA.ScholarlyArticle
        for c in (KG.Work, kind_class, SCHEMA.CreativeWork, schema_class):
            self.add(node, RDF.type, c)
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
        self.provenance(node, w.span)
        work_slug = node.rsplit("/", 1)[1]
        authors = [(a.name, a.printed, i + 1, a.equal_contribution, a.et_al_follows) for i, a in enumerate(w.authors)]
        if not authors and w.subject_ordinal and self.subject is not None:
            authors = [(self.res.people[str(self.subject)].name, self.doc.subject.name, w.subject_ordinal,
                        w.subject_equal_contribution, False)]
        for name, printed, ordinal, equal, et_al in authors:
            person = self.person(name, w.title) if not (self.subject and name == self.doc.subject.name) else self.subject
            if person == self.subject:
                self.person(self.doc.subject.name)
            self.add(node, KG.hasAuthor, person)
            self.add(node, SCHEMA.author, person)
            authorship = URIRef(DATA[f"authorship/{work_slug}/{person.rsplit('/', 1)[1]}"])
            self.add(node, KG.hasAuthorship, authorship)
            self.add(authorship, RDF.type, KG.Authorship)
            self.add(authorship, KG.author, person)
            self.add(authorship, KG.ordinal, Literal(ordinal, datatype=XSD.positiveInteger))
            self.add(authorship, KG.printedName, printed)
            self.add(authorship, KG.equalContribution, Literal(bool(equal)))
            if et_al:
                self.add(authorship, KG.etAlFollows, Literal(True))
            self.provenance(authorship, w.span)
        for s in w.supervisors:
            self.add(node, KG.supervisor, self.person(s))
        if w.institution is not None:
            self.add(node, KG.awardingInstitution, self.organization(w.institution))
        return node

    def position(self, p: Position):
        org = self.organization(p.organization)
        where = org.split("/id/org/", 1)[1].replace("/", "-") if org else "unknown"
        node = URIRef(DATA[f"position/{self.person_slug}/{where}-{slug(p.role or 'member', 40)}"])
        self.add(node, RDF.type, KG.Position)
        self.add(node, RDF.type, POSITION_CLASS[p.kind])
        self.add(node, RDF.type, SCHEMA.OrganizationRole)
        self.add(self.subject, KG.hasPosition, node)
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
            self.add(node, KG.homepage, URIRef(p.homepage))
        self.provenance(node, p.span)

    def education(self, e: Education):
        org = self.organization(e.institution)
        root = org
        while root is not None and self.res.org_info[str(root)]["parent"]:
            root = URIRef(self.res.org_info[str(root)]["parent"])
        where = root.rsplit("/", 1)[1] if root else "unknown"
        node = URIRef(DATA[f"education/{self.person_slug}/{where}-{e.level or slug(e.degree or 'degree')}"])
        self.add(node, RDF.type, KG.Education)
        self.add(node, RDF.type, SCHEMA.OrganizationRole)
        self.add(self.subject, KG.hasEducation, node)
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
            thesis = Work(e.thesis_title, e.span, kind="thesis",
                          year=e.period.end[:4] if e.period.end else None, subject_ordinal=1,
                          supervisors=e.supervisors, institution=e.institution)
            existing = URIRef(work_iri(self.res, self.doc.path, thesis))
            # A record that lists the thesis as a work already stated it, with its own lines.
            self.add(node, KG.thesis, existing if (existing, KG.title, None) in self.g else self.work(thesis))
        self.provenance(node, e.span)

    def award(self, a: Award):
        node = URIRef(DATA[f"award/{self.person_slug}/{slug(a.title, 50)}-{a.year or 'undated'}"])
        self.add(node, RDF.type, KG.Award)
        self.add(self.subject, KG.receivedAward, node)
        self.add(self.subject, SCHEMA.award, a.title)
        self.add(node, KG.name, a.title)
        if a.year:
            self.add(node, KG.year, date_literal(a.year))
        self.add(node, KG.prize, a.prize)
        self.provenance(node, a.span)

    def talk(self, t: Talk):
        node = URIRef(DATA[f"talk/{self.person_slug}/{slug(t.title, 50)}-{t.date or 'undated'}-{slug(t.place or '', 20)}"])
        self.add(node, RDF.type, KG.Talk)
        self.add(node, RDF.type, SCHEMA.Event)
        self.add(self.subject, KG.gaveTalk, node)
        self.add(node, KG.title, t.title)
        self.add(node, SCHEMA.name, t.title)
        self.add(node, KG.place, t.place)
        if t.date:
            self.add(node, KG.date, date_literal(t.date))
            self.add(node, SCHEMA.startDate, date_literal(t.date))
        self.provenance(node, t.span)

    def service(self, s: ServiceRole):
        venue = self.venue(s.venue)
        what = venue.rsplit("/", 1)[1] if venue else slug(s.event or "service", 40)
        node = URIRef(DATA[f"service/{self.person_slug}/{what}-{s.year or 'undated'}-{slug(s.role, 30)}"])
        self.add(node, RDF.type, KG.ServiceRole)
        self.add(self.subject, KG.hasServiceRole, node)
        self.add(node, KG.role, s.role)
        self.add(node, KG.forVenue, venue)
        if s.year:
            self.add(node, KG.year, date_literal(s.year))
        self.add(node, KG.description, s.event)
        self.provenance(node, s.span)

    def project(self, p: Project):
        node = URIRef(DATA[f"project/{slug(p.name)}"])
        self.add(node, RDF.type, KG.Project)
        self.add(node, RDF.type, SCHEMA.Project)
        self.add(self.subject, KG.participatedIn, node)
        self.add(node, KG.name, p.name)
        self.add(node, SCHEMA.name, p.name)
        self.add(node, KG.funding, p.funding)
        self.period(node, p.period)
        for d in p.description:
            self.add(node, KG.description, d)
        if p.homepage:
            self.add(node, KG.homepage, URIRef(p.homepage))
        self.provenance(node, p.span)

    def skill(self, s: Skill):
        node = URIRef(DATA[f"skill/{self.person_slug}/{slug(s.name)}"])
        self.add(node, RDF.type, KG.Skill)
        self.add(self.subject, KG.hasSkill, node)
        self.add(node, KG.name, s.name)
        if s.level is not None:
            self.add(node, KG.level, Literal(s.level, datatype=XSD.nonNegativeInteger))
            self.add(node, KG.levelOutOf, Literal(s.level_out_of, datatype=XSD.positiveInteger))
        self.add(node, KG.description, s.detail)
        self.provenance(node, s.span)

    def interest(self, i: Interest):
        node = URIRef(DATA[f"interest/{self.person_slug}/{slug(i.name)}"])
        self.add(node, RDF.type, KG.ResearchInterest)
        self.add(self.subject, KG.hasResearchInterest, node)
        self.add(self.subject, SCHEMA.knowsAbout, i.name)
        self.add(node, KG.name, i.name)
        self.provenance(node, i.span)


def document_graph(ds: Dataset, doc: Document, res: Resolution, document_date: str | None,
                   include_private: bool = False) -> Graph:
    """Add *doc*'s named graph to *ds* and return it."""
    source = source_iri(doc.path)
    g = ds.graph(source)
    w = _GraphWriter(g, doc, res, source, include_private)
    for c in (KG.SourceDocument, PROV.Entity, SCHEMA.DigitalDocument):
        w.add(source, RDF.type, c)
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


CURATION_SOURCE = URIRef(DATA["source/curation"])
#: Corrections in the curation file outrank every document in the merged view.
CURATION_NEWNESS = "9999"


def curation_graph(ds: Dataset, curation, res: Resolution) -> Graph | None:
    """The curation file's corrections as their own named graph, with the file's lines as provenance."""
    from kg.identity import title_key

    if not curation.corrections:
        return None
    g = ds.graph(CURATION_SOURCE)
    for c in (KG.SourceDocument, PROV.Entity):
        g.add((CURATION_SOURCE, RDF.type, c))
    g.add((CURATION_SOURCE, KG.fileName, Literal("curation.yaml")))
    for fix in curation.corrections.get("works", []):
        iri = next(URIRef(w) for w, titles in sorted(res.work_titles.items())
                   if any(title_key(t) == title_key(fix["title"]) for _, t in titles))
        if "year" in fix:
            g.add((iri, KG.year, date_literal(fix["year"])))
            g.add((iri, SCHEMA.datePublished, date_literal(fix["year"])))
        if "status" in fix:
            g.add((iri, KG.status, Literal(fix["status"])))
        g.add((iri, KG.fromSource, CURATION_SOURCE))
        g.add((iri, KG.firstLine, Literal(int(fix["line"]), datatype=XSD.positiveInteger)))
        g.add((iri, KG.lastLine, Literal(int(fix["line"]), datatype=XSD.positiveInteger)))
    for fix in curation.corrections.get("people", []):
        iri = URIRef(res.person(fix["name"]))
        if "email" in fix:
            g.add((iri, KG.email, Literal(fix["email"])))
        for key, prop in (("homepage", KG.homepage), ("orcid", KG.orcid)):
            if key in fix:
                g.add((iri, prop, URIRef(fix[key])))
    return g


def merged_graph(ds: Dataset, newness: dict[URIRef, str]) -> Graph:
    """The union of the source graphs; for single-valued properties the newest source's value.

    *newness* maps each source graph IRI to a sortable date string; ties go to the
    source whose file name sorts last, so the choice is deterministic. A work's older
    titles become ``kg:alternativeTitle``.
    """
    merged = Graph()
    values: dict[tuple, dict] = defaultdict(dict)  # (s, p) -> value -> newest rank
    for g in sorted(ds.graphs(), key=lambda g: str(g.identifier)):
        if not isinstance(g.identifier, URIRef) or str(g.identifier) not in map(str, newness):
            continue
        rank = (newness[g.identifier], str(g.identifier))
        for s, p, o in g:
            if p in SINGLE_VALUED or (p == RDF.type and o in WORK_KIND_CLASSES):
                key = (s, p if p != RDF.type else "kind")
                prev = values[key].get((p, o))
                values[key][(p, o)] = max(prev, rank) if prev else rank
            else:
                merged.add((s, p, o))
    for (s, _), seen in values.items():
        if s is None:
            continue
        newest = max(seen.values())
        winners = sorted(po for po, rank in seen.items() if rank == newest)
        kinds = {po for po in winners}
        for p, o in kinds:
            merged.add((s, p, o))
        for (p, o), rank in seen.items():
            if p == KG.title and (p, o) not in kinds:
                merged.add((s, KG.alternativeTitle, o))
    return merged


def serialize_trig(ds: Dataset) -> bytes:
    """TriG with the named graphs in IRI order, each as sorted Turtle: the same dataset, the same bytes."""
    prefixes, blocks = [], []
    for g in sorted((g for g in ds.graphs() if len(g)), key=lambda g: str(g.identifier)):
        bind_prefixes(g)
        text = g.serialize(format="turtle")
        lines = text.splitlines()
        body = [ln for ln in lines if not ln.startswith("@prefix")]
        prefixes += [ln for ln in lines if ln.startswith("@prefix")]
        blocks.append(f"<{g.identifier}> {{\n" + "\n".join("    " + ln if ln else "" for ln in body).rstrip()
                      + "\n}\n")
    head = "\n".join(sorted(set(prefixes)))
    return (head + "\n\n" + "\n".join(blocks)).encode()


def serialize_jsonld(graph: Graph) -> bytes:
    """JSON-LD with every array sorted (JSON-LD arrays here are unordered sets), for stable bytes."""
    import json

    def canon(x):
        if isinstance(x, dict):
            return {k: canon(v) for k, v in sorted(x.items())}
        if isinstance(x, list):
            return sorted((canon(v) for v in x), key=lambda v: json.dumps(v, sort_keys=True, ensure_ascii=False))
        return x

    data = json.loads(graph.serialize(format="json-ld"))
    return (json.dumps(canon(data), indent=1, ensure_ascii=False) + "\n").encode()


def bind_prefixes(g) -> None:
    for prefix, ns in (("kg", KG._NS), ("id", DATA), ("schema", SCHEMA), ("prov", PROV), ("foaf", FOAF),
                       ("dcterms", DCTERMS), ("xsd", XSD), ("rdfs", RDFS), ("owl", OWL)):
        g.bind(prefix, ns, override=True, replace=True)

