"""Reader for HTML pages: homepages, publication pages, generated bibliographies.

In order of trust: schema.org items (JSON-LD, microdata, RDFa, read by extruct) give works
and owner directly; else entries whose fields are marked by class names
(:mod:`kg.sources.html_entries`); else the page's structure as markdown-like text
(:mod:`kg.sources.html_text`) goes to the free-text reader, with spans pointing back at
the page's lines. Nothing is fetched: the page is parsed with no network and no entities.

Run ``python -m kg.sources.html PAGE.html`` to see the text kg makes of a page.
"""

from __future__ import annotations

import re
import sys

import lxml.etree
import lxml.html

from kg.records import Document, Profile, Skip, Span, VenueRef, Work
from kg.sources.converted import MarkdownLines, looks_binary, read_converted
from kg.sources.decode import decode_text
from kg.sources.fields import person_key, year_of
from kg.sources.html_entries import entry_works, find_entries, page_owner
from kg.sources.html_text import to_markdown_lines
from kg.sources.registry import Source
from kg.sources.text import looks_like_person_name, split_author_list

_SNIFF = re.compile(rb"<(?:!doctype\s+html|html|head|body|meta|title|div|p|h[1-6]|ul|ol|table|section|article)[\s>/]",
                    re.I)
# schema.org types that are works, with the kind kg gives them.
WORK_TYPES = {"scholarlyarticle": "article", "medicalscholarlyarticle": "article", "book": "book",
              "chapter": "chapter", "thesis": "thesis", "report": "report", "creativework": "other"}
_SCHEMA = re.compile(r"^https?://schema\.org/", re.I)


def sniff(head: bytes) -> bool:
    """An HTML page or fragment: a tag HTML pages start with, and no NUL bytes."""
    return b"\0" not in head and bool(_SNIFF.search(head))


def parse(data: bytes, name: str) -> tuple[object | None, list[Skip]]:
    """The page's element tree (None with a skip if it is not HTML) and decoding warnings."""
    if looks_binary(data):
        return None, [Skip(Span(name, 1, 1),
                           "not an HTML page (binary data); check that the file is what its name says")]
    text, warnings = decode_text(data, name)
    parser = lxml.html.HTMLParser(no_network=True, remove_comments=True, remove_pis=True, default_doctype=False)
    try:
        root = lxml.html.document_fromstring(text, parser=parser)
    except (lxml.etree.ParserError, ValueError) as err:
        return None, warnings + [Skip(Span(name, 1, 1), f"not an HTML page ({err}); check the file")]
    return root, warnings


def to_markdown(data: bytes) -> str:
    """The page as markdown-like text (what the free-text reader gets)."""
    root, _ = parse(data, "page.html")
    return "" if root is None else _markdown(root).text()


def read(source: Source) -> Document:
    doc = Document(path=source.name, format="html-page", sha256="", subject=None)
    root, doc.skipped = parse(source.data, source.name)
    if root is None:
        return doc
    items = _schema_items(root)
    works = [w for item in items if (w := _schema_work(item, source.name))]
    entries = find_entries(root)
    owner = next((_name(i) for i in items if _type(i) == "person" and _name(i)), None)
    if works and len(works) >= len(entries):
        doc.format, doc.facts = "html-schema.org", works
    elif entries:
        doc.format = "html-entries"
        doc.facts, skips = entry_works(entries, source.name)
        doc.skipped += skips
        owner = owner or page_owner(root, entries)
    else:
        md = _markdown(root)
        if not md:
            doc.skipped.append(Skip(Span(source.name, 1, 1), "the page has no text; nothing to read"))
            return doc
        read_converted(md, doc, "html-page", f"python -m kg.sources.html {source.name}")
    owner = owner or _title_owner(root)
    if doc.subject is None and owner:
        doc.subject = Profile(owner, Span(source.name, 1, 1, place="page title"))
    elif owner and person_key(owner) == person_key(doc.subject.name) and len(owner) > len(doc.subject.name):
        doc.subject.name = owner  # the page names in full the person its text prints as "J. Doe"
    return doc


def _markdown(root) -> MarkdownLines:
    body = root.find("body")
    return to_markdown_lines(body if body is not None else root)


def _title_owner(root) -> str | None:
    """The page's title (or a part of it between separators) or first h1, where it is a person's name."""
    for el in (root.find(".//title"), root.find(".//h1")):
        if el is None:
            continue
        for part in re.split(r"\s+[|\-\u2013\u2014\u00b7:]\s+|\s*[|\u00b7]\s*", el.text_content().strip()):
            part = re.sub(r"\s+", " ", part).strip()
            if looks_like_person_name(part):
                return part
    return None


# --- schema.org -------------------------------------------------------------------------------

def _schema_items(root) -> list[dict]:
    """Top-level schema.org items of the page (JSON-LD, microdata, RDFa), properties without prefixes."""
    import extruct

    data = extruct.extract(root, syntaxes=["json-ld", "microdata"], uniform=True, errors="ignore")
    items = data.get("json-ld", []) + data.get("microdata", [])
    if root.find(".//*[@typeof]") is not None:
        rdfa = extruct.extract(lxml.html.tostring(root), syntaxes=["rdfa"], errors="ignore").get("rdfa", [])
        items += _from_expanded(rdfa)
    out = []
    for item in items:
        out += item.get("@graph", [item]) if isinstance(item, dict) else []
    return [i for i in out if isinstance(i, dict)]


def _from_expanded(nodes: list) -> list[dict]:
    """RDFa nodes in expanded JSON-LD (full IRIs, ``[{"@value": v}]``) as plain schema.org items;
    references between nodes are followed once."""
    by_id = {n.get("@id"): n for n in nodes if isinstance(n, dict)}

    def plain(node, depth=0):
        if not isinstance(node, dict):
            return node
        if "@value" in node:
            return node["@value"]
        if set(node) == {"@id"} and node["@id"] in by_id and depth < 3:
            node = by_id[node["@id"]]
        out = {}
        for key, value in node.items():
            if key == "@type":
                out["@type"] = [_SCHEMA.sub("", t) for t in value] if isinstance(value, list) else value
            elif _SCHEMA.match(key):
                values = [plain(v, depth + 1) for v in (value if isinstance(value, list) else [value])]
                out[_SCHEMA.sub("", key)] = values[0] if len(values) == 1 else values
        return out

    return [plain(n) for n in nodes if isinstance(n, dict) and any(_SCHEMA.match(str(t)) for t in _types(n))]


def _types(item: dict) -> list[str]:
    value = item.get("@type", [])
    return value if isinstance(value, list) else [value]


def _type(item: dict) -> str:
    return next((_SCHEMA.sub("", str(t)).lower() for t in _types(item)), "")


def _name(value) -> str | None:
    if isinstance(value, list):
        return _name(value[0]) if value else None
    if isinstance(value, dict):
        name = value.get("name") or " ".join(str(value.get(k, "")) for k in ("givenName", "familyName")).strip()
        return _name(name)
    return re.sub(r"\s+", " ", str(value)).strip() or None if value else None


def _schema_work(item: dict, document: str) -> Work | None:
    kind = WORK_TYPES.get(_type(item))
    title = _name(item.get("name") or item.get("headline"))
    if kind is None or not title:
        return None
    people = item.get("author") or item.get("creator") or []
    authors = []
    for person in people if isinstance(people, list) else [people]:
        name = _name(person)
        if name:
            authors += split_author_list(name) if isinstance(person, str) else split_author_list(name)[:1]
    year = year_of(item.get("datePublished") or item.get("dateCreated") or item.get("copyrightYear"))
    venue = item.get("isPartOf") or (item.get("publisher") if kind in ("book", "report", "thesis") else None)
    while isinstance(venue, dict) and isinstance(venue.get("isPartOf"), dict) and not venue.get("name"):
        venue = venue["isPartOf"]
    venue_name = _name(venue) if venue else None
    ids = " ".join(str(v) for k in ("identifier", "sameAs", "url") for v in _as_list(item.get(k)))
    doi = re.search(r"10\.\d{4,9}/[^\s\"'<>]+", ids)
    url = next((u for u in _as_list(item.get("url")) if isinstance(u, str)), None)
    return Work(title.rstrip(" ."), Span(document, 1, 1, place=f"schema.org {_type(item)}"), authors, kind=kind,
                venue=VenueRef(venue_name) if venue_name else None, year=year,
                doi=doi.group() if doi else None, url=url)


def _as_list(value) -> list:
    return value if isinstance(value, list) else [] if value is None else [value]


def main(argv: list[str]) -> int:
    for path in argv:
        with open(path, "rb") as f:
            sys.stdout.write(to_markdown(f.read()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
