"""Reader for a site's publication pages: markdown files whose YAML front matter describes one
publication each (academicpages ``_publications/*.md``, Hugo/Wowchemy
``content/publication/*/index.md``). All such pages under one folder are one document, a site.

Authors come, in this order of preference, from an ordered ``authors`` list (Hugo; ``admin`` and
other author ids are the names on the site's author pages, ``content/authors/<id>/_index.md``),
from the author part of a ``citation`` string (academicpages), or from the unordered
``coauthors`` (academicpages), with the site owner put first. The owner of an academicpages site
is the person who is in the citations but never among the coauthors. Pages with front matter
that describe no publication (a CV page, a blog post) are left to the free-text reader.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from pathlib import PurePosixPath

from kg.records import Author, Document, Profile, Skip, Span, VenueRef, Work
from kg.sources.decode import decode_text
from kg.sources.fields import (
    authors_of,
    fullest_name,
    is_preprint_venue,
    kind_and_status,
    person_key,
    truthy,
    venue_status,
    year_of,
)
from kg.sources.pubfields import Entry, plain_text
from kg.sources.registry import Source
from kg.sources.safe import YamlRefused, load_yaml
from kg.sources.text import split_author_list
from kg.words import word_list

_TOP_KEY = re.compile(r"^([A-Za-z_][\w-]*)[ \t]*:", re.M)
_NONE = {"", "nan", "none", "null", "n/a", "na", "tbd", "."}


def front_matter(text: str) -> tuple[str, int] | None:
    """The YAML between a leading ``---`` line and the closing ``---`` (or ``...``) line, and the
    1-based number of the closing line; None when the text does not start with front matter or it
    is never closed.

    >>> front_matter("---\\ntitle: A\\n---\\nbody\\n")
    ('title: A', 3)
    """
    if not re.match(r"---[ \t]*\r?\n", text):
        return None
    lines = text.split("\n")
    for i in range(1, len(lines)):
        if lines[i].rstrip() in ("---", "..."):
            return "\n".join(lines[1:i]), i + 1
    return None


def _head_keys(head: str) -> set[str]:
    """Top-level keys of the front matter at the start of *head* (which may be cut short)."""
    match = re.match(r"---[ \t]*\r?\n", head)
    if not match:
        return set()
    body = head[match.end():]
    close = re.search(r"^(?:---|\.\.\.)[ \t]*\r?$", body, re.M)
    body = body[:close.start()] if close else body
    return {k.lower() for k in _TOP_KEY.findall(body)}


def sniff(head: bytes) -> bool:
    """Front matter with a publication key (``venue``, ``publication``, ``citation``...), or a site
    author page; other front-matter pages (a CV page, a post) are left to the free-text reader."""
    keys = _head_keys(head.decode("utf-8", "replace").lstrip("\ufeff"))
    return bool(keys & set(word_list("front-matter-publication-keys"))) or _is_profile_keys(keys)


def _is_profile_keys(keys: set[str]) -> bool:
    return len(keys & set(word_list("front-matter-profile-keys"))) >= 2 and bool(keys & {"title", "name"})


def read(source: Source) -> Document:
    """Read the publication pages of one site (one file or a folder's collection)."""
    doc = Document(path=source.name, format="front-matter-site", sha256="", subject=None)
    pages: list[tuple[Entry, Span]] = []
    profiles: dict[str, tuple[str, Span]] = {}  # author id -> (name, where)
    for f in source.files:
        text, warnings = decode_text(f.data, f.name)
        doc.skipped += warnings
        page = _page(text, f.name)
        if isinstance(page, Skip):
            doc.skipped.append(page)
        elif _is_profile_keys(keys := set(page[0].raw)) and not keys & set(word_list("front-matter-publication-keys")):
            name = page[0].text("title") or plain_text(page[0].value("name"))
            if name:
                profiles[_author_id(f.name)] = (name, page[1])
        else:
            pages.append(page)
    works: list[tuple[Work, Entry, bool]] = []  # (work, its fields, author order known)
    for entry, span in pages:
        result = _work(entry, span, profiles)
        if isinstance(result, Skip):
            doc.skipped.append(result)
        else:
            works.append((result[0], entry, result[1]))
    doc.subject = _owner(works, profiles)
    _complete_unordered(works, doc)
    unresolved = [w for w, _, _ in works if any(a.printed == "admin" for a in w.authors)]
    if unresolved and doc.subject is None:
        doc.skipped.append(Skip(Span(source.name, 1, 1),
                                f"{len(unresolved)} pages list 'admin' (the site's owner) among the authors, but the "
                                "site's author page (content/authors/admin/_index.md with `title: Full Name`) is not "
                                "in the folder, so 'admin' is kept as printed; add that page to name the owner"))
    doc.facts = [w for w, _, _ in works]
    years = [w.year for w in doc.facts if w.year]
    doc.latest_date = max(years) if years else None
    return doc


def _author_id(name: str) -> str:
    """The id of a Hugo author page: its folder (``content/authors/admin/_index.md`` -> ``admin``)."""
    path = PurePosixPath(name)
    return path.parent.name if path.stem in ("_index", "index") else path.stem


def _page(text: str, name: str) -> tuple[Entry, Span] | Skip:
    found = front_matter(text.lstrip("\ufeff"))
    if found is None:
        return Skip(Span(name, 1, 1), "no YAML front matter (a block between '---' lines at the top) with the "
                                      "publication's fields; not read")
    block, close_line = found
    try:
        data = load_yaml(block)
    except YamlRefused as err:
        line = err.line + 1  # the block starts on line 2
        return Skip(Span(name, line, line), f"front matter: {err.message}")
    if not isinstance(data, dict):
        return Skip(Span(name, 1, close_line), "the front matter is not a set of fields (title:, date:, ...); not read")
    return Entry(data), Span(name, 1, close_line)


def _work(entry: Entry, span: Span, profiles: dict) -> tuple[Work, bool] | Skip:
    """The page's work and whether its author order is known, or why the page is not one."""
    title = entry.text("title")
    if truthy(entry.value("draft")):
        return Skip(span, "a draft page (draft: true): the site does not publish it, so it is not read")
    kind_words = [plain_text(entry.value(k)) for k in ("collection", "type", "layout")]
    if any(w and w.lower() in word_list("non-publication-pages") for w in kind_words):
        return Skip(span, f"a {next(w for w in kind_words if w and w.lower() in word_list('non-publication-pages'))} "
                          "page, not a publication; not read as one")
    authors, order_known = _authors(entry, profiles)
    if not title:
        return Skip(span, "a page with no title in its front matter; add `title:` to read it")
    if not authors and title.lower() in word_list("template-titles"):
        return Skip(span, f"a template page (title {title!r}, no authors); not a publication")
    venue, prefix_status = venue_status(entry.text("venue"))
    kind_key = entry.key_of("kind")
    table = "hugo-publication-types" if kind_key == "publication_types" else "work-types"
    kind, type_status = kind_and_status(entry.get("kind"), table)
    status = prefix_status or type_status or ("preprint" if is_preprint_venue(venue) else "published")
    work = Work(title=title.rstrip("."), span=span, authors=authors, kind=kind or "article", status=status,
                venue=VenueRef(venue) if venue else None, year=year_of(entry.get("year")),
                doi=plain_text(entry.get("doi")), url=plain_text(entry.get("url")),
                abstract=plain_text(entry.get("abstract")))
    return work, order_known


def _authors(entry: Entry, profiles: dict) -> tuple[list[Author], bool]:
    """The page's authors and whether their order is the printed one."""
    listed = entry.get("authors")
    if isinstance(listed, list):
        return [_resolve_id(a, profiles) for a in authors_of(listed)], True
    if isinstance(listed, str):
        return authors_of(listed), True
    citation = entry.value("citation")
    if isinstance(citation, str) and citation.strip().lower() not in _NONE:
        cited = citation_authors(citation)
        if cited:
            return cited, True
    coauthors = entry.value("coauthors")
    if isinstance(coauthors, (str, list)) and str(coauthors).strip().lower() not in _NONE:
        return authors_of(coauthors), False
    return [], True


def _resolve_id(author: Author, profiles: dict) -> Author:
    """An author written as a site author id (``admin``) becomes the name on that author's page."""
    if author.printed in profiles:
        return Author(author.printed, profiles[author.printed][0], author.equal_contribution, author.et_al_follows)
    return author


_CITATION_END = re.compile(r"[(.,]\s*(?:1[5-9]|20)\d\d[a-z]?\b|(?:^|\s)[\"“‘'«]|<i>|\*", re.I)


def citation_authors(citation: str) -> list[Author]:
    """The authors of a printed citation: its text before the year or the quoted title.

    >>> [a.name for a in citation_authors("Jane Doe and Rick Roe (2020). 'A Title'. Journal.")]
    ['Jane Doe', 'Rick Roe']
    >>> [a.printed for a in citation_authors('Jane Doe and Rick L. Roe. "A Title." Journal (2020).')]
    ['Jane Doe', 'Rick L. Roe']
    """
    text = html.unescape(citation).strip()
    match = _CITATION_END.search(text)
    if not match or match.start() == 0:
        return []
    authors = text[:match.start()].strip().rstrip(",;:")
    # a period after a whole word ends the author part ('... and Austin L. Wright. "Title"'); after an
    # initial ('Wright, Austin L. (2021)') it belongs to the name
    return split_author_list(re.sub(r"(?<=[^\W\d_]{2})\.$", "", authors))


def _owner(works: list[tuple[Work, Entry, bool]], profiles: dict) -> Profile | None:
    """The site's owner: the ``admin`` author page, else the person every citation names but no
    ``coauthors`` list does (academicpages lists the owner's coauthors, never the owner)."""
    if "admin" in profiles:
        return Profile(*profiles["admin"])
    counts: Counter = Counter()
    variants: dict[tuple, list[str]] = {}
    pairs = 0
    for work, entry, order_known in works:
        coauthors = entry.value("coauthors")
        if not order_known or not isinstance(coauthors, (str, list)):
            continue
        if str(coauthors).strip().lower() in _NONE:
            continue
        pairs += 1
        others = {person_key(a.name) for a in authors_of(coauthors)}
        for a in work.authors:
            key = person_key(a.name)
            if key not in others:
                counts[key] += 1
                variants.setdefault(key, []).append(a.name)
    if counts:
        key, n = counts.most_common(1)[0]
        if n * 2 > pairs:
            return Profile(fullest_name(variants[key]), works[0][0].span)
    return None


def _complete_unordered(works: list[tuple[Work, Entry, bool]], doc: Document) -> None:
    """Pages with only unordered ``coauthors``: the owner (known now) goes first; the order is unknown."""
    for work, _, order_known in works:
        if order_known:
            continue
        owner = doc.subject.name if doc.subject else None
        if owner and all(person_key(a.name) != person_key(owner) for a in work.authors):
            work.authors.insert(0, Author(owner, owner))
        doc.skipped.append(Skip(work.span, "no ordered author list (no `citation`, only `coauthors`): the authors "
                                           + ("are the owner and the coauthors, " if owner else "are the coauthors, ")
                                           + "in an order the page does not give"))
