"""Serialisation with stable bytes: sorted N-Quads in, Oxigraph's TriG and Turtle writers out, and
compact JSON-LD with an ``@context``: the same graph always gives the same bytes.

Triples are sorted (graph, subject, predicate, object) as N-Quads text before any writer sees
them, so every writer groups the same subjects in the same order; no blank nodes are minted.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from time import perf_counter

import pyoxigraph

from kg.rdf.quads import TripleSet, iri, unescape_lexical
from kg.vocab import PREFIXES as _ALL_PREFIXES
from kg.vocab import TYPE_IRI

#: The prefixes kg's files use (in this order in their headers).
PREFIXES = {p: _ALL_PREFIXES[p] for p in ("kg", "id", "schema", "prov", "foaf", "dcterms", "xsd", "rdfs", "owl")}
_RDF_TYPE = TYPE_IRI
_XSD_STRING = PREFIXES["xsd"] + "string"
# Longest namespace first, so that a namespace inside another (none today) would still win.
_BY_LENGTH = sorted(((ns, prefix) for prefix, ns in PREFIXES.items()), key=lambda pair: -len(pair[0]))
_NAMESPACE = re.compile("|".join(re.escape(ns) for ns, _ in _BY_LENGTH))  # tried in that order
_PREFIX_OF = {ns: prefix for ns, prefix in _BY_LENGTH}
_CHUNK = 50_000
_KEYS_KEPT = 100_000  # compacted IRIs JSON-LD keeps: the recurring ones, in bounded memory


def _write_lines(out, triples: list[tuple[str, str, str]], end: str) -> None:
    for i in range(0, len(triples), _CHUNK):  # a chunk of lines at a time: never all of them at once
        out.write("".join([f"{s} {p} {o}{end}" for s, p, o in triples[i:i + _CHUNK]]))


def write_nquads(graphs: list[TripleSet], path: Path) -> int:
    """The non-empty *graphs* as N-Quads, graphs in IRI order and triples sorted; the number of quads."""
    with open(path, "w", encoding="utf-8") as out:
        return sum(write_graph_quads(out, g) for g in sorted(graphs, key=lambda g: g.identifier))


def write_graph_quads(out, graph: TripleSet) -> int:
    """*graph*'s triples, sorted, as N-Quads into the open text file *out*; how many (the build writes
    each source's graph as it is made, in IRI order: the lines of :func:`write_nquads`)."""
    triples = graph.in_order()
    _write_lines(out, triples, f" {iri(graph.identifier)} .\n")
    return len(triples)


def write_ntriples(triples: list[tuple[str, str, str]], path: Path) -> None:
    """*triples* as N-Triples, in their order: sorted N-Triples from :meth:`TripleSet.in_order` (or
    :meth:`TripleSet.take_in_order`)."""
    with open(path, "w", encoding="utf-8") as out:
        _write_lines(out, triples, " .\n")


# The N-Quads and N-Triples files are kg's own (an IRI from a document passed kg.rdf.iris.repair_iri,
# which asks Oxigraph; kg minted the rest): the writers below, like the store, read them leniently,
# which skips checking each IRI again (three times faster).


def write_trig(nquads: Path, path: Path) -> None:
    """TriG from sorted N-Quads, written by Oxigraph with kg's prefixes."""
    quads = pyoxigraph.parse(path=str(nquads), format=pyoxigraph.RdfFormat.N_QUADS, lenient=True)
    pyoxigraph.serialize(quads, str(path), pyoxigraph.RdfFormat.TRIG, prefixes=PREFIXES)


def write_turtle(ntriples: Path, path: Path) -> None:
    """Turtle from sorted N-Triples, written by Oxigraph with kg's prefixes."""
    triples = pyoxigraph.parse(path=str(ntriples), format=pyoxigraph.RdfFormat.N_TRIPLES, lenient=True)
    pyoxigraph.serialize(triples, str(path), pyoxigraph.RdfFormat.TURTLE, prefixes=PREFIXES)


def compact(iri: str) -> str:
    """*iri* as ``prefix:local`` where a prefix covers it.

    >>> compact("https://kg.example/ns#Person")
    'kg:Person'
    """
    found = _NAMESPACE.match(iri)
    return f"{_PREFIX_OF[found.group()]}:{iri[found.end():]}" if found else iri


def _compact_once(seen: dict[str, str], iri: str, key: str | None = None) -> str:
    seen[iri if key is None else key] = known = compact(iri)
    return known


@lru_cache(maxsize=64)
def _compact_datatype(iri: str) -> str:
    return compact(iri)  # a handful of datatypes, on most literals


def _value(term: str) -> object:
    """The JSON-LD value of an N-Triples object term as kg writes it (an IRI or a literal)."""
    if term[0] == "<":
        return {"@id": compact(term[1:-1])}
    close = term.rindex('"')  # a datatype's IRI or a language tag holds no quote
    lexical = unescape_lexical(term[1:close])
    suffix = term[close + 1:]
    if not suffix:
        return lexical
    if suffix[0] == "@":
        return {"@value": lexical, "@language": suffix[1:].lower()}  # Oxigraph's reading: lower case
    datatype = suffix[3:-1]
    if datatype == _XSD_STRING:
        return lexical
    return {"@value": lexical, "@type": _compact_datatype(datatype)}


def _node(subject: str, props: dict) -> dict:
    node: dict = {"@id": compact(subject)}
    for key in sorted(props):
        values = props[key]
        node[key] = values[0] if len(values) == 1 else values
    return node


def write_jsonld(ntriples: Path, path: Path) -> None:
    """Compact JSON-LD of sorted N-Triples: an ``@context`` of kg's prefixes and one node per subject,
    in subject order (one a line, written as it comes), each property's values in N-Triples order.

    The file is one :func:`write_ntriples` wrote: a line is ``<s> <p> object .``, and IRIs hold no
    space (:func:`kg.rdf.quads.iri`), so the line is cut at its first two spaces instead of parsed.
    """
    with open(ntriples, encoding="utf-8", newline="\n") as lines, open(path, "w", encoding="utf-8") as out:
        out.write('{"@context": ' + json.dumps(PREFIXES) + ',\n "@graph": [')
        subject: str | None = None
        start = "\0"  # the line start of the current subject's triples
        props: dict[str, list] = {}
        sep = "\n"
        keys: dict[str, str] = {}  # predicates, classes and linked nodes recur: compact each once
        # one encoder for every node (json.dumps makes one a call: a third of its time on small nodes)
        dumps = json.JSONEncoder(ensure_ascii=False, check_circular=False).encode
        for line in lines:
            s_end = line.index(" ")
            if not line.startswith(start):
                if subject is not None:
                    out.write(sep + dumps(_node(subject, props)))
                    sep = ",\n"
                start, subject, props = line[:s_end + 1], line[1:s_end - 1], {}
                if len(keys) > _KEYS_KEPT:
                    keys.clear()
            p_end = line.index(" ", s_end + 1)
            predicate, obj = line[s_end + 2:p_end - 1], line[p_end + 1:-3]
            if obj[0] != "<":
                key, value = keys.get(predicate) or _compact_once(keys, predicate), _value(obj)
            elif predicate == _RDF_TYPE:
                key, value = "@type", keys.get(obj) or _compact_once(keys, obj[1:-1], obj)
            else:
                key = keys.get(predicate) or _compact_once(keys, predicate)
                value = {"@id": keys.get(obj) or _compact_once(keys, obj[1:-1], obj)}
            values = props.get(key)
            if values is None:
                props[key] = [value]
            else:
                values.append(value)
        if subject is not None:
            out.write(sep + dumps(_node(subject, props)))
        out.write("\n]}\n")


def flat_files(nquads: Path, ntriples: Path) -> tuple[tuple[str, Callable[[Path, Path], None], Path], ...]:
    """(file name, writer, what it is written from) of each flat RDF file: ``kg.trig`` from the sources'
    sorted N-Quads, ``kg.ttl`` and ``kg.jsonld`` from the merged view's sorted N-Triples."""
    return ("kg.trig", write_trig, nquads), ("kg.ttl", write_turtle, ntriples), ("kg.jsonld", write_jsonld, ntriples)


def write_files(nquads: Path, ntriples: Path, folder: Path,
                wait: Callable[[Path], None] | None = None) -> list[tuple[str, float]]:
    """Each of :func:`flat_files` written into *folder*; each file's name with the seconds it took (a big
    build writes them in a process of its own, :func:`kg.build.write_outputs`). *wait*, where given, is
    called with what each file is written from before it is written (:mod:`kg.early_files`)."""
    seconds = []
    for name, write, source in flat_files(nquads, ntriples):
        if wait is not None:
            wait(source)
        start = perf_counter()
        write(source, folder / name)
        seconds.append((name, perf_counter() - start))
    return seconds
