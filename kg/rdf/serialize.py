"""Serialisation with stable bytes: the same graph always gives the same TriG, Turtle prefixes and JSON-LD."""

from __future__ import annotations

import json

from rdflib import Dataset, Graph
from rdflib.namespace import DCTERMS, FOAF, OWL, PROV, RDFS, XSD

from kg.vocab import DATA, KG, SCHEMA


def bind_prefixes(g) -> None:
    """Bind the prefixes kg's files use, replacing rdflib's defaults."""
    for prefix, ns in (("kg", KG._NS), ("id", DATA), ("schema", SCHEMA), ("prov", PROV), ("foaf", FOAF),
                       ("dcterms", DCTERMS), ("xsd", XSD), ("rdfs", RDFS), ("owl", OWL)):
        g.bind(prefix, ns, override=True, replace=True)


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

    def canon(x):
        if isinstance(x, dict):
            return {k: canon(v) for k, v in sorted(x.items())}
        if isinstance(x, list):
            return sorted((canon(v) for v in x), key=lambda v: json.dumps(v, sort_keys=True, ensure_ascii=False))
        return x

    data = json.loads(graph.serialize(format="json-ld"))
    return (json.dumps(canon(data), indent=1, ensure_ascii=False) + "\n").encode()
