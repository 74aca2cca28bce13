"""Bibliography entries that an HTML page marks up field by field with class names.

Pages generated from a bibliography (dblp exports, CMS and static-site publication lists) wrap
each entry in an element whose children are classed by field: ``<div class="authors">``,
``<span class="title">``, ``<div class="journal">``, ``<span class="year">``. Where most entries
of a page carry a title and an author list so marked, the fields are read directly: that is
structured data, and the free-text reader would only guess it back. The class words of each
field are a word list (``kg/words/entry-field-classes.txt``).
"""

from __future__ import annotations

import re
from functools import cache

from kg.records import Skip, Span, VenueRef, Work
from kg.sources.fields import status_in
from kg.sources.text import looks_like_person_name, split_author_list
from kg.words import word_list

_YEAR = re.compile(r"(?<!\d)(1[89]\d\d|20\d\d)(?!\d)")
_WORD_BREAK = re.compile(r"[^A-Za-z]+|(?<=[a-z])(?=[A-Z])")
# Entry classes that say an entry is a thesis (dblp's "phdthesis", "thesis", "mastersthesis").
_THESIS = re.compile(r"thesis|dissertation", re.I)
# Share of title-marked elements that must sit in entries with an author list too.
_MIN_SHARE = 0.8


@cache
def _field_words() -> dict[str, str]:
    """Class word -> field (``"journal"`` -> ``"venue"``)."""
    words = {}
    for line in word_list("entry-field-classes"):
        field, _, rest = line.partition(":")
        for word in rest.split():
            words[word] = field.strip()
    return words


def _field(el) -> str | None:
    """The entry field an element's class or itemprop names, if any."""
    if not isinstance(el.tag, str):
        return None
    names = f"{el.get('class') or ''} {el.get('itemprop') or ''}"
    if not names.strip():
        return None
    fields = _field_words()
    for word in _WORD_BREAK.split(names):
        if word.lower() in fields:
            return fields[word.lower()]
    return None


def _text(el) -> str:
    return re.sub(r"\s+", " ", el.text_content()).strip()


def find_entries(root) -> list[tuple]:
    """(entry element, {field: [elements]}) for each marked-up entry, when most of the page's
    title-marked elements are entries with an author list; else ``[]``."""
    marked = [(el, f) for el in root.iter() if (f := _field(el))]
    titles = [el for el, f in marked if f == "title"]
    if len(titles) < 2:
        return []
    title_count: dict = {}
    for el in titles:
        for anc in el.iterancestors():
            title_count[anc] = title_count.get(anc, 0) + 1
    entries: dict = {}
    for el, field in marked:
        # An entry is the largest ancestor of a field that holds exactly one title.
        entry = None
        for anc in el.iterancestors():
            count = title_count.get(anc, 0)
            if count > 1:
                break
            if count == 1:
                entry = anc
        if entry is not None:
            entries.setdefault(entry, {}).setdefault(field, []).append(el)
    complete = [(e, fields) for e, fields in entries.items() if "title" in fields and "authors" in fields]
    if len(complete) < 2 or len(complete) < _MIN_SHARE * len(titles):
        return []
    order = {el: i for i, el in enumerate(root.iter())}
    return sorted(complete, key=lambda pair: order[pair[0]])


def entry_works(entries: list[tuple], document: str) -> tuple[list[Work], list[Skip]]:
    """The works of marked-up *entries*; an entry without a title is a skip."""
    works, skips = [], []
    for entry, fields in entries:
        span = Span(document, entry.sourceline or 1, _last_line(entry), place=_place(entry))
        title = _text(fields["title"][0]).rstrip(" .")
        if not title:
            skips.append(Skip(span, "a bibliography entry with an empty title; not read"))
            continue
        author_els = [el for el in fields["authors"] if not any(a in el.iterancestors() for a in fields["authors"])]
        if len(author_els) == 1:
            authors = split_author_list(_text(author_els[0]))
        else:
            authors = [a for el in author_els for a in split_author_list(_text(el))[:1]]
        venue = _text(fields["venue"][0]).strip(" ,;") if "venue" in fields else None
        kind = "thesis" if _THESIS.search(entry.get("class") or "") else "article"
        status = status_in(venue) or "published"
        doi = next((m.group() for el in entry.iter("a")
                    if (m := re.search(r"10\.\d{4,9}/\S+", el.get("href") or "")) and "doi" in el.get("href")), None)
        link = fields["title"][0].find(".//a")
        works.append(Work(title, span, authors, kind=kind, status=status,
                          venue=VenueRef(venue) if venue else None, year=_year(entry, fields),
                          doi=doi, url=link.get("href") if link is not None else None))
    return works, skips


def page_owner(root, entries: list[tuple]) -> str | None:
    """A person's name marked as an author before the first entry and outside every entry:
    the heading of a person's bibliography page (dblp's person pages have one)."""
    if not entries:
        return None
    first = entries[0][0]
    inside = {el for entry, _ in entries for el in entry.iter()}
    for el in root.iter():
        if el is first:
            break
        if el not in inside and _field(el) == "authors":
            name = _text(el)
            if looks_like_person_name(name):
                return name
    return None


def _year(entry, fields: dict) -> str | None:
    """The year field; else a field that is a year alone (dblp puts it among the pages); else a
    year in the venue; else the year heading the entry's group."""
    for el in fields.get("year", []):
        if m := _YEAR.search(_text(el)):
            return m.group()
    used = {el for group in fields.values() for el in group}
    for el in entry.iterdescendants():
        if el not in used and not len(el) and _YEAR.fullmatch(_text(el).strip(" .,()")):
            return _text(el).strip(" .,()")
    if "venue" in fields and (m := _YEAR.search(_text(fields["venue"][0]))):
        return m.group()
    child = entry
    for anc in list(entry.iterancestors())[:3]:
        for sib in child.itersiblings(preceding=True):
            if _YEAR.fullmatch(_text(sib)):
                return _text(sib)
        child = anc
    return None


def _last_line(entry) -> int:
    lines = [el.sourceline for el in entry.iter() if isinstance(el.tag, str) and el.sourceline]
    return max(lines, default=entry.sourceline or 1)


def _place(entry) -> str | None:
    ident = entry.get("id")
    return f"#{ident}" if ident else None

