"""kg: turn researchers' documents into a co-authorship knowledge graph.

The data flows one way, and the folders follow it (see ``docs/architecture.md``)::

    sources/   (readers: one per document format)  ->  records.py (plain records with provenance)
    identity/  (who and what is the same, with reasons)
    rdf/       (records -> ontology terms, one named graph per source, the merged view)
    build.py   (the pipeline)  ->  store.py (Oxigraph)
    query/     (SPARQL, DataFrames, name lookup)   graphs/ (projections and analyses)
    outputs/   (profile, explain, report, export, graph page, SPARQL server)
    notebook.py (Jupyter)   cli/ (the ``kg`` command)   data/ (ontology, shapes, queries)

``vocab.py``, ``records.py`` and ``errors.py`` are the contract every folder shares.
"""

__version__ = "0.1.0"
