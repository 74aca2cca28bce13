"""Validation against ``shapes.ttl`` that scales. The build checks every constraint on every node
with :mod:`kg.shape_checks` (two passes over the merged view's triples, :func:`check_merged`);
``kg validate`` also runs pyshacl, on the whole merged view up to :data:`FULL_LIMIT` triples, else
on a bounded sample of it (:func:`validate_triples`).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pyoxigraph

from kg.data import shapes_ttl
from kg.errors import UserError
from kg.rdf.quads import TripleSet
from kg.shape_checks import check_triples

#: Up to this many merged triples pyshacl checks them all; above, a sample.
FULL_LIMIT = 20_000
#: How many subjects (with the nodes they point to) the sample holds.
SAMPLE_SUBJECTS = 300
_XSD = "http://www.w3.org/2001/XMLSchema#"


def validate_graph(graph, focus_nodes: list | None = None, inplace: bool = False) -> tuple[bool, list[str]]:
    """Check an rdflib *graph* (only *focus_nodes* where given) against ``shapes.ttl`` with pyshacl:
    (conforms, one line per violation). *inplace*: pyshacl works on *graph* itself instead of a
    copy (for a graph made for the check; shapes.ttl has no rules, so nothing is added to it)."""
    import pyshacl
    from rdflib import Graph
    from rdflib.namespace import RDF, SH

    shapes = Graph().parse(data=shapes_ttl(), format="turtle")
    conforms, results, _ = pyshacl.validate(graph, shacl_graph=shapes, advanced=True, allow_warnings=True,
                                         focus_nodes=focus_nodes, inplace=inplace)
    lines = []
    # the report's own results: a result of sh:node or sh:or holds the inner ones as its sh:detail
    report = results.value(predicate=RDF.type, object=SH.ValidationReport, any=False)
    for result in results.objects(report, SH.result):
        focus = results.value(result, SH.focusNode)
        path = results.value(result, SH.resultPath)
        message = results.value(result, SH.resultMessage)
        lines.append(f"{focus} {path}: {message}")
    return bool(conforms), sorted(lines)


def _sample(merged: TripleSet) -> tuple[list[str], list[str]]:
    """The k-th subjects (sorted; IRIs) and the N-Triples lines of them and of the nodes they point to
    (one hop, so that a value's class can be checked). Passes over the triples, without grouping them
    all by subject (at 1,000 CVs that took 3.4 s and a list for each of 206,456 subjects)."""
    triples = merged.triples
    subjects = {t[0] for t in triples}
    ordered = sorted(subjects)
    picked = ordered[::max(1, len(ordered) // SAMPLE_SUBJECTS)]
    focus = set(picked)
    chosen = focus | {o for s, _, o in triples if s in focus and o in subjects}
    lines = [f"{s} {p} {o} .\n" for s, p, o in sorted(t for t in triples if t[0] in chosen)]
    return [s[1:-1] for s in picked], lines


def rdflib_graph(ntriples: str):
    """An rdflib ``Graph`` of N-Triples text, read by Oxigraph's parser (rdflib's own reads line by
    line in Python, three times slower); each term made as rdflib's N-Triples parser makes it.

    >>> g = rdflib_graph('<https://x.org/s> <https://x.org/p> "2020"^^<http://www.w3.org/2001/XMLSchema#gYear> .\\n')
    >>> [o.n3() for o in g.objects()]
    ['"2020"^^<http://www.w3.org/2001/XMLSchema#gYear>']
    """
    from rdflib import Graph, Literal, URIRef

    graph = Graph()
    made: dict = {}  # the same IRIs and values recur: make each term once

    def node(term):
        key = (type(term), str(term))
        found = made.get(key)
        if found is None:
            if isinstance(term, pyoxigraph.NamedNode):
                found = URIRef(term.value)
            elif isinstance(term, pyoxigraph.BlankNode):
                from rdflib import BNode

                found = BNode(term.value)
            elif term.language:
                found = Literal(term.value, lang=term.language)
            elif term.datatype.value == _XSD + "string":  # a simple literal: rdflib gives it no datatype
                found = Literal(term.value)
            else:
                found = Literal(term.value, datatype=URIRef(term.datatype.value))
            made[key] = found
        return found

    add = graph.store.add  # Graph.add checks each term's type again: these are made here
    for t in pyoxigraph.parse(input=ntriples, format=pyoxigraph.RdfFormat.N_TRIPLES):
        add((node(t.subject), node(t.predicate), node(t.object)), graph, False)
    return graph


def validate_triples(merged: TripleSet) -> tuple[bool, list[str], str]:
    """Validate the merged view *merged*: (conforms, violations, what was checked).

    pyshacl checks every triple up to :data:`FULL_LIMIT`, else a sample of the nodes; the shapes'
    property constraints are checked on every node (:func:`kg.shape_checks.check_triples`).
    """
    from rdflib import URIRef

    if len(merged) <= FULL_LIMIT:
        focus, lines, what = None, merged.lines(), "pyshacl on every triple"
    else:
        focus, lines = _sample(merged)
        what = f"pyshacl on {len(focus):,} sampled nodes of {len(merged):,} triples"
    conforms, violations = validate_graph(rdflib_graph("".join(lines)),
                                          None if focus is None else [URIRef(f) for f in focus], inplace=True)
    found = check_triples(merged.triples)
    return (conforms and not found, sorted(set(violations) | set(found)),
            what + " + the shapes' property constraints on every node")


def check_merged(merged: Iterable[tuple[str, str, str]]) -> tuple[bool, list[str], str]:
    """The build's validation of the merged view's triples *merged*: (conforms, violations, what was checked):
    every constraint of ``shapes.ttl`` on every node (:func:`kg.shape_checks.check_triples`, which
    refuses shapes it cannot check). pyshacl is not run: on the seeds its import alone took longer
    than the rest of the build; ``kg validate`` (:func:`validate_output`) runs it too."""
    found = check_triples(merged)
    return not found, found, "kg.shape_checks: every constraint of shapes.ttl on every node"


def validate_output(out_dir: str | Path) -> tuple[bool, list[str]]:
    """Validate the merged graph a build wrote to ``out_dir/kg.ttl``, as the build does."""
    ttl = Path(out_dir) / "kg.ttl"
    if not ttl.is_file():
        raise UserError(f"no {ttl}; run `kg build` first")
    merged = TripleSet("")
    # each term's text kept once: at 1,000 CVs 262,000 terms make 1.7 million triples, whose copies of
    # each term held 746 MB where these hold 279
    add, said = merged.triples.add, dict[str, str]()
    for t in pyoxigraph.parse(path=str(ttl), format=pyoxigraph.RdfFormat.TURTLE):
        s, p, o = str(t.subject), str(t.predicate), str(t.object)
        add((said.setdefault(s, s), said.setdefault(p, p), said.setdefault(o, o)))
    conforms, violations, _ = validate_triples(merged)
    return conforms, violations
