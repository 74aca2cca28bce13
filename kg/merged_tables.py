"""The analytics tables made from the merged view's triples, where the build holds them, instead of
asked of the store once it is loaded.

:mod:`kg.tables` defines each table by a SPARQL query (which a remote store still answers); the
build already has the merged view in memory as N-Triples strings, so it writes the same rows as
CSV files while the store has not even started loading, and the parent turns them into Parquet
(:func:`kg.tables.write_tables_from_csvs`). Asking a freshly loaded store, busy compacting, took
longer than the build's whole mapping at 1,000 CVs.

The rows follow Oxigraph's answers to :data:`kg.tables.TABLES`, including its ``MIN``: unbound
as soon as one solution of the group leaves the value unbound (a venue without acronym and name
leaves its work's venue empty). A test compares both ways on the seeds and on hand-made edge cases.
"""

from __future__ import annotations

import csv
from itertools import product
from pathlib import Path

from kg.rdf.quads import iri, unescape_lexical
from kg.tables import COLUMNS, NO_ORDINAL
from kg.vocab import KG_IRIS, TYPE_IRI

_K = {name: iri(getattr(KG_IRIS, name)) for name in (
    "Work", "Person", "Organization", "hasAuthor", "hasAuthorship", "author", "ordinal", "title", "year",
    "status", "publishedIn", "submittedTo", "acronym", "name", "alternateName", "about", "country", "partOf",
    "Education", "Position", "holder", "organization", "role", "degree", "startDate", "endDate", "ongoing",
    "Venue", "alternativeTitle")}
_TYPE = iri(TYPE_IRI)
_CLASSES = {_K["Work"], _K["Person"], _K["Organization"], _K["Education"], _K["Position"], _K["Venue"]}
_LINK_VALUES = ("role", "degree", "startDate", "endDate", "ongoing")
_PREDICATES = frozenset(_K.values()) - _CLASSES | {_TYPE}


def _value(term: str) -> str:
    """The CSV form Oxigraph gives a term: an IRI's text, a literal's lexical form."""
    if term[0] == "<":
        return term[1:-1]
    return unescape_lexical(term[1:term.rindex('"')])


def _min(values: list[str] | None) -> str | None:
    """SPARQL's MIN of an OPTIONAL's values in one group: unbound where there are none (kg gives
    each column one kind of term, compared by its text)."""
    return None if not values else min(map(_value, values))


def _grouped(triples: list[tuple[str, str, str]]) -> dict[str, list[str]]:
    grouped: dict[str, list[str]] = {}
    for s, _, o in triples:
        known = grouped.get(s)
        if known is None:
            grouped[s] = [o]
        else:
            known.append(o)
    return grouped


class _Index:
    """The merged view's triples of the properties the tables read, by predicate (one pass over
    them all, a third of the time at 1,000 CVs), grouped by subject where looked up."""

    def __init__(self, triples):
        lists: dict[str, list[tuple[str, str, str]]] = {p: [] for p in _PREDICATES}
        found = lists.get
        for t in triples:
            same = found(t[1])
            if same is not None:
                same.append(t)
        self.lists = lists
        self.typed: dict[str, list[str]] = {c: [] for c in _CLASSES}
        of_class = self.typed.get
        for s, _, o in lists[_TYPE]:  # one pass for every class: the types are a sixth of the triples
            subjects = of_class(o)
            if subjects is not None:
                subjects.append(s)
        self._groups: dict[str, dict[str, list[str]]] = {}

    def triples(self, predicate: str) -> list[tuple[str, str, str]]:
        return self.lists[_K[predicate]]

    def of(self, predicate: str, subject: str) -> list[str] | None:
        groups = self._groups.get(predicate)
        if groups is None:
            groups = self._groups[predicate] = _grouped(self.triples(predicate))
        return groups.get(subject)


def _ordinal(term: str) -> int:
    return int(term[1:term.index('"', 1)])


def _authorships(ix: _Index):
    works = set(ix.typed[_K["Work"]])
    smallest: dict[tuple[str, str], int] = {}
    for work, _, person in ix.triples("hasAuthor"):
        if work in works:
            smallest[(work, person)] = NO_ORDINAL
    ordinal_of: dict[str, int] = {}  # an authorship's smallest ordinal
    for a, _, number in ix.triples("ordinal"):
        ordinal = _ordinal(number)
        known = ordinal_of.get(a)
        if known is None or ordinal < known:
            ordinal_of[a] = ordinal
    works_of = _grouped([(a, "", w) for w, _, a in ix.triples("hasAuthorship") if w in works])  # authorship -> works
    known_ordinal = smallest.get
    for a, _, person in ix.triples("author"):
        of = works_of.get(a)
        if of is None:
            continue
        ordinal = ordinal_of.get(a, NO_ORDINAL)
        for work in of:
            key = (work, person)
            known = known_ordinal(key, NO_ORDINAL)
            smallest[key] = ordinal if ordinal < known else known
    for (work, person), ordinal in smallest.items():
        yield work[1:-1], person[1:-1], ordinal


def _venue(ix: _Index, work: str) -> str | None:
    venues = (ix.of("publishedIn", work) or []) + (ix.of("submittedTo", work) or [])
    names = []
    for v in venues:
        given = ix.of("acronym", v) or ix.of("name", v)
        if not given:
            return None  # COALESCE unbound in one solution: Oxigraph's MIN is unbound
        names += given
    return _min(names)


def _works(ix: _Index):
    for work in ix.typed[_K["Work"]]:
        yield (work[1:-1], _min(ix.of("title", work)), _min(ix.of("year", work)), _min(ix.of("status", work)),
               _venue(ix, work))


def _people(ix: _Index):
    about = {o for _, _, o in ix.triples("about")}
    for person in ix.typed[_K["Person"]]:
        yield person[1:-1], _min(ix.of("name", person)), 1 if person in about else None


def _organizations(ix: _Index):
    for org in ix.typed[_K["Organization"]]:
        yield (org[1:-1], _min(ix.of("name", org)), _min(ix.of("acronym", org)), _min(ix.of("country", org)),
               _min(ix.of("partOf", org)))


def _affiliations(ix: _Index):
    """The rows of the affiliations query: a link's values combined, each absent one unbound, once each."""
    rows = set()
    for cls, relation in (("Education", "education"), ("Position", "position")):
        for link in ix.typed[_K[cls]]:
            holders, organizations = ix.of("holder", link), ix.of("organization", link)
            if not holders or not organizations:
                continue
            values: list[list[str | None]] = [[_value(v) for v in ix.of(name, link) or ()] or [None]
                                              for name in _LINK_VALUES]
            for person, organization in product(holders, organizations):
                for rest in product(*values):
                    rows.add((link[1:-1], relation, _value(person), _value(organization), *rest))
    return rows  # ordered by DuckDB (ORDER BY ALL) when made Parquet


def _name_rows(ix: _Index) -> list[list]:
    """:func:`kg.query.nameindex.name_rows` of the merged view."""
    from kg.query.nameindex import name_key

    rows: set[tuple[str, str, int]] = set()
    for person in ix.typed[_K["Person"]]:
        names = ix.of("name", person)
        if not names:
            continue
        rows.update((person[1:-1], _value(n), 0) for n in names)
        rows.update((person[1:-1], _value(n), 1) for n in ix.of("alternateName", person) or ())
    return [[person, name, alternate, name_key(name)] for person, name, alternate in sorted(rows)]


def _labels(ix: _Index):
    """The (IRI, label, alternate) of :func:`kg.query.labelindex.label_rows` in the merged view, unkeyed."""
    from kg.query.labelindex import LABELLED

    return ((entity[1:-1], _value(label), alternate) for cls, properties in LABELLED.items()
            for entity in ix.typed[_K[cls]] for alternate, p in enumerate(properties)
            for label in ix.of(p, entity) or ())


_ROWS = {"authorships": _authorships, "works": _works, "people": _people, "organizations": _organizations,
         "affiliations": _affiliations}


def write_table_csvs(triples, folder: Path) -> dict[str, Path]:
    """Write each table of :data:`kg.tables.TABLES` as the CSV Oxigraph would answer its query with,
    from the merged view's *triples* (N-Triples strings), the name index (:mod:`kg.query.nameindex`) and
    the labels of the label index, to be keyed (:func:`kg.query.labelindex.write_unkeyed`), into *folder*;
    the CSV files by table name."""
    from kg.query.labelindex import UNKEYED, write_unkeyed
    from kg.query.nameindex import NAME_INDEX, write_name_rows

    folder.mkdir(parents=True, exist_ok=True)
    ix = _Index(triples)
    written = {}
    for name, rows in _ROWS.items():
        path = folder / f"{name}.csv"
        with open(path, "w", encoding="utf-8", newline="") as out:
            writer = csv.writer(out, lineterminator="\r\n")
            writer.writerow(COLUMNS[name])
            writer.writerows(rows(ix))
        written[name] = path
    write_name_rows(_name_rows(ix), folder / NAME_INDEX)
    write_unkeyed(_labels(ix), folder / UNKEYED)
    return written
