"""The person clusters' bookkeeping: who can never be whom, kept without a union per cluster.

The nodes keep their own cannot-sets (shared with their context where both are a work's
co-authors); a cluster searches the smaller side's sets for a member of the larger. These tests
fix what that must still refuse, on nodes made by hand and on documents read by collect().
"""

from __future__ import annotations

from kg.identity.clusters import CANNOT, Cluster
from kg.identity.curation import Curation
from kg.identity.mentions import Node, collect
from kg.records import Author, Document, Span, Work


def nodes(*names: str) -> list[Node]:
    return [Node(i, f"d{i}", (n,), {n: 1}) for i, n in enumerate(names)]


def co_authors(ns: list[Node], a: int, b: int) -> None:
    """*a* and *b* wrote one work together: each is in the other's cannot-set (as collect() makes them)."""
    ns[a].cannot.add(b)
    ns[b].cannot.add(a)


def test_a_cluster_refuses_the_co_author_of_any_member_whichever_side_is_smaller():
    # 3 and 1 wrote one work together. 0 takes in 2, then 3 (a cluster of three, 3 its last member);
    # 1 stays alone. Joining 1 (the smaller side) to any node of the larger must be refused, and so
    # must the other way round once 1's side is the larger (1 takes in 4, 5, 6 first): then the
    # search runs over the sets of 0, 2 and 3, and only the last of them names 1.
    ns = nodes("Ann Lee", "Bo Chen", "Ann Lee", "Ann Lee", "Bo Chen", "Bo Chen", "Bo Chen", "Ann Lee")
    co_authors(ns, 3, 1)
    cl = Cluster.of(ns)
    assert cl.union(0, 2) is None and cl.union(2, 3) is None
    assert cl.union(0, 1) == CANNOT
    assert cl.union(1, 4) is None and cl.union(4, 5) is None and cl.union(5, 6) is None
    assert cl.union(6, 2) == CANNOT
    assert cl.union(7, 0) is None  # 7 wrote nothing with anyone: it joins the Ann Lee cluster
    assert cl.find(0) != cl.find(1)


def test_a_pair_the_curation_file_keeps_apart_stays_apart_after_both_sides_grow():
    # forbid(0, 1) between two Wei Wangs. Each then joins a larger cluster ({2, 3} and {4, 5}), so
    # its own root is merged away and the pair must move with it: {0, 2, 3} and {1, 4, 5} still may
    # not join, through any of their members, in either order.
    ns = nodes(*["Wei Wang"] * 7)
    cl = Cluster.of(ns)
    cl.forbid(0, 1)
    assert cl.union(2, 3) is None and cl.union(0, 2) is None
    assert cl.union(4, 5) is None and cl.union(1, 4) is None
    assert cl.find(0) != 0 and cl.find(1) != 1  # both roots were the smaller sides
    assert cl.union(3, 5) == CANNOT and cl.union(5, 3) == CANNOT
    assert cl.union(6, 5) is None  # a third Wei Wang with no curation line joins either side


def _read(*works: Work) -> Document:
    return Document("lab.bib", "bibtex", "0", None, facts=list(works))


def test_collect_gives_co_authors_as_cannot_and_a_supervisor_as_context_only():
    # "Thesis" by Ann Lee, supervised by Bo Chen: Bo Chen is Ann Lee's context (a supervisor is
    # evidence) but not in her cannot-set (a supervisor is not a co-author who must be someone else).
    # "Paper" by Ann Lee and Cy Ott: each is in the other's context and cannot-set.
    thesis = Work("Thesis", Span("lab.bib", 1, 1), authors=[Author("Ann Lee", "Ann Lee")], kind="thesis",
                  supervisors=["Bo Chen"])
    paper = Work("Paper", Span("lab.bib", 2, 2), authors=[Author("Ann Lee", "Ann Lee"), Author("Cy Ott", "Cy Ott")])
    m = collect([_read(thesis, paper)], Curation())
    by = {(n.name, min(n.titles, default="")): n for n in m.nodes}  # a supervisor is listed on no title
    ann_thesis, bo = by[("Ann Lee", "thesis")], by[("Bo Chen", "")]
    ann_paper, cy = by[("Ann Lee", "paper")], by[("Cy Ott", "paper")]
    assert set(ann_thesis.context) == {bo.id} and set(ann_thesis.cannot) == set()
    assert set(bo.context) == {ann_thesis.id} and set(bo.cannot) == set()
    assert set(ann_paper.context) == set(ann_paper.cannot) == {cy.id}
    assert set(cy.context) == set(cy.cannot) == {ann_paper.id}
    # both authors of "paper" carry the one title set: one object, not a copy per node
    assert ann_paper.titles is cy.titles


def test_nodes_printing_one_name_once_share_its_dict_and_a_second_print_does_not_change_it():
    # Jane Doe printed on two works (two nodes) shares one {"Jane Doe": 1}; the first work printing
    # "J. Doe" for her as well gives that node a dict of its own, with both names once: its name is
    # the first of the tie in sorted order ("J. Doe" < "Jane Doe"); the other node still has one print.
    from kg.identity.mentions import Mentions

    m = Mentions()
    key = ("doe", "jane")
    a = m.node("cv.md", key, "Jane Doe", "author", "work one")
    b = m.node("cv.md", key, "Jane Doe", "author", "work two")
    assert m.nodes[a].names is m.nodes[b].names
    assert m.node("cv.md", key, "J. Doe", "author", "work one") == a
    assert m.nodes[a].names == {"Jane Doe": 1, "J. Doe": 1} and m.nodes[a].name == "J. Doe"
    assert m.nodes[b].names == {"Jane Doe": 1} and m.nodes[b].name == "Jane Doe"
