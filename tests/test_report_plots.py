"""kg analyze's report draws at most PLOTTED_PEOPLE people's plots, and tables for everyone."""

import networkx as nx

from kg.outputs.report import PLOTTED_PEOPLE, plotted_people, report_text


def _star(profiled: int) -> nx.Graph:
    # profiled people p00, p01, ... each wrote i + 1 works with one co-author of their own, so p(n-1)
    # has the most works; "works" counts them as the projection does
    g = nx.Graph()
    for i in range(profiled):
        p, c = f"p{i:02d}", f"c{i:02d}"
        g.add_node(p, name=f"P {i:02d}", profiled=True, works=i + 1, kind="person")
        g.add_node(c, name=f"C {i:02d}", profiled=False, works=i + 1, kind="person")
        works = [{"iri": f"w{i}-{k}", "title": f"T{k}", "year": 2000 + k, "venue": "V"} for k in range(i + 1)]
        g.add_edge(p, c, joint_works=i + 1, weight=float(i + 1), works=works)
    return g


def test_few_profiled_people_are_all_plotted():
    g = _star(3)
    text = report_text(g, fmt="markdown")
    # one degree plot, one collaborations-per-year plot, one top-collaborators plot per person
    assert text.count("![") == 2 + 3
    assert "profiled people with the most works" not in text


def test_many_profiled_people_plot_the_busiest_and_list_everyone():
    n = PLOTTED_PEOPLE + 2
    g = _star(n)
    text = report_text(g, fmt="markdown")
    assert text.count("![") == 2 + PLOTTED_PEOPLE
    assert f"The plots show the {PLOTTED_PEOPLE} profiled people with the most works, of {n}" in text
    # the two with the fewest works (p00 and p01) have their tables but no plot
    assert "![top collaborators of P 00]" not in text and "![top collaborators of P 01]" not in text
    assert f"![top collaborators of P {n - 1:02d}]" in text
    assert text.count("### P 00") == 2  # a per-year table and a top-collaborators table
    assert plotted_people(g, sorted(p for p in g if p.startswith("p"))) == [f"p{i:02d}" for i in range(2, n)]


def test_many_pairs_at_one_institution_are_counted_then_listed_in_part(graph_fixture_store, monkeypatch):
    # The fixture's people at University X overlap in 5 pairs (test_analyses.test_overlaps_in_time):
    # Ada-Bob twice (his M.Sc., his postdoc), Ada-Gus, Bob-Gus twice. With room for 5, all are listed
    # and nothing is counted; with room for 2, the report says 5, counts them by institution (one row,
    # University X: 5) and lists the first two, Ada-Bob's.
    from kg.graphs.projections import coauthor_graph, person_organization_graph
    from kg.outputs import report

    g, po = coauthor_graph(graph_fixture_store), person_organization_graph(graph_fixture_store)

    def section(text: str) -> list[str]:
        return [line for line in text.split("## Same institution, same time", 1)[1].splitlines() if line.strip()]

    monkeypatch.setattr(report, "LISTED_PAIRS", 5)
    every = section(report_text(g, po, fmt="markdown"))
    assert not any("pairs of people" in line for line in every)
    assert sum(line.startswith("| University X |") for line in every) == 5
    monkeypatch.setattr(report, "LISTED_PAIRS", 2)
    some = section(report_text(g, po, fmt="markdown"))
    assert some[0].startswith("5 pairs of people were at one institution at the same time")
    assert "| University X | 5 |" in some
    listed = [line for line in some if line.startswith("| University X | ")][1:]
    assert len(listed) == 2 and all("Ada Lovelace" in line and "Bob Byte" in line for line in listed)


def test_the_report_converts_the_coauthor_graph_to_igraph_once(monkeypatch):
    # Four of the report's analyses work on igraph: the centrality (and its betweenness process), the
    # statistics, the community membership and the communities' modularity. Each converted the graph
    # itself (four conversions of 1.3 million pairs at 10,000 CVs); the report now converts it once and
    # they share it. igraph is counted where kg.graphs.common builds its graphs; the work is igraph's own.
    from kg.graphs import common

    real = common.igraph()
    built = []

    class Counting:
        def __getattr__(self, name):
            return getattr(real, name)

        def Graph(self, *args, **kwargs):  # noqa: N802 (igraph's name)
            built.append(kwargs.get("n"))
            return real.Graph(*args, **kwargs)

    monkeypatch.setattr(common, "igraph", Counting)
    g = _star(3)  # 6 nodes
    text = report_text(g, fmt="markdown")
    assert "## Communities" in text and "## Most central people" in text
    assert built == [6]
    # outside the report every analysis converts for itself again
    from kg.graphs.structure import graph_statistics

    graph_statistics(g)
    assert built == [6, 6]
