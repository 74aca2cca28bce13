"""A LaTeX CV's body as markdown-like text, for the free-text reader.

pylatexenc parses the source into nodes; this module writes them out with their structure:
``\\section`` and CV-class section macros become headings, ``\\item`` and ``\\bibitem`` list
items (one entry each), ``\\textbf``/``{\\bf ..}`` ``**bold**``, ``\\emph``/``\\textit``
``*italic*``, ``\\href`` links; accents and dashes are decoded by pylatexenc. Entry macros of
CV classes (moderncv ``\\cventry``, ``\\cvitem``; awesome-cv ``\\cventry``, ``\\cvhonor``) become
lines in reading order. Macros kg does not know lose their name and keep their arguments' text.
Inclusions (``\\input``) and conditionals (``\\ifthenelse``) are resolved by the caller through
:class:`Resolver`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pylatexenc.latex2text import LatexNodes2Text
from pylatexenc.latexwalker import (
    LatexCharsNode,
    LatexCommentNode,
    LatexEnvironmentNode,
    LatexGroupNode,
    LatexMacroNode,
    LatexMathNode,
    LatexSpecialsNode,
)

from kg.sources.converted import MarkdownLines, Origin

HEADINGS = {"part": 1, "chapter": 1, "section": 2, "cvsection": 2, "subsection": 3, "cvsubsection": 3,
            "subsubsection": 4, "paragraph": 4}
BOLD = frozenset({"textbf", "bibauthor", "textsc", "underline", "uline"})
ITALIC = frozenset({"textit", "emph", "textsl"})
BOLD_SWITCHES = frozenset({"bf", "bfseries"})
ITALIC_SWITCHES = frozenset({"it", "em", "itshape", "sl", "slshape"})
# Macros whose arguments are layout or definitions, never text.
DROPPED = frozenset({
    "documentclass", "usepackage", "newcommand", "renewcommand", "providecommand", "newenvironment",
    "renewenvironment", "def", "let", "setlength", "addtolength", "setcounter", "addtocounter", "definecolor",
    "color", "vspace", "hspace", "vskip", "hskip", "label", "ref", "cite", "nocite", "includegraphics",
    "pagestyle", "thispagestyle", "moderncvstyle", "moderncvcolor", "moderncvtheme", "photo", "fontsize",
    "selectfont", "sectionfont", "setmainfont", "setsansfont", "newfontfamily", "geometry", "hypersetup",
    "bibliographystyle", "bibliography", "addbibresource", "newboolean", "setboolean", "makecvtitle",
    "maketitle", "medskip", "smallskip", "bigskip", "noindent", "clearpage", "newpage", "pagebreak",
    "linebreak", "centering", "raggedright", "large", "Large", "LARGE", "small", "footnotesize", "normalsize",
    "huge", "Huge", "tiny", "scriptsize", "normalfont", "rmfamily", "sffamily", "ttfamily", "hfill", "vfill",
    "setstretch", "renewcommand*", "listitemsymbol", "begingroup", "endgroup", "printbibliography",
    "tableofcontents", "headingfont", "columnbreak", "sectionsep", "par", "indent", "protect",
})
LINE_BREAKS = frozenset({"\\", "newline", "newblock", "cr"})
CV_ENTRY_MACROS = frozenset({"cventry", "cvhonor", "cvitem", "cvitemwithcomment", "cvlistitem", "cvdoubleitem",
                             "cvlistdoubleitem", "cvline", "cvparagraph"})
# Boxes and colours around text: their last argument is the text.
BOXES = frozenset({"textcolor", "colorbox", "hl", "highlight", "mbox", "makebox", "hbox", "text"})
_RULES = frozenset({"hline", "toprule", "midrule", "bottomrule", "cline", "endhead", "endfirsthead"})
LISTS = frozenset({"itemize", "enumerate", "description", "thebibliography", "benumerate", "etaremune",
                   "cvitems", "cvhonors", "cventries", "rSubsectionList", "list"})
TABLES = frozenset({"tabular", "tabular*", "tabularx", "xltabular", "longtable", "supertabular", "tabulary"})
# A section number typed into a heading ("3. AWARDS"): LaTeX numbers sections itself, so it is layout.
_NUMBERING = re.compile(r"^\s*(?:\d+(?:\.\d+)*|[IVX]+)[.)]?\s+(?=\S)")
# Inside a list, a short paragraph wholly in bold or italics names the group of items after it.
_GROUP_HEADING = re.compile(r"^\*{1,3}[^*\n]{2,60}\*{1,3}:?$")
SKIPPED_ENVIRONMENTS = frozenset({"comment", "figure", "tikzpicture", "filecontents"})


@dataclass
class Resolver:
    """What the caller resolves: ``\\input`` files and ``\\ifthenelse`` conditions, and new macros."""

    include: object = None  # callable(name, writer) -> None: write the included file's body
    booleans: dict[str, bool] = field(default_factory=dict)
    styles: dict[str, str] = field(default_factory=dict)  # new macro -> "**", "*" or ""
    cv_class: str = ""  # "moderncv", "awesome-cv", ... (what \cventry's arguments mean)


class Writer:
    """Writes LaTeX nodes of one file after another into one :class:`MarkdownLines`."""

    def __init__(self, md: MarkdownLines, resolver: Resolver) -> None:
        self.md = md
        self.resolver = resolver
        self.l2t = LatexNodes2Text(math_mode="text", strict_latex_spaces=True)
        self.buf: list[str] = []
        self.origin: Origin | None = None
        self.prefix = self.indent = ""
        self.lists: list[list] = []  # open lists: [kind, next number]
        self.place: str | None = None
        self.after_break = False  # a blank line came before the text being gathered
        self.lines: list[int] = []  # offsets where the current file's lines start

    # --- positions and lines -------------------------------------------------------------

    def start_file(self, text: str, place: str | None) -> tuple:
        saved = (self.place, self.lines)
        self.place = place
        self.lines = [0] + [m.end() for m in re.finditer("\n", text)]
        return saved

    def end_file(self, saved: tuple) -> None:
        self.place, self.lines = saved

    def _origin(self, node) -> Origin:
        from bisect import bisect_right
        return Origin(line=bisect_right(self.lines, node.pos or 0), place=self.place)

    def text(self, text: str, node) -> None:
        if text:
            if self.origin is None and text.strip():
                self.origin = self._origin(node)
            self.buf.append(text)

    def flush(self) -> None:
        text = re.sub(r"[ \t\u00a0]+", " ", "".join(self.buf))
        if self.lists and self.after_break and _GROUP_HEADING.match(text.strip()):
            self.md.blank()
            self.md.add("### " + text.strip().strip("*").strip(), self.origin or Origin(place=self.place))
            self.md.blank()
            self.prefix = self.indent = ""
            self.buf, self.origin, self.after_break = [], None, False
            return
        self.after_break = False
        for part in text.split("\n"):
            part = part.strip()
            if part:
                self.md.add(self.prefix + part, self.origin or Origin(place=self.place))
                self.prefix = self.indent
        self.buf, self.origin = [], None

    def entry(self) -> None:
        """End the current line and paragraph: a new entry starts."""
        self.flush()
        self.md.blank()

    # --- nodes ---------------------------------------------------------------------------

    def nodes(self, nodelist) -> None:
        nodelist = list(nodelist or [])
        for i, node in enumerate(nodelist):
            if isinstance(node, LatexMacroNode) and node.macroname in BOLD_SWITCHES | ITALIC_SWITCHES:
                mark = "**" if node.macroname in BOLD_SWITCHES else "*"
                self.text(self.styled(nodelist[i + 1:], mark), node)
                return
            self.node(node)

    def node(self, node) -> None:
        if isinstance(node, LatexCharsNode):
            # One newline in LaTeX is a space; a blank line ends a paragraph.
            for k, chunk in enumerate(re.split(r"\n[ \t]*\n\s*", self.l2t.nodelist_to_text([node]))):
                if k:
                    self.flush() if self.lists else self.entry()
                    self.after_break = True
                self.text(chunk.replace("\n", " "), node)
        elif isinstance(node, LatexCommentNode):
            return
        elif isinstance(node, LatexGroupNode):
            self.nodes(node.nodelist)
        elif isinstance(node, (LatexMathNode, LatexSpecialsNode)):
            text = self.l2t.nodelist_to_text([node]).replace("^", "").replace("_", "")
            self.text(" " if isinstance(node, LatexSpecialsNode) and node.specials_chars == "&" else text, node)
        elif isinstance(node, LatexEnvironmentNode):
            self.environment(node)
        elif isinstance(node, LatexMacroNode):
            self.macro(node)

    def args(self, node) -> list:
        return list(node.nodeargd.argnlist) if node.nodeargd and node.nodeargd.argnlist else []

    def arg_text(self, arg) -> str:
        """An argument's text with its markup, on one line."""
        if arg is None:
            return ""
        return re.sub(r"\s+", " ", self.written(arg.nodelist if isinstance(arg, LatexGroupNode) else [arg])).strip()

    def written(self, nodes) -> str:
        """The text *nodes* write, gathered apart from the line being written (same file and place)."""
        inner = Writer(MarkdownLines(), self.resolver)
        inner.lines, inner.place = self.lines, self.place
        inner.nodes(nodes)
        return "".join(inner.buf)

    def styled(self, nodes, mark: str) -> str:
        text = self.written(nodes)
        core = text.strip()
        if not core:
            return text
        return text[: len(text) - len(text.lstrip())] + f"{mark}{core}{mark}" + text[len(text.rstrip()):]

    def macro(self, node) -> None:
        """One macro: structure (headings, items, breaks), styled text and links, or the rest
        (inclusions, conditionals, CV-class entries, layout, unknown macros), in that order."""
        name, args = node.macroname, self.args(node)
        if not self.structure_macro(name, args, node) and not self.styled_macro(name, args, node):
            self.other_macro(name, args, node)

    def structure_macro(self, name: str, args: list, node) -> bool:
        """A heading, the owner's name, a list item or a line break; False for any other macro."""
        if name in HEADINGS:
            self.entry()
            title = _NUMBERING.sub("", self.arg_text(args[-1] if args else None).replace("**", ""))
            self.md.add("#" * HEADINGS[name] + " " + title, self._origin(node))
            self.md.blank()
        elif name == "name" and args:  # the owner's name, as the CV prints it at the top
            self.entry()
            owner = " ".join(self.arg_text(a).replace("**", "") for a in args if a is not None)
            self.md.add("# " + re.sub(r"\s+", " ", owner).strip(), self._origin(node))
            self.md.blank()
        elif name in ("item", "bibitem"):
            self.item(node, args)
        elif name in LINE_BREAKS:
            self.buf.append("\n")
        else:
            return False
        return True

    def styled_macro(self, name: str, args: list, node) -> bool:
        """Bold, italic, a style the document defines, a link; False for any other macro."""
        if name in BOLD or name in ITALIC:
            self.text(self.styled([args[-1]] if args and args[-1] else [], "**" if name in BOLD else "*"), node)
        elif name in self.resolver.styles:
            mark = self.resolver.styles[name]
            body = " ".join(t for a in args if (t := self.arg_text(a)))
            self.text(f"{mark}{body}{mark}" if mark and body else body, node)
        elif name == "href" and len(args) >= 3:
            url, label = self.arg_text(args[1]).replace("\\", ""), self.arg_text(args[2])
            self.text(f"[{label}]({url.strip()})" if label else url, node)
        elif name == "url":
            self.text(self.l2t.nodelist_to_text(args[0].nodelist) if args and args[0] else "", node)
        else:
            return False
        return True

    def other_macro(self, name: str, args: list, node) -> None:
        """Inclusions, conditionals, CV-class entries, layout, boxes, symbols, unknown macros."""
        if name in ("input", "include", "subfile", "import"):
            self.flush()
            if self.resolver.include and args and args[-1]:
                self.resolver.include(self.l2t.nodelist_to_text(args[-1].nodelist).strip(), self, node)
        elif name == "ifthenelse" and len(args) == 3:
            self.nodes([args[1] if _condition(args[0], self.resolver.booleans) else args[2]])
        elif name in CV_ENTRY_MACROS:
            self.cv_macro(name, [self.arg_text(a) for a in args], node)
        elif name in DROPPED:
            return
        elif name in BOXES:
            if args and args[-1] is not None:
                self.node(args[-1])
        elif not name.isalpha() or (self.l2t.latex_context.get_macro_spec(name) is not None and not args):
            self.text(self.l2t.nodelist_to_text([node]), node)  # accents, symbols, escaped characters
        elif args:  # a macro kg does not know: its arguments' text, without its name
            for arg in args:
                if arg is not None:
                    self.node(arg)
        else:
            self.text(self.l2t.nodelist_to_text([node]), node)

    def item(self, node, args) -> None:
        self.flush()
        kind, number = self.lists[-1] if self.lists else ("itemize", 1)
        if self.lists:
            self.lists[-1][1] += 1
        depth = "  " * max(len(self.lists) - 1, 0)
        if len(self.lists) <= 1:
            self.md.blank()
        label = self.arg_text(args[0]) if args and node.macroname == "item" else ""
        marker = f"{number}. " if kind in ("enumerate", "benumerate") else "- "
        self.prefix, self.indent = depth + marker, depth + " " * len(marker)
        if label:
            self.text(f"**{label}** ", node)

    def environment(self, node) -> None:
        name = node.environmentname
        if name in SKIPPED_ENVIRONMENTS:
            return
        if name in LISTS:
            self.flush()
            self.md.blank()
            saved = (self.prefix, self.indent)
            self.lists.append([name, 1])
            self.nodes(node.nodelist)
            self.flush()
            self.lists.pop()
            self.prefix, self.indent = saved
            self.md.blank()
        elif name in TABLES:
            self.table(node)
        else:
            self.nodes(node.nodelist)

    def table(self, node) -> None:
        """Each row of a table one entry, its cells side by side; a row whose first cell is
        empty continues the row before (a second line of the same entry)."""
        rows: list[list] = [[]]
        for child in node.nodelist or []:
            if isinstance(child, LatexMacroNode) and child.macroname == "\\":
                rows.append([])
            elif not (isinstance(child, LatexMacroNode) and child.macroname in _RULES):
                rows[-1].append(child)
        self.entry()
        for i, row in enumerate(rows):
            first = next((k for k, n in enumerate(row) if isinstance(n, LatexSpecialsNode)
                          and n.specials_chars == "&"), None)
            if i and first is not None and not self.written(row[:first]).strip():
                self.flush()
            else:
                self.entry()
            self.nodes(row)
        self.entry()

    def cv_macro(self, name: str, texts: list[str], node) -> None:
        """CV-class entry macros as lines: the dates first, then what and where, then details."""
        self.entry()
        texts = [t for t in texts]
        if name == "cventry" and self.resolver.cv_class == "awesome-cv" and len(texts) >= 5:
            position, title, location, date, description = texts[:5]
            head, details = f"{date}: **{title}**, " + ", ".join(t for t in (position, location) if t), [description]
        elif name == "cventry" and len(texts) >= 6:
            years, degree, institution, city, grade, description = texts[-6:]
            head = f"{years}: **{degree}**" + "".join(f", {t}" for t in (institution, city, grade) if t)
            details = [description]
        elif name == "cvhonor" and len(texts) >= 4:
            award, event, location, date = texts[:4]
            head, details = f"{date}: **{award}**, " + ", ".join(t for t in (event, location) if t), []
        elif name in ("cvdoubleitem", "cvlistdoubleitem") and len(texts) >= 2:
            head, details = f"{texts[0]}: {texts[1]}", [f"{texts[2]}: {texts[3]}"] if len(texts) >= 4 else []
        elif name == "cvitemwithcomment" and len(texts) >= 3:
            head, details = f"{texts[-3]}: {texts[-2]} ({texts[-1]})", []
        elif name in ("cvitem", "cvline") and len(texts) >= 2:
            head, details = (f"{texts[-2]}: {texts[-1]}" if texts[-2] else texts[-1]), []
        else:
            head, details = " ".join(t for t in texts if t), []
        head = re.sub(r"^:\s*", "", head.strip()).strip(", ")
        self.md.add(("- " if name == "cvlistitem" else "") + head, self._origin(node))
        for detail in details:
            if detail:
                self.md.add(detail, self._origin(node))
        self.md.blank()


def _condition(arg, booleans: dict[str, bool]) -> bool:
    """``\\boolean{x}``, ``\\not\\boolean{x}``: its value where \\setboolean gave one, else true."""
    value, negate = True, False
    for node in (arg.nodelist if isinstance(arg, LatexGroupNode) else [arg]) or []:
        if isinstance(node, LatexMacroNode) and node.macroname == "not":
            negate = not negate
        elif isinstance(node, LatexMacroNode) and node.macroname == "boolean" and node.nodeargd \
                and node.nodeargd.argnlist and node.nodeargd.argnlist[-1] is not None:
            key = LatexNodes2Text().nodelist_to_text(node.nodeargd.argnlist[-1].nodelist).strip()
            value = booleans.get(key, True)
    return value != negate
