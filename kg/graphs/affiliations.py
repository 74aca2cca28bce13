"""The person–organization projection from its rows, wherever they were read: the store
(:func:`kg.graphs.projections.person_organization_graph`) or the build's tables alone
(:func:`person_organization_graph_from_tables`, which the build's page of a big graph is drawn from)."""

from __future__ import annotations

from collections import defaultdict

import networkx as nx


def person_attrs(name: str, profiled: bool) -> dict:
    """A person node's attributes before their works are counted (every projection's person nodes)."""
    return {"name": name, "profiled": profiled, "works": 0, "first_year": None,
            "last_year": None, "kind": "person"}


def person_organization_graph_from_tables(tables, coauthors: nx.Graph, within=None) -> nx.Graph:
    """:func:`kg.graphs.projections.person_organization_graph` from the build's tables alone (the folder
    *tables*, which must hold the affiliations table), with *coauthors* from
    :func:`kg.graphs.fromtables.coauthor_graph_from_tables`; only the nodes *within* (IRIs) if given."""
    from kg.graphs.fromtables import affiliation_rows_from_tables, organization_rows_from_tables, people_from_tables

    rows = affiliation_rows_from_tables(tables)
    if rows is None:
        raise ValueError(f"no affiliations table in {tables}; build the graph again")
    names, profiled = people_from_tables(tables)
    organizations = organization_nodes(organization_rows_from_tables(tables))
    links = links_of_rows(rows)
    if within is not None:
        names = {p: n for p, n in names.items() if p in within}
        organizations = {o: attrs for o, attrs in organizations.items() if o in within}
        links = [x for x in links if x["person"] in within and x["organization"] in within]
    return bipartite_graph(names, profiled, coauthors, organizations, links)


def organization_nodes(rows) -> dict[str, dict]:
    """Each organization's node attributes by IRI, in order, from rows (IRI, name, parent) of the
    organizations table: ``name`` (its IRI where it has none), ``kind``, ``parent``."""
    return {o: {"name": name or o, "kind": "organization", "parent": parent} for o, name, parent in sorted(rows)}


def bipartite_graph(names: dict[str, str], profiled: set[str], coauthors: nx.Graph, organizations: dict[str, dict],
                    links: list[dict]) -> nx.Graph:
    """The person–organization graph of people (*names*, the *profiled* among them, attributes copied from
    *coauthors* where there), *organizations* (node attributes by IRI) and affiliation *links*."""
    graph = nx.Graph(kind="person-organization")
    for p in sorted(names):
        attrs = dict(coauthors.nodes[p]) if p in coauthors else person_attrs(names[p], p in profiled)
        graph.add_node(p, **attrs)
    for o, attrs in organizations.items():
        graph.add_node(o, **attrs)
    grouped: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for link in links:
        grouped[link["person"], link["organization"]].append(link)
    for (p, o), group in sorted(grouped.items()):
        for node, kind in ((p, "person"), (o, "organization")):
            if node not in graph:  # an IRI used but not typed: still a node, by its IRI
                graph.add_node(node, **(person_attrs(node, node in profiled) if kind == "person"
                                        else {"name": node, "kind": kind, "parent": None}))
        first = group[0]
        ongoing = any(link["ongoing"] for link in group)
        ends = [link["end"] for link in group if link["end"]]
        starts = [link["start"] for link in group if link["start"]]
        graph.add_edge(
            p, o,
            relation=first["relation"], role=first["role"],
            start=min(starts) if starts else None,
            end=None if ongoing or not ends else max(ends),
            ongoing=ongoing, links=group,
        )
    return graph


def links_of_rows(rows) -> list[dict]:
    """:func:`kg.graphs.projections.affiliation_links` of the affiliations table's *rows* (``ongoing``
    a bool)."""
    links: dict[tuple[str, str, str], dict] = {}
    for x, rel, p, o, role, degree, start, end, ongoing in rows:
        key = (x, p, o)
        rec = links.get(key)
        value = role or degree
        if rec is None:
            links[key] = {"iri": x, "person": p, "organization": o, "relation": rel,
                          "role": value, "start": start, "end": end, "ongoing": ongoing}
            continue
        for field, new in (("role", value), ("start", start), ("end", end)):
            if new and (rec[field] is None or new < rec[field]):
                rec[field] = new
        rec["ongoing"] = rec["ongoing"] or ongoing
    return sorted(links.values(), key=lambda r: (r["person"], r["start"] or "", r["organization"], r["iri"]))
