"""The built store: an Oxigraph database in ``out/store`` that later commands open fast.

The default graph holds the merged view; each source document has its own named
graph; ``ONTOLOGY_GRAPH`` holds ``ontology.ttl``. See ``docs/data-model.md``.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

import pyoxigraph

from kg.data import ontology_ttl
from kg.errors import UserError
from kg.vocab import DATA_IRIS

if TYPE_CHECKING:
    from kg.progress import Stopwatch

STORE_DIR = "store"
ONTOLOGY_GRAPH = DATA_IRIS["graph/ontology"]


def store_path(out_dir: str | Path) -> Path:
    """Where ``kg build`` puts the store for an output folder."""
    return Path(out_dir) / STORE_DIR


def open_store(out_dir: str | Path = "out") -> pyoxigraph.Store:
    """Open the store that ``kg build`` wrote into *out_dir*, read-only.

    Raises
    ------
    UserError
        If no store was built there, naming the command that builds it.
    """
    path = store_path(out_dir)
    if not (path.is_dir() and any(path.iterdir())):
        raise UserError(f"no built graph in {Path(out_dir)}/ (expected {path}/); run `kg build` first")
    store = pyoxigraph.Store.read_only(str(path))
    _OPENED[id(store)] = (store, Path(out_dir))
    while len(_OPENED) > 4:  # bounded: a notebook that reopens the store does not keep old ones alive
        _OPENED.pop(next(iter(_OPENED)))
    return store


# The output folders of the stores open_store opened last (pyoxigraph stores take no weak references),
# so that projections can read the build's tables beside a store they are given.
_OPENED: dict[int, tuple] = {}


def out_dir_of(store) -> Path | None:
    """The output folder *store* was opened from by :func:`open_store`, or None."""
    entry = _OPENED.get(id(store))
    return entry[1] if entry is not None and entry[0] is store else None


def create_store(path: Path, sources: Path | None = None, merged: Path | None = None) -> pyoxigraph.Store:
    """A new store at *path*; with *sources* and *merged*, bulk-loaded (:func:`load_sources`, then
    :func:`load_rest`): the store, flushed to disk and open (for the build's tables and page: no
    second opening)."""
    store = pyoxigraph.Store(str(path))
    if sources is not None and merged is not None:
        load_sources(store, sources)
        load_rest(store, merged)
    return store


#: The bulk loader holds what it is given in memory, in batches of up to a million quads a thread, so
#: a big file is given a piece of about this many bytes at a time, each ending at a line's end. Small
#: pieces cost less CPU as well as less memory. Measured alone, loading the sources and the merged view
#: and compacting (same day, same files): 10,000 CVs (38 million statements, 7.9 GB) took 410 CPU-s and
#: 204 MiB in pieces of 8 MiB, 385 in pieces of 4 and 16 MiB, 548 CPU-s and 688 MiB in pieces of
#: 64 MiB; on another day, each file given whole took 313 CPU-s but held 2.4 GiB. At 1,000 CVs
#: 28.6-33 CPU-s whatever the piece, 126 MiB in pieces of 8 MiB against 526 MiB in pieces of 64.
LOAD_PIECE = 8 * 2**20


def _load_lines(store: pyoxigraph.Store, source: Path | BinaryIO, fmt: pyoxigraph.RdfFormat, **options) -> None:
    """Bulk-load a file or stream of N-Quads or N-Triples (*fmt*), whose every line is one statement,
    a piece of about :data:`LOAD_PIECE` bytes at a time (see there)."""
    if isinstance(source, Path):
        with open(source, "rb") as stream:
            _load_lines(store, stream, fmt, **options)
        return
    rest = b""
    while block := source.read(LOAD_PIECE):
        cut = block.rfind(b"\n") + 1
        if not cut:  # no line ends in it yet
            rest += block
            continue
        store.bulk_load(input=rest + block[:cut] if rest else block[:cut], format=fmt, **options)
        rest = block[cut:]
    if rest:
        store.bulk_load(input=rest, format=fmt, **options)


def load_sources(store: pyoxigraph.Store, sources: Path | BinaryIO) -> None:
    """Bulk-load the sources' named graphs into *store*: the N-Quads file *sources*, or a stream of it
    (a piece at a time: :data:`LOAD_PIECE`).

    The file is kg's own (every IRI percent-encoded where it must be, see :func:`kg.rdf.quads.iri`),
    so Oxigraph reads it without checking each IRI again (``lenient``: an eighth of the load's time);
    so is :func:`load_rest`'s."""
    _load_lines(store, sources, pyoxigraph.RdfFormat.N_QUADS, lenient=True)


def load_rest(store: pyoxigraph.Store, merged: Path, clock: Stopwatch | None = None) -> pyoxigraph.Store:
    """Bulk-load the merged view (the N-Triples file *merged*) into *store*'s default graph and the
    ontology into its own graph, after the sources; *store*, flushed to disk and compacted (the
    compaction timed on *clock*, where given)."""
    _load_lines(store, merged, pyoxigraph.RdfFormat.N_TRIPLES, to_graph=pyoxigraph.DefaultGraph(), lenient=True)
    store.bulk_load(input=ontology_ttl(), format=pyoxigraph.RdfFormat.TURTLE,
                    to_graph=pyoxigraph.NamedNode(ONTOLOGY_GRAPH))
    store.flush()
    # Each bulk load adds files that overlap the earlier ones, and every lookup then searches them
    # all: compacted once whole, the store of 1,000 CVs answered a lookup in half the time (the
    # source-disagreements query 0.72 s, then 0.33 s) for 7 s of the build on a thread, and the
    # store of 10,000 CVs shrank from 7.6 to 4.5 GB.
    if clock is None:
        store.optimize()
    else:
        clock.timed("store compaction, the load's last step", store.optimize)
    return store


def write_store(out_dir: Path, trig: bytes, ttl: bytes) -> None:
    """Load a fresh store (the sources' named graphs, the merged view, the ontology) beside the old one,
    then swap it in, so a reader sees the old store or the new one."""
    tmp = Path(tempfile.mkdtemp(prefix=".store.", dir=out_dir))
    try:
        store = pyoxigraph.Store(str(tmp))
        store.bulk_load(input=trig, format=pyoxigraph.RdfFormat.TRIG)
        store.bulk_load(input=ttl, format=pyoxigraph.RdfFormat.TURTLE, to_graph=pyoxigraph.DefaultGraph())
        store.bulk_load(input=ontology_ttl(), format=pyoxigraph.RdfFormat.TURTLE,
                        to_graph=pyoxigraph.NamedNode(ONTOLOGY_GRAPH))
        store.flush()
        del store
        final = out_dir / STORE_DIR
        old = None
        if final.exists():
            old = out_dir / f".store.old.{os.getpid()}"
            os.replace(final, old)
        os.replace(tmp, final)
        if old:
            shutil.rmtree(old, ignore_errors=True)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)


def load_dataset(out_dir: str | Path = "out"):
    """The built graph as an rdflib ``Dataset`` (parsed from ``kg.trig``), for rdflib users.

    The merged view is ``kg.ttl``; this returns the per-source named graphs.
    """
    import rdflib

    trig = Path(out_dir) / "kg.trig"
    if not trig.is_file():
        raise UserError(f"no {trig}; run `kg build` first")
    ds = rdflib.Dataset()
    ds.parse(trig, format="trig")
    return ds


def load_merged_graph(out_dir: str | Path = "out"):
    """The merged view (``kg.ttl``) as an rdflib ``Graph``."""
    import rdflib

    ttl = Path(out_dir) / "kg.ttl"
    if not ttl.is_file():
        raise UserError(f"no {ttl}; run `kg build` first")
    return rdflib.Graph().parse(ttl, format="turtle")


def open_location(out_dir: str | Path = "out", store: str | os.PathLike | None = None):
    """The store to read: the SPARQL server at *store* (an endpoint URL), the embedded store at *store*
    (a built output folder or its ``store/``), else the embedded store of *out_dir*.

    Raises
    ------
    UserError
        If there is no built store there, or the server does not answer.
    """
    if store is None or str(store) == "":
        return open_store(out_dir)
    from kg.remote.http import is_endpoint_url

    if is_endpoint_url(str(store)):
        from kg.remote.store import open_remote

        return open_remote(str(store))
    path = Path(store)
    if path.name == STORE_DIR and not (path / STORE_DIR).is_dir():
        return open_store(path.parent)
    return open_store(path)


def as_store(store):
    """*store* if it is an open store (embedded or :class:`kg.remote.store.RemoteStore`), else the SPARQL
    server at the endpoint URL *store*.

    Raises
    ------
    UserError
        If *store* is neither.
    """
    from kg.remote.http import is_endpoint_url
    from kg.remote.store import RemoteStore, open_remote

    if is_endpoint_url(store):
        return open_remote(store)
    if not isinstance(store, (pyoxigraph.Store, RemoteStore)):
        raise UserError(f"expected a pyoxigraph.Store or a SPARQL endpoint URL, got {type(store).__name__}; "
                        "use kg.notebook.load(out_dir) to open a built graph")
    return store
