"""Where a plain entry's title ends when its block runs on into the venue: "Scheduling in Parallel
Systems. Proc. of the ACM ..." or "A Note on the Permanent, Information and Computation, 84,
119-127". Used by :mod:`kg.sources.reference`.
"""

from __future__ import annotations

import re

from kg.words import alternation, word_list

#: The words of ``kg/words/venue-words.txt`` as a pattern's alternatives.
VENUE_WORDS = alternation(word_list("venue-words"))
# a sentence's end, then a venue's word: "Systems. Proc. of the ACM", "CDMA. Journal of Lightwave",
# "public health measure? Journal of Clinical Oncology" (the question's mark stays in the title)
_VENUE_AFTER_SENTENCE = re.compile(rf"(?:(?<=[\w)])\.|(?<=[?!]))\s+(?=(?i:{VENUE_WORDS})\b)")
_COMMA = re.compile(r",\s+(?=[A-Z])")
# the year after the title's words: "The Objective Caml system, documentation and user's guide, 1997"
_YEAR_AT_END = re.compile(r",\s*(?=(?:19|20)\d\d\.?$)")
_NUMBER_OR_VENUE = re.compile(rf"\d|\b(?i:{VENUE_WORDS})\b")
# "Scaling Laws, Part 2": a title's own numbering, not its venue
_NUMBERING = re.compile(r"(?i:part|vol|volume|no|chapter|book|series)\b")
#: Where and by whom a book came out, in parentheses after its title (Chicago's notes): "The Chaos
#: Avant-Garde (Singapore: World Scientific, 2001)", "Orfeo (Cambridge University Press, 1986)"
PUBLISHED_AFTER = re.compile(r"\s+\((?=[^()]{2,200}[:,]\s*[^()]{0,200}\b(?:19|20)\d\d[a-z]?\)[\s.,;]*$)")


def title_and_tail(title: str, alone: bool) -> tuple[str, str]:
    """*title* cut where its venue begins inside it, and that tail ("" where none): before a parenthesis
    that says where and when it came out; after a sentence's end before a venue's word; where the
    title's block is the entry's last (*alone*), at the first comma before a capitalised piece that
    holds a number or a venue's word; else before a year that ends it.

    >>> title_and_tail("Scheduling in Parallel Systems. Proc. of the ACM Conf. 16", alone=False)
    ('Scheduling in Parallel Systems', 'Proc. of the ACM Conf. 16')
    >>> title_and_tail("Overall survival: an end point? Journal of Oncology 2012; 30:1750-4", alone=True)
    ('Overall survival: an end point?', 'Journal of Oncology 2012; 30:1750-4')
    >>> title_and_tail("A Note on the Permanent, Information and Computation, 84, 119-127", alone=True)
    ('A Note on the Permanent', 'Information and Computation, 84, 119-127')
    >>> title_and_tail("Attention, intention, and discourse, Computational Linguistics 12(3)", alone=True)
    ('Attention, intention, and discourse', 'Computational Linguistics 12(3)')
    >>> title_and_tail("The Caml system, documentation and user's guide, 1997", alone=False)
    ("The Caml system, documentation and user's guide", '1997')
    >>> title_and_tail("Orfeo and Its Myths (Cambridge University Press, 1986).", alone=True)
    ('Orfeo and Its Myths', 'Cambridge University Press, 1986')
    >>> title_and_tail("Scaling Laws, Part 2", alone=True), title_and_tail("Robot Vision, MIT Press", alone=False)
    (('Scaling Laws, Part 2', ''), ('Robot Vision, MIT Press', ''))
    """
    found = PUBLISHED_AFTER.search(title)
    if found and len(title[:found.start()].split()) >= 2:
        return title[:found.start()], title[found.end():].rstrip(" .,;)")
    found = _VENUE_AFTER_SENTENCE.search(title)
    if found and len(title[:found.start()].split()) >= 2:
        return title[:found.start()], title[found.end():]
    if alone:
        for comma in _COMMA.finditer(title):
            head, tail = title[:comma.start()], title[comma.end():]
            if len(head.split()) >= 2 and _NUMBER_OR_VENUE.search(tail) and not _NUMBERING.match(tail):
                return head, tail
    found = _YEAR_AT_END.search(title)
    if found and len(title[:found.start()].split()) >= 2:
        return title[:found.start()], title[found.end():]
    return title, ""
