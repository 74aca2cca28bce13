"""Tables for analytics: the build exports authorships, people, works and organizations of the
merged view as Parquet files in ``out/tables/``, which projections and commands read with DuckDB.

Each table is one SPARQL query over the store, written by Oxigraph as CSV and turned into
Parquet by DuckDB, so no row passes through Python; the build, which holds the merged view's
triples before the store is loaded, writes the same CSV from them (:mod:`kg.merged_tables`).

- ``authorships.parquet``: ``work``, ``person``, ``ordinal`` (the smallest printed place, or null);
- ``works.parquet``: ``work``, ``title``, ``year`` (int or null), ``status``, ``venue`` (acronym, else name);
- ``people.parquet``: ``person``, ``name`` (the smallest ``kg:name``, else the IRI), ``profiled``;
- ``organizations.parquet``: ``organization``, ``name``, ``acronym``, ``country``, ``parent``;
- ``affiliations.parquet``: ``link`` (an education or position), ``relation`` (``education`` or
  ``position``), ``person``, ``organization``, ``role``, ``degree``, ``start_date``, ``end_date``
  (ISO strings) and ``ongoing`` (true, or null), a row per combination of the link's values.

Beside them, the build writes ``names.json`` and ``labels.json``, the indexes :mod:`kg.query.nameindex`
and :mod:`kg.query.labelindex` describe.
"""

from __future__ import annotations

import os
import tempfile
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path

import pyoxigraph

from kg.vocab import sparql_prefixes

TABLES_DIR = "tables"
#: Where an authorship without a printed place stands while the authorships are grouped (SPARQL's
#: MIN is unbound if one solution is); the table holds null for it.
NO_ORDINAL = 1_000_000_000
_PREFIX = sparql_prefixes("kg")

# name -> (query, DuckDB select over the CSV columns)
TABLES = {
    # MIN over a group where one solution leaves ?o unbound (a kg:hasAuthor beside the authorship)
    # is unbound in SPARQL: an absent ordinal stands as NO_ORDINAL until DuckDB makes it null
    "authorships": (f"""SELECT ?work ?person (MIN(COALESCE(?o, {NO_ORDINAL})) AS ?ordinal) WHERE {{
        ?work a kg:Work .
        {{ ?work kg:hasAuthor ?person }} UNION {{ ?work kg:hasAuthorship ?a . ?a kg:author ?person .
                                               OPTIONAL {{ ?a kg:ordinal ?o }} }}
    }} GROUP BY ?work ?person""",
                    f"SELECT work, person, NULLIF(TRY_CAST(ordinal AS INTEGER), {NO_ORDINAL}) AS ordinal FROM t "
                    "ORDER BY work, person"),
    "works": ("""SELECT ?work (MIN(?t) AS ?title) (MIN(?y) AS ?year) (MIN(?s) AS ?status)
                        (MIN(COALESCE(?acr, ?vname)) AS ?venue) WHERE {
        ?work a kg:Work .
        OPTIONAL { ?work kg:title ?t } OPTIONAL { ?work kg:year ?y } OPTIONAL { ?work kg:status ?s }
        OPTIONAL { ?work kg:publishedIn|kg:submittedTo ?v .
                   OPTIONAL { ?v kg:acronym ?acr } OPTIONAL { ?v kg:name ?vname } }
    } GROUP BY ?work""",
              "SELECT work, COALESCE(title, work) AS title, TRY_CAST(substr(year, 1, 4) AS INTEGER) AS year, status, "
              "venue FROM t ORDER BY work"),
    # profiled: the subject of a document (the merged view keeps each source's kg:about; asking the
    # source graphs too made a server with a thousand named graphs in the dataset take minutes)
    "people": ("""SELECT ?person (MIN(?n) AS ?name) (MAX(?about) AS ?profiled) WHERE {
        ?person a kg:Person . OPTIONAL { ?person kg:name ?n }
        OPTIONAL { ?s kg:about ?person BIND(1 AS ?about) }
    } GROUP BY ?person""",
               "SELECT person, COALESCE(name, person) AS name, profiled IS NOT NULL AS profiled "
               "FROM t ORDER BY person"),
    "organizations": ("""SELECT ?organization (MIN(?n) AS ?name) (MIN(?a) AS ?acronym) (MIN(?c) AS ?country)
                                (MIN(?p) AS ?parent) WHERE {
        ?organization a kg:Organization . OPTIONAL { ?organization kg:name ?n }
        OPTIONAL { ?organization kg:acronym ?a } OPTIONAL { ?organization kg:country ?c }
        OPTIONAL { ?organization kg:partOf ?p }
    } GROUP BY ?organization""",
                      "SELECT * FROM t ORDER BY organization"),
    # every education and position with its holder and organization, a row per combination of its
    # values (kg.graphs.projections.affiliation_links sums them up per link, person and organization)
    # (grouped by every column, that is DISTINCT: a server's answer is read in pages ordered by the keys)
    "affiliations": ("""SELECT ?link ?relation ?person ?organization ?role ?degree ?start_date ?end_date ?ongoing
                        WHERE {
        { ?link a kg:Education . BIND("education" AS ?relation) }
        UNION { ?link a kg:Position . BIND("position" AS ?relation) }
        ?link kg:holder ?person ; kg:organization ?organization .
        OPTIONAL { ?link kg:role ?role } OPTIONAL { ?link kg:degree ?degree }
        OPTIONAL { ?link kg:startDate ?start_date } OPTIONAL { ?link kg:endDate ?end_date }
        OPTIONAL { ?link kg:ongoing ?ongoing }
    } GROUP BY ?link ?relation ?person ?organization ?role ?degree ?start_date ?end_date ?ongoing""",
                     "SELECT link, relation, person, organization, role, degree, start_date, end_date, "
                     "TRY_CAST(ongoing AS BOOLEAN) AS ongoing FROM t ORDER BY ALL"),
}


COLUMNS = {"authorships": ("work", "person", "ordinal"), "works": ("work", "title", "year", "status", "venue"),
           "people": ("person", "name", "profiled"),
           "organizations": ("organization", "name", "acronym", "country", "parent"),
           "affiliations": ("link", "relation", "person", "organization", "role", "degree", "start_date",
                            "end_date", "ongoing")}


def write_tables(store: Path | pyoxigraph.Store, tables_dir: Path) -> list[Path]:
    """Write the Parquet tables of *store* (an open store, or the folder of one), and its name and label
    indexes, into *tables_dir*; the files written."""
    from kg.query.labelindex import LABEL_INDEX, write_label_index
    from kg.query.nameindex import NAME_INDEX, write_name_index

    if not isinstance(store, pyoxigraph.Store):
        store = pyoxigraph.Store.read_only(str(store))
    written = tables_from(partial(_write_csv, store), tables_dir, threads=os.cpu_count() or 1)
    written.append(write_name_index(store, tables_dir / NAME_INDEX))
    written.append(write_label_index(store, tables_dir / LABEL_INDEX))
    del store
    return written


def write_tables_from_csvs(csv_dir: Path, tables_dir: Path) -> list[Path]:
    """Write the Parquet tables and indexes into *tables_dir* from the CSV answers, name index and labels
    :func:`kg.merged_tables.write_table_csvs` wrote into *csv_dir* (moved, not copied; the labels keyed
    here); the files written."""
    from kg.query.labelindex import LABEL_INDEX, UNKEYED, key_unkeyed
    from kg.query.nameindex import NAME_INDEX

    name_of = {query: name for name, (query, _select) in TABLES.items()}
    written = tables_from(lambda query, path: os.replace(csv_dir / f"{name_of[query]}.csv", path), tables_dir)
    os.replace(csv_dir / NAME_INDEX, tables_dir / NAME_INDEX)
    return [*written, tables_dir / NAME_INDEX, key_unkeyed(csv_dir / UNKEYED, tables_dir / LABEL_INDEX)]


def _write_csv(store, query: str, csv: Path) -> None:
    solutions = store.query(_PREFIX + query)
    assert isinstance(solutions, pyoxigraph.QuerySolutions)  # every table query is a SELECT
    solutions.serialize(str(csv), pyoxigraph.QueryResultsFormat.CSV)


def tables_from(write_csv, tables_dir: Path, threads: int = 1) -> list[Path]:
    """Write the Parquet tables into *tables_dir*, each from the CSV answer ``write_csv(query, path)``
    writes for its query (with :data:`TABLES`'s prefixes not declared: add ``kg:``), asking up to
    *threads* queries at once (Oxigraph lets go of the interpreter while it answers)."""
    import duckdb

    tables_dir.mkdir(parents=True, exist_ok=True)
    con = duckdb.connect()
    written = []
    with tempfile.TemporaryDirectory(dir=tables_dir) as tmp, ThreadPoolExecutor(threads) as pool:
        # the slowest query first, so that the others share the remaining threads meanwhile
        list(pool.map(lambda item: write_csv(item[1][0], Path(tmp) / f"{item[0]}.csv"), TABLES.items()))
        for name, (_query, select) in TABLES.items():
            csv = Path(tmp) / f"{name}.csv"
            columns = ", ".join(f"'{c}': 'VARCHAR'" for c in COLUMNS[name])
            path = tables_dir / f"{name}.parquet"
            # the dialect is given, not sniffed: DuckDB's sniffer reads the first 20,480 rows, and where
            # none of them is quoted it takes the file for unquoted and fails on the first that is
            con.execute(f"CREATE OR REPLACE TEMP VIEW t AS SELECT * FROM read_csv('{csv}', header = true, "
                        f"auto_detect = false, delim = ',', quote = '\"', escape = '\"', columns = {{{columns}}})")
            con.execute(f"COPY ({select}) TO '{path}' (FORMAT parquet)")
            written.append(path)
    con.close()
    return written


def tables_of(out_dir: str | Path) -> Path | None:
    """The tables folder of a built output folder, or None where the build wrote none."""
    path = Path(out_dir) / TABLES_DIR
    return path if (path / "authorships.parquet").is_file() else None
