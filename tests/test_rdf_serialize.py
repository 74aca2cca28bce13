"""The fast paths of the RDF files keep the bytes the plain ways gave: sorting by subject first,
cutting N-Triples lines for JSON-LD instead of parsing them, escaping only where needed."""

from __future__ import annotations

import gc
import json

from rdflib import Literal, URIRef

from kg.collector import collector_paused
from kg.rdf.quads import TripleSet, iri, literal
from kg.rdf.serialize import write_jsonld, write_ntriples

XSD = "http://www.w3.org/2001/XMLSchema#"
S, T = URIRef("https://kg.example/id/work/s"), URIRef("https://kg.example/id/work/s-2")
P, Q = URIRef("https://kg.example/ns#title"), URIRef("https://kg.example/ns#year")


def test_in_order_is_the_order_of_sorted_tuples():
    g = TripleSet("")
    # Objects that are prefixes of one another: a plain literal, the same with a datatype, an IRI.
    # Subjects where one IRI is a prefix of another's text (".../s" and ".../s-2").
    for s in (S, T):
        g.add((s, P, "2020"))
        g.add((s, P, Literal("2020", datatype=URIRef(XSD + "gYear"))))
        g.add((s, P, "2020 and more"))
        g.add((s, Q, URIRef("https://kg.example/id/venue/v")))
    assert g.in_order() == sorted(g.triples)
    # "<...s-2>" before "<...s>": after the common "s", '-' (0x2D) sorts before '>' (0x3E).
    assert g.in_order()[0][0] == iri(T)
    # '"2020 and more"' first (a space, 0x20, where the others have their closing quote, 0x22), then the
    # plain "2020" before "2020"^^xsd:gYear, of which it is a prefix.
    objects = [o for s, p, o in g.in_order() if s == iri(S) and p == iri(P)]
    assert objects == ['"2020 and more"', '"2020"', f'"2020"^^<{XSD}gYear>']


def test_escaping_only_where_needed_gives_what_translate_gave():
    assert literal('say "hi"\\ \n\r\x01') == '"say \\"hi\\"\\\\ \\n\\r\\u0001"'
    assert literal("plain text, é") == '"plain text, é"'
    assert iri("https://x.y/a b|c") == "<https://x.y/a%20b%7Cc>"
    assert iri(URIRef("https://x.y/a")) == "<https://x.y/a>" and type(iri(URIRef("https://x.y/a"))) is str


def test_jsonld_reads_escapes_types_and_languages_from_the_lines(tmp_path):
    g = TripleSet("")
    g.add((S, P, 'say "hi"\\ \n\x01 é'))  # escaped as \" \\ \n \u0001 in the file, read back as they were
    g.add((S, Q, Literal("2020", datatype=URIRef(XSD + "gYear"))))
    g.add((S, URIRef("http://www.w3.org/1999/02/22-rdf-syntax-ns#type"), URIRef("https://kg.example/ns#Work")))
    g.add((T, P, Literal("Titel", lang="DE")))  # Oxigraph reads language tags in lower case; so does kg
    g.add((T, Q, URIRef("https://elsewhere.org/x")))  # no prefix covers it: the IRI as it is
    nt, out = tmp_path / "m.nt", tmp_path / "m.jsonld"
    write_ntriples(g.in_order(), nt)
    write_jsonld(nt, out)
    nodes = json.loads(out.read_text(encoding="utf-8"))["@graph"]
    # T's IRI sorts first (see above); properties in key order, one value unwrapped
    assert nodes == [
        {"@id": "id:work/s-2", "kg:title": {"@value": "Titel", "@language": "de"},
         "kg:year": {"@id": "https://elsewhere.org/x"}},
        {"@id": "id:work/s", "@type": "kg:Work", "kg:title": 'say "hi"\\ \n\x01 é',
         "kg:year": {"@value": "2020", "@type": "xsd:gYear"}},
    ]


def test_the_collector_runs_again_after_a_pause():
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()  # left as it was found
    finally:
        gc.enable()
