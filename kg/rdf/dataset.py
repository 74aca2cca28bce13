"""Every source's named graph and the merged view, made from the documents and identity's resolution.

:func:`source_graphs` makes the graphs one at a time in graph IRI order (the order of the N-Quads
file), letting go of each document once mapped; :func:`write_sources` writes each graph as it comes
and keeps only the merged view. At 10,000 CVs the sources held 21.8M quads and the documents 1.6 GB
beside the merged view at the end of the mapping, the build's peak.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from kg.progress import stage_bar
from kg.rdf.merge import CURATION_NEWNESS, MergedView
from kg.rdf.quads import TripleSet
from kg.rdf.terms import source_iri

if TYPE_CHECKING:
    from kg.identity.curation import Curation
    from kg.identity.resolution import Resolution
    from kg.records import Document


def source_graphs(docs: list[Document | None], curation: Curation, res: Resolution, include_private: bool,
                  progress: bool = False,
                  mapped: Callable[[int, Document], None] | None = None) -> Iterator[tuple[TripleSet, str]]:
    """(graph, newness) of every document in *docs* and of the curation file's corrections (where
    it corrects anything), in graph IRI order (documents of one IRI in list order).

    Each document's place in *docs* is set to None once its graph is made, after ``mapped(index,
    document)`` (the mapping reports links it could not repair in ``document.skipped``).

    >>> from kg.identity.curation import Curation
    >>> from kg.identity.resolve import resolve
    >>> from kg.records import Document
    >>> docs = [Document(p, "markdown", "0", None, facts=[]) for p in ("b.md", "a.md")]
    >>> res = resolve(docs, Curation())
    >>> [g.identifier.rsplit("/", 1)[1] for g, _ in source_graphs(docs, Curation(), res, False)], docs
    (['a-md', 'b-md'], [None, None])
    """
    from kg.rdf.curation import curation_graph
    from kg.rdf.mapping import document_graph

    corrections = curation_graph(curation, res)
    order: list[tuple[str, int]] = sorted((source_iri(d.path), i) for i, d in enumerate(docs) if d is not None)
    if corrections is not None:
        order.append((corrections.identifier, -1))
        order.sort()
    for _, i in stage_bar(order, progress, "mapping"):
        if i < 0:
            assert corrections is not None
            yield corrections, CURATION_NEWNESS
            continue
        doc = docs[i]
        assert doc is not None
        docs[i] = None
        graph = document_graph(doc, res, doc.latest_date, include_private)
        if mapped is not None:
            mapped(i, doc)
        yield graph, doc.latest_date or ""


def write_sources(docs: list[Document | None], curation: Curation, res: Resolution, include_private: bool,
                  nquads: Path, progress: bool = False,
                  mapped: Callable[[int, Document], None] | None = None) -> TripleSet:
    """The merged view of :func:`source_graphs`, each graph written into the N-Quads file *nquads* as it
    is made and not kept (the file :func:`kg.rdf.serialize.write_nquads` would write)."""
    from kg.rdf.serialize import write_graph_quads

    view = MergedView()
    with open(nquads, "w", encoding="utf-8") as out:
        for graph, newness in source_graphs(docs, curation, res, include_private, progress, mapped):
            view.add(graph, newness)
            write_graph_quads(out, graph)
    return view.result()


def to_triples(docs: list[Document], curation: Curation, res: Resolution, include_private: bool,
               progress: bool = False) -> tuple[list[TripleSet], TripleSet]:
    """The per-source graphs (the curation file's too, where it corrects anything) in graph IRI order,
    and the merged view."""
    view, graphs = MergedView(), []
    for graph, newness in source_graphs(list(docs), curation, res, include_private, progress):
        view.add(graph, newness)
        graphs.append(graph)
    return graphs, view.result()
