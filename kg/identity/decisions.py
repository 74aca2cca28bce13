"""Identity decisions (why mentions were merged or kept apart) and the union-find that groups mentions."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from itertools import groupby
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, cast

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator


@dataclass(frozen=True, slots=True)
class Decision:
    """Why two mentions were merged, or kept apart (``merged=False``).

    >>> Decision("venue", "https://kg.example/id/venue/x", True, "same acronym", "X = X").as_dict()["merged"]
    True
    """

    kind: str  # person | work | venue | organization
    subject: str  # the IRI decided about
    merged: bool
    rule: str
    evidence: str
    sources: tuple[str, ...] = ()
    related: tuple[str, ...] = ()  # the other entities (IRIs) the decision was about

    def as_dict(self) -> dict:
        return {"kind": self.kind, "subject": self.subject, "related": list(self.related),
                "merged": self.merged, "rule": self.rule, "evidence": self.evidence, "sources": list(self.sources)}


@dataclass(frozen=True, slots=True)
class PendingDecision:
    """A decision taken before the entities have IRIs: it names them by their keys, resolved later.

    *subject* and *related* are keys of whatever the resolver groups (name keys, mention
    numbers, venue keys); :meth:`settle` turns them into IRIs with the resolver's lookup.
    """

    kind: str
    subject: object
    merged: bool
    rule: str
    evidence: str
    sources: tuple[str, ...] = ()
    related: tuple = ()

    def settle(self, iri_of) -> Decision:
        """The :class:`Decision` with every key replaced by ``iri_of(key)`` ("" where unknown)."""
        return Decision(self.kind, iri_of(self.subject) or "", self.merged, self.rule, self.evidence, self.sources,
                        tuple(iri_of(k) or "" for k in self.related))


class UnionFind:
    """Disjoint sets with a deterministic root: the smallest member by ``repr``.

    >>> uf = UnionFind(); uf.union("b", "a"); uf.find("b")
    'a'
    """

    def __init__(self):
        self.parent: dict = {}

    def find(self, x):
        self.parent.setdefault(x, x)
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a, b) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            lo, hi = sorted((ra, rb), key=repr)
            self.parent[hi] = lo

    def groups(self) -> dict:
        """Root -> members, for every element seen."""
        out: dict = {}
        for x in list(self.parent):
            out.setdefault(self.find(x), []).append(x)
        return out


def write_decisions(decisions: list[Decision], path: str | Path, *, ends: bool = True) -> int:
    """``identity.json``: the *decisions* (emptied once read), as :func:`decisions_json` writes them; how
    many. With *ends* False the list is left open, for :func:`append_decisions` to finish."""
    count = len(decisions)
    with open(path, "w", encoding="utf-8") as out:
        out.writelines(decisions_json(decisions, ends=ends))
    return count


def append_decisions(decisions: list[Decision], path: str | Path, *, after: int) -> None:
    """The rest of the ``identity.json`` at *path* that :func:`write_decisions` left open with *after*
    decisions in it: *decisions* (emptied once read), of kinds that come after those (see :data:`KINDS`),
    so that the file is the one ``write_decisions`` gives for all of them."""
    with open(path, "a", encoding="utf-8") as out:
        out.writelines(decisions_json(decisions, begins=False, after=after))


def decisions_json(decisions: list[Decision], *, begins: bool = True, ends: bool = True,
                   after: int = 0) -> Iterator[str]:
    """The text of ``identity.json`` a piece at a time: the *decisions* (emptied once ordered, each let go
    of once written), kind by kind in the order of :data:`KINDS` and within a kind in the order of their
    compact JSON (``json.dumps(d.as_dict(), sort_keys=True)``), in the bytes
    ``json.dumps(rows, indent=1, ensure_ascii=False)`` gives; ``decision_pieces(n)`` pieces. Without
    *begins* the list's opening bracket is left out and without *ends* its closing one: the text follows
    *after* decisions written before. Both strings are composed here from the fields, with json's C
    string encoders, because json's pure-Python paths took 12 s for the 332,000 decisions of 1,000 CVs.

    That JSON begins with the evidence, and the evidence's encoded form ends at its only bare quote, so
    two decisions of one kind and different evidence are in the order of their encoded evidence: only
    decisions of one evidence need the whole JSON to be ordered. The whole keys and the whole file in one
    string were the build's peak at 10,000 CVs (3 GB); so the pieces (the build writes them while
    identity goes on or while it maps: :mod:`kg.identity_file`, :mod:`kg.paced`)."""
    kept: list[Decision] = []
    # sorted by kind and encoded evidence, a run of one kind and one (raw) evidence is a run of one key
    for _, same in groupby(sorted(decisions, key=_evidence_key), key=attrgetter("kind", "evidence")):
        run = list(same)
        kept += sorted(run, key=_decision_key) if len(run) > 1 else run
    decisions.clear()
    ordered = cast("list[Decision | None]", kept)  # a written piece's places are emptied
    if begins:
        yield "["
    for at in range(0, len(ordered), _CHUNK):
        piece = cast("list[Decision]", ordered[at:at + _CHUNK])
        ordered[at:at + _CHUNK] = [None] * len(piece)
        yield ("," if at or after else "") + ",".join(map(_decision_json, piece))
    if ends:
        yield "\n]\n" if ordered or after else "]\n"


def decision_pieces(count: int) -> int:
    """How many pieces :func:`decisions_json` gives for *count* decisions.

    >>> [decision_pieces(n) for n in (0, 1, _CHUNK, _CHUNK + 1)]
    [2, 3, 3, 4]
    """
    return 2 + -(-count // _CHUNK)


_CHUNK = 20_000
_ASCII, _TEXT = json.encoder.encode_basestring_ascii, json.encoder.encode_basestring
#: The kinds of decision (every one identity makes), in the order ``identity.json`` lists them: the
#: people's first, which identity makes first, so that the build writes them while it goes on with the
#: rest (:func:`append_decisions`).
KINDS = ("person", "venue", "organization", "work")
_RANK = {kind: rank for rank, kind in enumerate(KINDS)}


def _evidence_key(d: Decision) -> tuple[int, str]:
    """The kind's place in :data:`KINDS`, then the start of :func:`_decision_key` that orders decisions of
    one kind and different evidence (see :func:`decisions_json`).

    >>> a, b = Decision("work", "w:1", True, "r", "abc"), Decision("work", "w:1", True, "r", "abc!")
    >>> sorted([a, b], key=_evidence_key) == sorted([a, b], key=_decision_key) == [b, a]
    True
    """
    return _RANK[d.kind], _ASCII(d.evidence)


def _decision_key(d: Decision) -> str:
    """``json.dumps(d.as_dict(), sort_keys=True)``: the order of ``identity.json``.

    >>> d = Decision("work", "w:1", False, "r", "é", ("a.md",), ("w:2", "w:3"))
    >>> _decision_key(d) == json.dumps(d.as_dict(), sort_keys=True)
    True
    """
    a = _ASCII
    return (f'{{"evidence": {a(d.evidence)}, "kind": {a(d.kind)}, "merged": {"true" if d.merged else "false"}, '
            f'"related": [{", ".join(map(a, d.related))}], "rule": {a(d.rule)}, '
            f'"sources": [{", ".join(map(a, d.sources))}], "subject": {a(d.subject)}}}')


def _decision_json(d: Decision) -> str:
    """One decision as ``json.dumps`` with ``indent=1`` writes its ``as_dict()`` inside a list.

    >>> _decision_json(Decision("venue", "v:x", True, "same", "X", ("a.md", "b.md"))).split("\\n")[1:6]
    [' {', '  "kind": "venue",', '  "subject": "v:x",', '  "related": [],', '  "merged": true,']
    """
    t = _TEXT
    return (f'\n {{\n  "kind": {t(d.kind)},\n  "subject": {t(d.subject)},\n  "related": {_json_list(d.related)},'
            f'\n  "merged": {"true" if d.merged else "false"},\n  "rule": {t(d.rule)},\n  "evidence": {t(d.evidence)},'
            f'\n  "sources": {_json_list(d.sources)}\n }}')


def _json_list(items: tuple[str, ...]) -> str:
    return "[\n   " + ",\n   ".join(map(_TEXT, items)) + "\n  ]" if items else "[]"


#: Where a decision of ``identity.json`` begins and ends (see :func:`_decision_json`): JSON writes every
#: line break inside a string as ``\n``, so these bytes are the layout's own.
_OPEN, _CLOSE, _END = b"\n {\n", b"\n }", b"\n }\n]\n"
#: Needles sharing a start this long are looked for by that start (one search for the namesakes).
_SHARED_START = 12
#: How much of ``identity.json`` is searched at a time.
_BLOCK = 16 * 2**20


def decisions_holding(path: str | Path, needles: Iterable[str]) -> list[dict] | None:
    """The decisions of the ``identity.json`` at *path* whose JSON text holds one of *needles* (each
    decision once, in the file's order), read without the rest of the file: a whole read held five times
    the file's size (``kg explain`` 717 MB at 1,000 CVs, whose file is 143 MB; at 10,000 CVs it is
    1.5 GB). The file is searched a block at a time, so that what it holds is never all in memory. None
    where the file is not laid out as :func:`decisions_json` writes it, or is cut short (a caller then
    reads it whole, and finds out). The caller checks each decision's fields: a needle may be found in a
    text that only holds it.

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "identity.json"
    >>> _ = write_decisions([Decision("person", "p:a", True, "r", "e"), Decision("person", "p:b", False, "r", "f",
    ...                                                                       related=("p:a",))], path)
    >>> [d["subject"] for d in decisions_holding(path, ['"p:a"'])], decisions_holding(path, ['"p:b"'])[0]["merged"]
    (['p:a', 'p:b'], False)
    >>> path.write_text("[]\\n"); decisions_holding(path, ['"p:a"'])
    3
    []
    """
    with open(path, "rb") as file:
        head = file.read(len(_OPEN) + 1)
        if head.rstrip() == b"[]":
            return []
        file.seek(-len(_END), os.SEEK_END)
        if head != b"[" + _OPEN or file.read() != _END:  # not kg's, or cut short
            return None
        texts = dict(_holding(file, needles, _BLOCK))
        try:
            return [json.loads(texts[start]) for start in sorted(texts)]
        except ValueError:
            return None


def _holding(file: BinaryIO, needles: Iterable[str], block: int) -> Iterator[tuple[int, bytes]]:
    """(where it begins, its text from "{" to "}") for each decision of *file* where a needle is found,
    from the block it was found in, or where it crosses the block's border, from the file."""
    for text, base, at in _found(file, needles, block):
        start, end = text.rfind(_OPEN, 0, at), text.find(_CLOSE, at)
        if start == -1 or end == -1:
            start = _around(file, base + at, _OPEN, backwards=True)
            end = _around(file, base + at, _CLOSE)
            file.seek(start)
            yield start, file.read(end + 3 - start)[2:]
        else:
            yield base + start, text[start + 2:end + 3]


def _found(file: BinaryIO, needles: Iterable[str], block: int) -> Iterator[tuple[bytes, int, int]]:
    """(the text searched, where it begins in *file*, where a needle is in it) for each of *needles* in
    *file*, read a *block* at a time: by their shared start where they share :data:`_SHARED_START` bytes
    (the namesakes ``person/jane-doe``, ``person/jane-doe-2``), then checked whole, else each. A block
    keeps the previous one's last bytes, so a needle across the border is found; a place is given where
    the whole longest needle fits in the block, or in the last one.

    >>> import io
    >>> text = io.BytesIO(b'.."ab"..."ab-2"...."ac"..')
    >>> def places(needles): return [base + at for _, base, at in _found(text, needles, block=5)]
    >>> places(['"ab"', '"ab-2"']), places(['"ab"', '"ac"'])
    ([2, 9], [2, 19])
    """
    wanted = [n.encode() for n in needles]
    shared = _shared_start(wanted)
    looked_for = [shared] if len(shared) >= _SHARED_START else wanted
    longest = max(map(len, wanted), default=1)
    kept, base = b"", 0  # the previous block's last bytes, and where the text begins in the file
    while True:
        file.seek(base + len(kept))  # the caller may read elsewhere in the file between two places
        new = file.read(block)
        text, last = kept + new, len(new) < block
        for needle in looked_for:
            at = text.find(needle)
            while at != -1 and (last or at + longest <= len(text)):
                if needle is not shared or any(text.startswith(n, at) for n in wanted):
                    yield text, base, at
                at = text.find(needle, at + 1)
        if last:
            return
        cut = max(0, len(text) - longest + 1)
        kept, base = text[cut:], base + cut


def _around(file: BinaryIO, at: int, mark: bytes, backwards: bool = False) -> int:
    """Where the first *mark* after *at* (with *backwards*, the last before it) begins in *file*."""
    size = 4096
    while True:
        start = max(0, at - size) if backwards else at
        file.seek(start)
        text = file.read(at - start if backwards else size)
        found = text.rfind(mark) if backwards else text.find(mark)
        if found != -1 or (backwards and start == 0) or (not backwards and len(text) < size):
            return start + found
        size *= 4


def _shared_start(needles: list[bytes]) -> bytes:
    """The longest start all *needles* share.

    >>> _shared_start([b'"p/jane-doe"', b'"p/jane-doe-2"', b'"p/jane-dee"'])
    b'"p/jane-d'
    """
    if not needles:
        return b""
    first, last = min(needles), max(needles)
    size = 0
    while size < len(first) and first[size] == last[size]:
        size += 1
    return first[:size]
