"""Reader for a dblp person page saved as XML (``https://dblp.org/pid/....xml``).

``<dblpperson name=...>`` is the owner; each ``<r>`` holds one publication (article,
inproceedings, incollection, book, proceedings, phdthesis, ...) with its authors in order, title,
year and journal or booktitle. dblp tells namesakes apart with a number after the name
(``Wei Wang 0002``): the number is not part of the printed name and is dropped. CoRR (arXiv)
items are preprints.
"""

from __future__ import annotations

import re

from kg.records import Document, Profile, Skip, Span, VenueRef, Work
from kg.sources import fields, safe

_HOMONYM_NUMBER = re.compile(r"\s+\d{4}$")
_PUBLICATION_TYPES = ("article", "inproceedings", "incollection", "book", "proceedings", "phdthesis",
                      "mastersthesis")


def sniff(head: bytes) -> bool:
    return b"<dblpperson" in head


def printed_name(name: str) -> str:
    """A dblp name without its homonym number.

    >>> printed_name("Wei Wang 0002"), printed_name("Ada Lovelace")
    ('Wei Wang', 'Ada Lovelace')
    """
    return _HOMONYM_NUMBER.sub("", " ".join(name.split()))


def read(source) -> Document:
    doc = Document(path=source.name, format="dblp", sha256="", subject=None)
    root = safe.parse_xml(source.data, source.name)
    if isinstance(root, Skip):
        doc.skipped.append(root)
        return doc
    if safe.local_name(root) != "dblpperson":
        doc.skipped.append(Skip(Span(source.name, root.sourceline or 1, root.sourceline or 1),
                                f"not a dblp person page (the root element is <{safe.local_name(root)}>); not read"))
        return doc
    name = printed_name(root.get("name") or "")
    if name:
        line = root.sourceline or 1
        doc.subject = Profile(name=name, span=Span(source.name, line, line, "dblpperson"))
    for n, record in enumerate(c for c in root if safe.local_name(c) == "r"):
        item = next((c for c in record if safe.local_name(c)), None)
        if item is None:
            continue
        kind_name = safe.local_name(item)
        first = item.sourceline or record.sourceline or 1
        span = Span(source.name, first, _last_line(item, first), f"{kind_name}{{{item.get('key') or n}}}")
        if kind_name not in _PUBLICATION_TYPES:
            doc.skipped.append(Skip(span, f"a dblp <{kind_name}> record is not a publication; not read as a work"))
            continue
        work = _work(item, kind_name, span)
        if isinstance(work, Skip):
            doc.skipped.append(work)
        else:
            doc.facts.append(work)
    return doc


def _last_line(element, first: int) -> int:
    return max((d.sourceline or first for d in element.iter()), default=first)


def _field(item, name: str) -> str:
    element = next((c for c in item if safe.local_name(c) == name), None)
    return safe.xml_text(element)


def _work(item, kind_name: str, span: Span) -> Work | Skip:
    title = _field(item, "title").rstrip(".")
    if not title or fields.is_garbage_title(title):
        return Skip(span, "dblp record without a usable title; not read")
    authors = [a for a in (fields.author(printed_name(safe.xml_text(c)))
                           for c in item if safe.local_name(c) == "author") if a]
    editors = [printed_name(safe.xml_text(c)) for c in item if safe.local_name(c) == "editor"]
    kind, type_status = fields.kind_and_status(kind_name)
    kind = kind or "other"
    venue_name = next((v for tag in ("journal", "booktitle", "school", "publisher") if (v := _field(item, tag))), None)
    venue = VenueRef(name=venue_name) if venue_name else None
    status = fields.status_in(venue_name) or type_status or "published"
    ee = _field(item, "ee")
    return Work(title=title, span=span, authors=authors, kind=kind, status=status, venue=venue,
                year=fields.year_of(_field(item, "year")), editors=editors,
                doi=fields.clean_doi(ee) if "doi" in ee else None, url=ee or None)
