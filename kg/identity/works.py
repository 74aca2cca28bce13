"""Works: which listings in which documents are one work (a paper retitled between CV versions).

Listings with the same title up to case and punctuation are one work. Two listings
that share an author or the short title before a colon are compared: similar titles with
enough shared authors (most of the shorter list: both of two), a compatible venue
and year are one work, unless each title has a word the other lacks in any spelling (one group's
"Training for X" and "Serving for X"); a near miss is recorded.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from itertools import combinations

from rapidfuzz import fuzz

from kg.identity.decisions import PendingDecision, UnionFind
from kg.identity.keys import ascii_words, replaced_words, slug, title_head, words_differ_only_by_numbering
from kg.identity.people import owner_is_author
from kg.identity.resolution import IriMinter, Resolution, work_mention
from kg.records import Document, Education, Work


def thesis_work(education: Education) -> Work:
    """The thesis an education entry names, as a work by the document's owner (first author)."""
    return Work(education.thesis_title, education.span, kind="thesis",
                year=education.period.end[:4] if education.period.end else None, subject_ordinal=1,
                supervisors=education.supervisors, institution=education.institution)


# A block (an author and a title word) with more listings than this is too unspecific to compare.
MAX_BLOCK = 40


@dataclass(slots=True)
class _Mention:
    doc: Document
    work: Work
    authors: set[str]  # person IRIs
    # the title's words and short title, made once: pairs ask for them again and again (at 10,000 CVs
    # two million pairs, when the key caches hold a fifth of the titles)
    words: tuple[str, ...] = ()
    head: str | None = None


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
    words: dict[str, str] = {}  # one string per word: a title's words are pointers to it
    for m in out:
        m.words = tuple(words.setdefault(w, w) for w in ascii_words(m.work.title))
        m.head = title_head(m.work.title)
    return out


def _venue(res: Resolution, ref) -> str | None:
    """The venue IRI of *ref*, computed once per printed venue (its keys cost a regex each)."""
    cache = res.__dict__.setdefault("_venue_cache", {})
    if ref not in cache:
        cache[ref] = res.venue(ref)
    return cache[ref]


def _pair_decision(i: int, j: int, a: _Mention, b: _Mention, res: Resolution) -> PendingDecision | None:
    """Whether two listings of one kind are one work (merged=True), a near miss (False), or unrelated (None)."""
    wa, wb = a.work, b.work
    sources = (a.doc.path, b.doc.path)
    if words_differ_only_by_numbering(a.words, b.words):
        return PendingDecision("work", i, False, "titles differ only by a number: parts of a series",
                               f"{wa.title!r} vs {wb.title!r}", sources)
    same_head = a.head is not None and a.head == b.head
    similar = fuzz.token_set_ratio(wa.title.lower(), wb.title.lower())
    if not same_head and similar < 80:
        return None  # neither one work nor a near miss (the rest only ever unsets same_head)
    shared = a.authors & b.authors
    venue_ok = (wa.venue is None or wb.venue is None or wa.status != "published" or wb.status != "published"
                or _venue(res, wa.venue) == _venue(res, wb.venue))
    years_ok = not (wa.year and wb.year) or abs(int(wa.year[:4]) - int(wb.year[:4])) <= 2
    shorter = min(len(a.authors), len(b.authors))
    # two of a lab's papers on like topics share two of their four or five authors; one paper's
    # listings in two documents share most of the shorter list (all of it, in every retitled work of
    # the sample of real documents); 10,000 synthetic CVs joined five pairs on two shared of four.
    # Most of a list of two or three is two, of one is one: the old floor of two shared is implied.
    enough_shared = 2 * len(shared) > shorter
    both_published = wa.status == "published" and wb.status == "published"
    rest_similar = fuzz.token_set_ratio(wa.title.split(":", 1)[-1].lower(), wb.title.split(":", 1)[-1].lower())
    if same_head and both_published and rest_similar < 50:
        same_head = False  # one series name, two published papers: "X: A" and "X: B"
    if not same_head and (replaced := replaced_words(a.words, b.words)):
        # one group's two papers: "Training for X: A Survey" and "Serving for X: A Survey"; a preprint
        # and a paper too: joined, their author lists would make co-authors of people who never wrote together
        return PendingDecision("work", i, False, "similar titles kept apart: a word replaced by another",
                               f"{wa.title!r} vs {wb.title!r} ({replaced[0]!r} / {replaced[1]!r})", sources)
    if (same_head or similar >= 90) and enough_shared and venue_ok and years_ok:
        rule = "same short title before the colon" if same_head else f"titles {similar:.0f}% similar"
        return PendingDecision("work", i, True, f"{rule}, {len(shared)} shared authors, compatible venue and year",
                               f"{wa.title!r} = {wb.title!r}", sources)
    if same_head or similar >= 80:
        why = ("no shared author" if not shared else "different venues" if not venue_ok
               else "years too far apart" if not years_ok else f"too few shared authors ({len(shared)} of {shorter})")
        return PendingDecision("work", i, False, f"similar titles kept apart: {why}",
                               f"{wa.title!r} vs {wb.title!r}", sources)
    return None


def _candidates(mentions: list[_Mention]) -> list[tuple[int, int]]:
    """Pairs worth comparing: one short title before a colon, or one author and one of the two rarest
    words of a title that another title has too (a word of one title alone pairs with nothing; taking
    it would push out the words a retitled listing shares). Blocks larger than :data:`MAX_BLOCK` say
    little and are skipped, so a CV whose every work shares its owner costs in proportion to its
    works, not their square."""
    frequency: dict[str, int] = defaultdict(int)
    words = [sorted({w for w in m.words if len(w) > 3}) for m in mentions]
    for ws in words:
        for w in ws:
            frequency[w] += 1
    buckets: dict = defaultdict(list)
    for i, m in enumerate(mentions):
        if m.head:
            buckets[("head", m.head)].append(i)
        for w in sorted((w for w in words[i] if frequency[w] > 1), key=lambda w: (frequency[w], w))[:2]:
            for a in m.authors:
                buckets[(a, w)].append(i)
    pairs = set()
    for members in buckets.values():
        if len(members) <= MAX_BLOCK:
            pairs.update(combinations(members, 2))  # a bucket's members are in mention order, each once
    return sorted(pairs)


def _group(mentions: list[_Mention], res: Resolution) -> tuple[UnionFind, list[PendingDecision]]:
    uf = UnionFind()
    pending = []
    for i in range(len(mentions)):
        uf.find(i)
    by_title: dict[str, int] = {}
    for i, m in enumerate(mentions):
        k = "".join(m.words)  # title_key
        if k in by_title:
            first = mentions[by_title[k]]
            if first.work.title != m.work.title:
                pending.append(PendingDecision("work", by_title[k], True, "same title up to case and punctuation",
                                               f"{first.work.title!r} = {m.work.title!r}",
                                               (first.doc.path, m.doc.path)))
            uf.union(by_title[k], i)
        else:
            by_title[k] = i
    candidates = _candidates(mentions)
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
