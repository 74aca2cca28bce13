"""Printed author lists, in every common style, turned into names in printed order.

Styles read: "Given Family", "Family, Given", "Family, G.", "G. Family", "GH Family", compact
initials ("Wells, H.B.M"), Vancouver ("Doe JA, Roe R"), lists joined by ``,``, ``;``, ``and``,
``&`` (French ``et``, German ``und``); ``et al.``, ``and others`` or ``...`` (also in the middle);
suffixes ("Roe, Jr., J.", "Doe III, Jane"); marks (``*``, ``†``, ``‡``, ``(*)``, ``^1``, ``<sup>``,
superscript digits); bold, underlined or linked names.

Names are given as the corpus convention has it: "Family, Given" is turned round ("Given
Family"), Vancouver "Family GI" becomes "GI Family", anything else stays as printed without its
decoration.

>>> [a.name for a in split_author_list("Doe, J., Roe, R. A., & **Poe, E.**")]
['J. Doe', 'R. A. Roe', 'E. Poe']
>>> [a.name for a in split_author_list("Doe JA, Roe R, Poe E")]
['JA Doe', 'R Roe', 'E Poe']
>>> [(a.name, a.equal_contribution) for a in split_author_list("Ada Lovelace*, Charles Babbage† and Mary Somerville")]
[('Ada Lovelace', True), ('Charles Babbage', True), ('Mary Somerville', False)]
"""

from __future__ import annotations

import html
import re
from functools import cache, lru_cache

from kg.records import Author
from kg.sources.markup import MD_LINK
from kg.words import alternation, word_list

_TAG = re.compile(r"<[^>]+>")
# Marks that say "these authors contributed equally" (or "corresponding"): kept as a flag.
_EQUAL_MARKS = "*\u2020\u2021\u2217\u204e"
_SUPERSCRIPTS = "\u00b9\u00b2\u00b3\u2070\u2074\u2075\u2076\u2077\u2078\u2079"
_ET_AL = re.compile(r"^(?:et\.?\s*al\.?|others|\.{3}|\u2026)$", re.I)
CAPITAL = "A-ZÀ-ÖØ-ÞĆČĐŁŃŘŚŠŻŹŽ"  # capitals that begin names and initials ("Á. Fekete", "Ž. Roe")
_INITIAL = rf"(?:[{CAPITAL}][a-z]?\.|[{CAPITAL}](?![a-z]))"
# "R.", "C. E.", "P.S.", "H.B.M", "J.-P.", "Th." and undotted Vancouver runs "JA".
INITIALS = re.compile(rf"^(?:{_INITIAL}[\s.\-\u2010\u2011]*){{1,4}}$")
_UPPER_RUN = re.compile(r"^[A-Z]{1,3}$")


def _titles() -> re.Pattern:
    words = sorted(word_list("name-titles"), key=len, reverse=True)
    alternatives = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in words)
    return re.compile(rf"^(?:(?:{alternatives})\.?\s+)+", re.I)


_TITLE_WORDS = _titles()


_SUP = re.compile(r"<sup>.*?</sup>", re.I | re.S)
_SUP_MARK = re.compile(r"[*\u2020\u2021]|&dagger;|&Dagger;")
_MARK_IN_BRACKETS = re.compile(r"\(\s*[*\u2020\u2021#]+\s*\)")
_SUPERSCRIPT = re.compile(r"\^\{[^}]*\}|\^[\w,*\u2020\u2021]+|\$\^\{?[^$]*\$")
_MARKS = re.compile(rf"[{_EQUAL_MARKS}#§¶{_SUPERSCRIPTS}]+")
_AFFILIATION_NUMBER = re.compile(r"(?<=[a-z])\d+(?:,\d+)*$")
_LONE_UNDERSCORE = re.compile(r"(?<![\w.])_|_(?![\w])")
_ADVISEE_MARK = re.compile(r"\(\s*\*\s*\)")
_SPACES = re.compile(r"\s+")
_ENDS_WITH_INITIAL = re.compile(rf"(?:^|[\s.,\-]){_INITIAL}$")
# initials, then a family name of two letters and the period that ends the entry's author: "W. Li."
_FAMILY_OF_TWO_LETTERS = re.compile(rf"^(?:{_INITIAL}\s*)+\s[{CAPITAL}][a-z]\.$")
_NOT_IN_NAMES = re.compile(r"\d|[:?!\"“”=/@]")
_PARTICLE_INITIAL = re.compile(r"[a-z]\.")
_SHORT_LOWER = re.compile(r"[a-z]{1,4}")
_INITIALS_THEN_NAME = re.compile(rf"^((?:{_INITIAL}[\s.\-]*)+?)\s+(\S.*)$")
_BY = re.compile(r"^(?:by|with)\s+", re.I)
_ELLIPSIS = re.compile(r"\s*(?:\.{3}|\u2026)\s*")
_ET_AL_AFTER_NAME = re.compile(r"(?<=\w)\s+et\.?\s*al\b\.?")
_SUFFIXES = alternation(word_list("name-suffixes"))
# a suffix after a comma, itself followed by the next name or the list's end: "Guerney, Jr., B. G." and
# "Martin Luther King, Jr., Ada Roe" lose that comma ("Guerney Jr., B. G.")
_ANY_SUFFIX = rf"(?i:{_SUFFIXES}|{alternation(word_list('name-suffixes-like-initials'))})\.?"
_COMMA_SUFFIX = re.compile(rf",\s+({_ANY_SUFFIX})(?=\s*(?:[,;&]|$|\s+and\s))")
# every suffix, lower case and without its period
_ANY_SUFFIX_WORDS = frozenset(word_list("name-suffixes")) | frozenset(word_list("name-suffixes-like-initials"))
# a family name's suffix ("Stewart III", "Guerney Jr."): no initial, nor a second family name
_SUFFIX_END = re.compile(rf"\s+(?i:{_SUFFIXES})\.?$")
_ENTITY = re.compile(r"&\w+;")
_AMPERSAND = re.compile(r"&amp;", re.IGNORECASE)
_VANCOUVER_END = re.compile(r"\s[A-Z]{1,3}\.?$")
_NO_AUTHOR_LIST = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)|[\[\]:?!\"“”]")


def _sup_mark(m: re.Match) -> str:
    return "*" if _SUP_MARK.search(m.group(0)) else ""


_EMPHASIS = re.compile(r"(?<![\w*\\])\*(?=[^\s*])([^*]+?)(?<=[^\s\\])\*(?![\w*])"
                       r"|(?<![\w_])_(?=\S)([^_]+?)(?<=\S)_(?!\w)")


@lru_cache(maxsize=8192)
def _plain(raw: str) -> str:
    """Text of a name without markup (links, bold, italic, underline, tags, escapes); marks kept."""
    text = raw
    if "<" in text:  # each step only where its mark is there to act on
        text = _SUP.sub(_sup_mark, text)
    if "](" in text:
        text = MD_LINK.sub(lambda m: m.group(1), text)
    if "<" in text:
        text = _TAG.sub("", text)
    text = html.unescape(text).replace("**", "").replace("__", "")
    if "*" in text or "_" in text:
        text = _EMPHASIS.sub(lambda m: m.group(1) or m.group(2), text)
    return text.replace("\\", "")


@lru_cache(maxsize=8192)
def strip_marks(text: str) -> str:
    """A name without its footnote and contribution marks."""
    if "(" in text:
        text = _MARK_IN_BRACKETS.sub("", text)
    if "^" in text:
        text = _SUPERSCRIPT.sub("", text)
    text = _MARKS.sub("", text)
    text = _AFFILIATION_NUMBER.sub("", text)  # affiliation numbers glued to a name
    return _LONE_UNDERSCORE.sub("", text) if "_" in text else text


@lru_cache(maxsize=8192)
def is_equal_contribution(printed: str) -> bool:
    """True for a name printed with ``*``, ``†`` or ``‡`` (not the advisee mark ``(*)``)."""
    text = _ADVISEE_MARK.sub("", _plain(printed))
    return any(c in text for c in _EQUAL_MARKS)


@lru_cache(maxsize=8192)
def clean_person_name(printed: str) -> str:
    """A printed name cleaned of decoration and titles; ``"Family, Given"`` is turned round.

    The order of a name written family-first without a comma is kept: only identity,
    which sees every variant, can tell that ``"Li Wei"`` is ``"Wei Li"``.

    >>> clean_person_name("Curie, Marie"), clean_person_name("Prof. Li Wei"), clean_person_name("**Doe, J.**\\\\*")
    ('Marie Curie', 'Li Wei', 'J. Doe')
    >>> clean_person_name("W. Li."), clean_person_name("Th. Doe"), clean_person_name("Doe, Th.")
    ('W. Li', 'Th. Doe', 'Th. Doe')
    """
    text = strip_marks(_plain(printed)).replace("\u00a0", " ")
    text = _SPACES.sub(" ", text).strip(" ,;")
    text = _TITLE_WORDS.sub("", text.lstrip(" .,;:")).strip(" ,;")
    if not _ENDS_WITH_INITIAL.search(text) or _FAMILY_OF_TWO_LETTERS.search(text):
        text = text.rstrip(" .")  # a final period that is not an initial's ("W. Li.": Li is the family name)
    if text.count(",") == 1:
        family, given = (p.strip() for p in text.split(","))
        if family and given:
            suffix = _SUFFIX_END.search(given)  # "Roe, J. Jr." is "J. Roe Jr."
            text = f"{given[:suffix.start()]} {family}{suffix.group()}" if suffix else f"{given} {family}"
    return text.strip()


@cache
def _not_name_words() -> frozenset[str]:
    return frozenset(word_list("non-name-words")) | frozenset(word_list("venue-words"))


@cache
def _particles() -> frozenset[str]:
    return frozenset(word_list("name-particles"))


def looks_like_person_name(text: str) -> bool:
    """Two to five capitalised words (lower-case particles such as "van" allowed), no digits.

    >>> looks_like_person_name("Ludwig van Beethoven"), looks_like_person_name("Deep learning")
    (True, False)

    A capitalised particle is a name of its own ("Bin", "Le", "Da" are given names too); only a
    lower-case one cannot begin a two-word name:

    >>> looks_like_person_name("Bin Li"), looks_like_person_name("Le Song"), looks_like_person_name("van Gogh")
    (True, True, False)
    """
    words = text.replace("-", " ").split()
    if not 2 <= len(words) <= 5 or re.search(r"\d", text):
        return False
    particles = _particles()
    if words[0] in particles and len(words) < 3:
        return False
    return all(w[:1].isupper() or w[:1] in "'" or w.lower() in particles for w in words)


@lru_cache(maxsize=8192)
def name_score(part: str) -> float:
    """How much a piece of text looks like one person's name: 1 sure, 0.5 maybe, 0 not.

    >>> name_score("A.V. Matveev"), name_score("J. Chem. Phys."), name_score("Morel, R."), name_score("the model")
    (1.0, 0.0, 1.0, 0.0)
    """
    text = _SPACES.sub(" ", clean_person_name(part)).strip()
    if not text or _NOT_IN_NAMES.search(text) or len(text) > 60:
        return 0.0
    words = [w for w in text.split() if not _PARTICLE_INITIAL.fullmatch(w)] or text.split()  # "F. d. J. Roe": "d." (de)
    particles = _particles()
    initials = [w for w in words if INITIALS.match(w)]
    others = [w for w in words if not INITIALS.match(w)]
    if any(w.endswith(".") and not INITIALS.match(w) for w in words):
        return 0.0  # "Chem." "Proc.": abbreviations of a venue
    if any(not (w[:1].isupper() or w[:1] in "'’") and w.lower() not in particles for w in others):
        return 0.0
    if any(w.lower().strip(".,") in _not_name_words() for w in others):
        return 0.1
    if not others or len(others) > 4:
        return 0.0
    if initials:
        return 1.0
    if len(words) == 1:
        return 0.2
    if len(words) > 4:
        return 0.3
    return 0.9 if all(len(w) > 1 for w in others) else 0.5


def _split_top_level(text: str, separators: re.Pattern) -> list[str]:
    """Split on *separators* outside brackets, parentheses and braces (no separator holds one).

    Each step is one search: for the next separator before the next bracket (at depth 0), else
    for the bracket after that one; so the text is read once, not a match tried at every character.
    """
    parts, depth, last = [], 0, 0
    i = 0
    bracket = _BRACKETS.search(text)
    while i < len(text):
        if bracket and bracket.start() < i:
            bracket = _BRACKETS.search(text, i)
        stop = bracket.start() if bracket else len(text)
        if depth == 0:
            m = separators.search(text, i, stop)
            if m:
                parts.append(text[last:m.start()])
                last = i = m.end()
                continue
        if not bracket:
            break
        depth = depth + 1 if bracket.group() in "[({" else max(0, depth - 1)
        i = stop + 1
    parts.append(text[last:])
    return [p.strip() for p in parts]


_BRACKETS = re.compile(r"[\[\](){}]")
#: "and" between names; in French and German lists "et" and "und", in lower case before a capital ("Ruin,
#: I. et Lutoff, C."; "et al." is no "and"); Spanish "y" and Portuguese "e" only after an initial or before
#: one ("García, M. y Pérez, J.", "J. García y M. Pérez"): "Ortega y Gasset" is one name.
AND = (rf"(?:and|(?-i:(?:et|und)(?=\s+[{CAPITAL}]))|(?-i:(?<=\.\s)[ye](?=\s+[{CAPITAL}]))"
       rf"|(?-i:[ye](?=\s+[{CAPITAL}]\.)))")
_SEMICOLON_SEPARATORS = re.compile(rf"\s*;\s*(?:and\s+|&\s*)?|\s+{AND}\s+|\s*&\s*", re.I)
_AND_SEPARATORS = re.compile(rf"\s*,?\s+(?:{AND}|&)\s+|\s*&\s*", re.I)
_LIST_SEPARATORS = re.compile(rf"\s*(?:,\s*(?:{AND}|&)\s+|;\s*(?:and|&)?\s*|,|\s+{AND}\s+|\s*&\s*|\s+with\s+)", re.I)
# Capitals checked with str.isupper below, so "Örsvuran" and "Łukasz" count as capitalised.
_FAMILY_ONLY = re.compile(r"^(?:[a-z]{1,4}\s+)*[^\W\d_][\w'’\-\u2010\u2011]+(?:\s+[^\W\d_][\w'’\-\u2010\u2011]+){0,2}$")


@lru_cache(maxsize=8192)
def _family_only(part: str) -> bool:
    text = _SUFFIX_END.sub("", clean_person_name(part))
    capitalised = all(w[:1].isupper() for w in text.split() if not _SHORT_LOWER.fullmatch(w))
    return bool(_FAMILY_ONLY.match(text)) and capitalised and not INITIALS.match(text) and not any(
        INITIALS.match(w) for w in text.split())


@lru_cache(maxsize=8192)
def _initials_only(part: str) -> bool:
    text = strip_marks(_plain(part)).strip()
    return bool(INITIALS.match(text)) and text.lower().rstrip(".") not in word_list("name-titles")


def _pair_family_first(parts: list[str]) -> list[str] | None:
    """``["Doe", "J.", "Roe", "R. A."]`` -> ``["Doe, J.", "Roe, R. A."]``: APA's "Family, I." pairs.

    Also mends a missing comma (``"Doe, J. Roe, R."``), where the name it splits off pairs in turn:
    ``"Jane Doe, X. Roe, J. Poe"`` is three names, not "Jane Doe, X." and "Roe, J." with "Poe" left over.
    None when the parts are not in pairs.
    """
    out: list[str] = []
    i, paired = 0, 0
    split_off = -1  # the index of a name a mended comma split off: it must pair with initials of its own
    while i < len(parts):
        part = parts[i]
        nxt = parts[i + 1] if i + 1 < len(parts) else None
        if _family_only(part) and nxt is not None:
            if _initials_only(nxt):
                out.append(f"{part}, {nxt}")
                i, paired = i + 2, paired + 1
                continue
            m = _INITIALS_THEN_NAME.match(strip_marks(_plain(nxt)).strip())
            if m and _family_only(m.group(2)) and _initials_only(m.group(1)):
                out.append(f"{part}, {m.group(1)}")
                parts = parts[: i + 1] + [nxt[nxt.find(m.group(2)):]] + parts[i + 2:]
                i, paired, split_off = i + 1, paired + 1, i + 1
                continue
        if i == split_off:
            return None
        out.append(part)
        i += 1
    if not paired:
        return None
    names = [p for p in out if not _ET_AL.match(_plain(p).strip())]
    ok = 2 * paired >= len(names) and not any(_initials_only(p) for p in out)
    return out if ok else None


def _first_inverted(parts: list[str]) -> list[str] | None:
    """Chicago and MLA invert only the first name: ``["Doe", "Jane", "Rick Roe"]`` -> ``["Doe, Jane", "Rick Roe"]``;
    its given name may be initials where every name after it is whole: ``["Lee", "L. L.", "W. E. Howard"]``."""
    if len(parts) < 2 or not _family_only(parts[0]):
        return None
    # one family name, after particles in lower case where it has them ("van Arragon, Paul"; "Bin Pan,
    # Alexander Wright" is two names)
    if any(not w.islower() or w not in _particles()
           for w in _SUFFIX_END.sub("", clean_person_name(parts[0])).split()[:-1]):
        return None
    if _initials_only(parts[1]):
        rest = [p for p in parts[2:] if not _ET_AL.match(_plain(p).strip())]
        whole = rest and all(len(clean_person_name(p).split()) >= 2 and not _initials_only(p) and name_score(p) >= 0.5
                             for p in rest)
        return [f"{parts[0]}, {parts[1]}"] + parts[2:] if whole else None
    given = clean_person_name(parts[1]).split()
    if not 1 <= len(given) <= 3 or not given[0][:1].isupper() or INITIALS.match(given[0]):
        return None
    if len(given) >= 2 and not INITIALS.match(given[-1]) and len(parts) > 3:
        return None  # "Rick Roe" is a whole name in a longer list ("Doe, Jane Ann, and Rick Roe" is two)
    rest = parts[2:]
    if rest and not all(len(clean_person_name(p).split()) >= 2 or _ET_AL.match(_plain(p).strip()) for p in rest):
        return None
    return [f"{parts[0]}, {parts[1]}"] + rest


def _turn_vancouver(name: str) -> str:
    """``"Doe JA"`` -> ``"JA Doe"``; ``"Morel R."`` -> ``"R. Morel"``; other names unchanged."""
    words = name.split()
    # a name of two words or more, then a suffix: "Ada Roe II", not Vancouver's initials ("Ivanov II")
    if len(words) >= 3 and words[-1].rstrip(".").lower() in _ANY_SUFFIX_WORDS:
        return name
    if len(words) >= 2 and INITIALS.match(words[-1]) and not any(INITIALS.match(w) for w in words[:-1]) \
            and (_UPPER_RUN.match(words[-1]) or words[-1].endswith(".") or "." in words[-1]):
        return " ".join([words[-1]] + words[:-1])
    return name


def split_author_list(raw: str) -> list[Author]:
    """Authors of a printed list in order; ``et al.`` (anywhere) marked on the author before it.

    >>> [a.name for a in split_author_list("Wells, H.B.M, Crego, R.D. & Alston, J.M.")]
    ['H.B.M Wells', 'R.D. Crego', 'J.M. Alston']
    >>> [(a.name, a.et_al_follows) for a in split_author_list("Jane Doe, ..., Wei Li and others")]
    [('Jane Doe', True), ('Wei Li', True)]
    >>> [a.name for a in split_author_list("Curie, Marie; Pierre Curie")]
    ['Marie Curie', 'Pierre Curie']
    """
    return list(_split_author_list(raw))


@lru_cache(maxsize=4096)
def _split_author_list(raw: str) -> tuple[Author, ...]:
    text = raw.replace("\u00a0", " ").strip().lstrip(".,;: ")
    if "&" in text:  # an HTML page's "&amp;" between the last two names is the "&" it stands for
        text = _AMPERSAND.sub("&", text)
    text = _BY.sub("", text)
    if "..." in text or "\u2026" in text:  # each step only where its pattern's characters are
        text = _ELLIPSIS.sub(", ..., ", text)
    if "et" in text:
        text = _ET_AL_AFTER_NAME.sub(", et al.", text)
    if "," in text:
        text = _COMMA_SUFFIX.sub(r" \1", text)
    text = text.rstrip(" ,;")
    if ";" in text and ";" in _ENTITY.sub("", text):
        parts = _split_top_level(text, _SEMICOLON_SEPARATORS)
        groups = parts
    else:
        and_groups = _split_top_level(text, _AND_SEPARATORS)
        bib_style = len(and_groups) >= 2 and all(g.count(",") == 1 and not _initials_only(g.split(",")[1])
                                                  and _family_only(g.split(",")[0]) for g in and_groups)
        if bib_style:  # "Doe, Jane and Roe, Richard"
            groups = and_groups
        else:
            parts = [p for p in _split_top_level(text, _LIST_SEPARATORS) if p]
            groups = _pair_family_first(parts) or _first_inverted(parts) or parts
    if groups and groups[-1].endswith("."):
        vancouver = [g for g in groups if "," not in g and _VANCOUVER_END.search(strip_marks(_plain(g)).strip())]
        if len(vancouver) >= 0.5 * len(groups) and groups[-1] in vancouver:
            groups[-1] = groups[-1][:-1]  # the period that ends a Vancouver list is not an initial's
    plain_groups = [strip_marks(_plain(g)).strip(" .") for g in groups if "," not in g]
    family_first = [g for g in plain_groups if _turn_vancouver(g) != g]
    turn = len(family_first) >= max(1, 0.5 * len(plain_groups))  # "Doe JA, Roe R": the list's own style
    authors: list[Author] = []
    for part in groups:
        unstyled = _plain(part)
        plain = strip_marks(unstyled).strip(" .,") if not _ET_AL.match(unstyled.strip()) else "..."
        if _ET_AL.match(unstyled.strip(" ,")) or _ET_AL.match(plain):
            if authors:
                last = authors[-1]
                authors[-1] = Author(last.printed, last.name, last.equal_contribution, True)
            continue
        name = clean_person_name(part)
        if turn and "," not in strip_marks(unstyled):
            name = _turn_vancouver(name)
        if name:
            authors.append(Author(part.strip(), name, is_equal_contribution(part)))
    return tuple(authors)


@lru_cache(maxsize=8192)  # an entry's blocks are weighed as author lists more than once
def author_list_quality(raw: str) -> tuple[int, float]:
    """How many names *raw* lists, and the share of its parts that look like names (0-1).

    >>> author_list_quality("Doe, J., Roe, R. & Poe, E.")
    (3, 1.0)
    >>> author_list_quality("Deep learning for graphs, a survey")[1]
    0.0
    """
    text = _plain(raw)
    if not text.strip() or _NO_AUTHOR_LIST.search(strip_marks(text)):
        return 0, 0.0
    authors = _split_author_list(raw)
    if not authors:
        return 0, 0.0
    scores = [name_score(a.printed) for a in authors]
    return len(authors), sum(scores) / len(scores)


def looks_like_author_list(raw: str) -> bool:
    """True when *raw* is a list of two or more names, or one name with ``et al.``."""
    count, quality = author_list_quality(raw)
    if quality < 0.75:
        return False
    return count >= 2 or bool(re.search(r"et\.?\s*al|others|\.\.\.", raw))
