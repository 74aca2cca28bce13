"""Read SNAP-style edge lists (such as SNAP's ``ca-GrQc.txt``, plain or gzipped) into NetworkX graphs.

The format: one edge per line, two node ids separated by whitespace; lines starting with
``#`` are comments; blank lines are skipped. SNAP lists each unordered pair once per
direction; read as an undirected graph, the two directions collapse into one edge.
Self-loops (``a a``) are kept, as SNAP counts them among the edges.

Examples
--------
>>> import tempfile, os
>>> with tempfile.TemporaryDirectory() as d:
...     path = os.path.join(d, "toy.txt")
...     _ = open(path, "w").write("# toy\\n1\\t2\\n2\\t1\\n2 3\\n3 3\\n")
...     g = read_edge_list(path)
>>> sorted(g.edges())
[(1, 2), (2, 3), (3, 3)]
"""

from __future__ import annotations

import gzip
from pathlib import Path

import networkx as nx

from kg.errors import UserError


def read_edge_list(path: str | Path) -> nx.Graph:
    """An undirected graph from a SNAP-style edge list.

    Parameters
    ----------
    path : str or Path
        A text file: ``#`` comment lines, then one ``FromNodeId ToNodeId`` pair per line;
        a name ending in ``.gz`` is read through gzip (SNAP ships its lists gzipped).
        Node ids that are integers become ``int`` nodes, others stay strings.

    Returns
    -------
    networkx.Graph
        One edge per unordered pair (both directions collapse), self-loops kept. Nodes are
        inserted in the order they first appear.

    Raises
    ------
    UserError
        If the file is missing or unreadable, or a line is not two ids (naming file:line).
    """
    path = Path(path)
    if not path.is_file():
        raise UserError(f"no edge list at {path}; give the path of a SNAP-style edge list file")
    graph = nx.Graph(source=str(path))
    try:
        handle = gzip.open(path, "rt", encoding="utf-8") if path.suffix == ".gz" else path.open(encoding="utf-8")
    except OSError as err:
        raise UserError(f"cannot read {path}: {err.strerror}; check the file's permissions") from err
    with handle:
        try:
            for number, line in enumerate(handle, start=1):
                text = line.strip()
                if not text or text.startswith("#"):
                    continue
                fields = text.split()
                if len(fields) != 2:
                    raise UserError(
                        f"{path}:{number}: expected two node ids separated by whitespace, "
                        f"got {text[:60]!r}; fix the line or mark it as a comment with '#'"
                    )
                graph.add_edge(_node(fields[0]), _node(fields[1]))
        except UnicodeDecodeError as err:
            raise UserError(f"{path}: not UTF-8 text ({err.reason}); give a plain text edge list") from err
        except (gzip.BadGzipFile, EOFError) as err:
            raise UserError(f"{path}: not a complete gzip file ({err}); give a plain or gzipped edge list") from err
    return graph


def _node(text: str):
    return int(text) if text.lstrip("-").isdigit() else text
