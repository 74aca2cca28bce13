"""Find a person in the built store from what a user typed: forgiving, never guessing.

Matching ignores case, accents, punctuation and name order, and accepts a unique
prefix ("ana" or "ruiz a"). An unknown or ambiguous name raises
:class:`~kg.errors.UserError` listing the candidates.

>>> name_tokens("Prof. Müller-Li, Anna")
['anna', 'li', 'muller']
"""

from __future__ import annotations

from dataclasses import dataclass

from rapidfuzz import fuzz, process

from kg.errors import UserError
from kg.identity.keys import NAME_TITLES, ascii_words
from kg.vocab import sparql_prefixes


def name_tokens(text: str) -> list[str]:
    """Lower-case ASCII word tokens of a name, titles dropped, sorted (order-insensitive)."""
    return sorted(w for w in ascii_words(text) if w not in NAME_TITLES)


@dataclass(frozen=True)
class Candidate:
    iri: str
    name: str
    names: tuple[str, ...]


def _candidates(store) -> list[Candidate]:
    """Every person with their names, in name order. Three plain scans rather than one query that
    groups alternate names: 0.4 s instead of 1.3 s on 15,000 people (1,000 CVs)."""
    prefix = sparql_prefixes("kg")
    people = {row["p"].value for row in store.query(prefix + "SELECT ?p WHERE { ?p a kg:Person }")}
    names: dict[str, list[str]] = {}
    for row in store.query(prefix + "SELECT ?p ?n WHERE { ?p kg:name ?n }"):
        if row["p"].value in people:
            names.setdefault(row["p"].value, []).append(row["n"].value)
    alternates: dict[str, list[str]] = {}
    for row in store.query(prefix + "SELECT ?p ?n WHERE { ?p kg:alternateName ?n }"):
        if row["p"].value in names:
            alternates.setdefault(row["p"].value, []).append(row["n"].value)
    found = [(name, iri) for iri, own in names.items() for name in own]
    return [Candidate(iri, name, tuple(dict.fromkeys([name, *sorted(alternates.get(iri, ()))])))
            for name, iri in sorted(found)]


def _matches_prefix(query: list[str], tokens: list[str]) -> bool:
    """Every query token is a prefix of a distinct name token."""
    remaining = list(tokens)
    for q in query:
        for i, t in enumerate(remaining):
            if t.startswith(q):
                del remaining[i]
                break
        else:
            return False
    return True


def resolve_people(store, text: str) -> list[Candidate]:
    """All people whose name matches *text*: exact (any order) first, else by unique prefix."""
    query = name_tokens(text)
    if not query:
        raise UserError(f"{text!r} is not a name; give part of a person's name, such as a family name")
    people = _candidates(store)
    exact = [c for c in people if any(name_tokens(n) == query for n in c.names)]
    if exact:
        return exact
    return [c for c in people if any(_matches_prefix(query, name_tokens(n)) for n in c.names)]


def resolve_person(store, text: str) -> Candidate:
    """The one person *text* names.

    Raises
    ------
    UserError
        If nobody matches (with the closest names) or several do (with all of them).
    """
    found = resolve_people(store, text)
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        listed = "; ".join(f"{c.name} <{c.iri}>" for c in found[:10])
        raise UserError(f"{text!r} matches {len(found)} people: {listed}. Give more of the name")
    names = sorted({c.name for c in _candidates(store)})
    close = process.extract(text, names, scorer=fuzz.token_sort_ratio, limit=5, score_cutoff=50)
    hint = f"; closest: {', '.join(n for n, *_ in close)}" if close else ""
    raise UserError(f"no person named {text!r} in the graph{hint}")
