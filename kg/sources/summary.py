"""What a reader got from a document, as plain JSON: the view ``kg read`` prints.

The shape is the one the evaluation corpus uses: the owner, and each work with its title,
authors in printed order, year, venue and status; plus where it came from and what was skipped.
"""

from __future__ import annotations

from kg.records import Document, Work


def work_summary(work: Work) -> dict:
    """One work as a plain dict.

    >>> from kg.records import Author, Span, VenueRef
    >>> w = Work("A Title", Span("a.bib", 3, 9), [Author("Doe, J.", "J. Doe", et_al_follows=True)],
    ...          venue=VenueRef("Journal of Tests"), year="2020")
    >>> work_summary(w)["authors"], work_summary(w)["year"], work_summary(w)["et_al"]
    (['J. Doe'], 2020, True)
    """
    out = {
        "title": work.title,
        "authors": [a.name for a in work.authors],
        "year": int(work.year[:4]) if work.year and work.year[:4].isdigit() else None,
        "venue": (work.venue.name or work.venue.acronym) if work.venue else None,
        "status": "thesis" if work.kind == "thesis" else work.status,
        "kind": work.kind,
        "place": str(work.span),
    }
    if work.et_al:
        out["et_al"] = True
    if work.authors_not_listed:
        out["authors_not_listed"] = True
    if work.editors:
        out["editors"] = list(work.editors)
    if work.supervisors:
        out["advisors"] = list(work.supervisors)
    if work.subject_ordinal:
        out["owner_position"] = work.subject_ordinal
    for key in ("doi", "url"):
        if getattr(work, key):
            out[key] = getattr(work, key)
    return out


def document_summary(doc: Document) -> dict:
    """A document's owner, works and skips as a plain dict."""
    works = doc.of_type(Work)
    return {
        "document": doc.path,
        "format": doc.format,
        "owner": doc.subject.name if doc.subject else None,
        "works": [work_summary(w) for w in works],
        "other_facts": len(doc.facts) - len(works),
        "skipped": [str(s) for s in doc.skipped],
    }
