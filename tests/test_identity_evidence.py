"""Identity on evidence: namesakes kept apart, shared works and identifiers join, curation wins."""

from __future__ import annotations

from kg.identity.curation import Curation
from kg.identity.names import block_keys, names_compatible
from kg.identity.resolve import resolve
from kg.records import Author, Document, Profile, Span, Work


def work(doc: str, line: int, title: str, *names: str, year: str = "2020") -> Work:
    return Work(title, Span(doc, line, line), authors=[Author(n, n) for n in names], year=year)


def bib(path: str, *works: Work) -> Document:
    return Document(path, "bibtex", "0", None, facts=list(works))


def test_one_name_in_two_unconnected_groups_is_two_people_listed_as_possibly_the_same():
    # "Wei Wang" in a.bib (with Ann Lee) and b.bib (with Bo Chen): no shared work, identifier or
    # co-author, so two people; the pair is listed with the curation line that would join it.
    a = bib("a.bib", work("a.bib", 1, "Graph Caches", "Wei Wang", "Ann Lee"))
    b = bib("b.bib", work("b.bib", 1, "Stream Kernels", "Wei Wang", "Bo Chen"))
    res = resolve([a, b])
    assert res.person("Wei Wang", "Graph Caches", "a.bib") != res.person("Wei Wang", "Stream Kernels", "b.bib")
    (pair,) = [d for d in res.decisions if d.rule.startswith("possibly the same")]
    assert "same_as: [[Wei Wang @ a.bib, Wei Wang @ b.bib]]" in pair.evidence


def test_curation_joins_a_listed_pair_with_one_line():
    a = bib("a.bib", work("a.bib", 1, "Graph Caches", "Wei Wang", "Ann Lee"))
    b = bib("b.bib", work("b.bib", 1, "Stream Kernels", "Wei Wang", "Bo Chen"))
    cur = Curation.from_text("people:\n  same_as:\n    - [Wei Wang @ a.bib, Wei Wang @ b.bib]\n", "c.yaml")
    res = resolve([a, b], cur)
    assert res.person("Wei Wang", "Graph Caches", "a.bib") == res.person("Wei Wang", "Stream Kernels", "b.bib")
    assert cur.check_against({("wang", "wei")}, set()) == []


def test_a_work_both_documents_list_joins_its_authors_initials_included():
    # The same title in both lists: "Z. Wang" is the only name of b.bib's list that fits "Zheng Wang".
    a = bib("a.bib", work("a.bib", 1, "Sparse Attention at Scale", "Zheng Wang", "Ann Lee"))
    b = bib("b.bib", work("b.bib", 4, "Sparse attention at scale", "A. Lee", "Z. Wang"))
    res = resolve([a, b])
    assert res.person("Z. Wang", "Sparse attention at scale", "b.bib") == res.person(
        "Zheng Wang", "Sparse Attention at Scale", "a.bib")
    assert res.person("A. Lee", "Sparse attention at scale", "b.bib") == res.person(
        "Ann Lee", "Sparse Attention at Scale", "a.bib")


def test_two_authors_of_one_work_and_different_orcids_never_merge():
    # "Z. Wang" fits both full names of one work, which are two people: never one, and the initials
    # form is not joined to either in that document.
    a = bib("a.bib", work("a.bib", 1, "Two Wangs", "Zheng Wang", "Zeke Wang", "Z. Wang"))
    res = resolve([a])
    assert len({res.person(n, "Two Wangs", "a.bib") for n in ("Zheng Wang", "Zeke Wang", "Z. Wang")}) == 3
    # Owners of one name sharing an email are one; a different ORCID on a third keeps it apart.
    docs = [Document(f"cv{i}.md", "markdown", "0", Profile("Jane Doe", Span(f"cv{i}.md", 1, 1),
                                                           emails=[email], orcid=orcid), facts=[])
            for i, (email, orcid) in enumerate([("jd@x.org", "0000-0001"), ("jd@x.org", None),
                                                ("jd@x.org", "0000-0002")])]
    res = resolve(docs)
    owners = [res.subject_of_document[d.path] for d in docs]
    assert owners[0] == owners[1] != owners[2]


def test_names_compatible_and_blocks():
    assert names_compatible("Tian-Hua Liao", "Tianhua Liao") is not None
    assert names_compatible("Robert (Bob) Miller", "Robert Miller") is not None
    assert names_compatible("José García", "Jose Garcia") is not None
    assert names_compatible("J. R. Smith", "John A. Smith") is None  # the middle initials differ
    assert names_compatible("X.-B. Xie", "Xiao-Yan Xie") is None
    # Every compatible pair shares a block: candidates are found by lookup, not by comparing all pairs.
    assert block_keys("T.-H. Liao") & block_keys("Liao Tianhua")


def cv(path: str, owner: str, *works: Work) -> Document:
    return Document(path, "markdown", "0", Profile(owner, Span(path, 1, 1)), facts=list(works))


def test_a_lab_mate_in_two_cvs_of_one_lab_is_one_person_and_a_stranger_of_that_name_is_not():
    # Ann Lee's and Bo Chen's CVs both list the two papers they wrote with Mei Zhou (shared works,
    # 2020 and 2021), and each lists two papers of its own with her (2019 and 2022; Kai Sun on one of
    # each). Each CV has a core "Mei Zhou" (its own papers); the cores' years overlap (2019-2022 in
    # both), so this is no person who moved from one group to the other, and before the lab-mate rule
    # the shared papers fitted two cores and were kept apart. Now: one name beside both owners on a
    # work both CVs list, with a co-author in common (Kai Sun) on papers that do not link them -> one
    # person over eight mentions. Dan Wu's CV prints a "Mei Zhou" with Lin Ma only: no shared work or
    # co-author, so a second person, listed as possibly the same.
    shared = [("Kernel Fusion for Vector Search", "2020"), ("Elastic Caches in Practice", "2021")]
    own = {"cv-a.md": [("Adaptive Stream Joins", "2019", "Kai Sun"), ("Tiered Memory Pools", "2022", "Rui Gao")],
           "cv-b.md": [("Sparse Index Tuning", "2019", "Kai Sun"), ("Batch Schedulers", "2022", "Yan Hu")]}
    a = cv("cv-a.md", "Ann Lee", *(work("cv-a.md", 3 + i, t, "Ann Lee", "Mei Zhou", "Bo Chen", year=y)
                                   for i, (t, y) in enumerate(shared)),
           *(work("cv-a.md", 9 + i, t, "Ann Lee", "Mei Zhou", o, year=y) for i, (t, y, o) in enumerate(own["cv-a.md"])))
    b = cv("cv-b.md", "Bo Chen", *(work("cv-b.md", 3 + i, t, "Bo Chen", "Ann Lee", "Mei Zhou", year=y)
                                   for i, (t, y) in enumerate(shared)),
           *(work("cv-b.md", 9 + i, t, "Bo Chen", o, "Mei Zhou", year=y) for i, (t, y, o) in enumerate(own["cv-b.md"])))
    c = cv("cv-c.md", "Dan Wu", work("cv-c.md", 3, "Quantum Noise Models", "Dan Wu", "Mei Zhou", "Lin Ma"),
           work("cv-c.md", 5, "Noise-Aware Compilers", "Dan Wu", "Lin Ma"))
    res = resolve([a, b, c])
    mei = {res.person("Mei Zhou", t, d) for d in own for t in [t for t, _ in shared] + [t for t, _, _ in own[d]]}
    assert len(mei) == 1
    assert res.person("Mei Zhou", "Quantum Noise Models", "cv-c.md") not in mei
    assert any(d.merged and "beside both owners" in d.rule for d in res.decisions)
    # 9 people: Ann Lee, Bo Chen, Kai Sun, Rui Gao, Yan Hu, Dan Wu, Lin Ma and the two Mei Zhous
    assert len(res.people) == 9


def test_lists_cut_short_by_et_al_at_different_places_still_align_the_names_they_share():
    # Regression (1,000 synthetic CVs): four lists of one work, cut by "et al." after 2, 4, 2 and 3
    # names. Each was aligned only with the first list and the previous one, so "Dee Poe" of d.bib
    # never met "Dee Poe" of b.bib (neither the first nor the previous list has her), and the merged
    # work had two people at her place. Each list is now aligned with the longest so far too.
    title = "Notes on Engines"
    lists = {"a.bib": ["Ann Lee", "Bo Chen"], "b.bib": ["Ann Lee", "Bo Chen", "Cy Roe", "Dee Poe"],
             "c.bib": ["Ann Lee", "Bo Chen"], "d.bib": ["Ann Lee", "Bo Chen", "Cy Roe"]}
    # each document lists one more work of its own, so that its names are not on the shared work only
    docs = [bib(path, work(path, 1, title, *names), work(path, 2, f"Own Work of {path}", *names))
            for path, names in lists.items()]
    res = resolve(docs)
    assert res.person("Dee Poe", title, "d.bib") == res.person("Dee Poe", title, "b.bib")
    assert res.person("Cy Roe", title, "d.bib") == res.person("Cy Roe", title, "b.bib")


def test_identity_key_caches_are_given_back_and_the_same_keys_come_again():
    # Identity's key caches hold a whole build's titles and names (see kg.identity.keys.KEY_CACHE); the
    # build gives them back after identity. A title's key is its words run together in lower case, and
    # "J. Doe" fits "Jane Doe" by initials: both the same before and after the release.
    from kg.identity import keys, names

    before = (keys.title_key("Graph Caches: A Study"), names.names_compatible("J. Doe", "Jane Doe"))
    assert keys.title_key.cache_info().currsize > 0
    keys.release_key_caches()
    assert {c.cache_info().currsize for c in keys._KEY_CACHES} == {0}
    # every cache identity fills is released: the name compatibility one (in kg.identity.names) too
    assert names._compatible in keys._KEY_CACHES and keys.title_key in keys._KEY_CACHES
    assert (keys.title_key("Graph Caches: A Study"), names.names_compatible("J. Doe", "Jane Doe")) == before
    assert before == ("graphcachesastudy", names.INITIALS)
