"""Works: which listings in which documents are one work (a paper retitled between CV versions).

Listings with the same title up to case and punctuation are one work. Two listings
that share an author or the short title before a colon are compared: similar titles with
enough shared authors, a compatible venue and year are one work; a near miss is recorded.
"""

from __future__ import annotations

from dataclasses import dataclass

from rapidfuzz import fuzz

from kg.identity.decisions import PendingDecision, UnionFind
from kg.identity.keys import differs_only_by_numbering, slug, title_head, title_key
from kg.identity.people import owner_is_author
from kg.identity.resolution import IriMinter, Resolution, work_mention
from kg.records import Document, Education, Work


def thesis_work(education: Education) -> Work:
    """The thesis an education entry names, as a work by the document's owner (first author)."""
    return Work(education.thesis_title, education.span, kind="thesis",
                year=education.period.end[:4] if education.period.end else None, subject_ordinal=1,
                supervisors=education.supervisors, institution=education.institution)


@dataclass
class _Mention:
    doc: Document
    work: Work
    authors: set[str]  # person IRIs


def _mentions(documents: list[Document], res: Resolution) -> list[_Mention]:
    out = []
    for doc in documents:
        owner = res.subject_of_document.get(doc.path)
        for fact in doc.facts:
            if isinstance(fact, Work):
                authors = {res.person(a.name, fact.title, doc.path) for a in fact.authors}
                if owner and owner_is_author(doc, fact):
                    authors.add(owner)
                out.append(_Mention(doc, fact, authors))
            elif isinstance(fact, Education) and fact.thesis_title and owner:
                out.append(_Mention(doc, thesis_work(fact), {owner}))
    return out


def _pair_decision(i: int, j: int, a: _Mention, b: _Mention, res: Resolution) -> PendingDecision | None:
    """Whether two listings of one kind are one work (merged=True), a near miss (False), or unrelated (None)."""
    wa, wb = a.work, b.work
    shared = a.authors & b.authors
    head_a, head_b = title_head(wa.title), title_head(wb.title)
    same_head = head_a is not None and head_a == head_b
    similar = fuzz.token_set_ratio(wa.title.lower(), wb.title.lower())
    venue_ok = (wa.venue is None or wb.venue is None or wa.status != "published" or wb.status != "published"
                or res.venue(wa.venue) == res.venue(wb.venue))
    years_ok = not (wa.year and wb.year) or abs(int(wa.year[:4]) - int(wb.year[:4])) <= 2
    minimum = min(2, len(a.authors), len(b.authors))
    both_published = wa.status == "published" and wb.status == "published"
    rest_similar = fuzz.token_set_ratio(wa.title.split(":", 1)[-1].lower(), wb.title.split(":", 1)[-1].lower())
    if same_head and both_published and rest_similar < 50:
        same_head = False  # one series name, two published papers: "X: A" and "X: B"
    sources = (a.doc.path, b.doc.path)
    if differs_only_by_numbering(wa.title, wb.title):
        return PendingDecision("work", i, False, "titles differ only by a number: parts of a series",
                               f"{wa.title!r} vs {wb.title!r}", sources)
    if (same_head or similar >= 90) and len(shared) >= max(1, minimum) and venue_ok and years_ok:
        rule = "same short title before the colon" if same_head else f"titles {similar:.0f}% similar"
        return PendingDecision("work", i, True, f"{rule}, {len(shared)} shared authors, compatible venue and year",
                               f"{wa.title!r} = {wb.title!r}", sources)
    if same_head or similar >= 80:
        why = ("no shared author" if not shared else "different venues" if not venue_ok
               else "years too far apart" if not years_ok else "too few shared authors")
        return PendingDecision("work", i, False, f"similar titles kept apart: {why}",
                               f"{wa.title!r} vs {wb.title!r}", sources)
    return None


def _group(mentions: list[_Mention], res: Resolution) -> tuple[UnionFind, list[PendingDecision]]:
    uf = UnionFind()
    pending = []
    for i in range(len(mentions)):
        uf.find(i)
    by_title: dict[str, int] = {}
    for i, m in enumerate(mentions):
        k = title_key(m.work.title)
        if k in by_title:
            first = mentions[by_title[k]]
            if first.work.title != m.work.title:
                pending.append(PendingDecision("work", by_title[k], True, "same title up to case and punctuation",
                                               f"{first.work.title!r} = {m.work.title!r}",
                                               (first.doc.path, m.doc.path)))
            uf.union(by_title[k], i)
        else:
            by_title[k] = i
    # Only pairs that share an author or a short title can merge or be a near miss worth noting.
    buckets: dict = {}
    for i, m in enumerate(mentions):
        for key in [("author", a) for a in m.authors] + [("head", title_head(m.work.title))]:
            if key[1]:
                buckets.setdefault(key, set()).add(i)
    candidates = sorted({(i, j) for members in buckets.values() for i in members for j in members if i < j})
    for i, j in candidates:
        a, b = mentions[i], mentions[j]
        if uf.find(i) == uf.find(j) or a.work.kind != b.work.kind:
            continue
        decision = _pair_decision(i, j, a, b, res)
        if decision is not None:
            pending.append(decision)
            if decision.merged:
                uf.union(i, j)
    return uf, pending


def resolve_works(documents: list[Document], res: Resolution) -> None:
    """Fill ``res.work_of`` and ``res.work_titles``; record every merge and near miss."""
    mentions = _mentions(documents, res)
    uf, pending = _group(mentions, res)
    date_of = {d.path: d.latest_date or "" for d in documents}
    minter = IriMinter()
    iri_of_mention: dict[int, str] = {}
    groups = uf.groups()
    for root in sorted(groups, key=lambda r: min(groups[r])):
        members = groups[root]
        # The IRI comes from the title printed by the newest document, so a retitled work keeps one IRI per build.
        newest = mentions[max(members, key=lambda i: (date_of[mentions[i].doc.path], -i))].work
        iri = minter.mint(("thesis/" if newest.kind == "thesis" else "work/") + slug(newest.title))
        res.work_titles[iri] = [(mentions[i].doc.path, mentions[i].work.title) for i in members]
        for i in members:
            iri_of_mention[i] = iri
            res.work_of[work_mention(mentions[i].doc.path, mentions[i].work)] = iri
    res.decisions += [d.settle(iri_of_mention.get) for d in pending]
