"""Identity: decide which mentions name the same person, work, venue or organization.

Readers give mentions (a subject, an author, a supervisor, an organization as
printed); this module groups them into entities with deterministic IRIs and keeps
a :class:`Decision` for every merge and every near miss kept apart, so that
``kg explain`` can say why.

>>> person_key("Prof. Li Wei") == person_key("Wei Li")
True
>>> person_key("Joan Doe") == person_key("Jane Doe")
False
>>> title_key("Large-Scale GPU: a Survey") == title_key("large scale gpu — A SURVEY")
True
>>> org_initials("Massachusetts Institute of Technology")
'mit'
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field, replace

from rapidfuzz import fuzz
from unidecode import unidecode

from kg.curation import Curation
from kg.records import Document, Education, OrgRef, VenueRef, Work
from kg.vocab import DATA

_TITLES = {"prof", "professor", "dr", "mr", "mrs", "ms", "sir"}
_STOP = {"of", "the", "and", "for", "in", "on", "at", "&", "a", "an", "de", "du"}
_VENUE_NOISE = {"acm", "ieee", "usenix", "proceedings", "proc", "the", "of", "international", "annual", "iop",
                "springer", "sigplan", "sigops"}


# --- keys ---------------------------------------------------------------------------------

def ascii_words(text: str) -> list[str]:
    return [w for w in re.split(r"[^a-z0-9]+", unidecode(text).lower()) if w]


def name_words(name: str) -> list[str]:
    """A name's words in printed order: ASCII, lower case, titles dropped, hyphenated parts joined."""
    text = re.sub(r"(?<=\w)-(?=\w)", "", unidecode(name))
    return [w for w in ascii_words(text) if w not in _TITLES]


def person_key(name: str) -> tuple[str, ...]:
    """Order-, case-, accent- and title-insensitive key; hyphenated given names join up."""
    return tuple(sorted(name_words(name)))


def name_variants(name: str) -> set[tuple[str, ...]]:
    """The name's key, plus keys with two neighbouring words joined ("Yu Zhong Wang" ~ "Yuzhong Wang")."""
    words = name_words(name)
    out = {tuple(sorted(words))}
    if len(words) >= 3:
        for i in range(len(words) - 1):
            out.add(tuple(sorted(words[:i] + [words[i] + words[i + 1]] + words[i + 2:])))
    return out


def is_initials_form(name: str) -> bool:
    """True for "Z. Wang", "Wang Z" or "T.W. Zhang": some words are single letters, one is not."""
    words = name_words(name)
    return any(len(w) == 1 for w in words) and any(len(w) > 1 for w in words)


def initials_compatible(short: str, full: str) -> bool:
    """Whether an initials form could abbreviate a full name: the family name appears in full and
    the initials are the given name's first letter and, in order, later letters of it.

    >>> initials_compatible("J. Doe", "Jane Doe"), initials_compatible("Doe J", "Joan Doe")
    (True, True)
    >>> initials_compatible("M.L. Chen", "Meiling Chen"), initials_compatible("K. Doe", "Jane Doe")
    (True, False)
    """
    s, f = name_words(short), name_words(full)
    if is_initials_form(full) or not is_initials_form(short):
        return False
    rest = list(f)
    for word in (w for w in s if len(w) > 1):
        if word not in rest:
            return False
        rest.remove(word)
    initials = [w for w in s if len(w) == 1]
    if not rest:
        return False
    for given in (rest, rest[::-1]):
        letters = "".join(given)
        if letters[0] != initials[0]:
            continue
        pos = 1
        for i in initials[1:]:
            pos = letters.find(i, pos) + 1
            if pos == 0:
                break
        else:
            return True
    return False


def decide_same_person(a: str, b: str, *, shared_coauthors: int = 0,
                       competing_full_names: int = 0) -> tuple[bool, str]:
    """Whether two printed names are one person, and the rule that says so.

    Names equal up to order, case, accents, titles, hyphens and the spacing of given names
    are the same. An initials form joins a full name only when they share co-authors and no
    other full name fits it.

    >>> decide_same_person("Doe, Jane", "Jane Doe")[0], decide_same_person("Joan Doe", "Jane Doe")[0]
    (True, False)
    >>> decide_same_person("J. Doe", "Jane Doe", shared_coauthors=2)
    (True, 'initials fit one full name and they share co-authors')
    >>> decide_same_person("J. Doe", "Jane Doe", shared_coauthors=2, competing_full_names=1)
    (False, 'initials fit 2 full names: never merged')
    """
    if name_variants(a) & name_variants(b):
        return True, "same name up to order, case, accents, titles, hyphens and spacing"
    ia, ib = is_initials_form(a), is_initials_form(b)
    if ia == ib:
        return False, "the given names differ" if ia is False else "different initials"
    short, full = (a, b) if ia else (b, a)
    if not initials_compatible(short, full):
        return False, "the initials do not fit the full name"
    if competing_full_names:
        return False, f"initials fit {competing_full_names + 1} full names: never merged"
    if not shared_coauthors:
        return False, "initials fit the full name but they share no co-author"
    return True, "initials fit one full name and they share co-authors"


def title_key(title: str) -> str:
    """Case, punctuation, hyphen and space insensitive form of a title."""
    return "".join(ascii_words(title))


def title_head(title: str) -> str | None:
    """The short name before a colon (``"Lucid"`` of ``"Lucid: A ..."``), if any."""
    if ":" not in title:
        return None
    head = title_key(title.split(":", 1)[0])
    return head or None


def org_key(name: str) -> str:
    name = re.sub(r"\([^)]*\)", " ", name)
    return " ".join(w for w in ascii_words(name) if w != "the")


def org_initials(name: str) -> str:
    words = [w for w in ascii_words(re.sub(r"\([^)]*\)", " ", name)) if w not in _STOP]
    return "".join(w[0] for w in words)


def venue_key(name: str) -> str:
    words = [w for w in ascii_words(name.replace("&", " and ")) if w not in _VENUE_NOISE]
    words = [w for w in words if not re.fullmatch(r"\d+(?:st|nd|rd|th)?", w)]
    return " ".join(words)


def slug(text: str, limit: int = 60) -> str:
    """A readable, IRI-safe slug.

    >>> slug("Universität Zürich")
    'universitat-zurich'
    """
    s = "-".join(ascii_words(text))
    if len(s) > limit:
        s = s[:limit].rsplit("-", 1)[0]
    return s or "x"


# --- decisions ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Decision:
    """Why two mentions were merged, or kept apart (``merged=False``)."""

    kind: str  # person | work | venue | organization
    subject: str  # the IRI decided about
    merged: bool
    rule: str
    evidence: str
    sources: tuple[str, ...] = ()
    related: tuple = ()  # the other entities (IRIs) the decision was about

    def as_dict(self) -> dict:
        return {"kind": self.kind, "subject": self.subject, "related": [r for r in self.related if isinstance(r, str)],
                "merged": self.merged, "rule": self.rule, "evidence": self.evidence, "sources": list(self.sources)}


class _UnionFind:
    def __init__(self):
        self.parent: dict = {}

    def find(self, x):
        self.parent.setdefault(x, x)
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a, b):
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            lo, hi = sorted((ra, rb), key=repr)
            self.parent[hi] = lo


# --- entities -----------------------------------------------------------------------------

@dataclass
class Person:
    iri: str
    name: str
    names: list[str] = field(default_factory=list)
    documents: set[str] = field(default_factory=set)
    label: str | None = None  # a disambiguating label where the curation file split a printed name


@dataclass
class Resolution:
    """The outcome of identity: lookups from what documents print to entity IRIs."""

    people: dict[str, Person] = field(default_factory=dict)  # iri -> Person
    person_of_key: dict[tuple, str] = field(default_factory=dict)
    subject_of_document: dict[str, str] = field(default_factory=dict)
    work_of: dict[tuple[str, int], str] = field(default_factory=dict)  # (document, first line) -> iri
    work_titles: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # iri -> [(document, title)]
    venue_of_key: dict[str, str] = field(default_factory=dict)
    venue_names: dict[str, dict] = field(default_factory=dict)
    org_of_key: dict[tuple, str] = field(default_factory=dict)
    org_info: dict[str, dict] = field(default_factory=dict)
    decisions: list[Decision] = field(default_factory=list)

    mention_key: object = None

    def person(self, name: str, work_title: str | None = None) -> str:
        """The IRI of the person a printed name (on the work titled *work_title*) refers to."""
        key = self.mention_key(name, work_title) if self.mention_key else person_key(name)
        return self.person_of_key[key]

    def venue(self, ref: VenueRef) -> str | None:
        for k in _venue_keys(ref):
            if k in self.venue_of_key:
                return self.venue_of_key[k]
        return None

    def organization(self, ref: OrgRef) -> str:
        return self.org_of_key[_org_chain_key(ref)]


def _venue_keys(ref: VenueRef) -> list[str]:
    keys = []
    if ref.acronym:
        keys.append("acro:" + ref.acronym.lower())
    if ref.name and venue_key(ref.name):
        keys.append("name:" + venue_key(ref.name))
    return keys


def _org_chain_key(ref: OrgRef) -> tuple:
    chain = []
    while ref is not None:
        chain.append(org_key(ref.name))
        ref = ref.parent
    return tuple(chain)


def _org_chain(ref: OrgRef) -> list[OrgRef]:
    chain = []
    while ref is not None:
        chain.append(ref)
        ref = ref.parent
    return chain


# --- resolve ------------------------------------------------------------------------------

def resolve(documents: list[Document], curation: Curation | None = None) -> Resolution:
    """Group every mention in *documents* into entities; see the module docstring."""
    curation = curation or Curation()
    res = Resolution()
    _resolve_people(documents, curation, res)
    _resolve_venues(documents, res)
    _resolve_organizations(documents, res, curation)
    _resolve_works(documents, res)
    return res


def _person_mentions(doc: Document) -> list[tuple[str, str, str | None]]:
    """(printed name, role, title of the work it is printed on) for every person a document names."""
    out = []
    if doc.subject:
        out.append((doc.subject.name, "subject", None))
    for fact in doc.facts:
        if isinstance(fact, Work):
            out += [(a.name, "author", fact.title) for a in fact.authors]
            out += [(n, "supervisor", fact.title) for n in fact.supervisors]
        elif isinstance(fact, Education):
            out += [(n, "supervisor", None) for n in fact.supervisors]
    return out


def mention_key(name: str, work_title: str | None, curation: Curation) -> tuple:
    """The identity key of one printed name: a curation split or alias first, else :func:`person_key`."""
    label = curation.split_label(name, work_title) if work_title else None
    if label:
        return ("@", label)
    return curation.person_key(name) or person_key(name)


def _resolve_people(documents: list[Document], curation: Curation, res: Resolution) -> None:
    names: dict[tuple, list[tuple[str, str, str]]] = defaultdict(list)  # key -> (name, document, role)
    coauthors: dict[tuple, set] = defaultdict(set)
    for doc in documents:
        for name, role, title in _person_mentions(doc):
            key = mention_key(name, title, curation)
            if key:
                names[key].append((name, doc.path, role))
        for fact in doc.facts:
            if isinstance(fact, Work):
                keys = {mention_key(a.name, fact.title, curation) for a in fact.authors}
                if doc.subject and fact.subject_ordinal:
                    keys.add(mention_key(doc.subject.name, None, curation))
                for k in keys:
                    coauthors[k] |= keys - {k}
    blocked = {frozenset((person_key(a), person_key(b))) for a, b in curation.not_same_as}
    uf = _UnionFind()
    for key in names:
        uf.find(key)
    pending: list[tuple[tuple, tuple, str, str, tuple]] = []  # key a, key b, rule, evidence, sources

    def join(a, b, rule, evidence, sources):
        if frozenset((a, b)) in blocked:
            res.decisions.append(Decision("person", "", False, "curation: not_same_as", evidence, ("curation",),
                                          related=(a, b)))
            return
        if uf.find(a) != uf.find(b):
            uf.union(a, b)
            pending.append((a, b, rule, evidence, sources))

    # Names equal up to order, case, accents, titles and hyphens share a key; spacing of given names too.
    by_variant: dict[tuple, list[tuple]] = defaultdict(list)
    for key, seen in names.items():
        if key[0] == "@":
            continue
        for variant in name_variants(seen[0][0]):
            by_variant[variant].append(key)
    for variant, keys in sorted(by_variant.items()):
        for other in keys[1:]:
            a, b = names[keys[0]][0][0], names[other][0][0]
            same, rule = decide_same_person(a, b)
            if same:
                join(keys[0], other, rule, f"{a} = {b}", _docs(names, keys[0], other))
    for key, seen in names.items():
        variants = sorted({n for n, _, _ in seen})
        documents_seen = tuple(sorted({d for _, d, _ in seen}))
        if len(variants) > 1:
            pending.append((key, key, "same name up to order, case, accents and titles", " = ".join(variants),
                            documents_seen))
        elif len(documents_seen) > 1:
            together = len(coauthors[key])
            pending.append((key, key, "the same name in several documents",
                            f"{variants[0]} in {len(documents_seen)} documents, with {together} co-authors in all",
                            documents_seen))
    # The subjects of several documents with a shared email, ORCID or homepage are one person.
    contact: dict[str, tuple] = {}
    for doc in documents:
        if not doc.subject:
            continue
        key = mention_key(doc.subject.name, None, curation)
        for handle in doc.subject.emails + doc.subject.homepages + ([doc.subject.orcid] if doc.subject.orcid else []):
            h = handle.lower().rstrip("/")
            if h in contact and uf.find(contact[h]) != uf.find(key):
                join(contact[h], key, "same contact identifier", h, (doc.path,))
            contact.setdefault(h, key)
    for a, b in curation.same_as:
        ka, kb = mention_key(a, None, curation), mention_key(b, None, curation)
        if ka in names and kb in names:
            join(ka, kb, "curation: same_as", f"{a} = {b}", ("curation",))
    _attach_initials(names, coauthors, uf, join, res)

    groups: dict = defaultdict(list)
    for key in names:
        groups[uf.find(key)].append(key)
    used: dict[str, int] = {}
    for root in sorted(groups, key=lambda k: " ".join(k)):
        keys = groups[root]
        seen = [m for k in keys for m in names[k]]
        counts: dict[str, int] = defaultdict(int)
        for n, _, _ in seen:
            counts[n] += 1
        subject_names = sorted({n for n, _, role in seen if role == "subject"})
        full = [n for n in counts if not is_initials_form(n)] or list(counts)
        pool = subject_names or sorted(full)
        display = max(pool, key=lambda n: (counts[n], -len(n)))
        label = next((k[1] for k in keys if k[0] == "@"), None)
        base = "person/" + slug(label or display)
        used[base] = used.get(base, 0) + 1
        iri = str(DATA[base if used[base] == 1 else f"{base}-{used[base]}"])
        res.people[iri] = Person(iri, display, sorted(counts), {d for _, d, _ in seen}, label)
        for k in keys:
            res.person_of_key[k] = iri
    for a, b, rule, evidence, sources in pending:
        res.decisions.append(Decision("person", res.person_of_key[a], True, rule, evidence, sources,
                                      related=(res.person_of_key[b],)))
    res.decisions = [d if d.subject or d.kind != "person" else
                     Decision(d.kind, res.person_of_key.get(d.related[0], ""), d.merged, d.rule, d.evidence,
                              d.sources, tuple(res.person_of_key.get(k, "") for k in d.related[1:]))
                     for d in res.decisions]
    res.mention_key = lambda name, title=None: mention_key(name, title, curation)
    for doc in documents:
        if doc.subject:
            res.subject_of_document[doc.path] = res.person_of_key[mention_key(doc.subject.name, None, curation)]
    _record_person_near_misses(res)


def _docs(names: dict, *keys) -> tuple[str, ...]:
    return tuple(sorted({d for k in keys for _, d, _ in names[k]}))


def _attach_initials(names: dict, coauthors: dict, uf: _UnionFind, join, res: Resolution) -> None:
    """An initials-only name joins a full name only when exactly one fits and they share co-authors."""
    full_keys = [k for k in names if k[0] != "@" and not is_initials_form(names[k][0][0])]
    for key in sorted(k for k in names if k[0] != "@" and is_initials_form(names[k][0][0])):
        short = names[key][0][0]
        fits = [k for k in full_keys if initials_compatible(short, names[k][0][0])]
        roots = sorted({uf.find(k) for k in fits}, key=repr)
        for k in fits[:1] if len(roots) == 1 else []:
            group = [g for g in names if uf.find(g) == roots[0]]
            shared = coauthors[key] & set().union(*(coauthors[g] for g in group))
            same, rule = decide_same_person(short, names[k][0][0], shared_coauthors=len(shared))
            evidence = (f"{short} ~ {names[k][0][0]}; shared co-authors: "
                        + (", ".join(sorted(names[s][0][0] for s in shared if s in names)) or "none"))
            if same:
                join(k, key, rule, evidence, _docs(names, key, k))
            else:
                res.decisions.append(Decision("person", "", False, rule, evidence, _docs(names, key, k),
                                              related=(key, k)))
        if len(roots) > 1:
            candidates = sorted(names[k][0][0] for k in fits)
            _, rule = decide_same_person(short, candidates[0], competing_full_names=len(roots) - 1)
            res.decisions.append(Decision("person", "", False, rule, f"{short} fits {', '.join(candidates)}",
                                          _docs(names, key, *fits), related=(key, *fits)))


def _record_person_near_misses(res: Resolution) -> None:
    """Pairs with the same family name and similar given names, kept apart: worth explaining."""
    by_word: dict[str, list[Person]] = defaultdict(list)
    for p in res.people.values():
        for w in set(person_key(p.name)):
            by_word[w].append(p)
    seen = set()
    for w, people in sorted(by_word.items()):
        for i, a in enumerate(people):
            for b in people[i + 1:]:
                pair = tuple(sorted((a.iri, b.iri)))
                if pair in seen:
                    continue
                if a.name == b.name:
                    seen.add(pair)
                    res.decisions.append(Decision("person", a.iri, False, "same printed name, split by curation",
                                                  f"{a.label or a.name} vs {b.label or b.name}", ("curation",),
                                                  related=(b.iri,)))
                    continue
                score = fuzz.token_sort_ratio(" ".join(person_key(a.name)), " ".join(person_key(b.name)))
                if score >= 70:
                    seen.add(pair)
                    _, rule = decide_same_person(a.name, b.name)
                    res.decisions.append(Decision(
                        "person", a.iri, False, f"similar names kept apart: {rule}",
                        f"{a.name} vs {b.name} (similarity {score:.0f}); no shared identifier or curation same_as",
                        tuple(sorted(a.documents | b.documents)), related=(b.iri,)))


def _all_venue_refs(documents: list[Document]) -> list[tuple[VenueRef, str]]:
    from kg.records import ServiceRole
    refs = []
    for doc in documents:
        for f in doc.facts:
            if isinstance(f, (Work, ServiceRole)) and f.venue is not None:
                refs.append((f.venue, doc.path))
    return refs


def _resolve_venues(documents: list[Document], res: Resolution) -> None:
    uf = _UnionFind()
    info: dict[str, dict] = defaultdict(lambda: {"names": defaultdict(int), "acronyms": set(), "documents": set()})
    for ref, path in _all_venue_refs(documents):
        keys = _venue_keys(ref)
        for k in keys:
            uf.find(k)
        for k in keys[1:]:
            if uf.find(keys[0]) != uf.find(k):
                res.decisions.append(Decision("venue", "", True, "acronym and name printed together",
                                              f"{ref.acronym} = {ref.name}", (path,)))
            uf.union(keys[0], k)
        if keys:
            i = info[keys[0]]
            if ref.name:
                i["names"][ref.name] += 1
            if ref.acronym:
                i["acronyms"].add(ref.acronym)
            i["documents"].add(path)
    groups = defaultdict(list)
    for k in list(uf.parent):
        groups[uf.find(k)].append(k)
    used = set()
    decisions = []
    for root in sorted(groups):
        names: dict[str, int] = defaultdict(int)
        acronyms: set[str] = set()
        for k in groups[root]:
            for n, c in info.get(k, {"names": {}})["names"].items():
                names[n] += c
            acronyms |= info.get(k, {"acronyms": set()})["acronyms"]
        acronym = sorted(acronyms, key=lambda a: (a.upper() != a, a))[0] if acronyms else None
        name = max(sorted(names), key=lambda n: (len(venue_key(n)), names[n])) if names else acronym
        base = "venue/" + slug(acronym or name)
        iri_base = base
        n = 1
        while iri_base in used:
            n += 1
            iri_base = f"{base}-{n}"
        used.add(iri_base)
        iri = str(DATA[iri_base])
        res.venue_names[iri] = {"name": name, "acronym": acronym, "names": sorted(names)}
        for k in groups[root]:
            res.venue_of_key[k] = iri
    for d in res.decisions:
        if d.kind == "venue":
            ref = VenueRef(d.evidence.split(" = ", 1)[1], d.evidence.split(" = ", 1)[0])
            decisions.append(replace(d, subject=res.venue(ref) or ""))
        else:
            decisions.append(d)
    res.decisions = decisions


def _all_org_refs(documents: list[Document]) -> list[tuple[OrgRef, str]]:
    from kg.records import Position
    refs = []
    for doc in documents:
        if doc.subject:
            refs += [(a, doc.path) for a in doc.subject.affiliations]
        for f in doc.facts:
            if isinstance(f, Position) and f.organization:
                refs.append((f.organization, doc.path))
            elif isinstance(f, Education) and f.institution:
                refs.append((f.institution, doc.path))
            elif isinstance(f, Work) and f.institution:
                refs.append((f.institution, doc.path))
    return refs


def _resolve_organizations(documents: list[Document], res: Resolution, curation: Curation) -> None:
    refs = _all_org_refs(documents)
    aliases = {org_key(v): org_key(c) for v, c in curation.organization_aliases.items()}
    # Top-level organizations: one per name key; a short form joins the one long name whose initials it is.
    roots: dict[str, dict] = {}
    for ref, path in refs:
        top = _org_chain(ref)[-1]
        k = org_key(top.name)
        city = (top.location or ref.location or "").split(",")[0]
        if k not in aliases and city and org_key(f"{top.name} {city}") in aliases:
            k = org_key(f"{top.name} {city}")  # the reader took a city off the end of the name
            aliases.setdefault(org_key(top.name), aliases[k])
        if k in aliases and aliases[k] != k:
            res.decisions.append(Decision("organization", "", True, "curation: organization alias",
                                          f"{top.name} = {curation.organization_aliases[top.name]}"
                                          if top.name in curation.organization_aliases else top.name, ("curation",)))
            k = aliases[k]
        r = roots.setdefault(k, {"names": defaultdict(int), "country": None, "documents": set()})
        r["names"][top.name] += 1
        r["country"] = r["country"] or top.country or ref.country
        r["documents"].add(path)
    alias: dict[str, str] = {}
    for k in sorted(roots):
        if re.fullmatch(r"[a-z]{2,6}", k.replace(" ", "")) and " " not in k:
            long_forms = [o for o in roots if o != k and " " in o and org_initials(o) == k]
            if len(long_forms) == 1:
                alias[k] = long_forms[0]
                res.decisions.append(Decision("organization", "", True, "short form is the initials of the long name",
                                              f"{k.upper()} = {max(roots[long_forms[0]]['names'], key=len)}",
                                              tuple(sorted(roots[k]["documents"]))))
    canonical_root = {k: alias.get(k, k) for k in roots}
    root_iri: dict[str, str] = {}
    for k in sorted(set(canonical_root.values())):
        members = [m for m, c in canonical_root.items() if c == k]
        names: dict[str, int] = defaultdict(int)
        for m in members:
            for n, c in roots[m]["names"].items():
                names[n] += c
        # The most printed full name; on a tie the accented spelling ("Zürich" over "Zurich").
        name = max(sorted(names), key=lambda n: (len(n.split()) > 1, names[n], n != unidecode(n), -len(n)))
        iri = str(DATA["org/" + slug(name)])
        acronyms = sorted(n for n in names if re.fullmatch(r"[A-Z]{2,6}", n))
        country = next((roots[m]["country"] for m in members if roots[m]["country"]), None)
        res.org_info[iri] = {"name": name, "names": sorted(names), "acronym": acronyms[0] if acronyms else None,
                             "country": country, "parent": None}
        root_iri[k] = iri
        for m in members:
            res.org_of_key[(m,)] = iri
    res.decisions = [replace(d, subject=res.org_of_key.get((d.evidence.split(" = ")[0].lower(),), d.subject))
                     if d.kind == "organization" else d for d in res.decisions]
    # Units: under their parent; a unit whose name extends another's under the same parent is the same unit.
    units: dict[str, dict[str, dict]] = defaultdict(dict)  # parent iri -> unit key -> info
    for ref, path in sorted(refs, key=lambda r: len(_org_chain(r[0]))):
        chain = _org_chain(ref)
        top_key = aliases.get(org_key(chain[-1].name), org_key(chain[-1].name))
        res.org_of_key.setdefault((org_key(chain[-1].name),), res.org_of_key[(top_key,)])
        parent_iri = res.org_of_key[(top_key,)]
        for depth in range(len(chain) - 2, -1, -1):
            unit = chain[depth]
            k = org_key(unit.name)
            siblings = units[parent_iri]
            match = next((s for s in sorted(siblings) if s == k or k.startswith(s + " ") or s.startswith(k + " ")), None)
            if match is None:
                iri = f"{parent_iri}/{slug(unit.name)}"
                siblings[k] = {"iri": iri, "names": defaultdict(int)}
                res.org_info[iri] = {"name": unit.name, "names": [], "acronym": None, "country": None,
                                     "parent": parent_iri}
                match = k
            elif match != k:
                res.decisions.append(Decision("organization", siblings[match]["iri"], True,
                                              "a unit's name extends another unit's name under the same parent",
                                              f"{unit.name} ~ {res.org_info[siblings[match]['iri']]['name']}", (path,)))
            siblings[match]["names"][unit.name] += 1
            if k != match:
                siblings[k] = siblings[match]
            parent_iri = siblings[match]["iri"]
            res.org_of_key[_org_chain_key(unit)] = parent_iri
        res.org_of_key[_org_chain_key(ref)] = parent_iri if len(chain) > 1 else res.org_of_key[(org_key(chain[-1].name),)]
    for siblings in units.values():
        for info in siblings.values():
            names = info["names"]
            o = res.org_info[info["iri"]]
            o["names"] = sorted(names)
            o["name"] = max(sorted(names), key=lambda n: (len(n), names[n]))


def _resolve_works(documents: list[Document], res: Resolution) -> None:
    mentions = []  # (document, work, author iris)
    for doc in documents:
        subject = res.subject_of_document.get(doc.path)
        for fact in doc.facts:
            if isinstance(fact, Work):
                authors = {res.person(a.name, fact.title) for a in fact.authors}
                if fact.subject_ordinal and subject:
                    authors.add(subject)
                mentions.append((doc, fact, authors))
            elif isinstance(fact, Education) and fact.thesis_title and subject:
                pseudo = Work(fact.thesis_title, fact.span, kind="thesis",
                              year=fact.period.end[:4] if fact.period.end else None, subject_ordinal=1)
                mentions.append((doc, pseudo, {subject}))
    uf = _UnionFind()
    for i, (doc, w, authors) in enumerate(mentions):
        uf.find(i)
    by_title: dict[str, int] = {}
    for i, (doc, w, authors) in enumerate(mentions):
        k = title_key(w.title)
        if k in by_title:
            a = mentions[by_title[k]]
            if a[1].title != w.title:
                res.decisions.append(Decision("work", "", True, "same title up to case and punctuation",
                                              f"{a[1].title!r} = {w.title!r}", (a[0].path, doc.path)))
            uf.union(by_title[k], i)
        else:
            by_title[k] = i
    # Only pairs that share an author or a short title can merge or be a near miss worth noting.
    buckets: dict = defaultdict(set)
    for i, (_, w, authors) in enumerate(mentions):
        for key in [("author", a) for a in authors] + [("head", title_head(w.title))]:
            if key[1]:
                buckets[key].add(i)
    candidates = sorted({(i, j) for members in buckets.values() for i in members for j in members if i < j})
    for i, j in candidates:
        (doc_a, a, auth_a), (doc_b, b, auth_b) = mentions[i], mentions[j]
        if uf.find(i) == uf.find(j) or a.kind != b.kind:
            continue
        shared = auth_a & auth_b
        head_a, head_b = title_head(a.title), title_head(b.title)
        same_head = head_a is not None and head_a == head_b
        similar = fuzz.token_set_ratio(a.title.lower(), b.title.lower())
        venue_ok = (a.venue is None or b.venue is None or a.status != "published" or b.status != "published"
                    or res.venue(a.venue) == res.venue(b.venue))
        years_ok = not (a.year and b.year) or abs(int(a.year[:4]) - int(b.year[:4])) <= 2
        minimum = min(2, len(auth_a), len(auth_b))
        numbered = _differs_only_by_numbering(a.title, b.title)
        both_published = a.status == "published" and b.status == "published"
        rest_similar = fuzz.token_set_ratio(a.title.split(":", 1)[-1].lower(), b.title.split(":", 1)[-1].lower())
        if same_head and both_published and rest_similar < 50:
            same_head = False  # one series name, two published papers: "X: A" and "X: B"
        if numbered:
            res.decisions.append(Decision("work", "", False, "titles differ only by a number: parts of a series",
                                          f"{a.title!r} vs {b.title!r}", (doc_a.path, doc_b.path)))
        elif (same_head or similar >= 90) and len(shared) >= max(1, minimum) and venue_ok and years_ok:
            uf.union(i, j)
            rule = "same short title before the colon" if same_head else f"titles {similar:.0f}% similar"
            res.decisions.append(Decision(
                "work", "", True, f"{rule}, {len(shared)} shared authors, compatible venue and year",
                f"{a.title!r} = {b.title!r}", (doc_a.path, doc_b.path)))
        elif same_head or similar >= 80:
            why = ("no shared author" if not shared else "different venues" if not venue_ok
                   else "years too far apart" if not years_ok else "too few shared authors")
            res.decisions.append(Decision("work", "", False, f"similar titles kept apart: {why}",
                                          f"{a.title!r} vs {b.title!r}", (doc_a.path, doc_b.path)))
    groups = defaultdict(list)
    for i in range(len(mentions)):
        groups[uf.find(i)].append(i)
    used = set()
    date_of = {d.path: d.latest_date or "" for d in documents}
    for root in sorted(groups, key=lambda r: min(groups[r])):
        members = groups[root]
        # The IRI comes from the title printed by the newest document, so a retitled work keeps one IRI per build.
        newest = max(members, key=lambda i: (date_of[mentions[i][0].path], -i))
        base = ("thesis/" if mentions[newest][1].kind == "thesis" else "work/") + slug(mentions[newest][1].title)
        iri_base, n = base, 1
        while iri_base in used:
            n += 1
            iri_base = f"{base}-{n}"
        used.add(iri_base)
        iri = str(DATA[iri_base])
        res.work_titles[iri] = [(mentions[i][0].path, mentions[i][1].title) for i in members]
        for i in members:
            doc, w, _ = mentions[i]
            res.work_of[(doc.path, w.span.first_line, title_key(w.title))] = iri
    res.decisions = [replace(d, subject=_work_iri_from(d, res)) if d.kind == "work" and not d.subject else d
                     for d in res.decisions]


_NUMBERING = re.compile(r"^(?:\d+|[ivxlc]+|part|vol|volume|no)$")


def _differs_only_by_numbering(a: str, b: str) -> bool:
    """``"Scaling Laws, Part I"`` vs ``"Scaling Laws, Part II"``: different works of one series."""
    wa, wb = set(ascii_words(a)), set(ascii_words(b))
    diff = wa ^ wb
    return bool(diff) and all(_NUMBERING.match(w) for w in diff)


def _work_iri_from(d: Decision, res: Resolution) -> str:
    first = d.evidence.split("' ", 1)[0].strip("'\"")
    for iri, titles in res.work_titles.items():
        if any(t == first for _, t in titles):
            return iri
    return ""


def work_iri(res: Resolution, document: str, work: Work) -> str:
    return res.work_of[(document, work.span.first_line, title_key(work.title))]
