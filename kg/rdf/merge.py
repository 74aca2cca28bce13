"""The merged view: the union of the source graphs where, for single-valued properties, the newest source wins."""

from __future__ import annotations

from collections import defaultdict

from rdflib import RDF, Dataset, Graph, URIRef

from kg.vocab import KG, SCHEMA, SINGLE_VALUED

#: A work's kind classes: one per work in the merged view (a preprint that was published is an article).
WORK_KIND_CLASSES = (KG.Article, KG.Preprint, KG.Thesis, SCHEMA.ScholarlyArticle, SCHEMA.Thesis)
#: Corrections in the curation file outrank every document in the merged view.
CURATION_NEWNESS = "9999"


def merged_graph(ds: Dataset, newness: dict[URIRef, str]) -> Graph:
    """The union of the source graphs; for single-valued properties the newest source's value.

    *newness* maps each source graph IRI to a sortable date string; ties go to the
    source whose file name sorts last, so the choice is deterministic. A work's older
    titles become ``kg:alternativeTitle``.
    """
    merged = Graph()
    values: dict[tuple, dict] = defaultdict(dict)  # (s, p) -> value -> newest rank
    for g in sorted(ds.graphs(), key=lambda g: str(g.identifier)):
        if not isinstance(g.identifier, URIRef) or str(g.identifier) not in map(str, newness):
            continue
        rank = (newness[g.identifier], str(g.identifier))
        for s, p, o in g:
            if p in SINGLE_VALUED or (p == RDF.type and o in WORK_KIND_CLASSES):
                key = (s, p if p != RDF.type else "kind")
                prev = values[key].get((p, o))
                values[key][(p, o)] = max(prev, rank) if prev else rank
            else:
                merged.add((s, p, o))
    for (s, _), seen in values.items():
        if s is None:
            continue
        newest = max(seen.values())
        winners = {po for po, rank in seen.items() if rank == newest}
        for p, o in sorted(winners):
            merged.add((s, p, o))
        for p, o in seen:
            if p == KG.title and (p, o) not in winners:
                merged.add((s, KG.alternativeTitle, o))
    return merged
