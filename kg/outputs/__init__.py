"""Outputs for people and tools: ``profile``, ``explain`` (identity decisions and conflicts),
``report`` (tables and plots), ``export`` (GraphML, GEXF, CSV, VOSviewer), ``html`` (the
interactive graph page) and ``server`` (a SPARQL endpoint with a query page)."""
