"""Markup of markdown and HTML fragments: links found, emphasis and tags removed.

>>> strip_markup('[\\\\[NSDI \\'24\\\\]](#) *USENIX Symposium*')
"[NSDI '24] USENIX Symposium"
"""

from __future__ import annotations

import html
import re
from functools import lru_cache

# --- markup -----------------------------------------------------------------------------

# Neither pattern crosses a "<": a run of "<" without ">" costs one step each, not a scan to the end.
_TAG = re.compile(r"<[^<>]+>")
# Link text stops at the next "[": a run of "[" then costs one step each, not a scan to the end.
MD_LINK = re.compile(r"\[((?:\\.|[^\]\[\\])*)\]\(([^)\n]{0,2000})\)")
_AUTOLINK = re.compile(r"<(https?://[^<>\s]+)>")
_HREF = re.compile(r"""href\s*=\s*["']([^"']+)["']""", re.I)
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|~<>])")
# Icons that CV templates put before contact details or as rating dots.
_ICONS = re.compile("[\U0001F300-\U0001FAFF\u2600-\u27BF\uFE0F\u2022\u2192]")
_LONE_STAR = re.compile(r"(?<!\w)\*(?=\S)|(?<=\S)\*(?!\w)")
# A character any step of strip_markup acts on; most fragments have none and skip every step.
_MARKUP_CHAR = re.compile("[<\\[*_\\\\&\U0001F300-\U0001FAFF\u2600-\u27BF\uFE0F\u2022\u2192]")


def links_in(raw: str) -> list[str]:
    """URLs a fragment links to: markdown links, autolinks, HTML hrefs and bare URLs."""
    if "://" not in raw:
        return []  # every URL kept has one
    found = [m.group(2) for m in MD_LINK.finditer(raw)]
    found += _AUTOLINK.findall(raw) + _HREF.findall(raw)
    found += re.findall(r"(?<![<\"'(=])\bhttps?://[^\s<>\"')\]]+", raw)
    return [u for u in dict.fromkeys(found) if u.startswith(("http://", "https://"))]


@lru_cache(maxsize=16384)  # the layout, the headings and the entry parser ask for the same lines' text
def strip_markup(raw: str, *, keep_stars: bool = False) -> str:
    """Plain text of a markdown/HTML fragment: tags, link syntax, emphasis and icons removed.

    With ``keep_stars`` single ``*`` marks (equal-contribution marks) survive while
    ``**bold**`` markers go.
    """
    if not _MARKUP_CHAR.search(raw):
        return " ".join(raw.split())
    text = raw
    if "<" in text:  # each step only where its mark is there to act on
        text = text.replace("<br>", " ").replace("<br/>", " ").replace("<br />", " ")
        text = _TAG.sub("", _AUTOLINK.sub(r"\1", text))
    if "](" in text:
        text = MD_LINK.sub(_link_text, text)
    text = text.replace("**", "").replace("__", "")
    if keep_stars:
        text = text.replace("\\*", "\x00")
    else:
        text = text.replace("\\*", "")
        if "*" in text:
            text = _LONE_STAR.sub("", text)
    if "\\" in text:
        text = _ESCAPE.sub(r"\1", text)
    text = html.unescape(text)
    text = _ICONS.sub("", text)
    text = text.replace("\x00", "*")
    return " ".join(text.split())


def _link_text(m: re.Match) -> str:
    return m.group(1)


def is_wholly_bold(raw: str) -> bool:
    """True when the whole fragment is one bold run (``**...**`` or ``<b>...</b>``)."""
    s = raw.strip()
    if s.startswith("**") and s.count("**") % 2 == 1:
        return True  # bold never closed: a document cut off mid-line
    return bool(re.fullmatch(r"\*\*[^*]+\*\*|<b>.*</b>|<strong>.*</strong>", s))


