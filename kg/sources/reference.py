"""One publication entry, in any common style, labelled into its parts.

An entry is one or more lines of markdown-like text (``**bold**``, ``*italic*``, links, quotes).
The lines are first joined where they were only wrapped; each logical line is cut into blocks
where the markup, a quotation, a parenthesised year or the end of a sentence says a part ends.
Blocks are then labelled from evidence rather than from their order: the block (or run of
comma-separated pieces) whose pieces look like names is the author list; the title is the quoted,
bold or first sentence-like block before it (title first) or after it (authors first); the venue
is what follows, italic where the style marks it; the year is the parenthesised or last year
outside the title; status words anywhere give the status.

>>> r = parse_reference(['Doe, J., & Roe, R. (2020). A study of things. *Journal of Tests*, 3(2), 1-10.'])
>>> (r.title, [a.name for a in r.authors], r.venue.name, r.year)
('A study of things', ['J. Doe', 'R. Roe'], 'Journal of Tests', '2020')
>>> r = parse_reference(['J. Doe, R. Roe, "A study of things," in Proc. Conf. on Tests, 2021.'])
>>> (r.title, [a.name for a in r.authors], r.year)
('A study of things', ['J. Doe', 'R. Roe'], '2021')
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kg.records import Author, VenueRef
from kg.sources.authors import author_list_quality, name_score, split_author_list
from kg.sources.reference_text import Block, blocks_of, clean_entry_line, join_wrapped
from kg.sources.text import short_year, years_in
from kg.sources.venue import VENUE_TAG, VENUE_TITLE, find_status, parse_venue, strip_status, venue_name_end
from kg.words import word_list

ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "sole": 1, "single": 1}
ROLE = re.compile(r"^(?P<co>co-?)?(?P<ord>first|second|third|fourth|fifth|sixth|sole|single|last|senior|"
                  r"corresponding)[- ]author\b\.?,?\s*(?:with\s+(?P<with>[^.]*?)(?:\.\s+|\.?$))?", re.I)
AWARD = re.compile(r"\b(?:award|best\s+\w*\s*paper|distinguished|honou?rable mention|spotlight|oral|prize)\b", re.I)
THESIS = re.compile(r"\b(?:dissertation|ph\.?\s?d\.?\s+thesis|doctoral thesis|master'?s thesis|m\.?sc?\.? thesis|"
                    r"habilitation)\b", re.I)
MAX_ENTRY = 5000  # characters: a longer "entry" is a paragraph of prose or a list that lost its line breaks
# A field named by a label: "**Authors**: A. Doe & B. Roe" (pages that print each field on its line).
FIELD_LABEL = re.compile(r"^\W{0,3}(?P<label>authors?|co-?authors|title|journal|venue|published in|year|doi)"
                         r"\W{0,3}:\W{0,3}(?=\S)", re.I)
CHAPTER = re.compile(r"^(?:chapter|book chapter)\s+in\b|^in:?\s+.*\((?:eds?|hrsg|dir)\.?\)", re.I)


@dataclass
class Reference:
    """The parts of one publication entry; ``problem`` says why it could not be read."""

    title: str | None = None
    authors: list[Author] = field(default_factory=list)
    venue: VenueRef | None = None
    year: str | None = None
    status: str | None = None
    kind: str | None = None
    editors: list[str] = field(default_factory=list)
    subject_ordinal: int | None = None
    subject_equal_contribution: bool = False
    recognitions: list[str] = field(default_factory=list)
    abstract: str | None = None
    url: str | None = None
    doi: str | None = None
    problem: str | None = None
    labelled_authors: bool = False


def _editor_re() -> re.Pattern:
    marks = sorted(word_list("editor-marks"), key=len, reverse=True)
    alt = "|".join(re.escape(m.rstrip(".")) for m in marks)
    return re.compile(rf"(?:^|[\s,(])(?:{alt})\.?(?=$|[\s,):])", re.I)


_EDITOR = _editor_re()


def _is_author_block(block: Block) -> bool:
    if block.style in ("quote", "year") or re.match(r"(?:eds?|edited by|hrsg|trans(?:lated)? by)\b", block.text, re.I):
        return False
    count, quality = author_list_quality(block.text)
    if quality < 0.75 or not count:
        return False
    if count >= 2 or re.search(r"et\.?\s*al|\band others\b", block.text):
        return True
    return name_score(block.text) >= 1.0 or block.style == "italic" and quality >= 0.9


def _split_inside(block: Block, prefix: bool = False) -> tuple[str, str, str] | None:
    """``"Title, A. Doe, and B. Roe, Venue 12"`` -> (title, authors, rest): names inside a block;
    with *prefix*, names that begin the block (``"A. Doe, B. Roe, Venue 12"`` -> ("", names, rest))."""
    text = block.text
    seps = [m for m in re.finditer(r",\s*(?![^()]*\))|\s+and\s+(?=[A-Z])", text)]
    bounds = [0] + [m.end() for m in seps]
    ends = [m.start() for m in seps] + [len(text)]
    units = [text[a:b] for a, b in zip(bounds, ends)]
    for k in range(0 if prefix else 1, len(units)):
        run = []
        for u in units[k:]:
            name = re.sub(r"^(?:and|&)\s+", "", u.strip())
            if name_score(name) >= 0.5 and not _EDITOR.search(u):
                run.append(name)
            else:
                break
        strong = [n for n in run if name_score(n) >= 1.0]
        last = k + len(run) - 1
        title, authors = text[: ends[k - 1]] if k else "", text[bounds[k]: ends[last]] if run else ""
        rest = text[bounds[last + 1]:] if run and last + 1 < len(units) else ""
        if prefix and k == 0 and strong and rest and (len(run) >= 2 or name_score(rest.split(",")[0]) < 0.5):
            return "", authors, rest
        marker = re.match(r"\s*(?:in:|in\s|dissertation|thesis|ph\.?\s?d|master|\(|\d)", rest, re.I) or THESIS.search(rest)
        if run and k and (len(strong) >= 2 or len(run) >= 2 and strong or strong and (not rest or marker)) \
                and len(title.split()) >= 2 and name_score(units[k - 1]) < 0.5:
            return title, authors, rest
        if prefix:
            return None
    return None


def _line_role(text: str) -> str | None:
    """What a whole extra line of an entry is: year, award, note, role or abstract."""
    if re.fullmatch(r"\(?(?:19|20)\d\d\)?\.?", text):
        return "year"
    if ROLE.match(text):
        return "role"
    if AWARD.search(text) and len(text.split()) <= 8 and not years_in(text):
        return "award"
    if re.match(r"^[A-Z]\w*(?: \w+){0,2}:\s", text) and not re.match(r"^in:", text, re.I) and len(text.split()) <= 40 \
            and not re.search(r"\b(?:19|20)\d\d\W*$", text):  # "Barcelona: Press, 2010": a place and publisher
        return "note"
    words = text.split()
    # Two sentence ends make prose, but abbreviated journal names ("Phys. Rev. X 6, 1") end words too.
    if len(words) > 30 or len(words) >= 10 and len(re.findall(r"[a-z]{2}\.\s+[A-Z]", text)) >= 2:
        return "abstract"
    return None


def parse_reference(lines: list[str], *, split_lines: bool | None = None) -> Reference:
    """Label the parts of one publication entry given as its lines (markup kept).

    *split_lines* says whether each line is a field of its own (True), only wrapped (False), or
    to be judged from the lines (None).
    """
    ref = Reference()
    if sum(len(line) for line in lines) > MAX_ENTRY:
        ref.problem = f"it is longer ({sum(len(line) for line in lines)} characters) than one publication entry can be"
        return ref
    cleaned = [clean_entry_line(line, ref, first=not n) for n, line in enumerate(lines)]
    # A lone item number in a column of its own ("Journal / 12 / *Title*") is not part of a field.
    kept = [c for n, c in enumerate(cleaned) if c.strip() and not (n and re.fullmatch(r"\s*\d{1,3}\.?\s*", c))
            and not (n and re.match(r"\s*[-•]\s", c))]  # nor is a bullet note under it ("- Selected for ...")
    logical = join_wrapped(kept, split_lines)
    if not logical:
        ref.problem = "the entry is empty"
        return ref
    content: list[Block] = []
    abstract: list[str] = []
    for n, raw in enumerate(logical):
        if n and _labelled_field(raw, ref):
            continue
        blocks = blocks_of(raw, n, sentences=not split_lines)
        text = " ".join(b.text for b in blocks).strip()
        role = _line_role(text) if n else None
        if role == "note" and blocks and blocks[0].style in ("italic", "quote"):
            role = None  # "*Cartography: A Method*": a title with a colon, not a "Label: value" note
        if n and role == "year":
            ref.year = ref.year or years_in(text)[0]
        elif n and role == "award":
            ref.recognitions.append(text)
        elif n and role == "note":
            continue
        elif role == "role":
            _read_role(text, ref, content, n)
        elif n and role == "abstract" and content:
            abstract.append(text)
        else:
            content += blocks
    if abstract:
        ref.abstract = " ".join(abstract)
    _label(content, ref)
    return ref


def _labelled_field(line: str, ref: Reference) -> bool:
    """Read a line that names its field (``**Authors**: ...``); False when it names none read here."""
    m = FIELD_LABEL.match(line)
    if not m:
        return False
    label, value = m.group("label").lower(), line[m.end():].strip()
    if label.startswith(("author", "co")) and not ref.authors:
        ref.authors = split_author_list(value)
        ref.labelled_authors = True
        return True
    return label == "doi"  # its DOI was taken from the link already


def _read_role(text: str, ref: Reference, content: list[Block], n: int) -> None:
    m = ROLE.match(text)
    ordinal = m.group("ord").lower()
    ref.subject_ordinal = ORDINALS.get(ordinal, 1 if ordinal == "corresponding" else None) or ref.subject_ordinal
    ref.subject_equal_contribution = bool(m.group("co"))
    if m.group("with"):
        ref.authors = split_author_list(m.group("with"))
    rest = text[m.end():].strip()
    if rest:
        content += blocks_of(rest, n)


def _label(blocks: list[Block], ref: Reference) -> None:
    body = [b for b in blocks if b.style != "year"]
    for b in blocks:
        if b.style == "year":
            _read_year_block(b.text, ref)
    if not body:
        ref.problem = "no title found"
        return
    # The first line may begin with a venue tag or "VENUE YEAR:" before the title.
    first = body[0]
    tagged = VENUE_TAG.match(first.text) if first.style == "plain" else None
    m = VENUE_TITLE.match(first.text) if first.style == "plain" else None
    venue_first = None
    if m:
        venue_first = VenueRef(None, m.group("acro"))
        ref.year = ref.year or m.group("year")
        body[0] = Block(m.group("title"), first.style, first.line)
    elif tagged and (tagged.group("rest") or len(body) > 1 and body[1].line == first.line):
        venue_first, tag_year, _ = parse_venue(f"[{tagged.group('tag')}]")
        ref.year = ref.year or tag_year or short_year(tagged.group("tag"))
        if tagged.group("rest"):  # "[ICML '21] Title"
            body[0] = Block(tagged.group("rest"), first.style, first.line)
        else:
            body = body[1:]
    for b in list(body):  # "..., second author with Jane Doe." inside a line
        if b.style == "plain" and ROLE.match(b.text) and b is not body[0]:
            extra: list[Block] = []
            _read_role(b.text, ref, extra, b.line)
            at = body.index(b)
            body[at:at + 1] = extra
    # Authors come first, or right after the title: not after the venue ("..., *Journal*. Test U.").
    window = next((i for i, b in enumerate(body) if i >= 1 and b.style == "italic" and not _is_author_block(b)), 3)
    author_at = next((i for i, b in enumerate(body[:min(window, 3)]) if not ref.authors and _is_author_block(b)), None)
    title_blocks: list[Block] = []
    rest: list[Block] = []
    if author_at is None and not ref.authors:
        inside = _split_inside(body[0]) if body[0].style == "plain" else None
        first_names = _split_inside(body[0], prefix=True) if body[0].style == "plain" and not inside else None
        if first_names and "," in first_names[2]:  # "J. Doe, R. Roe, Title, Venue": the title is the next piece
            ref.authors = split_author_list(first_names[1])
            title, _, after = first_names[2].partition(",")
            title_blocks = [Block(title, "plain", body[0].line)]
            rest = [Block(after, "plain", body[0].line)] + body[1:]
            inside = None
        if inside:
            title, names, after = inside
            ref.authors = split_author_list(names)
            title_blocks = [Block(title, "plain", body[0].line)]
            rest = ([Block(after, "plain", body[0].line)] if after else []) + body[1:]
        else:  # "Title. A. Doe, B. Roe, Venue 12": names begin a later block
            for i, b in enumerate(body[1:4], 1):
                inside = b.style == "plain" and (_split_inside(b, prefix=True) or _split_inside(b))
                if inside:
                    ref.authors = split_author_list(inside[1])
                    head = [Block(inside[0], "plain", b.line)] if inside[0] else []
                    title_blocks = [x for x in body[:i] + head if x.line == body[0].line]
                    rest = [x for x in body[:i] if x.line != body[0].line] + [Block(inside[2], "plain", b.line)] + body[i + 1:]
                    break
    if not title_blocks:
        if author_at is not None:
            ref.authors = split_author_list(body[author_at].raw)
            before = body[:author_at]
            if before:
                if before[0].style in ("quote", "bold", "italic", "link"):
                    title_blocks = [before[0]]
                    rest = before[1:] + body[author_at + 1:]
                else:
                    title_blocks = [b for b in before if b.line == before[0].line]
                    rest = [b for b in before if b.line != before[0].line] + body[author_at + 1:]
            else:
                after = body[author_at + 1:]
                title_blocks, rest = after[:1], after[1:]
        elif ref.labelled_authors:  # authors given by label: the marked block is the title
            pick = next((i for i, b in enumerate(body) if b.style in ("quote", "italic", "bold")), 0)
            title_blocks, rest = [body[pick]], body[:pick] + body[pick + 1:]
        else:
            pick = next((i for i, b in enumerate(body[:2]) if b.style in ("quote", "bold", "link")), 0)
            title_blocks, rest = [body[pick]], body[:pick] + body[pick + 1:]
            # One name beside a marked title: "Jane Doe, "Title," ..." or "**Title**. *Jane Doe*. Venue".
            beside = body[pick - 1] if pick else (
                body[1] if len(body) > 1 and body[0].style == "bold" and body[1].style == "italic" else None)
            if beside is not None and beside.style != "quote" and name_score(beside.text.strip(" ,.;")) >= 0.9:
                ref.authors = split_author_list(beside.raw)
                rest = [b for b in rest if b is not beside]
    if not title_blocks:
        ref.problem = "the entry has names but no title after them"
        return
    title = " ".join(b.text.strip(" ,;") for b in title_blocks).strip(" ,;")
    title = re.sub(r"\.\s+By\s+[A-Z][^.]*$", "", title)  # "Title. By Jane Doe": the book's author, of a translation
    title = re.sub(r"(?<=[^.])\.$", "", title).strip(" ,;“”\"")
    ref.title = title
    _read_rest(rest, ref, venue_first)


def _read_year_block(text: str, ref: Reference) -> None:
    found = years_in(text)
    if found:
        ref.year = ref.year or found[0]
    _, status = strip_status(text.strip("()[]. "))
    status = status or find_status(text)[0]
    if status:
        ref.status = ref.status or status


def _read_rest(rest: list[Block], ref: Reference, venue_first: VenueRef | None) -> None:
    """Venue, year, status, editors and kind from the blocks after the title and the authors."""
    venue_text = None
    texts = []
    for b in rest:
        text = b.text.strip(" ,.;")
        if not text:
            continue
        editors = _EDITOR.search(text)
        if editors and not venue_text and re.match(r"^(?:ed|eds|edited by|hrsg|trans|translated by)\b", text, re.I):
            names = _EDITOR.sub(" ", text)
            ref.editors += [a.name for a in split_author_list(names)]
            continue
        texts.append((b, text))
    italic = next((t for b, t in texts if b.style == "italic"), None)
    joined = " ".join(t for _, t in texts)
    if THESIS.search(joined):
        ref.kind = "thesis"
    if len(texts) > 1 and re.fullmatch(r"\[[^\]]+\]", texts[0][1]):  # "[NSDI '24] *Venue*": tag and name
        texts[0:2] = [(texts[1][0], f"{texts[0][1]} {texts[1][1]}")]
        italic = None
    if texts:
        lead = texts[0][1]
        full = texts[0][0].text.strip(" ,;")
        cut = re.search(r"\([^()]*(?:['’]\d\d|(?:19|20)\d\d)\)\s+(?=[A-Z])", full)
        prose = [b.text.strip(" ,;") for b, t in texts[1:] if b.line != texts[0][0].line and len(t.split()) >= 8]
        if cut:  # "... (NSDI '25) This work shows ...": what follows the venue is the abstract
            prose = [full[cut.end():]] + [b.text.strip(" ,;") for b, _ in texts[1:]]
            lead = full[: cut.end()].strip()
            texts[0] = (texts[0][0], lead)
        if prose and not ref.abstract:
            ref.abstract = " ".join(prose)
        if CHAPTER.search(lead) or re.match(r"^in:?\s", lead, re.I) and _EDITOR.search(joined):
            ref.kind = ref.kind or "chapter"
        status, _, end = find_status(joined)
        if status:
            ref.status = ref.status or status
        bare = re.sub(r"^in:?\s+", "", _drop_editors(strip_status(lead)[0], Reference()), flags=re.I)
        if italic and (texts[0][0].style == "italic" or len(bare) < 3 or name_score(bare) >= 0.5):
            venue_text = italic
            if lead != italic:
                _drop_editors(lead, ref)  # "In J. Doe (Ed.), *Handbook*": the editors
        else:
            venue_text = lead
    if venue_text:
        venue_text = re.sub(r"^(?:chapter|book chapter)\s+in\s+", "", venue_text, flags=re.I)
        venue_text = _drop_editors(venue_text, ref)
        if THESIS.search(venue_text):
            venue_text = THESIS.sub("", venue_text).strip(" ,.")
        venue_text, status = strip_status(venue_text)
        ref.status = status or ref.status  # "[Preprint] Submitted to X": the venue's own words win
        if not VENUE_TAG.match(venue_text) and not re.search(r"\([^()]*['’]\d\d\)", venue_text):
            venue_text = venue_name_end(venue_text)
        venue, vyear, vstatus = parse_venue(venue_text)
        ref.status = vstatus or ref.status
        ref.venue = venue
        ref.year = ref.year or vyear
    if venue_first and (ref.venue is None or not ref.venue.acronym):
        ref.venue = VenueRef(ref.venue.name if ref.venue else None, venue_first.acronym)
    if not ref.year:
        found = [y for _, t in texts for y in years_in(t)]
        ref.year = found[-1] if found else None
    if ref.venue and ref.venue.name and re.match(r"^(?:arxiv|biorxiv|medrxiv|ssrn|corr)\b", ref.venue.name, re.I):
        ref.status = ref.status or "preprint"


_EDITOR_MARK = re.compile(r"\((?:eds?|hrsg|dir|éds?)\.?\)", re.I)


def _drop_editors(text: str, ref: Reference) -> str:
    """``"Book, A. Bode, F. Durst (Hrsg.), Springer"`` -> editors out, the rest kept."""
    # The marker first, then the names before it back to the nearest parenthesis: one pass, where a
    # single pattern for both backtracks without end on a long entry with no marker.
    m = _EDITOR_MARK.search(text)
    if not m:
        m2 = re.search(r"\b(?:eds?|hrsg)\.\s+((?:[A-Z][\w.\-]*\s*)+)", text)
        if m2:
            ref.editors += [a.name for a in split_author_list(m2.group(1))]
            return (text[: m2.start()] + text[m2.end():]).strip(" ,.")
        return text
    before = text[: m.start()]
    start = max(before.rfind("("), before.rfind(")")) + 1
    parts = [re.sub(r"^in:?\s+", "", p.strip(), flags=re.I) for p in before[start:].rstrip().split(",")]
    names = []
    while parts and name_score(parts[-1]) >= 0.5:
        names.insert(0, parts.pop())
    ref.editors += [a.name for a in split_author_list(", ".join(names))]
    return (text[:start] + ", ".join(parts) + text[m.end():]).strip(" ,.")
