"""The curation file: what the documents cannot say, edited by a user.

``data/curation.yaml`` holds when each document was written (to decide which source
is newer), people who are the same or not the same despite their names, and name
aliases. It is validated on load: an unknown key or a malformed value is a
:class:`~kg.errors.UserError` naming the file and line.

>>> c = Curation.from_text("people:\\n  aliases:\\n    Jane Doe: [J. Doe]\\n", "c.yaml")
>>> c.person_key("J. Doe") == c.person_key("Jane Doe")
True
>>> Curation.from_text("peple: {}\\n", "c.yaml")
Traceback (most recent call last):
...
kg.errors.UserError: c.yaml:1: unknown key 'peple' (known: corrections, documents, organizations, people)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from kg.errors import UserError
from kg.identity.keys import person_key, title_key
from kg.identity.work_fixes import WorkFix

CURATION_FILE = "curation.yaml"
#: Larger than any hand-written curation file; a larger one is refused before it is parsed.
MAX_CURATION_BYTES = 1 << 20
_TOP = {"documents", "people", "organizations", "corrections"}
_CORRECTION_KEYS = {"works": {"title", "year", "status", "document", "authors", "venue"},
                    "people": {"name", "email", "homepage", "orcid"}}
# Corrections of a work's record itself (applied to the document's records before identity).
_RECORD_FIELDS = {"document", "authors", "venue"}
_ORGANIZATION_KEYS = {"aliases"}
_DOCUMENT_KEYS = {"date"}
_PEOPLE_KEYS = {"same_as", "not_same_as", "aliases", "split"}
_SPLIT_KEYS = {"name", "as"}
_SPLIT_AS_KEYS = {"label", "works"}
_ORCID = re.compile(r"(?:https?://(?:www\.)?orcid\.org/)?\d{4}-\d{4}-\d{4}-\d{3}[\dX]/?", re.I)
_LINK = re.compile(r"(?:https?://|www\.)\S", re.I)


@dataclass
class Curation:
    """Parsed curation file; every value remembers the line it came from."""

    path: str = ""
    document_dates: dict[str, str] = field(default_factory=dict)
    same_as: list[tuple[str, str]] = field(default_factory=list)
    not_same_as: list[tuple[str, str]] = field(default_factory=list)
    aliases: dict[str, str] = field(default_factory=dict)  # variant -> canonical name
    # printed name -> [(label, [work titles])]: one printed name that is several people
    splits: dict[str, list[tuple[str, list[str]]]] = field(default_factory=dict)
    organization_aliases: dict[str, str] = field(default_factory=dict)  # variant -> canonical name
    # corrections: {"works": [{"title": ..., "year": ...}], "people": [{"name": ..., "orcid": ...}]}
    corrections: dict[str, list[dict]] = field(default_factory=dict)
    # corrections of works that give authors or venue, or name a document: applied to the records
    work_fixes: list[WorkFix] = field(default_factory=list)
    lines: dict[tuple, int] = field(default_factory=dict)
    _alias_keys: dict | None = field(default=None, repr=False)

    @classmethod
    def load(cls, path: str | Path) -> Curation:
        path = Path(path)
        if not path.exists():
            return cls(str(path))
        try:
            if path.stat().st_size > MAX_CURATION_BYTES:
                raise UserError(f"{path}: over {MAX_CURATION_BYTES // 1024} kB, too large for a curation file")
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise UserError(f"{path}: not UTF-8 text; save the curation file as UTF-8") from None
        except OSError as err:
            raise UserError(f"{path}: cannot read the curation file ({err.strerror or err}); "
                            "check its permissions") from None
        return cls.from_text(text, str(path))

    @classmethod
    def from_text(cls, text: str, path: str) -> Curation:
        try:
            _refuse_aliases(text, path)
            root = yaml.compose(text, Loader=yaml.SafeLoader)
        except yaml.YAMLError as err:
            mark = getattr(err, "problem_mark", None)
            line = mark.line + 1 if mark else 1
            raise UserError(f"{path}:{line}: not valid YAML ({getattr(err, 'problem', err)}); fix the syntax") from None
        cur = cls(path)
        if root is None:
            return cur
        readers = {"corrections": cur._read_corrections_section, "organizations": cur._read_organizations,
                   "documents": cur._read_documents, "people": cur._read_people}
        for key, value in _known_keys(root, path, "the curation file", _TOP, ""):
            readers[key.value](value, path)
        return cur

    def _read_corrections_section(self, node, path: str) -> None:
        for k, v in _known_keys(node, path, "corrections", _CORRECTION_KEYS, " under 'corrections'"):
            self._read_corrections(k.value, v, path)

    def _read_organizations(self, node, path: str) -> None:
        for _, v in _known_keys(node, path, "organizations", _ORGANIZATION_KEYS, " under 'organizations'"):
            for canon, variants in _mapping(v, path, "organization aliases"):
                for variant in _sequence(variants, path, f"aliases of {canon.value!r}"):
                    self.organization_aliases[_text(variant, path)] = _text(canon, path)

    def _read_documents(self, node, path: str) -> None:
        for doc, entry in _mapping(node, path, "documents"):
            for _, v in _known_keys(entry, path, f"documents: {doc.value}", _DOCUMENT_KEYS,
                                    f" under document {doc.value!r}"):
                date = _text(v, path)
                if not re.fullmatch(r"(?:19|20)\d\d(?:-[01]\d(?:-[0-3]\d)?)?", date):
                    raise UserError(f"{path}:{v.start_mark.line + 1}: date {date!r} is not YYYY, "
                                    "YYYY-MM or YYYY-MM-DD")
                self.document_dates[doc.value] = date
                self.lines[("document", doc.value)] = doc.start_mark.line + 1

    def _read_people(self, node, path: str) -> None:
        for k, v in _known_keys(node, path, "people", _PEOPLE_KEYS, " under 'people'"):
            if k.value == "split":
                for entry in _sequence(v, path, "split"):
                    self._read_split(entry, path)
            elif k.value == "aliases":
                for canon, variants in _mapping(v, path, "aliases"):
                    for variant in _sequence(variants, path, f"aliases of {canon.value!r}"):
                        self.aliases[_text(variant, path)] = _text(canon, path)
                        self.lines[("name", _text(variant, path))] = variant.start_mark.line + 1
                    self.lines[("name", _text(canon, path))] = canon.start_mark.line + 1
            else:
                self._read_pairs(k.value, v, path)

    def _read_pairs(self, kind: str, node, path: str) -> None:
        """``same_as`` or ``not_same_as``: pairs of names."""
        for pair in _sequence(node, path, kind):
            names = _sequence(pair, path, f"an entry of {kind}")
            if len(names) != 2:
                raise UserError(f"{path}:{pair.start_mark.line + 1}: {kind} entries are pairs "
                                "of names, such as [Jane Doe, J. Doe]")
            getattr(self, kind).append(tuple(_text(n, path) for n in names))
            for n in names:
                self.lines[("name", _text(n, path))] = n.start_mark.line + 1

    def _read_split(self, entry, path: str) -> None:
        fields = {k.value: v for k, v in _known_keys(entry, path, "a split entry", _SPLIT_KEYS, " in a split entry")}
        if set(fields) != _SPLIT_KEYS:
            raise UserError(f"{path}:{entry.start_mark.line + 1}: a split entry needs 'name' (the printed name) "
                            "and 'as' (a list of {label, works})")
        name = _text(fields["name"], path)
        people = []
        for person in _sequence(fields["as"], path, f"'as' of split {name!r}"):
            got = {k.value: v for k, v in _known_keys(person, path, "a person of a split", _SPLIT_AS_KEYS, "")}
            if set(got) != _SPLIT_AS_KEYS:
                raise UserError(f"{path}:{person.start_mark.line + 1}: each person of a split needs a 'label' "
                                "and the 'works' (titles) printed with their name")
            titles = [_text(t, path) for t in _sequence(got["works"], path, "works")]
            people.append((_text(got["label"], path), titles))
            for t in _sequence(got["works"], path, "works"):
                self.lines[("work", _text(t, path))] = t.start_mark.line + 1
        self.splits[name] = people
        self.lines[("name", name)] = fields["name"].start_mark.line + 1

    def _read_corrections(self, kind: str, node, path: str) -> None:
        allowed = _CORRECTION_KEYS[kind]
        anchor = "title" if kind == "works" else "name"
        for entry in _sequence(node, path, f"corrections of {kind}"):
            fields = {}
            authors = None
            for k, v in _mapping(entry, path, f"a correction of {kind}"):
                if k.value not in allowed:
                    raise UserError(f"{path}:{k.start_mark.line + 1}: unknown key {k.value!r} in a correction of "
                                    f"{kind} (known: {', '.join(sorted(allowed))})")
                if k.value == "authors":
                    authors = [_text(a, path) for a in _sequence(v, path, "authors")]
                    fields["authors"] = ", ".join(authors)
                else:
                    fields[k.value] = _text(v, path)
            if anchor not in fields or len(fields) < 2:
                raise UserError(f"{path}:{entry.start_mark.line + 1}: a correction of {kind} needs '{anchor}' and "
                                "at least one value to set")
            if kind == "works" and "year" in fields and not re.fullmatch(r"(?:19|20)\d\d", fields["year"]):
                raise UserError(f"{path}:{entry.start_mark.line + 1}: year {fields['year']!r} is not YYYY")
            if kind == "works" and fields.get("status", "published") not in ("published", "preprint", "under review"):
                raise UserError(f"{path}:{entry.start_mark.line + 1}: "
                                "status must be published, preprint or under review")
            if kind == "people" and "orcid" in fields and not _ORCID.fullmatch(fields["orcid"].strip()):
                raise UserError(f"{path}:{entry.start_mark.line + 1}: orcid {fields['orcid'][:40]!r} is not an "
                                "ORCID iD such as 0000-0002-1825-0097")
            if kind == "people" and "homepage" in fields and not _LINK.match(fields["homepage"].strip()):
                raise UserError(f"{path}:{entry.start_mark.line + 1}: homepage {fields['homepage'][:40]!r} is not "
                                "a link such as https://example.org/")
            fields["line"] = str(entry.start_mark.line + 1)
            if kind == "works" and _RECORD_FIELDS & set(fields):
                if "document" not in fields:
                    raise UserError(f"{path}:{entry.start_mark.line + 1}: a correction that gives a work's authors "
                                    "or venue names its 'document' (as the build summary prints it)")
                self.work_fixes.append(WorkFix(fields["document"], fields["title"], authors, fields.get("venue"),
                                               fields.get("year"), entry.start_mark.line + 1))
                fields = {k: v for k, v in fields.items() if k not in _RECORD_FIELDS}
                if len(fields) <= 2:  # only title and line left: nothing for the merged graph to outrank
                    continue
            self.corrections.setdefault(kind, []).append(fields)
            self.lines[("work" if kind == "works" else "name", fields[anchor])] = entry.start_mark.line + 1

    def split_label(self, name: str, work_title: str) -> str | None:
        """The label of the person a split name stands for on the work titled *work_title*."""
        for printed, people in self.splits.items():
            if person_key(printed) == person_key(name):
                for label, titles in people:
                    if any(title_key(t) == title_key(work_title) for t in titles):
                        return label
        return None

    # same_as and not_same_as name a person as printed anywhere ("Wei Wang") or in one document
    # ("Wei Wang @ group.bib"), to settle a pair that ``kg conflicts --people`` lists as possibly the same.

    def person_key(self, name: str) -> tuple | None:
        """The identity key of *name*, following aliases; None where no alias applies."""
        if self._alias_keys is None:  # built once: this runs for every name in every document
            self._alias_keys = {}
            for variant, canon in self.aliases.items():
                self._alias_keys[person_key(variant)] = self._alias_keys[person_key(canon)] = person_key(canon)
        return self._alias_keys.get(person_key(name))

    def mention_key(self, name: str, work_title: str | None = None) -> tuple:
        """The identity key of one printed name (on the work titled *work_title*): a split's label
        or an alias first, else :func:`~kg.identity.keys.person_key`."""
        label = self.split_label(name, work_title) if work_title else None
        if label:
            return ("@", label)
        return self.person_key(name) or person_key(name)

    def names(self) -> list[tuple[str, int]]:
        """Every person name the file mentions, with its line (to check that each matches someone)."""
        return sorted((k[1], line) for k, line in self.lines.items() if k[0] == "name")

    def titles(self) -> list[tuple[str, int]]:
        """Every work title the file mentions, with its line."""
        return sorted((k[1], line) for k, line in self.lines.items() if k[0] == "work")

    def check_against(self, person_keys: set, title_keys: set) -> list[str]:
        """Errors for names and titles in the file that match nothing in the documents."""
        errors = [f"{self.path}:{line}: no document names {name!r}; check the spelling or remove it"
                  for name, line in self.names() if person_key(name.partition(" @ ")[0]) not in person_keys]
        errors += [f"{self.path}:{line}: no document lists a work titled {title!r}; check the title"
                   for title, line in self.titles() if title_key(title) not in title_keys]
        return errors

    def unknown_documents(self, known: set[str]) -> list[str]:
        return [f"{self.path}:{self.lines[('document', d)]}: document {d!r} is not in the data folder; "
                "fix the file name or remove the entry" for d in sorted(self.document_dates) if d not in known]


def _refuse_aliases(text: str, path: str) -> None:
    """Refuse anchors and aliases (``&a``, ``*a``): a few of them make a file of bytes grow to gigabytes."""
    for event in yaml.parse(text, Loader=yaml.SafeLoader):
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
            raise UserError(f"{path}:{event.start_mark.line + 1}: YAML anchors and aliases (&name, *name) are not "
                            "allowed in the curation file; write each value out")


def _text(node, path: str) -> str:
    """The text of a scalar node; a list or mapping where one value belongs is refused with its line."""
    if not isinstance(node, yaml.ScalarNode):
        kind = "a list" if isinstance(node, yaml.SequenceNode) else "a mapping"
        raise UserError(f"{path}:{node.start_mark.line + 1}: expected a single value (a name, a title, a date), "
                        f"found {kind}")
    return str(node.value)


def _mapping(node, path: str, what: str):
    if not isinstance(node, yaml.MappingNode):
        raise UserError(f"{path}:{node.start_mark.line + 1}: {what} must be a mapping of keys to values")
    for key, _ in node.value:
        _text(key, path)  # a key that is a list or a mapping is refused here, with its line
    return node.value


def _known_keys(node, path: str, what: str, known: set[str], where: str):
    """The (key, value) nodes of a mapping, refusing a key not in *known* with its line."""
    pairs = _mapping(node, path, what)
    for key, _ in pairs:
        if key.value not in known:
            raise UserError(f"{path}:{key.start_mark.line + 1}: unknown key {key.value!r}{where} "
                            f"(known: {', '.join(sorted(known))})")
    return pairs


def _sequence(node, path: str, what: str):
    if not isinstance(node, yaml.SequenceNode):
        raise UserError(f"{path}:{node.start_mark.line + 1}: {what} must be a list")
    return node.value
