"""The co-author projection read from the build's Parquet tables (``out/tables/``) with DuckDB.

It gives the graph :func:`kg.graphs.projections.coauthor_graph` gives, with the same node and
edge attributes, but the pairs come from a self-join in DuckDB, and a command that asks about a
few people (``kg collaborators``, ``kg shared``, ``kg path``) reads only the works around them:
``around`` keeps the edges that touch those people (node attributes stay global: a
collaborator's ``works`` counts all their works).
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import TYPE_CHECKING

from kg.graphs.rows import Neighbourhood

if TYPE_CHECKING:  # networkx costs a third of a second: kg collaborators, shared and path do without it
    import networkx as nx

_WORK_FIELDS = ("iri", "title", "year", "venue")


def tables_beside(store) -> Path | None:
    """The tables the build wrote beside *store* (opened with ``kg.store.open_store``), those of a SPARQL
    server's graph (read from it in pages, :mod:`kg.remote.tables`), or None."""
    from kg.store import out_dir_of
    from kg.tables import tables_of

    if hasattr(store, "tables"):  # a kg.remote.store.RemoteStore
        return Path(store.tables())
    out_dir = out_dir_of(store)
    return tables_of(out_dir) if out_dir is not None else None


def _connect(tables: Path):
    import duckdb

    con = duckdb.connect()
    for name in ("authorships", "works", "people"):
        con.execute(f"CREATE VIEW {name} AS SELECT * FROM read_parquet('{Path(tables) / (name + '.parquet')}')")
    return con


def _people_table(con, name: str, people: set[str]) -> None:
    """A temporary table *name* of the IRIs *people* (one statement; none is fine)."""
    con.execute(f"CREATE TEMP TABLE {name} AS SELECT unnest(?::VARCHAR[]) AS person", [sorted(people)])


def coauthor_graph_from_tables(tables: str | Path, around=None, within=None) -> nx.Graph:
    """The co-author graph from the tables in *tables*; only edges touching *around* (IRIs) if given,
    only the people *within* (IRIs) and the edges between them if that is given.

    Nodes: every author (or, with *around*, those people and their co-authors) with ``name``,
    ``profiled``, ``works``, ``first_year``, ``last_year``, ``kind``; edges: ``joint_works``,
    ``works`` (sorted by year, then title) and ``weight`` (the sum of ``1 / (authors - 1)``).
    """
    import networkx as nx

    graph = nx.Graph(kind="coauthor")
    graph.graph["works"] = _fill(graph, Path(tables), around, within)
    return graph


def neighbourhood_from_tables(tables: str | Path, around) -> Neighbourhood:
    """The edges touching *around* (IRIs), with the attributes :func:`coauthor_graph_from_tables` gives
    them, as a :class:`~kg.graphs.rows.Neighbourhood` (no networkx to import); nodes have a ``name`` only.

    One query reads the authorships of every work of those people, with the works' and the
    authors' fields: each further query would read the Parquet files again.
    """
    import duckdb

    folder = Path(tables)
    con = duckdb.connect()
    _people_table(con, "around", set(around))
    rows = con.execute(f"""
        WITH near AS (SELECT work, person FROM read_parquet('{folder / "authorships.parquet"}')
                      WHERE work IN (SELECT work FROM read_parquet('{folder / "authorships.parquet"}')
                                     WHERE person IN (SELECT person FROM around)))
        SELECT n.work, n.person, p.name, w.title, w.year, w.venue FROM near n
        LEFT JOIN read_parquet('{folder / "people.parquet"}') p USING (person)
        LEFT JOIN read_parquet('{folder / "works.parquet"}') w USING (work)""").fetchall()
    con.close()
    chosen = set(around)
    names: dict[str, str] = {}
    works: dict[str, dict] = {}
    authors: dict[str, list[str]] = defaultdict(list)
    for work, person, name, title, year, venue in rows:
        names[person] = name or person
        works[work] = {"iri": work, "title": title, "year": year, "venue": venue}
        authors[work].append(person)
    pairs = [(x, y, work) for work, people in authors.items() for x in people for y in people
             if x < y and (x in chosen or y in chosen)]
    graph = Neighbourhood()
    for person in sorted({p for x, y, _ in pairs for p in (x, y)} | (chosen & names.keys())):
        graph.add_node(person, name=names[person])
    _add_edges(graph, pairs, works, {work: len(people) for work, people in authors.items()})
    return graph


#: Co-author pairs from a table ``authorships(work, person)``. fsum adds each pair's shares with
#: compensation, so the weight does not depend on the order DuckDB's threads meet them in.
EDGES_SQL = """WITH s AS (SELECT work, person, 1.0 / (COUNT(*) OVER (PARTITION BY work) - 1) AS share
                          FROM (SELECT DISTINCT work, person FROM authorships))
    SELECT x.person AS person_a, y.person AS person_b, COUNT(*) AS joint_works, fsum(x.share) AS weight
    FROM s x JOIN s y ON x.work = y.work AND x.person < y.person
    GROUP BY x.person, y.person ORDER BY person_a, person_b"""


def coauthor_edges_from_tables(tables: str | Path):
    """The co-author pairs in the tables in *tables* as a DataFrame (see
    :func:`kg.graphs.pairs.coauthor_edges`)."""
    con = _connect(Path(tables))
    try:
        return con.execute(EDGES_SQL).df()
    finally:
        con.close()


def people_from_tables(tables: str | Path) -> tuple[dict[str, str], set[str]]:
    """Every person's name and the profiled people, from the people table in *tables*."""
    import duckdb

    con = duckdb.connect()
    try:
        rows = con.execute(f"SELECT person, name, profiled FROM read_parquet('{Path(tables) / 'people.parquet'}')"
                           ).fetchall()
    finally:
        con.close()
    return {p: name for p, name, _ in rows}, {p for p, _, profiled in rows if profiled}


def organization_rows_from_tables(tables: str | Path) -> list[tuple]:
    """Rows (IRI, name, parent) of the organizations table in *tables*
    (:func:`kg.graphs.affiliations.organization_nodes` makes them nodes)."""
    return _table_rows(tables, "SELECT organization, name, parent FROM read_parquet('{}')", "organizations")


def affiliation_rows_from_tables(tables: str | Path) -> list[tuple] | None:
    """The affiliations table's rows as :func:`kg.graphs.projections.affiliation_links` reads them
    (``ongoing`` a bool), or None where *tables* has no such table (a build before it had one)."""
    if not (Path(tables) / "affiliations.parquet").is_file():
        return None
    rows = _table_rows(tables, "SELECT * FROM read_parquet('{}')", "affiliations")
    return [(*row[:-1], bool(row[-1])) for row in rows]


def _table_rows(tables: str | Path, query: str, name: str) -> list[tuple]:
    import duckdb

    con = duckdb.connect()
    try:
        return con.execute(query.format(Path(tables) / f"{name}.parquet")).fetchall()
    finally:
        con.close()


def _fill(graph, tables: Path, around, within=None) -> dict:
    """Add the nodes and edges to *graph* (anything with ``add_node`` and ``add_edge``); the works read.
    With *around*, the edges that touch those people; with *within*, those between them.

    People and works become integers before DuckDB pairs them (person numbers in IRI order, work
    numbers in the order an edge lists its works: year, title, IRI), so the self-join and the rows it
    returns hold no strings, and Python only looks the numbers up.
    """
    con = _connect(Path(tables))
    if around is not None or within is not None:
        _people_table(con, "around", set(around if around is not None else within))
        con.execute("""CREATE TEMP TABLE chosen AS SELECT DISTINCT work FROM authorships
                       WHERE person IN (SELECT person FROM around)""")
    else:
        con.execute("CREATE TEMP TABLE chosen AS SELECT DISTINCT work FROM authorships")
    listed = con.execute("""SELECT work, title, year, venue, status FROM works
                            WHERE work IN (SELECT work FROM chosen)""").fetchall()
    listed.sort(key=lambda r: (r[2] is None, r[2] or 0, r[1], r[0]))
    authors = sorted(p for (p,) in con.execute("""SELECT DISTINCT person FROM authorships
                                                  WHERE work IN (SELECT work FROM chosen)""").fetchall())
    con.execute("CREATE TEMP TABLE work_number AS SELECT unnest(?::VARCHAR[]) AS work, unnest(range(?)) AS k",
                [[r[0] for r in listed], len(listed)])
    con.execute("CREATE TEMP TABLE person_number AS SELECT unnest(?::VARCHAR[]) AS person, unnest(range(?)) AS i",
                [authors, len(authors)])
    con.execute("""CREATE TEMP TABLE numbered AS SELECT k, i, ordinal, person FROM authorships
                   JOIN work_number USING (work) JOIN person_number USING (person)""")
    works = [{"iri": w, "title": t, "year": y, "venue": v, "status": s, "authors": []} for w, t, y, v, s in listed]
    for k, i in con.execute("SELECT k, i FROM numbered ORDER BY k, COALESCE(ordinal, 1000000000), person").fetchall():
        works[k]["authors"].append(authors[i])
    touch = "WHERE x.person IN (SELECT person FROM around) {} y.person IN (SELECT person FROM around)"
    touch = touch.format("OR") if around is not None else touch.format("AND") if within is not None else ""
    pairs = _pairs(con.execute(f"""SELECT x.i AS a, y.i AS b, x.k AS k FROM numbered x
        JOIN numbered y ON x.k = y.k AND x.i < y.i {touch} ORDER BY a, b, k""").fetchnumpy())
    people = ({authors[i] for a, b, _ in pairs for i in (a, b)} | set(around) if around is not None
              else set(within) & set(authors) if within is not None else set(authors))
    _people_table(con, "wanted", people)
    attrs = con.execute("""SELECT a.person, p.name, p.profiled, COUNT(DISTINCT a.work), MIN(w.year), MAX(w.year)
        FROM authorships a JOIN wanted USING (person) LEFT JOIN people p USING (person)
        LEFT JOIN works w USING (work) GROUP BY a.person, p.name, p.profiled ORDER BY a.person""").fetchall()
    con.close()
    for p, name, profiled, count, first, last in attrs:
        graph.add_node(p, name=name or p, profiled=bool(profiled), works=count, first_year=first, last_year=last,
                       kind="person")
    shown = [{k: w[k] for k in _WORK_FIELDS} for w in works]
    share = [1.0 / (len(w["authors"]) - 1) if len(w["authors"]) > 1 else 0.0 for w in works]
    for a, b, numbers in pairs:
        graph.add_edge(authors[a], authors[b], joint_works=len(numbers), works=[shown[k] for k in numbers],
                       weight=sum([share[k] for k in numbers]))
    return dict(sorted((w["iri"], w) for w in works))


def _pairs(columns: dict) -> list[tuple[int, int, list[int]]]:
    """``(a, b, works)`` for each pair, from the columns ``a``, ``b``, ``k`` of pair rows sorted by all three."""
    import numpy as np

    a, b, k = columns["a"], columns["b"], columns["k"]
    if len(a) == 0:
        return []
    change = (np.flatnonzero((a[1:] != a[:-1]) | (b[1:] != b[:-1])) + 1).tolist()
    starts, ends = [0, *change], [*change, len(a)]
    firsts, seconds, numbers = a[starts].tolist(), b[starts].tolist(), k.tolist()
    return [(firsts[n], seconds[n], numbers[s:e]) for n, (s, e) in enumerate(zip(starts, ends, strict=True))]


def _add_edges(graph, pairs, works: dict[str, dict], sizes: dict[str, int]) -> None:
    """One edge per pair of people in *pairs* (``(a, b, work)``, a < b), with its works in order and
    Newman's weight (each work counts ``1 / (its authors - 1)``)."""
    joint: dict[tuple[str, str], list[str]] = defaultdict(list)
    for a, b, w in pairs:
        joint[a, b].append(w)
    order = {w: (d["year"] is None, d["year"] or 0, d["title"], w) for w, d in works.items()}
    shown: dict[str, dict] = {}  # each work's fields, made once: a work is on many edges
    for a, b in sorted(joint):
        listed = sorted(joint[a, b], key=order.__getitem__)
        graph.add_edge(a, b, joint_works=len(listed),
                       works=[shown.get(w) or shown.setdefault(w, {k: works[w][k] for k in _WORK_FIELDS})
                              for w in listed],
                       weight=sum(1.0 / (sizes[w] - 1) for w in listed))


def shortest_path_people(tables: str | Path, source: str, target: str) -> set[str]:
    """Everyone on some shortest co-author path from *source* to *target* (empty if none).

    A breadth-first search in DuckDB from both ends, one query per level over the authorships
    themselves (person to works to people), rather than over co-author pairs, which a self-join would
    have to list first, or in Python, which would have to read every authorship. Each level grows the
    smaller frontier, until the two searches meet: where co-authors are a small world, two searches
    half as deep reach far fewer people than one search the whole way (at 1,000 CVs, 0.28 s, then
    0.1 s). Where they meet on a shortest path, its people are found by walking back to each end
    through co-authors one step nearer it.
    """
    import duckdb

    con = duckdb.connect()
    authorships = Path(tables) / "authorships.parquet"
    con.execute(f"CREATE TEMP TABLE a AS SELECT person, work FROM read_parquet('{authorships}')")
    try:
        return _people_between(con, source, target)
    finally:
        con.close()


def _people_between(con, source: str, target: str) -> set[str]:
    """:func:`shortest_path_people` on the connection *con*, whose table ``a`` holds the authorships."""
    depth = {"there": 0, "back": 0}  # the deepest level each search has reached
    for table, start in (("there", source), ("back", target)):
        con.execute(f"CREATE TEMP TABLE {table} AS SELECT ?::VARCHAR AS person, 0 AS d", [start])
    frontier = {"there": 1, "back": 1}
    while not con.execute("SELECT 1 FROM there JOIN back USING (person) LIMIT 1").fetchone():
        table = min(frontier, key=lambda t: (frontier[t], t))
        if not frontier[table]:
            return set()  # one end's people are all reached, and the other's are not among them
        frontier[table] = con.execute(f"""INSERT INTO {table} SELECT DISTINCT y.person, ? FROM {table} f
            JOIN a x ON x.person = f.person AND f.d = ? JOIN a y ON y.work = x.work
            WHERE y.person NOT IN (SELECT person FROM {table})""", [depth[table] + 1, depth[table]]).fetchone()[0]
        depth[table] += 1
    # The people both searches reached are on shortest paths (all at one total distance: one nearer the
    # other end would have had a co-author in both searches a level before), and every shortest path
    # has one: walk back from them to each end, a level at a time.
    con.execute("""CREATE TEMP TABLE middle AS SELECT person, t.d AS ds, b.d AS dt FROM there t JOIN back b
                   USING (person)""")
    on_paths = {p for (p,) in con.execute("SELECT person FROM middle").fetchall()}
    for table, column in (("there", "ds"), ("back", "dt")):
        con.execute(f"CREATE TEMP TABLE walk_{table} AS SELECT person, {column} AS d FROM middle")
        for level in range(depth[table], 0, -1):
            found = con.execute(f"""INSERT INTO walk_{table} SELECT DISTINCT n.person, n.d FROM walk_{table} w
                JOIN a x ON x.person = w.person AND w.d = ? JOIN a y ON y.work = x.work
                JOIN {table} n ON n.person = y.person AND n.d = ? RETURNING person""", [level, level - 1]).fetchall()
            on_paths.update(p for (p,) in found)
    return on_paths
