"""Serialisation with stable bytes: sorted N-Quads in, Oxigraph's TriG and Turtle writers out, and
compact JSON-LD with an ``@context``: the same graph always gives the same bytes.

Triples are sorted (graph, subject, predicate, object) as N-Quads text before any writer sees
them, so every writer groups the same subjects in the same order; no blank nodes are minted.
"""

from __future__ import annotations

import json
from pathlib import Path

import pyoxigraph
from rdflib.namespace import DCTERMS, FOAF, OWL, PROV, RDF, RDFS, XSD

from kg.rdf.quads import TripleSet
from kg.vocab import DATA, KG, SCHEMA

#: The prefixes kg's files use.
PREFIXES = {"kg": str(KG._NS), "id": str(DATA), "schema": str(SCHEMA), "prov": str(PROV), "foaf": str(FOAF),
            "dcterms": str(DCTERMS), "xsd": str(XSD), "rdfs": str(RDFS), "owl": str(OWL)}
_RDF_TYPE = str(RDF.type)
_XSD_STRING = str(XSD.string)
# Longest namespace first, so that a namespace inside another (none today) would still win.
_BY_LENGTH = sorted(((ns, prefix) for prefix, ns in PREFIXES.items()), key=lambda pair: -len(pair[0]))


def write_nquads(graphs: list[TripleSet], path: Path) -> int:
    """The non-empty *graphs* as N-Quads, graphs in IRI order and triples sorted; the number of quads."""
    count = 0
    with open(path, "w", encoding="utf-8") as out:
        for g in sorted((g for g in graphs if len(g)), key=lambda g: g.identifier):
            lines = g.lines(g.identifier)
            out.writelines(lines)
            count += len(lines)
    return count


def write_ntriples(graph: TripleSet, path: Path) -> None:
    """*graph* as sorted N-Triples."""
    with open(path, "w", encoding="utf-8") as out:
        out.writelines(graph.lines())


def write_trig(nquads: Path, path: Path) -> None:
    """TriG from sorted N-Quads, written by Oxigraph with kg's prefixes."""
    quads = pyoxigraph.parse(path=str(nquads), format=pyoxigraph.RdfFormat.N_QUADS)
    pyoxigraph.serialize(quads, str(path), pyoxigraph.RdfFormat.TRIG, prefixes=PREFIXES)


def write_turtle(ntriples: Path, path: Path) -> None:
    """Turtle from sorted N-Triples, written by Oxigraph with kg's prefixes."""
    triples = pyoxigraph.parse(path=str(ntriples), format=pyoxigraph.RdfFormat.N_TRIPLES)
    pyoxigraph.serialize(triples, str(path), pyoxigraph.RdfFormat.TURTLE, prefixes=PREFIXES)


def compact(iri: str) -> str:
    """*iri* as ``prefix:local`` where a prefix covers it.

    >>> compact("https://kg.example/ns#Person")
    'kg:Person'
    """
    for ns, prefix in _BY_LENGTH:
        if iri.startswith(ns):
            return f"{prefix}:{iri[len(ns):]}"
    return iri


def _compact_once(seen: dict[str, str], iri: str) -> str:
    known = seen.get(iri)
    if known is None:
        known = seen[iri] = compact(iri)
    return known


def _value(term) -> object:
    if isinstance(term, pyoxigraph.NamedNode):
        return {"@id": compact(term.value)}
    if term.language:
        return {"@value": term.value, "@language": term.language}
    if term.datatype.value == _XSD_STRING:
        return term.value
    return {"@value": term.value, "@type": compact(term.datatype.value)}


def _node(subject: str, props: dict) -> dict:
    node: dict = {"@id": compact(subject)}
    for key in sorted(props):
        values = props[key]
        node[key] = values[0] if len(values) == 1 else values
    return node


def write_jsonld(ntriples: Path, path: Path) -> None:
    """Compact JSON-LD of sorted N-Triples: an ``@context`` of kg's prefixes and one node per subject,
    in subject order (one a line, written as it comes), each property's values in N-Triples order."""
    with open(path, "w", encoding="utf-8") as out:
        out.write('{"@context": ' + json.dumps(PREFIXES) + ',\n "@graph": [')
        subject: str | None = None
        props: dict[str, list] = {}
        sep = "\n"
        keys: dict[str, str] = {}  # predicates and classes recur: compact each once
        for t in pyoxigraph.parse(path=str(ntriples), format=pyoxigraph.RdfFormat.N_TRIPLES):
            if t.subject.value != subject:
                if subject is not None:
                    out.write(sep + json.dumps(_node(subject, props), ensure_ascii=False))
                    sep = ",\n"
                subject, props = t.subject.value, {}
            predicate = t.predicate.value
            value: object
            if predicate == _RDF_TYPE and isinstance(t.object, pyoxigraph.NamedNode):
                key, value = "@type", _compact_once(keys, t.object.value)
            else:
                key, value = _compact_once(keys, predicate), _value(t.object)
            props.setdefault(key, []).append(value)
        if subject is not None:
            out.write(sep + json.dumps(_node(subject, props), ensure_ascii=False))
        out.write("\n]}\n")
