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

#: Base of every IRI kg mints for people, works, organizations, venues and sources.
DATA = Namespace("https://kg.example/id/")

SCHEMA = Namespace("https://schema.org/")
PROV = Namespace("http://www.w3.org/ns/prov#")


class KG(DefinedNamespace):
    """Terms of the kg ontology (``ontology.ttl``)."""

    _NS = Namespace("https://kg.example/ns#")
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
    email: URIRef
    endDate: URIRef
    equalContribution: URIRef
    etAlFollows: URIRef
    familyName: URIRef
    field: URIRef
    fileName: URIRef
    firstLine: URIRef
    forVenue: URIRef
    format: URIRef
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
    partOf: URIRef
    participatedIn: URIRef
    place: URIRef
    printedName: URIRef
    prize: URIRef
    publishedIn: URIRef
    receivedAward: URIRef
    recognition: URIRef
    role: URIRef
    sha256: URIRef
    startDate: URIRef
    status: URIRef
    streetAddress: URIRef
    submittedTo: URIRef
    supervisor: URIRef
    telephone: URIRef
    thesis: URIRef
    title: URIRef
    year: URIRef
