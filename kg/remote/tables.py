"""The build's tables (:mod:`kg.tables`) read from a SPARQL server in pages, for the projections.

The embedded store's projections read Parquet tables the build wrote beside it. A server has
none, so each table's query runs on the server in pages (``ORDER BY`` its keys, ``LIMIT`` and
``OFFSET``), each page is written as CSV as the embedded store writes it, and the same DuckDB
step makes the Parquet files. The graph itself is never pulled whole. If a push switches
builds between two pages, the table is read again, so a table comes from one build.
"""

from __future__ import annotations

import csv
import io
import re
import tempfile
from pathlib import Path

import pyoxigraph

from kg.errors import UserError
from kg.remote.http import setting
from kg.tables import tables_from
from kg.vocab import PREFIXES

#: Rows per page by default: KG_STORE_PAGE.
PAGE = 10000
_GROUP_BY = re.compile(r"GROUP\s+BY\s+((?:\?\w+\s*)+)$")


def paged(query: str, page: int, offset: int) -> str:
    """*query* (ending in ``GROUP BY``) as one page, ordered by its group keys.

    >>> paged("SELECT ?w (MIN(?t) AS ?title) WHERE { ?w ?p ?t } GROUP BY ?w", 10, 20)
    'SELECT ?w (MIN(?t) AS ?title) WHERE { ?w ?p ?t } GROUP BY ?w ORDER BY ?w LIMIT 10 OFFSET 20'
    """
    query = query.strip()
    match = _GROUP_BY.search(query)
    if match is None:
        raise ValueError("a table query ends with GROUP BY, whose keys order its pages")
    return f"{query} ORDER BY {' '.join(match.group(1).split())} LIMIT {page} OFFSET {offset}"


def write_paged_csv(store, query: str, path: Path, page: int | None = None) -> None:
    """Write the whole answer to *query* on *store* (a :class:`~kg.remote.store.RemoteStore`) as one CSV
    file, read page by page; read again from the start if the server's build changes meanwhile."""
    page = page or setting("KG_STORE_PAGE", PAGE)

    def write() -> None:
        with open(path, "wb") as out:
            offset = 0
            while True:
                data = _page(store, query, page, offset).serialize(format=pyoxigraph.QueryResultsFormat.CSV) or b""
                head, _, body = data.partition(b"\r\n")
                if offset == 0:
                    out.write(head + b"\r\n")
                out.write(body)
                rows = sum(1 for _ in csv.reader(io.StringIO(body.decode("utf-8"), newline="")))
                offset += rows
                if rows < page:
                    return

    _from_one_build(store, write)


def all_solutions(store, query: str, page: int | None = None) -> list:
    """Every solution of *query* (ending in ``GROUP BY``) on *store*, read page by page from one build:
    a server may cut one long answer short (Virtuoso's ResultSetMaxRows)."""
    page = page or setting("KG_STORE_PAGE", PAGE)

    def read() -> list:
        rows: list = []
        while True:
            found = list(_page(store, query, page, len(rows)))
            rows += found
            if len(found) < page:
                return rows

    return _from_one_build(store, read)


def _page(store, query: str, page: int, offset: int) -> pyoxigraph.QuerySolutions:
    answer = store.query(paged(query, page, offset), prefixes=PREFIXES)
    assert isinstance(answer, pyoxigraph.QuerySolutions)  # paged queries are SELECTs
    return answer


def _from_one_build(store, read):
    """*read*() again until the server's build did not change under it (five tries)."""
    for _ in range(5):
        first = store.build.id if store.build is not None else None
        result = read()
        if (store.build.id if store.build is not None else None) == first:
            return result
    raise UserError(f"the graph on {store!r} kept changing while kg read it; try again")


def fetch_tables(store) -> tempfile.TemporaryDirectory:
    """A temporary folder with the tables of the graph on *store*, read in pages (removed with the object)."""
    folder = tempfile.TemporaryDirectory(prefix="kg-tables-")
    tables_from(lambda query, path: write_paged_csv(store, query, path), Path(folder.name))
    return folder
