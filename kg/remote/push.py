"""``kg build --store URL``: push a built graph to a SPARQL server, replaced as a set.

Readers of the server see only the graphs the current build lists (:mod:`kg.remote.layout`), so
a push writes what it can where readers do not look, under the final names, and moves nothing it
does not have to:

- the merged view goes to a new graph named for the build (skipped when the current build's
  merged view has the same digest);
- a source graph the current build does not list is loaded under its own name;
- a source graph whose digest matches the current build's is left as it is;
- only a source graph the current build lists with other content is loaded into a staging graph
  and moved onto its name during the switch (``MOVE``, a few dozen graphs a request), while the
  pointer says "switching" and readers wait.

Loading uses batches of N-Triples (``INSERT DATA``, standard SPARQL 1.1 Update, or Graph Store
Protocol POSTs). The last update request points at the new build; then the graphs the old build
had and the new one has not (its merged view, documents gone) are dropped. Readers check the
pointer around every query (see :mod:`kg.remote.store`), so they get answers from the old build
or the new one, never a mix. Every graph a push writes outside the current build is first listed
in a pending graph: a push that fails leaves the server's current build as it was, and the next
push drops what it left.
"""

from __future__ import annotations

import hashlib
import itertools
import secrets
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pyoxigraph

from kg.remote.http import N_TRIPLES, Endpoint, redact, setting
from kg.remote.layout import (
    EMPTY_GRAPH,
    PENDING_GRAPH,
    PENDING_QUERY,
    STAGED,
    SWITCHING,
    Build,
    merged_graph,
    pointer_update,
    staging_graph,
)

#: Triples per request by default (about 150 bytes each), in INSERT DATA requests or Graph Store
#: Protocol POSTs: KG_STORE_BATCH.
BATCH = 2000
GSP_BATCH = 50000
#: Graphs moved (or dropped) per update request: one request for a thousand documents' graphs was
#: one transaction that Oxigraph's server did not finish in ten minutes.
MOVES_PER_REQUEST = 25


@dataclass
class Push:
    """What a push sent."""

    url: str
    build: str
    graphs: int
    triples: int
    seconds: float
    unchanged: int = 0

    def summary(self) -> str:
        kept = f"; {self.unchanged} unchanged graphs left as they were" if self.unchanged else ""
        return (f"pushed {self.triples:,} triples in {self.graphs - self.unchanged} graphs to {redact(self.url)} "
                f"(build {self.build}{kept}) in {self.seconds:.1f} s")


@dataclass
class Plan:
    """What a push writes where, decided from the server's current build and the digests of the
    local graphs it has a digest for."""

    build: str
    merged: str
    graphs: list[str] = field(default_factory=list)
    #: (local graph, where it is loaded): the local default graph is the merged view.
    loads: list[tuple[pyoxigraph.NamedNode | pyoxigraph.DefaultGraph, str]] = field(default_factory=list)
    #: staging graph -> the source graph it replaces, at the switch
    moves: dict[str, str] = field(default_factory=dict)
    #: each graph of the new build (the merged one too) -> its digest; filled in as graphs are sent
    digests: dict[str, str] = field(default_factory=dict)
    unchanged: int = 0
    #: graphs of the old build the new one does not list, dropped after the switch
    garbage: list[str] = field(default_factory=list)

    def written(self) -> list[str]:
        """Every graph this push writes outside the current build."""
        return [target for _, target in self.loads]


def trusted_digests(old: Build | None) -> dict[str, str]:
    """The digests of the server's current build that say what its graphs hold: none for a build
    caught switching (an earlier push died moving graphs in, under the old digests)."""
    return old.digests if old is not None and not old.switching else {}


def plan_push(build_id: str, merged_digest: str | None, digests: dict[str, str | None], old: Build | None) -> Plan:
    """Where each graph goes, given the server's current build *old* (None if it has none), the local
    merged view's digest and each local named graph's digest (None where it was not computed: where
    the server has no trusted digest to compare it with).

    >>> old = Build("b1", ("s:a", "s:b"), merged_graph("b1"), {"s:a": "1", "s:b": "2", merged_graph("b1"): "m"})
    >>> plan = plan_push("b2", "m", {"s:a": "1", "s:b": "3", "s:c": None}, old)
    >>> plan.merged == merged_graph("b1"), plan.written(), list(plan.moves.values()), plan.unchanged
    (True, ['https://kg.example/id/graph/staging/b2/0', 's:c'], ['s:b'], 2)
    """
    trusted = trusted_digests(old)
    plan = Plan(build_id, merged_graph(build_id), sorted(digests))
    if old is not None and merged_digest is not None and trusted.get(old.merged) == merged_digest:
        plan.merged, plan.digests[old.merged] = old.merged, merged_digest
        plan.unchanged += 1
    else:
        plan.loads.append((pyoxigraph.DefaultGraph(), plan.merged))
    listed = set(old.graphs) if old is not None else set()
    for graph, digest in sorted(digests.items()):
        if digest is not None and trusted.get(graph) == digest:
            plan.digests[graph] = digest
            plan.unchanged += 1
        elif graph in listed:
            staging = staging_graph(build_id, len(plan.moves))
            plan.moves[staging] = graph
            plan.loads.append((pyoxigraph.NamedNode(graph), staging))
        else:
            plan.loads.append((pyoxigraph.NamedNode(graph), graph))
    if old is not None:
        plan.garbage = sorted(listed - set(digests))
        if old.merged not in (plan.merged, EMPTY_GRAPH):
            plan.garbage.append(old.merged)
    return plan


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
    batch = batch or setting("KG_STORE_BATCH", GSP_BATCH if loader else BATCH)
    store = pyoxigraph.Store.read_only(str(store_dir))
    build_id = time.strftime("%Y%m%dT%H%M%S") + "-" + secrets.token_hex(4)
    old = reader.pointer(wait=False)
    _drop_pending(reader, writer)
    sources = sorted((g for g in store.named_graphs()), key=lambda g: g.value)
    trusted = trusted_digests(old)  # a graph without one is sent, its digest computed as it goes
    plan = plan_push(build_id,
                     graph_digest(store, pyoxigraph.DefaultGraph()) if old is not None and old.merged in trusted
                     else None,
                     {g.value: graph_digest(store, g) if g.value in trusted else None for g in sources}, old)
    if old is None:  # a first push: readers see an empty build until this one is whole
        _update(writer, pointer_update(build_id + "-loading", EMPTY_GRAPH, (), {}), "push")
    _prepare(writer, plan)
    sent = _load(store, plan, writer, loader, batch, progress)
    for step in _switch(plan, old):
        _update(writer, step, "switch to the new build")
    del store
    return Push(query_url, build_id, len(sources) + 1, sent, time.monotonic() - started, plan.unchanged)


def graph_digest(store: pyoxigraph.Store, graph) -> str:
    """A digest of one graph's content in *store*: the same for the same triples (Oxigraph lists a
    graph in an order its content decides), so an unchanged graph is not sent again. A push
    computes it as it sends a graph, and beforehand only for graphs the server has a digest of."""
    digest = hashlib.sha256()
    for data, _ in _batches(store, graph, GSP_BATCH):
        digest.update(data)
    return digest.hexdigest()[:32]


def _batches(store: pyoxigraph.Store, graph, size: int):
    """(N-Triples bytes, triple count) of *graph*, *size* triples at a time."""
    quads = store.quads_for_pattern(None, None, None, graph)
    while True:
        triples = [quad.triple for quad in itertools.islice(quads, size)]
        if not triples:
            return
        yield pyoxigraph.serialize(triples, format=pyoxigraph.RdfFormat.N_TRIPLES) or b"", len(triples)


def _prepare(writer: Endpoint, plan: Plan) -> None:
    """List the graphs the push writes as pending, and empty them (left by another loader)."""
    written = plan.written()
    if not written:
        return
    _update(writer, f"INSERT DATA {{ GRAPH <{PENDING_GRAPH}> {{ <{PENDING_GRAPH}> <{STAGED}> "
                    + ", ".join(f"<{g}>" for g in written) + " } }", "push")
    for step in _in_requests([f"DROP SILENT GRAPH <{g}>" for g in written if g not in plan.moves]):
        _update(writer, step, "push")


def _load(store, plan: Plan, writer: Endpoint, loader: Endpoint | None, batch: int, progress: bool) -> int:
    """Send every graph the plan loads; the number of triples sent."""
    bar = _bar(len(plan.loads), progress)  # graphs, not triples: counting triples first was a whole extra read
    sent = 0
    for graph, target in plan.loads:
        digest = hashlib.sha256()
        for data, count in _batches(store, graph, batch):
            digest.update(data)
            if loader is not None:
                loader.post(data, N_TRIPLES, what="push", graph=target)
            else:
                _update(writer, f"INSERT DATA {{ GRAPH <{target}> {{\n{data.decode('utf-8')}}} }}", "push")
            sent += count
        if bar is not None:
            bar.update(1)
        plan.digests[plan.moves.get(target, target)] = digest.hexdigest()[:32]
    if bar is not None:
        bar.close()
    return sent


def _switch(plan: Plan, old: Build | None) -> list[str]:
    """The update requests of the switch.

    With graphs to move: mark the pointer switching, then move them in, :data:`MOVES_PER_REQUEST` a
    request. Then point at the new build and list the old build's leftovers as pending, in one
    request; drop them, a few a request; forget the pending list. Readers wait while the pointer
    says switching, and ask again when it changed under them, so the requests need not be one
    transaction (Virtuoso does not see a graph written earlier in the same request as Oxigraph does).
    """
    steps = []
    if plan.moves:
        assert old is not None  # a graph is moved only onto a graph the old build lists
        steps.append(pointer_update(SWITCHING, old.merged, old.graphs, old.digests))
        steps += _in_requests([f"MOVE SILENT GRAPH <{staging}> TO GRAPH <{target}>"
                               for staging, target in plan.moves.items()])
    final = [pointer_update(plan.build, plan.merged, plan.graphs, plan.digests), f"DROP SILENT GRAPH <{PENDING_GRAPH}>"]
    if plan.garbage:
        final.append(f"INSERT DATA {{ GRAPH <{PENDING_GRAPH}> {{ <{PENDING_GRAPH}> <{STAGED}> "
                     + ", ".join(f"<{g}>" for g in plan.garbage) + " } }")
    steps.append(" ;\n".join(final))
    if plan.garbage:
        steps += _in_requests([f"DROP SILENT GRAPH <{g}>" for g in plan.garbage])
        steps.append(f"DROP SILENT GRAPH <{PENDING_GRAPH}>")
    return steps


def _in_requests(operations: list[str]) -> list[str]:
    """*operations* joined into update requests of :data:`MOVES_PER_REQUEST` each."""
    return [" ;\n".join(operations[i:i + MOVES_PER_REQUEST]) for i in range(0, len(operations), MOVES_PER_REQUEST)]


def _drop_pending(reader, writer: Endpoint) -> None:
    """Drop the graphs an earlier push wrote outside the current build and did not finish with."""
    pending = sorted({r["graph"].value for r in reader.select(PENDING_QUERY)})
    if not pending:
        return
    for step in _in_requests([f"DROP SILENT GRAPH <{g}>" for g in pending] + [f"DROP SILENT GRAPH <{PENDING_GRAPH}>"]):
        _update(writer, step, "clean-up of a failed push")


def _update(endpoint: Endpoint, text: str, what: str) -> None:
    endpoint.post(text.encode("utf-8"), "application/sparql-update", what=what)


def _bar(total: int, progress: bool):
    if not progress:
        return None
    from tqdm import tqdm

    return tqdm(total=total, unit=" graphs", desc="pushing", file=sys.stderr)
