"""Why identity merged or kept apart: ``kg explain`` and ``kg conflicts`` read the built output.

``explain`` looks a name or title up in the store and returns the identity decisions
(from ``identity.json``) about it; ``conflicts`` finds single-valued facts on which source
documents disagree, with the value the merged graph took.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
from rapidfuzz import fuzz

from kg.errors import UserError
from kg.identity.keys import title_key
from kg.query.lookup import resolve_people
from kg.vocab import NS, SINGLE_VALUED, sparql_prefixes

PREFIX = sparql_prefixes("kg")
# The single-valued kg: properties; their schema: mirrors would report each disagreement twice.
_COMPARED = tuple(p for p in SINGLE_VALUED if p.startswith(NS))


def load_decisions(out_dir: str | Path) -> list[dict]:
    path = Path(out_dir) / "identity.json"
    if not path.is_file():
        raise UserError(f"no {path}; run `kg build` first")
    return json.loads(path.read_text(encoding="utf-8"))


def _entities_named(store, text: str) -> list[tuple[str, str]]:
    """(IRI, label) of the people, works, venues and organizations that *text* names."""
    found = [(c.iri, c.name) for c in resolve_people(store, text)] if any(ch.isalpha() for ch in text) else []
    key = title_key(text)
    rows = store.query(PREFIX + """
        SELECT ?s ?label WHERE {
          { ?s a kg:Work ; kg:title ?label } UNION { ?s a kg:Work ; kg:alternativeTitle ?label }
          UNION { ?s a kg:Venue ; kg:name ?label } UNION { ?s a kg:Venue ; kg:acronym ?label }
          UNION { ?s a kg:Organization ; kg:name ?label } UNION { ?s a kg:Organization ; kg:alternateName ?label }
        }""")
    for r in rows:
        label = r["label"].value
        k = title_key(label)
        if key and (k == key or (len(key) >= 4 and k.startswith(key)) or fuzz.ratio(k, key) >= 92):
            found.append((r["s"].value, label))
    return sorted(dict(found).items())


def explain(store, out_dir: str | Path, text: str) -> list[dict]:
    """The identity decisions about whatever *text* names (a person, a work title, a venue, an organization).

    Each decision says whether mentions were merged or kept apart, by which rule, on what
    evidence, from which sources.

    Raises
    ------
    UserError
        If *text* names nothing in the graph.
    """
    entities = _entities_named(store, text)
    if not entities:
        raise UserError(f"nothing in the graph is named {text!r}; try part of a name or a title")
    decisions = load_decisions(out_dir)
    out = []
    for iri, label in entities:
        about = [d for d in decisions if d["subject"] == iri or iri in d.get("related", [])]
        out.append({"iri": iri, "label": label, "decisions": about})
    if not any(e["decisions"] for e in out):
        for e in out:
            e["decisions"] = [{"kind": "", "subject": e["iri"], "related": [], "merged": True,
                               "rule": "only one form seen", "evidence": "every source printed it the same way, "
                               "and no similar name or title is near it", "sources": []}]
    return out


def explain_text(entries: list[dict]) -> str:
    lines = []
    for e in entries:
        lines.append(f"{e['label']} <{e['iri']}>")
        for d in e["decisions"]:
            verdict = "merged" if d["merged"] else "kept apart"
            src = f" [{', '.join(d['sources'])}]" if d["sources"] else ""
            lines.append(f"  {verdict}: {d['rule']}\n      {d['evidence']}{src}")
    return "\n".join(lines)


def conflicts(store) -> pd.DataFrame:
    """Single-valued facts on which sources disagree: one row per (fact, source), with the merged choice.

    Columns: ``subject``, ``label``, ``property``, ``value``, ``source``, ``lines``,
    ``document_date``, ``chosen`` (True for the value the merged graph kept: the newest source's).
    """
    props = " ".join(f"<{p}>" for p in _COMPARED)
    # Two sources disagree on (s, p) when two graphs give it and two values are given: if every value of
    # one graph equalled every value of another, all graphs would give one value. One pass over the
    # facts, instead of pairing every graph's value with every other graph's.
    query = PREFIX + f"""
        SELECT ?s ?p ?o ?file ?first ?last ?date ?label WHERE {{
          VALUES ?p {{ {props} }}
          GRAPH ?g {{ ?s ?p ?o . ?g kg:fileName ?file . OPTIONAL {{ ?g kg:documentDate ?date }}
                     OPTIONAL {{ ?s kg:firstLine ?first ; kg:lastLine ?last }} }}
          {{ SELECT ?s ?p WHERE {{ VALUES ?p {{ {props} }} GRAPH ?g1 {{ ?s ?p ?o1 }} }} GROUP BY ?s ?p
             HAVING (COUNT(DISTINCT ?g1) > 1 && COUNT(DISTINCT ?o1) > 1) }}
          OPTIONAL {{ ?s kg:name|kg:title|kg:role|kg:degree ?l0 }}
          OPTIONAL {{ ?s kg:holder/kg:name ?holder }}
          OPTIONAL {{ ?s kg:author/kg:name ?author . ?work kg:hasAuthorship ?s ; kg:title ?wt }}
          BIND(IF(BOUND(?author) && BOUND(?wt), CONCAT(?author, " on ", ?wt),  # not CONCAT of unbound:
               IF(BOUND(?holder) && BOUND(?l0), CONCAT(?holder, ": ", ?l0),  # Virtuoso makes it ""
                  COALESCE(?l0, STR(?s)))) AS ?label)
        }} ORDER BY ?s ?p ?file ?o ?first ?last ?date ?label"""  # total: one row per key from any engine
    rows, seen = [], set()
    for r in store.query(query):
        key = (r["s"].value, r["p"].value, r["file"].value)
        if key in seen:
            continue
        seen.add(key)
        rows.append({"subject": r["s"].value, "label": r["label"].value, "property": r["p"].value[len(NS):],
                     "value": r["o"].value, "source": r["file"].value,
                     "lines": f"{r['first'].value}-{r['last'].value}" if r["first"] is not None else "",
                     "document_date": r["date"].value if r["date"] is not None else ""})
    frame = pd.DataFrame(rows, columns=["subject", "label", "property", "value", "source", "lines", "document_date"])
    merged = {(r["s"].value, r["p"].value[len(NS):]): r["o"].value for r in store.query(PREFIX + f"""
        SELECT ?s ?p ?o WHERE {{ VALUES ?p {{ {props} }} ?s ?p ?o }}""")}
    frame["chosen"] = [merged.get((s, p)) == v
                       for s, p, v in zip(frame["subject"], frame["property"], frame["value"], strict=True)]
    return frame


def possibly_same(out_dir: str | Path) -> pd.DataFrame:
    """People kept apart although they share a printed name: one row per pair, with the curation line
    that joins them (``kg explain NAME`` shows the evidence on each side).

    Columns: ``person``, ``other``, ``rule``, ``evidence``, ``sources``.
    """
    rows = [{"person": d["subject"], "other": (d.get("related") or [""])[0], "rule": d["rule"],
             "evidence": d["evidence"], "sources": ", ".join(d["sources"])}
            for d in load_decisions(out_dir) if d["kind"] == "person" and not d["merged"]
            and d["rule"].startswith(("possibly the same", "one name, kept apart"))]
    return pd.DataFrame(rows, columns=["person", "other", "rule", "evidence", "sources"])
