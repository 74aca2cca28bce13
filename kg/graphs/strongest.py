"""The strongest nodes of the page's combined graph (people and organizations), read from the
build's tables with DuckDB before any graph is made: a page of a big graph then builds networkx
graphs of the nodes it keeps, not of every node (at 10,000 CVs, 20,000 of 143,819 nodes and
215,000 of 1.3 million links).

The ranking is :func:`kg.outputs.html.selection.select_graph`'s without a focus: profiled people
first, then the nodes with most joint works (a person's joint works over every co-author, plus one
per organization linked; an organization's people linked), then IRIs in order.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class StrongestNodes:
    """The nodes kept and the size of the whole combined graph (what a page's note says)."""

    keep: frozenset[str]
    total_nodes: int
    total_edges: int
    cut_people: int
    cut_organizations: int


def rank_key(profiled: bool, strength: int, node: str) -> tuple:
    """The order of nodes in a cut: profiled people first, the strongest next, then by IRI.

    >>> sorted([(False, 3, "p:b"), (True, 1, "p:c"), (False, 3, "p:a"), (False, 9, "o:x")],
    ...        key=lambda n: rank_key(*n))
    [(True, 1, 'p:c'), (False, 9, 'o:x'), (False, 3, 'p:a'), (False, 3, 'p:b')]
    """
    return (0 if profiled else 1, -strength, str(node))


# Nodes as projections make them: people of the people table, of the authorships (a co-author
# node) and of affiliations; organizations of theirs and of affiliations. A node typed both ways is
# the co-author graph's person if it wrote something, else an organization (as combined_graph says).
_NODES_SQL = """
WITH a AS (SELECT work, person FROM authorships WHERE work IN (SELECT work FROM works)),
     sizes AS (SELECT work, COUNT(*) AS n FROM a GROUP BY work),
     joint AS (SELECT person, SUM(n - 1) AS s FROM a JOIN sizes USING (work) GROUP BY person),
     links AS (SELECT DISTINCT person, organization FROM affiliations),
     authors AS (SELECT DISTINCT person FROM authorships),
     orgs AS (SELECT organization AS node FROM organizations UNION SELECT organization FROM links),
     persons AS (SELECT person AS node FROM people UNION SELECT person FROM links UNION SELECT person FROM authors),
     nodes AS (SELECT node FROM persons UNION SELECT node FROM orgs),
     linked AS (SELECT node, COUNT(*) AS s FROM (SELECT person AS node FROM links
                                                 UNION ALL SELECT organization FROM links) GROUP BY node)
SELECT n.node,
       n.node IN (SELECT node FROM orgs) AND n.node NOT IN (SELECT person FROM authors) AS organization,
       COALESCE(p.profiled, false) AS profiled,
       COALESCE(j.s, 0) + COALESCE(l.s, 0) AS strength
FROM nodes n LEFT JOIN people p ON p.person = n.node LEFT JOIN joint j ON j.person = n.node
             LEFT JOIN linked l ON l.node = n.node
"""

_EDGES_SQL = """
WITH a AS (SELECT work, person FROM authorships WHERE work IN (SELECT work FROM works))
SELECT (SELECT COUNT(*) FROM (SELECT DISTINCT x.person, y.person FROM a x JOIN a y
                              ON x.work = y.work AND x.person < y.person))
     + (SELECT COUNT(*) FROM (SELECT DISTINCT person, organization FROM affiliations))
"""


def strongest_from_tables(tables: str | Path, max_nodes: int) -> StrongestNodes | None:
    """The *max_nodes* strongest nodes of the combined graph the tables in *tables* give, or None
    where it has no more nodes than that (nothing to cut)."""
    import duckdb

    folder = Path(tables)
    con = duckdb.connect()
    try:
        for name in ("authorships", "works", "people", "organizations", "affiliations"):
            con.execute(f"CREATE VIEW {name} AS SELECT * FROM read_parquet('{folder / (name + '.parquet')}')")
        rows = con.execute(_NODES_SQL).fetchall()
        if len(rows) <= max_nodes:
            return None
        (total_edges,) = con.execute(_EDGES_SQL).fetchone() or (0,)
    finally:
        con.close()
    rows.sort(key=lambda r: rank_key(not r[1] and r[2], int(r[3]), r[0]))
    cut_organizations = sum(1 for r in rows[max_nodes:] if r[1])
    return StrongestNodes(keep=frozenset(r[0] for r in rows[:max_nodes]), total_nodes=len(rows),
                          total_edges=int(total_edges), cut_people=len(rows) - max_nodes - cut_organizations,
                          cut_organizations=cut_organizations)
