"""A group list that prints one name twice on one of its own works holds two people of that name.

Each test writes small invented BibTeX lists, reads them with kg's reader and resolves them; the
expected values are derived by hand in the comments. In every one, a.bib prints "Li, Wei" twice on
"Alpha study" (a work no other list holds): two Wei Lis are among its members, so which of them
any other "Wei Li" of a.bib is, nothing in the list says. Before, the list's core of the name was
taken for one person and took in more on the name's word alone.
"""

from __future__ import annotations

from pathlib import Path

from kg.identity.curation import Curation
from kg.identity.resolve import resolve
from kg.identity.twice import TWO_PEOPLE
from kg.sources import read_document


def entry(key: str, title: str, authors: str, year: int) -> str:
    return f"@article{{{key},\n  title = {{{title}}},\n  author = {{{authors}}},\n  journal = {{J}},\n  year = {{{year}}},\n}}\n"


def resolve_lists(tmp_path: Path, lists: dict[str, list[str]]):
    docs = []
    for name, entries in lists.items():
        (tmp_path / name).write_text("\n".join(entries), encoding="utf-8")
        docs.append(read_document(tmp_path / name))
    res = resolve(docs, Curation())

    def person(name: str, title: str, doc: str) -> str:
        return res.person(name, title, next(d.path for d in docs if Path(d.path).name == doc))

    return res, person


A_OWN = [entry("a1", "Alpha study", "Li, Wei and Li, Wei and Lee, Ann", 2013),
         entry("a2", "Beta study", "Li, Wei and Lee, Ann", 2014)]


def kept_apart(res) -> list[str]:
    return [d.evidence for d in res.decisions if not d.merged and TWO_PEOPLE in d.rule]


def test_a_mention_on_a_shared_work_does_not_join_a_name_its_list_holds_twice(tmp_path):
    # "Gamma study" (Wei Li, Carl Diaz) is in a.bib and b.bib; b.bib has no Wei Li of its own, so the
    # one core of the name among the lists is a.bib's, which holds two people: Gamma's Wei Li is either
    # (or a third), so it stays apart from Beta's Wei Li. Before: joined ("the same name in one document,
    # on a work other documents list too").
    gamma = entry("g", "Gamma study", "Li, Wei and Diaz, Carl", 2014)
    res, person = resolve_lists(tmp_path, {
        "a.bib": [*A_OWN, gamma],
        "b.bib": [entry("b1", "Delta study", "Diaz, Carl and Fox, Eve", 2014), gamma]})
    assert person("Wei Li", "Gamma study", "a.bib") == person("Wei Li", "Gamma study", "b.bib")  # one listing, aligned
    assert person("Wei Li", "Gamma study", "a.bib") != person("Wei Li", "Beta study", "a.bib")
    assert kept_apart(res)


def test_another_form_of_a_name_held_twice_stays_apart(tmp_path):
    # "W. Li" (with Ann Lee, like the Wei Lis) fits the one full name beside it, "Wei Li", but a.bib holds
    # two Wei Lis: the initials are either. Before: joined ("one document, the initials fit the full name").
    res, person = resolve_lists(tmp_path, {"a.bib": [*A_OWN, entry("a3", "Epsilon study", "Li, W. and Lee, Ann", 2014)]})
    assert person("W. Li", "Epsilon study", "a.bib") != person("Wei Li", "Beta study", "a.bib")
    assert any("W. Li ~ Wei Li" in e or "Wei Li ~ W. Li" in e for e in kept_apart(res))


def test_no_move_is_inferred_from_a_list_that_holds_the_name_twice(tmp_path):
    # c.bib's own Wei Li writes in 2016-2017 (with Bo Ng); a.bib's Wei Lis in 2013-2014. "Zeta study" (2016,
    # Wei Li and Zed Orr) is listed by both, each for its Wei Li alone (Zed Orr is on no other work of
    # either): before, that was "a person who moved" from a.bib to c.bib, and c's Wei Li was joined to
    # a.bib's core. Now a.bib's core is two people: which of them moved, if either, is unknown; apart.
    zeta = entry("z", "Zeta study", "Li, Wei and Orr, Zed", 2016)
    res, person = resolve_lists(tmp_path, {
        "a.bib": [*A_OWN, zeta],
        "c.bib": [entry("c1", "Eta study", "Li, Wei and Ng, Bo", 2016), entry("c2", "Theta study", "Li, Wei and Ng, Bo", 2017),
                  zeta]})
    assert person("Wei Li", "Eta study", "c.bib") == person("Wei Li", "Theta study", "c.bib")
    assert person("Wei Li", "Eta study", "c.bib") != person("Wei Li", "Beta study", "a.bib")
    assert person("Wei Li", "Zeta study", "a.bib") != person("Wei Li", "Beta study", "a.bib")


def test_a_name_printed_twice_on_a_shared_work_proves_nothing_about_the_list(tmp_path):
    # The same lists as the first test, but "Alpha study" (the two Wei Lis) is in b.bib too: the second
    # Wei Li may be b's guest, so a.bib's core stays one person and Gamma's Wei Li joins it, as before.
    alpha = A_OWN[0]
    gamma = entry("g", "Gamma study", "Li, Wei and Diaz, Carl", 2014)
    _, person = resolve_lists(tmp_path, {
        "a.bib": [*A_OWN, gamma],
        "b.bib": [entry("b1", "Delta study", "Diaz, Carl and Fox, Eve", 2014), gamma, alpha]})
    assert person("Wei Li", "Gamma study", "a.bib") == person("Wei Li", "Beta study", "a.bib")


def test_the_two_of_one_name_on_one_work_join_neither(tmp_path):
    # "Alpha study" prints "Li, Wei" twice: its one node of the name holds two people, so it joins
    # neither the list's other Wei Li (Beta) nor anything else; before, the list's core took it in
    # ("the same name in one document"), making Beta's Wei Li both people of Alpha.
    _, person = resolve_lists(tmp_path, {"a.bib": [*A_OWN, entry("a3", "Iota study", "Li, Wei and Lee, Ann", 2015)]})
    assert person("Wei Li", "Beta study", "a.bib") == person("Wei Li", "Iota study", "a.bib")
    assert person("Wei Li", "Alpha study", "a.bib") != person("Wei Li", "Beta study", "a.bib")


def test_a_shared_work_still_joins_another_group_that_lists_it_for_that_name_alone(tmp_path):
    # "Gamma study" (Wei Li, Carl Diaz) is in a.bib (which holds two Wei Lis, and names Carl Diaz on a
    # work of its own: it lists Gamma for Carl Diaz too) and in e.bib, whose own Wei Li writes with Jo Kim
    # and which names no other author of Gamma: e.bib lists it for its Wei Li alone. The core the
    # anchors pick is e.bib's, which is one person: Gamma's Wei Li joins it. Only a.bib's is refused.
    gamma = entry("g", "Gamma study", "Li, Wei and Diaz, Carl", 2014)
    _, person = resolve_lists(tmp_path, {
        "a.bib": [*A_OWN, entry("a4", "Kappa study", "Diaz, Carl and Lee, Ann", 2014), gamma],
        "e.bib": [entry("e1", "Lambda study", "Li, Wei and Kim, Jo", 2014),
                  entry("e2", "Mu study", "Li, Wei and Kim, Jo", 2015), gamma]})
    assert person("Wei Li", "Gamma study", "a.bib") == person("Wei Li", "Lambda study", "e.bib")
    assert person("Wei Li", "Gamma study", "a.bib") != person("Wei Li", "Beta study", "a.bib")


def test_a_name_whose_mentions_in_a_list_are_two_people_equally_often_is_the_first_of_them(tmp_path):
    # a.bib alone: Alpha's Wei Li (printed twice there) and Beta's are kept apart, so the name "Wei Li" in
    # a.bib is two people, each on one of its works. Asked without a work of the list, the name is the
    # person most of its mentions there are; on this tie, the first IRI in order.
    res, person = resolve_lists(tmp_path, {"a.bib": A_OWN})
    alpha, beta = person("Wei Li", "Alpha study", "a.bib"), person("Wei Li", "Beta study", "a.bib")
    assert alpha != beta
    assert person("Wei Li", "A study of no list", "a.bib") == min(alpha, beta)
