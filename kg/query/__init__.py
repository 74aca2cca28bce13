"""Querying the built store: ``sparql`` runs a query with safely bound values (``terms``),
``formats`` writes its answer, ``examples`` holds the shipped example queries, ``frames`` turns
answers into pandas DataFrames with readable values, and ``lookup`` finds a person from a typed name."""
