"""Betweenness centrality in igraph, here or in a Python process of its own.

Betweenness is the longest step of ``kg analyze`` (seconds at a thousand CVs), and igraph holds the
interpreter while it runs, so a thread cannot overlap it with anything. :class:`BetweennessProcess`
runs it in a new interpreter (``python -m kg.graphs.betweenness``) fed the edge list on a pipe, while
this process goes on with other work. A new interpreter rather than a fork: igraph's PageRank starts
OpenMP threads, and a fork of a process that has them can hang in the child.

>>> betweenness_of_edges(3, [(0, 1), (1, 2)], None)
[0.0, 1.0, 0.0]
>>> job = BetweennessProcess()
>>> job.start(3, [(0, 1), (1, 2)], None)
>>> job.result()
[0.0, 1.0, 0.0]
"""

from __future__ import annotations

import contextlib
import os
import pickle
import subprocess
import sys
from pathlib import Path


def betweenness(g, sources: list[int] | None) -> list[float]:
    """Raw betweenness of the vertices of the undirected igraph graph *g*: exact when *sources* is
    None, else counting only the shortest paths out of *sources* (unscaled)."""
    if sources is None:
        return list(g.betweenness(directed=False))
    return list(g.betweenness(directed=False, sources=sources))


def betweenness_of_edges(n: int, edges: list[tuple[int, int]], sources: list[int] | None) -> list[float]:
    """:func:`betweenness` of the graph of *n* vertices and the undirected *edges* (what the process is sent)."""
    from kg.graphs.backend import igraph

    return betweenness(igraph().Graph(n=n, edges=edges, directed=False), sources)


class BetweennessProcess:
    """:func:`betweenness_of_edges` in another process: :meth:`start` sends the graph, :meth:`result`
    waits for the answer, :meth:`cancel` stops it. Where the process cannot start or fails, the answer
    is computed here instead."""

    def __init__(self) -> None:
        self.process: subprocess.Popen | None = None
        self.args: tuple = ()

    def start(self, n: int, edges: list[tuple[int, int]], sources: list[int] | None) -> None:
        self.args = (n, edges, sources)
        try:
            self.process = subprocess.Popen([sys.executable, "-m", __name__], stdin=subprocess.PIPE,
                                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_environment())
            stdin, self.process.stdin = self.process.stdin, None  # communicate() must not flush it later
            assert stdin is not None
            with stdin:  # the child reads while this writes: no deadlock
                stdin.write(pickle.dumps(self.args, protocol=pickle.HIGHEST_PROTOCOL))
        except OSError:
            self.cancel()

    def result(self) -> list[float]:
        if self.process is None:  # it could not start
            return betweenness_of_edges(*self.args)
        answer, _ = self.process.communicate()
        status, self.process = self.process.returncode, None
        if status != 0 or not answer:  # it could not finish there (no memory, say): the same answer, here
            return betweenness_of_edges(*self.args)
        return pickle.loads(answer)

    def cancel(self) -> None:
        """Stop the process if it still runs; twice is harmless."""
        if self.process is not None:
            with contextlib.suppress(OSError):
                self.process.kill()
            self.process.communicate()
            self.process = None


def _environment() -> dict[str, str]:
    """This environment, with the folder kg was imported from first on the module path (a notebook may
    have found kg through ``sys.path`` alone)."""
    home = str(Path(__file__).resolve().parents[2])
    paths = [home, *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}


def _serve() -> None:
    n, edges, sources = pickle.loads(sys.stdin.buffer.read())
    sys.stdout.buffer.write(pickle.dumps(betweenness_of_edges(n, edges, sources), protocol=pickle.HIGHEST_PROTOCOL))


if __name__ == "__main__":
    _serve()
