"""The curation file's ``works`` section: give or fix a work's authors, venue and year.

A fix names a document and a work's title as kg read it. It completes an entry a reader could
read only in part (a title without authors, reported as a skip with the line to add) or
corrects a work a reader got wrong. Fixes are applied to the records before identity, so the
graph holds the corrected work with its provenance; a fix that matches nothing is reported.

>>> from kg.records import Document, Skip, Span, Work
>>> doc = Document("cv.md", "text", "", None,
...                skipped=[Skip(Span("cv.md", 9, 9), "no authors", Work("A Study", Span("cv.md", 9, 9)))])
>>> fix = WorkFix("cv.md", "A study", authors=["Ana Ruiz", "Li Wei"], year="2021", line=4)
>>> apply_work_fixes([doc], [fix], "curation.yaml")
[]
>>> [(w.title, [a.name for a in w.authors], w.year) for w in doc.facts], doc.skipped
([('A Study', ['Ana Ruiz', 'Li Wei'], '2021')], [])
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kg.records import Author, Document, Skip, Span, VenueRef, Work


@dataclass(frozen=True)
class WorkFix:
    """One entry of the curation file's ``works`` list; ``line`` is where it stands in the file."""

    document: str
    title: str
    authors: list[str] | None = field(default=None, hash=False)
    venue: str | None = None
    year: str | None = None
    line: int = 0


def _title_key(title: str) -> str:
    return re.sub(r"[\W_]+", "", title.casefold())


def _fix(work: Work, fix: WorkFix) -> None:
    if fix.authors is not None:
        work.authors = [Author(printed=name, name=name) for name in fix.authors]
        work.authors_not_listed = False
    if fix.venue is not None:
        work.venue = VenueRef(fix.venue)
    if fix.year is not None:
        work.year = fix.year


def apply_work_fixes(docs: list[Document], fixes: list[WorkFix], curation_path: str) -> list[Skip]:
    """Apply *fixes* to the works (and partly read entries) of *docs*, in place.

    Returns one skip per fix that matched no work of its document, naming its line in the
    curation file at *curation_path*.
    """
    by_document = {doc.path: doc for doc in docs}
    unmatched = []
    for fix in fixes:
        doc = by_document.get(fix.document)
        key = _title_key(fix.title)
        if doc is None:
            unmatched.append(Skip(Span(curation_path, fix.line, fix.line),
                                  f"works: no document {fix.document!r} was read; check the name (as the build "
                                  "summary prints it)"))
            continue
        works = [f for f in doc.facts if isinstance(f, Work) and _title_key(f.title) == key]
        for work in works:
            _fix(work, fix)
        partial = [s for s in doc.skipped if s.partial is not None and _title_key(s.partial.title) == key]
        for skip in partial:
            completed = skip.partial
            assert completed is not None  # chosen above for having one
            _fix(completed, fix)
            doc.facts.append(completed)
            doc.skipped.remove(skip)
        if not works and not partial:
            unmatched.append(Skip(Span(curation_path, fix.line, fix.line),
                                  f"works: no work titled {fix.title!r} in {fix.document}; copy the title as "
                                  "`kg read` prints it"))
    return unmatched
