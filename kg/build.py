"""The build: data folder -> records -> identity -> RDF -> files and store in the output folder.

:func:`build_graph` never stops at a bad document: it reports it in
``BuildReport.skipped`` (file, line, reason) and goes on with the rest.

The readers, identity and mapping are imported where they are used: they run in the build's
first half, a forked process (see :func:`build_graph`), which imports them while this process
loads what it needs to write the files.
"""

from __future__ import annotations

import gc
import os
import shutil
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, cast

from kg.build_report import BuildReport, DocumentReport, scrubbed, skips_of
from kg.child import Child, Spawned, child_where_room, run_yielding
from kg.collector import collector_paused
from kg.early_files import EarlyFiles
from kg.errors import UserError
from kg.memory import room_for_a_copy
from kg.outfolder import build_lock, carry_over, staging_folder, swap_in
from kg.outputs.html import DRAW_MORE, PAGE_MAX_NODES
from kg.progress import Stopwatch, stage_bar
from kg.rdf.serialize import flat_files, write_files, write_ntriples
from kg.store import STORE_DIR
from kg.store_load import StoreLoad, mark_whole, writing_path
from kg.tables import TABLES_DIR, write_tables_from_csvs
from kg.validate import check_merged, validate_graph, validate_output, validate_triples  # noqa: F401 (API)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from kg.identity.curation import Curation
    from kg.identity.resolution import Resolution
    from kg.rdf.quads import TripleSet
    from kg.records import Document, Skip

#: Everything a build writes into the output folder; anything else there is the user's and is kept.
OUTPUTS = ("kg.trig", "kg.ttl", "kg.jsonld", STORE_DIR, "tables", "identity.json", "graph.html")
#: The intermediate files the store and the other files are made from (removed once used).
SOURCES_NQ, MERGED_NT, TABLE_CSVS = ".sources.nq", ".merged.nt", ".tables"
#: From this many documents on, they are read on every core.
PARALLEL_FROM = 16
#: Up to this many triples in the merged view, the first half validates the merged view itself
#: (milliseconds), and the page's projections are read from the store by SPARQL (at the seeds' size
#: DuckDB's start alone takes longer than the queries). Above, a fork of the first half, which holds
#: the merged view, validates it while the files are written, and the page reads the co-author graph
#: from the tables (a DuckDB self-join: at 36,000 triples both take as long, at 140,000 the tables a
#: third of the time). Up to this many identity decisions, identity.json is written before the mapping,
#: above it beside identity (:mod:`kg.identity_file`).
SMALL_GRAPH = 20_000
#: The first half and the store's load of the sources beside it (see :mod:`kg.store_load`) keep two
#: cores busy; a fork of the first half that validates pays only on a third. On two
#: cores the forks vied with both for the same cores and copied the pages they read (Python's reference
#: counts write to them): at 1,000 CVs the build's processes together held 1.51-1.54 GiB with them and
#: 1.10-1.14 GiB without, in as long (105.7 and 132.1 s against 120.9 and 130.5 s); at 10,000 CVs
#: 9.50 GiB against 6.34 GiB, the first half's steps after identity 536 s against 564 s.
FORK_FROM_CORES = 3
#: A big graph's TriG, Turtle and JSON-LD are written by a process of their own, begun as soon as the
#: sources' N-Quads hold this many bytes, whole (about SMALL_GRAPH statements of about 250 bytes)
EARLY_FILES_FROM = SMALL_GRAPH * 250


def _read_one(item) -> Document:
    """One source read with the cycle collector paused: a reader makes many short-lived objects and
    few cycles, and the collector's passes over them took a tenth of the reading's time (the few
    cycles left go at the first pass after the document)."""
    from kg.sources import read_source

    with collector_paused():
        return read_source(item)


def _read_all(found: list, progress: bool) -> Iterator[Document]:
    """Every found source read, on every core when there are many, in the order found."""
    if len(found) >= PARALLEL_FROM and (os.cpu_count() or 1) > 1:
        from concurrent.futures import ProcessPoolExecutor

        # the workers start with the collector on (they are forked from this process, where it is off
        # while the documents gathered here, which make no cycles, would make each of its passes longer)
        with ProcessPoolExecutor(min(os.cpu_count() or 1, 8), initializer=gc.enable) as pool, collector_paused():
            yield from stage_bar(pool.map(_read_one, found, chunksize=8), progress, "reading", len(found))
        return
    for item in stage_bar(found, progress, "reading"):
        yield _read_one(item)


def read_documents(data_dir: Path, progress: bool = False, curation: Curation | None = None,
                   arrived: Callable[[Document], None] | None = None) -> tuple[list[Document], list[Skip]]:
    """Every document under *data_dir* that gave something, read and corrected by the curation
    file's work corrections, and what was passed over outside them (files no reader takes,
    documents that gave nothing, corrections that matched nothing), each with its place and reason.

    A document without an owner (a group page, a lab bibliography) is read like any other. The
    skips of the documents kept stay in ``doc.skipped`` (see :func:`skips_of`). *arrived*, where
    given, is called with each document kept, in order, as soon as it is read and corrected: the
    build gathers what identity takes from it meanwhile (:class:`kg.identity.resolve.Gathered`),
    while the workers read on.
    """
    from kg.identity.curation import CURATION_FILE
    from kg.identity.work_fixes import WorkFixes
    from kg.sources import find_sources

    found, passed_over = find_sources(data_dir, exclude=(CURATION_FILE,))
    fixes = WorkFixes(curation.work_fixes if curation is not None else [], str(data_dir / CURATION_FILE))
    kept, gave_nothing = [], []
    for doc in _read_all(found, progress):
        fixes.apply(doc)
        if doc.subject is not None or doc.facts:
            kept.append(doc)
            if arrived is not None:
                with collector_paused():
                    arrived(doc)
        else:
            gave_nothing += doc.skipped
    return kept, passed_over + fixes.unmatched() + gave_nothing


def _per_document(reports: dict[str, DocumentReport], res: Resolution) -> list[DocumentReport]:
    """*reports* (each with its document's skips counted) with the works and people identity found in it."""
    for titles in res.work_titles.values():
        for path in {p for p, _ in titles}:
            reports[path].works += 1
    for person in res.people.values():
        for path in person.documents:
            reports[path].people += 1
    return [reports[p] for p in sorted(reports)]


def to_triples(docs: list[Document], curation: Curation, res: Resolution, include_private: bool,
               progress: bool = False) -> tuple[list[TripleSet], TripleSet]:
    """:func:`kg.rdf.dataset.to_triples` (imported here on first use, like the rest of the first half)."""
    from kg.rdf import dataset

    return dataset.to_triples(docs, curation, res, include_private, progress)


def to_rdf(docs: list[Document], curation: Curation, res: Resolution, include_private: bool):
    """The per-source dataset and the merged view as rdflib objects (for tests and rdflib users;
    the build itself never makes them)."""
    from rdflib import Dataset, Graph

    graphs, merged = to_triples(docs, curation, res, include_private)
    ds = Dataset()
    ds.parse(data="".join(line for g in graphs for line in g.lines(g.identifier)), format="nquads")
    return ds, Graph().parse(data="".join(merged.lines()), format="nt")


def _has_graph(out_dir: Path) -> bool:
    store = out_dir / STORE_DIR
    return store.is_dir() and any(store.iterdir())


def build_graph(data_dir: str | Path, out_dir: str | Path, *, include_private: bool = False,
                progress: bool = False, validate: bool = True, html: bool = True, force: bool = False,
                memory_limit: int | None = None) -> BuildReport:
    """Build the knowledge graph from the documents in *data_dir* into *out_dir*.

    Writes ``kg.trig`` (a named graph per source), ``kg.ttl`` and ``kg.jsonld`` (the merged
    view), ``store/`` (Oxigraph), ``tables/`` (Parquet), ``identity.json`` (identity decisions)
    and, with *html*, ``graph.html``. Telephone numbers and street addresses are left out unless
    *include_private*. The set is written into a fresh folder beside *out_dir* and swapped in
    whole, under a lock (see :mod:`kg.outfolder`); a data folder without documents does not
    replace a built graph unless *force*. *memory_limit* (bytes) bounds the memory of the build's
    processes together: a big build then runs steps one after another that it would otherwise run
    side by side (see :mod:`kg.memory`); without it, the system's available memory bounds them.
    """
    data_dir, out_dir = Path(data_dir), Path(out_dir)
    if not data_dir.is_dir():
        raise UserError(f"data folder {data_dir}/ does not exist; create it and put documents in it")
    with build_lock(out_dir):
        clock = Stopwatch()
        stage = staging_folder(out_dir)
        first_half = Child()
        load = StoreLoad(stage / STORE_DIR, stage / SOURCES_NQ, stage / MERGED_NT, clock)
        early = None
        try:
            # the documents, identity and triples in a process of their own: their memory is gone
            # when the store loads (see kg.child); what comes back is the report
            first_half.start(_graph_files, data_dir, out_dir, stage, include_private=include_private,
                             progress=progress, force=force, validate=validate, memory_limit=memory_limit)
            # the sources' N-Quads load on a thread here as the mapping writes them (see kg.store_load)
            load.follow(memory_limit, first_half.pid)
            # a big graph's TriG, Turtle and JSON-LD, begun once the sources are whole (see kg.early_files)
            early = EarlyFiles(stage / SOURCES_NQ, stage / MERGED_NT, stage, EARLY_FILES_FROM)
            if html:
                _page_writer()  # the page's modules load here meanwhile
            report = first_half.result()
            clock.lap("first half, the stages above (a process of its own)")
            names, report.page = write_outputs(stage, html=html, progress=progress, triples=report.triples,
                                               clock=clock, load=load, memory_limit=memory_limit,
                                               files=early.take())
            (stage / SOURCES_NQ).unlink()
            (stage / MERGED_NT).unlink()
            carry_over(out_dir, stage, set(OUTPUTS))
            swap_in(stage, out_dir)
            clock.lap("swapping the folder in")
            clock.total()
            report.stages += clock.laps
        except BaseException:
            first_half.cancel()  # it stops writing the sources before the load stops reading them
            load.abandon()
            if early is not None:
                early.cancel()
            shutil.rmtree(stage, ignore_errors=True)
            raise
        finally:
            first_half.cancel()  # interrupted while waiting: the child goes too
    report.written = [str(out_dir / n) for n in names]
    return report


def _graph_files(data_dir: Path, out_dir: Path, stage: Path, *, include_private: bool, progress: bool,
                 force: bool, validate: bool = False, memory_limit: int | None = None) -> BuildReport:
    """Read, resolve and map the documents; write the merged view's N-Triples, the sources' N-Quads,
    the tables' CSV and ``identity.json`` into *stage*; the report so far, with *validate* the
    validation's result too (:func:`kg.validate.check_merged`).

    A merged view of more than :data:`SMALL_GRAPH` triples is validated in a fork of this process,
    which has it in memory already, while the files are written, where a core is free for it (from
    :data:`FORK_FROM_CORES` cores) and a copy of this process fits in the memory left
    (:func:`kg.memory.room_for_a_copy`, with *memory_limit*); otherwise here. Likewise the identity
    decisions are written while identity goes on or while the documents are mapped
    (:mod:`kg.identity_file`)."""
    # The first half keeps what it makes (documents, resolution, triples) to its end and makes few
    # cycles; the collector's passes over it were over a quarter of the mapping's time (at 1,000
    # CVs 3.5 of 12.3 s, one after each document's graph) and a second after identity.
    with collector_paused():
        return _first_half(data_dir, out_dir, stage, include_private=include_private, progress=progress,
                           force=force, validate=validate, memory_limit=memory_limit)


def _first_half(data_dir: Path, out_dir: Path, stage: Path, *, include_private: bool, progress: bool,
                force: bool, validate: bool, memory_limit: int | None) -> BuildReport:
    from kg.identity.curation import CURATION_FILE, Curation
    from kg.identity.keys import person_key, release_key_caches, title_key
    from kg.identity.resolve import Gathered, resolve
    from kg.identity_file import IdentityFile
    from kg.merged_tables import write_table_csvs
    from kg.rdf.dataset import write_sources
    from kg.records import Skip, Span

    clock = Stopwatch()
    curation = Curation.load(data_dir / CURATION_FILE)
    # what identity takes from each document gathered as the documents come, while the workers read on
    gathered = Gathered(curation)
    docs, skipped = read_documents(data_dir, progress, curation, gathered.add)
    clock.lap("reading")
    if not docs and not force and _has_graph(out_dir):
        raise UserError(f"no documents to read in {data_dir}/, so the graph in {out_dir}/ was kept; "
                        "add documents, or run `kg build --force` to replace it with an empty graph")
    report = BuildReport(documents=len(docs))
    unknown = [Skip(Span(str(data_dir / CURATION_FILE), 1, 1), m)
               for m in curation.unknown_documents({d.path for d in docs})]
    for d in docs:
        d.latest_date = curation.document_dates.get(d.path, d.latest_date)
    # identity.json: the people's decisions made and written while identity goes on, where a fork fits,
    # the rest once the fork is done; else while the mapping goes on, a piece at a time (kg.paced); a
    # small build's here (see kg.identity_file)
    identity_file = IdentityFile(stage / "identity.json", SMALL_GRAPH, partial(room_for_a_copy, memory_limit))
    try:
        # a step of identity's that reads no cluster is made in a fork, on the core identity leaves idle
        res = resolve(docs, curation, identity_file.people_resolved, gathered,
                      partial(child_where_room, partial(room_for_a_copy, memory_limit)))
        clock.lap("identity")
        problems = curation.check_against(
            {person_key(n) for p in res.people.values() for n in p.names},
            {title_key(t) for titles in res.work_titles.values() for _, t in titles})
        if problems:
            raise UserError("; ".join(problems))
        identity_file.resolved(res, len(docs), clock)
    except BaseException:
        identity_file.close()
        raise
    # each document is let go of once mapped, and each source's graph once written: only the merged
    # view stays (see kg.rdf.dataset)
    reports: dict[str, DocumentReport] = {}
    doc_skips: dict[int, list[Skip]] = {}

    def mapped(index: int, doc: Document) -> None:
        doc_skips[index] = skips_of(doc)
        reports[doc.path] = DocumentReport(doc.path, skipped=len(doc_skips[index]))
        identity_file.step(len(reports))

    check: Child | None = None  # the validating fork, where it has a core of its own and room
    try:
        # the documents' places are emptied as they are mapped: this function holds the last reference
        # renamed when whole: the parent loads it as it grows (see kg.store_load)
        merged = write_sources(cast("list[Document | None]", docs), curation, res, include_private,
                               writing_path(stage / SOURCES_NQ), progress, mapped)
        mark_whole(stage / SOURCES_NQ)
        release_key_caches()  # identity's keys, which the mapping asked for again: no step after needs them
        identity_file.finish()
        clock.lap("mapping, and the sources' N-Quads" + identity_file.beside_mapping)
        # after the mapping, which reports bad links; in the documents' order
        report.skipped = skipped + [s for i in sorted(doc_skips) for s in doc_skips[i]] + unknown
        if not include_private:  # a skip's reason may quote the line it passed over
            report.skipped = scrubbed(report.skipped)
        report.people = len(res.people)
        report.profiled = len(set(res.subject_of_document.values()))
        report.works = len(res.work_titles)
        report.organizations = len(res.org_info)
        report.venues = len(res.venue_names)
        report.triples = len(merged)
        report.per_document = _per_document(reports, res)
        del docs, res
        if validate and len(merged) > SMALL_GRAPH:
            check = child_where_room(partial(room_for_a_copy, memory_limit), cores=FORK_FROM_CORES)
        if check is not None:
            # validated on a core of its own (a fork, which holds the merged view already) while this one
            # writes the N-Triples and the tables' CSV (made Parquet by the parent while the store loads)
            check.start(check_merged, merged.triples)
        # sorted, and laid out in memory in that order for the passes that follow (see take_in_order)
        ordered = merged.take_in_order()
        # the N-Triples first, renamed when whole: the store loads them meanwhile (see kg.store_load)
        write_ntriples(ordered, writing_path(stage / MERGED_NT))
        mark_whole(stage / MERGED_NT)
        clock.lap("N-Triples (merged view)")
        if validate and check is None:
            report.conforms, report.violations, report.validation = check_merged(ordered)
            clock.lap("validation")
        write_table_csvs(ordered, stage / TABLE_CSVS)
        clock.lap("tables (CSV, from the merged view)")
        del ordered  # freed once on disk
        if check is not None:
            report.conforms, report.violations, report.validation = check.result()
            clock.lap("waiting for the validation")
    finally:
        identity_file.close()
        if check is not None:
            check.cancel()  # nothing to stop once it answered
    report.stages = clock.laps
    return report


def write_outputs(stage: Path, *, html: bool, progress: bool, triples: int | None = None,
                  clock: Stopwatch | None = None, load: StoreLoad | None = None,
                  memory_limit: int | None = None, files: Spawned | None = None) -> tuple[list[str], str]:
    """Write the rest of the set into *stage*, from the N-Quads, N-Triples, table CSVs and
    ``identity.json`` :func:`_graph_files` wrote there (the first two stay for the caller to remove);
    the names written, and what the page left out (its note; "" where it draws every node, see
    :data:`kg.outputs.html.PAGE_MAX_NODES`).

    *triples*, the merged view's size, where known: up to :data:`SMALL_GRAPH` the page reads the
    store, not the tables (see there). *load*, the store's load where it began already; *files*, the
    process writing TriG, Turtle and JSON-LD where it began already (:mod:`kg.early_files`).

    Three things run side by side: the store's load on a thread, TriG, Turtle and JSON-LD in a
    process of their own (a big graph's: a small one's take milliseconds, and this process writes
    them), and here the tables and the page. A big graph's page, drawn from the tables, does not wait
    for the store where it fits in memory beside the load (:func:`kg.memory.room_for_the_page`, with
    *memory_limit*): at 1,000 CVs, one after another, the page and the JSON-LD took 6 s and 5 s on one
    core while the other idled. Both yield the cores to the load (:func:`kg.child.lower_priority`), the
    build's longest chain, and fill the core its last step (the compaction, on one) leaves: at 10,000
    CVs the build's last 38 s were half idle before, 8 s after (798.8 s against 831.0 s in all)."""
    from kg.memory import room_for_the_page

    sources_nq, merged_nt = stage / SOURCES_NQ, stage / MERGED_NT
    clock = clock or Stopwatch()
    load = load or StoreLoad(stage / STORE_DIR, sources_nq, merged_nt, clock)
    small = triples is not None and triples <= SMALL_GRAPH
    try:
        loading = load.finish()
        if files is None and not small:
            files = Spawned(yielding=True)
            files.start(write_files, sources_nq, merged_nt, stage)
        steps: list[tuple[str, Callable[[], object]]] = [
            ("tables", partial(write_tables_from_csvs, stage / TABLE_CSVS, stage / TABLES_DIR))]
        if files is None:
            steps += [(name, partial(write, source, stage / name))
                      for name, write, source in flat_files(sources_nq, merged_nt)]
        page_first = html and not small and room_for_the_page(triples or 0, memory_limit)
        left_out: list[str] = []
        if page_first:
            steps.append(("graph.html, while the store loads",
                          partial(run_yielding, _draw_page, stage / TABLES_DIR, stage / "graph.html", left_out)))
        elif html:
            steps.append(("page modules", _page_writer))
        steps.append(("waiting for the store", loading.result))
        for name, step in stage_bar(steps, progress, "writing"):
            step()
            clock.lap(name)
        store = loading.result()
        (stage / TABLE_CSVS).rmdir()
        if html and not page_first:
            # A small graph's page reads the store by SPARQL (DuckDB's start alone takes longer), a big
            # one's the tables alone.
            _draw_page(store if small else stage / TABLES_DIR, stage / "graph.html", left_out)
            clock.lap("graph.html")
        if files is not None:
            clock.beside(files.result())
            clock.lap("waiting for kg.trig, kg.ttl and kg.jsonld")
    finally:
        load.abandon()  # the thread's work is done (or, on an error here, waited for)
        if files is not None:
            files.cancel()  # nothing to stop once it answered
    del store, loading, steps, step  # the store closed: the folder is swapped in next
    return ["kg.trig", "kg.ttl", "kg.jsonld", STORE_DIR + "/", TABLES_DIR + "/", "identity.json"] + \
        (["graph.html"] if html else []), "".join(left_out)


def _draw_page(source, path: Path, left_out: list[str]) -> None:
    """The build's page of *source* (a store, or the folder of the tables) in *path*, at most
    :data:`kg.outputs.html.PAGE_MAX_NODES` nodes; what it left out added to *left_out*, with how to see the rest."""
    selection = _page_writer(tables=isinstance(source, Path))(source, path, max_nodes=PAGE_MAX_NODES)
    if selection.cut_nodes:
        left_out.append(f"{selection.note} {DRAW_MORE}")


def _page_writer(tables: bool = False):
    """:func:`kg.outputs.html.page.write_graph_html` (with *tables*, ``write_tables_page``), imported with
    what it needs (networkx, igraph for the layout, DuckDB for the tables the page may read)."""
    import duckdb  # noqa: F401

    from kg.graphs.backend import igraph
    from kg.outputs.html.page import write_graph_html, write_tables_page

    igraph()
    return write_tables_page if tables else write_graph_html
