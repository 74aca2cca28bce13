"""RDF: records and identity decisions to triples.

``terms`` (IRIs and literals kg mints) -> ``writer`` (entities and provenance in one document's
named graph) -> ``mapping`` (a document's facts) and ``curation`` (the curation file's
corrections) -> ``merge`` (the merged view, newest source wins) -> ``serialize`` (stable bytes).
"""
