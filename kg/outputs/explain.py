"""Why identity merged or kept apart: ``kg explain`` and ``kg conflicts --people`` read the built output.

``explain`` looks a name or title up in the store and returns the identity decisions
(from ``identity.json``) about it; ``possibly_same`` lists the namesakes kept apart.
The facts on which sources disagree are :mod:`kg.outputs.conflicts`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from kg.errors import UserError
from kg.identity.decisions import decisions_holding
from kg.query.labelindex import LABEL_INDEX, label_rows, labels_matching, read_label_index
from kg.query.lookup import index_rows, resolve_people


def load_decisions(out_dir: str | Path, needles: list[str] | None = None) -> list[dict]:
    """The decisions in *out_dir*'s ``identity.json``: with *needles*, only (at least) those whose JSON
    text holds one of them, found without reading the rest (see
    :func:`~kg.identity.decisions.decisions_holding`); the caller checks each one's fields."""
    path = Path(out_dir) / "identity.json"
    if not path.is_file():
        raise UserError(f"no {path}; run `kg build` first")
    try:
        found = None if needles is None else decisions_holding(path, needles)
        return json.loads(path.read_text(encoding="utf-8")) if found is None else found
    except ValueError as e:
        raise UserError(f"{path} is not the JSON kg build writes ({e}); run `kg build` again") from None


def _entities_named(store, text: str) -> list[tuple[str, str]]:
    """(IRI, label) of the people, works, venues and organizations that *text* names."""
    found = [(c.iri, c.name) for c in resolve_people(store, text)] if any(ch.isalpha() for ch in text) else []
    return sorted(dict(found + labels_matching(_label_rows(store), text)).items())


def _label_rows(store) -> list[list]:
    """The label index the build wrote beside *store*, or failing that (a SPARQL server, an older
    build), the same rows asked of the store."""
    rows = index_rows(store, LABEL_INDEX, read_label_index)
    return label_rows(store) if rows is None else rows


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
    decisions = load_decisions(out_dir, [json.dumps(iri, ensure_ascii=False) for iri, _ in entities])
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


#: How the rules of namesakes kept apart begin (see :mod:`kg.identity.namesakes`).
_NAMESAKE_RULES = ("possibly the same", "one name, kept apart")


def possibly_same(out_dir: str | Path) -> pd.DataFrame:
    """People kept apart although they share a printed name: one row per pair, with the curation line
    that joins them (``kg explain NAME`` shows the evidence on each side).

    Columns: ``person``, ``other``, ``rule``, ``evidence``, ``sources``.
    """
    rows = [{"person": d["subject"], "other": (d.get("related") or [""])[0], "rule": d["rule"],
             "evidence": d["evidence"], "sources": ", ".join(d["sources"])}
            for d in load_decisions(out_dir, [f'"rule": "{r}' for r in _NAMESAKE_RULES])
            if d["kind"] == "person" and not d["merged"] and d["rule"].startswith(_NAMESAKE_RULES)]
    return pd.DataFrame(rows, columns=["person", "other", "rule", "evidence", "sources"])
