"""People: which printed names (owners, authors, supervisors) are one person, and why.

Evidence, not strings: one name in one document is a node (:mod:`~kg.identity.mentions`);
nodes of different documents are one person when the evidence says so
(:mod:`~kg.identity.evidence`): the same work listed in both with the name in its author
list, a shared email, ORCID or homepage, or a compatible name with a co-author (supervisor,
student) already known to be one person in both. An identical name alone between unconnected
groups is not enough: those stay apart and are listed as possibly the same
(:mod:`~kg.identity.namesakes`). Two authors of one work are never one person, different
ORCIDs never merge, and the curation file always wins.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from kg.identity.clusters import Cluster
from kg.identity.curation import Curation
from kg.identity.decisions import Decision
from kg.identity.evidence import Passes
from kg.identity.keys import is_initials_form, name_variants, name_words
from kg.identity.mentions import Collector, Mentions, by_key, collect
from kg.identity.namesakes import mint, record_namesakes
from kg.identity.resolution import Resolution
from kg.records import Document, Work


class Helper(Protocol):
    """A step run on another core (:class:`kg.child.Child`): started, then its result or its exception."""

    def start(self, step, *args) -> None: ...

    def result(self): ...

    def cancel(self) -> None: ...


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


def owner_is_author(doc: Document, work: Work) -> bool:
    """Whether the document's owner is an author of *work* without being in its printed list:
    the document gives the owner's place only ("First author") or no author list at all (ORCID)."""
    return doc.subject is not None and bool(work.subject_ordinal or work.authors_not_listed)




def _refs(text: str, mentions: Mentions, curation: Curation, keyed: dict[tuple, list[int]]) -> list[int]:
    """The nodes a curation entry names: ``Name`` (every mention of it) or ``Name @ document`` (one)."""
    name, _, document = (p.strip() for p in text.partition(" @ "))
    key = curation.mention_key(name)
    if not document:
        return keyed.get(key, [])
    return [i for i in keyed.get(key, []) if mentions.nodes[i].document in (document,)
            or mentions.nodes[i].document.rsplit("/", 1)[-1] == document]


def _apply_curation(passes: Passes, curation: Curation) -> None:
    """not_same_as forbids, then same_as and aliases join, whatever the evidence says."""
    m, keyed = passes.m, by_key(passes.m)
    for a, b in curation.not_same_as:
        for x in _refs(a, m, curation, keyed):
            for y in _refs(b, m, curation, keyed):
                passes.cl.forbid(x, y)
    for a, b in curation.same_as:
        nodes = _refs(a, m, curation, keyed) + _refs(b, m, curation, keyed)
        for other in nodes[1:]:
            passes.join(nodes[0], other, "curation: same_as", f"{a} = {b}", force=True)
    for canon in sorted(set(curation.aliases.values())):
        nodes = keyed.get(curation.mention_key(canon), [])
        for other in nodes[1:]:
            passes.join(nodes[0], other, "curation: aliases", f"{canon} and its aliases", force=True)


#: From this many mentions on, and up to :data:`BESIDE_MAX_MENTIONS`, the owners' groups
#: (:meth:`Passes.owner_groups`) are made beside the passes where *beside* gives a helper: for fewer,
#: the helper's start costs more than it saves.
BESIDE_FROM_MENTIONS = 20_000
#: A fork copies the pages it reads (Python's reference counts write to every object), about half of
#: what identity holds: at 10,000 CVs (2.9 million mentions) the build's processes together held
#: 7.96 GiB at their peak against 5.45 GiB (the issue asks for 6 at most); at 1,000 CVs (286,000) the
#: peak stayed at 1.02 GiB, reached later in the build. So no fork above this many.
BESIDE_MAX_MENTIONS = 1_000_000


def run_passes(passes: Passes, curation: Curation, beside: Callable[[], Helper | None] | None = None) -> None:
    """The curation file, then every pass of evidence, in order (see :mod:`~kg.identity.evidence`).

    *beside*, where given, gives a helper that runs a step on a core of its own (a
    :class:`kg.child.Child`), or None where none is free: the owners' groups, which read no cluster, are
    made there while the passes before the one that needs them run (at 1,000 CVs a seventh of identity),
    for as many mentions as :data:`BESIDE_FROM_MENTIONS` to :data:`BESIDE_MAX_MENTIONS`."""
    helper = (beside() if beside is not None and BESIDE_FROM_MENTIONS <= len(passes.nodes) <= BESIDE_MAX_MENTIONS
              else None)
    try:
        if helper is not None:
            helper.start(passes.owner_groups)
        _apply_curation(passes, curation)
        shared = passes.listed_elsewhere()
        passes.local_cores(shared)
        passes.within_documents()
        passes.shared_works()
        passes.shared_identifiers()
        passes.attach_listed(shared)
        passes.owner_works(helper.result() if helper is not None else None)
    finally:
        if helper is not None:
            helper.cancel()
    passes.same_organizations()
    for _ in range(4):
        if not passes.shared_context():
            break


def resolve_people(documents: list[Document], res: Resolution, collected: Collector | None = None,
                   beside: Callable[[], Helper | None] | None = None) -> PeopleDecisions:
    """Fill ``res.people``, ``res.person_of_key``, ``res.person_of_mention`` and ``res.subject_of_document``;
    the decisions (every merge, every refusal, every name kept apart from a namesake), to be made. The
    mentions are *collected*'s, where given (gathered from *documents* as they were read, see
    :class:`kg.identity.resolve.Gathered`), else gathered here; *beside* is :func:`run_passes`'s."""
    mentions = collected.result() if collected is not None else collect(documents, res.curation)
    passes = Passes(mentions, Cluster.of(mentions.nodes))
    run_passes(passes, res.curation, beside)
    cl, log = passes.cl, passes.log
    # the passes' indexes (names by document, cores, co-authors named elsewhere) and the listings go
    # before the people are minted: at 10,000 CVs identity's RSS fell from 5.66 to 5.32 GiB here
    del passes
    mentions.listings.clear()
    iri_of_node = mint(mentions, cl, res)
    mentions.node_of.clear()  # res.person_of_mention holds its keys now, and nothing reads it again
    for doc, node in mentions.owner_of.items():
        res.subject_of_document[doc] = iri_of_node[node]
    return PeopleDecisions(log, mentions, iri_of_node, res)


class PeopleDecisions:
    """The people's decisions, made by :meth:`make`: the passes' pending decisions settled, then each
    person's names summarised and the namesakes kept apart (:func:`~kg.identity.namesakes.record_namesakes`).
    Only ``identity.json`` and ``kg explain`` read them, so the build makes them where it writes them: in
    a fork beside the rest of identity where one fits (:mod:`kg.identity_file`; at 1,000 CVs they were a
    twentieth of identity). ``len()`` is the pending decisions' count, the fewest there will be."""

    def __init__(self, log: list, mentions: Mentions, iri_of_node: dict[int, str], res: Resolution) -> None:
        self.log, self.iri_of_node, self.res = log, iri_of_node, res
        self.mentions: Mentions | None = mentions

    def __len__(self) -> int:
        return len(self.log)

    def make(self, into: list[Decision]) -> list[Decision]:
        """The decisions appended to *into*, in order. Once: what they are made from (the mentions, the
        pending decisions) is let go of as they are made, for identity goes on after, in this process."""
        mentions, self.mentions = self.mentions, None
        if mentions is None:
            raise RuntimeError("the people's decisions were made already")
        _settle(self.log, self.iri_of_node, into)
        record_namesakes(mentions, self.iri_of_node, self.res, into)
        self.iri_of_node = {}
        return into


def _settle(log: list, iri_of_node: dict[int, str], settled: list[Decision]) -> None:
    """The passes' pending decisions made decisions, in order, each let go of as it is settled, so that
    a decision takes the memory its pending form gave back (at 10,000 CVs both at once were 0.3 GiB)."""
    def iri_of(key):
        return iri_of_node.get(key) if isinstance(key, int) else None

    for at, pending in enumerate(log):
        settled.append(pending.settle(iri_of))
        log[at] = None
    log.clear()
