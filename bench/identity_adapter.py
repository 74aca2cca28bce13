"""The one place where the benchmarks call kg's identity: documents in, clusters of person mentions out.

Identity is being restructured; when its entry point changes, only :func:`person_clusters`
changes. Everything else in ``bench/`` sees mentions and cluster labels.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from kg.records import Document, Education, Work


class Mention(NamedTuple):
    """One printed person name in a document.

    ``work`` names the entry it is printed on (the span's place, such as ``@article{key}``, else
    ``line N``; ``None`` for the owner and supervisors of a period of study); ``position`` is
    the index in the author list (``-1`` for an owner or supervisor); ``role`` is ``author``,
    ``supervisor`` or ``subject``.
    """

    document: str
    work: str | None
    position: int
    role: str
    name: str


def _work_place(work: Work) -> str:
    return work.span.place or f"line {work.span.first_line}"


def mentions_of(doc: Document) -> list[tuple[Mention, str | None]]:
    """Every person mention in *doc*, with the title of the work it is printed on (None if none)."""
    out = []
    if doc.subject:
        out.append((Mention(doc.path, None, -1, "subject", doc.subject.name), None))
    for fact in doc.facts:
        if isinstance(fact, Work):
            place = _work_place(fact)
            out += [(Mention(doc.path, place, i, "author", a.name), fact.title) for i, a in enumerate(fact.authors)]
            out += [(Mention(doc.path, place, -1, "supervisor", n), fact.title) for n in fact.supervisors]
        elif isinstance(fact, Education):
            out += [(Mention(doc.path, f"line {fact.span.first_line}", -1, "supervisor", n), None)
                    for n in fact.supervisors]
    return out


def person_clusters(documents: list[Document], curation_file: Path | None = None) -> dict[Mention, str]:
    """Run identity on *documents* and return ``mention -> person`` (an IRI today) for every mention.

    *curation_file* is a ``curation.yaml`` to honour; none means an empty curation, as a build of
    a folder without one.
    """
    from kg.curation import Curation

    from kg.identity import resolve

    curation = Curation.load(curation_file) if curation_file else Curation()
    res = resolve(documents, curation)
    return {m: res.person(m.name, title) for doc in documents for m, title in mentions_of(doc)}
