"""Reader for thesis records from repositories: DSpace / OAI-PMH Dublin Core XML (``oai_dc:dc``),
DSpace's own ``dim`` fields, and MODS (``titleInfo``, ``name`` with roles).

``dc:creator`` is the author (and the record's owner); ``dc:contributor`` are advisers and
readers, never authors. Of several ``dc:date`` values the year is that of a date without a
clock time (accession and availability stamps carry one), else the earliest. The XML is parsed
by lxml with no entity expansion and no network.
"""

from __future__ import annotations

import re

from kg.records import Author, Document, Education, OrgRef, Period, Profile, Skip, Span, VenueRef, Work
from kg.sources.fields import kind_and_status, year_of
from kg.sources.registry import Source
from kg.sources.safe import local_name, parse_xml
from kg.sources.sections import ORG_WORDS
from kg.sources.text import clean_person_name
from kg.words import word_list, word_table

DC = "http://purl.org/dc/elements/1.1/"
MODS = "http://www.loc.gov/mods/v3"
_SNIFF = re.compile(rb"<(?:[\w-]+:)?(?:dc|dim|mods)\b[^>]*(?:purl\.org/dc/elements|dspace\.org/xmlns/dspace/dim|"
                    rb"loc\.gov/mods)|xmlns(?::\w+)?=\"http://purl\.org/dc/elements/1\.1/\"")
#: Contributor roles that are authors (DIM ``contributor.author``, MODS ``author``/``creator``).
_AUTHOR_ROLES = {"author", "creator", "aut", "cre"}


def sniff(head: bytes) -> bool:
    """XML with Dublin Core, DSpace DIM or MODS metadata."""
    return head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<") and bool(_SNIFF.search(head))


def read(source: Source) -> Document:
    """Read the thesis (or other) records of one repository XML file."""
    name = source.name
    doc = Document(path=name, format="dspace-xml", sha256="", subject=None)
    root = parse_xml(source.data, name)
    if isinstance(root, Skip):
        doc.skipped.append(root)
        return doc
    records = _records(root)
    if not records:
        doc.skipped.append(Skip(Span(name, 1, 1), "no Dublin Core, DIM or MODS record with a title in this XML"))
        return doc
    for fields, line in records:
        span = Span(name, line, line)
        if not fields.get("title"):
            doc.skipped.append(Skip(span, "a record with no title; not read"))
            continue
        work, education = _work(fields, span)
        doc.facts.append(work)
        if education:
            doc.facts.append(education)
    creators = {a.name for w in doc.of_type(Work) for a in w.authors}
    if len(creators) == 1:  # one person's record(s): the author is the owner
        first = doc.of_type(Work)[0]
        doc.subject = Profile(creators.pop(), first.span)
    years = [w.year for w in doc.of_type(Work) if w.year]
    doc.latest_date = max(years) if years else None
    return doc


def _text(el) -> str:
    return re.sub(r"\s+", " ", "".join(el.itertext())).strip()


def _records(root) -> list[tuple[dict, int]]:
    """Each record's fields as {field: [(value, qualifier)]}, with the record's line."""
    out = []
    for el in root.iter():
        local = local_name(el)
        if local == "dim" and any(local_name(c) == "field" for c in el):
            out.append((_dim_fields(el), el.sourceline or 1))
        elif local == "mods":
            out.append((_mods_fields(el), el.sourceline or 1))
        elif any(isinstance(c.tag, str) and c.tag == f"{{{DC}}}title" for c in el):
            fields: dict = {}
            for c in el:
                if isinstance(c.tag, str) and c.tag.startswith(f"{{{DC}}}"):
                    fields.setdefault(local_name(c), []).append((_text(c), None))
            out.append((fields, el.sourceline or 1))
    return out


def _dim_fields(el) -> dict:
    fields: dict = {}
    for c in el:
        if local_name(c) != "field":
            continue
        schema, element, qualifier = c.get("mdschema"), c.get("element"), c.get("qualifier")
        if schema == "thesis" and element == "degree":
            fields.setdefault("degree", []).append((_text(c), qualifier))
        elif schema == "dc" and element:
            if element == "contributor" and qualifier in _AUTHOR_ROLES:
                element = "creator"
            fields.setdefault(element, []).append((_text(c), qualifier))
    return fields


def _mods_fields(el) -> dict:
    fields: dict = {}
    m = f"{{{MODS}}}"
    for title in el.iter(f"{m}titleInfo"):
        parts = [_text(t) for t in title if local_name(t) in ("title", "subTitle")]
        fields.setdefault("title", []).append((": ".join(p for p in parts if p), None))
        break
    for person in el.iter(f"{m}name"):
        parts = {p.get("type") or "": _text(p) for p in person.iter(f"{m}namePart")}
        full = parts.get("", "") or ", ".join(p for p in (parts.get("family"), parts.get("given")) if p)
        roles = {_text(r).lower() for r in person.iter(f"{m}roleTerm")}
        fields.setdefault("creator" if roles & _AUTHOR_ROLES or not roles else "contributor", []).append((full, None))
    for tag, field, qualifier in (("dateIssued", "date", "issued"), ("dateCreated", "date", "created"),
                                  ("genre", "type", None), ("publisher", "publisher", None),
                                  ("abstract", "description", None), ("identifier", "identifier", None)):
        for x in el.iter(f"{m}{tag}"):
            fields.setdefault(field, []).append((_text(x), qualifier))
    return fields


def _values(fields: dict, key: str) -> list[str]:
    return [v for v, _ in fields.get(key, []) if v]


def pick_year(dates: list[tuple[str, str | None]]) -> str | None:
    """The year of issue among a record's dates: a date qualified ``issued``, else one without a
    clock time (accession stamps have one), else the earliest.

    >>> pick_year([("2013-07-10T17:10:21Z", None), ("2012-04-03", None), ("2013-07-10", None)])
    '2012'
    >>> pick_year([("2014-01-02T10:00:00Z", "accessioned"), ("1985", "issued")])
    '1985'
    """
    issued = [year_of(v) for v, q in dates if q == "issued" and year_of(v)]
    if issued:
        return issued[0]
    plain = [year_of(v) for v, _ in dates if "T" not in v and year_of(v)]
    years = plain or [year_of(v) for v, _ in dates if year_of(v)]
    return min(years) if years else None


def _matches(text: str, words) -> str | None:
    low = text.lower()
    for w in sorted(words, key=len, reverse=True):
        if re.search(r"(?<!\w)" + re.escape(w) + r"(?!\w)", low):
            return w
    return None


def _degree_level(text: str) -> str | None:
    return next((level for level, words in word_table("degree-levels").items() if _matches(text, words)), None)


def _institution_from_type(types: list[str]) -> str | None:
    """``"Princeton University Senior Theses"`` -> ``"Princeton University"``: a repository's thesis
    collection named after its institution."""
    for t in types:
        rest = t
        for w in sorted(word_list("thesis-words"), key=len, reverse=True):
            rest = re.sub(r"(?<!\w)" + re.escape(w) + r"(?!\w)", " ", rest, flags=re.I)
        rest = re.sub(r"^[\s,&-]*(?:and\b)?|(?:\band)?[\s,&()-]*$", "", re.sub(r"\s+", " ", rest)).strip()
        if rest and rest != t and ORG_WORDS.search(rest):
            return rest
    return None


def _work(fields: dict, span: Span) -> tuple[Work, Education | None]:
    types = _values(fields, "type")
    degrees = [v for v, q in fields.get("degree", []) if q in ("name", "level", None) and v]
    type_text = " ".join(types + degrees)
    level = _degree_level(type_text)
    is_thesis = bool(level) or bool(_matches(type_text, [w for w in word_list("thesis-words")
                                                          if kind_and_status(w)[0] == "thesis"
                                                          or w in ("theses", "dissertations")]))
    kind, status = ("thesis", None) if is_thesis else kind_and_status(types)
    grantor = [v for v, q in fields.get("degree", []) if q == "grantor" and v]
    institution = (_values(fields, "publisher") or grantor or [None])[0] or _institution_from_type(types)
    identifiers = _values(fields, "identifier")
    doi = next((m.group(0) for i in identifiers for m in [re.search(r"10\.\d{4,9}/\S+", i)] if m), None)
    url = next((i for i in identifiers if i.startswith(("http://", "https://"))), None)
    supervisors = [clean_person_name(v) for v in _values(fields, "contributor")]
    title = _values(fields, "title")[0].rstrip(".")
    year = pick_year(fields.get("date", []))
    work = Work(title=title, span=span, kind=kind or "other", status=status or "published",
                authors=[Author(v, clean_person_name(v)) for v in _values(fields, "creator")],
                venue=VenueRef(institution) if institution else None, year=year,
                supervisors=supervisors, institution=OrgRef(institution) if institution and is_thesis else None,
                doi=doi, url=url, abstract=(_values(fields, "description") or [None])[0])
    education = None
    if is_thesis and level:
        degree = next((d for d in degrees if d), None)
        education = Education(degree=degree, institution=OrgRef(institution) if institution else None,
                              period=Period(end=year), span=span, level=level, thesis_title=title,
                              supervisors=list(supervisors))
    return work, education
