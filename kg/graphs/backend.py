"""igraph, the C graph library kg's layouts and sampled analyses run on, imported without its plotting.

igraph imports ``matplotlib.pyplot`` at start-up for its own drawing, which kg never uses: that is
three quarters of a second of every command that lays out or analyses a graph (``kg build`` on the
seeds included). :func:`igraph` imports it with matplotlib hidden, unless matplotlib is loaded already.
"""

from __future__ import annotations

import importlib
import sys


def igraph():
    """The ``igraph`` module; if this call imports it, igraph's own matplotlib drawing is off.

    >>> igraph().Graph(n=3, edges=[(0, 1)]).ecount()
    1
    """
    loaded = sys.modules.get("igraph")
    if loaded is not None:
        return loaded
    if "matplotlib" in sys.modules:  # paid already: nothing to save
        return importlib.import_module("igraph")
    sys.modules["matplotlib"] = None  # type: ignore[assignment]  # makes `import matplotlib` fail at once
    try:
        return importlib.import_module("igraph")
    finally:
        del sys.modules["matplotlib"]  # a later `import matplotlib` (kg analyze's plots) loads it as usual
