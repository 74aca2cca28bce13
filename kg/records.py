"""Plain records that readers yield: what a document says, with where it says it.

Records know nothing of RDF or of identity. Names are kept twice: as printed
(decoration included) and cleaned. Dates are ISO strings of varying precision:
``"2024"``, ``"2024-06"`` or ``"2024-06-16"``. Every record is slotted: a build holds every
document's records until each is mapped, and without a ``__dict__`` they take a third less memory.

>>> span = Span("cv.md", 3, 4)
>>> str(span)
'cv.md:3-4'
>>> Author(printed="**Jane Doe\\\\***", name="Jane Doe", equal_contribution=True).name
'Jane Doe'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields, is_dataclass
from operator import attrgetter


@dataclass(frozen=True, slots=True)
class Span:
    """Where a record came from: a document, a 1-based inclusive line range, and, where
    lines mean little (a JSON path, a BibTeX key, a PDF page), a ``place`` that says more.

    >>> str(Span("refs.bib", 12, 20, place="@article{doe2020}"))
    'refs.bib:12-20 (@article{doe2020})'
    """

    document: str
    first_line: int
    last_line: int
    place: str | None = None

    def __str__(self) -> str:
        lines = str(self.first_line) if self.first_line == self.last_line else f"{self.first_line}-{self.last_line}"
        return f"{self.document}:{lines}" + (f" ({self.place})" if self.place else "")


@dataclass(frozen=True, slots=True)
class Period:
    """A start and end date; ``ongoing`` where the document says "Present" or "Now"."""

    start: str | None = None
    end: str | None = None
    ongoing: bool = False


@dataclass(frozen=True, slots=True)
class OrgRef:
    """An organization as printed: a unit may sit inside a parent (``"Robotics Lab"`` in ``"MIT"``)."""

    name: str
    parent: OrgRef | None = None
    location: str | None = None
    country: str | None = None


@dataclass(frozen=True, slots=True)
class Author:
    """One entry of a printed author list.

    A name printed as it reads is one string for both fields:

    >>> a = Author("Jane Doe", " ".join(["Jane", "Doe"]))  # two equal strings, two objects
    >>> a.printed is a.name, Author("Doe, Jane*", "Jane Doe").printed
    (True, 'Doe, Jane*')
    """

    printed: str
    name: str
    equal_contribution: bool = False
    et_al_follows: bool = False

    def __post_init__(self) -> None:
        # Nearly every name is printed as it reads: one string for both (a second took 15 MiB of the
        # 90 MiB of 1,000 CVs' documents, and as much again in each copy sent between processes).
        if self.printed == self.name and self.printed is not self.name:
            object.__setattr__(self, "printed", self.name)


@dataclass(frozen=True, slots=True)
class VenueRef:
    """A venue as printed: a full name, an acronym, or both."""

    name: str | None = None
    acronym: str | None = None


@dataclass(slots=True)
class Profile:
    """The person a document is about, and how to reach them."""

    name: str
    span: Span
    emails: list[str] = field(default_factory=list)
    homepages: list[str] = field(default_factory=list)
    orcid: str | None = None
    telephones: list[str] = field(default_factory=list)
    street_addresses: list[str] = field(default_factory=list)
    affiliations: list[OrgRef] = field(default_factory=list)
    biography: str | None = None


@dataclass(slots=True)
class Work:
    """A publication, preprint, paper under review or thesis.

    ``authors`` is the printed list in order; where a document gives only the
    subject's role ("First author"), ``subject_ordinal`` carries it instead.

    Works without keywords (or recognitions, supervisors, editors) share one empty tuple:

    >>> a, b = Work("A", Span("cv.md", 1, 1), keywords=[]), Work("B", Span("cv.md", 2, 2))
    >>> a.keywords is b.keywords, Work("C", Span("cv.md", 3, 3), keywords=["loom"]).keywords
    (True, ['loom'])
    """

    title: str
    span: Span
    authors: list[Author] = field(default_factory=list)
    kind: str = "article"  # article | thesis | book | chapter | report | other
    status: str = "published"  # published | preprint | under review
    venue: VenueRef | None = None
    year: str | None = None
    subject_ordinal: int | None = None
    subject_equal_contribution: bool = False
    # Rarely given: where none are, the field is the one empty tuple every work shares (four empty
    # lists took 220 bytes a work, 120 MiB of the documents of 10,000 CVs)
    recognitions: Sequence[str] = ()
    abstract: str | None = None
    keywords: Sequence[str] = ()
    supervisors: Sequence[str] = ()
    institution: OrgRef | None = None
    editors: Sequence[str] = ()
    doi: str | None = None
    url: str | None = None
    # The document gives no author list (an ORCID work summary): the owner is an author at an unknown place.
    authors_not_listed: bool = False

    def __post_init__(self) -> None:
        if not self.recognitions:
            self.recognitions = ()
        if not self.keywords:
            self.keywords = ()
        if not self.supervisors:
            self.supervisors = ()
        if not self.editors:
            self.editors = ()

    @property
    def et_al(self) -> bool:
        """The printed author list is cut short ("et al.", "and others", "...")."""
        return any(a.et_al_follows for a in self.authors)


@dataclass(slots=True)
class Position:
    """A role held at an organization: kind is job, internship, visit, fellowship or teaching."""

    role: str | None
    organization: OrgRef | None
    period: Period
    span: Span
    kind: str = "job"
    location: str | None = None
    description: list[str] = field(default_factory=list)
    courses: list[str] = field(default_factory=list)
    homepage: str | None = None


@dataclass(slots=True)
class Education:
    """A period of study for a degree."""

    degree: str | None
    institution: OrgRef | None
    period: Period
    span: Span
    level: str | None = None  # bachelor | master | doctorate
    field_of_study: str | None = None
    grade: str | None = None
    thesis_title: str | None = None
    supervisors: list[str] = field(default_factory=list)
    location: str | None = None


@dataclass(slots=True)
class Award:
    title: str
    span: Span
    year: str | None = None
    prize: str | None = None


@dataclass(slots=True)
class Talk:
    title: str
    span: Span
    place: str | None = None
    date: str | None = None


@dataclass(slots=True)
class ServiceRole:
    role: str
    span: Span
    venue: VenueRef | None = None
    year: str | None = None
    event: str | None = None


@dataclass(slots=True)
class Project:
    name: str
    span: Span
    period: Period = Period()
    description: list[str] = field(default_factory=list)
    funding: str | None = None
    homepage: str | None = None


@dataclass(slots=True)
class Skill:
    name: str
    span: Span
    level: int | None = None
    level_out_of: int | None = None
    detail: str | None = None


@dataclass(slots=True)
class Interest:
    name: str
    span: Span


@dataclass(frozen=True, slots=True)
class Skip:
    """Something a reader could not use, and why; the build reports every one.

    ``partial`` is what could be read of an entry that is not a whole work (a title without
    authors): the curation file's ``works`` section can complete it.
    """

    span: Span
    reason: str
    partial: Work | None = field(default=None, compare=False, hash=False, repr=False)

    def __str__(self) -> str:
        return f"{self.span}: {self.reason}"


Fact = Work | Position | Education | Award | Talk | ServiceRole | Project | Skill | Interest


@dataclass(slots=True)
class Document:
    """Everything one reader got out of one source document."""

    path: str
    format: str
    sha256: str
    subject: Profile | None
    facts: list[Fact] = field(default_factory=list)
    skipped: list[Skip] = field(default_factory=list)
    latest_date: str | None = None

    def of_type(self, kind: type) -> list:
        """The facts of one record type, in document order."""
        return [f for f in self.facts if isinstance(f, kind)]


def _sent_by_fields(cls: type) -> None:
    """Pickle *cls* as its constructor and its field values in order. A slotted dataclass's own
    pickling calls ``dataclasses.fields`` for every object, both ways: the documents of 1,000 CVs,
    sent from the reading processes, took 1.45 s to pickle and 0.90 s to unpickle, against 0.67 s and
    0.42 s (and 17 MB, not 21) this way."""
    names = [f.name for f in fields(cls)]
    values = attrgetter(*names) if len(names) > 1 else (lambda record: (getattr(record, names[0]),))

    def reduce(record: object) -> tuple:
        return type(record), values(record)

    setattr(cls, "__reduce__", reduce)  # noqa: B010 (mypy refuses the assignment to a method)


for _record in list(globals().values()):
    if isinstance(_record, type) and is_dataclass(_record) and _record.__module__ == __name__:
        _sent_by_fields(_record)
