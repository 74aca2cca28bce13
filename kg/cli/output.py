"""What the commands print: tables that fit the terminal, CSV safe for spreadsheets, plain JSON,
and output paths checked before anything is written.
"""

from __future__ import annotations

import csv
import io
import json
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import click

from kg.errors import UserError

if TYPE_CHECKING:  # pandas costs half a second to import: only the commands that print tables pay it
    import pandas as pd

#: Narrowest a column is squeezed to when a table is wider than the terminal.
MIN_COLUMN = 8


def json_text(rows) -> str:
    """*rows* as indented JSON, ``/`` not escaped, non-ASCII kept, ending with a newline.

    >>> json_text([{"iri": "https://x/y", "name": "Dée"}])
    '[\\n  {\\n    "iri": "https://x/y",\\n    "name": "Dée"\\n  }\\n]\\n'
    """
    return json.dumps(rows, indent=2, ensure_ascii=False) + "\n"


def frame_json(frame: pd.DataFrame) -> str:
    """*frame* as a JSON list of records (missing values as ``null``), see :func:`json_text`."""
    return json_text(json.loads(frame.to_json(orient="records", force_ascii=False)))


def _cell(value) -> str:
    if value is None or (isinstance(value, float) and value != value):  # NaN is the one float unequal to itself
        return ""
    return " ".join(str(value).split())


def _fit(widths: list[int], room: int) -> list[int]:
    """Column widths that add up (with two spaces between columns) to at most *room*."""
    widths = list(widths)
    gaps = 2 * (len(widths) - 1)
    while sum(widths) + gaps > room:
        widest = max(range(len(widths)), key=lambda i: widths[i])
        if widths[widest] <= MIN_COLUMN:
            break
        widths[widest] -= 1
    return widths


@dataclass
class Rows:
    """A table as plain rows (dicts keyed by *columns*), printed by :func:`emit` exactly as the
    DataFrame ``pandas.DataFrame(rows, columns=columns)`` would be, without importing pandas.

    >>> emit(Rows(["name", "n", "w"], [{"name": "=Ann", "n": 2, "w": 0.5}, {"name": "Bo", "n": None, "w": 1.0}]), "csv")
    name,n,w
    '=Ann,2,0.5
    Bo,,1.0
    """

    columns: list[str]
    rows: list[dict]

    @property
    def empty(self) -> bool:
        return not self.rows

    def records(self) -> list[dict]:
        return [{c: row.get(c) for c in self.columns} for row in self.rows]


def _rows_csv(table: Rows) -> str:
    """*table* as :func:`kg.outputs.export.csv_text` writes a DataFrame: formulas neutralised, no index."""
    from kg.outputs.cells import neutral_cell

    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([neutral_cell(str(c)) for c in table.columns])
    writer.writerows([[neutral_cell(row.get(c)) for c in table.columns] for row in table.rows])
    return buffer.getvalue()


def table_text(frame: pd.DataFrame | Rows, width: int | None = None) -> str:
    """*frame* as an aligned table at most *width* characters wide (default: the terminal's).

    The widest columns are narrowed first; a cut cell ends with ``…``.

    >>> import pandas as pd
    >>> frame = pd.DataFrame({"name": ["Ann"], "title": ["A rather long title of a paper"]})
    >>> print(table_text(frame, width=24))
    name  title
    ----  ------------------
    Ann   A rather long tit…
    """
    if width is None:
        width = shutil.get_terminal_size((120, 24)).columns
    header = [str(c) for c in frame.columns]
    if isinstance(frame, Rows):
        rows = [[_cell(row.get(c)) for c in frame.columns] for row in frame.rows]
    else:
        rows = [[_cell(v) for v in row] for row in frame.itertuples(index=False, name=None)]
    natural = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(header)]
    widths = _fit(natural, width)

    def clip(text: str, w: int) -> str:
        return text if len(text) <= w else text[: max(w - 1, 0)] + "…"

    def line(values) -> str:
        return "  ".join(clip(v, w).ljust(w) for v, w in zip(values, widths, strict=True)).rstrip()

    return "\n".join([line(header), line(["-" * w for w in widths]), *(line(r) for r in rows)])


def emit(frame: pd.DataFrame | Rows, fmt: str, columns: list[str] | None = None) -> None:
    """Print *frame*: the chosen *columns* as a table that fits the terminal, or every column
    as CSV (formulas neutralised, see :func:`kg.outputs.export.csv_text`) or JSON."""
    if isinstance(frame, Rows):
        if fmt == "csv":
            sys.stdout.write(_rows_csv(frame))
        elif fmt == "json":
            sys.stdout.write(json_text(frame.records()))
        else:
            shown = Rows(columns, frame.rows) if columns else frame
            click.echo("(none)" if shown.empty else table_text(shown))
        return
    from kg.outputs.export import csv_text

    if fmt == "csv":
        sys.stdout.write(csv_text(frame))
    elif fmt == "json":
        sys.stdout.write(frame_json(frame))
    else:
        shown = frame[columns] if columns else frame
        click.echo("(none)" if shown.empty else table_text(shown))


def output_path(path: str | Path, *, folder: bool = False) -> Path:
    """*path* checked before writing: its parent folder exists (none is created), and it is a file
    (or, with *folder*, a folder) or nothing yet.

    Raises
    ------
    UserError
        Saying which folder is missing, or that the path is of the wrong kind.
    """
    path = Path(path)
    parent = path.parent
    if not parent.is_dir():
        raise UserError(f"cannot write {path}: the folder {parent} does not exist; create it first or choose another")
    if not folder and path.is_dir():
        raise UserError(f"cannot write {path}: it is a folder; give the name of a file in it")
    if folder and path.exists() and not path.is_dir():
        raise UserError(f"cannot write into {path}: it is a file; give a folder")
    return path


#: Where the graph is read from: a SPARQL server's query endpoint, else the build in --out.
store_option = click.option(
    "--store", "store", envvar="KG_STORE", default=None, metavar="URL",
    help="Read the graph from this SPARQL endpoint (or env KG_STORE) instead of OUT/store; "
         "credentials from KG_STORE_USER/KG_STORE_PASSWORD or ~/.netrc.")
