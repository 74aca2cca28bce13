"""The example queries shipped in ``kg/data/queries``, and what a query argument stands for."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from kg.data import queries_dir
from kg.errors import UsageError


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:  # a query text too long or odd to be a file name
        return False


def read_query(text: str, examples_dir: str | Path | None = None) -> tuple[str, str]:
    """The query a command-line argument stands for, and what to call it in messages.

    *text* is a path to a ``.rq`` file, the name of an example in *examples_dir*
    (``coauthors`` for ``kg/data/queries/coauthors.rq``), or the query itself.

    Raises
    ------
    UsageError
        If *text* names a ``.rq`` file that does not exist, or is one word that is not an
        example's name (no query is one word).

    >>> read_query("nosuchquery", examples_dir())
    Traceback (most recent call last):
    ...
    kg.errors.UsageError: no example query named 'nosuchquery' (known: awards-by-year, coauthors, ...
    """
    candidate = Path(text) if "\n" not in text and len(text) < 1024 else None
    if candidate is not None and _is_file(candidate):
        return candidate.read_text(encoding="utf-8"), str(candidate)
    if candidate is not None and examples_dir is not None and re.fullmatch(r"[\w.-]+", text):
        example = Path(examples_dir) / (text if text.endswith(".rq") else f"{text}.rq")
        if _is_file(example):
            return example.read_text(encoding="utf-8"), str(example)
    if candidate is not None and text.endswith(".rq"):
        raise UsageError(f"no query file {text}; give an existing .rq file or the query text")
    if candidate is not None and examples_dir is not None and re.fullmatch(r"[\w.-]+", text):
        known = ", ".join(sorted(p.stem for p in Path(examples_dir).glob("*.rq")))
        raise UsageError(f"no example query named {text!r} (known: {known}); "
                         "give an example's name, a .rq file or the query text")
    return text, "query"


def examples_dir() -> Path:
    """Where the example queries are: ``kg/data/queries`` inside the installed package."""
    return Path(str(queries_dir()))  # a real folder: the package is installed unzipped


@dataclass(frozen=True)
class Example:
    """One example query: file name, its first comment line as a title, the comment, the text."""

    name: str
    title: str
    description: str
    query: str


def load_examples(directory: str | Path) -> list[Example]:
    """The example queries in *directory* (``*.rq``), sorted by file name.

    The comment lines at the top of each file are its description; the first of them
    is its title.
    """
    out = []
    for path in sorted(Path(directory).glob("*.rq")):
        text = path.read_text(encoding="utf-8")
        comment = []
        for line in text.splitlines():
            if not line.startswith("#"):
                break
            comment.append(line[1:].strip())
        description = "\n".join(comment).strip()
        title = description.split("\n\n")[0].replace("\n", " ") if description else path.stem
        out.append(Example(path.stem, title, description, text))
    return out

