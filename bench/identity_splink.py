"""The same crowded corpora resolved by splink on DuckDB: the engine for corpora beyond one machine.

A measured baseline for the design in ``docs/identity.md`` ("Beyond one machine"): one row per
author mention (document, work title key, year, name key, family name and first initial, the
co-authors' ``family|initial`` keys), blocking on the name key, on family name and initial, and on
the work's title; comparisons of the name (exact key, then initials), the co-authors (array
intersection), the same work and the same document; a Fellegi-Sunter model trained without labels
(random sampling for u, expectation maximisation for m), then connected components at a match
probability threshold. kg's hard constraints (never two authors of one work in one person) are not
part of splink's clustering; the scores show what that costs.

Needs the optional extra: ``pip install -e '.[splink]'``. Run on a folder that
``bench.bench_identity --keep DIR`` wrote: ``.venv/bin/python -m bench.identity_splink
DIR/mentions-10000 [--threshold 0.95]``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bench.bench_identity import _key_of, in_child, read_corpus
from bench.identity_corpus import read_truth
from bench.identity_scores import bcubed_scores, cluster_errors, pairwise_scores


def mention_table(docs: list):
    """One row per author mention, with the columns the splink model compares."""
    import pandas as pd

    from kg.identity.keys import name_words, person_key, title_key
    from kg.records import Work

    rows = []
    for doc in docs:
        name = Path(doc.path).name
        for fact in doc.facts:
            if not isinstance(fact, Work):
                continue
            words = [name_words(a.name) or ["?"] for a in fact.authors]
            keys = [f"{w[-1]}|{w[0][0]}" for w in words]
            for i, a in enumerate(fact.authors):
                rows.append({"unique_id": len(rows), "document": name, "key": _key_of(fact.span.place),
                             "position": i, "title_key": title_key(fact.title), "year": int(fact.year or 0),
                             "name_key": " ".join(person_key(a.name)), "family": words[i][-1],
                             "initial": words[i][0][0], "coauthors": sorted(set(keys[:i] + keys[i + 1:]))})
    return pd.DataFrame(rows)


def run_splink(table, threshold: float):
    """``unique_id -> cluster id`` from splink on DuckDB (see the module docstring)."""
    import splink.comparison_library as cl
    from splink import DuckDBAPI, Linker, SettingsCreator, block_on

    settings = SettingsCreator(
        link_type="dedupe_only",
        blocking_rules_to_generate_predictions=[block_on("name_key"), block_on("family", "initial"),
                                                block_on("title_key")],
        comparisons=[cl.ExactMatch("name_key").configure(term_frequency_adjustments=True),
                     cl.ExactMatch("initial"), cl.ArrayIntersectAtSizes("coauthors", [3, 1]),
                     cl.ExactMatch("title_key"), cl.ExactMatch("document")],
        retain_intermediate_calculation_columns=False)
    db = DuckDBAPI()
    linker = Linker(db.register(table), settings, log_level=None)
    linker.training.estimate_probability_two_random_records_match([block_on("title_key", "family")], recall=0.9)
    linker.training.estimate_u_using_random_sampling(max_pairs=1e6)
    linker.training.estimate_parameters_using_expectation_maximisation(block_on("name_key"))
    linker.training.estimate_parameters_using_expectation_maximisation(block_on("family", "initial"))
    predictions = linker.inference.predict(threshold_match_probability=threshold)
    clusters = linker.clustering.cluster_pairwise_predictions_at_threshold(predictions, threshold)
    frame = clusters.as_pandas_dataframe()
    return dict(zip(frame["unique_id"], frame["cluster_id"], strict=True))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--threshold", type=float, default=0.95)
    args = parser.parse_args(argv)
    docs = read_corpus(args.folder, cache=True)
    truth = read_truth(args.folder)
    table = mention_table(docs)

    def step():
        return run_splink(table, args.threshold)

    seconds, mib, outcome = in_child(step)
    if isinstance(outcome, str):
        print(outcome)
        return 1
    cluster_of, _ = outcome
    predicted = {(r.document, r.key, r.position): cluster_of[r.unique_id] for r in table.itertuples()}
    pw, b3 = pairwise_scores(predicted, truth), bcubed_scores(predicted, truth)
    errors = cluster_errors(predicted, truth)
    print(f"splink (DuckDB) on {len(table):,} mentions, threshold {args.threshold}: {seconds:.1f} s, "
          f"peak {mib:.0f} MiB above start; pairwise P/R/F1 {pw.precision:.3f} / {pw.recall:.3f} / {pw.f1:.3f}; "
          f"B3 P/R/F1 {b3.precision:.3f} / {b3.recall:.3f} / {b3.f1:.3f}; {errors.false_merges} false merges, "
          f"{errors.split_people} split people")
    return 0


if __name__ == "__main__":
    sys.exit(main())
