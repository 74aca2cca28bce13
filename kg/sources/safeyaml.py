"""YAML as plain data, with no aliases: what site data files and front matter need, and nothing a
hostile file could use (an alias "bomb" repeats one node billions of times in a few lines).

>>> load_yaml("a: 1\\nb: [x, y]\\n")
{'a': 1, 'b': ['x', 'y']}
>>> load_yaml("a: &x [1]\\nb: *x\\n")
Traceback (most recent call last):
...
kg.sources.safeyaml.YamlRefused: line 2: an alias (*x) repeats another part of the file; kg does not read aliases: write the value out
"""

from __future__ import annotations

import yaml


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
