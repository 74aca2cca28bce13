"""The property constraints of ``shapes.ttl`` checked on every node of the merged view, in two passes
over its triples (as one SPARQL query per constraint over the store they took 96 s of CPU at a
thousand CVs, most of it index lookups for ``FILTER NOT EXISTS``; here they take a few seconds).

Constraints checked: ``sh:minCount`` 1, ``sh:maxCount`` 1, ``sh:datatype`` (also a node shape's
``sh:or`` of datatypes), ``sh:class``, ``sh:in`` and ``sh:pattern``, on the focus nodes of
``sh:targetClass`` and ``sh:targetSubjectsOf``. pyshacl checks everything else (see
:mod:`kg.validate`).

>>> from kg.rdf.quads import TripleSet
>>> g = TripleSet("")
>>> g.triples.add(("<https://x.org/w>", "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>",
...                "<https://kg.example/ns#Work>"))
>>> for line in check_triples(g.triples):  # a work with no values: the four required ones are missing
...     print(line)
https://x.org/w http://schema.org/author: a value is required
https://x.org/w https://kg.example/ns#hasAuthor: a work needs at least one author who is a kg:Person
https://x.org/w https://kg.example/ns#status: a value is required
https://x.org/w https://kg.example/ns#title: a work needs exactly one title
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from functools import cache
from typing import Iterable

from kg.data import shapes_ttl

_SH = "http://www.w3.org/ns/shacl#"
_XSD = "http://www.w3.org/2001/XMLSchema#"
_RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
_TYPE = f"<{_RDF}type>"
_UNESCAPES = {"\\\\": "\\", '\\"': '"', "\\n": "\n", "\\r": "\r"}


@dataclass(frozen=True)
class Constraint:
    """One constraint of a property shape on the focus nodes of one target (terms in N-Triples form)."""

    target_kind: str  # "class": nodes of that class; "subjects": subjects of that property
    target: str
    path: str
    kind: str  # "min", "max", "datatype", "class", "in" or "pattern"
    allowed: frozenset[str] = frozenset()  # datatypes (IRIs), values (N-Triples) or the class
    pattern: str = ""
    message: str = ""

    def line(self, node: str) -> str:
        value = node[1:-1] if node.startswith("<") else node.removeprefix("_:")
        return f"{value} {self.path[1:-1]}: {self.message}"


@cache
def shape_constraints() -> tuple[Constraint, ...]:
    """Every constraint of ``shapes.ttl`` this module checks, one per (property shape, target, kind)."""
    from rdflib import Graph, Namespace
    from rdflib.collection import Collection

    sh = Namespace(_SH)
    g = Graph().parse(data=shapes_ttl(), format="turtle")
    found = []
    for shape in sorted(set(g.subjects(sh.property, None)), key=str):
        targets = [("class", f"<{c}>") for c in g.objects(shape, sh.targetClass)]
        targets += [("subjects", f"<{p}>") for p in g.objects(shape, sh.targetSubjectsOf)]
        for prop in g.objects(shape, sh.property):
            path = f"<{g.value(prop, sh.path)}>"
            message = str(g.value(prop, sh.message) or "")
            for kind, allowed, pattern, what in _kinds(g, sh, Collection, prop):
                for target_kind, target in targets:
                    found.append(Constraint(target_kind, target, path, kind, allowed, pattern, message or what))
    return tuple(found)


def _kinds(g, sh, Collection, prop):
    if g.value(prop, sh.minCount) is not None and int(g.value(prop, sh.minCount)) >= 1:
        yield "min", frozenset(), "", "a value is required"
    if g.value(prop, sh.maxCount) is not None and int(g.value(prop, sh.maxCount)) == 1:
        yield "max", frozenset(), "", "more than one value"
    datatypes = [g.value(prop, sh.datatype)] if g.value(prop, sh.datatype) else []
    node = g.value(prop, sh.node)
    if node is not None and g.value(node, sh["or"]) is not None:
        datatypes += [g.value(m, sh.datatype) for m in Collection(g, g.value(node, sh["or"]))]
    if datatypes:
        if any(str(d).endswith("Integer") for d in datatypes):  # a store gives derived integers as xsd:integer
            datatypes.append(_XSD + "integer")
        yield "datatype", frozenset(str(d) for d in datatypes), "", "wrong datatype"
    if g.value(prop, sh["class"]) is not None:
        yield "class", frozenset({f"<{g.value(prop, sh['class'])}>"}), "", "value of the wrong class"
    if g.value(prop, sh["in"]) is not None:
        yield "in", frozenset(v.n3() for v in Collection(g, g.value(prop, sh["in"]))), "", \
            "value not in the allowed list"
    if g.value(prop, sh.pattern) is not None:
        yield "pattern", frozenset(), str(g.value(prop, sh.pattern)), "value does not match the pattern"


def datatype_of(term: str) -> str | None:
    """The datatype IRI of an N-Triples literal, None for an IRI or a blank node.

    >>> datatype_of('"3"^^<http://www.w3.org/2001/XMLSchema#integer>'), datatype_of('"a"@en'), datatype_of('"a"')
    ('http://www.w3.org/2001/XMLSchema#integer', 'http://www.w3.org/1999/02/22-rdf-syntax-ns#langString', \
'http://www.w3.org/2001/XMLSchema#string')
    """
    if not term.startswith('"'):
        return None
    rest = term[term.rindex('"') + 1:]
    if rest.startswith("^^<"):
        return rest[3:-1]
    return _RDF + "langString" if rest.startswith("@") else _XSD + "string"


def _text(term: str) -> str:
    """``str()`` of a term in SPARQL: an IRI's value, a literal's lexical form."""
    if term.startswith("<"):
        return term[1:-1]
    if term.startswith('"'):
        return re.sub(r'\\[\\"nr]', lambda m: _UNESCAPES[m.group()], term[1:term.rindex('"')])
    return term


def _value_breaks(c: Constraint, value: str, types: dict[str, set[str]]) -> bool:
    if c.kind == "datatype":
        return datatype_of(value) not in c.allowed
    if c.kind == "class":
        return not (c.allowed & types.get(value, set()))
    if c.kind == "in":
        return value not in c.allowed
    return re.search(c.pattern, _text(value)) is None  # "pattern"


def _targets(triples, properties: set[str]) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """Each node's classes, and the subjects of each of *properties*."""
    types: dict[str, set[str]] = defaultdict(set)
    subjects_of: dict[str, set[str]] = {p: set() for p in properties}
    for s, p, o in triples:
        if p == _TYPE:
            types[s].add(o)
        if p in subjects_of:
            subjects_of[p].add(s)
    return types, subjects_of


def check_triples(triples: Iterable[tuple[str, str, str]], constraints: tuple[Constraint, ...] | None = None
                  ) -> list[str]:
    """One line per (focus node, path, message) that breaks a constraint, sorted, for *triples*
    (N-Triples terms, each triple once; iterated twice).

    The first pass finds each node's classes and the subjects of each target property; the second
    checks each value as it comes and counts each focus node's values of each path.
    """
    constraints = shape_constraints() if constraints is None else constraints
    types, subjects_of = _targets(triples, {c.target for c in constraints if c.target_kind == "subjects"})

    def focus(c: Constraint, node: str) -> bool:
        return c.target in types.get(node, ()) if c.target_kind == "class" else node in subjects_of[c.target]

    by_path: dict[str, list[Constraint]] = defaultdict(list)
    for c in constraints:
        by_path[c.path].append(c)
    having: dict[str, set[str]] = defaultdict(set)  # path -> subjects with a value
    twice: dict[str, set[str]] = defaultdict(set)  # path -> subjects with two values or more
    found: set[str] = set()
    for s, p, o in triples:
        checks = by_path.get(p)
        if checks is None:
            continue
        seen = having[p]
        if s in seen:
            twice[p].add(s)  # the triples are distinct: a second triple is a second value
        seen.add(s)
        for c in checks:
            if c.kind not in ("min", "max") and _value_breaks(c, o, types) and focus(c, s):
                found.add(c.line(s))
    members: dict[str, list[str]] = defaultdict(list)
    for node, classes in types.items():
        for cls in classes:
            members[cls].append(node)
    for c in constraints:
        if c.kind == "max":
            found.update(c.line(s) for s in twice[c.path] if focus(c, s))
        elif c.kind == "min":
            nodes = members[c.target] if c.target_kind == "class" else subjects_of[c.target]
            found.update(c.line(n) for n in nodes if n not in having[c.path])
    return sorted(found)
