"""Repairing IRIs made from what documents say: a homepage, a link, an ORCID.

A document's value may not be a valid IRI (``https://x.y/a|b``, a control character, a
bare ORCID iD). :func:`repair_iri` percent-encodes what can be encoded and gives None for
what cannot be an IRI at all, so one bad link never stops a build.
"""

from __future__ import annotations

import re

_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
_ORCID = re.compile(r"(?:https?://(?:www\.)?orcid\.org/)?(\d{4}-\d{4}-\d{4}-\d{3}[\dX])/?", re.I)
_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")
#: Characters an IRI may not hold as they are (RFC 3987), beside controls and spaces.
_UNSAFE = frozenset('<>"{}|\\^`')


def _encode(char: str) -> str:
    if char in _UNSAFE or ord(char) <= 0x20 or 0x7F <= ord(char) <= 0x9F or char in "\u2028\u2029\ufeff":
        return "".join(f"%{byte:02X}" for byte in char.encode("utf-8"))
    return char


def repair_iri(value: str, *, orcid: bool = False) -> str | None:
    """*value* as a valid absolute IRI, percent-encoding what needs it, or None if it is none.

    With *orcid*, a bare iD becomes its ``https://orcid.org/`` IRI and anything else that is not
    an iD gives None.

    >>> repair_iri("https://x.y/a|b")
    'https://x.y/a%7Cb'
    >>> repair_iri("https://x.y/a\\x07b c")
    'https://x.y/a%07b%20c'
    >>> repair_iri("www.example.org/~me")
    'https://www.example.org/~me'
    >>> repair_iri("0000-0002-1825-0097", orcid=True)
    'https://orcid.org/0000-0002-1825-0097'
    >>> repair_iri("see my page") is None, repair_iri("orcid: none", orcid=True) is None
    (True, True)
    """
    import pyoxigraph

    text = value.strip() if isinstance(value, str) else ""
    if orcid:
        match = _ORCID.fullmatch(text)
        return f"https://orcid.org/{match[1].upper()}" if match else None
    if text[:4].lower() == "www.":
        text = "https://" + text
    if not _SCHEME.match(text):
        return None
    iri = "".join(_encode(c) for c in _PERCENT.sub("%25", text))
    try:
        pyoxigraph.NamedNode(iri)
    except ValueError:
        return None
    return iri
