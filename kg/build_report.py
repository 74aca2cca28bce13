"""What a build read, wrote and skipped: the report :func:`kg.build.build_graph` returns and
``kg build`` prints."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kg.records import Document, Skip


@dataclass
class DocumentReport:
    """What one document gave the graph, and how much of it was passed over."""

    path: str
    works: int = 0
    people: int = 0
    skipped: int = 0

    def line(self) -> str:
        return f"  {self.path}: {self.works} works, {self.people} people, {self.skipped} skipped"


@dataclass
class BuildReport:
    """What a build read, wrote and skipped."""

    documents: int = 0
    people: int = 0
    profiled: int = 0
    works: int = 0
    organizations: int = 0
    venues: int = 0
    triples: int = 0
    skipped: list[Skip] = field(default_factory=list)
    written: list[str] = field(default_factory=list)
    conforms: bool | None = None
    violations: list[str] = field(default_factory=list)
    validation: str = ""  # what the validation ran (everything, or a sample, plus the property constraints)
    per_document: list[DocumentReport] = field(default_factory=list)
    stages: list[tuple[str, float]] = field(default_factory=list)  # (stage, seconds), see Stopwatch
    page: str = ""  # what graph.html leaves out of a big graph (its note), where it leaves anything out

    def timings(self) -> str:
        """The seconds each stage took, a line each (stages after the first half overlap: see
        ``docs/architecture.md``; ``docs/scale.md`` reads them at 1,000 and 10,000 CVs)."""
        return "\n".join(f"  {name}: {seconds:.2f} s" for name, seconds in self.stages)

    def summary(self) -> str:
        lines = [
            f"read {self.documents} documents: {self.people} people ({self.profiled} profiled), {self.works} works, "
            f"{self.organizations} organizations, {self.venues} venues, {self.triples} triples",
            *(d.line() for d in self.per_document),
            "wrote " + ", ".join(self.written),
        ]
        if self.page:
            lines.append(f"graph.html: {self.page}")
        if self.conforms is not None:
            lines.append("validation: " + ("conforms to shapes.ttl" if self.conforms
                                           else f"{len(self.violations)} violations of shapes.ttl (run `kg validate`)"))
            if self.validation:
                lines.append(f"  checked with {self.validation}")
        lines.append(f"skipped: {len(self.skipped)}" + ("" if self.skipped else " (nothing)"))
        lines += [f"  {s}" for s in self.skipped]
        return "\n".join(lines)


def ownerless_skip(doc: Document) -> Skip | None:
    """A document without an owner gives its works; facts about an owner (positions, awards...) it cannot."""
    from kg.records import Skip, Span, Work

    kinds = Counter(type(f).__name__ for f in doc.facts if not isinstance(f, Work))
    if doc.subject is not None or not kinds:
        return None
    what = ", ".join(f"{n} {k}" for k, n in sorted(kinds.items()))
    return Skip(Span(doc.path, 1, 1), f"no owner's name found, so {what} records are not attributed to anyone "
                                      "(its works are); put the owner's name on the first line if it has one")


def skips_of(doc: Document) -> list[Skip]:
    """What the reader (and the mapping, for links it could not repair) left out of *doc*."""
    ownerless = ownerless_skip(doc)
    return doc.skipped + ([ownerless] if ownerless is not None else [])


def scrubbed(skips: list[Skip]) -> list[Skip]:
    """*skips* with the phone numbers and street addresses their reasons quote left out
    (:func:`kg.privacy.scrub`): the report is an output too, and a reason may quote the line.

    >>> from kg.records import Skip, Span
    >>> [s.reason for s in scrubbed([Skip(Span("cv.md", 3, 3), "header line 'P.O. Box 4711, Springfield' is neither")])]
    ["header line ', Springfield' is neither"]
    """
    from dataclasses import replace

    from kg.privacy import scrub

    return [s if (reason := scrub(s.reason)) == s.reason else replace(s, reason=reason) for s in skips]
