"""The kg ontology's terms and the namespaces kg writes, as plain IRI strings and as rdflib namespaces.

The plain strings (:data:`PREFIXES`, :data:`KG_TERMS`, :class:`IRIs`) cost no import: the build
writes N-Triples text and never makes an rdflib term. The rdflib face (``KG``, ``DATA``, ``SCHEMA``,
``PROV``, ``TYPE``, ``SINGLE_VALUED``) is made from them on first use, so that a misspelt term
still fails at once: ``KG`` lists exactly the terms defined in ``ontology.ttl`` (a test keeps
the two in step) and ``KG.Persn`` raises ``AttributeError`` instead of minting a new IRI.

>>> KG_IRIS.Person
'https://kg.example/ns#Person'
>>> from kg.vocab import KG
>>> KG.Person
rdflib.term.URIRef('https://kg.example/ns#Person')
>>> KG.Persn
Traceback (most recent call last):
...
AttributeError: term 'Persn' not in namespace 'https://kg.example/ns#'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

if TYPE_CHECKING:
    from rdflib import Namespace, URIRef
    from rdflib.namespace import DefinedNamespace

    KG: type[DefinedNamespace]
    DATA: Namespace
    SCHEMA: Namespace
    PROV: Namespace
    TYPE: URIRef
    SINGLE_VALUED: tuple[URIRef, ...]

#: Prefixes every SPARQL query may use without declaring them (a query's own PREFIX wins), and the
#: namespaces kg writes: ``id:`` is the base of every IRI kg mints for people, works, organizations,
#: venues and sources; ``schema:`` is schema.org under http://, the namespace its own JSON-LD
#: context ("@vocab") expands to and the one SPARQL clients write, so that
#: ``PREFIX schema: <http://schema.org/>`` finds the graph's terms.
PREFIXES: dict[str, str] = {
    "kg": "https://kg.example/ns#",
    "id": "https://kg.example/id/",
    "schema": "http://schema.org/",
    "prov": "http://www.w3.org/ns/prov#",
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
    "owl": "http://www.w3.org/2002/07/owl#",
    "dcterms": "http://purl.org/dc/terms/",
    "foaf": "http://xmlns.com/foaf/0.1/",
}
#: The kg ontology's namespace.
NS = PREFIXES["kg"]

#: The terms of the kg ontology (``ontology.ttl``): its classes, then its properties.
KG_TERMS = (
    # classes
    "Article", "Authorship", "Award", "Education", "Fellowship", "Internship", "Job", "Organization",
    "OrganizationalUnit", "Person", "Position", "Preprint", "Project", "ResearchInterest", "ServiceRole",
    "Skill", "SourceDocument", "Talk", "Teaching", "Thesis", "Venue", "Visit", "Work",
    # properties
    "about", "abstract", "acronym", "affiliation", "alternateName", "alternativeTitle", "author",
    "awardingInstitution", "biography", "country", "course", "date", "degree", "degreeLevel", "description",
    "documentDate", "doi", "editor", "email", "endDate", "equalContribution", "etAlFollows", "familyName",
    "field", "fileName", "firstLine", "format", "forVenue", "fromSource", "funding", "gaveTalk", "givenName",
    "grade", "hasAuthor", "hasAuthorship", "hasEducation", "hasPosition", "hasResearchInterest",
    "hasServiceRole", "hasSkill", "holder", "homepage", "keyword", "lastLine", "level", "levelOutOf",
    "location", "name", "ongoing", "orcid", "ordinal", "organization", "participatedIn", "partOf", "place",
    "printedName", "prize", "publishedIn", "receivedAward", "recognition", "role", "sha256", "sourceFile",
    "sourcePlace", "sourcesDisagreeOn", "startDate", "status", "streetAddress", "submittedTo", "supervisor",
    "telephone", "thesis", "title", "url", "year",
)


class IRIs:
    """The IRIs of one namespace as plain strings, each made once; closed where *terms* are given
    (a term not among them raises ``AttributeError``, as a misspelling should).

    >>> IRIs("https://x.org/ns#").title, IRIs("https://x.org/id/")["work/w1"]
    ('https://x.org/ns#title', 'https://x.org/id/work/w1')
    >>> IRIs("https://x.org/ns#", ["title"]).titel
    Traceback (most recent call last):
    ...
    AttributeError: term 'titel' not in namespace 'https://x.org/ns#'
    """

    def __init__(self, base: str, terms: Iterable[str] | None = None):
        self._base = base
        self._terms = None if terms is None else frozenset(terms)

    def __getattr__(self, name: str) -> str:
        if name.startswith("_") or (self._terms is not None and name not in self._terms):
            raise AttributeError(f"term '{name}' not in namespace '{self._base}'")
        iri = self.__dict__[name] = self._base + name  # found as a plain attribute from now on
        return iri

    def __getitem__(self, path: str) -> str:
        return self._base + path

    def __str__(self) -> str:
        return self._base


KG_IRIS = IRIs(NS, KG_TERMS)
DATA_IRIS = IRIs(PREFIXES["id"])
SCHEMA_IRIS = IRIs(PREFIXES["schema"])
PROV_IRIS = IRIs(PREFIXES["prov"])
#: ``rdf:type``.
TYPE_IRI = PREFIXES["rdf"] + "type"

#: Properties with one value per subject in the merged view: where sources disagree, the newest wins.
#: ``schema:`` mirrors of ``kg:`` terms are listed too, so the merged view keeps them in step.
SINGLE_VALUED_IRIS = (KG_IRIS.startDate, KG_IRIS.endDate, KG_IRIS.ongoing, KG_IRIS.year, SCHEMA_IRIS.datePublished,
                      KG_IRIS.title, SCHEMA_IRIS.name, KG_IRIS.ordinal, KG_IRIS.status, KG_IRIS.degree, KG_IRIS.field,
                      KG_IRIS.grade, KG_IRIS.date, KG_IRIS.place, KG_IRIS.level, KG_IRIS.levelOutOf)


def sparql_prefixes(*names: str) -> str:
    """SPARQL ``PREFIX`` lines for the named prefixes of :data:`PREFIXES`.

    >>> sparql_prefixes("kg")
    'PREFIX kg: <https://kg.example/ns#>\\n'
    """
    return "".join(f"PREFIX {n}: <{PREFIXES[n]}>\n" for n in names)


def _rdflib_face() -> dict:
    """``KG``, ``DATA``, ``SCHEMA``, ``PROV``, ``TYPE`` and ``SINGLE_VALUED`` as rdflib objects."""
    from rdflib import Namespace, URIRef
    from rdflib.namespace import DefinedNamespace, DefinedNamespaceMeta

    class RememberingNamespace(Namespace):
        """A namespace that keeps each term it made: ``SCHEMA.name`` is a dict lookup after its first use."""

        def __getattr__(self, name: str):
            term = super().__getattr__(name)
            self.__dict__[name] = term
            return term

    kg = DefinedNamespaceMeta("KG", (DefinedNamespace,), {
        "__doc__": "Terms of the kg ontology (``ontology.ttl``).", "__module__": __name__,
        "__annotations__": dict.fromkeys(KG_TERMS, URIRef), "_NS": Namespace(NS), "_fail": True})
    # each term as a plain class attribute, found without DefinedNamespace's __getattr__ (ten times
    # faster); a name not in the ontology still raises AttributeError
    for name in KG_TERMS:
        type.__setattr__(kg, name, kg._NS[name])
    return {"KG": kg, "DATA": Namespace(str(DATA_IRIS)), "SCHEMA": RememberingNamespace(PREFIXES["schema"]),
            "PROV": RememberingNamespace(PREFIXES["prov"]), "TYPE": URIRef(TYPE_IRI),
            "SINGLE_VALUED": tuple(URIRef(p) for p in SINGLE_VALUED_IRIS)}


def __getattr__(name: str):
    """The rdflib face, made (with rdflib imported) the first time one of its names is asked for."""
    if name not in ("KG", "DATA", "SCHEMA", "PROV", "TYPE", "SINGLE_VALUED"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals().update(_rdflib_face())
    return globals()[name]
