"""Bytes to text: the encoding is detected, and a bad byte costs that character, not the document."""

from __future__ import annotations

from kg.records import Skip, Span


def decode_text(data: bytes, name: str) -> tuple[str, list[Skip]]:
    """Decode *data* as UTF-8 (a BOM is dropped); failing that, as the encoding
    charset-normalizer detects; failing that, as UTF-8 with each bad byte replaced.

    Returns the text and one warning per replaced or re-decoded byte run, naming the line.

    >>> decode_text("Müller".encode(), "a.txt")
    ('Müller', [])
    >>> text, warnings = decode_text(b"ok\\nbad \\xff byte\\n" + "é".encode() * 30, "a.txt")
    >>> text.splitlines()[1], [str(w) for w in warnings]
    ('bad \\ufffd byte', ["a.txt:2: a byte that is not UTF-8 was replaced by '\\ufffd' (save the file as UTF-8)"])
    """
    try:
        return data.decode("utf-8-sig"), []
    except UnicodeDecodeError as err:
        first_bad = err.start
    # Mostly UTF-8 with a few stray bytes: keep UTF-8 and mark where the bytes were.
    text = data.decode("utf-8-sig", errors="replace")
    if _mostly_utf8(text):
        return text, _replacement_warnings(text, name)
    from charset_normalizer import from_bytes

    line = data[:first_bad].count(b"\n") + 1
    best = from_bytes(data).best()
    if best is None:
        return text, [Skip(Span(name, line, line), "the text encoding could not be told; bad bytes were replaced "
                                                   "(save the file as UTF-8)")]
    return str(best), [Skip(Span(name, line, line), f"not UTF-8: read as {best.encoding} (save the file as UTF-8)")]


def _replacement_warnings(text: str, name: str, most: int = 20) -> list[Skip]:
    """One warning per line with a replaced byte (at most *most*, then a count of the rest)."""
    lines = [n for n, line in enumerate(text.split("\n"), 1) if "\ufffd" in line]
    warnings = [Skip(Span(name, n, n), "a byte that is not UTF-8 was replaced by '\ufffd' (save the file as UTF-8)")
                for n in lines[:most]]
    if len(lines) > most:
        warnings.append(Skip(Span(name, lines[most], lines[-1]),
                             f"{len(lines) - most} more lines with bytes that are not UTF-8"))
    return warnings


def _mostly_utf8(text: str) -> bool:
    """Well-formed multi-byte characters far outnumber the bad bytes: the file is UTF-8 with a few
    stray bytes. A file with no multi-byte character at all is in a single-byte encoding."""
    bad = text.count("\ufffd")
    good = sum(1 for ch in text if ord(ch) > 127) - bad
    return good > 0 and bad * 20 < good
