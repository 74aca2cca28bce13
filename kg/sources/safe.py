"""Files parsed safely, with a precise skip where they break: JSON (with the lines of its values,
which ``json`` does not keep), XML (no entities expanded, no DTD, no network) and YAML (safe
loading, no aliases: an alias "bomb" repeats one node billions of times in a few lines).

>>> load_yaml("a: 1\\nb: [x, y]\\n")
{'a': 1, 'b': ['x', 'y']}
>>> load_yaml("a: &x [1]\\nb: *x\\n")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
kg.sources.safe.YamlRefused: line 2: an alias (*x) repeats another part of the file; kg does not read aliases: ...
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right

import yaml

from kg.records import Skip, Span

# --- JSON ---------------------------------------------------------------------------------

def load_json(text: str, document: str):
    """The JSON value of *text*, or a :class:`Skip` naming the line and column where it breaks."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        return Skip(Span(document, err.lineno, err.lineno),
                    f"not valid JSON: {err.msg} at line {err.lineno}, column {err.colno}; "
                    "fix the file or export it again")
    except RecursionError:
        return Skip(Span(document, 1, 1), "JSON nested too deeply to read; not read")


def json_document(source, doc):
    """The decoded text and JSON value of a one-file *source*; decoding warnings and, when the text
    is not JSON, the skip naming where it breaks go to *doc* (then None)."""
    from kg.sources.decode import decode_text

    text, warnings = decode_text(source.data, source.name)
    doc.skipped.extend(warnings)
    data = load_json(text, source.name)
    if isinstance(data, Skip):
        doc.skipped.append(data)
        return None
    return text, data


def json_spans(text: str, depth: int) -> dict[tuple, tuple[int, int]]:
    """(first, last) line of each JSON value down to *depth* levels, by path; *text* is valid JSON."""
    line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
    decoder = json.JSONDecoder()
    scanstring = json.decoder.scanstring
    out: dict[tuple, tuple[int, int]] = {}

    def line(pos: int) -> int:
        return bisect_right(line_starts, pos)

    def skip_ws(i: int) -> int:
        while i < len(text) and text[i] in " \t\r\n":
            i += 1
        return i

    def value(i: int, path: tuple) -> int:
        i = skip_ws(i)
        start, ch = i, text[i]
        if ch in "{[" and len(path) < depth:
            close, index = ("}" if ch == "{" else "]"), 0
            i = skip_ws(i + 1)
            while text[i] != close:
                if ch == "{":
                    key, i = scanstring(text, i + 1)
                    i = skip_ws(i) + 1  # the colon
                    i = value(i, path + (key,))
                else:
                    i = value(i, path + (index,))
                    index += 1
                i = skip_ws(i)
                if text[i] == ",":
                    i = skip_ws(i + 1)
            end = i + 1
        else:
            _, end = decoder.raw_decode(text, start)
        out[path] = (line(start), line(end - 1))
        return end

    value(0, ())
    return out


def path_text(path: tuple) -> str:
    """A JSON/YAML path as a place: ``("works", 3, "title")`` -> ``works[3].title``."""
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out


class JsonLines:
    """The (first, last) lines of the values of a JSON text, by path, found once on first use
    (down to *depth* levels; a deeper value has the lines of the value that holds it)."""

    def __init__(self, text: str, depth: int = 6):
        self.text, self.depth, self._spans = text, depth, None

    def lines(self, path: tuple) -> tuple[int, int]:
        if self._spans is None:
            self._spans = json_spans(self.text, self.depth)
        while path not in self._spans and path:
            path = path[:-1]
        return self._spans.get(path, (1, 1))

    def span(self, document: str, path: tuple, place: str | None = None) -> Span:
        """Where the value at *path* stands, named *place* (the path itself by default)."""
        return Span(document, *self.lines(path), place=path_text(path) if place is None else place)


# --- XML ----------------------------------------------------------------------------------

def parse_xml(data: bytes, document: str):
    """The root element of XML *data*, read without expanding entities, loading DTDs or touching
    the network; or a :class:`Skip` naming the line where the XML breaks or declares entities."""
    from lxml import etree

    entity = re.search(rb"<!ENTITY", data)
    if entity:
        line = data[:entity.start()].count(b"\n") + 1
        return Skip(Span(document, line, line), "the file declares XML entities (<!ENTITY ...>), which kg does not "
                                                "expand (they can make a small file huge); remove the DOCTYPE block")
    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, load_dtd=False,
                             remove_comments=True, remove_pis=True)
    try:
        root = etree.fromstring(data, parser=parser)
    except etree.XMLSyntaxError as err:
        line = err.lineno or 1
        return Skip(Span(document, line, line), f"not well-formed XML: {err.msg}; fix the file or export it again")
    if root is None:
        return Skip(Span(document, 1, 1), "no XML element found; check the file")
    return root


def local_name(element) -> str:
    """An XML element's tag without its namespace (``{ns}title`` -> ``title``); '' for entities."""
    tag = element.tag
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def xml_text(element) -> str:
    """An element's text with its inline markup's text, whitespace normalised; entity references
    are left out (they are never expanded).

    >>> from lxml import etree
    >>> xml_text(etree.fromstring("<title>Ranking <i>Toy</i>\\n Documents</title>"))
    'Ranking Toy Documents'
    """
    if element is None:
        return ""
    return " ".join("".join(_texts(element, [])).split())


def _texts(element, out: list[str]) -> list[str]:
    if isinstance(element.tag, str) and element.text:
        out.append(element.text)
    for child in element:
        if isinstance(child.tag, str):
            _texts(child, out)
        if child.tail:
            out.append(child.tail)
    return out


# --- YAML ---------------------------------------------------------------------------------

class YamlRefused(ValueError):
    """YAML that is invalid or uses aliases; ``line`` is 1-based (relative to the text parsed)."""

    def __init__(self, line: int, message: str):
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


class _NoAliasLoader(yaml.SafeLoader):
    """A safe loader that refuses aliases (so no node is built more than once)."""

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise YamlRefused(event.start_mark.line + 1,
                              f"an alias (*{event.anchor}) repeats another part of the file; kg does not read "
                              "aliases: write the value out")
        return super().compose_node(parent, index)


def compose_yaml(text: str):
    """The node tree of *text* (node marks give lines) and its plain data, or :class:`YamlRefused`."""
    loader = _NoAliasLoader(text)
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line = mark.line + 1 if mark else 1
        raise YamlRefused(line, f"not valid YAML ({err.problem or err.context}); check the quoting and indentation "
                                "there") from None
    except yaml.YAMLError as err:
        raise YamlRefused(1, f"not valid YAML ({err})") from None
    except (ValueError, TypeError, RecursionError) as err:  # e.g. a date that does not exist: 2020-02-31
        if isinstance(err, YamlRefused):
            raise
        raise YamlRefused(1, f"a value YAML cannot read ({err})") from None
    finally:
        loader.dispose()
    return node, data


def load_yaml(text: str):
    """The plain data of *text*; :class:`YamlRefused` names the line where it is not YAML or uses an alias."""
    return compose_yaml(text)[1]


def node_lines(node, depth: int = 3) -> dict[tuple, tuple[int, int]]:
    """1-based (first, last) lines of each node under *node*, by path (dict keys as strings, list
    indexes as ints), down to *depth* levels.

    >>> node_lines(compose_yaml("- a: 1\\n  b: 2\\n\\n# next\\n- a: 3\\n")[0])[(0,)]
    (1, 2)
    """
    out: dict[tuple, tuple[int, int]] = {}

    def walk(n, path):
        out[path] = (n.start_mark.line + 1, _last_line(n))
        if len(path) >= depth:
            return
        if isinstance(n, yaml.SequenceNode):
            for i, child in enumerate(n.value):
                walk(child, path + (i,))
        elif isinstance(n, yaml.MappingNode):
            for key, child in n.value:
                walk(child, path + (str(key.value),))

    if node is not None:
        walk(node, ())
    return out


def _last_line(n) -> int:
    """The last line of *n*'s own text: a block collection's end mark is the next token (after blank
    lines and comments), so it ends where its last value ends."""
    if isinstance(n, yaml.ScalarNode) or n.flow_style or not n.value:
        end = n.end_mark.line + (0 if n.end_mark.column == 0 else 1)
        return max(end, n.start_mark.line + 1)
    last = n.value[-1]
    return _last_line(last[1] if isinstance(last, tuple) else last)
