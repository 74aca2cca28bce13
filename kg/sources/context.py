"""Where a section parser is and where it reports what it could not read."""

from __future__ import annotations

from dataclasses import dataclass, field

from kg.records import Skip, Span, Work
from kg.sources.layout import Item


@dataclass
class Context:
    """What a section parser needs besides its items: where it is, and where to report skips."""

    document: str
    skipped: list[Skip] = field(default_factory=list)
    owner: str | None = None  # the document's owner, where known: "first author with X" places them

    def span(self, items: list[Item]) -> Span:
        lines = [i.line for i in items] or [0]
        return Span(self.document, min(lines), max(lines))

    def skip(self, items: list[Item], reason: str, partial: Work | None = None) -> None:
        self.skipped.append(Skip(self.span(items), reason, partial))


