"""Identity's owners' groups made in a fork beside the passes (kg.identity.people.run_passes with
*beside*, as the build runs it: kg.child.child_where_room): the same people, works and decisions as
made in one process, from the groups the fork sent back."""

from __future__ import annotations

from conftest import DATA

from kg.build import read_documents
from kg.child import Child, child_where_room
from kg.identity import people
from kg.identity.curation import CURATION_FILE, Curation
from kg.identity.mentions import collect
from kg.identity.resolve import resolve


class Watched(Child):
    """A real fork that keeps what it was asked to do and what it answered."""

    def start(self, step, *args) -> None:
        super().start(step, *args)
        self.forked, self.step = self.pid is not None, step.__name__

    def result(self):
        self.answer = super().result()
        return self.answer


def _decisions(res) -> list[tuple]:
    return [(d.kind, d.subject, d.related, d.merged, d.rule, d.evidence, d.sources) for d in res.decisions]


def test_owners_groups_made_in_a_fork_give_the_same_identity(monkeypatch):
    monkeypatch.setattr(people, "BESIDE_FROM_MENTIONS", 0)  # the seeds' mentions are a small build's
    curation = Curation.load(DATA / CURATION_FILE)
    docs, _ = read_documents(DATA, curation=curation)
    helpers: list[Watched] = []

    def beside() -> Watched:
        helpers.append(Watched())
        return helpers[-1]

    forked = resolve(docs, curation, beside=beside)
    here = resolve(docs, curation)
    assert len(helpers) == 1 and helpers[0].forked and helpers[0].step == "owner_groups"
    # by hand: the three CVs that print author lists (Qinghao Hu's two, Shenghao Qiu's) name co-authors
    # beside their owner on several works; Kaiqiang Xu's CV lists works without authors and the thesis
    # record has no co-authored works, so neither gives a group
    assert {doc for doc, _ in helpers[0].answer} == {"cv-qinghao-hu-2023.md", "cv-qinghao-hu-2024.md",
                                                     "cv-shenghao-qiu.md"}
    assert forked.people == here.people and forked.person_of_mention == here.person_of_mention
    assert forked.work_of == here.work_of
    assert _decisions(forked) == _decisions(here)


def test_no_fork_for_a_small_build_a_big_one_or_where_no_copy_fits(monkeypatch):
    curation = Curation.load(DATA / CURATION_FILE)
    docs, _ = read_documents(DATA, curation=curation)
    asked: list[int] = []

    def beside():
        asked.append(1)
        return Child()

    resolve(docs, curation, beside=beside)
    # five documents, a few hundred mentions, below BESIDE_FROM_MENTIONS (20,000): no helper is asked for
    assert asked == []
    mentions = len(collect(docs, curation).nodes)
    monkeypatch.setattr(people, "BESIDE_FROM_MENTIONS", 0)
    monkeypatch.setattr(people, "BESIDE_MAX_MENTIONS", mentions - 1)
    resolve(docs, curation, beside=beside)
    assert asked == []  # one mention more than a fork may copy: none either
    monkeypatch.setattr(people, "BESIDE_MAX_MENTIONS", mentions)
    resolve(docs, curation, beside=beside)
    assert asked == [1]  # as many as it may: one
    # where no copy of the process fits, the build's factory gives none, and identity does the step itself
    assert child_where_room(lambda: False) is None
    here = resolve(docs, curation, beside=lambda: child_where_room(lambda: False))
    assert _decisions(here) == _decisions(resolve(docs, curation))


def test_the_mapping_does_not_wait_for_the_fork_that_writes_the_people_decisions(tmp_path, monkeypatch, seeds_out):
    # The people's decisions made and written by a fork that takes three seconds longer than it would:
    # identity's end and the mapping's steps go on without it (a step finds it not done and writes
    # nothing), the end of the mapping waits for it and appends the rest: the small build's bytes.
    import time

    import kg.identity_file
    from kg.identity_file import IdentityFile
    from kg.progress import Stopwatch

    make_and_write = kg.identity_file._make_and_write

    def slow(people, path):
        time.sleep(3.0)
        return make_and_write(people, path)

    monkeypatch.setattr(kg.identity_file, "_make_and_write", slow)
    monkeypatch.setattr(kg.identity_file, "FORK_BESIDE_IDENTITY_FROM_CORES", 1)
    curation = Curation.load(DATA / CURATION_FILE)
    docs, _ = read_documents(DATA, curation=curation)
    for d in docs:  # as the build does: the curation file's dates name the newest version of a CV
        d.latest_date = curation.document_dates.get(d.path, d.latest_date)
    path = tmp_path / "identity.json"
    file = IdentityFile(path, 0, lambda: True)
    started = time.monotonic()
    res = resolve(docs, curation, file.people_resolved)
    file.resolved(res, len(docs), Stopwatch())
    for done in range(1, len(docs) + 1):
        file.step(done)
    assert time.monotonic() - started < 3.0  # nothing above waited for the fork's three seconds
    assert file.child is not None and not path.exists()  # the fork has not begun the file yet
    assert file.beside_mapping == ", with the rest of identity.json once its fork is done"
    file.finish()
    assert file.child is None and path.read_bytes() == (seeds_out / "identity.json").read_bytes()
