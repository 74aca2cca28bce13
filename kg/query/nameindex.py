"""The name index: every person's names with their lookup keys, written by the build beside its tables.

:mod:`kg.query.lookup` matches a typed name against every person's names. Tokenising 20,000
names (accents folded, titles dropped) for each command costs a second at 1,000 CVs; the
build does it once and writes ``tables/names.json``: one row per person and name,
``[person IRI, name, alternate (0 or 1), key]``, the key being the name's sorted tokens
joined by spaces (:func:`name_key`). Only people typed ``kg:Person`` with a ``kg:name`` are
listed, as the lookup's scan of the store finds them.

>>> name_key("Prof. Müller-Li, Anna")
'anna li muller'
"""

from __future__ import annotations

import json
from pathlib import Path

from kg.identity.keys import NAME_TITLES, ascii_words

#: File name of the index, in the build's tables folder.
NAME_INDEX = "names.json"
#: What the file says it is; a reader refuses any other (an index written by another version).
FORMAT = "kg name index 1"

_NAMES = """PREFIX kg: <https://kg.example/ns#>
SELECT ?person ?name ?alternate WHERE {
  ?person a kg:Person .
  { ?person kg:name ?name BIND(0 AS ?alternate) }
  UNION
  { ?person kg:alternateName ?name BIND(1 AS ?alternate) FILTER EXISTS { ?person kg:name ?own } }
}"""


def name_tokens(text: str) -> list[str]:
    """Lower-case ASCII word tokens of a name, titles dropped, sorted (order-insensitive)."""
    return sorted(w for w in ascii_words(text) if w not in NAME_TITLES)


def name_key(text: str) -> str:
    """The tokens of :func:`name_tokens` joined by spaces (tokens hold only ``a-z0-9``)."""
    return " ".join(name_tokens(text))


def name_rows(store) -> list[list]:
    """``[person, name, alternate, key]`` for every name of every person in *store*, sorted."""
    rows = {(s["person"].value, s["name"].value, int(s["alternate"].value)) for s in store.query(_NAMES)}
    return [[person, name, alternate, name_key(name)] for person, name, alternate in sorted(rows)]


def write_name_index(store, path: Path) -> Path:
    """Write the index of *store*'s names to *path* (JSON, deterministic); the path."""
    return write_name_rows(name_rows(store), path)


def write_name_rows(rows: list[list], path: Path) -> Path:
    """Write the index *rows* (as :func:`name_rows` gives them) to *path*; the path."""
    return write_rows(FORMAT, rows, path)


def read_name_index(path: Path) -> list[list] | None:
    """The rows of the index at *path*, or None if there is none or it is not one this version reads."""
    return read_rows(FORMAT, path)


def write_rows(fmt: str, rows: list[list], path: Path) -> Path:
    """Write an index of the format *fmt* (this one, or :mod:`kg.query.labelindex`'s) to *path*; the path."""
    text = json.dumps({"format": fmt, "rows": rows}, ensure_ascii=False, separators=(",", ":"))
    path.write_text(text + "\n", encoding="utf-8")
    return path


def read_rows(fmt: str, path: Path) -> list[list] | None:
    """The rows of the index of the format *fmt* at *path*, or None if there is none or it is another."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != fmt or not isinstance(data.get("rows"), list):
        return None
    return data["rows"]
