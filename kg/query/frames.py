"""Query answers as pandas DataFrames: Python values for literals, labels beside IRIs."""

from __future__ import annotations

from decimal import Decimal

import pandas as pd
import pyoxigraph

from kg.errors import UserError
from kg.query.terms import parse_term
from kg.vocab import KG, PREFIXES

_XSD = "http://www.w3.org/2001/XMLSchema#"
_INTEGERS = {_XSD + t for t in ("integer", "int", "long", "short", "byte", "nonNegativeInteger",
                                "positiveInteger", "negativeInteger", "nonPositiveInteger",
                                "unsignedLong", "unsignedInt", "unsignedShort", "unsignedByte")}
_FLOATS = {_XSD + "double", _XSD + "float"}
#: Properties whose value names a node, in order of preference.
LABELS = (str(KG.name), str(KG.title), str(KG.fileName))


def python_value(term):
    """The Python value of an RDF term, as a table should show it.

    Integers and ``xsd:gYear`` become ``int``, decimals and doubles ``float``, booleans
    ``bool``; other literals (dates, months, strings) their text. A term of a known
    vocabulary (:data:`kg.vocab.PREFIXES`, such as ``kg:`` and ``schema:``) becomes a
    prefixed name, which ``sparql(...)`` bindings accept back; any other IRI its full text.
    ``None`` stays ``None``.

    Examples
    --------
    >>> from pyoxigraph import Literal, NamedNode
    >>> xsd = "http://www.w3.org/2001/XMLSchema#"
    >>> python_value(Literal("2023", datatype=NamedNode(xsd + "gYear")))
    2023
    >>> python_value(Literal("2024-06", datatype=NamedNode(xsd + "gYearMonth")))
    '2024-06'
    >>> python_value(Literal("true", datatype=NamedNode(xsd + "boolean")))
    True
    >>> python_value(Literal(7)), python_value(Literal("0.5", datatype=NamedNode(xsd + "decimal")))
    (7, 0.5)
    >>> python_value(NamedNode("https://kg.example/id/person/ada"))
    'https://kg.example/id/person/ada'
    >>> python_value(NamedNode("https://kg.example/ns#endDate"))
    'kg:endDate'
    """
    if term is None:
        return None
    if isinstance(term, pyoxigraph.NamedNode):
        return _short_iri(term.value)
    if not isinstance(term, pyoxigraph.Literal):
        return term.value if hasattr(term, "value") else str(term)
    text, datatype = term.value, term.datatype.value
    try:
        if datatype in _INTEGERS:
            return int(text)
        if datatype == _XSD + "gYear" and text.lstrip("-").isdigit():
            return int(text)
        if datatype == _XSD + "decimal":
            return float(Decimal(text))
        if datatype in _FLOATS:
            return float(text)
        if datatype == _XSD + "boolean" and text in ("true", "false", "1", "0"):
            return text in ("true", "1")
    except (ValueError, ArithmeticError):
        pass
    return text


def _short_iri(iri: str) -> str:
    """A vocabulary term as a prefixed name (``kg:Person``); other IRIs unchanged."""
    for prefix, base in PREFIXES.items():
        if prefix != "id" and iri.startswith(base) and len(iri) > len(base):
            local = iri[len(base):]
            if local.replace("_", "").replace("-", "").isalnum():
                return f"{prefix}:{local}"
    return iri


def binding_term(name: str, value):
    """The RDF term for a keyword binding: terms as given, numbers and booleans typed, text as ``--bind``."""
    if isinstance(value, (pyoxigraph.NamedNode, pyoxigraph.Literal, pyoxigraph.BlankNode)):
        return value
    if isinstance(value, (bool, int, float)):
        return pyoxigraph.Literal(value)
    if isinstance(value, str):
        return parse_term(value, f"binding {name}")
    raise UserError(f"binding {name}={value!r}: give a str, int, float, bool or a pyoxigraph term")


def _labels(store, iris) -> dict[str, str]:
    """Name (else title, else file name) of each IRI that has one; the smallest if several."""
    iris = sorted(set(iris))
    found: dict[str, tuple[int, str]] = {}
    for start in range(0, len(iris), 500):
        chunk = " ".join(f"<{iri}>" for iri in iris[start:start + 500])
        query = f"SELECT ?s ?p ?label WHERE {{ VALUES ?s {{ {chunk} }} ?s ?p ?label . " \
                f"VALUES ?p {{ {' '.join(f'<{p}>' for p in LABELS)} }} }}"
        for row in store.query(query):
            key = (LABELS.index(row["p"].value), row["label"].value)
            iri = row["s"].value
            if iri not in found or key < found[iri]:
                found[iri] = key
    return {iri: label for iri, (_, label) in found.items()}


def readable_frame(store, variables: list[str], rows: list[tuple]) -> pd.DataFrame:
    """Rows of terms as a DataFrame: labels for named IRIs (with ``<col>_iri``), Python values."""
    iris = {t.value for row in rows for t in row if isinstance(t, pyoxigraph.NamedNode)}
    labels = _labels(store, iris) if iris else {}
    columns: dict[str, list] = {}
    for i, var in enumerate(variables):
        terms = [row[i] for row in rows]
        named = [isinstance(t, pyoxigraph.NamedNode) and t.value in labels for t in terms]
        if any(named) and f"{var}_iri" not in variables:
            columns[var] = [labels[t.value] if n else python_value(t) for t, n in zip(terms, named, strict=False)]
            columns[f"{var}_iri"] = [t.value if isinstance(t, pyoxigraph.NamedNode) else None for t in terms]
        else:
            columns[var] = [python_value(t) for t in terms]
    frame = pd.DataFrame(columns, columns=list(columns))
    for name, values in columns.items():
        present = [v for v in values if v is not None]
        if present and len(present) < len(values):
            if all(isinstance(v, bool) for v in present):
                frame[name] = frame[name].astype("boolean")
            elif all(isinstance(v, int) and not isinstance(v, bool) for v in present):
                frame[name] = frame[name].astype("Int64")
    return frame
