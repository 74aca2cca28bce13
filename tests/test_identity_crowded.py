"""Identity on crowded data: the evidence rules issue 13 added, each on small invented lists.

Every document here is a group's BibTeX-like publication list (no owner) built from records;
the names are invented. Expected values are derived by hand in the comments.
"""

from __future__ import annotations

from kg.identity.curation import Curation
from kg.identity.names import names_compatible, one_candidate
from kg.identity.resolve import resolve
from kg.records import Author, Document, Span, Work


def work(doc: str, line: int, title: str, *names: str, year: str = "2020") -> Work:
    return Work(title, Span(doc, line, line), authors=[Author(n, n) for n in names], year=year)


def bib(path: str, *works: Work) -> Document:
    return Document(path, "bibtex", "0", None, facts=list(works))


def test_a_full_form_without_the_middle_initial_fits_initials_with_it():
    # "J. M. Doe" abbreviates "Jane Doe" whose middle name the full form leaves out; but a hyphenated
    # pair of initials is one given name, so "X.-B. Xie" still does not fit "Xiaoyan Xie".
    assert names_compatible("J. M. Doe", "Jane Doe") is not None
    assert names_compatible("X.-B. Xie", "Xiaoyan Xie") is None
    assert names_compatible("X. B. Xie", "Xiaoyan Xie") is not None
    assert one_candidate(["T. Doe", "T.-H. Doe", "Taohai Doe"]) and not one_candidate(["Tao Doe", "Taohai Doe"])


def test_initials_join_variants_of_one_name_but_not_two_names():
    # One list prints one person three ways: "T. Doe" fits "T.-H. Doe" and "Taohai Doe", which fit
    # each other: one candidate, so all three are one person.
    a = bib("a.bib", work("a.bib", 1, "Alpha", "T. Doe", "Ann Lee"), work("a.bib", 2, "Beta", "T.-H. Doe", "Ann Lee"),
            work("a.bib", 3, "Gamma", "Taohai Doe", "Ann Lee"))
    res = resolve([a])
    assert len({res.person(n, t, "a.bib") for n, t in [("T. Doe", "Alpha"), ("T.-H. Doe", "Beta"),
                                                      ("Taohai Doe", "Gamma")]}) == 1
    # With "Tao Doe" beside "Taohai Doe", "T. Doe" fits two different names: it joins neither.
    b = bib("b.bib", work("b.bib", 1, "Alpha", "T. Doe", "Ann Lee"), work("b.bib", 2, "Beta", "Tao Doe", "Ann Lee"),
            work("b.bib", 3, "Gamma", "Taohai Doe", "Bo Chen"))
    res = resolve([b])
    assert len({res.person(n, t, "b.bib") for n, t in [("T. Doe", "Alpha"), ("Tao Doe", "Beta"),
                                                      ("Taohai Doe", "Gamma")]}) == 3


def test_a_shared_work_joins_the_group_that_lists_it_for_that_name_alone():
    # g.bib has its own "Wei Wang" (Alpha, Beta with Ann Lee); h.bib has another (Gamma with Bo Chen,
    # Delta with Carl Diaz). Both list "Shared" (Bo Chen, Carl Diaz, Wei Wang). h.bib names Bo Chen and
    # Carl Diaz on works of its own too, so it lists Shared for them; g.bib names none of Shared's other
    # authors: it lists Shared for its Wei Wang alone. So Shared's Wei Wang (in both lists) is g's; h's
    # stays apart (one shared work; both Wei Wangs at work from 2018 to 2021: no sign of a move).
    shared = ("Bo Chen", "Carl Diaz", "Wei Wang")
    g = bib("g.bib", work("g.bib", 1, "Alpha", "Wei Wang", "Ann Lee", year="2018"),
            work("g.bib", 2, "Beta", "Wei Wang", "Ann Lee", year="2021"), work("g.bib", 3, "Shared", *shared))
    h = bib("h.bib", work("h.bib", 1, "Gamma", "Wei Wang", "Bo Chen", year="2018"),
            work("h.bib", 2, "Delta", "Wei Wang", "Carl Diaz", year="2021"), work("h.bib", 3, "Shared", *shared))
    res = resolve([g, h])
    g_wang, h_wang = res.person("Wei Wang", "Alpha", "g.bib"), res.person("Wei Wang", "Gamma", "h.bib")
    assert res.person("Wei Wang", "Shared", "h.bib") == res.person("Wei Wang", "Shared", "g.bib") == g_wang
    assert g_wang != h_wang
    assert any(d.rule.startswith("possibly the same") for d in res.decisions)


def test_a_person_who_moved_is_one_but_a_guest_namesake_is_not():
    # old.bib: Mei Lin with Ann Lee in 2015-2016; new.bib: Mei Lin with Bo Chen in 2019-2020. Both list
    # "Moved On" (2021; Mei Lin, Bo Chen, Carl Diaz): old.bib names none of its other authors elsewhere,
    # so it lists the work for its former member alone, whose works there end before new.bib's begin.
    old = bib("old.bib", work("old.bib", 1, "Early One", "Mei Lin", "Ann Lee", year="2015"),
              work("old.bib", 2, "Early Two", "Mei Lin", "Ann Lee", year="2016"),
              work("old.bib", 3, "Moved On", "Mei Lin", "Bo Chen", "Carl Diaz", year="2021"))
    new = bib("new.bib", work("new.bib", 1, "Late One", "Mei Lin", "Bo Chen", year="2019"),
              work("new.bib", 2, "Late Two", "Mei Lin", "Bo Chen", year="2020"),
              work("new.bib", 3, "Moved On", "Mei Lin", "Bo Chen", "Carl Diaz", year="2021"))
    res = resolve([old, new])
    assert res.person("Mei Lin", "Early One", "old.bib") == res.person("Mei Lin", "Late One", "new.bib")
    # host.bib's own Mei Lin works with Ann Lee from 2015 to 2021; home.bib's Mei Lin (with Dan Eck) is
    # a guest on host's "Visit" (2021). host lists Visit for Ann Lee too, and both are at work in the same
    # years: two people, the guest's mention on Visit with home's.
    host = bib("host.bib", work("host.bib", 1, "Host One", "Mei Lin", "Ann Lee", year="2015"),
               work("host.bib", 2, "Host Two", "Mei Lin", "Ann Lee", year="2021"),
               work("host.bib", 3, "Visit", "Ann Lee", "Mei Lin", year="2021"))
    home = bib("home.bib", work("home.bib", 1, "Home One", "Mei Lin", "Dan Eck", year="2016"),
               work("home.bib", 2, "Home Two", "Mei Lin", "Dan Eck", year="2020"),
               work("home.bib", 3, "Visit", "Ann Lee", "Mei Lin", year="2021"))
    res = resolve([host, home])
    assert res.person("Mei Lin", "Host One", "host.bib") != res.person("Mei Lin", "Home One", "home.bib")
    assert res.person("Mei Lin", "Visit", "host.bib") == res.person("Mei Lin", "Home One", "home.bib")


def test_a_shared_work_joins_the_group_whose_members_wrote_it():
    # p.bib and q.bib each have a "Li Na" of their own. Both list "Joint" (Li Na, Ann Lee, Bo Chen,
    # Dan Eck). p.bib names Ann Lee and Bo Chen on works of its own (two of Li Na's co-authors there),
    # q.bib only Dan Eck (one): neither lists it for Li Na alone, and p's members wrote it (2 >= 2 x 1).
    joint = ("Li Na", "Ann Lee", "Bo Chen", "Dan Eck")
    p = bib("p.bib", work("p.bib", 1, "P One", "Li Na", "Ann Lee", "Bo Chen"),
            work("p.bib", 2, "P Two", "Li Na", "Ann Lee", "Bo Chen"), work("p.bib", 3, "Joint", *joint))
    q = bib("q.bib", work("q.bib", 1, "Q One", "Li Na", "Dan Eck"), work("q.bib", 2, "Q Two", "Li Na", "Dan Eck"),
            work("q.bib", 3, "Joint", *joint))
    res = resolve([p, q])
    assert res.person("Li Na", "Joint", "q.bib") == res.person("Li Na", "P One", "p.bib")
    assert res.person("Li Na", "Q One", "q.bib") != res.person("Li Na", "P One", "p.bib")


def test_a_name_printed_twice_on_one_work_joins_no_one():
    # "Wei Wang" twice on "Two Wangs" (two people; both lists print it so): the mention cannot be told
    # apart, so it joins neither a.bib's own Wei Wang nor anyone else.
    twice = ("Wei Wang", "Bo Chen", "Wei Wang")
    a = bib("a.bib", work("a.bib", 1, "Alpha", "Wei Wang", "Ann Lee"), work("a.bib", 2, "Beta", "Wei Wang", "Ann Lee"),
            work("a.bib", 3, "Two Wangs", *twice))
    b = bib("b.bib", work("b.bib", 1, "Two Wangs", *twice))
    res = resolve([a, b])
    assert res.person("Wei Wang", "Two Wangs", "a.bib") != res.person("Wei Wang", "Alpha", "a.bib")


def test_one_name_with_disjoint_coauthor_groups_at_once_is_two_people():
    # dept.bib lists "Wei Wang" with Ann Lee and Bo Chen on three works (2018-2021) and with Carl Diaz
    # and Dan Eck on three others (2018-2021): no co-author in common, at work in the same years, so two
    # people, kept apart and listed; one curation line joins them again.
    works = [work("dept.bib", i, f"Left {i}", "Wei Wang", "Ann Lee", "Bo Chen", year=str(2017 + i)) for i in (1, 2, 4)]
    works += [work("dept.bib", 10 + i, f"Right {i}", "Wei Wang", "Carl Diaz", "Dan Eck", year=str(2017 + i))
              for i in (1, 3, 4)]
    res = resolve([bib("dept.bib", *works)])
    left, right = res.person("Wei Wang", "Left 1", "dept.bib"), res.person("Wei Wang", "Right 1", "dept.bib")
    assert left != right and res.person("Wei Wang", "Left 4", "dept.bib") == left
    assert any("disjoint groups" in d.rule for d in res.decisions)
    (listed,) = [d for d in res.decisions if d.rule.startswith("possibly the same")]
    assert "same_as: [[Wei Wang @ dept.bib, Wei Wang @ dept.bib]]" in listed.evidence
    cur = Curation.from_text("people:\n  same_as:\n    - [Wei Wang @ dept.bib, Wei Wang @ dept.bib]\n", "c.yaml")
    res = resolve([bib("dept.bib", *works)], cur)
    assert res.person("Wei Wang", "Left 1", "dept.bib") == res.person("Wei Wang", "Right 1", "dept.bib")
    # The same two groups one after the other (2010-2012, then 2018-2020): one person who changed team,
    # for a rarer name ("Wei Qiu"); "Wei Wang", a crowded name, with no co-author in common and years
    # apart, is two people (tests/test_identity_crowded_names.py).
    def one(name: str) -> bool:
        works = [work("dept.bib", i, f"Left {i}", name, "Ann Lee", "Bo Chen", year=str(2009 + i)) for i in (1, 2, 3)]
        works += [work("dept.bib", 10 + i, f"Right {i}", name, "Carl Diaz", "Dan Eck", year=str(2017 + i))
                  for i in (1, 2, 3)]
        res = resolve([bib("dept.bib", *works)])
        return res.person(name, "Left 1", "dept.bib") == res.person(name, "Right 1", "dept.bib")

    assert one("Wei Qiu") and not one("Wei Wang")


def test_one_name_on_shared_works_only_joins_with_a_coauthor_in_common():
    # Both lists print "Y. Wang" on "Quake" (with Ann Lee) and "Cloud" (with Bo Chen) and nowhere else:
    # nothing but the printed name links the two, so two people; "Storage" (Y. Wang, Bo Chen, Carl Diaz)
    # shares Bo Chen with Cloud: one person with it.
    docs = [bib(d, work(d, 1, "Quake", "Y. Wang", "Ann Lee"), work(d, 2, "Cloud", "Y. Wang", "Bo Chen"),
                work(d, 3, "Storage", "Y. Wang", "Bo Chen", "Carl Diaz")) for d in ("a.bib", "b.bib")]
    res = resolve(docs)
    assert res.person("Y. Wang", "Quake", "a.bib") != res.person("Y. Wang", "Cloud", "a.bib")
    assert res.person("Y. Wang", "Cloud", "b.bib") == res.person("Y. Wang", "Storage", "a.bib")


def test_the_fellows_kept_for_few_documents_change_no_decision(monkeypatch):
    # The passes keep the fellows (kg.identity.crowded.fellows_of) of the documents asked about last
    # only; made again for a document asked about anew, they must be what they were. Kept for one
    # document at a time, every document asked about twice is made twice: the same decisions.
    from pathlib import Path

    from conftest import DATA

    import kg.identity.crowded as crowded
    from kg.build import read_documents
    from kg.identity.curation import CURATION_FILE

    made = []
    real = crowded.fellows_of
    monkeypatch.setattr(crowded, "fellows_of", lambda nodes, listings: made.append(1) or real(nodes, listings))
    answers = []
    for kept in (crowded.FELLOWS_KEPT, 1):
        monkeypatch.setattr(crowded, "FELLOWS_KEPT", kept)
        made.clear()
        found = []
        for folder in (DATA, Path(__file__).parent / "data"):
            curation = Curation.load(folder / CURATION_FILE)
            res = resolve(read_documents(folder, curation=curation)[0], curation)
            found.append((res.person_of_mention, res.work_of, [repr(d) for d in res.decisions]))
        answers.append((len(made), found))
    (made_kept, kept_answer), (made_one, one_answer) = answers
    assert made_one > made_kept  # with one kept, some document's fellows were made again
    assert one_answer == kept_answer
