"""The curation file's corrections as their own named graph, with the file's lines as provenance."""

from __future__ import annotations

from rdflib import RDF, XSD, Literal, URIRef
from rdflib.namespace import PROV

from kg.identity.curation import CURATION_FILE, Curation
from kg.identity.keys import title_key
from kg.identity.resolution import Resolution
from kg.rdf.iris import repair_iri
from kg.rdf.quads import TripleSet
from kg.rdf.terms import CURATION_SOURCE, date_literal
from kg.vocab import KG, SCHEMA


def _line(g: TripleSet, node: URIRef, line: str) -> None:
    g.add((node, KG.fromSource, CURATION_SOURCE))
    g.add((node, KG.firstLine, Literal(int(line), datatype=XSD.positiveInteger)))
    g.add((node, KG.lastLine, Literal(int(line), datatype=XSD.positiveInteger)))


def curation_graph(curation: Curation, res: Resolution) -> TripleSet | None:
    """The corrections' named graph; None where the file corrects nothing."""
    if not curation.corrections:
        return None
    g = TripleSet(CURATION_SOURCE)
    for c in (KG.SourceDocument, PROV.Entity):
        g.add((CURATION_SOURCE, RDF.type, c))
    g.add((CURATION_SOURCE, KG.fileName, Literal(CURATION_FILE)))
    for fix in curation.corrections.get("works", []):
        iri = next(URIRef(w) for w, titles in sorted(res.work_titles.items())
                   if any(title_key(t) == title_key(fix["title"]) for _, t in titles))
        if "year" in fix:
            g.add((iri, KG.year, date_literal(fix["year"])))
            g.add((iri, SCHEMA.datePublished, date_literal(fix["year"])))
        if "status" in fix:
            g.add((iri, KG.status, Literal(fix["status"])))
        _line(g, iri, fix["line"])
    for fix in curation.corrections.get("people", []):
        iri = URIRef(res.person(fix["name"]))
        if "email" in fix:
            g.add((iri, KG.email, Literal(fix["email"])))
        for key, prop in (("homepage", KG.homepage), ("orcid", KG.orcid)):
            link = repair_iri(fix[key], orcid=key == "orcid") if key in fix else None
            if link:  # the curation file's loader checked the value; repair encodes what needs it
                g.add((iri, prop, URIRef(link)))
    return g
