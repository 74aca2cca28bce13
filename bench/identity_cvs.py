"""Identity on generated CVs of labs: people and works found against the generator's own truth.

``../shared/tools/gen_corpus.py`` writes one markdown CV per lab member (every work its owner
co-wrote; co-authors are recurring lab mates, a few from other labs). Its expected file gives only
counts, so the generator is run here in this process, its ``render_cv`` watched: that gives each
work's true authors in printed order. Each author kg read is then matched to a true person by its
work (title key) and place in the list ("et al." only cuts the end), and each work to a true work.

What it reports:

* people: how many true people kg gives one IRI, and how many it splits, and of the IRIs a split
  person gets, how many are only in CVs of other labs than the person's own (a guest on one paper of
  another lab, whom only the name links: kept apart by design, listed as possibly the same);
* false merges: kg people holding several true people (namesakes joined);
* works: true works kg splits and kg works holding several true works.

Run through ``bench.bench_identity`` (``--cvs N``); skipped where the generator is absent.
"""

from __future__ import annotations

import importlib.util
import tempfile
import time
from collections import defaultdict
from pathlib import Path

GENERATOR = Path(__file__).resolve().parent.parent.parent / "shared" / "tools" / "gen_corpus.py"


def _generated(n_docs: int, seed: int, generator: Path, folder: Path) -> tuple[dict, dict, dict, dict]:
    """Write the CVs into *folder*; the expected counts, the works by id, the people by id and the lab
    of each CV's owner by file name."""
    spec = importlib.util.spec_from_file_location("gen_corpus", generator)
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    works: dict[int, dict] = {}
    people: dict[int, object] = {}
    owners: dict[int, object] = {}
    render = gen.render_cv

    def watched(rng, owner, owner_works, population, n):
        works.update((w["id"], w) for w in owner_works)
        people.update((p.pid, p) for p in population)
        owners[n] = owner
        return render(rng, owner, owner_works, population, n)

    gen.render_cv = watched
    docs, expected = gen.generate(n_docs, seed)
    folder.mkdir(parents=True)
    for name, text in docs:
        (folder / name).write_text(text, encoding="utf-8")
    return expected, works, people, {name: owners[n].lab for n, (name, _) in enumerate(docs)}


def check_cvs(n_docs: int = 100, seed: int = 1, generator: Path = GENERATOR) -> dict | None:
    """People and works found on *n_docs* generated CVs against the truth; None where the generator is absent."""
    if not generator.exists():
        return None
    from bench.identity_scores import cluster_errors
    from kg.build import read_documents
    from kg.identity.curation import Curation
    from kg.identity.keys import title_key
    from kg.identity.resolution import work_mention
    from kg.identity.resolve import resolve
    from kg.records import Work

    with tempfile.TemporaryDirectory() as tmp:
        expected, works, people, lab_of_file = _generated(n_docs, seed, generator, Path(tmp) / "cvs")
        curation = Curation.from_text("", "curation.yaml")
        docs, _ = read_documents(Path(tmp) / "cvs", curation=curation)
    t = time.process_time()
    res = resolve(docs, curation)
    seconds = time.process_time() - t

    true_work = {title_key(w["title"]): w for w in works.values()}
    # each author (document, entry, place) and each listing (document, entry): what kg says, and the truth
    person_found: dict[tuple, str] = {}
    person_truth: dict[tuple, int] = {}
    work_found: dict[tuple, str | None] = {}
    work_truth: dict[tuple, int] = {}
    lab_of_mention: dict[tuple, int | None] = {}
    unmatched = 0
    for doc in docs:
        owner_lab = lab_of_file.get(Path(doc.path).name)
        for fact in doc.facts:
            if not isinstance(fact, Work):
                continue
            truth = true_work.get(title_key(fact.title))
            if truth is None:
                unmatched += 1
                continue
            work_found[(doc.path, fact.span)] = res.work_of.get(work_mention(doc.path, fact))
            work_truth[(doc.path, fact.span)] = truth["id"]
            for place, author in enumerate(fact.authors[: len(truth["authors"])]):
                mention = (doc.path, fact.span, place)
                person_found[mention] = res.person(author.name, fact.title, doc.path)
                person_truth[mention] = truth["authors"][place]
                lab_of_mention[mention] = owner_lab
    people_errors = cluster_errors(person_found, person_truth)
    work_errors = cluster_errors(work_found, work_truth)
    iris_of_person: dict[int, set[str]] = defaultdict(set)
    labs_of: dict[tuple[int, str], set[int | None]] = defaultdict(set)  # (person, iri) -> labs of the CVs it is in
    for mention, pid in person_truth.items():
        iris_of_person[pid].add(person_found[mention])
        labs_of[(pid, person_found[mention])].add(lab_of_mention[mention])
    split = {pid: iris for pid, iris in iris_of_person.items() if len(iris) > 1}
    outside = sum(1 for pid, iris in split.items() for iri in iris
                  if people[pid].lab not in labs_of[(pid, iri)])
    return {"documents": n_docs, "people": len(res.people), "true_people": expected["authors_unique_people"],
            "works": len(res.work_titles), "true_works": expected["works_unique"],
            "people_one_iri": len(iris_of_person) - len(split), "people_split": people_errors.split_people,
            "split_iris": sum(len(iris) for iris in split.values()), "split_iris_only_in_other_labs": outside,
            "false_merges": people_errors.false_merges,
            "works_split": work_errors.split_people, "works_joined": work_errors.false_merges,
            "listings_without_a_true_title": unmatched, "resolve_cpu_s": round(seconds, 2)}


def cvs_markdown(cvs: dict) -> str:
    """One paragraph of :func:`check_cvs`'s figures."""
    return (f"{cvs['documents']} generated CVs: {cvs['people']:,} people found, {cvs['true_people']:,} true; "
            f"{cvs['people_one_iri']:,} true people have one IRI, {cvs['people_split']:,} are split into "
            f"{cvs['split_iris']:,} IRIs, {cvs['split_iris_only_in_other_labs']:,} of them only in CVs of other labs "
            f"(a guest whom only the name links); {cvs['false_merges']:,} kg people join several true people. "
            f"{cvs['works']:,} works found, {cvs['true_works']:,} true: {cvs['works_split']} split, "
            f"{cvs['works_joined']} kg works join several ({cvs['listings_without_a_true_title']} listings with "
            f"no true title). Identity {cvs['resolve_cpu_s']} CPU s.")
