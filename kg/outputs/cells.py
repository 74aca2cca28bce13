"""Table cells that are safe to open in a spreadsheet (OWASP's advice on CSV injection).

Kept apart from :mod:`kg.outputs.export` so that ``kg query --format csv`` need not load
pandas and networkx to print a table.
"""

from __future__ import annotations

import re

#: A spreadsheet reads a cell starting with one of these as a formula (OWASP, "CSV Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")


def neutral_cell(value):
    """*value* made safe to open in a spreadsheet: text that starts a formula gets a leading ``'``.

    Numbers stay numbers (``-3`` is a number, not a formula); only text is changed, as OWASP
    advises for CSV files (prefix a single quote so the cell is read as text).

    >>> [neutral_cell(v) for v in ("=HYPERLINK(1)", "@SUM(A1)", "-1+cmd", -3, "-3", "Ann")]
    ["'=HYPERLINK(1)", "'@SUM(A1)", "'-1+cmd", -3, '-3', 'Ann']
    """
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value
