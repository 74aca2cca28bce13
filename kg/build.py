"""The build: data folder -> records -> identity -> RDF -> files and store in the output folder.

:func:`build_graph` never stops at a bad document: it reports it in
``BuildReport.skipped`` (file, line, reason) and goes on with the rest.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from rdflib import Dataset, Graph

from kg.curation import CURATION_FILE, Curation
from kg.files import write_atomic
from kg.errors import UserError
from kg.identity import person_key, resolve, title_key
from kg.rdf import (
    CURATION_NEWNESS, CURATION_SOURCE, bind_prefixes, curation_graph, document_graph, merged_graph, serialize_jsonld,
    serialize_trig, source_iri,
)
from kg.records import Document, Skip, Span
from kg.sources import find_sources, read_source
from kg.store import ONTOLOGY_GRAPH, STORE_DIR

PROJECT_ROOT = Path(__file__).resolve().parent.parent
ONTOLOGY = PROJECT_ROOT / "ontology.ttl"
SHAPES = PROJECT_ROOT / "shapes.ttl"


@dataclass
class BuildReport:
    """What a build read, wrote and skipped."""

    documents: int = 0
    people: int = 0
    profiled: int = 0
    works: int = 0
    organizations: int = 0
    venues: int = 0
    triples: int = 0
    skipped: list[Skip] = field(default_factory=list)
    written: list[str] = field(default_factory=list)
    conforms: bool | None = None
    violations: list[str] = field(default_factory=list)

    def summary(self) -> str:
        lines = [
            f"read {self.documents} documents: {self.people} people ({self.profiled} profiled), {self.works} works, "
            f"{self.organizations} organizations, {self.venues} venues, {self.triples} triples",
            "wrote " + ", ".join(self.written),
        ]
        if self.conforms is not None:
            lines.append("validation: " + ("conforms to shapes.ttl" if self.conforms
                                           else f"{len(self.violations)} violations of shapes.ttl (run `kg validate`)"))
        lines.append(f"skipped: {len(self.skipped)}" + ("" if self.skipped else " (nothing)"))
        lines += [f"  {s}" for s in self.skipped]
        return "\n".join(lines)


def read_documents(data_dir: Path, progress: bool = False) -> tuple[list[Document], list[Skip]]:
    """Every document under *data_dir*, read, and everything passed over (files no reader takes,
    entries a reader could not use), each with its place and reason."""
    found, skipped = find_sources(data_dir, exclude=(CURATION_FILE,))
    if progress:
        from tqdm import tqdm

        found = tqdm(found, desc="reading", unit="doc", leave=False)
    docs = []
    for item in found:
        doc = read_source(item)
        skipped += doc.skipped
        if doc.subject is None and doc.facts:
            kinds = sorted({type(f).__name__ for f in doc.facts})
            skipped.append(Skip(Span(doc.path, 1, 1), f"no owner's name found, so its {', '.join(kinds)} "
                                                      "records cannot be attributed; put the name on the first line"))
        if doc.subject is not None or doc.facts:
            docs.append(doc)
    return docs, skipped


def build_graph(data_dir: str | Path, out_dir: str | Path, *, include_private: bool = False,
                progress: bool = False, validate: bool = True, html: bool = True) -> BuildReport:
    """Build the knowledge graph from the documents in *data_dir* into *out_dir*.

    Writes ``kg.trig`` (a named graph per source), ``kg.ttl`` and ``kg.jsonld`` (the merged
    view), ``store/`` (Oxigraph), ``identity.json`` (identity decisions) and ``graph.html``.
    Telephone numbers and street addresses are left out unless *include_private*.
    """
    data_dir, out_dir = Path(data_dir), Path(out_dir)
    if not data_dir.is_dir():
        raise UserError(f"data folder {data_dir}/ does not exist; create it and put documents in it")
    curation = Curation.load(data_dir / CURATION_FILE)
    docs, skipped = read_documents(data_dir, progress)
    report = BuildReport(documents=len(docs), skipped=skipped)
    report.skipped += [Skip(Span(str(data_dir / CURATION_FILE), 1, 1), m)
                       for m in curation.unknown_documents({d.path for d in docs})]
    for d in docs:
        d.latest_date = curation.document_dates.get(d.path, d.latest_date)
    res = resolve(docs, curation)
    problems = curation.check_against(
        {person_key(n) for p in res.people.values() for n in p.names},
        {title_key(t) for titles in res.work_titles.values() for _, t in titles})
    if problems:
        raise UserError("; ".join(problems))

    ds = Dataset()
    newness = {}
    for doc in docs:
        document_graph(ds, doc, res, doc.latest_date, include_private)
        newness[source_iri(doc.path)] = doc.latest_date or ""
    if curation_graph(ds, curation, res) is not None:
        newness[CURATION_SOURCE] = CURATION_NEWNESS
    merged = merged_graph(ds, newness)
    bind_prefixes(ds)
    bind_prefixes(merged)

    report.people = len(res.people)
    report.profiled = len(set(res.subject_of_document.values()))
    report.works = len(res.work_titles)
    report.organizations = len(res.org_info)
    report.venues = len(res.venue_names)
    report.triples = len(merged)

    out_dir.mkdir(parents=True, exist_ok=True)
    trig = serialize_trig(ds)
    ttl = merged.serialize(format="turtle").encode()
    jsonld = serialize_jsonld(merged)
    write_atomic(out_dir / "kg.trig", trig)
    write_atomic(out_dir / "kg.ttl", ttl)
    write_atomic(out_dir / "kg.jsonld", jsonld)
    decisions = sorted((d.as_dict() for d in res.decisions), key=lambda d: json.dumps(d, sort_keys=True))
    write_atomic(out_dir / "identity.json", (json.dumps(decisions, indent=1, ensure_ascii=False) + "\n").encode())
    _write_store(out_dir, trig, ttl)
    report.written = [str(out_dir / n) for n in ("kg.trig", "kg.ttl", "kg.jsonld", STORE_DIR + "/", "identity.json")]
    if html:
        written = _write_html(out_dir)
        if written:
            report.written.append(written)
    if validate:
        report.conforms, report.violations = validate_graph(merged)
    return report


def _write_store(out_dir: Path, trig: bytes, ttl: bytes) -> None:
    """Load a fresh Oxigraph store beside the old one, then swap it in."""
    import pyoxigraph as ox

    tmp = Path(tempfile.mkdtemp(prefix=".store.", dir=out_dir))
    try:
        store = ox.Store(str(tmp))
        store.bulk_load(input=trig, format=ox.RdfFormat.TRIG)
        store.bulk_load(input=ttl, format=ox.RdfFormat.TURTLE, to_graph=ox.DefaultGraph())
        store.bulk_load(path=str(ONTOLOGY), format=ox.RdfFormat.TURTLE, to_graph=ox.NamedNode(ONTOLOGY_GRAPH))
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


def _write_html(out_dir: Path) -> str | None:
    try:
        from kg.html import write_graph_html
    except ImportError:
        return None
    from kg.store import open_store

    path = out_dir / "graph.html"
    write_graph_html(open_store(out_dir), path)
    return str(path)


def validate_graph(graph: Graph) -> tuple[bool, list[str]]:
    """Check *graph* against ``shapes.ttl``: (conforms, one line per violation)."""
    import pyshacl

    shapes = Graph().parse(SHAPES, format="turtle")
    conforms, results, _ = pyshacl.validate(graph, shacl_graph=shapes, advanced=True, allow_warnings=True)
    from rdflib.namespace import SH

    lines = []
    for result in results.subjects(predicate=None, object=SH.ValidationResult):
        focus = results.value(result, SH.focusNode)
        path = results.value(result, SH.resultPath)
        message = results.value(result, SH.resultMessage)
        lines.append(f"{focus} {path}: {message}")
    return bool(conforms), sorted(lines)


def validate_output(out_dir: str | Path) -> tuple[bool, list[str]]:
    """Validate the merged graph a build wrote to ``out_dir/kg.ttl``."""
    ttl = Path(out_dir) / "kg.ttl"
    if not ttl.is_file():
        raise UserError(f"no {ttl}; run `kg build` first")
    return validate_graph(Graph().parse(ttl, format="turtle"))

