"""People: which printed names (owners, authors, supervisors) are one person, and why.

Names equal up to order, case, accents, titles, hyphens and the spacing of given names are
one person; so are the owners of documents that share an email, ORCID or homepage, and
whatever the curation file says. An initials form ("J. Doe") joins a full name only when
exactly one full name fits it and they share co-authors.
"""

from __future__ import annotations

from collections import defaultdict

from rapidfuzz import fuzz

from kg.identity.curation import Curation
from kg.identity.decisions import Decision, PendingDecision, UnionFind
from kg.identity.keys import is_initials_form, name_variants, name_words, person_key, slug
from kg.identity.resolution import IriMinter, Person, Resolution
from kg.records import Document, Education, Work


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


def _person_mentions(doc: Document) -> list[tuple[str, str, str | None]]:
    """(printed name, role, title of the work it is printed on) for every person a document names."""
    out = []
    if doc.subject:
        out.append((doc.subject.name, "subject", None))
    for fact in doc.facts:
        if isinstance(fact, Work):
            out += [(a.name, "author", fact.title) for a in fact.authors]
            out += [(n, "supervisor", fact.title) for n in fact.supervisors]
            out += [(n, "editor", fact.title) for n in fact.editors]
        elif isinstance(fact, Education):
            out += [(n, "supervisor", None) for n in fact.supervisors]
    return out


def owner_is_author(doc: Document, work: Work) -> bool:
    """Whether the document's owner is an author of *work* without being in its printed list:
    the document gives the owner's place only ("First author") or no author list at all (ORCID)."""
    return doc.subject is not None and bool(work.subject_ordinal or work.authors_not_listed)


class _Grouping:
    """Name keys seen in the documents, grouped by union-find, with the decisions taken on the way."""

    def __init__(self, documents: list[Document], curation: Curation):
        self.curation = curation
        self.names: dict[tuple, list[tuple[str, str, str]]] = defaultdict(list)  # key -> (name, document, role)
        self.coauthors: dict[tuple, set] = defaultdict(set)
        for doc in documents:
            for name, role, title in _person_mentions(doc):
                key = curation.mention_key(name, title)
                if key:
                    self.names[key].append((name, doc.path, role))
            for work in doc.of_type(Work):
                keys = {curation.mention_key(a.name, work.title) for a in work.authors}
                if owner_is_author(doc, work):
                    keys.add(curation.mention_key(doc.subject.name))
                for k in keys:
                    self.coauthors[k] |= keys - {k}
        self.blocked = {frozenset((person_key(a), person_key(b))) for a, b in curation.not_same_as}
        self.uf = UnionFind()
        for key in self.names:
            self.uf.find(key)
        self.merges: list[PendingDecision] = []
        self.kept_apart: list[PendingDecision] = []

    def first_name(self, key) -> str:
        return self.names[key][0][0]

    def documents(self, *keys) -> tuple[str, ...]:
        return tuple(sorted({d for k in keys for _, d, _ in self.names[k]}))

    def join(self, a, b, rule: str, evidence: str, sources: tuple) -> None:
        if frozenset((a, b)) in self.blocked:
            self.kept_apart.append(PendingDecision("person", a, False, "curation: not_same_as", evidence,
                                                   ("curation",), related=(b,)))
        elif self.uf.find(a) != self.uf.find(b):
            self.uf.union(a, b)
            self.merges.append(PendingDecision("person", a, True, rule, evidence, sources, related=(b,)))

    def join_same_names(self) -> None:
        """Names equal up to order, case, accents, titles and hyphens share a key; spacing of given names too."""
        by_variant: dict[tuple, list[tuple]] = defaultdict(list)
        for key in self.names:
            if key[0] != "@":
                for variant in name_variants(self.first_name(key)):
                    by_variant[variant].append(key)
        for _, keys in sorted(by_variant.items()):
            for other in keys[1:]:
                a, b = self.first_name(keys[0]), self.first_name(other)
                same, rule = decide_same_person(a, b)
                if same:
                    self.join(keys[0], other, rule, f"{a} = {b}", self.documents(keys[0], other))
        for key, seen in self.names.items():
            variants = sorted({n for n, _, _ in seen})
            documents_seen = self.documents(key)
            if len(variants) > 1:
                self.merges.append(PendingDecision("person", key, True,
                                                   "same name up to order, case, accents and titles",
                                                   " = ".join(variants), documents_seen, related=(key,)))
            elif len(documents_seen) > 1:
                evidence = (f"{variants[0]} in {len(documents_seen)} documents, "
                            f"with {len(self.coauthors[key])} co-authors in all")
                self.merges.append(PendingDecision("person", key, True, "the same name in several documents",
                                                   evidence, documents_seen, related=(key,)))

    def join_shared_contacts(self, documents: list[Document]) -> None:
        """The owners of several documents with a shared email, ORCID or homepage are one person."""
        contact: dict[str, tuple] = {}
        for doc in documents:
            if not doc.subject:
                continue
            key = self.curation.mention_key(doc.subject.name)
            handles = doc.subject.emails + doc.subject.homepages + ([doc.subject.orcid] if doc.subject.orcid else [])
            for handle in handles:
                h = handle.lower().rstrip("/")
                if h in contact and self.uf.find(contact[h]) != self.uf.find(key):
                    self.join(contact[h], key, "same contact identifier", h, (doc.path,))
                contact.setdefault(h, key)

    def join_curated(self) -> None:
        for a, b in self.curation.same_as:
            ka, kb = self.curation.mention_key(a), self.curation.mention_key(b)
            if ka in self.names and kb in self.names:
                self.join(ka, kb, "curation: same_as", f"{a} = {b}", ("curation",))

    def attach_initials(self) -> None:
        """An initials-only name joins a full name only when exactly one fits and they share co-authors."""
        names, uf = self.names, self.uf
        full_keys = [k for k in names if k[0] != "@" and not is_initials_form(self.first_name(k))]
        for key in sorted(k for k in names if k[0] != "@" and is_initials_form(self.first_name(k))):
            short = self.first_name(key)
            fits = [k for k in full_keys if initials_compatible(short, self.first_name(k))]
            roots = sorted({uf.find(k) for k in fits}, key=repr)
            if len(roots) == 1:
                self._attach_one(key, fits[0], roots[0])
            elif len(roots) > 1:
                candidates = sorted(self.first_name(k) for k in fits)
                _, rule = decide_same_person(short, candidates[0], competing_full_names=len(roots) - 1)
                self.kept_apart.append(PendingDecision("person", key, False, rule,
                                                       f"{short} fits {', '.join(candidates)}",
                                                       self.documents(key, *fits), related=tuple(fits)))

    def _attach_one(self, key, full, root) -> None:
        short, long = self.first_name(key), self.first_name(full)
        group = [g for g in self.names if self.uf.find(g) == root]
        shared = self.coauthors[key] & set().union(*(self.coauthors[g] for g in group))
        same, rule = decide_same_person(short, long, shared_coauthors=len(shared))
        evidence = (f"{short} ~ {long}; shared co-authors: "
                    + (", ".join(sorted(self.first_name(s) for s in shared if s in self.names)) or "none"))
        if same:
            self.join(full, key, rule, evidence, self.documents(key, full))
        else:
            self.kept_apart.append(PendingDecision("person", key, False, rule, evidence, self.documents(key, full),
                                                   related=(full,)))

    def mint(self, res: Resolution) -> None:
        """One :class:`Person` per group, named by the owner's name or the most printed full name."""
        minter = IriMinter()
        for _root, keys in sorted(self.uf.groups().items(), key=lambda item: " ".join(item[0])):
            seen = [m for k in keys for m in self.names[k]]
            counts: dict[str, int] = defaultdict(int)
            for n, _, _ in seen:
                counts[n] += 1
            subject_names = sorted({n for n, _, role in seen if role == "subject"})
            full = [n for n in counts if not is_initials_form(n)] or list(counts)
            pool = subject_names or sorted(full)
            display = max(pool, key=lambda n: (counts[n], -len(n)))
            label = next((k[1] for k in keys if k[0] == "@"), None)
            iri = minter.mint("person/" + slug(label or display))
            res.people[iri] = Person(iri, display, sorted(counts), {d for _, d, _ in seen}, label)
            for k in keys:
                res.person_of_key[k] = iri


def resolve_people(documents: list[Document], res: Resolution) -> None:
    """Fill ``res.people``, ``res.person_of_key`` and ``res.subject_of_document``; record the decisions."""
    grouping = _Grouping(documents, res.curation)
    grouping.join_same_names()
    grouping.join_shared_contacts(documents)
    grouping.join_curated()
    grouping.attach_initials()
    grouping.mint(res)
    res.decisions += [d.settle(res.person_of_key.get) for d in grouping.kept_apart + grouping.merges]
    for doc in documents:
        if doc.subject:
            res.subject_of_document[doc.path] = res.person(doc.subject.name)
    _record_person_near_misses(res)


def _record_person_near_misses(res: Resolution) -> None:
    """Pairs with the same family name and similar given names, kept apart: worth explaining."""
    by_word: dict[str, list[Person]] = defaultdict(list)
    for p in res.people.values():
        for w in set(person_key(p.name)):
            by_word[w].append(p)
    seen = set()
    for _, people in sorted(by_word.items()):
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
