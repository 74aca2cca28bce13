"""The HTML graph in a real browser: headless Debian chromium driven by playwright.

Every request other than the page itself is refused and recorded. The tests check that the
page is self-contained, shows exactly the projection, and that search, click, hover and the
filters work; and that a page built from a hostile CV runs none of the payloads it shows.
Expected names and numbers are read by hand from ``data/`` and ``tests/data/hostile-cv.md``.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path

import networkx as nx
import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent
HOSTILE_CV = Path(__file__).resolve().parent / "data" / "hostile-cv.md"




@dataclass
class Watched:
    page: object
    requests: list = field(default_factory=list)
    errors: list = field(default_factory=list)
    dialogs: list = field(default_factory=list)

    def assert_quiet(self):
        assert self.requests == [], f"requests left the file: {self.requests}"
        assert self.errors == [], f"page or console errors: {self.errors}"
        assert self.dialogs == [], f"dialogs opened: {self.dialogs}"


def open_page(browser, path: Path) -> Watched:
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    watched = Watched(page)
    url = path.as_uri()

    def route(r):
        if r.request.url == url:
            r.continue_()
        else:
            watched.requests.append(r.request.url)
            r.abort()

    def dialog(d):
        watched.dialogs.append(f"{d.type}: {d.message}")
        d.dismiss()

    page.route("**/*", route)
    page.on("request", lambda r: r.url != url and watched.requests.append(r.url))
    page.on("pageerror", lambda e: watched.errors.append(f"pageerror: {e}"))
    page.on("console", lambda m: m.type == "error" and watched.errors.append(f"console: {m.text}"))
    page.on("dialog", dialog)
    page.goto(url)
    page.wait_for_selector("html[data-ready=true]", state="attached", timeout=30_000)
    return watched


def node_points(page) -> list[dict]:
    """Every node shown, with its name and where it is on screen."""
    box = page.locator("#kg-graph").bounding_box()
    points = page.evaluate("""() => {
        const net = kgGraph.network, pos = net.getPositions();
        return kgGraph.data.nodes.filter(n => pos[n.id] !== undefined).map(n => {
            const p = net.canvasToDOM(pos[n.id]);
            return {id: n.id, name: n.name, kind: n.kind, x: p.x, y: p.y};
        });
    }""")
    for p in points:
        p["x"] += box["x"]
        p["y"] += box["y"]
    return points


def shown(page) -> dict:
    """Ids of the nodes and edges the network draws now (its data views)."""
    return page.evaluate("""() => ({
        nodes: kgGraph.network.body.data.nodes.getIds(),
        edges: kgGraph.network.body.data.edges.getIds()})""")


def edge_id(page, a: str, b: str) -> int:
    return page.evaluate("""([a, b]) => {
        const id = name => kgGraph.data.nodes.find(n => n.name === name).id;
        const x = id(a), y = id(b);
        return kgGraph.data.edges.find(e => (e.from === x && e.to === y) || (e.from === y && e.to === x)).id;
    }""", [a, b])


def click_node(page, name: str):
    point = next(p for p in node_points(page) if p["name"] == name)
    page.mouse.click(point["x"], point["y"])


# ------------------------------------------------------------------ the seed graph


def test_seed_graph_page_in_the_browser(browser, seeds_out, seeds_store, tmp_path):
    from kg.graphs.projections import coauthor_graph, person_organization_graph
    from kg.outputs.html.page import combined_graph

    full = combined_graph(coauthor_graph(seeds_store), person_organization_graph(seeds_store))
    w = open_page(browser, seeds_out / "graph.html")
    page = w.page

    # exactly the projection, all of it drawn
    status = page.locator("#kg-status")
    assert int(status.get_attribute("data-total-nodes")) == full.number_of_nodes()
    assert int(status.get_attribute("data-total-edges")) == full.number_of_edges()
    drawn = shown(page)
    assert (len(drawn["nodes"]), len(drawn["edges"])) == (full.number_of_nodes(), full.number_of_edges())

    # search by part of a name, in any case; Enter picks the first hit and fills the panel
    page.fill("#kg-search", "QINGH")
    assert page.locator("#kg-results button").first.inner_text().startswith("Qinghao Hu")
    page.keyboard.press("Enter")
    assert page.locator("#kg-panel h2").inner_text() == "Qinghao Hu"

    # a click on a node lists its works in the panel (data/cv-shenghao-qiu.md)
    page.click("#kg-reset")
    click_node(page, "Shenghao Qiu")
    panel = page.locator("#kg-panel")
    assert panel.locator("h2").inner_text() == "Shenghao Qiu"
    titles = panel.locator(".kg-work-title").all_inner_texts()
    assert "GraphCube: Interconnection Hierarchy-aware Graph Processing" in titles
    assert "Accelerating Tensor-train Decomposition on Graph Neural Networks" in titles

    # filters: Shenghao Qiu wrote one paper with Yangqing Zhu (2018) and six with Zheng Wang
    # (2020-2025); his 2025 paper is with Chunwei Xia and Zheng Wang
    one = edge_id(page, "Shenghao Qiu", "Yangqing Zhu")
    six = edge_id(page, "Shenghao Qiu", "Zheng Wang")
    late = edge_id(page, "Shenghao Qiu", "Chunwei Xia")
    page.fill("#kg-min-joint", "6")
    drawn = shown(page)
    assert six in drawn["edges"] and one not in drawn["edges"] and late not in drawn["edges"]
    assert int(status.get_attribute("data-visible-edges")) == len(drawn["edges"]) < full.number_of_edges()
    page.fill("#kg-min-joint", "1")
    page.fill("#kg-year-from", "2025")
    page.fill("#kg-year-to", "2025")
    drawn = shown(page)
    assert late in drawn["edges"] and six in drawn["edges"] and one not in drawn["edges"]
    assert len(drawn["nodes"]) < full.number_of_nodes()
    page.click("#kg-reset")
    page.uncheck("#kg-legend input[data-kind=organization]")
    kinds = page.evaluate("() => kgGraph.network.body.data.nodes.getIds().map(i => kgGraph.data.nodes[i].kind)")
    assert "organization" not in kinds and len(kinds) == sum(
        1 for _, a in full.nodes(data=True) if a.get("kind") != "organization")
    page.click("#kg-reset")
    assert len(shown(page)["nodes"]) == full.number_of_nodes()

    # the view for the README: the whole graph, a person picked, a co-author's card open
    page.fill("#kg-search", "")
    click_node(page, "Qinghao Hu")
    assert panel.locator("h2").inner_text() == "Qinghao Hu"
    point = next(p for p in node_points(page) if p["name"] == "Meng Zhang")
    page.mouse.move(point["x"], point["y"])
    card = page.locator("#kg-tooltip")
    card.wait_for(state="visible", timeout=5_000)
    assert card.locator("h2").inner_text() == "Meng Zhang"
    assert "Lucid: A Non-Intrusive, Scalable and Interpretable Scheduler" in card.inner_text()
    page.screenshot(path=str(tmp_path / "graph.png"))  # tests write only to temporary folders

    w.assert_quiet()
    page.close()


# ------------------------------------------------------------------ hostile input


SEARCH_PAYLOADS = ["<img src=x onerror=alert(1)>", "<script>", '"><svg onload=alert(1)>',
                   "javascript:alert(1)", "</script><script>alert(1)</script>", "<iframe"]


def hostile_synthetic_page(tmp_path: Path) -> Path:
    """Payloads where the reader cannot reach: venues, organization names, roles, parents."""
    from kg.outputs.html.page import graph_html

    co, po = nx.Graph(), nx.Graph()
    people = {"p:1": 'Ann "><svg onload=alert(1)>', "p:2": "<img src=x onerror=alert(1)>",
              "p:3": "</script><script>window.__pwned=1</script>"}
    for iri, name in people.items():
        for g in (co, po):
            g.add_node(iri, name=name, profiled=iri == "p:1", works=1, first_year=2020, last_year=2020, kind="person")
    bad_work = {"iri": "javascript:alert(1)", "title": "<svg><script>alert(1)</script></svg>", "year": 2020,
                "venue": "<style>body{display:none}</style><img src=x onerror=alert(1)>"}
    co.add_edge("p:1", "p:2", joint_works=1, works=[bad_work], weight=1.0)
    co.add_edge("p:2", "p:3", joint_works=1, works=[bad_work], weight=1.0)
    po.add_node("o:1", name="<iframe srcdoc='<script>alert(1)</script>'>", kind="organization", parent=None)
    po.add_node("o:2", name="<a href=javascript:alert(1)>Lab</a>", kind="organization", parent="o:1")
    po.add_edge("p:1", "o:2", relation="position", role="<b onmouseover=alert(1)>Boss</b>", start="2020",
                end=None, ongoing=True)
    path = tmp_path / "hostile-synthetic.html"
    path.write_text(graph_html(co, po, title="<script>alert(1)</script>"), encoding="utf-8")
    return path


def hostile_built_page(tmp_path: Path) -> Path:
    from kg.build import build_graph

    data = tmp_path / "data"
    data.mkdir()
    shutil.copy(HOSTILE_CV, data / HOSTILE_CV.name)
    build_graph(data, tmp_path / "out", validate=False)  # the page is what is tested here
    return tmp_path / "out" / "graph.html"


@pytest.mark.parametrize("source", ["built", "synthetic"])
def test_hostile_names_and_titles_run_nothing(browser, tmp_path, source):
    path = hostile_built_page(tmp_path) if source == "built" else hostile_synthetic_page(tmp_path)
    w = open_page(browser, path)
    page = w.page
    texts = page.evaluate("() => kgGraph.data.nodes.map(n => n.name).concat(kgGraph.data.works.map(x => x[1]))")
    # the payloads did reach the page (else this test would prove nothing)
    assert sum("<" in t for t in texts) >= 3, texts
    if source == "built":
        # names and titles of tests/data/hostile-cv.md, entities decoded by the reader
        assert {"Trudy <script> Smith", "Oscar <iframe> Payload", "Walter <b>Bold</b>"} <= set(texts)
        assert "<img src=x onerror=alert(1)> Breaking Graph Viewers" in texts

    tooltip, panel = page.locator("#kg-tooltip"), page.locator("#kg-panel")
    points = node_points(page)
    assert len(points) == len(page.evaluate("() => kgGraph.data.nodes"))
    for p in points:
        page.mouse.move(p["x"], p["y"])
        tooltip.wait_for(state="visible", timeout=5_000)
        page.mouse.click(p["x"], p["y"])
        # shown as text, exactly as written
        assert panel.locator("h2").text_content() == p["name"]
    # every work title shows as text in some panel
    page.click("#kg-reset")
    for p in points:
        page.mouse.click(p["x"], p["y"])
        for title in panel.locator(".kg-work-title").all_text_contents():
            assert title in texts

    for payload in SEARCH_PAYLOADS:
        page.fill("#kg-search", payload)
        page.keyboard.press("ArrowDown")
        page.keyboard.press("Enter")

    assert page.evaluate("() => [typeof window.__pwned, typeof window.pwned]") == ["undefined", "undefined"]
    # no element came from the data: only the page's own three scripts and one style
    assert page.locator("img, svg, iframe, object, embed, a, b").count() == 0
    assert page.locator("script").count() == 3 and page.locator("style").count() == 1
    assert page.locator("body").is_visible()
    w.assert_quiet()
    page.close()


# ------------------------------------------------------------------ readable at laptop sizes (issue 16)


def test_labels_focus_typo_and_reset_at_laptop_sizes(browser, seeds_out, tmp_path):
    from click.testing import CliRunner

    from kg.cli.main import main

    path = tmp_path / "focus.html"
    result = CliRunner().invoke(main, ["html", "--out", str(seeds_out), "-o", str(path), "--focus", "qinghao", "--hops", "2"])
    assert result.exit_code == 0, result.output
    w = open_page(browser, path)
    page = w.page
    # labels are drawn at a fixed screen size where they do not overlap: many at both sizes
    drawn_big = page.evaluate("() => { kgGraph.network.redraw(); return kgGraph.labelsDrawn; }")
    page.set_viewport_size({"width": 1024, "height": 640})
    page.wait_for_timeout(300)
    drawn_small = page.evaluate("() => { kgGraph.network.fit(); kgGraph.network.redraw(); return kgGraph.labelsDrawn; }")
    assert drawn_big >= 20 and drawn_small >= 12, (drawn_big, drawn_small)
    # the focus person is marked (ring colour) and shown in the panel from the start
    focus = page.evaluate("() => kgGraph.data.focus")
    assert page.evaluate(f"() => kgGraph.data.nodes[{focus}].name") == "Qinghao Hu"
    assert page.evaluate(f"() => kgGraph.nodes.get({focus}).color.border") == "#c2255c"
    assert page.locator("#kg-panel h2").inner_text() == "Qinghao Hu"
    # a typo is forgiven, as on the command line
    page.fill("#kg-search", "qinhao")
    assert page.locator("#kg-results button").first.inner_text().startswith("Qinghao Hu")
    # Reset clears the search, the selection and the hover card
    page.keyboard.press("Enter")
    point = next(p for p in node_points(page) if p["name"] == "Peng Sun")
    page.mouse.move(point["x"], point["y"])
    page.locator("#kg-tooltip").wait_for(state="visible", timeout=5_000)
    page.click("#kg-reset")
    assert page.input_value("#kg-search") == "" and page.locator("#kg-results").is_hidden()
    assert page.locator("#kg-tooltip").is_hidden() and page.locator("#kg-panel .kg-hint").count() == 1
    assert page.evaluate("() => kgGraph.network.getSelectedNodes().length") == 0
    # cards say "Studied at" once: no "Studied at: studied, ..." on any node
    texts = page.evaluate("""() => kgGraph.data.nodes.map(n => {
        kgGraph.select(n.id); return document.getElementById('kg-panel').innerText; })""")
    doubled = [t for t in texts if "Studied at: studied" in t or "Worked at: worked" in t]
    assert doubled == [], doubled[:1]
    w.assert_quiet()
    page.close()
