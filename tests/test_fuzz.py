"""Fuzzing (issue 15, item 6): generated and mutated documents through every reader and the build.

No exception may escape a reader (a bad input is a ``Skip``) or the build (a ``UserError`` at
most), and a document of up to 20 kB must be read in under 2 s of CPU time (not wall time, which
on a shared machine measures the neighbours).

``make test`` runs a short run (profile ``short``); ``make fuzz`` runs 10,000 cases per test
(profile ``long``, ``KG_FUZZ=long``) and, with ``KG_FUZZ_LOG=file``, writes every failure (file
name, input shape, seconds) to that file instead of stopping at the first.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
import traceback
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from kg.errors import UserError
from kg.sources import read_document
from kg.sources.registry import known_suffixes

settings.register_profile("short", max_examples=25, deadline=None, derandomize=True,
                          suppress_health_check=list(HealthCheck))
settings.register_profile("long", max_examples=10_000, deadline=None, phases=[Phase.generate],
                          suppress_health_check=list(HealthCheck))
settings.load_profile(os.environ.get("KG_FUZZ", "short"))

LIMIT_SECONDS = 2.0
LOG = os.environ.get("KG_FUZZ_LOG")

# Seeds to mutate: small documents of each kind, written for this test.
SEEDS = {
    ".md": "# Ada Example\n\nada@example.org\n\n## Publications\n\n- A. Example, B. Sample. "
           "[A Study](https://x.y/a). In *GraphConf*, 2021.\n\n## Education\n\nPh.D., Example University, 2016-2021\n",
    ".bib": "@article{ex2021,\n  title={A Study of Graphs},\n  author={Example, Ada and Sample, Bob},\n"
            "  journal={Graph Journal},\n  year={2021}\n}\n",
    ".json": json.dumps({"person": {"name": {"given-names": {"value": "Ada"}}},
                        "works": [{"title": "A Study", "year": "2021"}]}),
    ".html": "<html><body><h1>Ada Example</h1><ul><li>A. Example. A Study. GraphConf 2021.</li></ul></body></html>",
    ".txt": "ADA EXAMPLE\n\nPUBLICATIONS\n\n[1] A. Example and B. Sample, \"A Study,\" GraphConf, Jan. 2021.\n",
    ".ris": "TY  - JOUR\nTI  - A Study\nAU  - Example, Ada\nPY  - 2021\nER  - \n",
}
# Pieces that readers' patterns react to: brackets, dates, list marks, markup, separators.
PIECES = ["[", "]", "(", ")", "{", "}", "<", ">", "@article{", "- ", "* ", "#", "\n", "\n\n", " ", "\t",
          "2021", "Jan. 2020 -", "2019-2021", "Ada Example", ", ", "and ", "et al.", "**", "_", "|", "\\",
          "https://", "doi:10.1/x", "---\n", ":", "\u00e9", "\x00", "\x07", "\u202e", "\ufeff", "0" * 20]


@st.composite
def documents(draw):
    suffix = draw(st.sampled_from(sorted(set(known_suffixes()) | set(SEEDS))))
    how = draw(st.sampled_from(["pieces", "mutate", "repeat"]))
    if how == "pieces":
        text = "".join(draw(st.lists(st.sampled_from(PIECES), max_size=400)))
    elif how == "repeat":  # one piece many times: the shape that makes a pattern backtrack
        text = draw(st.sampled_from(PIECES)) * draw(st.integers(1, 20_000 // 2))
    else:
        text = SEEDS.get(suffix, SEEDS[".md"])
        for _ in range(draw(st.integers(1, 8))):
            at = draw(st.integers(0, len(text)))
            text = text[:at] + draw(st.sampled_from(PIECES)) * draw(st.integers(1, 300)) + text[at:]
    data = text.encode("utf-8", errors="surrogatepass")[:20_000]
    if draw(st.booleans()):
        data = bytes(draw(st.binary(max_size=64))) + data  # binary junk in front
    return suffix, data


def _shape(data: bytes) -> str:
    """How big the input is, how it starts, and the piece that fills most of it."""
    text = data.decode("utf-8", errors="replace")
    piece = max(PIECES, key=lambda p: text.count(p) * len(p))
    return f"{len(data)} bytes starting {data[:40]!r}, {text.count(piece)} x {piece!r}"


def _fail(message: str) -> None:
    if LOG:
        with open(LOG, "a", encoding="utf-8") as log:
            log.write(message.replace("\n", " | ") + "\n")
        return
    pytest.fail(message)


@given(documents())
def test_every_reader_survives_and_is_fast(document):
    suffix, data = document
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"fuzz{suffix}"
        path.write_bytes(data)
        started = time.process_time()  # CPU time: the cost of the input, not the machine's load
        try:
            read_document(path)
        except Exception:  # noqa: BLE001 - the failure is what this test reports
            _fail(f"reader {suffix}: exception on {_shape(data)}: {traceback.format_exc(limit=-3)}")
            return
        elapsed = time.process_time() - started
        if elapsed > LIMIT_SECONDS:
            _fail(f"reader {suffix}: {elapsed:.1f} s CPU on {_shape(data)}")


@given(documents())
@settings(max_examples=min(settings.default.max_examples, 10) if os.environ.get("KG_FUZZ") != "long" else 1000)
def test_the_build_survives(document):
    from kg.build import build_graph

    suffix, data = document
    with tempfile.TemporaryDirectory() as folder:
        data_dir = Path(folder) / "data"
        data_dir.mkdir()
        (data_dir / "cv-ada.md").write_text(SEEDS[".md"], encoding="utf-8")
        (data_dir / f"fuzz{suffix}").write_bytes(data)
        try:
            build_graph(data_dir, Path(folder) / "out", html=False, validate=False)
        except UserError:
            pass  # a clean one-line error is an answer
        except Exception:  # noqa: BLE001
            _fail(f"build with {suffix}: exception on {_shape(data)}: {traceback.format_exc(limit=-3)}")
