"""What follows a publication entry's title and authors: its venue, year, status, editors and kind.

:func:`kg.sources.reference.parse_reference` labels the title and the authors; :func:`read_rest`
reads the blocks left after them into the same ``ref`` (a :class:`kg.sources.reference.Reference`;
not imported here, since that module imports this one).
"""

from __future__ import annotations

import re

from kg.records import VenueRef
from kg.sources.authors import AND, name_score, split_author_list
from kg.sources.reference_blocks import Block
from kg.sources.text import MONTH, years_in
from kg.sources.venue import PREPRINT_SERVER, VENUE_TAG, find_status, parse_venue, strip_status, venue_name_end
from kg.words import word_list

THESIS = re.compile(r"\b(?:dissertation|ph\.?\s?d\.?\s+thesis|doctoral thesis|master'?s thesis|m\.?sc?\.? thesis|"
                    r"habilitation)\b", re.I)
CHAPTER = re.compile(r"^(?:chapter|book chapter)\s+in\b|^in:?\s+.*\((?:eds?|hrsg|dir)\.?\)", re.I)


def _editor_re() -> re.Pattern:
    marks = sorted(word_list("editor-marks"), key=len, reverse=True)
    alt = "|".join(re.escape(m.rstrip(".")) for m in marks)
    return re.compile(rf"(?:^|[\s,(])(?:{alt})\.?(?=$|[\s,):])", re.I)


EDITOR = _editor_re()  # an editor mark: "Ed.", "eds", "Hrsg." (kg/words/editor-marks.txt)
# "(Eds.)", "(Hrsg.)", or ", editors," after the names ("In C. B. Jones and R. Shaw, editors, Proc. ...")
_EDITOR_MARK = re.compile(r"\((?:eds?|hrsg|dir|éds?)\.?\)|,\s*editors?(?=\s*,)", re.I)
_AND = re.compile(rf"\s+{AND}\s+|\s*&\s*")
_AND_START = re.compile(rf"^(?:{AND}\s+|&\s*)")
# where and when a meeting was, after its name: "Conference, Portland, OR, April", "..., Albuquerque, NM,
# November 1991" (the year is read before), "MIT Press, Cambridge, MA"
_PLACE_AND_MONTH = re.compile(rf"(?:,\s*[A-Z][a-z]+(?:\s[A-Z][a-z]+){{0,2}},\s*[A-Z]{{2}})?"
                              rf"(?:,\s*{MONTH}\.?(?:\s+\d{{1,2}}(?:\s*[-–]\s*\d{{1,2}})?)?)?[\s,.]*$")
_PLACE_TAIL = 120
_EDITORS_LINE = re.compile(r"^(?:ed|eds|edited by|hrsg|trans|translated by)\b", re.I)
# "Trans." then an abbreviated word, not a translator's name: a journal's "Transactions" ("Trans. Amer. Math. Soc.")
_TRANSACTIONS = re.compile(r"^trans\.\s+[A-Z][a-z]+\.", re.I)
_EDITORS_AFTER_MARK = re.compile(r"\b(?:eds?|hrsg)\.\s+((?:[A-Z][\w.\-]*\s*)+)")
_BRACKETED = re.compile(r"\[[^\]]+\]")
_IN = re.compile(r"^in:?\s+", re.I)
_CHAPTER_IN = re.compile(r"^(?:chapter|book chapter)\s+in\s+", re.I)
_YEAR_PAREN_THEN_PROSE = re.compile(r"\([^()]*(?:['’]\d\d|(?:19|20)\d\d)\)\s+(?=[A-Z])")
_SHORT_YEAR_PAREN = re.compile(r"\([^()]*['’]\d\d\)")


def read_rest(rest: list[Block], ref, venue_first: VenueRef | None) -> None:
    """Venue, year, status, editors and kind from the blocks after the title and the authors."""
    texts = _texts_after_editors(rest, ref)
    joined = " ".join(t for _, t in texts)
    if THESIS.search(joined):
        ref.kind = "thesis"
    venue_text = _venue_text(texts, joined, ref) if texts else None
    if venue_text:
        _read_venue(venue_text, ref)
    if venue_first and (ref.venue is None or not ref.venue.acronym):
        ref.venue = VenueRef(ref.venue.name if ref.venue else None, venue_first.acronym)
    if not ref.year:
        found = [y for _, t in texts for y in years_in(t)]
        ref.year = found[-1] if found else None
    if ref.venue and ref.venue.name and PREPRINT_SERVER.match(ref.venue.name):
        ref.status = ref.status or "preprint"


def _texts_after_editors(rest: list[Block], ref) -> list[tuple[Block, str]]:
    """Each block after the title with its text; a block that names editors ("Eds. ...") goes to *ref*."""
    texts = []
    for b in rest:
        text = b.text.strip(" ,.;")
        if not text:
            continue
        # "Eds. J. Doe and R. Roe" and "Trans. John Doe" name editors; "Trans. Amer. Math. Soc. 347" is a journal
        if EDITOR.search(text) and _EDITORS_LINE.match(text) and not _TRANSACTIONS.match(text):
            ref.editors += [a.name for a in split_author_list(EDITOR.sub(" ", text))]
            continue
        texts.append((b, text))
    return texts


def _venue_text(texts: list[tuple[Block, str]], joined: str, ref) -> str:
    """The venue as printed: the italic block where the style marks the venue, else the first block
    after the title. Also the kind (a chapter) and status the blocks name."""
    italic = next((t for b, t in texts if b.style == "italic"), None)
    if len(texts) > 1 and _BRACKETED.fullmatch(texts[0][1]):  # "[NSDI '24] *Venue*": tag and name
        texts[0:2] = [(texts[1][0], f"{texts[0][1]} {texts[1][1]}")]
        italic = None
    lead = _lead_without_abstract(texts, ref)
    if CHAPTER.search(lead) or _IN.match(lead) and EDITOR.search(joined):
        ref.kind = ref.kind or "chapter"
    status = find_status(joined)[0]
    if status:
        ref.status = ref.status or status
    bare = _IN.sub("", split_editors(strip_status(lead)[0])[0])
    if italic and (texts[0][0].style == "italic" or len(bare) < 3 or name_score(bare) >= 0.5):
        if lead != italic:
            ref.editors += split_editors(lead)[1]  # "In J. Doe (Ed.), *Handbook*": the editors
        return italic
    return lead


def _lead_without_abstract(texts: list[tuple[Block, str]], ref) -> str:
    """The first block's text; prose after it (long lines, or what follows "(NSDI '25)") is the abstract."""
    lead = texts[0][1]
    full = texts[0][0].text.strip(" ,;")
    cut = _YEAR_PAREN_THEN_PROSE.search(full)
    prose = [b.text.strip(" ,;") for b, t in texts[1:] if b.line != texts[0][0].line and len(t.split()) >= 8]
    if cut:  # "... (NSDI '25) This work shows ...": what follows the venue is the abstract
        prose = [full[cut.end():]] + [b.text.strip(" ,;") for b, _ in texts[1:]]
        lead = full[: cut.end()].strip()
        texts[0] = (texts[0][0], lead)
    if prose and not ref.abstract:
        ref.abstract = " ".join(prose)
    return lead


def _read_venue(venue_text: str, ref) -> None:
    """The venue's name, acronym, year and status from its printed text, editors and thesis words out."""
    venue_text = _CHAPTER_IN.sub("", venue_text)
    venue_text, editors = split_editors(venue_text)
    ref.editors += editors
    if THESIS.search(venue_text):
        venue_text = THESIS.sub("", venue_text).strip(" ,.")
    venue_text, status = strip_status(venue_text)
    ref.status = status or ref.status  # "[Preprint] Submitted to X": the venue's own words win
    if not VENUE_TAG.match(venue_text) and not _SHORT_YEAR_PAREN.search(venue_text):
        venue_text = venue_name_end(venue_text)
    # looked for in the text's end only: a search from every place of a long text would cost its square
    tail_at = max(0, len(venue_text) - _PLACE_TAIL)
    if (place := _PLACE_AND_MONTH.search(venue_text, tail_at)) and place.group().strip(" ,"):
        venue_text = venue_text[:place.start()]
    venue, vyear, vstatus = parse_venue(venue_text)
    ref.status = vstatus or ref.status
    ref.venue = venue
    ref.year = ref.year or vyear


def split_editors(text: str) -> tuple[str, list[str]]:
    """The text without its editors, and the editors' names.

    >>> split_editors("Handbook, A. Bode, F. Durst (Hrsg.), Springer")
    ('Handbook, Springer', ['A. Bode', 'F. Durst'])
    >>> split_editors("In C. Jones, R. Shaw, and T. Roe, editors, Proc. of the Graph Workshop")
    ('Proc. of the Graph Workshop', ['C. Jones', 'R. Shaw', 'T. Roe'])
    """
    # The marker first, then the names before it back to the nearest parenthesis: one pass, where a
    # single pattern for both backtracks without end on a long entry with no marker.
    m = _EDITOR_MARK.search(text)
    if not m:
        m2 = _EDITORS_AFTER_MARK.search(text)
        if m2:
            return (text[: m2.start()] + text[m2.end():]).strip(" ,."), [a.name for a in split_author_list(m2.group(1))]
        return text, []
    before = text[: m.start()]
    start = max(before.rfind("("), before.rfind(")")) + 1
    parts = [_IN.sub("", p.strip()) for p in before[start:].rstrip().split(",")]
    names: list[str] = []
    # a piece may hold the last two names: "R. C. Shaw, and T. Denvir", "S. Adian and A. Nerode"
    while parts:
        pieces = _AND.split(_AND_START.sub("", parts[-1]))
        if not all(name_score(p) >= 0.5 for p in pieces):
            break
        names[:0] = pieces
        parts.pop()
    editors = [a.name for a in split_author_list(", ".join(names))]
    return (text[:start] + ", ".join(parts) + text[m.end():]).strip(" ,."), editors
