"""What the graph page shows: the co-author graph with organizations, all of it, one person's
neighbourhood or the strongest part of a big graph, and a note on what was left out."""

from __future__ import annotations

import math
from dataclasses import dataclass

import networkx as nx

from kg.errors import UserError
from kg.graphs.common import check_graph
from kg.graphs.strongest import rank_key

#: node kinds shown in the page, in legend order
NODE_KINDS = ("profiled", "coauthor", "organization")


def node_kind(attrs: dict) -> str:
    if attrs.get("kind") == "organization":
        return "organization"
    return "profiled" if attrs.get("profiled") else "coauthor"


def combined_graph(coauthor_graph: nx.Graph, person_org_graph: nx.Graph | None = None, *,
                   in_place: bool = False) -> nx.Graph:
    """The union of the co-author graph and the person–organization graph.

    Parameters
    ----------
    coauthor_graph : networkx.Graph
        People (node key = IRI) linked by joint works, as from ``kg.graphs.projections.coauthor_graph``.
    person_org_graph : networkx.Graph, optional
        People and organizations linked by ``relation`` ``"education"`` or ``"position"``, as
        from ``kg.graphs.projections.person_organization_graph``.
    in_place : bool
        Make the union in *coauthor_graph* itself rather than in a copy (a caller that has no
        further use for it: at 1,000 CVs the copy's 130,000 edges took a tenth of the page's time).

    Returns
    -------
    networkx.Graph
        Every node of both graphs (a person's attributes from the co-author graph win), every
        co-author edge with ``relation="coauthor"`` and every person–organization edge.

    Examples
    --------
    >>> a = nx.Graph([("p:1", "p:2")])
    >>> b = nx.Graph([("p:1", "o:x")])
    >>> b.nodes["o:x"]["kind"] = "organization"
    >>> g = combined_graph(a, b)
    >>> sorted(g.nodes), g.number_of_edges(), g.edges["p:1", "p:2"]["relation"]
    (['o:x', 'p:1', 'p:2'], 2, 'coauthor')
    >>> combined_graph(a, b, in_place=True) is a, sorted(a.nodes), a.edges["p:1", "p:2"]["relation"]
    (True, ['o:x', 'p:1', 'p:2'], 'coauthor')
    """
    check_graph(coauthor_graph, "coauthor_graph", multigraph=False)
    if person_org_graph is not None:
        check_graph(person_org_graph, "person_org_graph", multigraph=False)
    if in_place:
        return _combined_in_place(coauthor_graph, person_org_graph)
    out = nx.Graph()
    if person_org_graph is not None:
        for node, attrs in person_org_graph.nodes(data=True):
            out.add_node(node, **attrs)
    for node, attrs in coauthor_graph.nodes(data=True):
        merged = dict(out.nodes[node]) if node in out else {}
        merged.update(attrs)
        out.add_node(node, **merged)
    for u, v, attrs in coauthor_graph.edges(data=True):
        out.add_edge(u, v, **{**attrs, "relation": "coauthor"})
    if person_org_graph is not None:
        for u, v, attrs in person_org_graph.edges(data=True):
            if not out.has_edge(u, v):
                out.add_edge(u, v, **attrs)
    return out


def _combined_in_place(graph: nx.Graph, person_org_graph: nx.Graph | None) -> nx.Graph:
    """:func:`combined_graph` made in *graph*, the co-author graph: each attribute dict as the copy's."""
    for _, _, attrs in graph.edges(data=True):
        attrs["relation"] = "coauthor"
    if person_org_graph is None:
        return graph
    for node, attrs in person_org_graph.nodes(data=True):
        if node in graph:
            mine = graph.nodes[node]
            merged = {**attrs, **mine}  # the organization graph's keys first, as the copy makes them
            mine.clear()
            mine.update(merged)
        else:
            graph.add_node(node, **attrs)
    for u, v, attrs in person_org_graph.edges(data=True):
        if not graph.has_edge(u, v):
            graph.add_edge(u, v, **attrs)
    return graph


# --------------------------------------------------------------------------- selection


@dataclass(frozen=True)
class GraphSelection:
    """What the page shows, and what it left out.

    Attributes
    ----------
    graph : networkx.Graph
        The combined graph restricted to the nodes shown.
    total_nodes, total_edges : int
        Size of the combined graph before selecting.
    focus : str or None
        IRI of the person whose neighbourhood is shown.
    hops : int
        Radius of that neighbourhood (co-authorship hops).
    max_nodes : int or None
        The cap asked for.
    """

    graph: nx.Graph
    total_nodes: int
    total_edges: int
    focus: str | None = None
    hops: int = 1
    max_nodes: int | None = None
    cut_nodes: int = 0
    cut_people: int = 0
    cut_organizations: int = 0

    @property
    def left_out_nodes(self) -> int:
        """Nodes of the combined graph not shown."""
        return self.total_nodes - self.graph.number_of_nodes()

    @property
    def left_out_edges(self) -> int:
        """Edges of the combined graph not shown."""
        return self.total_edges - self.graph.number_of_edges()

    @property
    def note(self) -> str:
        """One sentence saying what is shown when it is not everything; ``""`` otherwise."""
        shown_n, shown_e = self.graph.number_of_nodes(), self.graph.number_of_edges()
        parts = []
        if self.focus is not None:
            name = self.graph.nodes[self.focus].get("name") or self.focus
            parts.append(
                f"The {self.hops}-hop co-author neighbourhood of {name}, with their organizations"
            )
        if self.cut_nodes:
            what = []
            if self.cut_people:
                what.append(_count(self.cut_people, "person", "people"))
            if self.cut_organizations:
                what.append(_count(self.cut_organizations, "organization", "organizations"))
            parts.append(
                f"cut to the {self.max_nodes:,} strongest nodes (by joint works and links); "
                f"{' and '.join(what)} left out"
            )
        if not parts and not self.left_out_nodes and not self.left_out_edges:
            return ""
        head = "; ".join(parts)
        head = head[:1].upper() + head[1:]
        shown = (
            f"showing {shown_n:,} of {_count(self.total_nodes, 'node', 'nodes')} "
            f"and {shown_e:,} of {_count(self.total_edges, 'link', 'links')}."
        )
        return f"{head}: {shown}" if head else shown[:1].upper() + shown[1:]


def _count(n: int, one: str, many: str) -> str:
    return f"{n:,} {one if n == 1 else many}"


def _strength(graph: nx.Graph, node) -> int:
    total = 0
    for _, _, attrs in graph.edges(node, data=True):
        if attrs.get("relation") == "coauthor":
            total += int(attrs.get("joint_works") or attrs.get("weight") or 1)
        else:
            total += 1
    return total


def check_max_nodes(max_nodes) -> None:
    """Raise a UserError unless *max_nodes* is None or a whole number of at least 1."""
    if max_nodes is not None and (isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1):
        raise UserError(
            f"max_nodes must be a whole number of at least 1 (got {max_nodes!r}); leave it out to show every node"
        )


def select_graph(
    coauthor_graph: nx.Graph,
    person_org_graph: nx.Graph | None = None,
    *,
    focus: str | None = None,
    hops: int = 1,
    max_nodes: int | None = None,
    in_place: bool = False,
) -> GraphSelection:
    """The part of the combined graph to show.

    Parameters
    ----------
    coauthor_graph, person_org_graph : networkx.Graph
        See :func:`combined_graph`.
    focus : str, optional
        IRI of a person: keep the people within *hops* co-authorships of them, and the
        organizations those people are linked to. Find the IRI from a name with
        :func:`kg.query.lookup.resolve_person`.
    hops : int
        Radius of the focus view, 0 or more.
    max_nodes : int, optional
        Keep at most this many nodes: profiled people first, then the nodes with the most
        joint works (organizations count one per person linked), nearest the focus first.
    in_place : bool
        Let *coauthor_graph* become the combined graph (see :func:`combined_graph`).

    Returns
    -------
    GraphSelection

    Raises
    ------
    UserError
        If *focus* is not a person of the graph, or *hops* / *max_nodes* are out of range.

    Examples
    --------
    >>> g = nx.path_graph(["p:a", "p:b", "p:c", "p:d"])
    >>> sel = select_graph(g, focus="p:a", hops=2)
    >>> sorted(sel.graph.nodes), sel.left_out_nodes
    (['p:a', 'p:b', 'p:c'], 1)
    >>> sel.note
    'The 2-hop co-author neighbourhood of p:a, with their organizations: showing 3 of 4 nodes and 2 of 3 links.'
    >>> select_graph(g, max_nodes=0)
    Traceback (most recent call last):
    ...
    kg.errors.UserError: max_nodes must be a whole number of at least 1 (got 0); leave it out to show every node
    """
    if isinstance(hops, bool) or not isinstance(hops, int) or hops < 0:
        raise UserError(f"hops must be a whole number of at least 0 (got {hops!r}); 1 shows direct co-authors")
    check_max_nodes(max_nodes)
    full = combined_graph(coauthor_graph, person_org_graph, in_place=in_place)
    keep = set(full.nodes)
    distance: dict = {}
    if focus is not None:
        if focus not in full or node_kind(full.nodes[focus]) == "organization":
            raise UserError(
                f"{focus!r} is not a person of the co-author graph; pass a person's IRI "
                "(kg.query.lookup.resolve_person finds it from a name)"
            )
        people = full.subgraph(n for n, a in full.nodes(data=True) if node_kind(a) != "organization")
        distance = nx.single_source_shortest_path_length(people, focus, cutoff=hops)
        keep = set(distance)
        for person in list(distance):
            for nb in full.neighbors(person):
                if node_kind(full.nodes[nb]) == "organization":
                    keep.add(nb)
                    distance[nb] = min(distance.get(nb, math.inf), distance[person] + 0.5)
    cut_people = cut_orgs = 0
    if max_nodes is not None and len(keep) > max_nodes:
        sub = full.subgraph(keep)

        def rank(node):
            kind = node_kind(full.nodes[node])
            return (distance.get(node, 0), *rank_key(kind == "profiled", _strength(sub, node), node))

        ordered = sorted(keep, key=rank)
        dropped = ordered[max_nodes:]
        keep = set(ordered[:max_nodes])
        cut_orgs = sum(1 for n in dropped if node_kind(full.nodes[n]) == "organization")
        cut_people = len(dropped) - cut_orgs
    # every node kept (the build's page): the combined graph is already a graph of its own, no copy needed
    graph = full if len(keep) == full.number_of_nodes() else full.subgraph(keep).copy()
    return GraphSelection(
        graph=graph,
        total_nodes=full.number_of_nodes(),
        total_edges=full.number_of_edges(),
        focus=focus,
        hops=hops,
        max_nodes=max_nodes,
        cut_nodes=cut_people + cut_orgs,
        cut_people=cut_people,
        cut_organizations=cut_orgs,
    )
