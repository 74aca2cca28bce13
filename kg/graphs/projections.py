"""Project the built knowledge graph into NetworkX graphs.

Four projections, each read from the store's default graph (the merged view, see
``docs/data-model.md``):

- :func:`coauthor_graph`: people linked by the works they wrote together (and
  :func:`coauthor_edges`, from :mod:`kg.graphs.pairs`: the same pairs as a table);
- :func:`person_organization_graph`: people linked to the organizations where they
  studied or held a position (bipartite);
- :func:`organization_graph`: organizations linked by the people they have in common;
- :func:`supervision_graph`: supervisors pointing to their students (directed).

Node keys are IRIs (``str``), so a node can be looked up in the store again. Every
projection is deterministic: nodes and edges are inserted in sorted order, and every
list attribute is sorted, so the same store gives the same graph in the same order.

Examples
--------
>>> import pyoxigraph
>>> store = pyoxigraph.Store()
>>> store.load(input=b'''
... @prefix kg: <https://kg.example/ns#> . @prefix p: <https://kg.example/id/person/> .
... @prefix w: <https://kg.example/id/work/> . @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
... p:a a kg:Person ; kg:name "Ann A" .
... p:b a kg:Person ; kg:name "Bo B" .
... p:c a kg:Person ; kg:name "Cy C" .
... w:w1 a kg:Work ; kg:title "One" ; kg:year "2020"^^xsd:gYear ;
...     kg:hasAuthor p:a, p:b, p:c .
... w:w2 a kg:Work ; kg:title "Two" ; kg:year "2022"^^xsd:gYear ; kg:hasAuthor p:a, p:b .
... ''', format=pyoxigraph.RdfFormat.TURTLE)
>>> g = coauthor_graph(store)
>>> a, b = "https://kg.example/id/person/a", "https://kg.example/id/person/b"
>>> g.edges[a, b]["joint_works"], g.edges[a, b]["weight"]
(2, 1.5)
>>> [w["title"] for w in g.edges[a, b]["works"]]
['One', 'Two']
>>> g.nodes[a]["works"], g.nodes[a]["first_year"], g.nodes[a]["last_year"]
(2, 2020, 2022)
"""

from __future__ import annotations

from collections import defaultdict
from itertools import combinations

import networkx as nx

from kg.graphs.affiliations import bipartite_graph, links_of_rows, organization_nodes, person_attrs
from kg.vocab import sparql_prefixes

_PREFIX = sparql_prefixes("kg")

#: Classes of position nodes (kg:Position and its subclasses), to tell them from educations.
EDUCATION = "education"
POSITION = "position"


def _check_store(store) -> None:
    if not hasattr(store, "query"):
        raise TypeError(f"expected a pyoxigraph Store (from kg.store.open_store), got {type(store).__name__}; "
                        "open the built graph with kg.store.open_store('out')")


def _rows(store, query: str):
    """Rows of a SELECT query as tuples of plain Python strings (or None).

    Oxigraph writes the whole answer as CSV and Python's C reader splits it: far faster than
    reading each solution's terms one by one (kg writes no empty strings, so empty means unbound).
    """
    _check_store(store)
    import csv
    import io

    import pyoxigraph

    data = store.query(_PREFIX + query).serialize(format=pyoxigraph.QueryResultsFormat.CSV)
    reader = csv.reader(io.StringIO(data.decode("utf-8"), newline=""))
    next(reader, None)  # the header
    for row in reader:
        yield tuple(v if v != "" else None for v in row)


def year_of(value) -> int | None:
    """A year from an int, ``"2023"``, ``"2023-05"``, a date or a literal; None if none.

    >>> year_of("2023-05"), year_of(2021), year_of("n.d.")
    (2023, 2021, None)
    """
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if hasattr(value, "year") and isinstance(value.year, int):
        return value.year
    text = str(value).strip()
    digits = text[:4]
    if len(digits) == 4 and digits.isdigit():
        return int(digits)
    return None


def _names(store) -> dict[str, str]:
    names: dict[str, str] = {}
    for p, name in _rows(store, "SELECT ?p ?name WHERE { ?p a kg:Person . OPTIONAL { ?p kg:name ?name } }"):
        if p not in names or (name is not None and (names[p] == p or name < names[p])):
            names[p] = name if name is not None else p
    return names


def _people(store) -> tuple[dict[str, str], set[str]]:
    """Every person's name (:func:`_names`) and the profiled people: from the build's people table
    where the store has one beside it (a tenth of the time), else from the store."""
    from kg.graphs.fromtables import people_from_tables, tables_beside

    tables = tables_beside(store)
    return people_from_tables(tables) if tables is not None else (_names(store), _profiled(store))


def _profiled(store) -> set[str]:
    query = """SELECT DISTINCT ?p WHERE {
        { ?s kg:about ?p } UNION { GRAPH ?g { ?s kg:about ?p } } }"""
    return {p for (p,) in _rows(store, query)}


def works_by_iri(store) -> dict[str, dict]:
    """Every work in the store with its title, year, venue and ordered author list.

    Returns
    -------
    dict
        ``{work_iri: {"iri", "title", "year", "venue", "status", "authors"}}`` where ``year``
        is an ``int`` or ``None``, ``venue`` the venue's acronym (else its name, else
        ``None``) and ``authors`` the author IRIs in printed order (ordinal, then IRI).
    """
    works: dict[str, dict] = {}
    query = """SELECT ?w ?title ?year ?status ?vacr ?vname WHERE {
        ?w a kg:Work .
        OPTIONAL { ?w kg:title ?title }
        OPTIONAL { ?w kg:year ?year }
        OPTIONAL { ?w kg:status ?status }
        OPTIONAL { ?w kg:publishedIn|kg:submittedTo ?v .
                   OPTIONAL { ?v kg:acronym ?vacr } OPTIONAL { ?v kg:name ?vname } }
    }"""
    for w, title, year, status, vacr, vname in _rows(store, query):
        venue = vacr or vname
        rec = works.get(w)
        if rec is None:
            works[w] = {"iri": w, "title": title or w, "year": year_of(year), "venue": venue,
                        "status": status, "authors": []}
            continue
        # Several values where one is expected: keep the smallest, so the answer is stable.
        if title and (rec["title"] == w or title < rec["title"]):
            rec["title"] = title
        if year_of(year) is not None and (rec["year"] is None or year_of(year) < rec["year"]):
            rec["year"] = year_of(year)
        if venue and (rec["venue"] is None or venue < rec["venue"]):
            rec["venue"] = venue
    ordinals: dict[str, dict[str, int]] = defaultdict(dict)
    query = """SELECT ?w ?p ?ord WHERE {
        { ?w kg:hasAuthor ?p } UNION { ?w kg:hasAuthorship ?a . ?a kg:author ?p . OPTIONAL { ?a kg:ordinal ?ord } }
    }"""
    for w, p, ord_ in _rows(store, query):
        if w not in works:
            continue
        known = ordinals[w].get(p)
        value = int(ord_) if ord_ is not None and ord_.isdigit() else 10**9
        if known is None or value < known:
            ordinals[w][p] = value
    for w, people in ordinals.items():
        works[w]["authors"] = sorted(people, key=lambda p: (people[p], p))
    return dict(sorted(works.items()))


def coauthor_graph(store) -> nx.Graph:
    """The co-author graph: a node per author, an edge per pair who wrote a work together.

    Parameters
    ----------
    store : pyoxigraph.Store
        The built graph (``kg.store.open_store(out_dir)``).

    Returns
    -------
    networkx.Graph
        Nodes are person IRIs with ``name``, ``profiled`` (a source document is ``kg:about``
        them), ``works`` (number of works they authored), ``first_year``, ``last_year``
        (``int`` or ``None``) and ``kind="person"``. Every author is a node, even without
        co-authors. Edges carry ``joint_works`` (int), ``works`` (list of
        ``{"iri", "title", "year", "venue"}`` sorted by year then title) and ``weight``,
        Newman's fractional weight: the sum over joint works of ``1 / (authors - 1)``.
        ``graph.graph["works"]`` holds every work (see :func:`works_by_iri`).

    Examples
    --------
    >>> import pyoxigraph
    >>> coauthor_graph(pyoxigraph.Store()).number_of_nodes()
    0
    """
    _check_store(store)
    from kg.graphs.fromtables import coauthor_graph_from_tables, tables_beside

    tables = tables_beside(store)
    if tables is not None:  # the build's Parquet tables: the same graph from a DuckDB self-join
        return coauthor_graph_from_tables(tables)
    names = _names(store)
    profiled = _profiled(store)
    works = works_by_iri(store)
    graph = nx.Graph(kind="coauthor", works=works)
    authors = sorted({p for w in works.values() for p in w["authors"]})
    for p in authors:
        graph.add_node(p, **person_attrs(names.get(p, p), p in profiled))
    pairs: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for w in works.values():
        people = sorted(w["authors"])
        for p in people:
            node = graph.nodes[p]
            node["works"] += 1
            if w["year"] is not None:
                if node["first_year"] is None or w["year"] < node["first_year"]:
                    node["first_year"] = w["year"]
                if node["last_year"] is None or w["year"] > node["last_year"]:
                    node["last_year"] = w["year"]
        if len(people) < 2:
            continue
        share = 1.0 / (len(people) - 1)
        summary = {"iri": w["iri"], "title": w["title"], "year": w["year"], "venue": w["venue"],
                   "_share": share}
        for a, b in combinations(people, 2):
            pairs[a, b].append(summary)
    for (a, b) in sorted(pairs):
        listed = sorted(pairs[a, b], key=_work_order)
        graph.add_edge(
            a, b,
            joint_works=len(listed),
            works=[{k: w[k] for k in ("iri", "title", "year", "venue")} for w in listed],
            weight=sum(w["_share"] for w in listed),
        )
    return graph


def _work_order(work: dict):
    year = work["year"]
    return (year is None, year if year is not None else 0, work["title"], work["iri"])


def _organizations(store) -> dict[str, dict]:
    """Every organization's node attributes: from the build's organizations table where the store has
    one beside it, else from the store by that table's query."""
    from kg.graphs.fromtables import organization_rows_from_tables, tables_beside
    from kg.tables import TABLES

    tables = tables_beside(store)
    if tables is not None:
        return organization_nodes(organization_rows_from_tables(tables))
    return organization_nodes((o, name, parent) for o, name, _, _, parent in _rows(store, TABLES["organizations"][0]))


def affiliation_links(store) -> list[dict]:
    """Every education and position: who, where, what role, from when to when.

    Returns
    -------
    list of dict
        ``{"iri", "person", "organization", "relation", "role", "start", "end", "ongoing"}``;
        ``relation`` is ``"education"`` or ``"position"``, ``role`` the role or degree as
        printed, ``start``/``end`` ISO strings or ``None``. Sorted by person, start, IRI.
    """
    from kg.graphs.fromtables import affiliation_rows_from_tables, tables_beside
    from kg.tables import TABLES

    tables = tables_beside(store)
    rows = affiliation_rows_from_tables(tables) if tables is not None else None
    if rows is None:
        rows = [(*row[:-1], row[-1] == "true") for row in _rows(store, TABLES["affiliations"][0])]
    return links_of_rows(rows)


def person_organization_graph(store, coauthors: nx.Graph | None = None) -> nx.Graph:
    """People and the organizations where they studied or held a position (bipartite).

    *coauthors* is the store's :func:`coauthor_graph` where the caller has it already (its person
    nodes' attributes are copied); otherwise it is projected here.

    Returns
    -------
    networkx.Graph
        Person nodes as in :func:`coauthor_graph` (every person in the store) plus
        organization nodes (``name``, ``kind="organization"``, ``parent``: the IRI of the
        organization a unit is ``kg:partOf``, or ``None``). Units stay nodes of their own.
        An edge links a person to an organization with ``relation`` (``"education"`` or
        ``"position"``), ``role`` (role or degree as printed), ``start``, ``end`` (ISO
        strings or ``None``) and ``ongoing`` (bool). Where a person has several links to one
        organization (a master's then a PhD), the edge summarises them: ``relation`` and
        ``role`` of the earliest, the earliest ``start``, the latest ``end`` (``None`` if
        any is ongoing), and ``links`` lists every one of them (dicts as
        :func:`affiliation_links` returns).

    Examples
    --------
    >>> import pyoxigraph
    >>> person_organization_graph(pyoxigraph.Store()).number_of_edges()
    0
    """
    _check_store(store)
    names, profiled = _people(store)
    if coauthors is None:
        coauthors = coauthor_graph(store)
    return bipartite_graph(names, profiled, coauthors, _organizations(store), affiliation_links(store))


def organization_graph(store) -> nx.Graph:
    """Organizations linked by the people they have in common.

    Returns
    -------
    networkx.Graph
        Organization nodes as in :func:`person_organization_graph`; an edge between two
        organizations that share at least one person, with ``people`` (sorted person IRIs)
        and ``weight`` (how many).

    Examples
    --------
    >>> import pyoxigraph
    >>> organization_graph(pyoxigraph.Store()).number_of_nodes()
    0
    """
    po = person_organization_graph(store)
    graph = nx.Graph(kind="organization")
    for node, attrs in po.nodes(data=True):
        if attrs["kind"] == "organization":
            graph.add_node(node, **attrs)
    shared: dict[tuple[str, str], set[str]] = defaultdict(set)
    for node, attrs in po.nodes(data=True):
        if attrs["kind"] != "person":
            continue
        orgs = sorted(po.neighbors(node))
        for a, b in combinations(orgs, 2):
            shared[a, b].add(node)
    for (a, b), people in sorted(shared.items()):
        graph.add_edge(a, b, people=sorted(people), weight=len(people))
    return graph


def supervision_graph(store) -> nx.DiGraph:
    """Supervisors pointing to their students.

    An arc ``supervisor -> student`` comes from ``kg:supervisor`` on a ``kg:Education``
    (the student is its ``kg:holder``) or on a ``kg:Thesis`` (the student is its author).

    Returns
    -------
    networkx.DiGraph
        Person nodes (``name``, ``profiled``, ``kind="person"``); arcs carry ``via`` (sorted
        IRIs of the educations and theses that name the supervision) and ``degree`` (the
        degree studied for, where an education names it, else ``None``).

    Examples
    --------
    >>> import pyoxigraph
    >>> supervision_graph(pyoxigraph.Store()).number_of_edges()
    0
    """
    _check_store(store)
    names = _names(store)
    profiled = _profiled(store)
    query = """SELECT ?x ?sup ?student ?degree WHERE {
        ?x kg:supervisor ?sup .
        { ?x a kg:Education ; kg:holder ?student . OPTIONAL { ?x kg:degree ?degree } }
        UNION
        { ?x a kg:Thesis . { ?x kg:hasAuthor ?student } UNION { ?x kg:hasAuthorship/kg:author ?student } }
    }"""
    arcs: dict[tuple[str, str], dict] = {}
    for x, sup, student, degree in _rows(store, query):
        if sup == student:
            continue
        rec = arcs.setdefault((sup, student), {"via": set(), "degree": None})
        rec["via"].add(x)
        if degree and (rec["degree"] is None or degree < rec["degree"]):
            rec["degree"] = degree
    graph = nx.DiGraph(kind="supervision")
    for p in sorted({p for arc in arcs for p in arc}):
        graph.add_node(p, name=names.get(p, p), profiled=p in profiled, kind="person")
    for (sup, student), rec in sorted(arcs.items()):
        graph.add_edge(sup, student, via=sorted(rec["via"]), degree=rec["degree"])
    return graph
