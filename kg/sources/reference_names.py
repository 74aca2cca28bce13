"""Where the names of a plain publication entry are when no block of it reads as an author list:
one name before the title ("W. Li. Title..."), names that begin a block, family first ("Clark, K.
L., Negation as Failure, in: ..."), names with their year in one block ("Miller, G. 1995."), or
names whose last initial runs on into the title ("Hadzilacos, V. Issues of ...", "Saad ED, Buyse M.
Overall survival ..."). Used by :mod:`kg.sources.reference`.
"""

from __future__ import annotations

import re

from kg.sources.authors import author_list_quality, name_score, split_author_list
from kg.sources.reference_blocks import Block
from kg.sources.reference_title import VENUE_WORDS
from kg.sources.reference_venue import EDITOR

#: Where a block's pieces part: a comma (not inside parentheses), or "and" before a capital.
INSIDE_SEPARATORS = re.compile(r",\s*(?![^()]*\))|\s+and\s+(?=[A-Z])")


def reads_as_names(text: str) -> bool:
    """Whether *text*, where an entry begins, is its names: two or more, or one with initials or inverted
    ("W. Li", "Roe, Jane"); a plain "Graph Kernels" could as well be a title.

    >>> reads_as_names("Roe, J. and A. Tester"), reads_as_names("W. Li"), reads_as_names("Graph Kernels")
    (True, True, False)
    """
    count, quality = author_list_quality(text)
    return bool(count) and quality >= 0.9 and (count > 1 or name_score(text) >= 1.0 or text.count(",") == 1)


def lone_name_first(body: list[Block], year_next: bool = False) -> bool:
    """Whether an entry with no author list begins with one person's name, then its title: "W. Li.
    Title...", "Poole, David (1988). Title...", "Tim Watson. A new representation technique...". A
    name with initials or inverted says so, as does a year next to it (*year_next*: the entry's next
    block is its year); a plain two- or three-word name otherwise only before a title of four words or
    more that names no venue (a CV's entry "Graph Kernels. Journal of ..." has no author)."""
    if len(body) < 2 or body[0].style != "plain" or body[1].style not in ("plain", "quote"):
        return False
    name, title = body[0].text.strip(" .,;"), body[1].text.strip(" .,;")
    count, quality = author_list_quality(name)
    words = title.split()
    # the venue's word in the title's first piece: "Journal of ..." is no title, but "On Discretization ...,
    # Masters Thesis, ..." is one, its venue after it
    lead = title.split(", ")[0]
    if count != 1 or quality < 0.9:
        return False
    # MLA's and Chicago's books: "Calvino, Italo. Invisible Cities. Translated by ...": a name inverted
    # with its given name in full ends its sentence, and the title after it may be short, or hold a
    # venue's word where it is longer ("Science & Its Limits: The Natural ..."); a publisher or venue
    # follows (so "Graphs, Revisited. Graph Press, 2019." is a title and its publisher)
    if (_INVERTED_FULL.match(body[0].text) and len(body) >= 3 and not _VENUE_OPENS.match(title)
            and (len(words) >= 4 or not _VENUE_WORD.search(lead))):
        return True
    if len(words) < 3 or name_score(title) >= 0.5 or _VENUE_WORD.search(lead):
        return False
    if name_score(name) >= 1.0 or name.count(",") == 1 or year_next and name_score(name) >= 0.9:
        return True  # initials, inverted, or a year next: "Stephen Lindell (1992), A Purely Logical ..."
    # "Tim Watson. A new representation technique...", not "Point Counter Point. Garden City, N.Y.: ..."
    # nor "Passing Time. Translated by Jean Stewart": a plain name only before a sentence of a title
    lower = [w for w in words if w[:1].islower()]
    return len(words) >= 4 and len(lower) >= 2 and body[0].text.endswith(".") and not EDITOR.search(title)


_VENUE_WORD = re.compile(rf"\b(?:{VENUE_WORDS})\b|^in\b", re.I)
# "Calvino, Italo." or "Andrade, Mário de.": family name, a comma, given names in full, the sentence's end
_INVERTED_FULL = re.compile(r"^[A-Z][\w'’-]+,\s+[A-Z][^\W\d_]+(?:[\s-][A-Z][^\W\d_]+)*(?:\s[a-z]{2,3})?\.$")
# what begins a venue rather than a title: "Journal of ...", "Proceedings of ...", "In ..."
_VENUE_OPENS = re.compile(r"(?:journal|proc|proceedings|transactions|conference|in)\b", re.I)


def leading_names(text: str) -> tuple[str, str, str] | None:
    """"Clark, K. L., Negation as Failure, in: ..." -> (names, title, rest): the longest run of pieces
    that begins the text and reads as an author list (family-first pairs too: a piece at a time they
    are no names), then a title's piece, up to its comma or its sentence's end. Two names at least, or
    one with initials or inverted: "Graph Kernels, Journal of ..." begins with no name."""
    found = None
    for sep in list(INSIDE_SEPARATORS.finditer(text))[:_MAX_LEADING]:
        names, after = text[:sep.start()], text[sep.end():]
        if not reads_as_names(names):
            continue
        end = _TITLE_END.search(after)
        title = after[:end.start()] if end else after
        if len(title.split()) >= 2 and name_score(title) < 0.5:
            found = names, title.strip(), after[end.end():].strip() if end else ""
    return found


# the pieces of a text weighed as its leading names (a long author list has more, and is a block of its own)
_MAX_LEADING = 24
_TITLE_END = re.compile(r",\s*|(?<=[\w)])\.\s+(?=[A-Z])")


# "Miller, G. 1995." or "Cousot, P. and Cousot, R. 1978": the names, then the year, in one block
_NAMES_THEN_YEAR = re.compile(r"^(?P<names>.*[^\s(])\s+\(?(?P<year>(?:19|20)\d\d)[a-z]?\)?[.,]?$")


# the same, the title after the year in that block, with no period between (American archaeology's
# style): "Scott, W. B. and E. J. Crossman 1973 Freshwater Fishes of Canada."
_NAMES_YEAR_TITLE = re.compile(r"^(?P<names>.*?[^\s(])\s+\(?(?P<year>(?:19|20)\d\d)[a-z]?\)?[.,]?\s+"
                               r"(?P<title>[A-Z‘“\"'].*)$")


def year_after_names(blocks: list[Block]) -> list[Block]:
    """*blocks*, with an entry's first block that is names and a year ("Miller, G. 1995.", as ACL's and
    AAAI's bibliographies print them) made two: the names', and a year block; names, a year and a title
    ("Scott, W. B. and E. J. Crossman 1973 Freshwater Fishes of Canada.") made three."""
    first = blocks[0].text if blocks and blocks[0].style == "plain" else ""
    m = _NAMES_THEN_YEAR.match(first) or _NAMES_YEAR_TITLE.match(first)
    if m is None or not reads_as_names(m.group("names")):  # "Graph Census 2020." is a title
        return blocks
    line = blocks[0].line
    title = m.groupdict().get("title")
    # a title of two words or more before its first comma: "Ascasibar Y., 2006, ApJ, 650, 102" has none
    if title is not None and len(title.split(",")[0].split()) < 2:
        return blocks
    return ([Block(m.group("names"), "plain", line), Block(m.group("year"), "year", line)]
            + ([Block(title, "plain", line)] if title else []) + blocks[1:])


# an initial's period, then a capitalised word: where "Hadzilacos, V. Issues of Fault ..." may part
_AFTER_INITIAL = re.compile(r"(?:(?<=\b[A-Z]\.)|(?<=\b[A-Z]{2}\.)|(?<=\b[A-Z]{3}\.))\s+(?=[A-Z][a-z])")
# the places weighed (a long author list ends in a block of its own)
_MAX_INITIALS = 16
#: A text that begins with a name family first ("Debray, S. K.", "Roe, Jane"): a list so from its first
#: ("Geddes, K., Czapor, S., and Labahn, G."); in "M. Esters, C. Oses, ..., C. Toher & S. Curtarolo"
#: every initial is followed by its family name.
FAMILY_FIRST = re.compile(r"^[A-Z][\w'’-]+(?: [A-Z][\w'’-]+)?,\s+[A-Z]")
# the same with an initial: "Hadzilacos, V." (not "Tester, Ada Jane. Kernels ...", whose title the
# sentence's end cuts off already)
_FAMILY_FIRST_INITIAL = re.compile(FAMILY_FIRST.pattern + r"\.")
# Vancouver's names, family first and the initials run together after it, undotted: "Saad ED, Buyse M."
# (not "Marine A. Denolle, ...", a name in natural order)
_VANCOUVER = re.compile(r"^[A-Z][\w'’-]+(?: [A-Z][\w'’-]+)? [A-Z]{1,3},")


def title_after_initials(blocks: list[Block]) -> list[Block]:
    """*blocks*, with an entry's first block that is names ending in an initial, then the title in the
    same sentence ("Hadzilacos, V. Issues of Fault Tolerance ...", "Geddes, K., Czapor, S., and Labahn,
    G. Algorithms for ...", Vancouver's "Saad ED, Buyse M. Overall survival ..."), made two: the names'
    and the title's. The names are family first from the first, two or more or one; the title's first
    sentence is no name."""
    if not blocks or blocks[0].style != "plain" or not (_FAMILY_FIRST_INITIAL.match(blocks[0].text)
                                                         or _VANCOUVER.match(blocks[0].text)):
        return blocks
    text, found = blocks[0].text, None
    for m in list(_AFTER_INITIAL.finditer(text))[:_MAX_INITIALS]:
        names, title = text[:m.start()], text[m.end():]
        count, quality = author_list_quality(names)
        if not count or quality < 0.9 or count == 1 and names.count(",") != 1:
            continue
        head = title.split(". ")[0]
        if len(head.split()) >= 2 and name_score(head) < 0.5:
            found = names, title
    if found is None:
        return blocks
    line = blocks[0].line
    return [Block(found[0], "plain", line), Block(found[1], "plain", line)] + blocks[1:]


# names, then the word that makes them editors: "(Eds.)", "(ed.)", "(Editors)", ", editors." or " (eds),"
_EDITORS_AFTER = re.compile(r"(?:\s*\((?:eds?|editors?|hrsg|éds?|dir)\.?\)|,?\s+(?:eds?\.|editors?\b))[\s.,:;]*",
                            re.I)


def leading_editors(text: str) -> tuple[list[str], str] | None:
    """The names an entry begins with where they are its editors (an edited book: "Rees, J. and W.
    Clinger (Eds.). Title ...", "A. Doe, editor. Title ..."), and the text after them; None where the
    text begins otherwise.

    >>> leading_editors("Roe, J. and A. Doe (Eds.). Graph Kernels. Academic Press, 1999.")
    (['J. Roe', 'A. Doe'], 'Graph Kernels. Academic Press, 1999.')
    >>> leading_editors("Graph Kernels (2nd ed.). Academic Press, 1999.") is None
    True
    """
    m = _EDITORS_AFTER.search(text, 0, _MAX_EDITORS_AT)
    if m is None or not m.start():
        return None
    names = text[:m.start()].strip(" ,")
    if not reads_as_names(names):  # "Graph Kernels (2nd ed.)" names nobody
        return None
    return [a.name for a in split_author_list(names)], text[m.end():]


# the editors' mark is looked for this far into the entry (a long list of editors is rare)
_MAX_EDITORS_AT = 300


def after_leading_editors(lead: tuple[list[str], str], body: list[Block], ref) -> tuple[list[Block], list[Block]]:
    """The title's block and the rest of an edited book's entry, from :func:`leading_editors` of its
    first block; the editors go to *ref* (a :class:`kg.sources.reference.Reference`)."""
    ref.editors, after = lead
    ref.edited = True
    if year := _YEAR_FIRST.match(after):  # "Eales, S (ed.) 2003, The Jacaranda atlas, ..."
        ref.year, after = ref.year or year.group(1), after[year.end():]
    body = ([Block(after, "plain", body[0].line)] if after.strip(" .,;") else []) + body[1:]
    pick = next((i for i, b in enumerate(body[:2]) if b.style in ("quote", "italic", "bold", "link")), 0)
    return body[pick:pick + 1], body[:pick] + body[pick + 1:]


_YEAR_FIRST = re.compile(r"\(?((?:19|20)\d\d)[a-z]?\)?[.,]?(?:\s+|$)")


def name_then_title(text: str) -> tuple[str, str] | None:
    """One person's name in natural order, then after a comma the title, as Chicago's notes print a
    book: "Barrington Moore, Social Origins of Dictatorship" -> ("Barrington Moore", "Social Origins of
    Dictatorship"); None where the text does not begin with a name."""
    head, comma, title = text.partition(", ")
    count, quality = author_list_quality(head)
    if not comma or count != 1 or quality < 0.9 or not 2 <= len(head.split()) <= 4 or len(title.split()) < 1:
        return None
    return head, title


# names, a colon, then the title, in one block (German and some medical styles): "Roe, T.; Tester, K.:
# Graphen im Alltag.", "H Roe, P Tester and J Sample: Kernels of ..."
_NAMES_COLON = re.compile(r"^(?P<names>[^:]{3,300}?):\s+(?P<title>\S.*)$")
_COLON_NAME_PIECES = re.compile(r"\s*[,;]\s*|\s+(?:and|und|et|&)\s+")
# an initial in a name: "T.", "RC", "J.-P."
_AN_INITIAL = re.compile(r"(?:^|\s)[A-Z]{1,3}(?:\.|\s|$)|\b[A-Z]\.")


def names_before_colon(text: str) -> tuple[str, str] | None:
    """The names and the title of a text that is names, a colon and the title, else None. The names are
    two or more, or one with initials or inverted ("Graph Kernels: A Survey" begins with no name).

    >>> names_before_colon("Roe, T.; Tester, K.: Graphen im Alltag.")
    ('Roe, T.; Tester, K.', 'Graphen im Alltag.')
    """
    m = _NAMES_COLON.match(text)
    if m is None or not reads_as_names(m.group("names")):
        return None
    # each name with an initial, or every name family first: "Levin, David, Unsettling Opera: Staging ..."
    # is a name and a title with a colon (Chicago), not two names
    pieces = [p for p in _COLON_NAME_PIECES.split(m.group("names")) if p]
    if len(pieces) % 2 and not all(_AN_INITIAL.search(p) for p in pieces):
        return None
    return m.group("names"), m.group("title")


def marked_names_first(body: list[Block], ref) -> tuple[list[Block], list[Block]] | None:
    """The title's block and the rest of an entry whose first block begins with names a mark ends, the
    names given to *ref* (a :class:`kg.sources.reference.Reference`): an edited book's editors
    (:func:`leading_editors`), or authors before a colon (:func:`names_before_colon`, which says where
    the title begins: "Roe, T.: Grundlagen der Graphen" holds a title that reads as a name). None where
    the first block begins otherwise."""
    head = body[0]
    if head.style != "plain":
        return None
    if lead := leading_editors(head.text):
        return after_leading_editors(lead, body, ref)
    if colon := names_before_colon(head.text):
        ref.authors = split_author_list(colon[0])
        return [Block(colon[1], "plain", head.line)], body[1:]
    return None

