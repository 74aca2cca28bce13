"""The curation file's corrections as their own named graph, with the file's lines as provenance."""

from __future__ import annotations

from kg.identity.curation import CURATION_FILE, Curation
from kg.identity.keys import title_key
from kg.identity.resolution import Resolution
from kg.rdf.iris import repair_iri
from kg.rdf.quads import TripleSet, iri, literal
from kg.rdf.terms import CURATION_SOURCE, date_term
from kg.rdf.writer import POSITIVE, A, K, S
from kg.vocab import PROV_IRIS

_SOURCE = iri(CURATION_SOURCE)


def _line(g: TripleSet, node: str, line: str) -> None:
    number = literal(str(int(line)), POSITIVE)
    g.triples.update({(node, K.fromSource, _SOURCE), (node, K.firstLine, number), (node, K.lastLine, number)})


def curation_graph(curation: Curation, res: Resolution) -> TripleSet | None:
    """The corrections' named graph; None where the file corrects nothing."""
    if not curation.corrections:
        return None
    g = TripleSet(CURATION_SOURCE)
    add = g.triples.add
    for c in (K.SourceDocument, iri(PROV_IRIS.Entity)):
        add((_SOURCE, A, c))
    add((_SOURCE, K.fileName, literal(CURATION_FILE)))
    for fix in curation.corrections.get("works", []):
        node = next(iri(w) for w, titles in sorted(res.work_titles.items())
                    if any(title_key(t) == title_key(fix["title"]) for _, t in titles))
        if "year" in fix:
            add((node, K.year, date_term(fix["year"])))
            g.entailed.add((node, S.datePublished, date_term(fix["year"])))
        if "status" in fix:
            add((node, K.status, literal(fix["status"])))
        _line(g, node, fix["line"])
    for fix in curation.corrections.get("people", []):
        node = iri(res.person(fix["name"]))
        if "email" in fix:
            add((node, K.email, literal(fix["email"])))
        for key, prop in (("homepage", K.homepage), ("orcid", K.orcid)):
            link = repair_iri(fix[key], orcid=key == "orcid") if key in fix else None
            if link:  # the curation file's loader checked the value; repair encodes what needs it
                add((node, prop, iri(link)))
    return g
