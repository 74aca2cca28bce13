"""Each seed document read into records, checked against values written by hand from the documents."""

from __future__ import annotations

import pytest
from conftest import DATA

from kg.records import Award, Education, Interest, Position, Project, ServiceRole, Skill, Talk, Work
from kg.sources import read_document


def read(name):
    doc = read_document(DATA / name, name)
    assert doc.skipped == [], [str(s) for s in doc.skipped]
    return doc


def works(doc):
    return {w.title: w for w in doc.of_type(Work)}


def authors(work):
    return [a.name for a in work.authors]


def period(rec):
    return (rec.period.start, rec.period.end, rec.period.ongoing)


# --- cv-shenghao-qiu.md: markdown with HTML, two entries per tab-separated line ----------------

@pytest.fixture(scope="module")
def qiu():
    return read("cv-shenghao-qiu.md")


def test_qiu_contact_points(qiu):
    assert qiu.subject.name == "Shenghao Qiu"
    assert qiu.subject.emails == ["q_iushenghao6@gmail.com"]
    assert qiu.subject.homepages == ["https://eps.leeds.ac.uk/computing/pgt/8738/shenghao-qiu"]
    assert qiu.subject.telephones == ["07579877295"]
    assert qiu.subject.street_addresses == ["1102 Mercer West, SoYo Square, St Cecilia Street, LS2 7FB"]


def test_qiu_positions(qiu):
    got = {(p.organization.name, p.role): (period(p), p.kind) for p in qiu.of_type(Position)}
    assert got == {
        ("Alibaba (Beijing) Software Service Co. LTD", "Software Engineer (Intern)"):
            (("2021-08", "2021-10", False), "internship"),
        ("Nubificus LTD", "Software Engineer (Intern)"): (("2022-07", None, True), "internship"),
        ("University of York", "Research Fellow"): (("2024-07", None, True), "fellowship"),
        ("School of Computing", "Teaching Assistant"): (("2021", "2023", False), "teaching"),
    }
    teaching = next(p for p in qiu.of_type(Position) if p.kind == "teaching")
    assert teaching.organization.parent.name == "University of Leeds"
    assert len(teaching.courses) == 2 and "COMP3611" in teaching.courses[0] and "COMP1211" in teaching.courses[1]


def test_qiu_education_from_two_column_lines(qiu):
    """Each column of the tab-separated block is its own entry: grade and thesis go to the right degree."""
    edu = {(e.institution.name, e.level): e for e in qiu.of_type(Education)}
    assert set(edu) == {("Foshan University", "bachelor"), ("University of Leeds", "master"),
                        ("University of Leeds", "doctorate")}
    bachelor = edu[("Foshan University", "bachelor")]
    assert bachelor.degree == "Bachelor of Engineering"
    assert period(bachelor) == ("2015-09", "2019-06", False)
    assert bachelor.grade == "GPA: 3.4/4"
    assert bachelor.thesis_title == "Research on Gait Recognition Based on Human Key Points and Long Short-Term Memory"
    assert bachelor.location == "China"
    master = edu[("University of Leeds", "master")]
    assert master.degree == "Master of Science"
    assert period(master) == ("2019-09", "2020-11", False)
    assert master.grade == "Distinction"
    assert master.thesis_title == "Deep learning classification of ECG signals to diagnose heart disease"
    phd = edu[("University of Leeds", "doctorate")]
    assert phd.degree == "PhD" and period(phd) == ("2020-10", "2025-03", False)


def test_qiu_publications(qiu):
    w = works(qiu)
    assert list(w) == [
        "Design of Mobile Environment Monitoring and Analysis System Based on GPRS",
        "Optimizing Sparse Matrix Multiplications for Graph Neural Networks",
        "AIACC-Training: Optimizing Distributed Deep Learning Training through Multi-streamed and "
        "Concurrent Gradient Communications",
        "STRONGHOLD: Fast and Affordable Billion-scale Deep Learning Model Training",
        "Unleashing the Potential of Acquisition Functions in High-Dimensional Bayesian Optimization",
        "GraphCube: Interconnection Hierarchy-aware Graph Processing",
        "Accelerating Tensor-train Decomposition on Graph Neural Networks",
    ]
    gprs = w["Design of Mobile Environment Monitoring and Analysis System Based on GPRS"]
    assert authors(gprs) == ["Shenghao Qiu", "Yangqing Zhu", "Dingyao Liang"]
    assert gprs.year == "2018" and gprs.venue.name == "IOP Conference Series. Materials Science and Engineering"
    spmm = w["Optimizing Sparse Matrix Multiplications for Graph Neural Networks"]
    assert authors(spmm) == ["Shenghao Qiu", "Liang You", "Zheng Wang"] and spmm.year == "2020"
    assert spmm.venue.name == "International Workshop on Languages and Compilers for Parallel Computing"
    aiacc = w[list(w)[2]]
    assert authors(aiacc) == ["Lixiang Lin", "Shenghao Qiu", "Ziqi Yu", "Liang You", "Long Xin", "Xiaoyang Sun",
                              "Jie Xu", "Zheng Wang"]
    assert (aiacc.venue.acronym, aiacc.year) == ("ICDCS", "2022")
    stronghold = w["STRONGHOLD: Fast and Affordable Billion-scale Deep Learning Model Training"]
    assert authors(stronghold) == ["Xiaoyang Sun", "Wei Wang", "Shenghao Qiu", "Renyu Yang", "Songfang Huang",
                                   "Jie Xu", "Zheng Wang"]
    assert stronghold.year == "2022"
    assert stronghold.venue.name == ("International Conference for High Performance Computing, Networking, "
                                     "Storage, and Analysis")
    tmlr = w["Unleashing the Potential of Acquisition Functions in High-Dimensional Bayesian Optimization"]
    assert authors(tmlr) == ["Jiayu Zhao", "Renyu Yang", "Shenghao Qiu", "Zheng Wang"]
    assert (tmlr.venue.name, tmlr.year) == ("Transactions on Machine Learning Research", "2024")
    cube = w["GraphCube: Interconnection Hierarchy-aware Graph Processing"]
    assert authors(cube) == ["Xinbiao Gan", "Guang Wu", "Shenghao Qiu", "Feng Xiong", "Jiaqi Si", "Jianbin Fang",
                             "Dezun Dong", "Chunye Gong", "Tiejun Li", "Zheng Wang"]
    assert (cube.venue.acronym, cube.year) == ("PPoPP", "2024")
    ttd = w["Accelerating Tensor-train Decomposition on Graph Neural Networks"]
    assert authors(ttd) == ["Shenghao Qiu", "Chunwei Xia", "Zheng Wang"] and ttd.year == "2025"
    assert ttd.venue.name == "IEEE International Parallel & Distributed Processing Symposium"
    assert all(x.status == "published" for x in w.values())


def test_qiu_awards_projects_skills_interests(qiu):
    assert [(a.title, a.year) for a in qiu.of_type(Award)] == [("Industry PhD studentship", "2020")]
    projects = {p.name: p for p in qiu.of_type(Project)}
    assert set(projects) == {"SOPRANO", "AI4Work"}
    assert projects["SOPRANO"].funding == "Horizon Europe"
    assert projects["AI4Work"].homepage == "https://cordis.europa.eu/project/id/101135990"
    assert all(p.period == p.period.__class__("2024-07", None, True) for p in projects.values())
    skills = {s.name: (s.level, s.level_out_of) for s in qiu.of_type(Skill)}
    assert skills == {n: (5, 6) for n in ("Python", "C/C++", "LLVM/MLIR", "ML/DL Framework", "CUDA", "LaTeX")}
    assert next(s for s in qiu.of_type(Skill) if s.name == "ML/DL Framework").detail == \
        "PyTorch/TensorFlow/PyG/DGL/MXNet/TVM"
    assert [i.name for i in qiu.of_type(Interest)] == ["Acceleration of Deep Learning Workloads",
                                                       "Explainable AI for Model Testing"]


# --- cv-qinghao-hu-2024.md: markdown links, '*' marks, et al., talks run together --------------

@pytest.fixture(scope="module")
def hu24():
    return read("cv-qinghao-hu-2024.md")


def test_hu24_contact_and_affiliation(hu24):
    p = hu24.subject
    assert (p.name, p.emails, p.homepages) == ("Qinghao Hu", ["qinghao.hu@ntu.edu.sg"], ["https://tonyhao.xyz"])
    assert p.telephones == ["(+65) 8305 3277"]
    assert p.street_addresses == ["ABN-02b-11, 61 Nanyang Avenue, Singapore 637335"]
    aff = p.affiliations[0]
    assert (aff.name, aff.parent.name) == ("S-Lab for Advanced Intelligence", "Nanyang Technological University")


def test_hu24_positions_and_education(hu24):
    pos = {p.role: p for p in hu24.of_type(Position)}
    rap = pos["Research Assistant Professor"]
    assert (rap.organization.name, rap.organization.parent.name, rap.organization.country) == ("S-Lab", "NTU", "Singapore")
    assert period(rap) == ("2024-01", None, True) and rap.kind == "job"
    guest = pos["Academic Guest"]
    assert (guest.organization.name, guest.organization.parent.name) == ("Systems Group", "ETH Zürich")
    assert period(guest) == ("2024-02", "2024-04", False) and guest.kind == "visit"
    edu = [(e.institution.name, e.degree, period(e)) for e in hu24.of_type(Education)]
    assert edu == [
        ("Nanyang Technological University", "Ph.D. in Computer Science", ("2020", "2023", False)),
        ("National University of Singapore", "Master in Electrical Engineering", ("2018", "2020", False)),
        ("Zhejiang University", "Bachelor in Electrical Engineering", ("2014", "2018", False)),
    ]
    assert hu24.of_type(Education)[0].supervisors == ["Tianwei Zhang", "Yonggang Wen"]


def test_hu24_publications(hu24):
    w = works(hu24)
    assert len(w) == 13
    llm = w["Characterization of Large Language Model Development in the Datacenter"]
    assert authors(llm) == ["Qinghao Hu", "Zhisheng Ye", "Zerui Wang", "Guoteng Wang", "Meng Zhang",
                            "Qiaoling Chen", "Peng Sun"]
    assert [a.equal_contribution for a in llm.authors] == [True, True, True, False, False, False, False]
    assert [a.et_al_follows for a in llm.authors][-1] is True
    assert llm.authors[0].printed == "[Qinghao Hu*](#)"
    assert (llm.venue.acronym, llm.year, llm.status) == ("NSDI", "2024", "published")
    lucid = w["Lucid: A Non-Intrusive, Scalable and Interpretable Scheduler for Deep Learning Training Jobs"]
    assert authors(lucid) == ["Qinghao Hu", "Meng Zhang", "Peng Sun", "Yonggang Wen", "Tianwei Zhang"]
    assert lucid.recognitions == ["Distinguished Paper Award"]
    assert (lucid.venue.acronym, lucid.year) == ("ASPLOS", "2023")
    survey = w["Deep Learning Workload Scheduling in GPU Datacenters: A Survey"]
    assert authors(survey) == ["Zhisheng Ye", "Wei Gao", "Qinghao Hu", "Peng Sun", "Xiaolin Wang", "Yingwei Luo",
                               "Tianwei Zhang"]
    assert survey.authors[-1].et_al_follows and (survey.venue.acronym, survey.year) == ("CSUR", "2024")
    torch = w["TorchGT: A Holistic System for Large-scale Graph Transformer Training"]
    assert "Zeke Wang" in authors(torch) and (torch.venue.acronym, torch.year) == ("SC", "2024")
    assert (w["Hydro: Surrogate-Based Hyperparameter Tuning Service in Datacenters"].venue.acronym,
            w["Sylvie: 3D-adaptive and Universal System for Large-scale Graph Neural Network Training"].venue.acronym,
            w["FedDSE: Distribution-aware Sub-model Extraction for Federated Learning over Resource-constrained "
              "Devices"].venue.acronym) == ("OSDI", "ICDE", "WWW")
    review = {t: x for t, x in w.items() if x.status != "published"}
    assert sorted(t.split(":")[0] for t in review) == ["AMSP", "DeltaServe", "InternEvo", "LoongTrain"]
    assert all(x.status == "under review" and x.venue is None and x.year is None for x in review.values())
    assert authors(w["DeltaServe: Multi-Tenant Language Model Serving via Delta Compression"]) == \
        ["Xiaozhe Yao", "Qinghao Hu", "Ana Klimovic"]
    assert len(w["LoongTrain: Efficient Training of Long-Sequence LLMs with Head-Context Parallelism"].authors) == 14


def test_hu24_talks_run_together_on_one_line(hu24):
    talks = [(t.title.split(":")[0], t.place, t.date) for t in hu24.of_type(Talk)]
    assert talks == [
        ("Characterization of Large Language Model Development in the Datacenter", "Huawei, Shanghai China", "2024-06"),
        ("Characterization of Large Language Model Development in the Datacenter", "NSDI, Santa Clara United States",
         "2024-04"),
        ("Hydro", "ChinaSys, Wuhan China", "2023-07"),
        ("Hydro", "OSDI, Boston United States", "2023-07"),
        ("Lucid", "Huawei, Beijing China", "2023-05"),
        ("Lucid", "MLSys Seminar Singapore", "2023-04"),
        ("Lucid", "ASPLOS, Vancouver Canada", "2023-03"),
        ("Primo", "ChinaSys, Nanjing China", "2022-12"),
        ("Primo", "ATC, Carlsbad California United States", "2022-07"),
        ("Scheduling in Large-Scale GPU Datacenters", "National University of Singapore", "2022-01"),
        ("Characterization and Prediction of DL Workloads in Datacenters", "SC, St. Louis Missouri United States",
         "2021-11"),
        ("Cluster Scheduling for Deep Learning", "S-Lab for Advanced Intelligence, Singapore", "2021-04"),
    ]


def test_hu24_awards_and_service(hu24):
    awards = [(a.title, a.year) for a in hu24.of_type(Award)]
    assert len(awards) == 9
    assert awards[0] == ("ML and Systems Rising Stars", "2024")
    assert awards[-1] == ("Outstanding Graduates of Zhejiang University", "2018")
    service = [(s.venue.acronym, s.year, s.role) for s in hu24.of_type(ServiceRole)]
    assert service == [("HASP", "2024", "Publicity Chair"), ("EuroSys", "2024", "Shadow Committee Member"),
                       ("EuroSys", "2023", "Shadow Committee Member"), ("OSDI", "2022", "AE Committee Member"),
                       ("ATC", "2022", "AE Committee Member")]


# --- thesis-record-shenghao-qiu.txt: a repository record ---------------------------------------

def test_thesis_record():
    doc = read("thesis-record-shenghao-qiu.txt")
    assert doc.format == "repository-record"
    assert doc.subject.name == "Shenghao Qiu"  # printed "Qiu, Shenghao"
    assert doc.subject.orcid == "https://orcid.org/0000-0001-6345-0306"
    thesis = doc.of_type(Work)[0]
    assert thesis.kind == "thesis" and thesis.year == "2025"
    assert thesis.title == "Accelerating Deep Learning by Optimising Communication and Computation Efficiency"
    assert thesis.supervisors == ["Zheng Wang", "Jie Xu"]  # printed "Wang, Zheng and Xu, Jie"
    assert "graph neural network" in thesis.keywords
    chain = []
    org = thesis.institution
    while org:
        chain.append(org.name)
        org = org.parent
    assert chain == ["School of Computer Science", "Faculty of Engineering", "University of Leeds"]
    edu = doc.of_type(Education)[0]
    assert (edu.level, edu.period.end, edu.supervisors) == ("doctorate", "2025", ["Zheng Wang", "Jie Xu"])


# --- cv-kaiqiang-xu.txt: plain text, publications without author lists ------------------------

@pytest.fixture(scope="module")
def xu():
    return read("cv-kaiqiang-xu.txt")


def test_xu_contact_and_education(xu):
    assert xu.format == "text-cv"
    assert (xu.subject.name, xu.subject.emails, xu.subject.homepages) == \
        ("Kaiqiang Xu", ["andyxukq@gmail.com"], ["https://kqxu.com/"])
    edu = [(e.institution.name, e.degree, e.field_of_study, period(e), e.thesis_title) for e in xu.of_type(Education)]
    assert edu == [
        ("The Hong Kong University of Science and Technology", "Ph.D in Computer Science", "Computer Science",
         ("2020", "2025-08", False), "Towards Efficient and Accessible Systems for Distributed Machine Learning"),
        ("Renmin University of China", "B.S. in Computer Science", "Computer Science", ("2012", "2017", False), None),
    ]


def test_xu_positions_including_one_without_a_heading(xu):
    pos = [(p.role, p.organization.name, period(p), p.kind, p.location) for p in xu.of_type(Position)]
    assert pos == [
        ("Student Researcher", "ML, Systems and Cloud AI (MSCA)", ("2025-03", "2025-05", False), "internship",
         "Seattle, WA, USA"),
        ("Chief Operating Officer", "Vincross Robotics", ("2016-05", "2019-12", False), "job", "Beijing, China"),
        ("Algorithm Engineer Intern", "Zhihu.com (NYSE: ZH)", ("2013-10", "2014-09", False), "internship",
         "Beijing, China"),
    ]
    assert xu.of_type(Position)[0].organization.parent.name == "Google Cloud"
    assert len(xu.of_type(Position)[0].description) == 4


def test_xu_publications_give_the_owners_role_not_authors(xu):
    got = [(w.title, w.venue.acronym, w.year, w.subject_ordinal, w.subject_equal_contribution)
           for w in xu.of_type(Work)]
    assert got == [
        ("Design and Operation of Shared Machine Learning Clusters on Campus", "ASPLOS", "2025", 1, False),
        ("GREEN: Carbon-efficient Resource Scheduling for Machine Learning Clusters", "NSDI", "2025", 1, False),
        ("Sequoia: An Accessible and Extensible Framework for Privacy-Preserving Machine Learning over "
         "Distributed Data", "SIGMOD", "2025", 1, False),
        ("Scalable and Efficient Full-Graph GNN Training for Large Graphs", "SIGMOD", "2023", 1, True),
    ]
    assert all(w.authors == [] and w.abstract for w in xu.of_type(Work))


def test_xu_awards(xu):
    assert [(a.title, a.year, a.prize) for a in xu.of_type(Award)] == [
        ("ACM-ICPC, International Collegiate Programming Contest (Asia Regional)", "2012", "Silver Medal"),
        ("National Olympiad in Informatics, China", "2011", "Bronze Medal"),
        ("Forbes 30 Under 30 List (China)", "2020", None),
        ("Forbes 30 Under 30 List (Asia)", "2022", None),
    ]


# --- cv-qinghao-hu-2023.md: HTML tables in markdown ------------------------------------------

@pytest.fixture(scope="module")
def hu23():
    return read("cv-qinghao-hu-2023.md")


def test_hu23_education_from_html_table(hu23):
    edu = [(e.institution.name, e.degree, period(e), e.supervisors) for e in hu23.of_type(Education)]
    assert edu == [
        ("Nanyang Technological University", "Ph.D. in Computer Science", ("2020-08", "2024-08", False),
         ["Zhang Tianwei", "Wen Yonggang"]),
        ("National University of Singapore", "Master in Electrical Engineering", ("2019-01", "2019-12", False), []),
        ("Zhejiang University", "Bachelor in Electrical Engineering", ("2014-09", "2018-06", False), []),
    ]


def test_hu23_publications(hu23):
    w = works(hu23)
    assert list(w) == [
        "Lucid: Non-Intrusive, Scalable and Interpretable Deep Learning Job Scheduling",
        "Primo: Practical Learning-Augmented Systems with Interpretable Models",
        "Characterization and Prediction of Deep Learning Workloads in Large-Scale GPU Datacenters",
        "Deep Learning Workload Scheduling in GPU Datacenters: Taxonomy, Challenges and Vision",
    ]
    lucid = w[list(w)[0]]
    assert lucid.authors[0].printed == "**Qinghao Hu\\***" and lucid.authors[0].name == "Qinghao Hu"
    assert [a.equal_contribution for a in lucid.authors] == [True, True, False, False, False]
    survey = w[list(w)[3]]
    assert authors(survey) == ["Wei Gao", "Qinghao Hu", "Zhisheng Ye", "Peng Sun"]
    assert survey.authors[-1].et_al_follows
    assert survey.status == "under review" and survey.venue.name == "ACM Computing Surveys"


def test_hu23_service_talks_honors(hu23):
    assert [(s.venue.acronym, s.year) for s in hu23.of_type(ServiceRole)] == \
        [("OSDI", "2022"), ("ATC", "2022"), ("EuroSys", "2022"), ("SOSP", "2021")]
    assert [(t.title, t.place, t.date) for t in hu23.of_type(Talk)] == [
        ("Scheduling in Large-Scale GPU Datacenters", "National University of Singapore", "2022-01"),
        ("Cluster Scheduling for Deep Learning", "S-Lab for Advanced Intelligence", "2021-04"),
    ]
    assert [a.year for a in hu23.of_type(Award)] == ["2018", "2018", "2017", "2016", "2015"]
