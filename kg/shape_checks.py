"""The constraints of ``shapes.ttl`` checked on every node of the merged view, in one pass over
its triples: the build's validation (as one SPARQL query per constraint over the store they took
96 s of CPU at a thousand CVs, most of it index lookups for ``FILTER NOT EXISTS``; pyshacl, on the
seeds alone, took longer than the rest of the build; here they take a few seconds at a thousand CVs).

Constraints checked: ``sh:minCount`` 1, ``sh:maxCount`` 1, ``sh:datatype`` (the value's datatype
and, for the XSD types in :data:`LEXICAL_FORMS`, its lexical form; also a node shape's ``sh:or`` of
datatypes given by ``sh:node``), ``sh:class``, ``sh:in`` and ``sh:pattern``, on the focus nodes of
``sh:targetClass`` and ``sh:targetSubjectsOf``. A shapes file that uses anything else is refused
(:class:`UnsupportedShape`), so no constraint is passed over in silence; ``kg validate`` runs
pyshacl as well, and the tests check that both find the same violations.

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
from collections import Counter, defaultdict
from dataclasses import dataclass
from functools import cache
from operator import itemgetter
from typing import Iterable

import pyoxigraph

from kg.data import shapes_ttl

_SH = "http://www.w3.org/ns/shacl#"
_XSD = "http://www.w3.org/2001/XMLSchema#"
_RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
_TYPE = f"<{_RDF}type>"
_SUBJECT, _OBJECT = itemgetter(0), itemgetter(2)
_UNESCAPES = {"\\\\": "\\", '\\"': '"', "\\n": "\n", "\\r": "\r"}
_TIMEZONE = r"(?:Z|[+-](?:(?:0\d|1[0-3]):[0-5]\d|14:00))?"
_YEAR = r"-?(?:[1-9]\d{4,}|\d{4})"
#: The lexical forms (XML Schema 1.1, whitespace collapsed) of the datatypes whose values are checked
#: beyond their datatype: a value "2020-02-30"^^xsd:date is no date.
LEXICAL_FORMS = {
    _XSD + "gYear": re.compile(_YEAR + _TIMEZONE),
    _XSD + "gYearMonth": re.compile(_YEAR + r"-(?:0[1-9]|1[0-2])" + _TIMEZONE),
    _XSD + "date": re.compile(r"(?P<y>" + _YEAR + r")-(?P<m>0[1-9]|1[0-2])-(?P<d>0[1-9]|[12]\d|3[01])" + _TIMEZONE),
    _XSD + "positiveInteger": re.compile(r"\+?0*[1-9]\d*"),
    _XSD + "integer": re.compile(r"[+-]?\d+"),
    _XSD + "boolean": re.compile(r"true|false|1|0"),
}


class UnsupportedShape(ValueError):
    """The shapes file uses a SHACL term or value :mod:`kg.shape_checks` does not check."""


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
    """Every constraint of ``shapes.ttl``, one per (property shape, target, kind)."""
    return constraints_of(shapes_ttl())


def constraints_of(turtle: bytes) -> tuple[Constraint, ...]:
    """Every constraint of the shapes in *turtle*, one per (property shape, target, kind); an
    :class:`UnsupportedShape` error if the shapes use what this module does not check.

    >>> shapes = b'''@prefix sh: <http://www.w3.org/ns/shacl#> .
    ... [] sh:targetClass <https://x.org/C> ; sh:property [ sh:path <https://x.org/p> ; sh:minLength 2 ] .'''
    >>> constraints_of(shapes)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    kg.shape_checks.UnsupportedShape: shapes.ttl uses sh:minLength on a property shape, which ...
    """
    said: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))  # node -> predicate -> values
    for t in pyoxigraph.parse(input=turtle, format=pyoxigraph.RdfFormat.TURTLE):
        said[str(t.subject)][str(t.predicate)].append(str(t.object))
    role_of = _roles(said)
    found = []
    for shape in sorted(node for node, role in role_of.items() if role == "shape"):
        targets = [("class", c) for c in _all(said, shape, "targetClass")]
        targets += [("subjects", p) for p in _all(said, shape, "targetSubjectsOf")]
        for prop in _all(said, shape, "property"):
            path = _all(said, prop, "path")[0]  # one IRI (see _roles)
            message = _text(_one(said, prop, "message") or '""')
            for kind, allowed, pattern, what in _kinds(said, prop):
                for target_kind, target in targets:
                    found.append(Constraint(target_kind, target, path, kind, allowed, pattern, message or what))
    return tuple(found)


def _sh(*names: str) -> set[str]:
    return {f"<{_SH}{name}>" for name in names}


#: What each kind of node of a shapes file may say (the SHACL this module checks).
_ROLES = {"shape": _sh("targetClass", "targetSubjectsOf", "property") | {_TYPE},
          "property shape": _sh("path", "minCount", "maxCount", "datatype", "class", "in", "pattern", "node",
                                "message"),
          "shape given by sh:node": _sh("or") | {_TYPE},
          "member of an sh:or": _sh("datatype")}


def _roles(said) -> dict[str, str]:
    """Each node of the shapes that says anything in SHACL, and what kind of node it is; an
    :class:`UnsupportedShape` error where it says what its kind may not."""
    role_of: dict[str, str] = {}
    for props in said.values():
        role_of.update((prop, "property shape") for prop in props.get(f"<{_SH}property>", []))
        role_of.update((node, "shape given by sh:node") for node in props.get(f"<{_SH}node>", []))
        for head in props.get(f"<{_SH}or>", []):
            role_of.update((member, "member of an sh:or") for member in _items(said, head))
    for node, props in said.items():
        if node not in role_of and any(p.startswith(f"<{_SH}") for p in props):
            role_of[node] = "shape"
    for node, role in role_of.items():
        unknown = sorted(set(said[node]) - _ROLES[role])
        if unknown:
            raise UnsupportedShape(f"shapes.ttl uses {_short(unknown[0])} on a {role}, which kg.shape_checks "
                                   "does not check: add it there (and to tests/test_shape_checks.py)")
        if role == "property shape" and not str(_one(said, node, "path")).startswith("<"):
            raise UnsupportedShape("shapes.ttl has a property shape whose sh:path is not one property, "
                                   "which kg.shape_checks does not check: add it there")
    return role_of


def _short(term: str) -> str:
    return "sh:" + term[len(_SH) + 1:-1] if term.startswith(f"<{_SH}") else term


def _all(said, node: str, term: str) -> list[str]:
    return said[node].get(f"<{_SH}{term}>", [])


def _one(said, node: str, term: str) -> str | None:
    values = _all(said, node, term)
    return values[0] if values else None


def _items(said, head: str) -> list[str]:
    """The members of the RDF list that begins at *head*."""
    members = []
    while head != f"<{_RDF}nil>":
        members.append(said[head][f"<{_RDF}first>"][0])
        head = said[head][f"<{_RDF}rest>"][0]
    return members


def _count(said, prop: str, term: str, allowed: set[int]) -> int | None:
    value = _one(said, prop, term)
    if value is None:
        return None
    count = int(_text(value))
    if count not in allowed:
        raise UnsupportedShape(f"shapes.ttl has sh:{term} {count}; kg.shape_checks checks only "
                               f"{' or '.join(map(str, sorted(allowed)))}: add it there")
    return count


def _node_datatypes(said, node: str) -> list[str]:
    """The datatypes a shape given by ``sh:node`` allows: those of its ``sh:or``'s members."""
    members = [m for head in _all(said, node, "or") for m in _items(said, head)]
    datatypes = [d for m in members for d in _all(said, m, "datatype")]
    if not members or len(datatypes) != len(members):
        raise UnsupportedShape("shapes.ttl gives sh:node a shape that is not an sh:or of sh:datatype shapes, "
                               "which kg.shape_checks does not check: add it there")
    return datatypes


def _kinds(said, prop: str):
    if _count(said, prop, "minCount", {0, 1}) == 1:
        yield "min", frozenset(), "", "a value is required"
    if _count(said, prop, "maxCount", {1}) == 1:
        yield "max", frozenset(), "", "more than one value"
    datatypes = _all(said, prop, "datatype") + [d for n in _all(said, prop, "node") for d in _node_datatypes(said, n)]
    if datatypes:
        iris = {d[1:-1] for d in datatypes}
        if any(d.endswith("Integer") for d in iris):  # a store gives derived integers as xsd:integer
            iris.add(_XSD + "integer")
        yield "datatype", frozenset(iris), "", "wrong datatype"
    for cls in _all(said, prop, "class"):
        yield "class", frozenset({cls}), "", "value of the wrong class"
    for head in _all(said, prop, "in"):
        yield "in", frozenset(_items(said, head)), "", "value not in the allowed list"
    for pattern in _all(said, prop, "pattern"):
        yield "pattern", frozenset(), _text(pattern), "value does not match the pattern"


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


def well_formed(lexical: str, datatype: str | None) -> bool:
    """Whether *lexical* is a value of *datatype* (True for a datatype without a rule in
    :data:`LEXICAL_FORMS`).

    >>> [well_formed(v, _XSD + "date") for v in ("2024-02-29", "2023-02-29", "2023-2-1")]
    [True, False, False]
    >>> [well_formed(v, _XSD + "positiveInteger") for v in ("7", " +07 ", "0")]
    [True, True, False]
    """
    form = LEXICAL_FORMS.get(datatype or "")
    if form is None:
        return True
    m = form.fullmatch(lexical.strip(" \t\n\r"))
    if m is None or datatype != _XSD + "date":
        return m is not None
    year, month, day = int(m.group("y")), int(m.group("m")), int(m.group("d"))
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    return day <= (29 if leap else 28) if month == 2 else day <= (30 if month in (4, 6, 9, 11) else 31)


def _text(term: str) -> str:
    """``str()`` of a term in SPARQL: an IRI's value, a literal's lexical form."""
    if term.startswith("<"):
        return term[1:-1]
    if term.startswith('"'):
        lexical = term[1:term.rindex('"')]
        return re.sub(r'\\[\\"nr]', lambda m: _UNESCAPES[m.group()], lexical) if "\\" in lexical else lexical
    return term


def _value_breaks(c: Constraint, value: str, types: dict[str, set[str]]) -> bool:
    if c.kind == "datatype":
        datatype = datatype_of(value)
        # the lexical form only where there is a rule for it: most values are strings
        return datatype not in c.allowed or datatype in LEXICAL_FORMS and not well_formed(_text(value), datatype)
    if c.kind == "class":
        return not (c.allowed & types.get(value, set()))
    if c.kind == "in":
        return value not in c.allowed
    return re.search(c.pattern, _text(value)) is None  # "pattern"


def check_triples(triples: Iterable[tuple[str, str, str]], constraints: tuple[Constraint, ...] | None = None
                  ) -> list[str]:
    """One line per (focus node, path, message) that breaks a constraint, sorted, for *triples*
    (N-Triples terms, each triple once).

    One pass groups the triples of the properties the constraints read by property; then each
    constraint reads its property's triples alone, and each distinct value is checked once
    (a value's datatype, class, list or pattern does not depend on its subject).
    """
    constraints = shape_constraints() if constraints is None else constraints
    by_path: dict[str, list[Constraint]] = defaultdict(list)
    for c in constraints:
        by_path[c.path].append(c)
    targets = {c.target for c in constraints if c.target_kind == "subjects"}
    of_property: dict[str, list[tuple[str, str, str]]] = {p: [] for p in {*by_path, *targets, _TYPE}}
    listed = of_property.get
    for t in triples:
        same = listed(t[1])
        if same is not None:
            same.append(t)
    types: dict[str, set[str]] = defaultdict(set)
    for s, _, o in of_property[_TYPE]:
        types[s].add(o)
    subjects_of = {p: set(map(_SUBJECT, of_property[p])) for p in targets}
    members: dict[str, list[str]] = defaultdict(list)
    for node, classes in types.items():
        for cls in classes:
            members[cls].append(node)

    def focus(c: Constraint, node: str) -> bool:
        return c.target in types.get(node, ()) if c.target_kind == "class" else node in subjects_of[c.target]

    found: set[str] = set()
    for path, checks in by_path.items():
        stated = of_property[path]
        # the triples are distinct: a subject's second triple is a second value
        values_of = Counter(map(_SUBJECT, stated)) if any(c.kind in ("min", "max") for c in checks) else {}
        distinct: set[str] | None = None  # the property's values, made for the first value constraint
        for c in checks:
            if c.kind == "max":
                found.update(c.line(s) for s, n in values_of.items() if n > 1 and focus(c, s))
            elif c.kind == "min":
                nodes = members[c.target] if c.target_kind == "class" else subjects_of[c.target]
                found.update(c.line(n) for n in nodes if n not in values_of)
            else:
                distinct = set(map(_OBJECT, stated)) if distinct is None else distinct
                breaks = {o for o in distinct if _value_breaks(c, o, types)}
                if breaks:
                    found.update(c.line(s) for s, _, o in stated if o in breaks and focus(c, s))
    return sorted(found)
