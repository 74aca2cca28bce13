"""Reader for CVs in markdown (with HTML fragments and tables) or plain text.

The two differ only in markup, which :mod:`kg.sources.layout` removes; both yield
the same records. ``format`` is ``"markdown-cv"`` where the text carries markup.
"""

from __future__ import annotations

import re
from functools import cache

from kg.privacy import STREET_ENDINGS
from kg.records import OrgRef, Profile, Span, Work
from kg.sources import sections as S
from kg.sources.layout import Section, split_sections
from kg.sources.publications import guess_owner, reads_as_publications
from kg.sources.text import clean_person_name, links_in, looks_like_person_name, strip_markup
from kg.words import alternation, word_list

EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
PHONE = re.compile(r"^\+?[\d\s().-]{7,}$")
#: An address's word (kg/words: street-types, street-types-before-name and its with-postcode list,
#: street-types-after-number, address-words; "ul." ends in its dot), a street's word at the end of a
#: word before a number ("Kerkstraat 12"), a UK postcode or a number of five or six digits (a
#: postcode): with a digit, a header line that has one is an address.
_ADDRESS_WORDS = (word_list("street-types") + word_list("street-types-before-name")
                  + word_list("street-types-before-name-with-postcode")
                  + word_list("street-types-after-number") + word_list("address-words"))
STREET = re.compile(rf"\b(?:{alternation(_ADDRESS_WORDS)})(?!\w)|(?:{STREET_ENDINGS})\.?\s+\d"
                    r"|\b[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}\b|\b\d{5,6}\b", re.I)
MARKUP = re.compile(r"^#{1,6}\s|\*\*|\]\(|^\|.*\|$", re.M)
_CONTACT_LABEL = re.compile(r"^(E-?mail|Email|Tel\.?|Phone|Mobile|Homepage|Web(?:site)?|ORCID|Address)\s*:?\s*", re.I)

PARSERS = {
    "experience": S.parse_career, "education": S.parse_career, "teaching": S.parse_career,
    "publications": S.parse_publications, "awards": S.parse_awards, "service": S.parse_service,
    "talks": S.parse_talks, "interests": S.parse_interests, "skills": S.parse_skills,
    "projects": S.parse_projects,
}


def looks_like_cv(text: str, sections: list[Section] | None = None) -> bool:
    """A CV names at least two sections we know (Education, Publications, ...); a publication
    list, such as a homepage's, has a publications section. *sections*: ``split_sections(text)``
    where the caller has it already."""
    kinds = [s.kind for s in (split_sections(text) if sections is None else sections)]
    return sum(k in PARSERS or k == "summary" for k in kinds) >= 2 or "publications" in kinds


def read_cv(text: str, document: str, ctx: S.Context, first: str = "header",
            sections: list[Section] | None = None) -> tuple[Profile | None, list, str]:
    """The profile and facts of a CV; skips go to ``ctx``. Returns (profile, facts, format).

    *first* is the kind of the text before the first heading: a CV's header (its owner), or
    ``"publications"`` for a page that is only a publication list. *sections*:
    ``split_sections(text, first)`` where the caller has it already (readers never change it).
    """
    sections = split_sections(text, first) if sections is None else sections
    profile = _read_header(sections[0], document, ctx) if first == "header" else None
    ctx.owner = profile.name if profile else None
    facts: list = []
    for section in sections[int(first == "header"):]:
        if section.kind == "unknown" and section.items and reads_as_publications(section, document):
            facts += S.parse_publications(section, ctx)
        elif section.kind == "summary":
            bio, interests = S.parse_summary(section, ctx)
            if profile and bio:
                profile.biography = bio
            facts += interests
        elif section.kind in PARSERS:
            facts += PARSERS[section.kind](section, ctx)
        elif section.items:
            ctx.skip(section.items, f"section {section.title!r} is not one kg reads "
                                    f"(known: {', '.join(sorted(set(PARSERS) | {'summary'}))})")
    fmt = "markdown-cv" if MARKUP.search(text) else "text-cv"
    if profile is None:
        owner = guess_owner([f for f in facts if isinstance(f, Work)])
        if owner:
            profile = Profile(name=owner, span=Span(document, 1, 1))
    return profile, facts, fmt


@cache
def _cv_title() -> re.Pattern:
    """The words that title a CV before or after its owner's name ("Curriculum Vitae - ", "'s CV")."""
    words = alternation(word_list("cv-title-words"))
    return re.compile(rf"^(?:{words})\s*(?:[-:–|,]|of)\s*|\s*[-:–|,]\s*(?:{words})$|['’]s\s+(?:{words})$", re.I)


def _owner_name(raw: str) -> str:
    """``"# Jane Doe's CV"``, ``"Curriculum Vitae - Jane Doe"`` -> ``"Jane Doe"``."""
    text = strip_markup(re.sub(r"^#+\s*", "", raw))
    return clean_person_name(_cv_title().sub("", text))


def _read_header(section, document: str, ctx: S.Context) -> Profile | None:
    """The owner and their contact details and affiliation, from the lines before the first section."""
    items = list(section.items)
    if not items:
        return None
    # The owner's name: the first line, or a top-level heading that names a person further down.
    named = next((i for i in items if re.match(r"^#\s", i.raw) and looks_like_person_name(_owner_name(i.raw))), None)
    name_item = named or items[0]
    items.remove(name_item)
    name = _owner_name(name_item.raw)
    if not looks_like_person_name(name):
        ctx.skip([name_item], f"first line {name!r} does not look like the CV owner's name")
        return None
    profile = Profile(name=name, span=Span(document, name_item.line, name_item.line))
    affiliation_lines: list[str] = []
    for item in items:
        for part in re.split(r"\s+\|\s+|\s*•\s*|\s+\u2022\s+", item.raw):
            _read_header_part(part, item, profile, affiliation_lines, ctx)
    if affiliation_lines:  # "Department", then "University": each line a unit of the one after it
        ref = None
        for line in reversed(affiliation_lines):
            ref = OrgRef(line, ref)
        profile.affiliations.append(ref)
    return profile


def _read_header_part(part: str, item, profile: Profile, affiliation_lines: list[str], ctx: S.Context) -> None:
    """One piece of a header line: emails, links, a telephone, an address or a line of the affiliation."""
    text = strip_markup(part).strip(" |")
    label = _CONTACT_LABEL.match(text)
    key = label.group(1).lower() if label else ""
    value = text[label.end():] if label else text
    if value and EMAIL.search(value) and key not in ("homepage", "website", "web"):
        profile.emails += [e for e in EMAIL.findall(value) if e not in profile.emails]
        value = EMAIL.sub("", value).strip(" @,;")
    if not value:
        return
    urls = links_in(part) or re.findall(r"https?://\S+", value)
    for url in urls:
        if "orcid.org" in url:
            profile.orcid = url
        elif url not in profile.homepages:
            profile.homepages.append(url)
    if urls:
        return
    if key.startswith(("tel", "phone", "mobile")) or "\U0001F4DE" in part or PHONE.match(value):
        profile.telephones.append(value)
    elif key == "address" or "\U0001F4CD" in part or (re.search(r"\d", value) and STREET.search(value)):
        profile.street_addresses.append(value)
    elif S.ORG_WORDS.search(value) or re.search(r"\b[A-Z]{2,}\b", value):
        affiliation_lines.append(value)
    else:
        ctx.skip([item], f"header line {value!r} is neither contact detail nor affiliation")
