"""The ``kg`` command line: ``main`` (the click group and its error handling) and one module per
area (``build``, ``graph``, ``sparql``, ``html``), each listing its commands in ``COMMANDS``."""
