"""Reader for publication data files of personal and group sites: YAML or JSON lists of
publication entries (Jekyll ``_data/publications.yml``, a dict of lists keyed by year or kind)
and JSON Resume (``resume.json``: ``basics.name`` is the owner, ``publications[]`` the works).

Which key holds the title, authors, year, venue or status is read from a table of synonyms
(:mod:`kg.sources.pubfields`), not from per-site code. Author strings are split by
:func:`kg.sources.text.split_author_list` as printed. A list counts as publications when most
of its entries have a title and authors, a venue or a DOI.
"""

from __future__ import annotations

import re

from kg.records import Document, Profile, Skip, Span, VenueRef, Work
from kg.sources.decode import decode_text
from kg.sources.fields import (
    authors_of,
    frequent_author,
    is_preprint_venue,
    kind_and_status,
    truthy,
    venue_status,
    year_of,
)
from kg.sources.pubfields import Entry, plain_text, synonyms
from kg.sources.registry import Source
from kg.sources.safe import YamlRefused, compose_yaml, json_spans, load_json, node_lines, path_text

#: How deep in a data file publication lists are looked for ({"papers": {"2020": [...]}} is depth 2).
MAX_DEPTH = 4

_JSON_KEY = re.compile(r'"([A-Za-z_][\w -]{0,40})"\s*:')
_YAML_KEY = re.compile(r"(?:^|[{,])[ \t]*(?:-[ \t]+)?([A-Za-z_][\w -]{0,40}?)[ \t]*:(?:[ \t]|$)", re.M)


def sniff(head: bytes) -> bool:
    """A YAML or JSON file whose first keys include a title and an author, venue or DOI field,
    or a JSON Resume (``basics``)."""
    text = head.decode("utf-8", "replace").lstrip("\ufeff \t\r\n")
    keys = {re.sub(r"[\s-]+", "_", k.strip().lower())
            for k in (_JSON_KEY if text[:1] in "{[" else _YAML_KEY).findall(text)}
    if "basics" in keys:
        return True
    strong = set(synonyms("authors")) | set(synonyms("venue")) | set(synonyms("doi"))
    return bool(keys & set(synonyms("title"))) and bool(keys & strong)


def read(source: Source) -> Document:
    """Read a publication data file."""
    name = source.name
    doc = Document(path=name, format="data-file", sha256="", subject=None)
    text, doc.skipped = decode_text(source.data, name)
    parsed = _parse(text, name)
    if isinstance(parsed, Skip):
        doc.skipped.append(parsed)
        return doc
    data, spans, fmt = parsed
    doc.format = fmt
    if isinstance(data, dict) and isinstance(data.get("basics"), dict):
        doc.format = "json-resume"
        doc.subject = _resume_owner(data["basics"], Span(name, *spans.get(("basics",), (1, 1)), place="basics"))
    lists = list(_publication_lists(data, (), {}))
    if not lists:
        doc.skipped.append(Skip(Span(name, 1, text.count("\n") + 1),
                                "no list of publications found: entries need a title and authors, a venue or a DOI "
                                f"(keys such as {', '.join(synonyms('title')[:2] + synonyms('authors')[:2])}, "
                                f"{', '.join(synonyms('venue')[:3])}, doi)"))
        return doc
    for path, entries, group in lists:
        for i, item in enumerate(entries):
            item_path = path + (i,)
            span = Span(name, *spans.get(item_path, spans.get(path, (1, 1))), place=path_text(item_path))
            if not isinstance(item, dict):
                doc.skipped.append(Skip(span, "an entry that is not a set of fields (title:, authors:, ...); "
                                              "not read"))
                continue
            fact = _work(Entry(item), span, group)
            if isinstance(fact, Skip):
                doc.skipped.append(fact)
            else:
                fact.authors_not_listed = not fact.authors and doc.subject is not None
                doc.facts.append(fact)
    if doc.subject is None:
        # A personal site marks its owner (bold) in most entries; a lab's PI in every entry is not an owner.
        doc.subject = frequent_author(doc.facts, name, highlighted_only=True)
    years = [w.year for w in doc.facts if w.year]
    doc.latest_date = max(years) if years else None
    return doc


def _parse(text: str, name: str):
    """(data, {path: (first, last line)}, format) or a Skip naming where the file is not JSON/YAML."""
    if text.lstrip()[:1] in ("{", "["):
        data = load_json(text, name)
        return data if isinstance(data, Skip) else (data, json_spans(text, MAX_DEPTH + 1), "json-data")
    try:
        node, data = compose_yaml(text)
    except YamlRefused as err:
        return Skip(Span(name, err.line, err.line), err.message)
    return data, node_lines(node, MAX_DEPTH + 1), "yaml-data"


def _resume_owner(basics: dict, span: Span) -> Profile | None:
    name = plain_text(basics.get("name"))
    if not name:
        return None
    profile = Profile(name, span)
    if isinstance(basics.get("email"), str):
        profile.emails.append(basics["email"])
    for key in ("url", "website"):
        if isinstance(basics.get(key), str) and basics[key]:
            profile.homepages.append(basics[key])
    if isinstance(basics.get("summary"), str):
        profile.biography = basics["summary"].strip() or None
    return profile


def _publication_lists(data, path: tuple, group: dict):
    """(path, entries, group) for each list of publication entries in *data*; *group* carries what
    the keys above say (a year key such as ``"2020"``, a status key such as ``preprints``)."""
    if len(path) > MAX_DEPTH:
        return
    if isinstance(data, list):
        dicts = [d for d in data if isinstance(d, dict)]
        if dicts and sum(_looks_like_publication(Entry(d)) for d in dicts) * 2 > len(dicts):
            yield path, data, group
            return
        for i, item in enumerate(data):
            if isinstance(item, (list, dict)):
                yield from _publication_lists(item, path + (i,), group)
    elif isinstance(data, dict):
        for key, value in data.items():
            if isinstance(value, (list, dict)):
                yield from _publication_lists(value, path + (str(key),), _group_of(str(key), group))


def _looks_like_publication(entry: Entry) -> bool:
    return entry.text("title") is not None and any(entry.get(f) is not None for f in ("authors", "venue", "doi"))


def _group_of(key: str, group: dict) -> dict:
    """What a grouping key says about the entries under it: a year, a status or a kind."""
    words = re.sub(r"[_-]+", " ", key).strip()
    out = dict(group)
    if re.fullmatch(r"(1[5-9]|20)\d\d", words):
        out["year"] = words
    status = label_status(words)
    if status:
        out["status"] = status
    kind, _ = kind_and_status(words)
    if kind:
        out["kind"] = kind
    return out


def label_status(label: str | None) -> str | None:
    """The status a status field or group label says: ``"submitted"``, ``"preprints"``, ``"published"``...

    >>> label_status("Under review"), label_status("working papers"), label_status("in press"), label_status("2020")
    ('under review', 'preprint', 'published', None)
    """
    if not label:
        return None
    rest, status = venue_status(label)
    if status and not rest:
        return status
    if is_preprint_venue(label):
        return "preprint"
    if label.strip().lower() in {"published", "peer reviewed", "refereed"}:
        return "published"
    return None


def _work(entry: Entry, span: Span, group: dict) -> Work | Skip:
    title = entry.text("title")
    if not title:
        return Skip(span, f"an entry with no title (looked for {', '.join(synonyms('title'))}); add one")
    printed_venue = entry.text("venue")
    venue, prefix_status = venue_status(printed_venue)
    kind, type_status = kind_and_status(entry.get("kind"))
    flag = entry.get("preprint")
    status = label_status(entry.text("status")) or prefix_status
    if status is None and truthy(flag):
        status = "preprint"
    status = status or type_status or group.get("status")
    if status is None and flag is None and is_preprint_venue(venue):
        status = "preprint"
    return Work(
        title=title.rstrip("."),
        span=span,
        authors=authors_of(entry.get("authors")),
        kind=kind or group.get("kind") or "article",
        status=status or "published",
        venue=VenueRef(venue) if venue else None,
        year=year_of(entry.get("year")) or group.get("year"),
        doi=plain_text(entry.get("doi")),
        url=plain_text(entry.get("url")),
        abstract=plain_text(entry.get("abstract")),
    )
