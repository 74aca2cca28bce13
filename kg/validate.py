"""Validation against ``shapes.ttl`` that scales: pyshacl on the whole merged view up to
:data:`FULL_LIMIT` triples, else on a bounded sample of it, and always the shapes' property
constraints on every node (:mod:`kg.shape_checks`, two passes over the triples).
"""

from __future__ import annotations

from pathlib import Path

import pyoxigraph

from kg.child import Child
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
    from rdflib.namespace import SH

    shapes = Graph().parse(data=shapes_ttl(), format="turtle")
    conforms, results, _ = pyshacl.validate(graph, shacl_graph=shapes, advanced=True, allow_warnings=True,
                                         focus_nodes=focus_nodes, inplace=inplace)
    lines = []
    for result in results.subjects(predicate=None, object=SH.ValidationResult):
        focus = results.value(result, SH.focusNode)
        path = results.value(result, SH.resultPath)
        message = results.value(result, SH.resultMessage)
        lines.append(f"{focus} {path}: {message}")
    return bool(conforms), sorted(lines)


def _sample(merged: TripleSet) -> tuple[list[str], list[str]]:
    """The k-th subjects (sorted; IRIs) and the N-Triples lines of them and of the nodes they point to
    (one hop, so that a value's class can be checked)."""
    by_subject: dict[str, list] = {}
    for t in merged.triples:
        by_subject.setdefault(t[0], []).append(t)
    subjects = sorted(by_subject)
    step = max(1, len(subjects) // SAMPLE_SUBJECTS)
    focus = subjects[::step]
    chosen = set(focus) | {o for s in focus for _, _, o in by_subject[s] if o in by_subject}
    lines = [f"{s} {p} {o} .\n" for subject in sorted(chosen) for s, p, o in by_subject[subject]]
    return [s[1:-1] for s in focus], lines


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


class ShaclProcess(Child):
    """The validation in a process of its own (:class:`kg.child.Child`), so that it runs on another
    core while the build writes its files: the child has kg's modules already. :meth:`prepare` forks
    before the merged view exists, so that pyshacl loads while the documents are read; :meth:`result`
    gives (conforms, one line per violation, what was checked)."""

    def __init__(self) -> None:
        super().__init__()
        self._prepared = False

    def prepare(self) -> None:
        """Fork now: the child loads pyshacl, then waits for :meth:`check` or :meth:`check_file`."""
        self.start_early(_load_pyshacl)
        self._prepared = True

    def check(self, merged: TripleSet) -> None:
        """Start validating *merged* (see :func:`validate_triples`); the caller may empty it afterwards."""
        self._begin(validate_triples, merged)

    def check_file(self, path: Path) -> None:
        """Start validating the N-Triples file *path* kg wrote (see :func:`validate_ntriples`); it must
        stay until :meth:`result` answers."""
        self._begin(validate_ntriples, path)

    def _begin(self, step, argument) -> None:
        if self._prepared:
            self.send(step, argument)
        else:
            self.start(step, argument)


def _load_pyshacl() -> None:
    """What the validation imports and parses before it can start, done while it waits for the triples."""
    import pyshacl  # noqa: F401
    from rdflib import Graph

    Graph().parse(data=shapes_ttl(), format="turtle")


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


def validate_ntriples(path: Path) -> tuple[bool, list[str], str]:
    """:func:`validate_triples` on the N-Triples file *path* kg wrote (``s p o .`` a line, as
    :meth:`TripleSet.lines` writes them: subject and predicate hold no space)."""
    merged = TripleSet("")
    add = merged.triples.add
    with open(path, encoding="utf-8", newline="\n") as lines:
        for line in lines:
            s, p, o = line[:-3].split(" ", 2)
            add((s, p, o))
    return validate_triples(merged)


def validate_output(out_dir: str | Path) -> tuple[bool, list[str]]:
    """Validate the merged graph a build wrote to ``out_dir/kg.ttl``, as the build does."""
    ttl = Path(out_dir) / "kg.ttl"
    if not ttl.is_file():
        raise UserError(f"no {ttl}; run `kg build` first")
    merged = TripleSet("")
    for t in pyoxigraph.parse(path=str(ttl), format=pyoxigraph.RdfFormat.TURTLE):
        merged.triples.add((str(t.subject), str(t.predicate), str(t.object)))
    conforms, violations, _ = validate_triples(merged)
    return conforms, violations
