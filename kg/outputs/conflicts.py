"""``kg conflicts``: single-valued facts on which source documents disagree, with the merged choice.

The disagreements are found in steps, each a query whose variables are bound from the step
before (``VALUES``), rather than in one query that joins everything: a store then looks every
fact up by its subject, property and graph. One query with ``GRAPH ?g`` joined to the
disagreeing keys made a SPARQL server try each of the build's graphs for each key (Oxigraph
tries every graph the request names, one at a time): 133 s for the 2,559 keys of 1,000 CVs
and 1,001 graphs, where the steps take seconds. The answer is the same on every store.
"""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal, InvalidOperation

import pandas as pd
import pyoxigraph

from kg.remote.http import AnswerCut
from kg.remote.tables import from_one_build
from kg.vocab import NS, SINGLE_VALUED, sparql_prefixes

PREFIX = sparql_prefixes("kg")
# The single-valued kg: properties; their schema: mirrors would report each disagreement twice.
_COMPARED = tuple(p for p in SINGLE_VALUED if p.startswith(NS))
#: Bound rows per query: small enough for a server's row cap (Virtuoso's is often 10,000) and its query size.
CHUNK = 200
COLUMNS = ["subject", "label", "property", "value", "source", "lines", "document_date"]


def _at_place(work: str, pattern: str) -> str:
    """``?s pattern``, where ?s's provenance (kg:fromSource, lines) is its own or, for an authorship,
    its work's (kg writes an authorship's place once, on the work, bound to *work*). A UNION, not
    the path ``^kg:hasAuthorship?``, which not every SPARQL server evaluates."""
    return f"{{ ?s {pattern} }} UNION {{ {work} kg:hasAuthorship ?s . {work} {pattern} }}"


def conflicts(store) -> pd.DataFrame:
    """Single-valued facts on which sources disagree: one row per (fact, source), with the merged choice.

    Two sources disagree on a subject's property when two graphs give it and two values are
    given (if every graph gave one same value, there would be one value). Subjects that are
    blank nodes name nothing outside their own document, so no two documents can disagree on them.

    Columns: ``subject``, ``label``, ``property``, ``value``, ``source``, ``lines``,
    ``document_date``, ``chosen`` (True for the value the merged graph kept: the newest source's).
    Rows are ordered by subject, property and source.
    """

    def read() -> pd.DataFrame:
        keys = _disagreeing(store)
        values = _values_in_sources(store, keys)
        files = _source_files(store, sorted({g for _, _, g, _, _, _ in values}, key=_text))
        labels = _labels(store, sorted({s for s, _ in keys}, key=_text))
        merged = _merged_values(store, sorted(keys, key=_key_text))
        rows: dict[tuple, tuple] = {}
        for s, p, g, o, first, last in values:
            for file, date in files.get(g, ()):
                key = (s.value, p.value, file)
                # one row per key: the first by value (as SPARQL orders values), lines and date
                order = (_term_order(o), _term_order(first), _term_order(last), date, g.value)
                if key not in rows or order < rows[key][0]:
                    rows[key] = (order, {
                        "subject": s.value, "label": labels.get(s.value, s.value), "property": p.value[len(NS):],
                        "value": o.value, "source": file,
                        "lines": f"{first.value}-{last.value}" if first is not None and last is not None else "",
                        "document_date": date, "chosen": merged.get((s.value, p.value)) == o.value})
        frame = pd.DataFrame([rows[k][1] for k in sorted(rows)], columns=COLUMNS + ["chosen"])
        frame["chosen"] = frame["chosen"].astype(bool)
        return frame

    return from_one_build(store, read)


def _disagreeing(store) -> dict[tuple, int]:
    """(subject, property) -> how many graphs give it, for every key two graphs give two values of.

    kg's merged view marks each key its sources give two values of (``kg:sourcesDisagreeOn``, one
    source listing a work twice included): those are counted in their graphs, not every graph's every
    value of the compared properties (at 1,000 CVs 2,538 keys against 500,000 quads, 1.1 s then). A
    store without the marks (loaded by someone else) is scanned."""
    props = " ".join(f"<{p}>" for p in _COMPARED)
    marked = [(r["s"], r["p"]) for r in store.query(PREFIX + f"""
        SELECT DISTINCT ?s ?p WHERE {{ VALUES ?p {{ {props} }} ?s kg:sourcesDisagreeOn ?p }}""")]
    counted = "(COUNT(DISTINCT ?g) AS ?graphs) (COUNT(DISTINCT ?o) AS ?values)"
    if marked:
        found = _bound_solutions(store, lambda rows: PREFIX + f"""
            SELECT ?s ?p {counted} WHERE {{ VALUES (?s ?p) {{ {_values(rows)} }} GRAPH ?g {{ ?s ?p ?o }} }}
            GROUP BY ?s ?p""", sorted(marked, key=_key_text))
    else:
        found = list(store.query(PREFIX + f"""
            SELECT ?s ?p {counted} WHERE {{ VALUES ?p {{ {props} }} GRAPH ?g {{ ?s ?p ?o }} }} GROUP BY ?s ?p
            HAVING (COUNT(DISTINCT ?g) > 1 && COUNT(DISTINCT ?o) > 1)"""))
    return {(r["s"], r["p"]): int(r["graphs"].value) for r in found
            if isinstance(r["s"], pyoxigraph.NamedNode) and int(r["graphs"].value) > 1 and int(r["values"].value) > 1}


def _values_in_sources(store, keys: dict) -> list[tuple]:
    """(subject, property, graph, value, first line or None, last line or None) for each key in each of its graphs.

    A fact's graphs are its sources (``kg:fromSource`` in the merged view names them; an
    authorship's are its work's, whose lines it was read from), so each is looked up by name; a
    key some of whose graphs its sources do not name (a graph loaded by someone else) is looked
    for in every graph."""
    def query(bind_graph: str):
        return lambda rows: PREFIX + f"""
            SELECT ?s ?p ?g ?o ?first ?last WHERE {{
              VALUES (?s ?p) {{ {_values(rows)} }} {bind_graph}
              GRAPH ?g {{ ?s ?p ?o OPTIONAL {{ {_at_place("?lined", "kg:firstLine ?first ; kg:lastLine ?last")} }} }}
            }}"""

    ordered = sorted(keys, key=_key_text)
    def rows(solutions) -> list[tuple]:
        return [(r["s"], r["p"], r["g"], r["o"], r["first"], r["last"]) for r in solutions]

    found = rows(_bound_solutions(store, query(_at_place("?named", "kg:fromSource ?g")), ordered))
    graphs = defaultdict(set)
    for s, p, g, *_ in found:
        graphs[s.value, p.value].add(g.value)
    missing = [key for key in ordered if len(graphs[key[0].value, key[1].value]) < keys[key]]
    if missing:
        done = {(s.value, p.value) for s, p in missing}
        found = [row for row in found if (row[0].value, row[1].value) not in done]
        found += rows(_bound_solutions(store, query(""), missing))
    return found


def _source_files(store, graphs: list) -> dict:
    """graph -> [(file name, document date or "")] (a graph without a file name is not a source document)."""

    def query(rows) -> str:
        # a UNION, not an OPTIONAL: Virtuoso loses an OPTIONAL's value inside GRAPH ?g when VALUES binds ?g
        return PREFIX + f"""
            SELECT ?g ?file ?date WHERE {{
              VALUES (?g) {{ {_values(rows)} }}
              {{ GRAPH ?g {{ ?g kg:fileName ?file }} }} UNION {{ GRAPH ?g {{ ?g kg:documentDate ?date }} }}
            }}"""

    names, dates = defaultdict(set), defaultdict(set)
    for r in _bound_solutions(store, query, [(g,) for g in graphs]):
        if r["file"] is not None:
            names[r["g"]].add(r["file"].value)
        if r["date"] is not None:
            dates[r["g"]].add(r["date"].value)
    return {g: sorted((file, date) for file in found for date in (dates.get(g) or {""}))
            for g, found in names.items()}


def _labels(store, subjects: list) -> dict[str, str]:
    """subject IRI -> what it is, shortly, from the merged view: "author on title" for an authorship,
    "holder: role" for a position or degree, else its name, title, role or degree, else its IRI
    (the smallest, where there are several)."""

    def query(rows) -> str:
        # a UNION of patterns each bound by ?s: OPTIONALs here took 14 s per 200 subjects at 1,000 CVs
        return PREFIX + f"""
            SELECT ?s ?l0 ?holder ?author ?wt WHERE {{
              VALUES (?s) {{ {_values(rows)} }}
              {{ ?s kg:name|kg:title|kg:role|kg:degree ?l0 }} UNION {{ ?s kg:holder ?h . ?h kg:name ?holder }}
              UNION {{ ?s kg:author ?a . ?a kg:name ?author . ?work kg:hasAuthorship ?s ; kg:title ?wt }}
            }}"""

    said: dict[str, dict[str, set]] = defaultdict(lambda: defaultdict(set))
    for r in _bound_solutions(store, query, [(s,) for s in subjects]):
        for name in ("l0", "holder"):
            if r[name] is not None:
                said[r["s"].value][name].add(r[name].value)
        if r["author"] is not None:
            said[r["s"].value]["by"].add(f"{r['author'].value} on {r['wt'].value}")
    labels = {}
    for s in subjects:
        known = said.get(s.value, {})
        by, holder, l0 = known.get("by"), known.get("holder"), known.get("l0")
        labels[s.value] = (min(by) if by else min(f"{h}: {x}" for h in holder for x in l0) if holder and l0
                           else min(l0) if l0 else s.value)
    return labels


def _merged_values(store, keys: list) -> dict[tuple[str, str], str]:
    """(subject, property) -> the value the merged view (the default graph) kept."""

    def query(rows) -> str:
        return PREFIX + f"SELECT ?s ?p ?o WHERE {{ VALUES (?s ?p) {{ {_values(rows)} }} ?s ?p ?o }}"

    return {(r["s"].value, r["p"].value): r["o"].value for r in _bound_solutions(store, query, keys)}


def _values(rows) -> str:
    """Rows of RDF terms as the body of a ``VALUES`` block: ``(<a> "b") (<c> "d")``."""
    return " ".join("(" + " ".join(str(term) for term in row) + ")" for row in rows)


def _bound_solutions(store, query_for, rows: list, size: int = CHUNK) -> list:
    """The solutions of ``query_for(chunk)`` for *rows* in chunks of *size*; a chunk whose answer a
    server cut at its row cap is asked again in halves."""
    found: list = []
    for start in range(0, len(rows), size):
        found += _answer(store, query_for, rows[start:start + size])
    return found


def _answer(store, query_for, rows: list) -> list:
    try:
        return list(store.query(query_for(rows)))
    except AnswerCut:
        if len(rows) == 1:
            raise
        half = len(rows) // 2
        return _answer(store, query_for, rows[:half]) + _answer(store, query_for, rows[half:])


def _text(term) -> str:
    return term.value


def _key_text(key: tuple) -> tuple[str, str]:
    """A (subject, property) key's order: by their texts."""
    return key[0].value, key[1].value


def _term_order(term) -> tuple:
    """A term's place in SPARQL's order, for literals of one kind: numbers by number, others by
    text; an unbound value first."""
    if term is None:
        return (0, Decimal(0), "")
    number = _number(term)
    return (1, number, "") if number is not None else (2, Decimal(0), term.value)


def _number(term) -> Decimal | None:
    if not isinstance(term, pyoxigraph.Literal) or not term.datatype.value.endswith(_NUMERIC):
        return None
    try:
        return Decimal(term.value)
    except InvalidOperation:
        return None


_NUMERIC = ("#integer", "#decimal", "#double", "#float", "#int", "#long", "#nonNegativeInteger", "#positiveInteger")
