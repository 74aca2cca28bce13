"""ontology.ttl and the closed namespace in kg/vocab.py say the same thing, and say it fully."""

import pytest
from rdflib import Graph, URIRef
from rdflib.namespace import OWL, RDF, RDFS

from kg.data import ontology_ttl
from kg.vocab import KG

NS = "https://kg.example/ns#"


@pytest.fixture(scope="module")
def ontology():
    return Graph().parse(data=ontology_ttl(), format="turtle")


def terms(g):
    return {str(s)[len(NS):] for s in g.subjects() if str(s).startswith(NS)}


def test_vocab_lists_exactly_the_ontology_terms(ontology):
    assert set(KG.__annotations__) == terms(ontology)


def test_every_term_has_a_label_a_comment_and_a_kind(ontology):
    for t in terms(ontology):
        s = URIRef(NS + t)
        assert ontology.value(s, RDFS.label) is not None, t
        assert ontology.value(s, RDFS.comment) is not None, t
        assert set(ontology.objects(s, RDF.type)) & {OWL.Class, OWL.ObjectProperty, OWL.DatatypeProperty}, t


def test_alignment_with_the_standard_vocabularies(ontology):
    supers = {str(o) for o in ontology.objects(None, RDFS.subClassOf)} | \
             {str(o) for o in ontology.objects(None, RDFS.subPropertyOf)}
    for ns in ("http://schema.org/", "http://xmlns.com/foaf/0.1/", "http://purl.org/ontology/bibo/",
               "http://www.w3.org/ns/org#", "http://www.w3.org/ns/prov#", "http://purl.org/dc/terms/"):
        assert any(s.startswith(ns) for s in supers), ns


def test_a_misspelt_term_fails_at_once():
    with pytest.raises(AttributeError):
        KG.Persn  # noqa: B018
