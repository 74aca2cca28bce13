"""The IRIs and literals kg mints: source IRIs, parts of entity IRIs, dates as typed literals."""

from __future__ import annotations

from kg.identity.keys import slug
from kg.rdf.quads import literal
from kg.vocab import DATA_IRIS, PREFIXES

#: The named graph of the curation file's corrections.
CURATION_SOURCE = DATA_IRIS["source/curation"]
_ORG = DATA_IRIS["org/"]
_XSD = PREFIXES["xsd"]
_DATE_TYPES = {4: _XSD + "gYear", 7: _XSD + "gYearMonth", 10: _XSD + "date"}


def source_iri(document: str) -> str:
    """The IRI of a source document (and of its named graph).

    >>> source_iri("cv-jane.md")
    'https://kg.example/id/source/cv-jane-md'
    """
    return DATA_IRIS["source/" + slug(document, 100)]


def local_name(iri: str) -> str:
    """The last path segment of an IRI: ``jane-doe`` of ``.../person/jane-doe``."""
    return iri.rsplit("/", 1)[1]


def org_path(iri: str) -> str:
    """An organization IRI's path under ``org/``, its units joined by ``-``.

    >>> org_path(DATA_IRIS["org/mit/robotics-lab"])
    'mit-robotics-lab'
    """
    if not iri.startswith(_ORG):
        raise ValueError(f"not an organization IRI: {iri}")
    return iri[len(_ORG):].replace("/", "-")


def date_term(iso: str) -> str:
    """``"2024"`` -> xsd:gYear, ``"2024-06"`` -> xsd:gYearMonth, ``"2024-06-16"`` -> xsd:date, as an
    N-Triples literal (the lexical form rdflib keeps too).

    >>> date_term("2024-06-16")
    '"2024-06-16"^^<http://www.w3.org/2001/XMLSchema#date>'
    """
    return literal(iso, _DATE_TYPES[len(iso)])
