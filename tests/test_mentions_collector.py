"""What identity takes from each document gathered while the documents are read (kg.identity.resolve.
Gathered: the people's mentions, kg.identity.mentions.Collector, and the venues printed together,
kg.identity.venues.VenueGroups; fed by ``read_documents(arrived=...)``): the same people, venues and
decisions as gathered after reading, from the documents kept, in order, with the curation file's
work corrections applied first."""

from __future__ import annotations

import pytest
from conftest import DATA

from kg import build
from kg.build import read_documents
from kg.identity.curation import CURATION_FILE, Curation
from kg.identity.mentions import collect
from kg.identity.resolve import Gathered, resolve


def _decisions(res) -> list[tuple]:
    return [(d.kind, d.subject, d.related, d.merged, d.rule, d.evidence, d.sources) for d in res.decisions]


@pytest.mark.parametrize("parallel_from", [build.PARALLEL_FROM, 1], ids=["one process", "every core"])
def test_mentions_gathered_while_reading_give_the_same_people_and_decisions(monkeypatch, parallel_from):
    # every core: the seeds (5 documents) read by the pool of worker processes, as a big build reads
    monkeypatch.setattr(build, "PARALLEL_FROM", parallel_from)
    curation = Curation.load(DATA / CURATION_FILE)
    arrived = []
    gathered = Gathered(curation)

    def gather(doc):
        arrived.append(doc.path)
        gathered.add(doc)

    docs, _ = read_documents(DATA, curation=curation, arrived=gather)
    # the five seed documents, each once, in the order read_documents returns them
    assert arrived == [d.path for d in docs] and len(arrived) == 5
    early = resolve(docs, curation, gathered=gathered)
    after = resolve(docs, curation)
    assert early.people == after.people and early.person_of_mention == after.person_of_mention
    assert early.venue_of_key == after.venue_of_key and early.venue_names == after.venue_names
    assert early.work_of == after.work_of
    # by hand: the seeds' decisions hold people's and venues' (the CVs print an acronym beside a name)
    assert _decisions(early) == _decisions(after)
    assert {"person", "venue"} <= {d.kind for d in early.decisions}


def test_a_document_that_gave_nothing_never_arrives_and_a_corrected_one_arrives_corrected(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "notes.txt").write_text("Shopping list\n\nmilk, eggs and bread\n")  # no CV: gives nothing
    # a CV whose only publication is cut off after its title: read as a skip with nothing to keep, but
    # for the curation file's correction, which gives it two authors
    (data / "cut.md").write_text("# Jane Roe\n\n## Publications\n\n**A Paper Cut Off Mid-")
    (data / CURATION_FILE).write_text(
        "corrections:\n  works:\n    - document: cut.md\n      title: \"A Paper Cut Off Mid-\"\n"
        "      authors: [Jane Roe, Ann Lee]\n      year: 2006\n"
        "    - document: cut.md\n      title: \"No Such Paper\"\n      authors: [Bo Ni]\n")
    curation = Curation.load(data / CURATION_FILE)
    arrived = []
    docs, skipped = read_documents(data, curation=curation, arrived=arrived.append)
    assert [d.path for d in arrived] == ["cut.md"] and arrived == docs
    # it arrived with the corrected work: the two authors of the curation file
    (work,) = [f for f in arrived[0].facts if getattr(f, "title", None) == "A Paper Cut Off Mid-"]
    assert [a.name for a in work.authors] == ["Jane Roe", "Ann Lee"]
    # the correction that matched nothing (line 7 of the curation file) and the notes are reported
    reasons = {(s.span.document, s.span.first_line): s.reason for s in skipped}
    assert "no work titled 'No Such Paper' in cut.md" in reasons[(str(data / CURATION_FILE), 7)]
    assert any(doc == "notes.txt" for doc, _ in reasons)


def test_the_collector_gives_its_mentions_once_and_only_for_the_documents_it_was_given():
    curation = Curation.load(DATA / CURATION_FILE)
    docs, _ = read_documents(DATA, curation=curation)
    gathered = Gathered(curation)
    for doc in docs[:-1]:
        gathered.add(doc)
    with pytest.raises(ValueError, match="other documents"):
        resolve(docs, curation, gathered=gathered)  # one document short
    gathered.add(docs[-1])
    mentions = gathered.people.result()
    # the same nodes as gathered in one go: names, documents and co-author links
    whole = collect(docs, curation)
    assert [(n.document, n.name, tuple(n.context)) for n in mentions.nodes] == \
        [(n.document, n.name, tuple(n.context)) for n in whole.nodes]
    with pytest.raises(ValueError, match="taken already"):
        gathered.people.result()
    with pytest.raises(ValueError, match="taken already"):
        gathered.people.add(docs[0])


def test_what_was_gathered_is_refused_for_other_documents():
    curation = Curation.load(DATA / CURATION_FILE)
    docs, _ = read_documents(DATA, curation=curation)
    gathered = Gathered(curation)
    for doc in docs[1:]:
        gathered.add(doc)
    with pytest.raises(ValueError, match="other documents"):
        resolve(docs, curation, gathered=gathered)  # the first document left out
