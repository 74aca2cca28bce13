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
from kg.sources.reference_blocks import Block, blocks_of
from kg.sources.reference_names import (
    FAMILY_FIRST,
    INSIDE_SEPARATORS,
    leading_names,
    lone_name_first,
    marked_names_first,
    name_then_title,
    title_after_initials,
    year_after_names,
)
from kg.sources.reference_text import LONE_YEAR, clean_entry_line, is_field_label, join_wrapped
from kg.sources.reference_title import PUBLISHED_AFTER, title_and_tail
from kg.sources.reference_venue import EDITOR, THESIS, read_rest
from kg.sources.text import short_year, years_in
from kg.sources.venue import VENUE_TAG, VENUE_TITLE, find_status, parse_venue, strip_status

ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "sole": 1, "single": 1}
ROLE = re.compile(r"^(?P<co>co-?)?(?P<ord>first|second|third|fourth|fifth|sixth|sole|single|last|senior|"
                  r"corresponding)[- ]author\b\.?,?\s*(?:with\s+(?P<with>[^.]*?)(?:\.\s+|\.?$))?", re.I)
AWARD = re.compile(r"\b(?:award|best\s+\w*\s*paper|distinguished|honou?rable mention|spotlight|oral|prize)\b", re.I)
MAX_ENTRY = 5000  # characters: a longer "entry" is a paragraph of prose or a list that lost its line breaks
# A field named by a label: "**Authors**: A. Doe & B. Roe" (pages that print each field on its line).
FIELD_LABEL = re.compile(r"^\W{0,3}(?P<label>authors?|co-?authors|title|journal|venue|published in|year|doi)"
                         r"\W{0,3}:\W{0,3}(?=\S)", re.I)


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
    edited: bool = False  # the names it begins with are its editors (an edited book), and it names no author


_EDITED_BY = re.compile(r"(?:eds?|edited by|hrsg|trans(?:lated)? by)\b", re.I)
_ET_AL = re.compile(r"et\.?\s*al|\band others\b")


def _is_author_block(block: Block) -> bool:
    if block.style in ("quote", "year") or _EDITED_BY.match(block.text):
        return False
    count, quality = author_list_quality(block.text)
    if quality < 0.75 or not count:
        return False
    if count >= 2 or _ET_AL.search(block.text):
        return True
    return name_score(block.text) >= 1.0 or block.style == "italic" and quality >= 0.9


def _likeliest_author_block(blocks: list[Block]) -> int | None:
    """The index of the block that reads best as an author list: the one with the most names where
    two could (a title such as "Faster Graphs with Sparse Kernels" splits into two "names"), else
    the first; None if none could. A block whose names only "with" parts comes after every other:
    titles say "with" far more often than author lists do; set in bold or italics, it gives way even
    to a lone plain name ("**Faster Graphs with Sparse Kernels**", then "Ada Tester")."""
    candidates = [(_WITH_ONLY.search(b.text) is None, author_list_quality(b.text)[0], -i)
                  for i, b in enumerate(blocks) if _is_author_block(b)]
    if not candidates:
        return None
    strong, _, best = max(candidates)
    if not strong and blocks[-best].style in ("bold", "italic"):
        lone = next((i for i, b in enumerate(blocks) if b.style == "plain" and name_score(b.text) >= 0.9
                     and author_list_quality(b.text)[0] == 1), None)
        if lone is not None:
            return lone
    return -best


# "A with B" and nothing else that lists names: no comma, semicolon, "and" or "&"
_WITH_ONLY = re.compile(r"^(?!.*(?:[,;&]|\band\b)).*\swith\s", re.I)


def _split_inside(block: Block, prefix: bool = False) -> tuple[str, str, str] | None:
    """``"Title, A. Doe, and B. Roe, Venue 12"`` -> (title, authors, rest): names inside a block;
    with *prefix*, names that begin the block (``"A. Doe, B. Roe, Venue 12"`` -> ("", names, rest))."""
    text = block.text
    seps = list(INSIDE_SEPARATORS.finditer(text))
    bounds = [0] + [m.end() for m in seps]
    ends = [m.start() for m in seps] + [len(text)]
    units = [text[a:b] for a, b in zip(bounds, ends, strict=True)]
    for k in range(0 if prefix else 1, len(units)):
        run = []
        for u in units[k:]:
            name = _LEADING_AND.sub("", u.strip())
            if name_score(name) >= 0.5 and not EDITOR.search(u):
                run.append(name)
            else:
                break
        strong = [n for n in run if name_score(n) >= 1.0]
        last = k + len(run) - 1
        title, authors = text[: ends[k - 1]] if k else "", text[bounds[k]: ends[last]] if run else ""
        rest = text[bounds[last + 1]:] if run and last + 1 < len(units) else ""
        if prefix and k == 0 and strong and rest and (len(run) >= 2 or name_score(rest.split(",")[0]) < 0.5):
            return "", authors, rest
        marker = _AFTER_NAMES.match(rest) or THESIS.search(rest)
        if run and k and (len(strong) >= 2 or len(run) >= 2 and strong or strong and (not rest or marker)) \
                and len(title.split()) >= 2 and name_score(units[k - 1]) < 0.5:
            return title, authors, rest
        if prefix:
            return None
    return None


_LEADING_AND = re.compile(r"^(?:and|&)\s+")
_AFTER_NAMES = re.compile(r"\s*(?:in:|in\s|dissertation|thesis|ph\.?\s?d|master|\(|\d)", re.I)
_ENDS_WITH_YEAR = re.compile(r"\b(?:19|20)\d\d\W*$")
_SENTENCE_END = re.compile(r"[a-z]{2}\.\s+[A-Z]")


def _line_role(text: str) -> str | None:
    """What a whole extra line of an entry is: year, award, note, role or abstract."""
    if LONE_YEAR.fullmatch(text):
        return "year"
    if ROLE.match(text):
        return "role"
    if AWARD.search(text) and len(text.split()) <= 8 and not years_in(text):
        return "award"
    # "Barcelona: Press, 2010" ends with a year: a place and publisher, no note
    if is_field_label(text) and len(text.split()) <= 40 and not _ENDS_WITH_YEAR.search(text):
        return "note"
    words = text.split()
    # Two sentence ends make prose, but abbreviated journal names ("Phys. Rev. X 6, 1") end words too.
    if len(words) > 30 or len(words) >= 10 and len(_SENTENCE_END.findall(text)) >= 2:
        return "abstract"
    return None


_ITEM_NUMBER = re.compile(r"\s*\d{1,3}\.?\s*")
_BULLET_NOTE = re.compile(r"\s*[-•]\s")


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
    kept = [c for n, c in enumerate(cleaned) if c.strip() and not (n and _ITEM_NUMBER.fullmatch(c))
            and not (n and _BULLET_NOTE.match(c))]  # nor is a bullet note under it ("- Selected for ...")
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
    """Label an entry's blocks: year blocks, a venue before the title, the authors, the title and the rest."""
    blocks = title_after_initials(year_after_names(blocks))
    year_next = len(blocks) > 1 and blocks[0].style == "plain" and blocks[1].style == "year"
    for b in blocks:
        if b.style == "year":
            _read_year_block(b.text, ref)
    body = [b for b in blocks if b.style != "year"]
    if not body:
        ref.problem = "no title found"
        return
    body, venue_first = _venue_before_title(body, ref)
    _read_inline_roles(body, ref)
    title_blocks, rest = _title_and_authors(body, ref, year_next)
    if not title_blocks:
        ref.problem = "the entry has names but no title after them"
        return
    ref.title = _title_text(title_blocks)
    if (year := _LEADING_YEAR.match(ref.title)) and ref.title[year.end():]:  # "Doe, Jane. 1999. Title"
        ref.year, ref.title = ref.year or year.group(1), ref.title[year.end():]
    if title_blocks[-1].style == "plain":
        # "Barrington Moore, Social Origins of ... (Harmondsworth: Penguin, 1967)": Chicago's note, its
        # author's name in natural order before the title
        note = not ref.authors and not ref.edited and PUBLISHED_AFTER.search(ref.title)
        ref.title, tail = title_and_tail(ref.title, alone=not rest)
        if note and (named := name_then_title(ref.title)):
            ref.authors, ref.title = split_author_list(named[0]), named[1]
        rest = ([Block(tail, "plain", title_blocks[-1].line)] if tail else []) + rest
    read_rest(rest, ref, venue_first)


# a year, then the period that ends it, before the title's words ("2001: A Space Odyssey" keeps its year)
_LEADING_YEAR = re.compile(r"^\(?((?:19|20)\d\d)[a-z]?\)?\.\s+")


def _venue_before_title(body: list[Block], ref: Reference) -> tuple[list[Block], VenueRef | None]:
    """The first line may begin with a venue tag or "VENUE YEAR:" before the title: the blocks
    without it, and the venue it names."""
    first = body[0]
    tagged = VENUE_TAG.match(first.text) if first.style == "plain" else None
    m = VENUE_TITLE.match(first.text) if first.style == "plain" else None
    if m:
        ref.year = ref.year or m.group("year")
        return [Block(m.group("title"), first.style, first.line)] + body[1:], VenueRef(None, m.group("acro"))
    if tagged and (tagged.group("rest") or len(body) > 1 and body[1].line == first.line):
        venue_first, tag_year, _ = parse_venue(f"[{tagged.group('tag')}]")
        ref.year = ref.year or tag_year or short_year(tagged.group("tag"))
        if tagged.group("rest"):  # "[ICML '21] Title"
            return [Block(tagged.group("rest"), first.style, first.line)] + body[1:], venue_first
        return body[1:], venue_first
    return body, None


def _read_inline_roles(body: list[Block], ref: Reference) -> None:
    """"..., second author with Jane Doe." inside a line: read, and its block replaced by what follows it."""
    for b in list(body):
        if b.style == "plain" and ROLE.match(b.text) and b is not body[0]:
            extra: list[Block] = []
            _read_role(b.text, ref, extra, b.line)
            at = body.index(b)
            body[at:at + 1] = extra


def _title_and_authors(body: list[Block], ref: Reference, year_next: bool = False) -> tuple[list[Block], list[Block]]:
    """The title's blocks and the blocks after the title and the authors; the authors go to *ref*
    (*year_next*: the entry's first block is followed by its year)."""
    if not ref.authors and (marked := marked_names_first(body, ref)) is not None:
        return marked
    author_at = None
    if not ref.authors:
        # Authors come first, or right after the title: not after the venue ("..., *Journal*. Test U.").
        window = next((i for i, b in enumerate(body[:3]) if i and b.style == "italic" and not _is_author_block(b)), 3)
        author_at = _likeliest_author_block(body[:window])
        if author_at is None and lone_name_first(body, year_next):
            author_at = 0
    if author_at is None and not ref.authors:
        title_blocks, rest = _names_inside(body, ref)
        if title_blocks:
            return title_blocks, rest
    if author_at is not None:
        return _around_authors(body, author_at, ref)
    if ref.labelled_authors:  # authors given by label: the marked block is the title
        pick = next((i for i, b in enumerate(body) if b.style in ("quote", "italic", "bold")), 0)
        return [body[pick]], body[:pick] + body[pick + 1:]
    return _marked_title(body, ref)


def _names_inside(body: list[Block], ref: Reference) -> tuple[list[Block], list[Block]]:
    """Names inside a block of plain text rather than a block of their own: "Title, A. Doe, and
    B. Roe, Venue", "J. Doe, R. Roe, Title, Venue" or "Title. A. Doe, B. Roe, Venue 12"."""
    head = body[0]
    title_blocks: list[Block] = []
    rest: list[Block] = []
    # names family first that begin the block come first: "Debray, S. K. and Warren, D. S., Title, J. Logic
    # Programming" is no title with "J. Logic Programming" its author
    family_first = head.style == "plain" and bool(FAMILY_FIRST.match(head.text))
    if family_first and (leading := leading_names(head.text)):
        return _around_leading_names(leading, body, ref)
    inside = _split_inside(head) if head.style == "plain" else None
    first_names = _split_inside(head, prefix=True) if head.style == "plain" and not inside else None
    if first_names and "," in first_names[2]:  # "J. Doe, R. Roe, Title, Venue": the title is the next piece
        ref.authors = split_author_list(first_names[1])
        title, _, after = first_names[2].partition(",")
        title_blocks = [Block(title, "plain", head.line)]
        rest = [Block(after, "plain", head.line)] + body[1:]
        inside = None
    elif first_names and len(body) > 1 and len(first_names[2].split()) >= 3:
        # "R. Chandra, S. Devine, Scheduling and Page Migration for ... Servers.", the venue in a block of its own
        ref.authors = split_author_list(first_names[1])
        return [Block(first_names[2], "plain", head.line)], body[1:]
    if inside:
        title, names, after = inside
        ref.authors = split_author_list(names)
        return [Block(title, "plain", head.line)], ([Block(after, "plain", head.line)] if after else []) + body[1:]
    if not first_names and head.style == "plain" and not family_first and (leading := leading_names(head.text)):
        return _around_leading_names(leading, body, ref)
    later = _names_in_later_block(body, ref)
    return later if later is not None else (title_blocks, rest)


def _around_leading_names(leading: tuple[str, str, str], body: list[Block], ref: Reference,
                          ) -> tuple[list[Block], list[Block]]:
    """The title's block and the rest, from :func:`~kg.sources.reference_names.leading_names` of the
    first block (names, title, what follows); the names go to *ref*."""
    names, title, after = leading
    ref.authors = split_author_list(names)
    line = body[0].line
    return [Block(title, "plain", line)], ([Block(after, "plain", line)] if after else []) + body[1:]


def _names_in_later_block(body: list[Block], ref: Reference) -> tuple[list[Block], list[Block]] | None:
    """"Title. A. Doe, B. Roe, Venue 12": names begin one of the next three blocks."""
    for i, b in enumerate(body[1:4], 1):
        inside = b.style == "plain" and (_split_inside(b, prefix=True) or _split_inside(b))
        if inside:
            ref.authors = split_author_list(inside[1])
            head = [Block(inside[0], "plain", b.line)] if inside[0] else []
            title_blocks = [x for x in body[:i] + head if x.line == body[0].line]
            rest = [x for x in body[:i] if x.line != body[0].line] + [Block(inside[2], "plain", b.line)] + body[i + 1:]
            return title_blocks, rest
    return None


def _around_authors(body: list[Block], author_at: int, ref: Reference) -> tuple[list[Block], list[Block]]:
    """The title beside the author block: the marked or first-line blocks before it, else the block after it."""
    ref.authors = split_author_list(body[author_at].raw)
    before, after = body[:author_at], body[author_at + 1:]
    if not before:
        return after[:1], after[1:]
    if before[0].style in ("quote", "bold", "italic", "link"):
        return [before[0]], before[1:] + after
    return [b for b in before if b.line == before[0].line], [b for b in before if b.line != before[0].line] + after


def _marked_title(body: list[Block], ref: Reference) -> tuple[list[Block], list[Block]]:
    """No author block: the title is the first marked block of the first two (else the first), and one
    name beside it is the author: "Jane Doe, "Title," ..." or "**Title**. *Jane Doe*. Venue"."""
    pick = next((i for i, b in enumerate(body[:2]) if b.style in ("quote", "bold", "link")), 0)
    rest = body[:pick] + body[pick + 1:]
    beside = body[pick - 1] if pick else (
        body[1] if len(body) > 1 and body[0].style == "bold" and body[1].style == "italic" else None)
    if beside is not None and beside.style != "quote" and name_score(beside.text.strip(" ,.;")) >= 0.9:
        ref.authors = split_author_list(beside.raw)
        rest = [b for b in rest if b is not beside]
    return [body[pick]], rest


def _title_text(title_blocks: list[Block]) -> str:
    title = " ".join(b.text.strip(" ,;") for b in title_blocks).strip(" ,;")
    title = _BY_AUTHOR.sub("", title)  # "Title. By Jane Doe": the book's author, of a translation
    return _FINAL_PERIOD.sub("", title).strip(" ,;“”\"")


_BY_AUTHOR = re.compile(r"\.\s+By\s+[A-Z][^.]*$")
_FINAL_PERIOD = re.compile(r"(?<=[^.])\.$")


def _read_year_block(text: str, ref: Reference) -> None:
    found = years_in(text)
    if found:
        ref.year = ref.year or found[0]
    _, status = strip_status(text.strip("()[]. "))
    status = status or find_status(text)[0]
    if status:
        ref.status = ref.status or status
