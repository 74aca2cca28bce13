"""Reader for CSL-JSON (the citation format of Zotero, Mendeley, pandoc and citeproc): a JSON array
of items with ``title``, ``author`` (``family``/``given``), ``issued`` (``date-parts``),
``container-title`` and ``type``. Crossref's items are CSL-like (their titles are one-item lists);
:func:`work_of_item` reads both, and :mod:`kg.sources.workjson` uses it for Crossref.
"""

from __future__ import annotations

import re

from kg.records import Document, Skip, Span, VenueRef, Work
from kg.sources import fields, safe

_CSL_KEYS = re.compile(rb'"(?:issued|container-title|family|citation-key|date-parts)"')
_OTHER_FORMATS = re.compile(rb'"(?:authorships|publication_year|orcid-identifier|work-summary|message-type)"')


def sniff(head: bytes) -> bool:
    """A JSON array whose items look like CSL (``issued``, ``container-title``, ``family`` names)."""
    return (head.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"[" and bool(_CSL_KEYS.search(head))
            and not _OTHER_FORMATS.search(head))


def read(source) -> Document:
    doc = Document(path=source.name, format="csl-json", sha256="", subject=None)
    if not (loaded := safe.json_document(source, doc)):
        return doc
    text, data = loaded
    items = data if isinstance(data, list) else [data] if isinstance(data, dict) else None
    if items is None:
        doc.skipped.append(Skip(Span(source.name, 1, 1), "not CSL-JSON (expected an array of items); not read"))
        return doc
    read_items(items, (), safe.JsonLines(text), source.name, doc)
    return doc


def read_items(items: list, path: tuple, lines: safe.JsonLines, document: str, doc: Document) -> None:
    """Each CSL or Crossref item of *items* (found at JSON *path*) as a work, or a skip naming its place."""
    for n, item in enumerate(items):
        if not isinstance(item, dict):
            doc.skipped.append(Skip(lines.span(document, path + (n,)), "item is not a JSON object; not read"))
            continue
        work = work_of_item(item, lines, document, path + (n,))
        (doc.skipped if isinstance(work, Skip) else doc.facts).append(work)


def _first(value) -> str:
    """A string field, or the first of a list of strings (Crossref), whitespace normalised."""
    if isinstance(value, list):
        value = next((v for v in value if isinstance(v, str) and v.strip()), "")
    return " ".join(value.split()) if isinstance(value, str) else ""


def _name(person) -> str:
    if not isinstance(person, dict):
        return _first(person)
    if person.get("literal") or person.get("name"):
        return _first(person.get("literal") or person.get("name"))
    parts = [person.get(k) for k in ("given", "dropping-particle", "non-dropping-particle", "family")]
    name = " ".join(_first(p) for p in parts if _first(p))
    return f"{name} {_first(person['suffix'])}" if _first(person.get("suffix")) and name else name


def _year(item: dict) -> str | None:
    for key in ("issued", "published", "published-print", "published-online"):
        date = item.get(key)
        if isinstance(date, dict):
            parts = date.get("date-parts")
            if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0] and parts[0][0]:
                return fields.year_of(str(parts[0][0]))
            for text_key in ("raw", "literal"):
                if date.get(text_key):
                    return fields.year_of(str(date[text_key]))
        elif isinstance(date, (str, int)):
            return fields.year_of(str(date))
    return None


def work_of_item(item: dict, lines: safe.JsonLines, document: str, path: tuple) -> Work | Skip:
    """One CSL (or Crossref) item as a work."""
    title = _first(item.get("title")).rstrip(".")
    span = lines.span(document, path)
    why = fields.is_garbage_title(title) if title else "it has no title"
    if why:
        return Skip(span, f"item not read as a work: {why}")
    authors = []
    for person in item.get("author") or []:
        author = fields.author(_name(person))
        if author:
            authors.append(author)
    kind, type_status = fields.kind_and_status(_first(item.get("type")))
    kind = kind or "other"
    container = _first(item.get("container-title"))
    publisher = _first(item.get("publisher"))
    venue_name = container or (publisher if kind in ("thesis", "report", "book") or type_status else "")
    short = _first(item.get("container-title-short")) or _first(item.get("short-container-title"))
    venue = VenueRef(name=venue_name or None, acronym=short if short and short != venue_name else None) \
        if venue_name or short else None
    status = (fields.status_in(container, publisher, _first(item.get("genre")), _first(item.get("status")))
              or type_status or "published")
    return Work(title=title, span=span, authors=authors, kind=kind, status=status, venue=venue, year=_year(item),
                editors=[_name(e) for e in item.get("editor") or [] if _name(e)],
                doi=fields.clean_doi(_first(item.get("DOI") or item.get("doi"))),
                url=_first(item.get("URL") or item.get("url")) or None)
