"""Validation against ``shapes.ttl`` that scales: pyshacl on the whole merged view up to
:data:`FULL_LIMIT` triples, else on a bounded sample of it, and always the shapes' property
constraints as SPARQL queries over the store (every node checked, in the store's time).
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import signal
import traceback
from pathlib import Path

import pyoxigraph

from kg.data import shapes_ttl
from kg.errors import UserError
from kg.rdf.quads import TripleSet

#: Up to this many merged triples pyshacl checks them all; above, a sample.
FULL_LIMIT = 20_000
#: How many subjects (with the nodes they point to) the sample holds.
SAMPLE_SUBJECTS = 300
_SH = "http://www.w3.org/ns/shacl#"
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


def shape_queries() -> list[tuple[str, str, str]]:
    """(focus-node query, path, message) for each property constraint of ``shapes.ttl`` that SPARQL
    can check: minCount, maxCount, datatype, class, in, pattern and a node shape of datatypes."""
    from rdflib import Graph, Namespace
    from rdflib.collection import Collection

    sh = Namespace(_SH)
    g = Graph().parse(data=shapes_ttl(), format="turtle")
    checks = []
    for shape in sorted(set(g.subjects(sh.property, None)), key=str):
        targets = [("class", str(c)) for c in g.objects(shape, sh.targetClass)]
        targets += [("subjects", str(p)) for p in g.objects(shape, sh.targetSubjectsOf)]
        for prop in g.objects(shape, sh.property):
            path = g.value(prop, sh.path)
            message = str(g.value(prop, sh.message) or "")
            for kind, target in targets:
                for body, what in _constraints(g, sh, Collection, prop, f"<{path}>"):
                    where = _focused(kind, target, body, str(path))
                    if where is not None:
                        checks.append((f"SELECT DISTINCT ?f WHERE {{ {where} }}", str(path), message or what))
    return checks


def _focused(kind: str, target: str, body: str, path: str) -> str | None:
    """The WHERE clause of one check on the focus nodes of a target (None: it cannot fail).

    A node of a class is found by its type. The subjects of a property are many facts, each with
    several values of it: a check of a value of that same property needs no target (its subject is
    one), a required value elsewhere looks at each subject once, and a value check looks for bad
    values first and only then whether their node is a target.

    >>> _focused("subjects", "p:s", "FILTER NOT EXISTS { ?f <p:s> ?v }", "p:s") is None
    True
    >>> _focused("subjects", "p:s", "?f <p:n> ?v . FILTER(!isLiteral(?v))", "p:n")
    '?f <p:n> ?v . FILTER(!isLiteral(?v)) FILTER EXISTS { ?f <p:s> ?_t }'
    """
    if kind == "class":
        return f"?f a <{target}> . {body}"
    required = body.startswith("FILTER NOT EXISTS")
    if path == target:
        return None if required else body
    if required:
        return f"{{ SELECT DISTINCT ?f WHERE {{ ?f <{target}> ?_t }} }} {body}"
    return f"{body} FILTER EXISTS {{ ?f <{target}> ?_t }}"


def _constraints(g, sh, Collection, prop, p: str):
    if g.value(prop, sh.minCount) is not None and int(g.value(prop, sh.minCount)) >= 1:
        yield f"FILTER NOT EXISTS {{ ?f {p} ?v }}", "a value is required"
    if g.value(prop, sh.maxCount) is not None and int(g.value(prop, sh.maxCount)) == 1:
        yield f"?f {p} ?v, ?w . FILTER(!sameTerm(?v, ?w))", "more than one value"
    datatypes = [g.value(prop, sh.datatype)] if g.value(prop, sh.datatype) else []
    node = g.value(prop, sh.node)
    if node is not None and g.value(node, sh["or"]) is not None:
        datatypes += [g.value(m, sh.datatype) for m in Collection(g, g.value(node, sh["or"]))]
    if datatypes:
        if any(str(d).endswith("Integer") for d in datatypes):  # Oxigraph stores derived integers as xsd:integer
            datatypes.append(_XSD + "integer")
        allowed = ", ".join(f"<{d}>" for d in datatypes)
        yield f"?f {p} ?v . FILTER(!isLiteral(?v) || datatype(?v) NOT IN ({allowed}))", "wrong datatype"
    if g.value(prop, sh["class"]) is not None:
        yield f"?f {p} ?v . FILTER NOT EXISTS {{ ?v a <{g.value(prop, sh['class'])}> }}", "value of the wrong class"
    if g.value(prop, sh["in"]) is not None:
        allowed = ", ".join(v.n3() for v in Collection(g, g.value(prop, sh["in"])))
        yield f"?f {p} ?v . FILTER(?v NOT IN ({allowed}))", "value not in the allowed list"
    if g.value(prop, sh.pattern) is not None:
        pattern = str(g.value(prop, sh.pattern)).replace("\\", "\\\\")
        yield f'?f {p} ?v . FILTER(!regex(str(?v), "{pattern}"))', "value does not match the pattern"


def sparql_checks(store: pyoxigraph.Store) -> list[str]:
    """One line per node of the store's merged view that breaks a shape's property constraint."""
    from concurrent.futures import ThreadPoolExecutor

    def check(query: str, path: str, message: str) -> list[str]:
        solutions = store.query(query)
        assert isinstance(solutions, pyoxigraph.QuerySolutions)  # every shape query is a SELECT
        return [f"{row['f'].value} {path}: {message}" for row in solutions]

    # Oxigraph lets go of the interpreter while it evaluates: the checks run on every core
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        found = pool.map(lambda c: check(*c), shape_queries())
        return sorted({line for lines in found for line in lines})


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


class ShaclProcess:
    """pyshacl in a process of its own, so that it runs on another core while the build writes its
    files: :meth:`check` forks this process (the child has kg's modules and the merged view already;
    it only loads pyshacl) and :meth:`result` reads the child's answer."""

    def __init__(self) -> None:
        self.pid: int | None = None
        self.answer_fd: int | None = None
        self.answer: tuple[bool, list[str]] | None = None  # where the check ran in this process
        self.what = ""  # what the check covers, for the build report

    def check(self, merged: TripleSet) -> None:
        """Start pyshacl on *merged*: every triple up to :data:`FULL_LIMIT`, else a sample of its nodes."""
        focus: list[str] | None = None
        lines: list[str] | None = None  # every triple's: sorted in the child
        if len(merged) <= FULL_LIMIT:
            self.what = "pyshacl on every triple"
        else:
            focus, lines = _sample(merged)
            self.what = f"pyshacl on {len(focus):,} sampled nodes of {len(merged):,} triples"
        read_end, write_end = os.pipe()
        gc.freeze()  # the child's collections leave the build's objects alone: their pages stay shared
        try:
            self.pid = os.fork()
        except OSError:  # no room for a second process: check here, now
            gc.unfreeze()
            os.close(read_end)
            os.close(write_end)
            self.answer = _pyshacl_on(merged.lines() if lines is None else lines, focus)
            return
        if self.pid == 0:  # the child: answer, then leave at once (no exit handlers, no buffers flushed twice)
            code = 1
            try:
                os.close(read_end)
                with os.fdopen(write_end, "w", encoding="utf-8") as out:
                    json.dump(_pyshacl_on(merged.lines() if lines is None else lines, focus), out)
                code = 0
            except BaseException:
                os.write(2, traceback.format_exc().encode())
            finally:
                os._exit(code)
        gc.unfreeze()
        os.close(write_end)
        self.answer_fd = read_end

    def result(self) -> tuple[bool, list[str]]:
        """(conforms, one line per violation), once pyshacl is done."""
        if self.answer is not None:
            return self.answer
        assert self.pid is not None and self.answer_fd is not None
        with os.fdopen(self.answer_fd, encoding="utf-8") as answer:
            self.answer_fd = None
            text = answer.read()
        code = os.waitstatus_to_exitcode(os.waitpid(self.pid, 0)[1])
        self.pid = None
        if code != 0:
            raise RuntimeError(f"the pyshacl check stopped with exit status {code} (its error is printed above)")
        conforms, violations = json.loads(text)
        return conforms, violations

    def cancel(self) -> None:
        """Stop the check if it still runs (the build failed)."""
        if self.answer_fd is not None:
            os.close(self.answer_fd)
            self.answer_fd = None
        if self.pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
            self.pid = None


def _pyshacl_on(lines: list[str], focus: list[str] | None) -> tuple[bool, list[str]]:
    from rdflib import URIRef

    return validate_graph(rdflib_graph("".join(lines)), None if focus is None else [URIRef(f) for f in focus],
                          inplace=True)


def store_checks(out_dir: Path) -> list[str]:
    """:func:`sparql_checks` on the store a build wrote into *out_dir*."""
    store = pyoxigraph.Store.read_only(str(out_dir / "store"))
    found = sparql_checks(store)
    del store
    return found


def combined(run: ShaclProcess, found: list[str]) -> tuple[bool, list[str], str]:
    """The answer of pyshacl *run* and the SPARQL checks' lines *found* as one: (conforms, violations,
    what was run)."""
    conforms, violations = run.result()
    return (conforms and not found, sorted(set(violations) | set(found)),
            run.what + " + the shapes as SPARQL on every node")


def validate_build(out_dir: Path, merged: TripleSet) -> tuple[bool, list[str], str]:
    """Validate a build in *out_dir* whose merged view is *merged*: (conforms, violations, what was run)."""
    run = ShaclProcess()
    try:
        run.check(merged)
        return combined(run, store_checks(out_dir))
    finally:
        run.cancel()  # nothing to stop once it answered


def validate_output(out_dir: str | Path) -> tuple[bool, list[str]]:
    """Validate the merged graph a build wrote to ``out_dir/kg.ttl`` (and its store), as the build does."""
    out_dir = Path(out_dir)
    ttl = out_dir / "kg.ttl"
    if not ttl.is_file() or not (out_dir / "store").is_dir():
        raise UserError(f"no {ttl} or {out_dir / 'store'}/; run `kg build` first")
    merged = TripleSet("")
    for t in pyoxigraph.parse(path=str(ttl), format=pyoxigraph.RdfFormat.TURTLE):
        merged.triples.add((str(t.subject), str(t.predicate), str(t.object)))
    conforms, violations, _ = validate_build(out_dir, merged)
    return conforms, violations
