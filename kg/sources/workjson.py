"""Reader for work records saved from OpenAlex or Crossref as JSON.

OpenAlex: a work object, a list of them, or a results page (``{"results": [...]}``), with
``display_name``/``title``, ``authorships[].author.display_name``, ``publication_year``,
``primary_location.source.display_name`` and ``type``. Crossref: ``{"message": {...}}`` (one
work) or ``{"message": {"items": [...]}}``, read as CSL items by :mod:`kg.sources.csljson`.
Such files are about works, not a person: they have no owner.
"""

from __future__ import annotations

import re

from kg.records import Document, Skip, Span, VenueRef, Work
from kg.sources import csljson, fields, safe

_MARKS = re.compile(rb'"(?:authorships|publication_year|message-type)"|"id"\s*:\s*"https://openalex\.org/')


def sniff(head: bytes) -> bool:
    """OpenAlex (``authorships``, ``publication_year``) or Crossref (``message-type``) JSON."""
    return head.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] in (b"{", b"[") and bool(_MARKS.search(head))


def read(source) -> Document:
    doc = Document(path=source.name, format="work-json", sha256="", subject=None)
    if not (loaded := safe.json_document(source, doc)):
        return doc
    text, data = loaded
    lines = safe.JsonLines(text)
    if isinstance(data, dict) and isinstance(data.get("message"), dict):  # Crossref
        message = data["message"]
        if isinstance(message.get("items"), list):
            csljson.read_items(message["items"], ("message", "items"), lines, source.name, doc)
        else:
            work = csljson.work_of_item(message, lines, source.name, ("message",))
            (doc.skipped if isinstance(work, Skip) else doc.facts).append(work)
        return doc
    if isinstance(data, dict) and isinstance(data.get("results"), list):
        items, path = data["results"], ("results",)
    elif isinstance(data, list):
        items, path = data, ()
    elif isinstance(data, dict):
        items, path = [data], None
    else:
        doc.skipped.append(Skip(Span(source.name, 1, 1), "not an OpenAlex or Crossref work (expected a JSON object "
                                                         "or list); not read"))
        return doc
    for n, item in enumerate(items):
        where = () if path is None else path + (n,)
        place = "work" if path is None else safe.path_text(where)
        if not isinstance(item, dict):
            doc.skipped.append(Skip(lines.span(source.name, where, place), "item is not a JSON object; not read"))
            continue
        work = _openalex_work(item, lines.span(source.name, where, place))
        (doc.skipped if isinstance(work, Skip) else doc.facts).append(work)
    return doc


def _get(node, *path):
    for key in path:
        node = node.get(key) if isinstance(node, dict) else None
    return node


def _text(value) -> str:
    return " ".join(value.split()) if isinstance(value, str) else ""


def _openalex_work(item: dict, span: Span) -> Work | Skip:
    raw_title = _text(item.get("display_name")) or _text(item.get("title"))
    title = raw_title.rstrip(".")
    why = fields.is_garbage_title(title) if title else "it has no title"
    if why:
        return Skip(span, f"work not read: {why}")
    authors = []
    for authorship in item.get("authorships") or []:
        name = _text(_get(authorship, "author", "display_name")) or _text(_get(authorship, "raw_author_name"))
        author = fields.author(name) if name else None
        if author:
            authors.append(author)
    kind, type_status = fields.kind_and_status(_text(item.get("type")))
    kind = kind or "other"
    source = _get(item, "primary_location", "source") or {}
    venue_name = _text(_get(source, "display_name"))
    acronym = _text(_get(source, "abbreviated_title"))
    venue = VenueRef(name=venue_name or None, acronym=acronym or None) if venue_name or acronym else None
    year = item.get("publication_year")
    status = fields.status_in(venue_name) or type_status or "published"
    return Work(title=title, span=span, authors=authors, kind=kind, status=status, venue=venue,
                year=fields.year_of(str(year)) if year else fields.year_of(_text(item.get("publication_date"))),
                doi=fields.clean_doi(_text(item.get("doi"))),
                url=_text(_get(item, "primary_location", "landing_page_url")) or None)
