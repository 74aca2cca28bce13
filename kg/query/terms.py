"""Values for a query's variables, read from ``name=value`` text: IRIs, prefixed names, literals."""

from __future__ import annotations

import re

import pyoxigraph

from kg.errors import UsageError
from kg.vocab import PREFIXES

_NT_LITERAL = re.compile(r'^"(?P<lex>(?:[^"\\]|\\.)*)"(?:@(?P<lang>[A-Za-z]+(?:-[A-Za-z0-9]+)*)|\^\^(?P<dt>\S+))?$')
_PREFIXED = re.compile(r"^(?P<prefix>[A-Za-z][\w.-]*)?:(?P<local>\S*)$")


def _unescape(text: str) -> str:
    return re.sub(r'\\(["\\nrt])', lambda m: {"n": "\n", "r": "\r", "t": "\t"}.get(m[1], m[1]), text)


def _iri(text: str, what: str) -> pyoxigraph.NamedNode:
    if text.startswith("<") and text.endswith(">"):
        text = text[1:-1]
    else:
        match = _PREFIXED.match(text)
        if not match or (match["prefix"] or "") not in PREFIXES:
            known = ", ".join(f"{p}:" for p in PREFIXES)
            raise UsageError(f"{what}: {text!r} is not an IRI; write <https://...> or use a known prefix ({known})")
        text = PREFIXES[match["prefix"] or ""] + match["local"]
    try:
        return pyoxigraph.NamedNode(text)
    except ValueError as err:
        raise UsageError(f"{what}: {text!r} is not a valid IRI ({err})") from None


def parse_term(text: str, what: str = "value"):
    """The RDF term a ``--bind`` value stands for.

    ``<https://...>`` or ``kg:Person`` (a known prefix) is an IRI; ``"2023"^^xsd:gYear`` or
    ``"chat"@fr`` is a literal written as in SPARQL; anything else is a plain string.

    >>> parse_term("Ada Lovelace")
    <Literal value=Ada Lovelace datatype=<NamedNode value=http://www.w3.org/2001/XMLSchema#string>>
    >>> parse_term("<https://kg.example/id/person/ada>")
    <NamedNode value=https://kg.example/id/person/ada>
    >>> parse_term("id:person/ada").value
    'https://kg.example/id/person/ada'
    >>> parse_term('"2023"^^xsd:gYear').datatype.value
    'http://www.w3.org/2001/XMLSchema#gYear'
    """
    if text.startswith("<") and text.endswith(">"):
        return _iri(text, what)
    match = _NT_LITERAL.match(text)
    if match:
        lexical = _unescape(match["lex"])
        if match["lang"]:
            return pyoxigraph.Literal(lexical, language=match["lang"])
        if match["dt"]:
            return pyoxigraph.Literal(lexical, datatype=_iri(match["dt"], what))
        return pyoxigraph.Literal(lexical)
    prefixed = _PREFIXED.match(text)
    if prefixed and (prefixed["prefix"] or "") in PREFIXES and not text.startswith(":"):
        return _iri(text, what)
    return pyoxigraph.Literal(text)


def parse_bindings(pairs) -> dict:
    """Variable bindings from ``name=value`` strings, for :func:`run_query`.

    Raises
    ------
    UsageError
        If a pair has no ``=``, the name is not a SPARQL variable name, or a name repeats.

    >>> sorted(str(v) for v in parse_bindings(["name=Ada", "?year=2023"]))
    ['?name', '?year']
    >>> parse_bindings(["name"])
    Traceback (most recent call last):
    ...
    kg.errors.UsageError: binding 'name' has no '='; write name=value
    """
    bindings: dict = {}
    for pair in pairs or ():
        name, sep, value = pair.partition("=")
        name = name.strip().lstrip("?$")
        if not sep:
            raise UsageError(f"binding {pair!r} has no '='; write name=value")
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            raise UsageError(f"binding {pair!r}: {name!r} is not a variable name (letters, digits, _)")
        variable = pyoxigraph.Variable(name)
        if variable in bindings:
            raise UsageError(f"{name} is bound twice; bind each variable once")
        bindings[variable] = parse_term(value, f"binding {name}")
    return bindings


