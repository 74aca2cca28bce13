"""A CV's owner is one person however their co-authors fall into groups.

Regression: the rule that splits one printed name in one document into two people (two groups
of works with no co-author in common, in the same years) was applied to the owner too, so a CV
whose owner wrote with two separate teams at once gave two owners.
"""

from __future__ import annotations

from kg.identity.curation import Curation
from kg.identity.resolve import resolve
from kg.records import Document
from kg.sources.plaintext import read_text


def test_an_owner_who_writes_with_two_separate_teams_at_once_stays_one_person():
    # Ada writes six works with Bob (even numbers) and six with Cy (odd numbers), 2010-2015 each:
    # two groups of six works, no co-author in common, the same years. Had Ada been a name in a
    # bibliography, that would be two people; here she is the owner: one. Bob and Cy are one each.
    lines = ["Ada Example", "", "PUBLICATIONS", ""]
    lines += [f"- Ada Example, {'Bob Sample' if i % 2 == 0 else 'Cy Doe'}. Graph study number {i}. "
              f"GraphConf, {2010 + i // 2}." for i in range(12)]
    doc = read_text("\n".join(lines) + "\n", Document(path="cv-ada.txt", format="text", sha256="", subject=None))
    res = resolve([doc], Curation.from_text("", "c.yaml"))
    assert sorted(p.name for p in res.people.values()) == ["Ada Example", "Bob Sample", "Cy Doe"]
