"""The HTML graph page without a browser: what it holds, what it leaves out, and that it is inert.

Small graphs shaped like the projections (``kg.graphs.projections``) are written by hand here, so
every expected number below is counted from them; the seed tests read ``data/`` by hand.
"""

from __future__ import annotations

import html as htmlmod
import json
import re
import stat

import networkx as nx
import pytest
from click.testing import CliRunner

from kg.cli.main import main
from kg.errors import UserError
from kg.outputs.html.page import graph_html, iframe_html, select_graph, show_graph, write_graph_html

DATA_OPEN = '<script type="application/json" id="kg-data">'
CSP = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; "
       "base-uri 'none'; form-action 'none'")


def person(g, iri, name, *, profiled=False, works=0, first=None, last=None):
    g.add_node(iri, name=name, profiled=profiled, works=works, first_year=first, last_year=last, kind="person")


def work(iri, title, year, venue):
    return {"iri": iri, "title": title, "year": year, "venue": venue}


W1 = work("w:1", "Engines of Analysis", 2019, "VenueA")
W2 = work("w:2", "Notes on Notes", 2021, "VenueB")
W3 = work("w:3", "Córdoba Lectures", 2023, None)
W4 = work("w:4", "Difference Tables", 2021, "VenueB")


def small_graphs(reverse=False):
    """Ada (profiled) wrote W1, W2 with Bob and W3 with Cy; Bob wrote W4 with Dee.

    Ada studied at the University and works at its Lab; Bob worked at the University.
    6 nodes (4 people, 2 organizations) and 6 links (3 co-author, 3 affiliation).
    """
    people = [("p:ada", "Ada Lovelace", True, 3, 2019, 2023), ("p:bob", "Bob Babbage", False, 3, 2019, 2021),
              ("p:cy", "Cy Córdoba", False, 1, 2023, 2023), ("p:dee", "Dee Dee", False, 1, 2021, 2021)]
    co_edges = [("p:ada", "p:bob", [W1, W2]), ("p:ada", "p:cy", [W3]), ("p:bob", "p:dee", [W4])]
    org_edges = [("p:ada", "o:uni", dict(relation="education", role="PhD", start="2010", end="2014", ongoing=False)),
                 ("p:ada", "o:uni/lab", dict(relation="position", role="Fellow", start="2015-03", end=None, ongoing=True)),
                 ("p:bob", "o:uni", dict(relation="position", role="Lecturer", start="2016", end="2020", ongoing=False))]
    if reverse:
        people, co_edges, org_edges = people[::-1], co_edges[::-1], org_edges[::-1]
    co, po = nx.Graph(), nx.Graph()
    for iri, name, prof, n, first, last in people:
        person(co, iri, name, profiled=prof, works=n, first=first, last=last)
        person(po, iri, name, profiled=prof, works=n, first=first, last=last)
    for a, b, ws in co_edges:
        co.add_edge(b, a, joint_works=len(ws), works=ws, weight=float(len(ws)))
    orgs = [("o:uni", "University of Somewhere", None), ("o:uni/lab", "Lab", "o:uni")]
    for iri, name, parent in (orgs[::-1] if reverse else orgs):
        po.add_node(iri, name=name, kind="organization", parent=parent)
    for a, b, attrs in org_edges:
        po.add_edge(a, b, **attrs)
    return co, po


def page_data(page: str) -> dict:
    start = page.index(DATA_OPEN) + len(DATA_OPEN)
    return json.loads(page[start:page.index("</script>", start)])


def names(data) -> set[str]:
    return {n["name"] for n in data["nodes"]}


# ------------------------------------------------------------------ content


def test_page_holds_every_node_and_link_with_its_kind():
    data = page_data(graph_html(*small_graphs()))
    kinds = {n["iri"]: n["kind"] for n in data["nodes"]}
    assert kinds == {"p:ada": "profiled", "p:bob": "coauthor", "p:cy": "coauthor", "p:dee": "coauthor",
                     "o:uni": "organization", "o:uni/lab": "organization"}
    assert len(data["edges"]) == 6
    by_iri = {n["id"]: n["iri"] for n in data["nodes"]}
    links = {frozenset((by_iri[e["from"]], by_iri[e["to"]])): e for e in data["edges"]}
    ada_bob = links[frozenset(("p:ada", "p:bob"))]
    assert ada_bob["kind"] == "coauthor" and ada_bob["joint"] == 2 and ada_bob["years"] == [2019, 2021]
    assert sorted(data["works"][i][1] for i in ada_bob["works"]) == ["Engines of Analysis", "Notes on Notes"]
    lab = links[frozenset(("p:ada", "o:uni/lab"))]
    assert (lab["kind"], lab["role"], lab["years"], lab["ongoing"]) == ("position", "Fellow", [2015, None], True)
    lab_node = next(n for n in data["nodes"] if n["iri"] == "o:uni/lab")
    assert by_iri[lab_node["parent"]] == "o:uni"
    # profiled people are drawn bigger than a co-author with as many works
    size = {n["iri"]: n["size"] for n in data["nodes"]}
    assert size["p:ada"] > size["p:bob"]
    assert data["note"] == ""


def test_same_graphs_give_the_same_bytes_whatever_the_insertion_order():
    assert graph_html(*small_graphs()) == graph_html(*small_graphs(reverse=True))


def test_page_loads_nothing_from_outside():
    page = graph_html(*small_graphs())
    assert f'<meta http-equiv="Content-Security-Policy" content="{CSP}">' in page
    # the markup outside the three scripts (data, vis-network, ours) references nothing
    assert page.count("</script>") == 3
    assert len(re.findall(r"<script\b.*?</script>", page, flags=re.S)) == 3
    markup = re.sub(r"<script\b.*?</script>", "", page, flags=re.S)
    for needle in ("<script", "http:", "https:", "src=", "href=", "<link", "@import", "url("):
        assert needle not in markup, needle


HOSTILE = {
    "name": 'Eve <img src=x onerror=alert(1)> "><svg onload=alert(1)>',
    "title": "</script><script>window.__pwned=1</script><!-- \u2028\u2029 & done",
    "venue": "<SCRIPT>alert(1)</SCRIPT> javascript:alert(1)",
}


def hostile_graphs():
    co = nx.Graph()
    person(co, "p:eve", HOSTILE["name"], profiled=True, works=1, first=2024, last=2024)
    person(co, "p:x", "</SCRIPT >x", works=1, first=2024, last=2024)
    co.add_edge("p:eve", "p:x", joint_works=1, weight=1.0,
                works=[work("w:<b>", HOSTILE["title"], 2024, HOSTILE["venue"])])
    return co


def test_hostile_text_stays_inside_the_data_block_and_comes_back_unchanged():
    page = graph_html(hostile_graphs(), title="<i>t</i>")
    start = page.index(DATA_OPEN) + len(DATA_OPEN)
    block = page[start:page.index("</script>", start)]
    assert "<" not in block and ">" not in block and "&" not in block
    assert "\u2028" not in block and "\u2029" not in block
    data = json.loads(block)
    assert names(data) == {HOSTILE["name"], "</SCRIPT >x"}
    assert data["works"] == [["w:<b>", HOSTILE["title"], 2024, HOSTILE["venue"]]]
    for payload in ("<img src=x", "<svg onload", "<script>window", "<SCRIPT>", "<i>t</i>", "<!--"):
        assert payload not in page, payload
    assert "<title>&lt;i&gt;t&lt;/i&gt;</title>" in page


# ------------------------------------------------------------------ selection


@pytest.mark.parametrize("hops, expected", [
    (0, {"p:ada", "o:uni", "o:uni/lab"}),
    (1, {"p:ada", "p:bob", "p:cy", "o:uni", "o:uni/lab"}),
    (2, {"p:ada", "p:bob", "p:cy", "p:dee", "o:uni", "o:uni/lab"}),
])
def test_focus_keeps_people_within_hops_and_their_organizations(hops, expected):
    sel = select_graph(*small_graphs(), focus="p:ada", hops=hops)
    assert set(sel.graph.nodes) == expected


def test_focus_note_says_what_is_shown():
    sel = select_graph(*small_graphs(), focus="p:bob", hops=1)
    # Bob's co-authors are Ada and Dee; their organizations: the University, the Lab
    assert set(sel.graph.nodes) == {"p:bob", "p:ada", "p:dee", "o:uni", "o:uni/lab"}
    assert sel.note == ("The 1-hop co-author neighbourhood of Bob Babbage, with their organizations: "
                        "showing 5 of 6 nodes and 5 of 6 links.")
    assert page_data(graph_html(*small_graphs(), focus="p:bob"))["title"] == "Co-authors of Bob Babbage"


def test_max_nodes_keeps_the_strongest_and_says_what_was_left_out():
    # ranks: Ada (profiled), then by joint works + links: Bob 2+1+1 = 4, University 2 links,
    # then Cy, Dee and the Lab with 1 each
    sel = select_graph(*small_graphs(), max_nodes=3)
    assert set(sel.graph.nodes) == {"p:ada", "p:bob", "o:uni"}
    assert (sel.left_out_nodes, sel.cut_people, sel.cut_organizations) == (3, 2, 1)
    assert sel.note == ("Cut to the 3 strongest nodes (by joint works and links); 2 people and 1 organization "
                        "left out: showing 3 of 6 nodes and 3 of 6 links.")
    assert page_data(graph_html(*small_graphs(), max_nodes=3))["note"] == sel.note


def test_max_nodes_in_a_focus_view_keeps_the_nearest_first():
    sel = select_graph(*small_graphs(), focus="p:dee", hops=2, max_nodes=2)
    assert set(sel.graph.nodes) == {"p:dee", "p:bob"}


@pytest.mark.parametrize("kwargs, message", [
    ({"focus": "p:nobody"}, "'p:nobody' is not a person of the co-author graph"),
    ({"focus": "o:uni"}, "'o:uni' is not a person of the co-author graph"),
    ({"hops": -1}, "hops must be a whole number of at least 0"),
    ({"max_nodes": 0}, "max_nodes must be a whole number of at least 1"),
])
def test_bad_selection_says_what_is_wrong(kwargs, message):
    with pytest.raises(UserError, match=re.escape(message)):
        graph_html(*small_graphs(), **kwargs)


def test_a_directed_graph_is_refused():
    # The wrong kind of graph is a programming mistake, not bad input: TypeError.
    with pytest.raises(TypeError, match="must be an undirected networkx.Graph"):
        graph_html(nx.DiGraph([("a", "b")]))


def test_an_empty_graph_still_gives_a_page():
    data = page_data(graph_html(nx.Graph()))
    assert data["nodes"] == [] and data["edges"] == []


# ------------------------------------------------------------------ jupyter


def test_show_graph_embeds_the_whole_page_escaped_in_a_sandboxed_iframe():
    co = hostile_graphs()
    shown = show_graph(co, height=500).data
    m = re.fullmatch(r'<div class="kg-graph-frame"><iframe srcdoc="([^"]*)" sandbox="allow-scripts" (.*)</iframe></div>',
                     shown, flags=re.S)
    assert m, shown[:200]
    assert htmlmod.unescape(m.group(1)) == graph_html(co)
    assert "height:500px" in m.group(2)
    with pytest.raises(UserError, match="height must be"):
        iframe_html("<p>", height=10)


# ------------------------------------------------------------------ the seeds, via the store and the CLI


def test_build_writes_the_page_for_the_whole_graph(seeds_out, seeds_store):
    from kg.graphs.projections import coauthor_graph, person_organization_graph
    from kg.outputs.html.page import combined_graph

    full = combined_graph(coauthor_graph(seeds_store), person_organization_graph(seeds_store))
    data = page_data((seeds_out / "graph.html").read_text(encoding="utf-8"))
    assert (len(data["nodes"]), len(data["edges"])) == (full.number_of_nodes(), full.number_of_edges())
    kinds = {n["name"]: n["kind"] for n in data["nodes"]}
    # the three CVs are about these three people (read from data/)
    assert {name for name, kind in kinds.items() if kind == "profiled"} == {"Qinghao Hu", "Shenghao Qiu", "Kaiqiang Xu"}


def test_the_page_drawn_from_the_tables_alone_is_the_page_drawn_from_the_store(seeds_out, tmp_path):
    # A big build draws its page from the tables while the store loads; the seeds' build, small, drew
    # it from the store by SPARQL. The same graph must give the same bytes: every person, organization
    # and affiliation (the seeds' CVs list educations and positions, so the affiliations table has rows).
    import duckdb

    from kg.outputs.html.page import write_tables_page

    [(affiliations,)] = duckdb.sql(f"SELECT count(*) FROM '{seeds_out / 'tables' / 'affiliations.parquet'}'").fetchall()
    assert affiliations > 5
    write_tables_page(seeds_out / "tables", tmp_path / "from-tables.html")
    assert (tmp_path / "from-tables.html").read_bytes() == (seeds_out / "graph.html").read_bytes()


@pytest.mark.parametrize("max_nodes", [1, 3, 4, 10, 25, 60, 73, 74, 500])
def test_a_cut_chosen_from_the_tables_is_the_cut_select_graph_makes(seeds_out, seeds_store, tmp_path, max_nodes):
    # A page with a cap chooses its cut in DuckDB before it makes any graph (kg.graphs.strongest);
    # select_graph cuts the whole networkx graph. On the seeds (74 nodes: 3 profiled people first,
    # then many ties in joint works broken by IRI) both give the same bytes, note included, at every
    # cap: under the profiled three, at them, in the ties, at 73 and 74 (no cut). `kg html --max-nodes`
    # (write_graph_html without a focus) takes the tables' way too.
    from kg.graphs.projections import coauthor_graph, person_organization_graph
    from kg.outputs.html.page import selection_html, write_tables_page

    coauthors = coauthor_graph(seeds_store)
    whole_graph_cut = select_graph(coauthors, person_organization_graph(seeds_store, coauthors), max_nodes=max_nodes)
    from_tables = write_tables_page(seeds_out / "tables", tmp_path / "tables.html", max_nodes=max_nodes)
    assert (tmp_path / "tables.html").read_text(encoding="utf-8") == selection_html(whole_graph_cut)
    assert from_tables.note == whole_graph_cut.note
    assert from_tables.graph.number_of_nodes() == min(max_nodes, 74)
    assert (from_tables.cut_people, from_tables.cut_organizations) == (whole_graph_cut.cut_people,
                                                                        whole_graph_cut.cut_organizations)
    write_graph_html(seeds_out, tmp_path / "cli.html", max_nodes=max_nodes)
    assert (tmp_path / "cli.html").read_bytes() == (tmp_path / "tables.html").read_bytes()


def test_cli_focus_on_a_person_without_coauthors(seeds_out, tmp_path):
    # Kaiqiang Xu's CV lists no co-authors, and five places: HKUST and Renmin University
    # (education), Google Cloud's MSCA team, Vincross Robotics and Zhihu.com (work)
    out = tmp_path / "sub" / "kx.html"
    out.parent.mkdir()  # kg html creates no folders (tests/test_new_user.py)
    result = CliRunner().invoke(main, ["html", "--out", str(seeds_out), "-o", str(out), "--focus", "kaiqiang xu"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == f"wrote {out}: 6 nodes, 5 links"
    data = page_data(out.read_text(encoding="utf-8"))
    found = names(data)
    assert "Kaiqiang Xu" in found
    for part in ("Hong Kong University of Science", "Renmin", "MSCA", "Vincross", "Zhihu"):
        assert any(part in n for n in found), part
    assert stat.S_IMODE(out.stat().st_mode) == 0o644
    assert sorted(p.name for p in out.parent.iterdir()) == ["kx.html"]  # no temp file left


def test_the_build_draws_at_most_page_max_nodes_and_says_what_it_left_out(seeds_out, monkeypatch, tmp_path):
    # The seeds' build reports 54 people and 20 organizations: its page draws all 74 nodes, under the
    # build's cap. With the cap set to 10 the page keeps the 10 strongest, the three CV owners first,
    # and the build's report says what it left out and how to draw more (nothing dropped silently).
    import kg.build
    from tests.conftest import DATA

    assert len(page_data((seeds_out / "graph.html").read_text(encoding="utf-8"))["nodes"]) == 74
    monkeypatch.setattr(kg.build, "PAGE_MAX_NODES", 10)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", str(DATA), "--out", str(out)])
    assert result.exit_code == 0, result.output
    [line] = [x for x in result.output.splitlines() if x.startswith("graph.html: ")]
    assert line.startswith("graph.html: Cut to the 10 strongest nodes") and "showing 10 of 74 nodes" in line
    assert line.endswith("`kg html --max-nodes N` or `kg html --focus NAME` draws more.")
    data = page_data((out / "graph.html").read_text(encoding="utf-8"))
    assert len(data["nodes"]) == 10
    assert sum(n["kind"] == "profiled" for n in data["nodes"]) == 3


def test_cli_max_nodes_prints_what_was_left_out(seeds_out, tmp_path):
    out = tmp_path / "g.html"
    result = CliRunner().invoke(main, ["html", "--out", str(seeds_out), "-o", str(out), "--max-nodes", "10"])
    assert result.exit_code == 0, result.output
    first, note = result.output.splitlines()
    assert first.startswith(f"wrote {out}: 10 nodes, ")
    assert note.startswith("Cut to the 10 strongest nodes") and "left out: showing 10 of " in note
    data = page_data(out.read_text(encoding="utf-8"))
    assert data["note"] == note
    # the three profiled people come first
    assert sum(n["kind"] == "profiled" for n in data["nodes"]) == 3


def test_kg_html_keeps_the_builds_cap_unless_asked_and_says_how_to_draw_more(seeds_out, monkeypatch, tmp_path):
    # The seeds' graph has 74 nodes (54 people, 20 organizations), under the default cap of 20,000:
    # `kg html` draws them all, in the bytes of the build's own page, and says nothing was left out.
    out = tmp_path / "all.html"
    result = CliRunner().invoke(main, ["html", "--out", str(seeds_out), "-o", str(out)])
    assert result.exit_code == 0, result.output
    [line] = result.output.splitlines()
    assert line.startswith(f"wrote {out}: 74 nodes, ")
    assert out.read_bytes() == (seeds_out / "graph.html").read_bytes()
    # With the cap at 10, the default keeps the 10 strongest (the three CV owners first), says what it
    # left out, and, since nobody asked for 10, how to draw more; `--max-nodes 80` asks for all 74.
    import kg.outputs.html

    monkeypatch.setattr(kg.outputs.html, "PAGE_MAX_NODES", 10)
    result = CliRunner().invoke(main, ["html", "--out", str(seeds_out), "-o", str(tmp_path / "cut.html")])
    assert result.exit_code == 0, result.output
    wrote, note, hint = result.output.splitlines()
    assert wrote.startswith(f"wrote {tmp_path / 'cut.html'}: 10 nodes, ")
    assert note.startswith("Cut to the 10 strongest nodes") and "showing 10 of 74 nodes" in note
    assert hint == "`kg html --max-nodes N` or `kg html --focus NAME` draws more."
    data = page_data((tmp_path / "cut.html").read_text(encoding="utf-8"))
    assert len(data["nodes"]) == 10 and sum(n["kind"] == "profiled" for n in data["nodes"]) == 3
    result = CliRunner().invoke(main, ["html", "--out", str(seeds_out), "-o", str(tmp_path / "asked.html"),
                                       "--max-nodes", "80"])
    assert result.exit_code == 0 and result.output.splitlines()[0].endswith(": 74 nodes, " +
                                                                          line.rsplit(": 74 nodes, ", 1)[1])
    assert (tmp_path / "asked.html").read_bytes() == (seeds_out / "graph.html").read_bytes()


def test_write_graph_html_resolves_the_focus_name(seeds_store, tmp_path):
    sel = write_graph_html(seeds_store, tmp_path / "q.html", focus="Hu Qinghao", hops=1)
    assert sel.graph.nodes[sel.focus]["name"] == "Qinghao Hu"
    # co-authors named in both of Qinghao Hu's CVs (data/cv-qinghao-hu-2024.md)
    found = names(page_data((tmp_path / "q.html").read_text(encoding="utf-8")))
    assert {"Tianwei Zhang", "Yonggang Wen", "Peng Sun", "Meng Zhang", "Harsha Nori"} <= found
    assert "Kaiqiang Xu" not in found


def test_cli_errors_are_one_line(tmp_path):
    runner = CliRunner()
    result = runner.invoke(main, ["html", "--out", str(tmp_path)])
    assert result.exit_code == 1
    assert result.output.strip().startswith("kg: error: no built graph in")
    result = runner.invoke(main, ["html", "--out", str(tmp_path), "--hops", "2"])
    assert result.exit_code == 2 and "--hops needs --focus" in result.output


def test_cli_unknown_focus_names_the_closest(seeds_out, tmp_path):
    result = CliRunner().invoke(main, ["html", "--out", str(seeds_out), "-o", str(tmp_path / "x.html"),
                                       "--focus", "Qinhao Hu"])
    assert result.exit_code == 1
    assert "no person named 'Qinhao Hu'" in result.output and "Qinghao Hu" in result.output
    assert not (tmp_path / "x.html").exists()
