"""Publication lists: entries cut (:mod:`kg.sources.entries`), each read by the one entry parser
(:mod:`kg.sources.reference`), turned into works, or reported with its place and text."""

from __future__ import annotations

import re
from collections import Counter

from kg.records import Author, Work
from kg.sources.authors import looks_like_author_list
from kg.sources.context import Context
from kg.sources.entries import Entry, split_entries
from kg.sources.layout import Section
from kg.sources.reference import parse_reference


def _entry_text(entry: Entry) -> str:
    text = " / ".join(i.text for i in entry.items)
    return text if len(text) <= 160 else text[:157] + "..."


def curation_line(work: Work) -> str:
    """The curation line that completes *work* (its authors to be filled in), in YAML flow style.

    >>> from kg.records import Span
    >>> curation_line(Work("A Study: Part 2", Span("cv.md", 4, 4)))
    'corrections: {works: [{document: cv.md, title: "A Study: Part 2", authors: [Given Family, ...], year: YYYY}]}'
    """
    title = work.title.replace("\\", "\\\\").replace('"', '\\"')
    return (f'corrections: {{works: [{{document: {work.span.document}, title: "{title}", '
            'authors: [Given Family, ...], year: YYYY}]}')


def work_of(entry: Entry, ctx: Context) -> Work | None:
    """The work an entry describes, or None after reporting why it could not be read."""
    ref = parse_reference([i.raw for i in entry.items], split_lines=entry.split_lines)
    if ref.problem or not ref.title:
        ctx.skip(entry.items, f"publication entry not read: {ref.problem or 'no title found'}; the entry reads "
                              f"{_entry_text(entry)!r}")
        return None
    if looks_like_author_list(ref.title) and not ref.authors:
        ctx.skip(entry.items, "publication entry not read: what stands where its title should be is a list of "
                              f"names, and no title was found; the entry reads {_entry_text(entry)!r}")
        return None
    if not ref.authors and not ref.subject_ordinal and not (ref.venue or ref.year):
        partial = Work(title=ref.title, span=ctx.span(entry.items), kind=entry.kind or ref.kind or "article",
                       status=entry.status)
        ctx.skip(entry.items, "publication entry not read: beside its title there are no authors, venue or year "
                              f"(a list cut off, or not a reference?); the entry reads {_entry_text(entry)!r}; "
                              f"if it is a work, give its authors in curation.yaml: {curation_line(partial)}",
                 partial)
        return None
    authors = list(ref.authors)
    if ref.subject_ordinal and authors and ctx.owner:  # "second author with X": the owner takes their place
        at = min(ref.subject_ordinal - 1, len(authors))
        authors.insert(at, Author(ctx.owner, ctx.owner, ref.subject_equal_contribution))
    status = entry.status
    if ref.status and entry.status != "under review":
        status = ref.status
    work = Work(title=ref.title, span=ctx.span(entry.items), authors=authors,
                kind=entry.kind or ref.kind or "article", status=status, venue=ref.venue, year=ref.year or entry.year,
                subject_ordinal=ref.subject_ordinal, subject_equal_contribution=ref.subject_equal_contribution,
                recognitions=ref.recognitions, abstract=ref.abstract, editors=ref.editors, doi=ref.doi, url=ref.url)
    # an edited book names its editors, not its authors: the owner is not made its author
    work.authors_not_listed = not authors and not ref.subject_ordinal and not ref.edited
    return work


def parse_publications(section: Section, ctx: Context) -> list[Work]:
    """Works of a publication list, with authors in printed order, venue, year and status."""
    entries, loose = split_entries(section.items)
    works = [w for w in (work_of(e, ctx) for e in entries) if w]
    if loose:
        ctx.skip(loose, "text before the first publication that is not a publication")
    return works


def reads_as_publications(section: Section, document: str) -> bool:
    """True when most entries of a section under an unknown heading (its first eight) read as
    references with authors."""
    trial = Context(document)
    entries, _ = split_entries(section.items)
    if not entries:
        return False
    sample = entries[:8]
    works = [w for w in (work_of(e, trial) for e in sample) if w and w.authors]
    return len(works) >= max(1, 0.6 * len(sample))


def guess_owner(works: list[Work]) -> str | None:
    """The person a publication list is about, where its header does not say: the author printed in
    bold or underlined in most works, or else the author of nearly every work."""
    with_authors = [w for w in works if w.authors]
    if len(with_authors) < 2:
        return None
    marked = Counter(a.name for w in with_authors for a in w.authors
                     if re.search(r"\*\*|__|<(?:b|strong|u)>", a.printed))
    if marked:
        name, count = marked.most_common(1)[0]
        if count >= 0.5 * len(with_authors):
            return name
    # "A.V. Matveev" and "A. Matveev" are one author here: count by family name and first initial.
    keys = Counter(key for w in with_authors for key in {_loose_key(a.name) for a in w.authors})
    key, count = keys.most_common(1)[0]
    if count < 0.8 * len(with_authors) or len(with_authors) < 3:
        return None
    printed = Counter(a.name for w in with_authors for a in w.authors if _loose_key(a.name) == key)
    return printed.most_common(1)[0][0]


def _loose_key(name: str) -> tuple[str, str]:
    words = name.replace(".", ". ").split()
    return (words[-1].lower(), words[0][:1].lower()) if words else ("", "")
