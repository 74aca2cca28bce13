"""The label index: every work's titles and every venue's and organization's names with their lookup
keys, written by the build beside its tables.

``kg explain`` finds what a text names among them by its title key (case, accents, punctuation and
spaces ignored): the same key, a key it begins (from four characters), or a key within a few edits.
Keying every title for each command took a second at 1,000 CVs (31,190 works); the build keys them
once and writes ``tables/labels.json``: one row per entity and label, ``[IRI, label, alternate, key]``
(alternate 1 for an alternative title, a venue's acronym, an organization's other name), sorted. Only
entities typed ``kg:Work``, ``kg:Venue`` or ``kg:Organization`` are listed, as :data:`LABELS` finds them
in a store without the index (a SPARQL server's, or an older build's).

>>> rows = keyed_labels([("w:1", "Graph Caches", 0), ("w:2", "Graph Cache", 0), ("w:2", "GRAPH CACHE", 1),
...                      ("v:1", "ICDE", 1)])
>>> labels_matching(rows, "graph cach"), labels_matching(rows, "ICDE")
([('w:1', 'Graph Caches'), ('w:2', 'Graph Cache')], [('v:1', 'ICDE')])
"""

from __future__ import annotations

from pathlib import Path

from kg.identity.keys import title_key
from kg.query.nameindex import read_rows, write_rows
from kg.vocab import sparql_prefixes

#: File name of the index, in the build's tables folder.
LABEL_INDEX = "labels.json"
#: The build's labels before they are keyed (see :func:`write_unkeyed`).
UNKEYED = "labels-unkeyed.json"
#: What the file says it is; a reader refuses any other (an index written by another version).
FORMAT = "kg label index 1"
_UNKEYED_FORMAT = FORMAT + " (unkeyed)"
#: A key this long or longer finds the keys it begins; shorter, only its own.
PREFIX_FROM = 4
#: The least rapidfuzz ``ratio`` between two keys for a label to match with a few edits.
CLOSE_RATIO = 92

#: The labels the index lists, by class: each class's own label, then its alternate (kg terms).
LABELLED = {"Work": ("title", "alternativeTitle"), "Venue": ("name", "acronym"),
            "Organization": ("name", "alternateName")}
#: The (entity, label) pairs the index lists, as a store without the index answers them.
LABELS = sparql_prefixes("kg") + "SELECT ?s ?label ?alternate WHERE {\n  " + "\n  UNION ".join(
    f"{{ ?s a kg:{cls} ; kg:{p} ?label BIND({alternate} AS ?alternate) }}"
    for cls, properties in LABELLED.items() for alternate, p in enumerate(properties)) + "\n}"


def keyed_labels(labels) -> list[list]:
    """``[IRI, label, alternate, key]`` for each distinct (IRI, label, alternate) of *labels*, sorted by IRI,
    then an entity's own labels before its alternates."""
    return [[entity, label, alternate, title_key(label)]
            for entity, label, alternate in sorted(set(labels), key=lambda row: (row[0], row[2], row[1]))]


def label_rows(store) -> list[list]:
    """The index's rows for *store* (asked of it by :data:`LABELS`)."""
    return keyed_labels((row["s"].value, row["label"].value, int(row["alternate"].value))
                        for row in store.query(LABELS))


def write_label_index(store, path: Path) -> Path:
    """Write the label index of *store* to *path* (JSON, deterministic); the path."""
    return write_label_rows(label_rows(store), path)


def write_label_rows(rows: list[list], path: Path) -> Path:
    """Write the index *rows* (as :func:`keyed_labels` gives them) to *path*; the path."""
    return write_rows(FORMAT, rows, path)


def write_unkeyed(labels, path: Path) -> Path:
    """Write *labels*, (IRI, label, alternate) triples, to *path* for :func:`key_unkeyed` to key: the
    build's first half lists them, its parent keys them while the store loads (at 1,000 CVs keying the
    34,338 labels took 0.5-0.8 s, which the first half, the build's longest chain, would wait for)."""
    return write_rows(_UNKEYED_FORMAT, [list(label) for label in labels], path)


def key_unkeyed(unkeyed: Path, path: Path) -> Path:
    """The index at *path* made from the labels :func:`write_unkeyed` wrote to *unkeyed* (removed); the path."""
    rows = read_rows(_UNKEYED_FORMAT, unkeyed)
    if rows is None:
        raise ValueError(f"{unkeyed} holds no labels written by write_unkeyed")
    unkeyed.unlink()
    return write_label_rows(keyed_labels(map(tuple, rows)), path)


def read_label_index(path: Path) -> list[list] | None:
    """The rows of the index at *path*, or None if there is none or it is not one this version reads."""
    return read_rows(FORMAT, path)


def labels_matching(rows: list[list], text: str) -> list[tuple[str, str]]:
    """(IRI, label) of each entity of *rows* with a label whose key matches *text*'s (see the module's
    docstring): its own label (a title, a name) where one matches, else the first alternate that does."""
    from rapidfuzz import fuzz, process

    key = title_key(text)
    if not key:
        return []
    close = {at for _, _, at in process.extract(key, [row[3] for row in rows], scorer=fuzz.ratio,
                                               score_cutoff=CLOSE_RATIO, limit=None)}
    begun = len(key) >= PREFIX_FROM
    found: dict[str, str] = {}
    for at, (entity, label, _, k) in enumerate(rows):  # an entity's own labels come before its alternates
        if entity not in found and (at in close or k == key or (begun and k.startswith(key))):
            found[entity] = label
    return list(found.items())
