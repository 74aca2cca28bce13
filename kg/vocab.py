"""The kg ontology as closed namespaces, so that a misspelt term fails at import time.

``KG`` lists exactly the terms defined in ``ontology.ttl`` (a test keeps the two in step);
``KG.Persn`` raises ``AttributeError`` instead of minting a new IRI.

>>> KG.Person
rdflib.term.URIRef('https://kg.example/ns#Person')
>>> KG.Persn
Traceback (most recent call last):
...
AttributeError: term 'Persn' not in namespace 'https://kg.example/ns#'
"""

from __future__ import annotations

from rdflib import Namespace, URIRef
from rdflib.namespace import DefinedNamespace


class _RememberingNamespace(Namespace):
    """A :class:`~rdflib.Namespace` that keeps each term it made: ``SCHEMA.name`` is looked up in a
    dict after its first use instead of minting a new ``URIRef`` (the mapping does it a million times)."""

    def __getattr__(self, name: str):
        term = super().__getattr__(name)
        self.__dict__[name] = term
        return term


#: Base of every IRI kg mints for people, works, organizations, venues and sources.
DATA = Namespace("https://kg.example/id/")

#: schema.org's terms under http://, the namespace its own JSON-LD context ("@vocab") expands to and
#: the one SPARQL clients write, so ``PREFIX schema: <http://schema.org/>`` finds the graph's terms.
SCHEMA = _RememberingNamespace("http://schema.org/")
PROV = _RememberingNamespace("http://www.w3.org/ns/prov#")
#: The kg ontology's namespace; :class:`KG` holds its terms.
NS = "https://kg.example/ns#"


class KG(DefinedNamespace):
    """Terms of the kg ontology (``ontology.ttl``)."""

    _NS = Namespace(NS)
    _fail = True

    # classes
    Article: URIRef
    Authorship: URIRef
    Award: URIRef
    Education: URIRef
    Fellowship: URIRef
    Internship: URIRef
    Job: URIRef
    Organization: URIRef
    OrganizationalUnit: URIRef
    Person: URIRef
    Position: URIRef
    Preprint: URIRef
    Project: URIRef
    ResearchInterest: URIRef
    ServiceRole: URIRef
    Skill: URIRef
    SourceDocument: URIRef
    Talk: URIRef
    Teaching: URIRef
    Thesis: URIRef
    Venue: URIRef
    Visit: URIRef
    Work: URIRef

    # properties
    about: URIRef
    abstract: URIRef
    acronym: URIRef
    affiliation: URIRef
    alternateName: URIRef
    alternativeTitle: URIRef
    author: URIRef
    awardingInstitution: URIRef
    biography: URIRef
    country: URIRef
    course: URIRef
    date: URIRef
    degree: URIRef
    degreeLevel: URIRef
    description: URIRef
    documentDate: URIRef
    doi: URIRef
    editor: URIRef
    email: URIRef
    endDate: URIRef
    equalContribution: URIRef
    etAlFollows: URIRef
    familyName: URIRef
    field: URIRef
    fileName: URIRef
    firstLine: URIRef
    format: URIRef
    forVenue: URIRef
    fromSource: URIRef
    funding: URIRef
    gaveTalk: URIRef
    givenName: URIRef
    grade: URIRef
    hasAuthor: URIRef
    hasAuthorship: URIRef
    hasEducation: URIRef
    hasPosition: URIRef
    hasResearchInterest: URIRef
    hasServiceRole: URIRef
    hasSkill: URIRef
    holder: URIRef
    homepage: URIRef
    keyword: URIRef
    lastLine: URIRef
    level: URIRef
    levelOutOf: URIRef
    location: URIRef
    name: URIRef
    ongoing: URIRef
    orcid: URIRef
    ordinal: URIRef
    organization: URIRef
    participatedIn: URIRef
    partOf: URIRef
    place: URIRef
    printedName: URIRef
    prize: URIRef
    publishedIn: URIRef
    receivedAward: URIRef
    recognition: URIRef
    role: URIRef
    sha256: URIRef
    sourceFile: URIRef
    sourcePlace: URIRef
    startDate: URIRef
    status: URIRef
    streetAddress: URIRef
    submittedTo: URIRef
    supervisor: URIRef
    telephone: URIRef
    thesis: URIRef
    title: URIRef
    url: URIRef
    year: URIRef


# Each term as a plain class attribute, found without DefinedNamespace's __getattr__ (ten times
# faster on the mapping's hot path); a name not in the ontology still raises AttributeError.
for _name in KG.__annotations__:
    type.__setattr__(KG, _name, KG._NS[_name])
del _name

#: ``rdf:type``, looked up once (rdflib's closed ``RDF.type`` costs a method call each time).
TYPE = URIRef("http://www.w3.org/1999/02/22-rdf-syntax-ns#type")

#: Properties with one value per subject in the merged view: where sources disagree, the newest wins.
#: ``schema:`` mirrors of ``kg:`` terms are listed too, so the merged view keeps them in step.
SINGLE_VALUED = (KG.startDate, KG.endDate, KG.ongoing, KG.year, SCHEMA.datePublished, KG.title, SCHEMA.name,
                 KG.ordinal, KG.status, KG.degree, KG.field, KG.grade, KG.date, KG.place, KG.level, KG.levelOutOf,
                 KG.equalContribution)

#: Prefixes every SPARQL query may use without declaring them (a query's own PREFIX wins).
PREFIXES: dict[str, str] = {
    "kg": NS,
    "id": str(DATA),
    "schema": str(SCHEMA),
    "prov": str(PROV),
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
    "owl": "http://www.w3.org/2002/07/owl#",
    "dcterms": "http://purl.org/dc/terms/",
    "foaf": "http://xmlns.com/foaf/0.1/",
}


def sparql_prefixes(*names: str) -> str:
    """SPARQL ``PREFIX`` lines for the named prefixes of :data:`PREFIXES`.

    >>> sparql_prefixes("kg")
    'PREFIX kg: <https://kg.example/ns#>\\n'
    """
    return "".join(f"PREFIX {n}: <{PREFIXES[n]}>\n" for n in names)
