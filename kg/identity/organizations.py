"""Organizations: one per name (aliases and initials joined), units under their parent.

A short form joins the one long name whose initials it is ("MIT" and "Massachusetts
Institute of Technology"); the curation file's aliases join translations and old names;
a unit whose name extends another unit's name under the same parent is that unit.
"""

from __future__ import annotations

import re
from collections import defaultdict

from unidecode import unidecode

from kg.identity.decisions import Decision, PendingDecision
from kg.identity.keys import org_chain, org_chain_key, org_initials, org_key, slug
from kg.identity.resolution import Resolution
from kg.records import Document, Education, OrgRef, Position, Work
from kg.vocab import DATA_IRIS


def _all_org_refs(documents: list[Document]) -> list[tuple[OrgRef, str]]:
    refs = []
    for doc in documents:
        if doc.subject:
            refs += [(a, doc.path) for a in doc.subject.affiliations]
        for f in doc.facts:
            where = (f.organization if isinstance(f, Position) else
                     f.institution if isinstance(f, (Education, Work)) else None)
            if where is not None:
                refs.append((where, doc.path))
    return refs


class _Roots:
    """Top-level organizations by name key, with the aliases the curation file and initials give."""

    def __init__(self, refs: list[tuple[OrgRef, str]], curation_aliases: dict[str, str]):
        self.aliases = {org_key(v): org_key(c) for v, c in curation_aliases.items()}
        self.roots: dict[str, dict] = {}
        self.pending: list[PendingDecision] = []
        for ref, path in refs:
            top = org_chain(ref)[-1]
            k = self._alias_of(top, ref, curation_aliases)
            r = self.roots.setdefault(k, {"names": defaultdict(int), "country": None, "documents": set()})
            r["names"][top.name] += 1
            r["country"] = r["country"] or top.country or ref.country
            r["documents"].add(path)

    def _alias_of(self, top: OrgRef, ref: OrgRef, curation_aliases: dict[str, str]) -> str:
        k = org_key(top.name)
        city = (top.location or ref.location or "").split(",")[0]
        if k not in self.aliases and city and org_key(f"{top.name} {city}") in self.aliases:
            k = org_key(f"{top.name} {city}")  # the reader took a city off the end of the name
            self.aliases.setdefault(org_key(top.name), self.aliases[k])
        if k in self.aliases and self.aliases[k] != k:
            k = self.aliases[k]
            evidence = (f"{top.name} = {curation_aliases[top.name]}" if top.name in curation_aliases else top.name)
            self.pending.append(PendingDecision("organization", (k,), True, "curation: organization alias",
                                                evidence, ("curation",)))
        return k

    def canonical(self) -> dict[str, str]:
        """Each root key -> the key it is filed under: a short form goes to the one long name it abbreviates."""
        alias: dict[str, str] = {}
        for k in sorted(self.roots):
            if re.fullmatch(r"[a-z]{2,6}", k) and " " not in k:
                long_forms = [o for o in self.roots if o != k and " " in o and org_initials(o) == k]
                if len(long_forms) == 1:
                    alias[k] = long_forms[0]
                    self.pending.append(PendingDecision(
                        "organization", (k,), True, "short form is the initials of the long name",
                        f"{k.upper()} = {max(self.roots[long_forms[0]]['names'], key=len)}",
                        tuple(sorted(self.roots[k]["documents"]))))
        return {k: alias.get(k, k) for k in self.roots}

    def mint(self, res: Resolution) -> None:
        canonical_root = self.canonical()
        for k in sorted(set(canonical_root.values())):
            members = [m for m, c in canonical_root.items() if c == k]
            names: dict[str, int] = defaultdict(int)
            for m in members:
                for n, c in self.roots[m]["names"].items():
                    names[n] += c
            # The most printed full name; on a tie the accented spelling ("Zürich" over "Zurich").
            name = max(sorted(names), key=lambda n: (len(n.split()) > 1, names[n], n != unidecode(n), -len(n)))
            iri = DATA_IRIS["org/" + slug(name)]
            acronyms = sorted(n for n in names if re.fullmatch(r"[A-Z]{2,6}", n))
            country = next((self.roots[m]["country"] for m in members if self.roots[m]["country"]), None)
            res.org_info[iri] = {"name": name, "names": sorted(names), "acronym": acronyms[0] if acronyms else None,
                                 "country": country, "parent": None}
            for m in members:
                res.org_of_key[(m,)] = iri
        res.decisions += [d.settle(res.org_of_key.get) for d in self.pending]


def _place_units(refs: list[tuple[OrgRef, str]], aliases: dict[str, str], res: Resolution) -> None:
    """Units under their parent; a unit whose name extends another's under the same parent is the same unit."""
    units: dict[str, dict[str, dict]] = defaultdict(dict)  # parent iri -> unit key -> info
    for ref, path in sorted(refs, key=lambda r: len(org_chain(r[0]))):
        chain = org_chain(ref)
        top_key = aliases.get(org_key(chain[-1].name), org_key(chain[-1].name))
        res.org_of_key.setdefault((org_key(chain[-1].name),), res.org_of_key[(top_key,)])
        parent_iri = res.org_of_key[(top_key,)]
        for unit in reversed(chain[:-1]):
            parent_iri = _place_unit(unit, parent_iri, units[parent_iri], path, res)
            res.org_of_key[org_chain_key(unit)] = parent_iri
        top = res.org_of_key[(org_key(chain[-1].name),)]
        res.org_of_key[org_chain_key(ref)] = parent_iri if len(chain) > 1 else top
    for siblings in units.values():
        for info in siblings.values():
            names = info["names"]
            o = res.org_info[info["iri"]]
            o["names"] = sorted(names)
            o["name"] = max(sorted(names), key=lambda n: (len(n), names[n]))


def _place_unit(unit: OrgRef, parent_iri: str, siblings: dict[str, dict], path: str, res: Resolution) -> str:
    """The IRI of *unit* among the units already seen under *parent_iri*; a new one if none matches."""
    k = org_key(unit.name)
    match = next((s for s in sorted(siblings) if s == k or k.startswith(s + " ") or s.startswith(k + " ")), None)
    if match is None:
        iri = f"{parent_iri}/{slug(unit.name)}"
        siblings[k] = {"iri": iri, "names": defaultdict(int)}
        res.org_info[iri] = {"name": unit.name, "names": [], "acronym": None, "country": None, "parent": parent_iri}
        match = k
    elif match != k:
        res.decisions.append(Decision("organization", siblings[match]["iri"], True,
                                      "a unit's name extends another unit's name under the same parent",
                                      f"{unit.name} ~ {res.org_info[siblings[match]['iri']]['name']}", (path,)))
    siblings[match]["names"][unit.name] += 1
    if k != match:
        siblings[k] = siblings[match]
    return siblings[match]["iri"]


def resolve_organizations(documents: list[Document], res: Resolution) -> None:
    """Fill ``res.org_of_key`` and ``res.org_info``; record each merge."""
    refs = _all_org_refs(documents)
    roots = _Roots(refs, res.curation.organization_aliases)
    roots.mint(res)
    _place_units(refs, roots.aliases, res)
