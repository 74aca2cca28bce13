"""Python's cycle collector paused over steps that make millions of small objects and no cycles.

Each of the collector's full passes walks every object alive (the documents read, the resolution,
the triples), so at scale it took a fifth of identity's time and a third of the mapping's.

>>> import gc
>>> with collector_paused():
...     gc.isenabled()
False
>>> gc.isenabled()
True
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cycle collector off inside the block, and as it was afterwards."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
