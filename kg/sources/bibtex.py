"""Reader for BibTeX files (Google Scholar, Zotero / Better-BibTeX, al-folio sites, CV bibliographies).

bibtexparser 2 splits the file into entries (with their first line) and reports the entries it
cannot parse, which are skipped with their place while the rest is read; pylatexenc decodes LaTeX
(accents, braces, ``\\&``). Authors keep their printed order; ``and others`` marks et al.; marks
inside author fields (``Name*``, ``Name$^\\dagger$``) are taken off the name and recorded. A
BibTeX file names no owner: the author of most entries is taken as the owner (a CV bibliography,
an al-folio site), see :func:`kg.sources.fields.frequent_author`.
"""

from __future__ import annotations

import logging
import re

import bibtexparser
from bibtexparser.middlewares.names import parse_single_name_into_parts, split_multiple_persons_names
from bibtexparser.model import DuplicateFieldKeyBlock, Entry, ParsingFailedBlock, String
from pylatexenc.latex2text import LatexNodes2Text

from kg.records import Document, Skip, Span, VenueRef, Work
from kg.sources.decode import decode_text
from kg.sources.fields import (
    author,
    clean_doi,
    frequent_author,
    is_garbage_title,
    kind_and_status,
    mark_et_al,
    status_in,
    year_of,
)

# bibtexparser logs every entry it cannot parse; this reader reports them as skips instead.
logging.getLogger("bibtexparser").setLevel(logging.CRITICAL)

_LATEX = LatexNodes2Text()
# Where a venue is printed, in order of preference; then any field whose name ends in "venue"
# (al-folio's custom ``_venue``), then the issuing body.
_VENUE_FIELDS = ("journal", "journaltitle", "booktitle")
_BODY_FIELDS = ("howpublished", "institution", "school", "organization", "publisher")
_THESIS_BODY_FIELDS = ("school", "institution")


def read(source) -> Document:
    """Every entry of a BibTeX file as a work, with the entries that cannot be read skipped."""
    text, warnings = decode_text(source.data, source.name)
    doc = Document(path=source.name, format="bibtex", sha256="", subject=None, skipped=list(warnings))
    library = bibtexparser.parse_string(text, parse_stack=[])
    strings = {b.key.lower(): _unenclose(b.value) for b in library.blocks if isinstance(b, String)}
    for block in library.blocks:
        entry, note = _entry_of(block)
        if entry is None:
            if isinstance(block, ParsingFailedBlock):
                doc.skipped.append(_failed(block, source.name))
            continue
        span = _span(entry, source.name)
        if note:
            doc.skipped.append(Skip(span, note))
        work = _work(entry, strings, span, doc.skipped)
        if work is not None:
            doc.facts.append(work)
    if not doc.facts and not any(isinstance(b, (Entry, ParsingFailedBlock)) for b in library.blocks):
        doc.skipped.append(Skip(Span(source.name, 1, 1), "no BibTeX entry (@article{...}) found; "
                                                         "check that this is a BibTeX file"))
    doc.subject = frequent_author(doc.facts, source.name)
    return doc


def _entry_of(block) -> tuple[Entry | None, str | None]:
    """The entry a block holds and a note on what was repaired; None for comments and failures."""
    if isinstance(block, Entry):
        return block, None
    if isinstance(block, DuplicateFieldKeyBlock):
        entry = block.ignore_error_block
        seen, fields = set(), []
        for field in entry.fields:
            if field.key.lower() not in seen:
                seen.add(field.key.lower())
                fields.append(field)
        entry.fields = fields
        keys = ", ".join(sorted(block.duplicate_keys))
        return entry, f"fields given twice ({keys}): the first of each was read; remove the others"
    if isinstance(block, ParsingFailedBlock) and isinstance(block.ignore_error_block, (Entry, ParsingFailedBlock)):
        inner, note = _entry_of(block.ignore_error_block)  # a key used twice: still a work of its own
        return inner, note
    return None, None


def _span(entry: Entry, document: str) -> Span:
    first = (entry.start_line or 0) + 1
    last = first + (entry.raw or "").rstrip().count("\n")
    return Span(document, first, last, f"@{entry.entry_type}{{{entry.key}}}")


def _failed(block: ParsingFailedBlock, document: str) -> Skip:
    raw = block.raw or ""
    first = (block.start_line or 0) + 1
    head = raw.split(",", 1)[0].split("\n", 1)[0].strip()[:80]
    why = getattr(block.error, "abort_reason", None) or str(block.error) or type(block.error).__name__
    place = head + "}" if head.startswith("@") and "{" in head else None
    return Skip(Span(document, first, first + raw.rstrip().count("\n"), place),
                f"entry not read: {why.strip()}; check its braces and quotes")


def _unenclose(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and (value[0], value[-1]) in (("{", "}"), ('"', '"')):
        return value[1:-1]
    return value


def _value(raw: str, strings: dict[str, str]) -> str:
    """A field's text: enclosing braces or quotes removed, ``@string`` macros and ``#`` joins resolved."""
    raw = raw.strip()
    if raw[:1] in "{\"" and _unenclose(raw) != raw and "#" not in raw:
        return _unenclose(raw)
    parts = _top_level_parts(raw)
    return "".join(strings.get(p.lower(), p) if p[:1] not in "{\"" else _unenclose(p) for p in parts)


def _top_level_parts(raw: str) -> list[str]:
    """*raw* split at the ``#`` outside braces and quotes."""
    parts, depth, quoted, start = [], 0, False, 0
    for i, ch in enumerate(raw):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == '"' and depth == 0:
            quoted = not quoted
        elif ch == "#" and depth == 0 and not quoted:
            parts.append(raw[start:i].strip())
            start = i + 1
    parts.append(raw[start:].strip())
    return [p for p in parts if p]


def decode_latex(raw: str) -> str:
    """Plain text of a LaTeX field value, whitespace normalised.

    >>> decode_latex(r"Echoes through {{Time}}: Andr{\\'e} M{\\"u}ller \\& Co")
    'Echoes through Time: André Müller & Co'
    """
    try:
        text = _LATEX.latex_to_text(raw.replace("%", "\\%"))
    except Exception:  # noqa: BLE001 - pylatexenc gives up on odd input: keep the text without braces
        text = raw.replace("{", "").replace("}", "")
    return " ".join(text.split())


def _people(raw: str, where: Span, skipped: list[Skip]) -> list:
    """The people of an ``author``/``editor`` field in order; ``and others`` marks et al."""
    people = []
    for part in split_multiple_persons_names(raw):
        if part.strip().lower() in ("others", "{others}", "et al.", "et al"):
            mark_et_al(people)
            continue
        printed = part
        if _has_top_level_comma(part):
            parts = parse_single_name_into_parts(part, strict=False)
            printed = " ".join(parts.first + parts.von + parts.last + parts.jr)
        person = author(decode_latex(printed))
        if person is None:
            skipped.append(Skip(where, f"author {part.strip()!r} is not a name; left out of the author list"))
            continue
        people.append(person)
    return people


def _has_top_level_comma(name: str) -> bool:
    depth = 0
    for ch in name:
        depth += ch == "{"
        depth -= ch == "}"
        if ch == "," and depth == 0:
            return True
    return False


def _work(entry: Entry, strings: dict[str, str], span: Span, skipped: list[Skip]) -> Work | None:
    fields: dict[str, str] = {}
    for field in entry.fields:
        fields.setdefault(field.key.lower(), _value(str(field.value), strings))
    title = decode_latex(fields.get("title", "")).rstrip(".").strip()
    if not title or is_garbage_title(title):
        skipped.append(Skip(span, "entry has no title; not read as a work (add a title field)"))
        return None
    kind, type_status = kind_and_status(entry.entry_type)
    kind = kind or "other"
    authors = _people(fields.get("author", ""), span, skipped)
    editors = [a.name for a in _people(fields.get("editor", ""), span, skipped)]
    venue = _venue(fields, kind)
    year = year_of(fields.get("year")) or year_of(fields.get("date"))
    doi = clean_doi(fields.get("doi"))
    url = fields.get("url", "").strip() or None
    return Work(title=title, span=span, authors=authors, kind=kind, venue=venue, year=year,
                status=_status(fields, venue, type_status), editors=editors, doi=doi, url=url)


def _venue(fields: dict[str, str], kind: str) -> VenueRef | None:
    order = list(_VENUE_FIELDS)
    if kind == "thesis":
        order += _THESIS_BODY_FIELDS
    order += [k for k in fields if k.endswith("venue")] + list(_BODY_FIELDS)
    for key in order:
        value = decode_latex(fields.get(key, "")) if fields.get(key, "").strip() else ""
        if value and not re.match(r"(?:https?://|www\.)", value):
            return VenueRef(name=value)
    return None


def _status(fields: dict[str, str], venue: VenueRef | None, type_status: str | None) -> str:
    """Preprint when the venue is a preprint server, or there is no venue and an arXiv id or a
    preprint type; under review when the venue, note or publication state says so."""
    said = status_in(venue.name if venue else None)
    if said:
        return said
    noted = status_in(fields.get("pubstate"), fields.get("note"))
    if noted == "under review":
        return noted
    if venue is None:
        eprint = fields.get("archiveprefix") or fields.get("eprinttype") or fields.get("eprint")
        if noted or type_status or eprint or re.search(r"arxiv\.org|biorxiv\.org|10\.48550/", fields.get("url", "")
                                                       + fields.get("doi", ""), re.I):
            return type_status or "preprint"
    return "published"
