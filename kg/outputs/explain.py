"""Why identity merged or kept apart: ``kg explain`` and ``kg conflicts --people`` read the built output.

``explain`` looks a name or title up in the store and returns the identity decisions
(from ``identity.json``) about it; ``possibly_same`` lists the namesakes kept apart.
The facts on which sources disagree are :mod:`kg.outputs.conflicts`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
from rapidfuzz import fuzz

from kg.errors import UserError
from kg.identity.keys import title_key
from kg.query.lookup import resolve_people
from kg.vocab import sparql_prefixes

PREFIX = sparql_prefixes("kg")


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
