"""Reader for RIS files (EndNote, Zotero, Mendeley, ORCID and publisher exports).

The file is cut into records at their ``TY  -`` lines (so each record keeps its lines and a
broken one costs only itself); rispy reads each record's tags. Authors (``AU``/``A1``) keep their
order, ``Family, Given`` turned round; a record printed twice is two works, as printed. Like
BibTeX, RIS names no owner: the author of most records is taken as the owner.
"""

from __future__ import annotations

import re

import rispy

from kg.records import Document, Skip, Span, VenueRef, Work
from kg.sources import fields
from kg.sources.decode import decode_text

_TAG = re.compile(r"^([A-Z][A-Z0-9])  -(?: |$)")
_START = re.compile(r"^TY  -(?: |$)")
_END = re.compile(r"^ER  -")
# Where RIS puts the venue, best first: full journal name, journal, secondary (book/conference) title,
# then the abbreviations (kept as an acronym when a full name is given).
_VENUE_KEYS = ("alternate_title3", "journal_name", "secondary_title")
_ABBREVIATION_KEYS = ("alternate_title2", "alternate_title1")


def sniff(head: bytes) -> bool:
    """An RIS file: its first line with text is a ``TY  -`` tag."""
    text = head.decode("utf-8", errors="replace").lstrip("\ufeff \t\r\n")
    return bool(_START.match(text))


def read(source) -> Document:
    """Every RIS record as a work, in file order."""
    text, warnings = decode_text(source.data, source.name)
    doc = Document(path=source.name, format="ris", sha256="", subject=None, skipped=list(warnings))
    records = list(_records(text.splitlines(), source.name, doc.skipped))
    if not records and not doc.skipped:
        doc.skipped.append(Skip(Span(source.name, 1, 1), "no RIS record (a 'TY  - ' line) found; "
                                                         "check that this is an RIS export"))
    for span, lines in records:
        work = _work(lines, span, doc.skipped)
        if work is not None:
            doc.facts.append(work)
    doc.subject = fields.frequent_author(doc.facts, source.name)
    return doc


def _records(lines: list[str], document: str, skipped: list[Skip]):
    """(span, lines) of each record from its ``TY`` line to its ``ER`` line."""
    start = None
    stray = None
    for number, line in enumerate(lines, 1):
        if _START.match(line):
            if start is not None:
                skipped.append(Skip(Span(document, start, number - 1), "record has no 'ER  - ' line; read up to "
                                                                      "the next record"))
                yield Span(document, start, number - 1), lines[start - 1:number - 1]
            start = number
        elif _END.match(line):
            if start is None:
                skipped.append(Skip(Span(document, number, number), "'ER  - ' line outside a record; ignored"))
            else:
                yield Span(document, start, number), lines[start - 1:number]
            start = None
        elif start is None and line.strip() and stray is None:
            stray = number
            skipped.append(Skip(Span(document, number, number), "text outside any RIS record (before a 'TY  - ' "
                                                                "line); not read"))
    if start is not None:
        end = len(lines)
        skipped.append(Skip(Span(document, start, end), "the last record has no 'ER  - ' line (is the file "
                                                        "cut short?); read what it has"))
        yield Span(document, start, end), lines[start - 1:]


def _work(lines: list[str], span: Span, skipped: list[Skip]) -> Work | None:
    body = [line for line in lines if not _END.match(line)] + ["ER  - "]
    try:
        parsed = rispy.loads("\n".join(body))
    except Exception as err:  # noqa: BLE001 - rispy rejects a malformed record: skip it, read the rest
        skipped.append(Skip(span, f"record not read ({err}); check its tags"))
        return None
    if not parsed:
        skipped.append(Skip(span, "record not read; check its tags"))
        return None
    record = parsed[0]
    span = Span(span.document, span.first_line, span.last_line, f"TY  - {record.get('type_of_reference', '')}".strip())
    title = " ".join(str(record.get("title") or record.get("primary_title") or "").split()).rstrip(".")
    why = fields.is_garbage_title(title) if title else "it has no title (TI or T1)"
    if why:
        skipped.append(Skip(span, f"record not read as a work: {why}"))
        return None
    kind, type_status = fields.kind_and_status(record.get("type_of_reference"))
    kind = kind or "other"
    authors = []
    for printed in list(record.get("first_authors") or []) + list(record.get("authors") or []):
        person = fields.author(printed)
        if person is not None:
            authors.append(person)
    venue = _venue(record)
    year = (fields.year_of(record.get("year")) or fields.year_of(record.get("publication_year"))
            or fields.year_of(record.get("date")))
    status = fields.status_in(venue.name or venue.acronym if venue else None) or type_status or "published"
    urls = record.get("urls") or []
    return Work(title=title, span=span, authors=authors, kind=kind, status=status, venue=venue, year=year,
                editors=[fields.turn_name(e) for e in record.get("secondary_authors") or [] if kind == "chapter"],
                doi=fields.clean_doi(record.get("doi")), url=urls[0] if urls else None)


def _venue(record: dict) -> VenueRef | None:
    unknown = record.get("unknown_tag") or {}
    names = [record.get(k) for k in _VENUE_KEYS] + list(unknown.get("BT", []))
    name = next((" ".join(str(n).split()) for n in names if n and str(n).strip()), None)
    abbreviation = next((" ".join(str(a).split()) for a in (record.get(k) for k in _ABBREVIATION_KEYS)
                         if a and str(a).strip()), None)
    if name is None and abbreviation is None:
        return None
    return VenueRef(name=name, acronym=abbreviation if abbreviation != name else None)
