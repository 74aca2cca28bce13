"""An HTML page's structure as markdown-like text, for the free-text reader.

Headings become ``#`` lines, list items ``-`` or ``1.`` items, ``<b>``/``<strong>`` ``**bold**``,
``<i>``/``<em>`` ``*italic*``, links ``[text](url)``; blocks become lines. Entries are kept apart
by a blank line: list items, paragraphs, and blocks repeated three or more times side by side
(``<div class="entry">`` ...), the usual shape of a publication list built with divs. Scripts,
styles, navigation, page headers and footers are dropped. Underlined, marked or coloured text is
written bold: pages emphasise the owner's name in an author list that way.

>>> import lxml.html
>>> page = lxml.html.fromstring("<body><h2>Papers</h2><ul><li><b>J. Doe</b>, R. Roe. "
...     "<i>A Title</i>. Venue, 2020.</li><li>Second</li></ul><footer>(c) 2024</footer></body>")
>>> print(to_markdown_lines(page).text())
## Papers
<BLANKLINE>
- **J. Doe**, R. Roe. *A Title*. Venue, 2020.
<BLANKLINE>
- Second
<BLANKLINE>
"""

from __future__ import annotations

import re

from kg.sources.converted import MarkdownLines, Origin

DROPPED = frozenset({"script", "style", "nav", "footer", "header", "noscript", "template", "svg", "iframe",
                     "button", "select", "option", "head", "canvas", "object", "embed", "form", "title", "math",
                     "audio", "video", "map"})
BLOCKS = frozenset({"p", "div", "section", "article", "main", "aside", "li", "ul", "ol", "dl", "dt", "dd",
                    "table", "thead", "tbody", "tfoot", "tr", "td", "th", "caption", "h1", "h2", "h3", "h4",
                    "h5", "h6", "blockquote", "pre", "hr", "figure", "figcaption", "address", "center", "body",
                    "html", "fieldset", "details", "summary", "hgroup"})
HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
BOLD = frozenset({"b", "strong", "u", "ins", "mark"})
ITALIC = frozenset({"i", "em", "cite", "var", "dfn"})
_SPACES = re.compile(r"[\s\u00a0]+")
_LINK_TARGETS = ("http://", "https://", "mailto:")
# Siblings of one shape (tag and class) repeated this often are entries of a list.
_ENTRY_REPEATS = 3


def to_markdown_lines(root) -> MarkdownLines:
    """The page under *root* (an lxml.html element) as markdown-like lines with source lines."""
    md = MarkdownLines()
    _Writer(md).block(root)
    return md


def _tag(el) -> str | None:
    return el.tag.lower() if isinstance(el.tag, str) else None  # comments and PIs have no str tag


def _has_block(el) -> bool:
    return any(_tag(d) in BLOCKS for d in el.iterdescendants())


def _emphasis(el, tag: str) -> str | None:
    if tag in BOLD or (tag in ("font", "span") and ("color" in (el.get("style") or "") or el.get("color"))):
        return "**"
    return "*" if tag in ITALIC else None


def _shape(el) -> tuple:
    return _tag(el), (el.get("class") or "").strip()


class _Writer:
    def __init__(self, md: MarkdownLines) -> None:
        self.md = md
        self.buf: list[str] = []
        self.line: int | None = None
        self.prefix = ""  # the marker of the list item being written ("- ", "3. ")
        self.indent = ""  # what continuation lines of that item start with
        self.in_entry = False
        self.depth = 0  # list nesting

    # --- blocks ---------------------------------------------------------------------------

    def text(self, text: str | None, line: int | None) -> None:
        if text:
            if self.line is None and text.strip():
                self.line = line
            self.buf.append(_SPACES.sub(" ", text))

    def flush(self) -> None:
        for part in "".join(self.buf).split("\n"):
            part = part.strip()
            if part:
                self.md.add(self.prefix + part, Origin(line=self.line))
                self.prefix = self.indent
        self.buf, self.line = [], None

    def block(self, el) -> None:
        """Write the children of the block *el*."""
        self.text(el.text, el.sourceline)
        children = [c for c in el if _tag(c) not in DROPPED]
        shapes: dict[tuple, int] = {}
        for child in children:
            shapes[_shape(child)] = shapes.get(_shape(child), 0) + 1
        for child in el:
            tag = _tag(child)
            if tag is None or tag in DROPPED:
                pass
            elif tag == "br":
                self.buf.append("\n")
            elif tag in BLOCKS or _has_block(child):
                self.child_block(child, tag, shapes.get(_shape(child), 0) >= _ENTRY_REPEATS)
            else:
                self.text(self.inline(child), child.sourceline)
            self.text(child.tail, child.sourceline)

    def child_block(self, el, tag: str, repeated: bool) -> None:
        if tag in HEADINGS:
            self.flush()
            self.md.blank()
            self.md.add("#" * HEADINGS[tag] + " " + _SPACES.sub(" ", self.inline(el)).strip(), Origin(el.sourceline))
            self.md.blank()
        elif tag in ("ul", "ol"):
            self.list(el, numbered=tag == "ol")
        elif tag == "hr":
            self.flush()
            self.md.blank()
        elif tag == "pre":
            self.flush()
            for i, line in enumerate(el.text_content().split("\n")):
                self.md.add(self.indent + line, Origin((el.sourceline or 0) + i or None))
        elif (repeated or tag in ("p", "tr", "dt", "blockquote")) and not self.in_entry and not self.depth:
            self.flush()
            self.md.blank()
            self.in_entry = True
            self.block(el)
            self.flush()
            self.in_entry = False
            self.md.blank()
        else:
            self.flush()
            self.block(el)
            self.flush()

    def list(self, el, numbered: bool) -> None:
        self.flush()
        inner = self.in_entry and not self.depth  # a list inside an entry (its notes): part of the entry
        if not self.depth and not inner:
            self.md.blank()
        saved = (self.prefix, self.indent, self.in_entry)
        self.depth += 1
        number = int(el.get("start", "1")) if numbered and (el.get("start") or "").isdigit() else 1
        outer = "  " * (self.depth - 1)
        for item in el:
            if _tag(item) != "li":
                continue
            marker = f"{number}. " if numbered else "- "
            number += 1
            self.prefix, self.indent, self.in_entry = outer + marker, outer + " " * len(marker), True
            self.block(item)
            self.flush()
            if self.depth == 1 and not inner:
                self.md.blank()
        self.depth -= 1
        self.prefix, self.indent, self.in_entry = saved

    # --- inline ---------------------------------------------------------------------------

    def inline(self, el, marks: frozenset = frozenset()) -> str:
        """The text of an inline element (no blocks inside) with its markup."""
        tag = _tag(el)
        mark = _emphasis(el, tag)
        inner_marks = marks | {mark} if mark else marks
        parts = [_SPACES.sub(" ", el.text or "")]
        for child in el:
            child_tag = _tag(child)
            if child_tag == "br":
                parts.append("\n")
            elif child_tag is not None and child_tag not in DROPPED:
                parts.append(self.inline(child, inner_marks))
            parts.append(_SPACES.sub(" ", child.tail or ""))
        inner = "".join(parts)
        if tag == "a":
            href = (el.get("href") or "").strip()
            label = inner.strip()
            if label and href.startswith(_LINK_TARGETS) and "\n" not in label:
                return _around(inner, f"[{label}]({href.replace(' ', '%20').replace(')', '%29')})")
        if mark and mark not in marks:
            return "\n".join(_around(part, f"{mark}{part.strip()}{mark}") if part.strip() else part
                             for part in inner.split("\n"))
        return inner


def _around(original: str, new_core: str) -> str:
    """*new_core* with the spaces that led and trailed *original*."""
    lead = original[: len(original) - len(original.lstrip())]
    trail = original[len(original.rstrip()):]
    return f"{lead}{new_core}{trail}"
