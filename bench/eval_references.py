"""kg's reference parser on AnyStyle's hand-labelled reference strings (``make eval-references``).

Each ``<sequence>`` of ``../shared/datasets/anystyle/{core,gold}.xml`` is one reference split into
labelled segments in printed order. The segments joined with spaces are the string kg parses
(:func:`kg.sources.reference.parse_reference`, as a one-line publication entry); the labels are the
answers. Scored per field, over the references that have it:

- title: the same words (case, accents and punctuation aside), or close (rapidfuzz ratio >= 90);
- year: the year of the ``date`` segment;
- authors: the words (two letters or more) of the ``author`` segment against those of the names kg
  found, as precision and recall (initials and "and", "et al." left out on both sides);
- venue: kg's venue close to the ``journal`` or ``container-title`` segment (partial ratio >= 85).

AnyStyle trains on ``core`` and checks on ``gold``: work on what ``--show`` lists from ``core``, and
read ``gold`` as the figure for references no one here has looked at. Skips with a message where
``../shared`` is absent.

Run: ``.venv/bin/python -m bench.eval_references [--show N] [--field title|year|authors|venue]``
"""

from __future__ import annotations

import argparse
import re
import sys
import time
import unicodedata
import xml.etree.ElementTree as ET
from pathlib import Path

from rapidfuzz import fuzz

from kg.sources.reference import parse_reference

DATASETS = Path(__file__).resolve().parent.parent.parent / "shared" / "datasets" / "anystyle"
YEAR = re.compile(r"\b(1[6-9]\d\d|20\d\d)\b")
NOT_NAME_WORDS = {"and", "et", "al", "eds", "ed", "editor", "editors", "with", "by", "others", "und"}


def plain(text: str) -> str:
    """Lower case, no accents, words of letters and digits only."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return " ".join(re.findall(r"[a-z0-9]+", text))


def name_words(text: str) -> set[str]:
    return {w for w in plain(text).split() if len(w) > 1 and not w.isdigit() and w not in NOT_NAME_WORDS}


def sequences(path: Path) -> list[list[tuple[str, str]]]:
    """Each reference as its (label, text) segments, in printed order (a trusted local file)."""
    root = ET.parse(path).getroot()
    return [[(seg.tag, " ".join((seg.text or "").split())) for seg in seq] for seq in root.iter("sequence")]


def first(segments: list[tuple[str, str]], *labels: str) -> str | None:
    return next((text for label, text in segments if label in labels and text), None)


def score(segments: list[tuple[str, str]]) -> dict[str, object]:
    """Each field's result for one reference: True/False (or a (precision, recall) pair for authors),
    absent where the reference has no such segment; with what kg found, for --show."""
    line = " ".join(text for _, text in segments)
    ref = parse_reference([line])
    found: dict[str, object] = {"line": line, "kg": ref}
    title = first(segments, "title")
    if title:
        got = plain(ref.title or "")
        found["title"] = got == plain(title) or fuzz.ratio(got, plain(title)) >= 90
    date = first(segments, "date")
    if date and (year := YEAR.search(date)):
        found["year"] = ref.year == year.group(1)
    authors = first(segments, "author")
    if authors and name_words(authors):
        gold, got = name_words(authors), name_words(" ".join(a.name for a in ref.authors))
        found["authors"] = (len(gold & got) / len(got) if got else 0.0, len(gold & got) / len(gold))
    venue = first(segments, "journal", "container-title")
    if venue and plain(venue):
        name = " ".join(filter(None, (ref.venue.name, ref.venue.acronym))) if ref.venue else ""
        found["venue"] = bool(name) and fuzz.partial_ratio(plain(name), plain(venue)) >= 85
    return found


def summary(results: list[dict[str, object]]) -> str:
    parts = [f"references={len(results)}"]
    for field in ("title", "year", "venue"):
        marks = [r[field] for r in results if field in r]
        parts.append(f"{field}={sum(map(bool, marks)) / len(marks):.3f} (of {len(marks)})")
    pairs = [r["authors"] for r in results if "authors" in r]
    precision = sum(p for p, _ in pairs) / len(pairs)  # type: ignore[misc]
    recall = sum(r for _, r in pairs) / len(pairs)  # type: ignore[misc]
    exact = sum(1 for p, r in pairs if p == r == 1.0) / len(pairs)  # type: ignore[misc]
    parts.append(f"authors: precision={precision:.3f} recall={recall:.3f} all-right={exact:.3f} (of {len(pairs)})")
    return " ".join(parts)


def failed(result: dict[str, object], field: str) -> bool:
    mark = result.get(field)
    if mark is None:
        return False
    return mark != (1.0, 1.0) if field == "authors" else not mark


def show(results: list[dict[str, object]], field: str, count: int) -> None:
    for r in [r for r in results if failed(r, field)][:count]:
        ref = r["kg"]
        print(f"- {r['line']}")
        print(f"    kg: title={ref.title!r} year={ref.year!r} venue={ref.venue!r}")  # type: ignore[attr-defined]
        print(f"        authors={[a.name for a in ref.authors]!r} problem={ref.problem!r}")  # type: ignore[attr-defined]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", type=Path, default=DATASETS)
    parser.add_argument("--show", type=int, default=0, help="list this many failures of --field, from core")
    parser.add_argument("--field", default="title", choices=("title", "year", "authors", "venue"))
    args = parser.parse_args(argv)
    if not (args.datasets / "core.xml").is_file():
        print(f"skipped: no AnyStyle data at {args.datasets} (it lives beside the project, in ../shared)")
        return 0
    for name in ("core", "gold"):
        start = time.perf_counter()
        results = [score(s) for s in sequences(args.datasets / f"{name}.xml")]
        print(f"{name}: {summary(results)} in {time.perf_counter() - start:.1f} s")
        if name == "core" and args.show:
            show(results, args.field, args.show)
    return 0


if __name__ == "__main__":
    sys.exit(main())
