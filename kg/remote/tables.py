"""The build's tables (:mod:`kg.tables`) read from a SPARQL server, for the projections.

The embedded store's projections read Parquet tables the build wrote beside it. A server has
none, so each table's query runs on the server, and its answer is written as CSV as the embedded
store writes it, and the same DuckDB step makes the Parquet files. The graph itself is never
pulled whole. A table comes in one answer where the server gives it whole (each page is a query
that groups the whole table again, so one answer is much faster); in pages (``ORDER BY`` its keys,
``LIMIT`` and ``OFFSET``) where the server says it cut the answer at a row cap (Virtuoso's
``ResultSetMaxRows``), pages of that many rows, or where ``KG_STORE_PAGE`` asks for pages of a
size. If a push switches builds between two pages, the table is read again, so a table comes from
one build.
"""

from __future__ import annotations

import csv
import io
import re
import tempfile
from pathlib import Path

import pyoxigraph

from kg.errors import UserError
from kg.remote.http import AnswerCut, setting
from kg.tables import tables_from
from kg.vocab import PREFIXES

_GROUP_BY = re.compile(r"GROUP\s+BY\s+((?:\?\w+\s*)+)$")


#: The "page size" that stands for one whole answer (no page has that many rows).
WHOLE = 2**62


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

    def write(page: int) -> None:
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

    _whole(store, write, page)


def all_solutions(store, query: str, page: int | None = None) -> list:
    """Every solution of *query* (ending in ``GROUP BY``) on *store*, read page by page from one build."""

    def read(page: int) -> list:
        rows: list = []
        while True:
            found = list(_page(store, query, page, len(rows)))
            rows += found
            if len(found) < page:
                return rows

    return _whole(store, read, page)


def _page(store, query: str, page: int, offset: int) -> pyoxigraph.QuerySolutions:
    answer = store.query(paged(query, page, offset) if page < WHOLE else query, prefixes=PREFIXES)
    assert isinstance(answer, pyoxigraph.QuerySolutions)  # paged queries are SELECTs
    return answer


def _whole(store, read, page: int | None):
    """*read*(rows per page) again until the server's build did not change under it (five tries): the
    whole answer at once, unless KG_STORE_PAGE asks for pages, and pages of the server's row cap where
    it says it cut the answer there (Virtuoso's ResultSetMaxRows)."""
    page = page or setting("KG_STORE_PAGE", 0) or WHOLE
    for _ in range(5):
        first = store.build.id if store.build is not None else None
        try:
            result = read(page)
        except AnswerCut as cut:
            if cut.rows >= page:
                raise
            page = cut.rows
            continue
        if (store.build.id if store.build is not None else None) == first:
            return result
    raise UserError(f"the graph on {store!r} kept changing while kg read it; try again")


def fetch_tables(store) -> tempfile.TemporaryDirectory:
    """A temporary folder with the tables of the graph on *store*, read in pages (removed with the object)."""
    folder = tempfile.TemporaryDirectory(prefix="kg-tables-")
    tables_from(lambda query, path: write_paged_csv(store, query, path), Path(folder.name))
    return folder
