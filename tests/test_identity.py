"""Identity decisions: a labelled set of name pairs, the seeds' tricky pairs, a co-author's own list."""

from __future__ import annotations

import csv
import json
import shutil

import pytest
from conftest import TESTDATA, run_kg
from rdflib import Graph, Literal, URIRef
from rdflib.namespace import RDF, RDFS

from kg.build import build_graph
from kg.identity.people import decide_same_person
from kg.sources.text import clean_person_name
from kg.vocab import DATA, KG


def labelled_pairs():
    lines = [ln for ln in (TESTDATA / "name-pairs.tsv").read_text(encoding="utf-8").splitlines()
             if not ln.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t"))


def test_labelled_name_pairs_precision_and_recall():
    pairs = labelled_pairs()
    assert len(pairs) >= 60
    tp = fp = fn = 0
    wrong = []
    for p in pairs:
        a, b = clean_person_name(p["name_a"]), clean_person_name(p["name_b"])
        merged, rule = decide_same_person(a, b, shared_coauthors=int(p["shared_coauthors"]),
                                          competing_full_names=int(p["competing_full_names"]))
        expected = p["expected"] == "same"
        tp += merged and expected
        fp += merged and not expected
        fn += expected and not merged
        if merged != expected:
            wrong.append((p["name_a"], p["name_b"], rule, p["note"]))
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    print(f"\nname pairs: {len(pairs)}, merge precision {precision:.3f}, recall {recall:.3f}")
    assert wrong == []
    assert (precision, recall) == (1.0, 1.0)


def people(g, name):
    return set(g.subjects(KG.name, Literal(name)))


@pytest.fixture(scope="module")
def merged(seeds_out):
    return Graph().parse(seeds_out / "kg.ttl")


@pytest.mark.parametrize("a, b", [("Tianwei Zhang", "Zhang Tianwei"), ("Yonggang Wen", "Wen Yonggang")])
def test_seed_pairs_merged(merged, a, b):
    (person,) = people(merged, a)
    assert (person, KG.alternateName, Literal(b)) in merged


@pytest.mark.parametrize("a, b", [("Zeke Wang", "Zheng Wang"), ("Zerui Wang", "Zheng Wang"), ("Wei Wang", "Zeke Wang"),
                                  ("Jie Xu", "Jie Sun"), ("Jie Xu", "Kaiqiang Xu"), ("Jianbin Fang", "Jiarui Fang"),
                                  ("Xiaoyang Sun", "Peng Sun")])
def test_seed_pairs_kept_apart(merged, a, b):
    assert len(people(merged, a)) == 1 and len(people(merged, b)) == 1 and people(merged, a) != people(merged, b)


def test_seed_venues_and_organizations(merged):
    sc = URIRef(DATA["venue/sc"])
    stronghold = next(w for w in merged.subjects(RDF.type, KG.Work)
                      if str(merged.value(w, KG.title)).startswith("STRONGHOLD"))
    assert merged.value(stronghold, KG.publishedIn) == sc  # "(Super Computing 2022)" is SC
    nsdi = URIRef(DATA["venue/nsdi"])
    green = next(w for w in merged.subjects(RDF.type, KG.Work) if str(merged.value(w, KG.title)).startswith("GREEN"))
    llm = next(w for w in merged.subjects(RDF.type, KG.Work)
               if str(merged.value(w, KG.title)).startswith("Characterization of Large Language"))
    assert merged.value(green, KG.publishedIn) == merged.value(llm, KG.publishedIn) == nsdi
    assert merged.value(green, KG.year) != merged.value(llm, KG.year)  # the year belongs to the work
    assert len(set(merged.subjects(RDF.type, KG.Venue))) == 18


def test_a_coauthors_own_list_joins_existing_people_and_works(data_copy, tmp_path):
    shutil.copy(TESTDATA / "publications-peng-sun.md", data_copy)
    report = build_graph(data_copy, tmp_path, validate=False, html=False)
    assert report.skipped == []
    g = Graph().parse(tmp_path / "kg.ttl")
    assert people(g, "Peng Sun") == {URIRef(DATA["person/peng-sun"])}
    # One new co-author (Li Wei); the others are joined by the two papers the CVs list too, and no
    # namesake is left kept apart.
    assert report.profiled == 4 and report.people == 54 + 1  # one new co-author: Li Wei
    possibly = [d for d in json.loads((tmp_path / "identity.json").read_text()) if d["rule"].startswith("possibly")]
    assert possibly == []
    # Two of its three papers are already in the graph: one new work only.
    assert report.works == 28 + 1
    hydro = next(w for w in g.subjects(RDF.type, KG.Work) if str(g.value(w, KG.title)).startswith("Hydro"))
    assert set(g.objects(hydro, KG.alternativeTitle)) == {
        Literal("Hydro: Surrogate-based Hyperparameter Tuning Service in Datacenters")}
    assert (URIRef(DATA["source/publications-peng-sun-md"]), KG.about, URIRef(DATA["person/peng-sun"])) in g


def test_curation_splits_a_printed_name_into_two_people(data_copy, tmp_path):
    (data_copy / "curation.yaml").write_text(
        (data_copy / "curation.yaml").read_text().replace(
            "  aliases: {}",
            "  aliases: {}\n  split:\n    - name: Wei Wang\n      as:\n        - label: Wei Wang (STRONGHOLD)\n"
            "          works: ['STRONGHOLD: Fast and Affordable Billion-scale Deep Learning Model Training']\n"))
    shutil.copy(TESTDATA / "cv-wei-wang.md", data_copy)
    build_graph(data_copy, tmp_path, validate=False, html=False)
    g = Graph().parse(tmp_path / "kg.ttl")
    two = people(g, "Wei Wang")
    assert len(two) == 2
    labelled = {p for p in two if g.value(p, RDFS.label) == Literal("Wei Wang (STRONGHOLD)")}
    assert len(labelled) == 1


def test_curation_names_that_match_nothing_are_errors(data_copy, tmp_path):
    (data_copy / "curation.yaml").write_text(
        (data_copy / "curation.yaml").read_text().replace("  same_as: []", "  same_as:\n    - [Zheng Wang, Zhang Wen]"))
    result = run_kg("build", data_copy, "--out", tmp_path)
    assert result.returncode == 1
    assert f"{data_copy / 'curation.yaml'}:26: no document names 'Zhang Wen'" in result.stderr


def test_kg_explain_and_conflicts(seeds_out):
    run = lambda *a: run_kg(*a, "--out", seeds_out)  # noqa: E731
    out = run("explain", "Zhang Tianwei").stdout
    assert "merged: same name up to order, case, accents and titles" in out and "Tianwei Zhang = Zhang Tianwei" in out
    out = run("explain", "Zheng Wang").stdout
    assert "kept apart" in out and "Zeke Wang vs Zheng Wang" in out
    assert "merged: the same name in several documents" in out
    out = run("explain", "Lucid").stdout
    assert "merged: same short title before the colon" in out
    csv_text = run("conflicts", "--format", "csv").stdout
    rows = list(csv.DictReader(csv_text.splitlines()))
    phd = [r for r in rows if r["label"] == "Qinghao Hu: Ph.D. in Computer Science" and r["property"] == "endDate"]
    assert {(r["value"], r["source"], r["lines"], r["chosen"]) for r in phd} == {
        ("2024-08", "cv-qinghao-hu-2023.md", "19-19", "False"), ("2023", "cv-qinghao-hu-2024.md", "29-35", "True")}
    # an authorship's lines are its work's: the survey is lines 47-49 of the 2023 CV (Hu second,
    # after Wei Gao) and 76-78 of the 2024 CV (third, after Zhisheng Ye and Wei Gao)
    hu = [r for r in rows if r["label"].startswith("Qinghao Hu on Deep Learning") and r["property"] == "ordinal"]
    assert {(r["value"], r["source"], r["lines"], r["chosen"]) for r in hu} == {
        ("2", "cv-qinghao-hu-2023.md", "47-49", "False"), ("3", "cv-qinghao-hu-2024.md", "76-78", "True")}
    titles = {r["value"]: r["chosen"] for r in rows if r["property"] == "title" and r["label"].startswith("Lucid")}
    assert titles == {"Lucid: Non-Intrusive, Scalable and Interpretable Deep Learning Job Scheduling": "False",
                      "Lucid: A Non-Intrusive, Scalable and Interpretable Scheduler for Deep Learning Training Jobs":
                          "True"}


def test_series_translations_accents_and_venue_forms(data_copy, tmp_path):
    shutil.copy(TESTDATA / "cv-lena-fischer.md", data_copy)
    (data_copy / "curation.yaml").write_text((data_copy / "curation.yaml").read_text() + (
        "organizations:\n  aliases:\n    ETH Zürich: [Eidgenössische Technische Hochschule Zürich]\n"))
    report = build_graph(data_copy, tmp_path, validate=False, html=False)
    assert report.skipped == []
    g = Graph().parse(tmp_path / "kg.ttl")
    titles = {str(g.value(w, KG.title)): w for w in g.subjects(RDF.type, KG.Work)}
    # Parts I and II of a series, and two papers under one series name, stay apart.
    assert "Scaling Laws for Schedulers, Part I" in titles and "Scaling Laws for Schedulers, Part II" in titles
    assert "Tessera: Partitioned Joins" in titles and "Tessera: Learned Cardinalities for Streams" in titles
    # The same GREEN paper as in Kaiqiang Xu's CV: one work, now with both authors.
    green = titles["GREEN: Carbon-efficient Resource Scheduling for Machine Learning Clusters"]
    assert {str(g.value(a, KG.name)) for a in g.objects(green, KG.hasAuthor)} == {"Kaiqiang Xu", "Lena Fischer"}
    # "[NSDI '24] Symposium on ...", "[NSDI '25] USENIX NSDI", "(USENIX NSDI 2025)", "USENIX NSDI 2025:": one venue.
    nsdi = URIRef(DATA["venue/nsdi"])
    for t in ("Scaling Laws for Schedulers, Part I", "Scaling Laws for Schedulers, Part II"):
        assert g.value(titles[t], KG.publishedIn) == nsdi
    assert len(set(g.subjects(RDF.type, KG.Venue))) == 18 + 1  # VLDB is the only new venue
    # ETH Zurich (no accent), ETH Zürich and its German name (a curation alias) are one organization.
    eth = URIRef(DATA["org/eth-zurich"])
    assert {str(n) for n in g.objects(eth, KG.alternateName)} >= {"ETH Zurich",
                                                                   "Eidgenössische Technische Hochschule Zürich"}
    assert g.value(URIRef(DATA["org/eth-zurich/systems-group"]), KG.partOf) == eth


def test_curation_corrections_outrank_the_documents(data_copy, tmp_path):
    (data_copy / "curation.yaml").write_text((data_copy / "curation.yaml").read_text() + (
        "corrections:\n  works:\n    - title: 'AMSP: Super-Scaling LLM Training via Advanced Model States Partitioning'\n"
        "      year: 2025\n      status: published\n  people:\n    - name: Kaiqiang Xu\n"
        "      orcid: https://orcid.org/0000-0002-1825-0097\n"))
    build_graph(data_copy, tmp_path, html=False)
    g = Graph().parse(tmp_path / "kg.ttl")
    amsp = next(w for w in g.subjects(RDF.type, KG.Work) if str(g.value(w, KG.title)).startswith("AMSP"))
    assert (str(g.value(amsp, KG.year)), str(g.value(amsp, KG.status))) == ("2025", "published")
    assert g.value(URIRef(DATA["person/kaiqiang-xu"]), KG.orcid) == URIRef("https://orcid.org/0000-0002-1825-0097")
    result = run_kg("conflicts", "--format", "csv", "--out", tmp_path)
    rows = [r for r in csv.DictReader(result.stdout.splitlines()) if r["label"].startswith("AMSP")]
    assert {(r["property"], r["value"], r["source"], r["chosen"]) for r in rows} == {
        ("status", "under review", "cv-qinghao-hu-2024.md", "False"), ("status", "published", "curation.yaml", "True")}


def test_a_correction_with_an_unknown_field_names_its_line():
    from kg.errors import UserError
    from kg.identity.curation import Curation

    with pytest.raises(UserError, match=r"c.yaml:4: unknown key 'publisher' in a correction of works"):
        Curation.from_text("corrections:\n  works:\n    - title: X\n      publisher: Y\n", "c.yaml")


def test_two_papers_whose_titles_differ_by_one_replaced_word_stay_two_works(tmp_path):
    # Regression (1,000 synthetic CVs): "Training for Vector Stores: A Survey" and "Serving for Vector
    # Stores: A Survey", both published by the same two authors in one journal in one year, are 90%
    # similar and were merged into one work. Each title has a word the other lacks in any spelling, so
    # they are two papers. Titles that only add words or change spellings and function words are still
    # one work (here listed twice by one CV, as in a "Selected" and a full list).
    titles = ["Training for Vector Stores: A Survey", "Serving for Vector Stores: A Survey",
              "Sparse Kernels for Vector Stores", "Sparse Kernels for Vector Stores on GPUs",
              "Optimising Engines with Punched Cards", "Optimising Engnes via Punched Cards",
              "Dense Kernels for Punched Cards"]
    data = tmp_path / "data"
    data.mkdir()
    (data / "cv-ada.md").write_text("# Ada Tester\n\n## Publications\n\n" + "".join(
        f"{n}. **{t}**\nAda Tester, Charles Tester\n*Journal of Engines*, 2020\n\n"
        for n, t in enumerate(titles, 1)) + "## Under Review\n\n"
        # a preprint one word away from a paper: two works too (joined, their authors would be co-authors)
        "1. **Sparse Kernels for Punched Cards**\nAda Tester, Charles Tester, Mary Roe\n*Submitted*, 2021\n\n",
        encoding="utf-8")
    out = tmp_path / "out"
    build_graph(data, out, validate=False, html=False)
    decisions = [d for d in json.loads((out / "identity.json").read_text(encoding="utf-8")) if d["kind"] == "work"]
    merged = {d["evidence"] for d in decisions if d["merged"]}
    kept_apart = [d for d in decisions if not d["merged"]]
    # the surveys, and the preprint and the paper: two works each, and each near miss names the words
    assert {d["rule"] for d in kept_apart} == {"similar titles kept apart: a word replaced by another"}
    assert sorted(d["evidence"].rsplit(" (", 1)[1] for d in kept_apart) == [
        "'dense' / 'sparse')", "'training' / 'serving')"]
    # words added ("on GPUs"), a typo and a function word changed: one work each
    assert any("Sparse Kernels for Vector Stores on GPUs" in e for e in merged)
    assert any("Optimising Engnes via Punched Cards" in e for e in merged)
    g = Graph().parse(out / "kg.ttl")
    # the two surveys, Sparse Kernels for Vector Stores, Optimising Engines, and both Kernels for Punched Cards
    assert len(set(g.subjects(RDF.type, KG.Work))) == 6


def test_similar_titles_sharing_a_minority_of_authors_stay_two_works(tmp_path):
    # Regression (10,000 synthetic CVs): one lab's two papers on like topics, "On the Predictable
    # Scheduling of X" and "Efficient and Predictable Scheduling for X", 91% similar, shared two of
    # their four and five authors and were joined (five such pairs). One paper listed twice shares
    # most of the shorter author list. Ada's CV lists four works (in one document each name is one
    # person, so shared authors are counted without any other evidence):
    # - "Robust Caching of Long-Context Vector Stores" (Ada, Ben, Cy, Di) and "Robust Caching for
    #   Long-Context Vector Stores in Shared Clusters" (Ben, Ada, Ed, Flo): the second adds words to
    #   the first, so the titles are 96% similar (token set), but they share Ada and Ben only, two of
    #   four: two works, and a near miss that says so;
    # - "Sparse Kernels for Punched Cards" (Ada, Ben, Cy, Di) and "Sparse Kernels for Punched Cards
    #   on Looms" (Ada, Ben, Cy, Gus): 100% similar, three of four shared: one work.
    data = tmp_path / "data"
    data.mkdir()
    entry = "{n}. **{title}**\n{authors}\n*Journal of Engines*, 2020\n\n"
    works = [("Robust Caching of Long-Context Vector Stores", "Ada Tester, Ben Roe, Cy Poe, Di Moe"),
             ("Sparse Kernels for Punched Cards", "Ada Tester, Ben Roe, Cy Poe, Di Moe"),
             ("Robust Caching for Long-Context Vector Stores in Shared Clusters", "Ben Roe, Ada Tester, Ed Lee, Flo Kay"),
             ("Sparse Kernels for Punched Cards on Looms", "Ada Tester, Ben Roe, Cy Poe, Gus Hay")]
    (data / "cv-ada.md").write_text("# Ada Tester\n\n## Publications\n\n" + "".join(
        entry.format(n=n, title=t, authors=a) for n, (t, a) in enumerate(works, 1)), encoding="utf-8")
    out = tmp_path / "out"
    build_graph(data, out, validate=False, html=False)
    decisions = [d for d in json.loads((out / "identity.json").read_text(encoding="utf-8")) if d["kind"] == "work"]
    assert sorted((d["merged"], d["rule"]) for d in decisions) == [
        (False, "similar titles kept apart: too few shared authors (2 of 4)"),
        (True, "titles 100% similar, 3 shared authors, compatible venue and year")]
    g = Graph().parse(out / "kg.ttl")
    # the merged work is named by one of its two titles; the other three works keep theirs
    titles = {str(t) for w in g.subjects(RDF.type, KG.Work) for t in g.objects(w, KG.title)}
    assert len(set(g.subjects(RDF.type, KG.Work))) == 3
    assert {"Robust Caching of Long-Context Vector Stores",
            "Robust Caching for Long-Context Vector Stores in Shared Clusters"} <= titles


def _career_cv(name: str, post: tuple[str, str, str], degree: tuple[str, str, str], work: str) -> str:
    """A CV with one post (title, years, organization), one degree (institution, years, degree) and one work."""
    return (f"{name}\n\nEMPLOYMENT\n\n{post[0]}\n\n{post[1]}\n\n{post[2]}\n\nEDUCATION\n\n{degree[0]}\n\n"
            f"{degree[1]}\n\n{degree[2]}\n\nPUBLICATION\n\n1. **{work}**\n{name}, Ola Berg\n*Journal of Looms*, 2020\n")


def _career_build(tmp_path, cvs: dict[str, tuple]) -> tuple[list[str], list[dict]]:
    """Build CVs (file name -> :func:`_career_cv`'s arguments); the names of the people their owners
    are, sorted (one per person), and identity.json's decisions."""
    data = tmp_path / "data"
    data.mkdir()
    for file, args in cvs.items():
        (data / file).write_text(_career_cv(*args), encoding="utf-8")
    out = tmp_path / "out"
    build_graph(data, out, validate=False, html=False)
    g = Graph().parse(out / "kg.ttl")
    owners = {args[0] for args in cvs.values()}
    people = sorted(str(n) for p in g.subjects(RDF.type, KG.Person) for n in g.objects(p, KG.name) if str(n) in owners)
    return people, json.loads((out / "identity.json").read_text(encoding="utf-8"))


def test_owners_of_one_name_sharing_one_year_at_a_university_are_two_people(tmp_path):
    # Regression (1,000 synthetic CVs): two CVs of "Huake Li" were one person because both owners were
    # at one university in one year (one a doctoral student there until 2021, the other a post there
    # from 2021). Here Mei Tan (1) studied at Harbour University 2016-2021 and took a post at Delta
    # Institute in 2021; Mei Tan (2) studied at Upland University 2011-2016 and took a post at Harbour
    # University in 2021. Their (organization, year) pairs: (1) Harbour 2016..2021 and Delta 2021,
    # seven; (2) Upland 2011..2016 and Harbour 2021, seven; in common Harbour 2021 alone, one of seven:
    # two people. Ana Ruiz's two CV versions give her doctorate at Harbour 2014-2018 and her post at
    # Delta from 2019 alike (the second CV adds nothing else): six pairs each, all in common, one
    # person (their works differ, so only the careers join them).
    people, decisions = _career_build(tmp_path, {
        "cv-mei-tan-1.md": ("Mei Tan", ("Lecturer", "Sep. 2021 ~ Sep. 2021", "Delta Institute"),
                            ("Harbour University", "2016 ~ 2021", "Ph.D. in Physics"), "Cold Atoms in Warm Traps"),
        "cv-mei-tan-2.md": ("Mei Tan", ("Postdoctoral Researcher", "Sep. 2021 ~ Sep. 2021", "Harbour University"),
                            ("Upland University", "2011 ~ 2016", "Ph.D. in Botany"), "Root Growth under Drought"),
        **{f"cv-ana-ruiz-{n}.md": ("Ana Ruiz", ("Lecturer", "Sep. 2019 ~ Sep. 2019", "Delta Institute"),
                                   ("Harbour University", "2014 ~ 2018", "Ph.D. in Computing"), work)
           for n, work in ((1, "Parsing Loom Programs"), (2, "Typing Loom Programs"))}})
    assert people == ["Ana Ruiz", "Mei Tan", "Mei Tan"]
    assert [d["evidence"] for d in decisions if d["rule"] == "same name, same organizations in most of the same years"] \
        == ["Ana Ruiz at delta institute in 2019; 6 of 6 (organization, year) pairs in common"]


def test_owners_of_one_name_with_one_doctorate_in_two_periods_are_two_people(tmp_path):
    # Regression (1,000 synthetic CVs): two CVs of "Fang Zhou" were one person by their careers: both
    # did a doctorate at one university, 2011-2016 and 2013-2018, and each took a post elsewhere after
    # it. Their (organization, year) pairs: six doctorate years and one post year each, seven; in common
    # the university in 2013..2016, four of seven, most: the careers rule joins them. But a person
    # studies for one doctorate once: the same doctorate given two periods that differ in both years is
    # two people. Here Li Wen (1) studied at Harbour University 2011-2016, then Delta Institute 2016;
    # Li Wen (2) Harbour 2013-2018, then Upland University 2018: Harbour 2013..2016 in common, four of
    # seven, two people. Ana Ruiz's two CV versions give her doctorate 2014-2018 and 2014-2019 (the
    # later version moved its end; the post year moves with it): Harbour 2014..2018 in common, five of
    # six, and one year differs only: one person.
    people, decisions = _career_build(tmp_path, {
        "cv-li-wen-1.md": ("Li Wen", ("Lecturer", "Sep. 2016 ~ Sep. 2016", "Delta Institute"),
                           ("Harbour University", "2011 ~ 2016", "Ph.D. in Physics"), "Cold Atoms in Warm Traps"),
        "cv-li-wen-2.md": ("Li Wen", ("Lecturer", "Sep. 2018 ~ Sep. 2018", "Upland University"),
                           ("Harbour University", "2013 ~ 2018", "Ph.D. in Physics"), "Root Growth under Drought"),
        **{f"cv-ana-ruiz-{n}.md": ("Ana Ruiz", ("Lecturer", f"Sep. {end} ~ Sep. {end}", "Delta Institute"),
                                   ("Harbour University", f"2014 ~ {end}", "Ph.D. in Computing"), work)
           for n, end, work in ((1, "2018", "Parsing Loom Programs"), (2, "2019", "Typing Loom Programs"))}})
    assert people == ["Ana Ruiz", "Li Wen", "Li Wen"]
    refused = [d["rule"] for d in decisions if d["rule"].startswith("same name, same organizations") and not d["merged"]]
    assert refused == ["same name, same organizations in most of the same years, but refused: "
                       "a doctorate at one organization given two periods"]
