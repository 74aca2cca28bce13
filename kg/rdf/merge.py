"""The merged view: the union of the source graphs where, for single-valued properties, the newest source wins.

It works on :class:`kg.rdf.quads.TripleSet` triples (N-Triples strings), so it costs one pass
over the sources and a dictionary lookup per triple.
"""

from __future__ import annotations

from collections import defaultdict

from rdflib import RDF

from kg.rdf.quads import TripleSet, iri
from kg.vocab import KG, SCHEMA, SINGLE_VALUED

#: A work's kind classes: one per work in the merged view (a preprint that was published is an article).
WORK_KIND_CLASSES = (KG.Article, KG.Preprint, KG.Thesis, SCHEMA.ScholarlyArticle, SCHEMA.Thesis)
#: Corrections in the curation file outrank every document in the merged view.
CURATION_NEWNESS = "9999"

_SINGLE = frozenset(iri(p) for p in SINGLE_VALUED)
_KINDS = frozenset(iri(c) for c in WORK_KIND_CLASSES)
_TYPE, _TITLE, _ALTERNATIVE = iri(RDF.type), iri(KG.title), iri(KG.alternativeTitle)


def merged_graph(graphs: list[TripleSet], newness: dict[str, str]) -> TripleSet:
    """The union of the source graphs; for single-valued properties the newest source's value.

    *newness* maps each source graph IRI to a sortable date string; ties go to the
    source whose IRI sorts last, and where that source gives two values (a work listed
    twice under two titles) the first in N-Triples order wins, so the choice is
    deterministic and the view has one value. A work's other titles become
    ``kg:alternativeTitle``; graphs not in *newness* are left out.
    """
    merged = TripleSet("")
    triples = merged.triples
    values: dict[tuple, dict] = defaultdict(dict)  # (s, p) -> (p, o) -> newest rank
    for g in sorted(graphs, key=lambda g: g.identifier):
        if g.identifier not in newness:
            continue
        rank = (newness[g.identifier], g.identifier)
        for s, p, o in g.triples:
            if p in _SINGLE or (p == _TYPE and o in _KINDS):
                seen = values[(s, p if p != _TYPE else "kind")]
                prev = seen.get((p, o))
                seen[(p, o)] = max(prev, rank) if prev else rank
            else:
                triples.add((s, p, o))
    for (s, key), seen in values.items():
        newest = max(seen.values())
        winners = sorted(po for po, rank in seen.items() if rank == newest)
        if key != "kind":  # one document that gives two values (a work listed twice) still gives one here
            winners = winners[:1]
        for p, o in seen:
            if (p, o) in winners:
                triples.add((s, p, o))
            elif p == _TITLE:
                triples.add((s, _ALTERNATIVE, o))
    return merged
