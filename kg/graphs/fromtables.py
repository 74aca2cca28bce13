"""The co-author projection read from the build's Parquet tables (``out/tables/``) with DuckDB.

It gives the graph :func:`kg.graphs.projections.coauthor_graph` gives, with the same node and
edge attributes, but the pairs come from a self-join in DuckDB, and a command that asks about a
few people (``kg collaborators``, ``kg shared``, ``kg path``) reads only the works around them:
``around`` keeps the edges that touch those people (node attributes stay global: a
collaborator's ``works`` counts all their works).
"""

from __future__ import annotations

from collections import defaultdict, deque
from pathlib import Path

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


def coauthor_graph_from_tables(tables: str | Path, around=None) -> nx.Graph:
    """The co-author graph from the tables in *tables*; only edges touching *around* (IRIs) if given.

    Nodes: every author (or, with *around*, those people and their co-authors) with ``name``,
    ``profiled``, ``works``, ``first_year``, ``last_year``, ``kind``; edges: ``joint_works``,
    ``works`` (sorted by year, then title) and ``weight`` (the sum of ``1 / (authors - 1)``).
    """
    con = _connect(Path(tables))
    if around is not None:
        _people_table(con, "around", set(around))
        con.execute("""CREATE TEMP TABLE chosen AS SELECT DISTINCT work FROM authorships
                       WHERE person IN (SELECT person FROM around)""")
        touch = "AND (x.person IN (SELECT person FROM around) OR y.person IN (SELECT person FROM around))"
    else:
        con.execute("CREATE TEMP TABLE chosen AS SELECT DISTINCT work FROM authorships")
        touch = ""
    con.execute("""CREATE TEMP TABLE sizes AS SELECT work, COUNT(*) AS n FROM authorships
                   WHERE work IN (SELECT work FROM chosen) GROUP BY work""")
    pairs = con.execute(f"""SELECT x.person, y.person, x.work FROM authorships x JOIN authorships y
        ON x.work = y.work AND x.person < y.person
        WHERE x.work IN (SELECT work FROM chosen) {touch}""").fetchall()
    works = {w: {"iri": w, "title": t, "year": y, "venue": v, "status": s, "authors": []}
             for w, t, y, v, s in con.execute("""SELECT work, title, year, venue, status FROM works
                                                 WHERE work IN (SELECT work FROM chosen)""").fetchall()}
    for w, p in con.execute("""SELECT work, person FROM authorships WHERE work IN (SELECT work FROM chosen)
                               ORDER BY work, COALESCE(ordinal, 1000000000), person""").fetchall():
        works[w]["authors"].append(p)
    sizes = dict(con.execute("SELECT work, n FROM sizes").fetchall())
    people = {p for a, b, _ in pairs for p in (a, b)} | (set(around) if around is not None else
                                                        {p for w in works.values() for p in w["authors"]})
    _people_table(con, "wanted", people)
    attrs = con.execute("""SELECT a.person, p.name, p.profiled, COUNT(DISTINCT a.work), MIN(w.year), MAX(w.year)
        FROM authorships a JOIN wanted USING (person) LEFT JOIN people p USING (person)
        LEFT JOIN works w USING (work) GROUP BY a.person, p.name, p.profiled ORDER BY a.person""").fetchall()
    con.close()
    graph = nx.Graph(kind="coauthor", works=dict(sorted(works.items())))
    for p, name, profiled, count, first, last in attrs:
        graph.add_node(p, name=name or p, profiled=bool(profiled), works=count, first_year=first, last_year=last,
                       kind="person")
    joint: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for a, b, w in pairs:
        joint[a, b].append(works[w])
    for a, b in sorted(joint):
        listed = sorted(joint[a, b], key=lambda w: (w["year"] is None, w["year"] or 0, w["title"], w["iri"]))
        graph.add_edge(a, b, joint_works=len(listed), works=[{k: w[k] for k in _WORK_FIELDS} for w in listed],
                       weight=sum(1.0 / (sizes[w["iri"]] - 1) for w in listed))
    return graph


def shortest_path_people(tables: str | Path, source: str, target: str) -> set[str]:
    """Everyone on some shortest co-author path from *source* to *target* (empty if none), found by a
    breadth-first search from both ends over the co-author pairs."""
    con = _connect(Path(tables))
    rows = con.execute("""SELECT DISTINCT x.person, y.person FROM authorships x JOIN authorships y
                          ON x.work = y.work AND x.person < y.person""").fetchall()
    con.close()
    neighbours: dict[str, list[str]] = defaultdict(list)
    for a, b in rows:
        neighbours[a].append(b)
        neighbours[b].append(a)

    def distances(start: str) -> dict[str, int]:
        dist, queue = {start: 0}, deque([start])
        while queue:
            node = queue.popleft()
            for other in neighbours[node]:
                if other not in dist:
                    dist[other] = dist[node] + 1
                    queue.append(other)
        return dist

    there, back = distances(source), distances(target)
    if target not in there:
        return set()
    length = there[target]
    return {p for p, d in there.items() if p in back and d + back[p] == length}
