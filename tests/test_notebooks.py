"""The notebooks run top to bottom in a fresh kernel, and the library surface they use.

Every notebook in ``notebooks/`` is executed with nbclient in a kernel that runs this
interpreter (the project's venv), with ``notebooks/`` as its working folder, as Jupyter Lab
would run it. A cell that raises fails the test; so does anything written to stderr (a
warning, a traceback). After the last cell, a probe cell reads the notebook's variables so
that the test can check what it showed against values read by hand from ``data/`` and from
SNAP's page for ca-GrQc. The executed ``explore.ipynb`` is then exported to HTML and opened
in headless chromium with the network cut off: its plots and the interactive graph must show.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import nbformat
import pytest

from kg.errors import UsageError, UserError
from kg.notebook import KnowledgeGraph, load, needs_build

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
ALL_NOTEBOOKS = sorted(p.name for p in NOTEBOOKS.glob("*.ipynb"))
PROFILED = {"Kaiqiang Xu", "Qinghao Hu", "Shenghao Qiu"}

#: Code run after a notebook's last cell: prints its variables as JSON (the last line of output).
PROBES = {
    "explore.ipynb": """
import json
print(json.dumps({
    "sources": sorted(sources.file),
    "profiled": sorted(profiled.person),
    "pairs_connected": [g.collaboration_path(a, b).attrs["connected"] for a, b in combinations(names, 2)],
    "counts_before": dict(zip(g.counts().kind, map(int, g.counts()["count"]))),
    "counts_after": dict(zip(bigger.counts().kind, map(int, bigger.counts()["count"]))),
    "path_after": [path_after.from_name.iloc[0]] + list(path_after.to_name),
    "work_left": work.exists(),
    "out": str(OUT),
}))
""",
    "ca-grqc.ipynb": """
import json
print(json.dumps({k: (v if isinstance(v, (int, float)) else int(v)) for k, v in computed.items()}))
""",
}


# --------------------------------------------------------------------------- running


@pytest.fixture(scope="module")
def kernel_dir(tmp_path_factory) -> Path:
    """A kernelspec that starts this interpreter, so the notebooks run in the project's venv."""
    kernels = tmp_path_factory.mktemp("kernels")
    spec = kernels / "kg-test"
    spec.mkdir()
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "kg tests", "language": "python"}))
    return kernels


def execute(name: str, kernel_dir: Path, out_dir: Path):
    """The notebook *name* run top to bottom, with the probe cell appended (and its JSON)."""
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager
    from nbclient import NotebookClient

    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    probe = PROBES.get(name)
    if probe:
        nb.cells.append(nbformat.v4.new_code_cell(probe.strip(), id="test-probe"))
    km = KernelManager(kernel_name="kg-test", kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(kernel_dir)]))
    # nbclient waits 4 s for a cell's last output after its reply, then drops it without a word: under
    # load (.ci/run beside a 10,000-CV build) the probe cell's output was lost. So wait longer, and say so.
    client = NotebookClient(nb, km=km, timeout=180, allow_errors=False, iopub_timeout=60, raise_on_iopub_timeout=True,
                            resources={"metadata": {"path": str(NOTEBOOKS)}})
    env = {**os.environ, "KG_NOTEBOOK_OUT": str(out_dir), "MPLBACKEND": "module://matplotlib_inline.backend_inline"}
    client.execute(env=env)
    stderr = [o.text for c in nb.cells if c.cell_type == "code" for o in c.outputs
              if o.output_type == "stream" and o.name == "stderr"]
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert errors == [] and stderr == [], f"{name} wrote errors or warnings: {errors or stderr}"
    found = None
    if probe:
        found = json.loads(nb.cells[-1].outputs[-1].text.strip().splitlines()[-1])
        nb.cells.pop()
    return nb, found


@pytest.fixture(scope="module")
def executed(kernel_dir, tmp_path_factory):
    """Run each notebook once per module: ``executed(name) -> (notebook, probe values, out dir)``."""
    done = {}

    def run(name):
        if name not in done:
            out = tmp_path_factory.mktemp("notebook-out") / "out"
            try:
                nb, found = execute(name, kernel_dir, out)
                done[name] = (nb, found, out)
            except Exception as err:  # run a failing notebook once, fail every test that needs it
                done[name] = err
        if isinstance(done[name], Exception):
            raise done[name]
        return done[name]

    return run


@pytest.mark.slow
@pytest.mark.parametrize("name", ALL_NOTEBOOKS)
def test_notebook_runs_top_to_bottom_in_a_fresh_kernel(executed, name):
    nb, _, _ = executed(name)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code and all(c.execution_count for c in code)


def test_both_notebooks_exist():
    assert {"explore.ipynb", "ca-grqc.ipynb"} <= set(ALL_NOTEBOOKS)


@pytest.mark.slow
def test_explore_tells_what_the_seeds_say(executed):
    nb, found, out = executed("explore.ipynb")
    assert found["sources"] == ["cv-kaiqiang-xu.txt", "cv-qinghao-hu-2023.md", "cv-qinghao-hu-2024.md",
                                "cv-shenghao-qiu.md", "thesis-record-shenghao-qiu.txt"]
    assert set(found["profiled"]) == PROFILED
    # the three circles share no co-author: no pair is connected
    assert found["pairs_connected"] == [False, False, False]
    # the made-up CV adds one person (its owner; Peng Sun and Zheng Wang are already there),
    # one work, one organization (Example University; NTU is already there) and one source
    before, after = found["counts_before"], found["counts_after"]
    assert after["sources"] == before["sources"] + 1 == 6
    assert after["people"] == before["people"] + 1
    assert after["works"] == before["works"] + 1
    assert after["organizations"] == before["organizations"] + 1
    assert after["venues"] == before["venues"]  # NSDI: Qinghao Hu published there
    # and joins the circles through its two co-authors
    assert found["path_after"] == ["Qinghao Hu", "Peng Sun", "Zheng Wang", "Shenghao Qiu"]
    # built where the test asked, and the scratch copy is gone
    assert found["out"] == str(out) and (out / "store").is_dir() and found["work_left"] is False
    # the plots and the inline graph are among the outputs
    kinds = [k for c in nb.cells if c.cell_type == "code" for o in c.outputs for k in o.get("data", {})]
    assert kinds.count("image/png") >= 2
    html = [o["data"]["text/html"] for c in nb.cells if c.cell_type == "code" for o in c.outputs
            if "text/html" in o.get("data", {}) and "kg-graph-frame" in o["data"]["text/html"]]
    assert len(html) == 1 and "<iframe srcdoc=" in html[0]


@pytest.mark.slow
def test_ca_grqc_reproduces_snaps_published_statistics(executed):
    _, computed, _ = executed("ca-grqc.ipynb")
    # https://snap.stanford.edu/data/ca-GrQc.html
    assert {k: computed[k] for k in ("nodes", "edges", "self_loops", "largest_component_nodes",
                                     "largest_component_edges", "triangles", "diameter")} == {
        "nodes": 5242, "edges": 14496, "self_loops": 12, "largest_component_nodes": 4158,
        "largest_component_edges": 13428, "triangles": 48260, "diameter": 17}
    assert round(computed["average_clustering"], 4) == 0.5296


@pytest.mark.parametrize("name", ALL_NOTEBOOKS)
def test_notebooks_are_committed_with_outputs_cleared(name):
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    nbformat.validate(nb)
    assert nb.metadata.kernelspec.name == "python3"
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, cell.source[:60]


# --------------------------------------------------------------------------- in a browser




@pytest.mark.slow
@pytest.mark.browser
def test_exported_explore_shows_plots_and_the_graph_offline(executed, browser, tmp_path):
    from nbconvert import HTMLExporter

    nb, _, _ = executed("explore.ipynb")
    body, _ = HTMLExporter().from_notebook_node(nb)  # the default (lab) template, CDN links and all
    path = tmp_path / "explore.html"
    path.write_text(body, encoding="utf-8")
    url = path.as_uri()

    page = browser.new_page(viewport={"width": 1400, "height": 900})
    refused, errors = [], []

    def route(r):
        if r.request.url == url:
            r.continue_()
        else:
            refused.append((r.request.url, r.request.frame.url))
            r.abort()

    page.route("**/*", route)
    page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
    page.on("console", lambda m: m.type == "error" and errors.append((m.text, m.location.get("url"))))
    page.goto(url, wait_until="load")

    # the plots: PNGs embedded as data: URLs that decode to real images
    sizes = page.evaluate("""() => Promise.all([...document.querySelectorAll('img[src^="data:image/png"]')]
        .map(img => img.decode().then(() => [img.naturalWidth, img.naturalHeight])))""")
    assert len(sizes) >= 2 and all(w > 0 and h > 0 for w, h in sizes), sizes

    # the interactive graph: its page runs inside the iframe and draws on its canvas
    iframe = page.locator(".kg-graph-frame iframe")
    assert iframe.count() == 1
    iframe.scroll_into_view_if_needed()
    frame = iframe.element_handle().content_frame()
    frame.wait_for_function("() => window.kgGraph && window.kgGraph.ready === true", timeout=30_000)
    shown = frame.evaluate("""() => ({
        total: kgGraph.data.nodes.length,
        status: Number(document.getElementById('kg-status').dataset.visibleNodes),
        profiled: kgGraph.data.nodes.filter(n => n.kind === 'profiled').map(n => n.name),
        names: kgGraph.data.nodes.map(n => n.name)})""")
    assert set(shown["profiled"]) == PROFILED
    assert {"Zheng Wang", "Peng Sun", "University of Leeds", "Nanyang Technological University"} <= set(shown["names"])
    assert shown["status"] == shown["total"] > len(PROFILED)
    painted = frame.evaluate("""() => {
        const canvas = document.querySelector('#kg-graph canvas');
        const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
        let inked = 0;
        for (let i = 0; i < data.length; i += 4) {
            if (data[i + 3] > 0 && (data[i] < 240 || data[i + 1] < 240 || data[i + 2] < 240)) inked++;
        }
        return {width: canvas.width, height: canvas.height, inked};
    }""")
    assert painted["width"] > 300 and painted["height"] > 300 and painted["inked"] > 1000, painted

    # only the notebook template asked for the network (require.js, MathJax); the graph never did
    assert all(frame_url == url and target.startswith("https://") for target, frame_url in refused), refused
    assert not [e for e in errors if not (isinstance(e, tuple) and e[1] in {t for t, _ in refused})], errors
    page.close()


# --------------------------------------------------------------------------- kg.notebook on the seeds


@pytest.fixture(scope="module")
def seeds(seeds_out) -> KnowledgeGraph:
    return load(seeds_out)


def test_sparql_gives_names_years_and_iris(seeds):
    # data/cv-shenghao-qiu.md: Zheng Wang is on six of his papers (2020, 2022 twice, 2024 twice,
    # 2025), Liang You on two (LCPC 2020, ICDCS 2022)
    frame = seeds.sparql("coauthors", name="Shenghao Qiu")
    assert list(frame.columns) == ["name", "coauthor", "works", "person", "person_iri", "other", "other_iri"]
    rows = frame.set_index("coauthor")
    assert rows.loc["Zheng Wang", "works"] == 6 and rows.loc["Liang You", "works"] == 2
    assert isinstance(rows.loc["Zheng Wang", "works"].item(), int)
    assert rows.loc["Zheng Wang", "other"] == "Zheng Wang"
    assert rows.loc["Zheng Wang", "other_iri"].startswith("https://kg.example/id/person/")
    assert set(frame.person) == {"Shenghao Qiu"}


def test_sparql_years_are_integers_and_bindings_take_rdf_terms(seeds):
    # the only work of 2018 in data/: Shenghao Qiu's IOP paper
    frame = seeds.sparql("SELECT ?work ?year WHERE { ?work a kg:Work ; kg:year ?year }",
                         year='"2018"^^xsd:gYear')
    assert frame.work.tolist() == ["Design of Mobile Environment Monitoring and Analysis System Based on GPRS"]
    assert frame.year.tolist() == [2018] and frame.year.dtype.kind == "i"
    assert frame.work_iri[0].startswith("https://kg.example/id/work/")


def test_sparql_timeline_keeps_months_as_text(seeds):
    timeline = seeds.sparql("positions-timeline", name="Shenghao Qiu").set_index("organization")
    # "University of York  July 2024 - Present  Research Fellow"; "Nubificus LTD  July 2022 - Present"
    assert tuple(timeline.loc["University of York", ["start", "end", "what"]]) == ("2024-07", "now", "Research Fellow")
    assert timeline.loc["Nubificus LTD", "start"] == "2022-07"


def test_sparql_ask_construct_and_errors(seeds):
    assert seeds.sparql('ASK { ?p kg:name "Zheng Wang" }') is True
    assert seeds.sparql('ASK { ?p kg:name "Nobody Atall" }') is False
    card = seeds.sparql("person-card", name="Shenghao Qiu")
    assert list(card.columns[:3]) == ["subject", "subject_iri", "predicate"]
    assert ("Shenghao Qiu", "kg:name", "Shenghao Qiu") in set(zip(card.subject, card.predicate, card.object, strict=False))
    with pytest.raises(UsageError, match="syntax error"):
        seeds.sparql("SELECT ?x WHERE {")
    with pytest.raises(UsageError, match="no query file"):
        seeds.sparql("no-such-query.rq")
    with pytest.raises(UserError, match="give a str"):
        seeds.sparql("coauthors", name=["Shenghao Qiu"])


def test_people_and_analyses_by_name(seeds):
    profiled = seeds.people(profiled=True)
    assert set(profiled.person) == PROFILED
    top = seeds.top_collaborators("qiu", n=1)
    assert (top.name[0], top.joint_works[0]) == ("Zheng Wang", 6)
    assert seeds.collaboration_path("Qinghao Hu", "Shenghao Qiu").attrs["connected"] is False
    assert seeds.shared_collaborators(["Qinghao Hu", "Shenghao Qiu"]).empty
    leeds = seeds.institutions_of("Shenghao Qiu")
    assert "University of Leeds" in set(leeds.institution_name)
    with pytest.raises(UserError, match="no person named"):
        seeds.top_collaborators("Nobody Atall")
    with pytest.raises(UserError, match="list of two or more"):
        seeds.shared_collaborators("Qinghao Hu")
    # one row per pair, most joint works first: data/cv-qinghao-hu-2024.md alone lists twelve works by
    # Qinghao Hu and Peng Sun (the 2023 CV's four with both may be among them or not, as titles changed);
    # Shenghao Qiu and Zheng Wang share six (data/cv-shenghao-qiu.md, as above)
    pairs = seeds.coauthor_pairs()
    assert pairs.joint_works.is_monotonic_decreasing and len(pairs) == seeds.coauthors().number_of_edges()
    first = pairs.iloc[0]
    assert {first.person_a, first.person_b} == {"Qinghao Hu", "Peng Sun"} and first.joint_works >= 12
    qiu = pairs[(pairs.person_a + pairs.person_b).isin(["Shenghao QiuZheng Wang", "Zheng WangShenghao Qiu"])]
    assert qiu.joint_works.tolist() == [6]
    assert (pairs.person_a_iri < pairs.person_b_iri).all()
    # the projections are computed once and shared
    assert seeds.coauthors() is seeds.coauthors()
    assert seeds.supervision().has_edge(seeds.person("Zheng Wang"), seeds.person("Shenghao Qiu"))


def test_counts_graph_and_show(seeds, seeds_out):
    counts = dict(zip(seeds.counts().kind, seeds.counts()["count"], strict=False))
    assert counts["sources"] == 5
    # the rdflib graph is the merged view: the store's default graph, triple for triple
    in_store = next(iter(seeds.store.query("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }")))["n"].value
    assert len(seeds.graph) == int(in_store) > 1000
    shown = seeds.show("Shenghao Qiu", height=400)
    assert shown.data.startswith('<div class="kg-graph-frame"><iframe srcdoc=')
    assert "Co-authors of Shenghao Qiu" in shown.data
    assert repr(seeds).startswith(f"<KnowledgeGraph in {seeds_out}/: ")


# --------------------------------------------------------------------------- load


def test_load_builds_when_needed_and_only_then(data_copy, tmp_path):
    out = tmp_path / "out"
    with pytest.raises(UserError, match="run `kg build` first"):
        load(out)
    with pytest.raises(UserError, match="does not exist"):
        load(out, tmp_path / "nowhere")
    with pytest.raises(UserError, match="needs data_dir"):
        load(out, rebuild=True)
    first = load(out, data_copy, validate=False)
    assert first.report is not None and first.report.documents == 5
    assert not needs_build(data_copy, out)
    again = load(out, data_copy, validate=False)
    assert again.report is None  # up to date: opened, not rebuilt
    # a new document makes the graph stale
    shutil.copy(ROOT / "tests" / "data" / "cv-maria-garcia-lopez.md", data_copy / "cv-maria-garcia-lopez.md")
    assert needs_build(data_copy, out)
    grown = load(out, data_copy, validate=False)
    assert grown.report is not None and grown.report.documents == 6
    assert "Maria Garcia-Lopez" in set(grown.people(profiled=True).person)
    # removing it does too (the folder changed)
    (data_copy / "cv-maria-garcia-lopez.md").unlink()
    assert needs_build(data_copy, out)


def test_knowledge_graph_wants_a_store():
    with pytest.raises(UserError, match="pyoxigraph.Store"):
        KnowledgeGraph("out")
