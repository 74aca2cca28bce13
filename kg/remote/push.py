"""``kg build --store URL``: push a built graph to a SPARQL server, replaced as a set.

The graphs of the build in ``out/store`` (the merged view, one graph per source document, the
ontology) are loaded in batches of N-Triples (``INSERT DATA``, standard SPARQL 1.1 Update) into
new staging graphs whose names hold a fresh build id, while readers go on seeing the old build.
Then update requests switch: the first marks the pointer "switching", the next ones move each
staging graph onto its real name (``MOVE``, a few dozen graphs a request) and drop the old build's
graphs that the new one no longer has, the last points at the new build. Readers check the
pointer around every query (see :mod:`kg.remote.store`), so they get answers from the old build or
the new one, never a mix.
A push that fails before the switch leaves the server's current graphs as they were; its
staging graphs are listed in a pending graph, which the next push drops.
"""

from __future__ import annotations

import os
import secrets
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pyoxigraph

from kg.remote.http import N_TRIPLES, Endpoint, redact
from kg.remote.layout import (
    MERGED_GRAPH,
    PENDING_GRAPH,
    PENDING_QUERY,
    STAGED,
    SWITCHING,
    Build,
    pointer_update,
    staging_graph,
)

#: Triples per request (about 150 bytes each): INSERT DATA requests, or Graph Store Protocol POSTs.
BATCH = int(os.environ.get("KG_STORE_BATCH", "2000"))
GSP_BATCH = int(os.environ.get("KG_STORE_BATCH", "50000"))


@dataclass
class Push:
    """What a push sent."""

    url: str
    build: str
    graphs: int
    triples: int
    seconds: float

    def summary(self) -> str:
        return (f"pushed {self.triples:,} triples in {self.graphs} graphs to {redact(self.url)} "
                f"(build {self.build}) in {self.seconds:.1f} s")


def push_store(store_dir: Path, query_url: str, update_url: str | None = None, gsp_url: str | None = None, *,
               batch: int | None = None, progress: bool = False) -> Push:
    """Push the store at *store_dir* to the server whose query endpoint is *query_url*.

    Parameters
    ----------
    update_url : str, optional
        The server's SPARQL Update endpoint; by default *query_url* (Virtuoso's ``/sparql``,
        Fuseki's dataset URL take both). Oxigraph's server takes updates at ``/update``.
    gsp_url : str, optional
        The server's Graph Store Protocol endpoint: where given, the graphs are loaded by POSTing
        N-Triples to it (faster, and Virtuoso refuses large INSERT DATA requests); the switch
        still goes to the update endpoint.
    batch : int, optional
        Triples per request (:data:`BATCH`, or :data:`GSP_BATCH` with *gsp_url*).

    Raises
    ------
    kg.errors.UserError
        One line when the server cannot be reached or refuses (authorization, size, read-only);
        the graphs it served before are then unchanged.
    """
    from kg.remote.store import RemoteStore

    started = time.monotonic()
    reader = RemoteStore(query_url)
    writer = Endpoint(update_url or query_url)
    loader = Endpoint(gsp_url) if gsp_url else None
    batch = batch or (GSP_BATCH if loader else BATCH)
    store = pyoxigraph.Store.read_only(str(store_dir))
    build_id = time.strftime("%Y%m%dT%H%M%S") + "-" + secrets.token_hex(4)
    old = reader.pointer(wait=False)
    _drop_pending(reader, writer)
    sources = sorted((g.value for g in store.named_graphs()), key=str)
    targets = [MERGED_GRAPH] + sources
    staged = {target: staging_graph(build_id, n) for n, target in enumerate(targets)}
    _update(writer, f"INSERT DATA {{ GRAPH <{PENDING_GRAPH}> {{ <{PENDING_GRAPH}> <{STAGED}> "
                    + ", ".join(f"<{g}>" for g in staged.values()) + " } }", "push")
    total = len(store)
    bar = _bar(total, progress)
    sent = 0
    for target in targets:
        graph = pyoxigraph.DefaultGraph() if target == MERGED_GRAPH else pyoxigraph.NamedNode(target)
        for chunk in _chunks(store.quads_for_pattern(None, None, None, graph), batch):
            if loader is not None:
                loader.post(chunk.text.encode("utf-8"), N_TRIPLES, what="push", graph=staged[target])
            else:
                _update(writer, f"INSERT DATA {{ GRAPH <{staged[target]}> {{\n{chunk.text}}} }}", "push")
            sent += chunk.count
            if bar is not None:
                bar.update(chunk.count)
    if bar is not None:
        bar.close()
    for step in _switch(build_id, staged, old):
        _update(writer, step, "switch to the new build")
    del store
    return Push(query_url, build_id, len(targets), sent, time.monotonic() - started)


@dataclass
class _Chunk:
    text: str
    count: int


def _chunks(quads, size: int):
    """N-Triples text of *size* triples at a time."""
    lines: list[str] = []
    for quad in quads:
        lines.append(f"{quad.subject} {quad.predicate} {quad.object} .\n")
        if len(lines) >= size:
            yield _Chunk("".join(lines), len(lines))
            lines = []
    if lines:
        yield _Chunk("".join(lines), len(lines))


#: Graphs moved (or dropped) per update request in the switch: one request for a thousand documents'
#: graphs was one transaction that Oxigraph's server did not finish in ten minutes.
MOVES_PER_REQUEST = 25


def _switch(build_id: str, staged: dict[str, str], old: Build | None) -> list[str]:
    """The update requests of the switch: mark the pointer switching; move the staging graphs in and
    drop what the new build no longer has, :data:`MOVES_PER_REQUEST` graphs a request; point at the
    new build and forget the pending list. Readers wait while the pointer says switching, and ask
    again when it changed under them, so the requests need not be one transaction (Virtuoso does not
    see a graph written earlier in the same request as Oxigraph does)."""
    sources = [g for g in staged if g != MERGED_GRAPH]
    gone = sorted(set(old.graphs) - set(sources)) if old is not None else []
    steps = [f"MOVE SILENT GRAPH <{staging}> TO GRAPH <{target}>" for target, staging in staged.items()]
    steps += [f"DROP SILENT GRAPH <{g}>" for g in gone]
    return [pointer_update(SWITCHING, old.graphs if old is not None else ()),
            *(" ;\n".join(steps[i:i + MOVES_PER_REQUEST]) for i in range(0, len(steps), MOVES_PER_REQUEST)),
            " ;\n".join([pointer_update(build_id, sources), f"DROP SILENT GRAPH <{PENDING_GRAPH}>"])]


def _drop_pending(reader, writer: Endpoint) -> None:
    """Drop the staging graphs of an earlier push that did not switch."""
    pending = sorted({r["graph"].value for r in reader.select(PENDING_QUERY)})
    if pending:
        _update(writer, " ;\n".join([f"DROP SILENT GRAPH <{g}>" for g in pending]
                                    + [f"DROP SILENT GRAPH <{PENDING_GRAPH}>"]), "clean-up of a failed push")


def _update(endpoint: Endpoint, text: str, what: str) -> None:
    endpoint.post(text.encode("utf-8"), "application/sparql-update", what=what)


def _bar(total: int, progress: bool):
    if not progress:
        return None
    from tqdm import tqdm

    return tqdm(total=total, unit=" triples", desc="pushing", file=sys.stderr, unit_scale=True)
