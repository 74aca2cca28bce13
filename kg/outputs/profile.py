"""A person's profile read from the store: every fact with the document and lines it came from."""

from __future__ import annotations

from collections import defaultdict

from kg.vocab import sparql_prefixes

PREFIX = sparql_prefixes("kg", "rdf")


def iri(value: str) -> str:
    """*value* as a SPARQL IRI term; pyoxigraph validates it, so nothing can be pasted in."""
    import pyoxigraph as ox

    return str(ox.NamedNode(value))


def _query(store, query: str, person: str):
    # pyoxigraph's substitutions only bind projected variables, so bind ?person with VALUES.
    return store.query(PREFIX + query.replace("WHERE {", f"WHERE {{ VALUES ?person {{ {iri(person)} }}", 1))


def _value(term):
    return None if term is None else term.value


def _sources(store, nodes: list[str]) -> dict[str, list[str]]:
    """``{node: ["file:first-last", ...]}`` from the named graphs that state each node.

    Each node's graphs are first taken from the sources the merged view names (``kg:fromSource``):
    a server given the build's graph list tries every graph, one at a time, for a ``GRAPH ?g``
    whose ``?g`` is unbound (13 s for one profile at 1,000 CVs). A node no source names (a graph
    loaded by someone else) is looked for in every graph."""
    if not nodes:
        return {}
    found = defaultdict(set)

    def ask(nodes: list[str], bind_graph: str) -> None:
        values = " ".join(f"<{n}>" for n in nodes)
        query = PREFIX + f"""
            SELECT ?node ?file ?first ?last WHERE {{
              VALUES ?node {{ {values} }} {bind_graph}
              GRAPH ?g {{ ?node kg:firstLine ?first ; kg:lastLine ?last . ?g kg:fileName ?file }}
            }}"""
        for s in store.query(query):
            first, last = s["first"].value, s["last"].value
            found[s["node"].value].add(f"{s['file'].value}:{first}" + ("" if first == last else f"-{last}"))

    wanted = sorted(set(nodes))
    ask(wanted, "?node kg:fromSource ?g .")
    if unnamed := [n for n in wanted if n not in found]:
        ask(unnamed, "")
    return {k: sorted(v) for k, v in found.items()}


def _select(store, person: str, where: str, fields: list[str], order: str) -> list[dict]:
    # DISTINCT and ?node last: the same rows in the same order from any SPARQL engine (a path p|q may repeat one)
    query = f"SELECT DISTINCT ?node {' '.join('?' + f for f in fields)} WHERE {{ {where} }} ORDER BY {order} ?node"
    rows = []
    for s in _query(store, query, person):
        rows.append({"node": s["node"].value, **{f: _value(s[f]) for f in fields}})
    return rows


def _opt(*pairs: str) -> str:
    return " ".join(f"OPTIONAL {{ ?node {p} ?{v} }}" for p, v in (pair.split() for pair in pairs))


def person_profile(store, person: str) -> dict:
    """Everything the graph holds about *person* (an IRI), as plain data for text or JSON.

    Each fact carries ``sources``: the documents and lines it was read from.
    """
    head = list(_query(store, "SELECT ?name WHERE { ?person kg:name ?name }", person))
    profile: dict = {"iri": person, "name": head[0]["name"].value if head else person}
    for key, prop in (("emails", "kg:email"), ("homepages", "kg:homepage"), ("orcid", "kg:orcid"),
                      ("alternate_names", "kg:alternateName")):
        vals = sorted(s["v"].value for s in _query(store, f"SELECT ?v WHERE {{ ?person {prop} ?v }}", person))
        profile[key] = vals
    profile["affiliations"] = sorted(s["n"].value for s in _query(
        store, "SELECT ?n WHERE { ?person kg:affiliation/kg:name ?n }", person))

    sections = {
        "positions": _select(store, person, "?person kg:hasPosition ?node . ?node rdf:type ?kindClass . "
                             "FILTER(?kindClass IN (kg:Job, kg:Internship, kg:Visit, kg:Fellowship, kg:Teaching)) "
                             "BIND(LCASE(STRAFTER(STR(?kindClass), '#')) AS ?kind) "
                             + _opt("kg:role role", "kg:startDate start", "kg:endDate end", "kg:ongoing ongoing",
                                    "kg:location location")
                             + " OPTIONAL { ?node kg:organization/kg:name ?organization }",
                             ["kind", "role", "organization", "start", "end", "ongoing", "location"],
                             "DESC(?start) ?role"),
        "education": _select(store, person, "?person kg:hasEducation ?node . "
                             + _opt("kg:degree degree", "kg:degreeLevel level", "kg:field field",
                                    "kg:startDate start", "kg:endDate end", "kg:grade grade")
                             + " OPTIONAL { ?node kg:organization/kg:name ?organization }"
                             " OPTIONAL { ?node kg:thesis/kg:title ?thesis }",
                             ["degree", "level", "field", "organization", "start", "end", "grade", "thesis"],
                             "DESC(?end) ?degree"),
        "works": _select(store, person, "?node kg:hasAuthor ?person ; kg:title ?title . "
                         + _opt("kg:year year", "kg:status status")
                         + " OPTIONAL { ?node kg:publishedIn|kg:submittedTo ?v . OPTIONAL { ?v kg:acronym ?acronym } "
                           "?v kg:name ?venueName } BIND(COALESCE(?acronym, ?venueName) AS ?venue)",
                         ["title", "year", "status", "venue"], "DESC(?year) ?title"),
        "awards": _select(store, person, "?person kg:receivedAward ?node . ?node kg:name ?title . "
                          + _opt("kg:year year", "kg:prize prize"), ["title", "year", "prize"], "DESC(?year) ?title"),
        "talks": _select(store, person, "?person kg:gaveTalk ?node . ?node kg:title ?title . "
                         + _opt("kg:place place", "kg:date date"), ["title", "place", "date"], "DESC(?date) ?title"),
        "service": _select(store, person, "?person kg:hasServiceRole ?node . ?node kg:role ?role . "
                           + _opt("kg:year year", "kg:description event"), ["role", "event", "year"],
                           "DESC(?year) ?event"),
        "projects": _select(store, person, "?person kg:participatedIn ?node . ?node kg:name ?name . "
                            + _opt("kg:funding funding", "kg:startDate start", "kg:endDate end", "kg:ongoing ongoing"),
                            ["name", "funding", "start", "end", "ongoing"], "?name"),
        "skills": _select(store, person, "?person kg:hasSkill ?node . ?node kg:name ?name . "
                          + _opt("kg:level level", "kg:levelOutOf out_of"), ["name", "level", "out_of"], "?name"),
        "interests": _select(store, person, "?person kg:hasResearchInterest ?node . ?node kg:name ?name .",
                             ["name"], "?name"),
    }
    coauthors = defaultdict(list)
    for s in _query(store, """
            SELECT ?w ?name ?ord WHERE { ?w kg:hasAuthor ?person ; kg:hasAuthorship ?a .
              ?a kg:author ?x ; kg:ordinal ?ord . ?x kg:name ?name } ORDER BY ?w ?ord ?name""", person):
        coauthors[s["w"].value].append(s["name"].value)
    # a work's sources are its authorships' too: kg writes an authorship's lines on its work
    sources = _sources(store, [r["node"] for rows in sections.values() for r in rows])
    for name, rows in sections.items():
        for r in rows:
            r["sources"] = sources.get(r["node"], [])
            if name == "works":
                r["authors"] = list(dict.fromkeys(coauthors.get(r["node"], [])))
            r["iri"] = r.pop("node")
        profile[name] = rows
    return profile


def _period(r: dict) -> str:
    start, end = r.get("start") or "?", r.get("end") or ("present" if r.get("ongoing") == "true" else "?")
    return f"{start} – {end}"


def profile_text(p: dict) -> str:
    """A readable rendering of :func:`person_profile`'s result."""
    out = [p["name"], "=" * len(p["name"])]
    for label, key in (("email", "emails"), ("homepage", "homepages"), ("ORCID", "orcid"),
                       ("also printed as", "alternate_names"), ("affiliation", "affiliations")):
        if p.get(key):
            out.append(f"{label}: {', '.join(p[key])}")

    def section(title, rows, fmt):
        if rows:
            out.append("")
            out.append(f"{title} ({len(rows)})")
            for r in rows:
                out.append(f"  {fmt(r)}  [{'; '.join(r['sources'])}]")

    section("Positions", p["positions"], lambda r: f"{_period(r)}  {r['role'] or '(role not given)'}, "
                                                   f"{r['organization'] or '?'} ({r['kind']})")
    section("Education", p["education"], lambda r: f"{_period(r)}  {r['degree'] or '?'}, {r['organization'] or '?'}"
                                                   + (f"; thesis: {r['thesis']}" if r["thesis"] else ""))
    section("Works", p["works"], lambda r: f"{r['year'] or '----'}  {r['title']}"
                                           + (f" [{r['venue']}]" if r["venue"] else "")
                                           + ("" if r["status"] == "published" else f" ({r['status']})")
                                           + f"\n        with: {', '.join(a for a in r['authors'] if a != p['name'])}")
    section("Awards", p["awards"],
            lambda r: f"{r['year'] or '----'}  {r['title']}" + (f", {r['prize']}" if r["prize"] else ""))
    section("Talks", p["talks"],
            lambda r: f"{r['date'] or '----'}  {r['title']}" + (f" @ {r['place']}" if r["place"] else ""))
    section("Service", p["service"], lambda r: f"{r['year'] or '----'}  {r['role']}, {r['event'] or ''}")
    section("Projects", p["projects"],
            lambda r: f"{_period(r)}  {r['name']}" + (f" ({r['funding']})" if r["funding"] else ""))
    section("Skills", p["skills"], lambda r: r["name"] + (f" {r['level']}/{r['out_of']}" if r["level"] else ""))
    section("Research interests", p["interests"], lambda r: r["name"])
    return "\n".join(out)
