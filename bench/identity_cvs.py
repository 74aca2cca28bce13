"""Identity on generated CVs of labs: people found against the generator's count.

``../shared/tools/gen_corpus.py N_DOCS SEED`` writes one markdown CV per lab member (every work its
owner co-wrote; co-authors are recurring lab mates, a few from other labs) and the truth counts;
kg reads them and resolves identity, and the people it finds are set beside
``authors_unique_people``. A name seen in two labs with no co-author in common stays two people
(possibly the same), so a few more people than the truth is expected.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GENERATOR = Path(__file__).resolve().parent.parent.parent / "shared" / "tools" / "gen_corpus.py"


def check_cvs(n_docs: int = 100, seed: int = 1, generator: Path = GENERATOR) -> dict | None:
    """People found on *n_docs* generated CVs against the truth; None where the generator is absent."""
    if not generator.exists():
        return None
    from kg.build import read_documents
    from kg.identity.curation import Curation
    from kg.identity.resolve import resolve

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "cvs"
        subprocess.run([sys.executable, str(generator), str(out), str(n_docs), str(seed)], check=True,
                       capture_output=True)
        expected = json.loads((Path(tmp) / "cvs.expected.json").read_text())
        curation = Curation.from_text("", "curation.yaml")
        docs, _ = read_documents(out, curation=curation)
        t = time.process_time()
        res = resolve(docs, curation)
        seconds = time.process_time() - t
    return {"documents": n_docs, "people": len(res.people), "true_people": expected["authors_unique_people"],
            "works": len(res.work_titles), "true_works": expected["works_unique"], "resolve_cpu_s": round(seconds, 2)}
