"""A query made standalone for a server: kg's prefixes declared, bound values put in a VALUES block.

The embedded store takes prefixes and bound values beside the query text (Oxigraph's
``prefixes`` and ``substitutions``); a SPARQL server takes only text, so they are written into it
in standard SPARQL 1.1. A value is written as an RDF term (``<iri>`` or a quoted, escaped
literal) inside ``VALUES``, so it still cannot change what the query means.
"""

from __future__ import annotations

import re

from kg.query.sparql import skip_string

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
_NOT_IN_IRI = frozenset('<>"{}|^`\\ \t\r\n')


def standalone(query: str, prefixes: dict[str, str] | None = None, bindings: dict | None = None) -> str:
    """*query* with *prefixes* it does not declare itself, and *bindings* as a VALUES block.

    >>> standalone("SELECT ?n WHERE { ?p <urn:name> ?n }", {"kg": "https://kg.example/ns#"}, {"n": '"Ada"'})
    'PREFIX kg: <https://kg.example/ns#> SELECT ?n WHERE { VALUES (?n) { ("Ada") } ?p <urn:name> ?n }'
    """
    if bindings:
        query = with_values(query, bindings)
    declared = {m.lower() for m in re.findall(r"(?i)\bPREFIX\s+([A-Za-z][\w.-]*)?\s*:", query)}
    head = "".join(f"PREFIX {name}: <{iri}> " for name, iri in (prefixes or {}).items()
                   if name.lower() not in declared)
    return head + query  # on the query's first line, so a server's line numbers stay the query's own


def with_values(query: str, bindings: dict) -> str:
    """*query* with ``VALUES`` first in its outermost WHERE group, binding each variable to its term text.

    *bindings* maps variable names (without ``?``) to terms written in SPARQL (``<iri>``, ``"text"``).

    >>> with_values("CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }", {"s": "<urn:a>"})
    'CONSTRUCT { ?s ?p ?o } WHERE { VALUES (?s) { (<urn:a>) } ?s ?p ?o }'
    """
    brace = _where_brace(query)
    if brace is None:
        return query
    names = " ".join(f"?{name}" for name in bindings)
    values = " ".join(str(term) for term in bindings.values())
    return f"{query[:brace + 1]} VALUES ({names}) {{ ({values}) }}{query[brace + 1:]}"


def _where_brace(query: str) -> int | None:
    """Index of the ``{`` that opens the query's outermost WHERE group (outside strings, IRIs, comments)."""
    depth, first, after_where = 0, None, False
    i, n = 0, len(query)
    while i < n:
        c = query[i]
        if c in "'\"":
            i = skip_string(query, i)
            continue
        if c == "#":
            end = query.find("\n", i)
            i = n if end < 0 else end + 1
            continue
        if c == "<":
            end = i + 1
            while end < n and query[end] not in _NOT_IN_IRI:
                end += 1
            i = end + 1 if end < n and query[end] == ">" else i + 1
            continue
        if c == "{":
            if depth == 0:
                if after_where:
                    return i
                first = i if first is None else first
            depth += 1
        elif c == "}":
            depth -= 1
        elif c in "?$":
            match = _WORD.match(query, i + 1)
            i = match.end() if match else i + 1
            continue
        elif match := _WORD.match(query, i):
            if depth == 0 and match.group().upper() == "WHERE":
                after_where = True
            i = match.end()
            continue
        i += 1
    return first
