"""Keeping phone numbers and street addresses out of every output.

Documents mention them anywhere: in a biography, an organization's name, a description.
:func:`scrub` removes them from a text; the RDF mapping applies it to every literal unless
the user asks for private data (``kg build --include-private``), and identity to every slug an
IRI is made of, always (:func:`kg.identity.keys.slug`).

Phone numbers are found with ``phonenumbers`` (international numbers, then numbers valid in
the regions of ``kg/words/phone-regions.txt``); street addresses by a number next to a street
word (``kg/words/street-types.txt``) or after a street's name that follows its word
(``street-types-before-name.txt``: "Calle Mayor 5") or before it in French
(``street-types-after-number.txt``: "10 rue de Rivoli"; ``street-types-after-number-with-postcode.txt``
where a postcode follows: "5 place Vendôme, 75001"), a PO box, or a UK or US postcode.
Words written before the name that titles use too ("via") count only where a postcode follows
(``street-types-before-name-with-postcode.txt``: "Via Roma 10, 00184 Roma").
"""

from __future__ import annotations

import re
from functools import lru_cache

from kg.words import alternation, word_list

_DIGITS = re.compile(r"\d")
_LABEL = re.compile(r"(?:\b(?:lab|office|work|home|mobile|cell)\s+)?\b(?:phone|tel(?:ephone)?|fax|mobile|cell|ph|t)"
                    r"\.?\s*(?:no\.?\s*)?[:.]?\s*$", re.I)
_POSTCODES = (
    r"\b[A-Z]{1,2}[0-9][A-Z0-9]? [0-9][A-Z]{2}\b",  # UK: LS2 9JT
    r"\b[A-Z]{2} \d{5}(?:-\d{4})?\b",  # US state and ZIP: MA 02139
    r"\bP\.? ?O\.? Box \d+\b",
)
_TIDY = re.compile(r"(?:\s*[,;]\s*){2,}|\s*,\s*(?=\.)")
_LABEL_COMMA = re.compile(r":\s*,")  # "Office: Kerkstraat 12, Lyon": the label, then the city


#: A street's word that may end the word naming it (Hauptstraße 5, Keplerstr. 7, Kerkstraat 12): those of
#: three letters or more ("Board 15" ends in "rd", "August 2021" in "st", and neither is a street).
STREET_ENDINGS = alternation(w for w in word_list("street-types") if len(w) >= 3)


@lru_cache(maxsize=1)
def _address() -> re.Pattern:
    street = alternation(w.capitalize() for w in word_list("street-types"))  # "3 way handshake" is no address
    # "2013 First Place": a year is no house number before the words of street-types-not-after-a-year
    after_a_year = alternation(w.capitalize() for w in word_list("street-types")
                               if w not in word_list("street-types-not-after-a-year"))
    house = r"\d{1,5}[A-Za-z]?,? (?:[A-Z][\w'.-]* ){0,4}"  # a number, then up to four words of the name
    number_first = rf"\b(?:(?!(?:19|20)\d\d\b){house}(?:{street})|{house}(?:{after_a_year}))\b\.?"
    name_first = rf"\b[A-Z][\w'.-]*(?:{STREET_ENDINGS})\.? \d{{1,5}}[a-z]?\b"
    named_street = rf"\b(?:[A-Z][\w'.-]* ){{1,3}}(?:{street})\.? \d{{1,5}}[a-z]?\b"
    # Calle Mayor 5, ul. Marszałkowska 10; "Via Roma 10" only with its postcode ("Learning Via Graph
    # Networks 2" is a title)
    street_first = "|".join([_name_then_number("street-types-before-name", ""),
                             _name_then_number("street-types-before-name-with-postcode", r"(?=,? \d{5}\b)")])
    # 10 rue de Rivoli, 75001; 3 bis avenue Foch; "5 place Vendôme" only with its postcode ("top 5 place
    # Recognition" is a title)
    french = "|".join([_number_then(_both_cases("street-types-after-number"), r"(?:,? \d{5}\b)?"),
                       _number_then(_both_cases("street-types-after-number-with-postcode"), r",? \d{5}\b")])
    # the French form first: at one place the first alternative that matches wins, and "7 Avenue" alone
    # would leave the name of "7 Avenue des Ternes"
    return re.compile("|".join([french, number_first, name_first, named_street, street_first, *_POSTCODES]))


def _name_then_number(name: str, postcode: str) -> str:
    """A street's word of the list *name* (capitalised; an abbreviation, which ends in its dot, also as
    written), up to four words of the street's name (capitalised, or particles such as "de", "degli"),
    a house number that is not a year (in a title: "Plaza Vieja 2019"), then *postcode* (a pattern)."""
    # each once, in the list's order (a set's order changes from one run to the next)
    forms = ((word, word.capitalize()) if word.endswith(".") else (word.capitalize(),) for word in word_list(name))
    words = alternation(dict.fromkeys(w for pair in forms for w in pair))
    return (rf"\b(?:{words})(?: (?:[a-z]{{1,3}}|degli|della|delle|dello|[A-Z][\w'.-]*)){{1,4}},? "
            rf"(?!(?:19|20)\d\d\b)\d{{1,4}}[a-z]?\b{postcode}")


def _number_then(words: str, postcode: str) -> str:
    """A house number (and bis, ter), one of *words*, then the street's name (a capitalised word after
    particles such as "de la" or an elided "d'", and up to three more), then *postcode* (a pattern)."""
    return (rf"\b\d{{1,4}}(?: ?(?:bis|ter)\b)?,? (?:{words})\.?(?: [a-z]{{1,3}}){{0,3}}(?: [dl]['’]| )"
            rf"[A-Z][\w'’.-]*(?: [A-Z][\w'’.-]*){{0,3}}{postcode}")


def _both_cases(name: str) -> str:
    """The words of the list *name*, in lower case and capitalised, as a pattern's alternatives."""
    return alternation(w for word in word_list(name) for w in (word, word.capitalize()))


#: Runs of digits and the characters numbers are written with: only these go to phonenumbers,
#: so a long text costs time in proportion to its length.
_NUMBERISH = re.compile(r"(?<![\w.:/-])\+?\(?\d[\d \t().\-/]{4,24}\d(?![\w@])")  # not inside a word, hash, DOI


@lru_cache(maxsize=4096)
def _phones_in(candidate: str, regions: tuple) -> tuple:
    import phonenumbers

    for region in regions:
        found = tuple((m.start, m.end) for m in phonenumbers.PhoneNumberMatcher(candidate, region))
        if found:
            return found
    return ()


#: Candidates tried in every region of the list; past them (a table of figures), in the first two only,
#: so that a long literal costs time in proportion to its length.
_FULL_TRIES = 20


def _phone_spans(text: str) -> list[tuple[int, int]]:
    regions = (None, *(r.upper() for r in word_list("phone-regions")))
    spans, tried = [], 0
    for candidate in _NUMBERISH.finditer(text):
        if len(_DIGITS.findall(candidate.group())) < 6:
            continue
        tried += 1
        found = _phones_in(candidate.group(), regions if tried <= _FULL_TRIES else regions[:2])
        spans += [(candidate.start() + start, candidate.start() + end) for start, end in found]
    return spans


def scrub(text: str) -> str:
    """*text* without the phone numbers and street addresses in it (and a label such as ``phone``).

    >>> scrub("Lab phone 0113 343 5430, School of Computing, University of Leeds")
    'School of Computing, University of Leeds'
    >>> scrub("Reach me at +1 617-253-1000 or at 77 Massachusetts Avenue, Cambridge, MA 02139.")
    'Reach me at or at, Cambridge.'
    >>> digest = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"  # digits inside a word stay
    >>> scrub(digest) == digest
    True
    >>> scrub("12 Acacia Crescent, Leeds"), scrub("Keplerstr. 7, Stuttgart")  # a house number of one or two digits
    ('Leeds', 'Stuttgart')
    >>> scrub("Rue de Rivoli 10, Paris"), scrub("Calle Mayor 5, Madrid"), scrub("Plaza Vieja 2019")  # the word first
    ('Paris', 'Madrid', 'Plaza Vieja 2019')
    >>> scrub("10 rue de Rivoli, 75001 Paris"), scrub("3 bis avenue Foch, Lyon"), scrub("12, quai d'Orsay, Paris")
    ('Paris', 'Lyon', 'Paris')
    >>> scrub("7 Avenue des Ternes, Paris"), scrub("Office: Kerkstraat 12, Amsterdam")
    ('Paris', 'Office: Amsterdam')
    >>> scrub("Top 5 place Recognition methods"), scrub("In 2 rue names")  # no postcode; no name after "rue"
    ('Top 5 place Recognition methods', 'In 2 rue names')
    >>> scrub("5 place Vendôme, 75001 Paris")  # "place" is a street's word where a postcode follows
    'Paris'
    >>> scrub("2013 First Place in Robotics"), scrub("12 Acacia Place, Leeds"), scrub("1999 Main Street, Leeds")
    ('2013 First Place in Robotics', 'Leeds', 'Leeds')
    >>> scrub("Board 15: Engineering Students")  # a poster's board at a conference, no street ("rd")
    'Board 15: Engineering Students'
    >>> scrub("Best Paper Award 2015, cited in July/August 2021"), scrub("Workshop, Oct 31-Nov 2, 2025")
    ('Best Paper Award 2015, cited in July/August 2021', 'Workshop, Oct 31-Nov 2, 2025')
    >>> scrub("Published 2019-2020 in volume 12, pages 100-120; a 3 way handshake in 5 steps we close.")
    'Published 2019-2020 in volume 12, pages 100-120; a 3 way handshake in 5 steps we close.'
    """
    if not isinstance(text, str) or not _DIGITS.search(text):
        return text  # a phone number or an address has digits; most literals have none
    # a house number may be one digit ("Hauptstraße 5"); a phone number has six at least
    spans = _phone_spans(text) if len(_DIGITS.findall(text)) >= 6 else []
    spans += [m.span() for m in _address().finditer(text)]
    if not spans:
        return text
    out, last = [], 0
    for start, end in sorted(spans):
        if end <= last:
            continue
        before = text[last:max(start, last)]
        label = _LABEL.search(before)
        out.append(before[:label.start()] if label else before)
        last = max(last, end)
    out.append(text[last:])
    cleaned = _LABEL_COMMA.sub(": ", _TIDY.sub(lambda m: "" if m.group().strip() == "," else ", ", "".join(out)))
    return " ".join(cleaned.split()).strip(" ,;:-").replace(" ,", ",").replace(" .", ".")
