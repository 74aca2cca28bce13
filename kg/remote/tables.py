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
import hashlib
import io
import os
import re
import shutil
import tempfile
from pathlib import Path

import pyoxigraph

from kg.errors import UserError
from kg.remote.http import AnswerCut, setting
from kg.remote.layout import SWITCHING
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
    """*read*(rows per page) from one build (:func:`from_one_build`): the whole answer at once, unless
    KG_STORE_PAGE asks for pages, and pages of the server's row cap where it says it cut the answer
    there (Virtuoso's ResultSetMaxRows)."""
    rows: int = page or setting("KG_STORE_PAGE", 0) or WHOLE

    def attempt():
        nonlocal rows
        while True:
            try:
                return read(rows)
            except AnswerCut as cut:
                if cut.rows >= rows:
                    raise
                rows = cut.rows

    return from_one_build(store, attempt)


def from_one_build(store, read):
    """``read()``, again (five tries) while the server's build changed under it; the embedded store,
    or a server without kg's pointer, has one build."""
    for _ in range(5):
        first = _build_id(store)
        result = read()
        if _build_id(store) == first:
            return result
    raise UserError(f"the graph on {store!r} kept changing while kg read it; try again")


def _build_id(store) -> str | None:
    build = getattr(store, "build", None)
    return None if build is None else build.id


def fetch_tables(store):
    """A folder (its path in ``.name``) with the tables of the graph on *store*.

    A build kg pushed has an id that no other build has, so its tables, read once, are kept in
    the user's cache (:func:`cache_dir`) under the server and that id, and later commands read
    them from there: reading them took 25 s at 1,000 CVs, for every command. Only the tables of
    the server's current build are kept. A server without kg's pointer gives a temporary folder,
    removed with the object; so does a cache that cannot be written.
    """
    build = store.build
    if build is None or build.id == SWITCHING:
        return _read_into_temporary(store)
    server = cache_dir() / hashlib.sha256(store.url.encode("utf-8")).hexdigest()[:24]
    kept = server / _safe_name(build.id)
    if (kept / _COMPLETE).is_file():
        return _Kept(kept)
    try:
        server.mkdir(parents=True, exist_ok=True, mode=0o700)
        with tempfile.TemporaryDirectory(dir=server, prefix=".reading-") as tmp:
            tables_from(lambda query, path: write_paged_csv(store, query, path), Path(tmp))
            if store.build is None or store.build.id != build.id:  # a push switched builds meanwhile
                return _read_into_temporary(store)
            (Path(tmp) / _COMPLETE).write_text(build.id + "\n", encoding="utf-8")
            os.replace(tmp, kept)
            Path(tmp).mkdir()  # for TemporaryDirectory's clean-up
    except OSError:
        if not (kept / _COMPLETE).is_file():  # another process may have kept the same build meanwhile
            return _read_into_temporary(store)
    for other in server.iterdir():
        if other != kept and not other.name.startswith("."):
            shutil.rmtree(other, ignore_errors=True)  # an older build's tables
    return _Kept(kept)


def cache_dir() -> Path:
    """Where kg keeps the tables read from servers: ``KG_CACHE_DIR``, else ``$XDG_CACHE_HOME/kg``,
    else ``~/.cache/kg``."""
    if os.environ.get("KG_CACHE_DIR"):
        return Path(os.environ["KG_CACHE_DIR"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "kg"


_COMPLETE = "complete"


class _Kept:
    """A kept folder, with the ``name`` a TemporaryDirectory has (and nothing to clean up)."""

    def __init__(self, path: Path):
        self.name = str(path)


def _read_into_temporary(store) -> tempfile.TemporaryDirectory:
    folder = tempfile.TemporaryDirectory(prefix="kg-tables-")
    tables_from(lambda query, path: write_paged_csv(store, query, path), Path(folder.name))
    return folder


def _safe_name(build_id: str) -> str:
    """A build id as one folder name (ids kg writes are already; a stranger's pointer might not be)."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", build_id)[:100] or "_"
