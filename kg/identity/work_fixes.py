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
from collections import defaultdict
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


def _apply(doc: Document, fix: WorkFix) -> bool:
    """Apply *fix* to the works and partly read entries of *doc* its title matches; whether any did."""
    key = _title_key(fix.title)
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
    return bool(works or partial)


class WorkFixes:
    """:func:`apply_work_fixes` a document at a time, as the documents are read."""

    def __init__(self, fixes: list[WorkFix], curation_path: str) -> None:
        self._fixes, self._path = fixes, curation_path
        self._of_document: dict[str, list[int]] = defaultdict(list)
        for k, fix in enumerate(fixes):
            self._of_document[fix.document].append(k)
        self._read: set[str] = set()
        self._matched: set[int] = set()

    def apply(self, doc: Document) -> None:
        """Apply the fixes that name *doc*, in the order of the file."""
        self._read.add(doc.path)
        self._matched.update(k for k in self._of_document.get(doc.path, ()) if _apply(doc, self._fixes[k]))

    def unmatched(self) -> list[Skip]:
        """One skip per fix that matched no work of its document, naming its line in the curation file."""
        out = []
        for k, fix in enumerate(self._fixes):
            if fix.document not in self._read:
                out.append(Skip(Span(self._path, fix.line, fix.line),
                                f"works: no document {fix.document!r} was read; check the name (as the build "
                                "summary prints it)"))
            elif k not in self._matched:
                out.append(Skip(Span(self._path, fix.line, fix.line),
                                f"works: no work titled {fix.title!r} in {fix.document}; copy the title as "
                                "`kg read` prints it"))
        return out


def apply_work_fixes(docs: list[Document], fixes: list[WorkFix], curation_path: str) -> list[Skip]:
    """Apply *fixes* to the works (and partly read entries) of *docs*, in place.

    Returns one skip per fix that matched no work of its document, naming its line in the
    curation file at *curation_path*.
    """
    work_fixes = WorkFixes(fixes, curation_path)
    for doc in docs:
        work_fixes.apply(doc)
    return work_fixes.unmatched()
