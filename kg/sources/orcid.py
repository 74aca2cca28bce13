"""Reader for ORCID records: the public record as JSON or XML (API v2 and v3), a ``/works``
answer, or a single ``/work/ID``.

The record's person is the owner (with the ORCID iD). Each works group is one work (ORCID groups
the copies of a work that several sources sent); its first summary gives title, type, year and,
where present, the journal. Summaries carry no author lists: such works have no authors and
``authors_not_listed``, and the pipeline credits them to the owner.
"""

from __future__ import annotations

import re

from kg.records import Document, Profile, Skip, Span, VenueRef, Work
from kg.sources import fields, safe

_JSON_MARKS = re.compile(rb'"(?:orcid-identifier|activities-summary|work-summary|put-code)"')


def sniff(head: bytes) -> bool:
    """An ORCID record, works list or work, in JSON or XML."""
    if head.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] in (b"{", b"["):
        return bool(_JSON_MARKS.search(head))
    return b"http://www.orcid.org/ns/" in head


def read(source) -> Document:
    doc = Document(path=source.name, format="orcid", sha256="", subject=None)
    if source.data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"<":
        _read_xml(source.data, source.name, doc)
        return doc
    if not (loaded := safe.json_document(source, doc)):
        return doc
    text, data = loaded
    _read_json(data, safe.JsonLines(text), source.name, doc)
    return doc


# --- JSON ---------------------------------------------------------------------------------

def _value(node, *path):
    """``node[path...]`` through ORCID's ``{"value": ...}`` wrappers; None where anything is missing."""
    for key in path:
        if not isinstance(node, dict):
            return None
        node = node.get(key)
    if isinstance(node, dict) and "value" in node:
        node = node["value"]
    return node if isinstance(node, (str, int)) and str(node).strip() else None


def _read_json(data, lines: safe.JsonLines, document: str, doc: Document) -> None:
    if not isinstance(data, dict):
        doc.skipped.append(Skip(Span(document, 1, 1), "not an ORCID record (expected a JSON object); not read"))
        return
    doc.subject = _person_json(data, document)
    if "put-code" in data and "title" in data and "work-summary" not in data:  # a single /work/ID
        work = _work_json(data, lines.span(document, (), "work"), doc.skipped)
        if work:
            doc.facts.append(work)
        return
    at = ("activities-summary", "works") if "activities-summary" in data else ()
    works = data.get("activities-summary", {}).get("works", {}) if at else data
    groups = works.get("group") if isinstance(works, dict) else None
    if not isinstance(groups, list):
        doc.skipped.append(Skip(Span(document, 1, 1), "ORCID record without a works list; no works read"))
        return
    for n, group in enumerate(groups):
        summaries = group.get("work-summary") if isinstance(group, dict) else None
        place = f"works.group[{n}]"
        if not summaries or not isinstance(summaries, list):
            doc.skipped.append(Skip(Span(document, 1, 1, place), "works group without a work summary; not read"))
            continue
        work = _work_json(summaries[0], lines.span(document, at + ("group", n, "work-summary", 0), place), doc.skipped)
        if work:
            doc.facts.append(work)


def _person_json(data: dict, document: str) -> Profile | None:
    person = data.get("person") if isinstance(data.get("person"), dict) else {}
    name = person.get("name") if isinstance(person.get("name"), dict) else {}
    printed = _value(name, "credit-name") or " ".join(
        str(p) for p in (_value(name, "given-names"), _value(name, "family-name")) if p)
    if not printed:
        return None
    orcid = _value(data, "orcid-identifier", "uri") or _value(data, "orcid-identifier", "path")
    if orcid and not str(orcid).startswith("http"):
        orcid = f"https://orcid.org/{orcid}"
    return Profile(name=" ".join(str(printed).split()), span=Span(document, 1, 1, "person.name"), orcid=orcid)


def _work_json(summary, span: Span, skipped: list[Skip]) -> Work | None:
    title = _value(summary, "title", "title") if isinstance(summary, dict) else None
    if not title or fields.is_garbage_title(str(title)):
        skipped.append(Skip(span, "work without a usable title; not read"))
        return None
    contributors = summary.get("contributors", {}) or {}
    people = contributors.get("contributor") if isinstance(contributors, dict) else None
    authors = []
    for person in people or []:
        role = _value(person, "contributor-attributes", "contributor-role") or "author"
        name = _value(person, "credit-name")
        if name and str(role).lower() in ("author", "first", "additional", "co-author", "co_author"):
            author = fields.author(str(name))
            if author:
                authors.append(author)
    ids = (summary.get("external-ids") or {}).get("external-id") or []
    doi = next((i.get("external-id-value") for i in ids
                if isinstance(i, dict) and str(i.get("external-id-type", "")).lower() == "doi"), None)
    return _work(str(title), span, _value(summary, "type"), _value(summary, "publication-date", "year"),
                 _value(summary, "journal-title"), authors, doi, _value(summary, "url"))


def _work(title, span, type_name, year, journal, authors, doi, url) -> Work:
    kind, type_status = fields.kind_and_status(str(type_name or "").lower())
    kind = kind or "other"
    venue = VenueRef(name=" ".join(str(journal).split())) if journal else None
    status = fields.status_in(venue.name if venue else None) or type_status or "published"
    return Work(title=" ".join(title.split()), span=span, authors=authors, kind=kind, status=status, venue=venue,
                year=fields.year_of(str(year)) if year else None, doi=fields.clean_doi(doi),
                url=str(url) if url else None, authors_not_listed=not authors)


# --- XML ----------------------------------------------------------------------------------

def _find(element, *names):
    """The first descendant along the path of local names *names* (each a direct child)."""
    for name in names:
        if element is None:
            return None
        element = next((c for c in element if safe.local_name(c) == name), None)
    return element


def _children(element) -> list:
    return list(element) if element is not None else []


def _read_xml(data: bytes, document: str, doc: Document) -> None:
    root = safe.parse_xml(data, document)
    if isinstance(root, Skip):
        doc.skipped.append(root)
        return
    name = _find(root, "person", "name")
    printed = safe.xml_text(_find(name, "credit-name")) or " ".join(
        t for t in (safe.xml_text(_find(name, "given-names")), safe.xml_text(_find(name, "family-name"))) if t)
    if printed:
        ident = _find(root, "orcid-identifier", "uri")
        line = name.sourceline or 1
        doc.subject = Profile(name=printed, span=Span(document, line, line, "person/name"),
                              orcid=safe.xml_text(ident) or None)
    if safe.local_name(root) == "work":
        groups = [(root, "work")]
    else:
        works = _find(root, "activities-summary", "works") if safe.local_name(root) == "record" else root
        in_works = [c for c in (works if works is not None else []) if safe.local_name(c) == "group"]
        groups = [(next((c for c in g if safe.local_name(c) == "work-summary"), None), f"works/group[{n}]")
                  for n, g in enumerate(in_works)]
    if not groups:
        doc.skipped.append(Skip(Span(document, 1, 1), "ORCID XML without works; no works read"))
    for summary, place in groups:
        line = summary.sourceline if summary is not None else 1
        span = Span(document, line or 1, line or 1, place)
        title = safe.xml_text(_find(summary, "title", "title"))
        if not title or fields.is_garbage_title(title):
            doc.skipped.append(Skip(span, "work without a usable title; not read"))
            continue
        authors = []
        for contributor in _children(_find(summary, "contributors")):
            person = fields.author(safe.xml_text(_find(contributor, "credit-name")))
            if person:
                authors.append(person)
        doi = next((safe.xml_text(_find(i, "external-id-value")) for i in _children(_find(summary, "external-ids"))
                    if safe.xml_text(_find(i, "external-id-type")).lower() == "doi"), None)
        doc.facts.append(_work(title, span, safe.xml_text(_find(summary, "type")),
                               safe.xml_text(_find(summary, "publication-date", "year")),
                               safe.xml_text(_find(summary, "journal-title")), authors, doi,
                               safe.xml_text(_find(summary, "url")) or None))
