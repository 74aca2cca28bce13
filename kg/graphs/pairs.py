"""The co-author projection as a table: one row per pair of people who wrote a work together,
from one DuckDB self-join, for analyses that need counts and weights rather than a graph."""

from __future__ import annotations

import pandas as pd


def coauthor_edges(store):
    """The co-author projection as a table: one row per pair of people who wrote a work together.

    DuckDB pairs the authors of each work in one self-join, over the build's Parquet tables where
    the store has them beside it (``out/tables/``), else over the store's authorships. Use it where
    a table is enough (counts, joins, weights); :func:`kg.graphs.projections.coauthor_graph` builds the graph,
    with each pair's works listed.

    Parameters
    ----------
    store : pyoxigraph.Store
        The built graph (``kg.store.open_store(out_dir)``).

    Returns
    -------
    pandas.DataFrame
        ``person_a``, ``person_b`` (IRIs, ``person_a < person_b``), ``joint_works`` (int) and
        ``weight`` (Newman's: the sum over joint works of ``1 / (authors - 1)``), sorted by the
        two IRIs. The edges of :func:`coauthor_graph`, with the same counts and weights.

    Examples
    --------
    >>> import pyoxigraph
    >>> store = pyoxigraph.Store()
    >>> store.load(input=b'''
    ... @prefix kg: <https://kg.example/ns#> .
    ... <w1> a kg:Work ; kg:hasAuthor <a>, <b>, <c> .
    ... <w2> a kg:Work ; kg:hasAuthor <a>, <b> .
    ... ''', format=pyoxigraph.RdfFormat.TURTLE, base_iri="https://kg.example/")
    >>> coauthor_edges(store)
                   person_a              person_b  joint_works  weight
    0  https://kg.example/a  https://kg.example/b            2     1.5
    1  https://kg.example/a  https://kg.example/c            1     0.5
    2  https://kg.example/b  https://kg.example/c            1     0.5
    """
    from kg.graphs.projections import _check_store, _rows

    _check_store(store)
    import duckdb
    import pandas as pd

    from kg.graphs.fromtables import EDGES_SQL, coauthor_edges_from_tables, tables_beside
    from kg.tables import TABLES

    tables = tables_beside(store)
    if tables is not None:
        return coauthor_edges_from_tables(tables)
    authorships = pd.DataFrame([row[:2] for row in _rows(store, TABLES["authorships"][0])],
                               columns=["work", "person"], dtype=object)
    con = duckdb.connect()
    try:
        con.register("authorships", authorships)
        return con.execute(EDGES_SQL).df()
    finally:
        con.close()


def coauthor_pairs(store) -> pd.DataFrame:
    """:func:`coauthor_edges` with names: ``person_a``, ``person_b`` (names), ``joint_works``, ``weight``,
    ``person_a_iri``, ``person_b_iri``; most joint works first, then by name (a notebook's table)."""
    from kg.graphs.projections import _people

    edges = coauthor_edges(store)
    names = _people(store)[0]
    frame = pd.DataFrame({"person_a": edges.person_a.map(lambda p: names.get(p, p)),
                          "person_b": edges.person_b.map(lambda p: names.get(p, p)),
                          "joint_works": edges.joint_works, "weight": edges.weight,
                          "person_a_iri": edges.person_a, "person_b_iri": edges.person_b})
    frame = frame.sort_values(["joint_works", "person_a", "person_b", "person_a_iri", "person_b_iri"],
                              ascending=[False, True, True, True, True], kind="stable")
    return frame.reset_index(drop=True)
