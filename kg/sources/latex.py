"""Reader for LaTeX CVs and publication lists: a folder's ``.tex`` files read as one document.

The main file is the one with ``\\documentclass``; its ``\\input`` and ``\\include`` files are
inlined from the same folder (never from outside it), ``\\ifthenelse{\\boolean{x}}`` follows the
document's ``\\setboolean``, comments are dropped (a commented-out item is not an entry), and
the body is written as markdown-like text (:mod:`kg.sources.latex_text`) for the free-text
reader. Spans point at the ``.tex`` lines, naming the file where it is not the main one.

Run ``python -m kg.sources.latex MAIN.tex`` to see the text kg makes of a CV (files it inputs
are looked up beside it).
"""

from __future__ import annotations

import posixpath
import re
import sys
from pathlib import Path

from pylatexenc.latex2text import LatexNodes2Text
from pylatexenc.latexwalker import (
    LatexGroupNode,
    LatexMacroNode,
    LatexWalker,
    LatexWalkerError,
    get_default_latex_context_db,
)
from pylatexenc.macrospec import EnvironmentSpec, MacroSpec

from kg.records import Document, Skip, Span
from kg.sources.converted import MarkdownLines, Origin, looks_binary, read_converted
from kg.sources.decode import decode_text
from kg.sources.latex_text import Resolver, Writer
from kg.sources.registry import Source, SourceFile

_DOCUMENTCLASS = re.compile(r"^[ \t]*\\documentclass\s*(?:\[[^\]]*\])?\s*\{\s*([^}\s]+)\s*\}", re.M)
_BEGIN_DOCUMENT = re.compile(r"^[^%\n]*?\\begin\s*\{document\}", re.M)
# Arguments of CV-class macros, as pylatexenc argument specs ("{" mandatory, "[" optional).
CV_MACROS = {"bibitem": "[{", "boolean": "{", "href": "[{{", "ifthenelse": "{{{", "setboolean": "{{", "newboolean": "{",
             "textsuperscript": "{", "cvitem": "[{{", "cvlistitem": "[{", "cvdoubleitem": "{{{{",
             "cvitemwithcomment": "{{{", "cvlistdoubleitem": "[{{", "cvsection": "{", "cvsubsection": "{",
             "cvhonor": "{{{{", "cvline": "{{", "firstname": "{", "familyname": "{", "email": "{",
             "homepage": "{", "mobile": "{", "phone": "[{", "social": "[{", "address": "{{{", "photo": "[[{",
             "moderncvstyle": "{", "moderncvcolor": "{", "sectionfont": "{", "setmainfont": "[{",
             "newfontfamily": "{[{", "title": "{", "extrainfo": "{", "quote": "{", "position": "{",
             "newenvironment": "*{[[{{", "renewenvironment": "*{[[{{", "setstretch": "{", "subfile": "{"}
CV_ENVIRONMENTS = {"thebibliography": "{", "xltabular": "{{", "tabularx": "{{", "tabulary": "{{", "tabular*": "{[{",
                   "longtable": "[{", "supertabular": "{", "benumerate": "{", "ncolumn": "{", "format": "{"}
CONTACT_MACROS = ("email", "homepage", "mobile", "phone", "extrainfo")
_MAX_INCLUDE_DEPTH = 16


def sniff(head: bytes) -> bool:
    """Text, not binary data: a ``.tex`` file of a CV's folder may hold a paragraph without a command."""
    return not looks_binary(head)


def to_markdown(files: dict[str, bytes], main: str | None = None) -> str:
    """The CV as markdown-like text: *files* maps names (``"cv.tex"``, ``"sections/pubs.tex"``)
    to bytes; *main* is the main file (default: the one with ``\\documentclass``)."""
    source = Source(main or "cv", tuple(SourceFile(n, d) for n, d in files.items()))
    md, _ = _convert(source, main)
    return md.text()


def read(source: Source) -> Document:
    doc = Document(path=source.name, format="latex-cv", sha256="", subject=None)
    md, doc.skipped = _convert(source)
    if not md:
        if not doc.skipped:
            doc.skipped.append(Skip(Span(source.name, 1, 1), "the LaTeX source has no text; nothing to read"))
        return doc
    return read_converted(md, doc, "latex-cv", f"python -m kg.sources.latex {source.files[0].name}")


def _convert(source: Source, main_name: str | None = None) -> tuple[MarkdownLines, list[Skip]]:
    skips: list[Skip] = []
    texts: dict[str, str] = {}
    for f in source.files:
        if looks_binary(f.data):
            skips.append(Skip(Span(source.name, 1, 1, place=f.name), "not a LaTeX file (binary data); not read"))
            continue
        texts[f.name], warnings = decode_text(f.data, f.name)
        skips += [Skip(Span(source.name, w.span.first_line, w.span.last_line, place=f.name), w.reason)
                  for w in warnings]
    md = MarkdownLines()
    if not texts:
        return md, skips
    mains = [n for n, t in texts.items() if _DOCUMENTCLASS.search(t)]
    main = main_name if main_name in texts else (mains or sorted(texts))[0]
    for other in mains:
        if other != main:
            skips.append(Skip(Span(source.name, 1, 1, place=other),
                              f"a second main LaTeX file (with \\documentclass) beside {main}; kg reads one per "
                              "folder: move it to a folder of its own"))
    single = len(source.files) == 1
    conversion = _Conversion(source.name, texts, main, md, skips, single)
    conversion.run()
    unused = sorted(set(texts) - conversion.used - set(mains))
    if unused:
        skips.append(Skip(Span(source.name, 1, 1, place=unused[0]),
                          f"not included by {main} (an \\input commented out or in a branch not taken): "
                          f"{', '.join(unused)}; not read"))
    return md, skips


class _Conversion:
    """One document's conversion: the main file, then the files it includes, in reading order."""

    def __init__(self, document: str, texts: dict[str, str], main: str, md: MarkdownLines,
                 skips: list[Skip], single: bool) -> None:
        self.document, self.texts, self.main, self.md, self.skips = document, texts, main, md, skips
        self.single = single
        self.used = {main}
        self.stack = [main]
        klass = _DOCUMENTCLASS.search(texts[main])
        self.resolver = Resolver(include=self.include, cv_class=klass.group(1).lower() if klass else "")
        self.specs = dict(CV_MACROS)
        self.specs["name"] = "{{" if self.resolver.cv_class in ("moderncv", "awesome-cv") else "{"
        self.specs["cventry"] = "[{{{{{" if self.resolver.cv_class == "awesome-cv" else "[{{{{{{"

    def place(self, name: str) -> str | None:
        return None if name == self.main and self.single else name

    def run(self) -> None:
        text = self.texts[self.main]
        begin = _BEGIN_DOCUMENT.search(text)
        body_start = text.rfind("\\begin", 0, begin.end()) if begin else 0
        contact = self.scan_preamble(text[:body_start]) if begin else []
        writer = Writer(self.md, self.resolver)
        saved = writer.start_file(text, self.place(self.main))
        if contact:
            for line in contact:
                self.md.add(line, Origin(line=1, place=self.place(self.main)))
            self.md.blank()
        writer.nodes(self.parse(text, self.main, body_start))
        writer.flush()
        writer.end_file(saved)

    def walker(self, text: str, tolerant: bool) -> LatexWalker:
        db = get_default_latex_context_db()
        db.add_context_category("kg-cv", prepend=True,
                                macros=[MacroSpec(name, spec) for name, spec in self.specs.items()],
                                environments=[EnvironmentSpec(n, spec) for n, spec in CV_ENVIRONMENTS.items()])
        return LatexWalker(text, latex_context=db, tolerant_parsing=tolerant)

    def parse(self, text: str, name: str, start: int = 0) -> list:
        """The nodes of *text* from *start*; a syntax error is reported once, then read leniently."""
        try:
            return self.walker(text, tolerant=False).get_latex_nodes(pos=start)[0]
        except LatexWalkerError as err:
            line = getattr(err, "lineno", None) or text.count("\n", 0, start) + 1
            message = str(getattr(err, "msg", err)).splitlines()[0]
            self.skips.append(Skip(Span(self.document, line, line, place=self.place(name)),
                                   f"LaTeX that does not parse ({message}): unbalanced braces or "
                                   "environments? The text around it may be read wrongly; fix the source"))
        except RecursionError:
            self.skips.append(Skip(Span(self.document, 1, 1, place=self.place(name)),
                                   "LaTeX nested too deeply to read; not read"))
            return []
        return self.walker(text, tolerant=True).get_latex_nodes(pos=start)[0]

    def scan_preamble(self, preamble: str) -> list[str]:
        """Booleans, new macros' styles and the owner's name and contacts the preamble (and the
        files it inputs) define. Returns the header lines (name, contacts) to write before the body."""
        found: dict[str, list[str]] = {}
        self.scan(preamble, found)
        parts = {k: " ".join(v) for k, v in found.items() if k != "contact"}
        owner = parts.get("name") or " ".join(parts[k] for k in ("firstname", "familyname") if parts.get(k)) \
            or parts.get("author")
        header = ["# " + re.sub(r"\s+", " ", owner)] if owner else []
        return header + found.get("contact", [])

    def scan(self, text: str, found: dict[str, list[str]]) -> None:
        try:
            nodes = self.walker(text, tolerant=True).get_latex_nodes()[0]
        except (LatexWalkerError, RecursionError):
            return
        l2t = LatexNodes2Text(math_mode="text")

        def plain(arg) -> str:
            if arg is None:
                return ""
            return l2t.nodelist_to_text(arg.nodelist if isinstance(arg, LatexGroupNode) else [arg]).strip()
        for node in nodes:
            if not isinstance(node, LatexMacroNode) or not node.nodeargd or not node.nodeargd.argnlist:
                continue
            args, macro = list(node.nodeargd.argnlist), node.macroname
            if macro == "setboolean" and len(args) == 2:
                self.resolver.booleans[plain(args[0])] = plain(args[1]).lower() == "true"
            elif macro in ("newcommand", "renewcommand", "providecommand") and len(args) >= 5:
                self.define(args)
            elif macro in ("firstname", "familyname", "name", "author"):
                found[macro] = [plain(a) for a in args if plain(a)]
            elif macro in CONTACT_MACROS and plain(args[-1]):
                found.setdefault("contact", []).append(plain(args[-1]))
            elif macro in ("input", "include") and (name := self.resolve(plain(args[-1]))):
                if name not in self.stack and len(self.stack) < _MAX_INCLUDE_DEPTH:
                    self.used.add(name)
                    self.stack.append(name)
                    self.scan(self.texts[name], found)
                    self.stack.pop()

    def resolve(self, target: str) -> str | None:
        """The file of the folder that ``\\input{target}`` names: LaTeX looks beside the main
        file (where it runs), then beside the including file."""
        if target.startswith("/"):
            return None
        for here in dict.fromkeys((posixpath.dirname(self.main), posixpath.dirname(self.stack[-1]))):
            name = posixpath.normpath(posixpath.join(here, target.replace("\\", "/")))
            if name.startswith(".."):
                return None
            for candidate in ([name] if name.endswith(".tex") else [name + ".tex", name]):
                if candidate in self.texts:
                    return candidate
        return None

    def define(self, args) -> None:
        """A ``\\newcommand``: its argument count, and whether its body is bold or italic."""
        target = args[1]
        macro = next((n for n in (target.nodelist if isinstance(target, LatexGroupNode) else [target])
                      if isinstance(n, LatexMacroNode)), None)
        if macro is None:
            return
        count = LatexNodes2Text().nodelist_to_text(args[2].nodelist).strip() if args[2] is not None else "0"
        body = args[4].latex_verbatim() if args[4] is not None else ""
        self.specs.setdefault(macro.macroname, "{" * int(count) if count.isdigit() and int(count) < 10 else "")
        style = "**" if re.search(r"\\(?:textbf|bf|bfseries)\b", body) else \
            "*" if re.search(r"\\(?:textit|emph|it|itshape)\b", body) else ""
        self.resolver.styles.setdefault(macro.macroname, style)

    def include(self, target: str, writer: Writer, node) -> None:
        """Write the file ``\\input{target}`` names, found beside the including file."""
        found = self.resolve(target)
        line = writer._origin(node).line or 1
        where = Span(self.document, line, line, place=self.place(self.stack[-1]))
        if found is None:
            self.skips.append(Skip(where, f"\\input{{{target}}}: no such file in the document's folder; "
                                          "its text is not read"))
            return
        if found in self.stack or len(self.stack) >= _MAX_INCLUDE_DEPTH:
            self.skips.append(Skip(where, f"\\input{{{target}}} includes itself (a loop); not read again"))
            return
        self.used.add(found)
        self.stack.append(found)
        saved = writer.start_file(self.texts[found], self.place(found))
        writer.nodes(self.parse(self.texts[found], found))
        writer.flush()
        writer.end_file(saved)
        self.stack.pop()


def main(argv: list[str]) -> int:
    for path in argv:
        folder = Path(path).parent
        files = {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*.tex"))}
        sys.stdout.write(to_markdown(files, Path(path).name))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
