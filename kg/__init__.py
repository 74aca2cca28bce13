"""kg: turn researchers' documents into a co-authorship knowledge graph.

The data flows one way, and the modules follow it::

    sources/  (readers: one per document format)  ->  records.py (plain records with provenance)
    identity.py (who and what is the same, with reasons)
    rdf.py (records -> ontology terms, one named graph per source)  ->  store.py (Oxigraph)
    projections.py (networkx graphs read from the store)  ->  analyses.py (pandas DataFrames)
    outputs: sparql.py / server.py, html.py, export.py, report.py;  cli.py is a thin shell.
"""

__version__ = "0.1.0"
