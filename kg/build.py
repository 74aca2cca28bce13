"""The build: data folder -> records -> identity -> RDF -> files and store in the output folder.

:func:`build_graph` never stops at a bad document: it reports it in
``BuildReport.skipped`` (file, line, reason) and goes on with the rest.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from rdflib import Dataset, Graph

from kg.data import shapes_ttl
from kg.errors import UserError
from kg.files import write_atomic
from kg.identity.curation import CURATION_FILE, Curation
from kg.identity.keys import person_key, title_key
from kg.identity.resolution import Resolution
from kg.identity.resolve import resolve
from kg.outputs.html.page import write_graph_html
from kg.rdf.curation import curation_graph
from kg.rdf.mapping import document_graph
from kg.rdf.merge import CURATION_NEWNESS, merged_graph
from kg.rdf.serialize import bind_prefixes, serialize_jsonld, serialize_trig
from kg.rdf.terms import CURATION_SOURCE, source_iri
from kg.records import Document, Skip, Span, Work
from kg.sources import find_sources, read_source
from kg.store import STORE_DIR, open_store, write_store


@dataclass
class DocumentReport:
    """What one document gave the graph, and how much of it was passed over."""

    path: str
    works: int = 0
    people: int = 0
    skipped: int = 0

    def line(self) -> str:
        return f"  {self.path}: {self.works} works, {self.people} people, {self.skipped} skipped"


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
    per_document: list[DocumentReport] = field(default_factory=list)

    def summary(self) -> str:
        lines = [
            f"read {self.documents} documents: {self.people} people ({self.profiled} profiled), {self.works} works, "
            f"{self.organizations} organizations, {self.venues} venues, {self.triples} triples",
            *(d.line() for d in self.per_document),
            "wrote " + ", ".join(self.written),
        ]
        if self.conforms is not None:
            lines.append("validation: " + ("conforms to shapes.ttl" if self.conforms
                                           else f"{len(self.violations)} violations of shapes.ttl (run `kg validate`)"))
        lines.append(f"skipped: {len(self.skipped)}" + ("" if self.skipped else " (nothing)"))
        lines += [f"  {s}" for s in self.skipped]
        return "\n".join(lines)


def _ownerless_skip(doc: Document) -> Skip | None:
    """A document without an owner gives its works; facts about an owner (positions, awards...) it cannot."""
    kinds = Counter(type(f).__name__ for f in doc.facts if not isinstance(f, Work))
    if doc.subject is not None or not kinds:
        return None
    what = ", ".join(f"{n} {k}" for k, n in sorted(kinds.items()))
    return Skip(Span(doc.path, 1, 1), f"no owner's name found, so {what} records are not attributed to anyone "
                                      "(its works are); put the owner's name on the first line if it has one")


def read_documents(data_dir: Path, progress: bool = False) -> tuple[list[Document], list[Skip]]:
    """Every document under *data_dir*, read, and everything passed over (files no reader takes,
    entries a reader could not use), each with its place and reason.

    A document without an owner (a group page, a lab bibliography) is read like any other.
    """
    found, skipped = find_sources(data_dir, exclude=(CURATION_FILE,))
    if progress:
        from tqdm import tqdm

        found = tqdm(found, desc="reading", unit="doc", leave=False)
    docs = []
    for item in found:
        doc = read_source(item)
        skipped += doc.skipped
        ownerless = _ownerless_skip(doc)
        if ownerless is not None:
            skipped.append(ownerless)
        if doc.subject is not None or doc.facts:
            docs.append(doc)
    return docs, skipped


def _per_document(docs: list[Document], res: Resolution, skipped: list[Skip]) -> list[DocumentReport]:
    reports = {d.path: DocumentReport(d.path, skipped=len(d.skipped) + (_ownerless_skip(d) is not None))
               for d in docs}
    for titles in res.work_titles.values():
        for path in {p for p, _ in titles}:
            reports[path].works += 1
    for person in res.people.values():
        for path in person.documents:
            reports[path].people += 1
    return [reports[p] for p in sorted(reports)]


def to_rdf(docs: list[Document], curation: Curation, res: Resolution, include_private: bool):
    """The per-source dataset and the merged view."""
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
    return ds, merged


def build_graph(data_dir: str | Path, out_dir: str | Path, *, include_private: bool = False,
                progress: bool = False, validate: bool = True, html: bool = True) -> BuildReport:
    """Build the knowledge graph from the documents in *data_dir* into *out_dir*.

    Writes ``kg.trig`` (a named graph per source), ``kg.ttl`` and ``kg.jsonld`` (the merged
    view), ``store/`` (Oxigraph), ``identity.json`` (identity decisions) and, with *html*,
    ``graph.html``. Telephone numbers and street addresses are left out unless *include_private*.
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
    ds, merged = to_rdf(docs, curation, res, include_private)

    report.people = len(res.people)
    report.profiled = len(set(res.subject_of_document.values()))
    report.works = len(res.work_titles)
    report.organizations = len(res.org_info)
    report.venues = len(res.venue_names)
    report.triples = len(merged)
    report.per_document = _per_document(docs, res, report.skipped)

    out_dir.mkdir(parents=True, exist_ok=True)
    trig = serialize_trig(ds)
    ttl = merged.serialize(format="turtle").encode()
    write_atomic(out_dir / "kg.trig", trig)
    write_atomic(out_dir / "kg.ttl", ttl)
    write_atomic(out_dir / "kg.jsonld", serialize_jsonld(merged))
    decisions = sorted((d.as_dict() for d in res.decisions), key=lambda d: json.dumps(d, sort_keys=True))
    write_atomic(out_dir / "identity.json", (json.dumps(decisions, indent=1, ensure_ascii=False) + "\n").encode())
    write_store(out_dir, trig, ttl)
    report.written = [str(out_dir / n) for n in ("kg.trig", "kg.ttl", "kg.jsonld", STORE_DIR + "/", "identity.json")]
    if html:
        path = out_dir / "graph.html"
        write_graph_html(open_store(out_dir), path)
        report.written.append(str(path))
    if validate:
        report.conforms, report.violations = validate_graph(merged)
    return report


def validate_graph(graph: Graph) -> tuple[bool, list[str]]:
    """Check *graph* against ``shapes.ttl``: (conforms, one line per violation)."""
    import pyshacl
    from rdflib.namespace import SH

    shapes = Graph().parse(data=shapes_ttl(), format="turtle")
    conforms, results, _ = pyshacl.validate(graph, shacl_graph=shapes, advanced=True, allow_warnings=True)
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
