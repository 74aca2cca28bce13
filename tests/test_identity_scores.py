"""The identity benchmark's scores (bench/identity_scores.py) on clusterings small enough to count by hand."""

from __future__ import annotations

import doctest
import importlib.util
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parent.parent / "bench" / "identity_scores.py"
_spec = importlib.util.spec_from_file_location("identity_scores", _PATH)
scores = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(scores)


def test_docstring_examples_hold():
    result = doctest.testmod(scores)
    assert result.attempted >= 10 and result.failed == 0


def test_perfect_clustering_scores_one_whatever_the_labels():
    truth = {"a": 1, "b": 1, "c": 2}
    predicted = {"a": "x", "b": "x", "c": "y"}
    assert scores.pairwise_scores(predicted, truth) == (1.0, 1.0, 1.0)
    assert scores.bcubed_scores(predicted, truth) == (1.0, 1.0, 1.0)
    assert scores.cluster_errors(predicted, truth) == (0, 0)


def test_asymmetric_errors_counted_by_hand():
    # Truth: {a, b} is person 1, {c, d} person 2. Prediction: X = {a, b, c}, Y = {d}.
    truth = {"a": 1, "b": 1, "c": 2, "d": 2}
    predicted = {"a": "X", "b": "X", "c": "X", "d": "Y"}
    # Pairs: true ab, cd; predicted ab, ac, bc; only ab is right: P = 1/3, R = 1/2, F1 = 0.4.
    assert scores.pairwise_scores(predicted, truth) == (0.3333, 0.5, 0.4)
    # B3 per mention (P, R): a, b (2/3, 1); c (1/3, 1/2); d (1, 1/2).
    # P = (2/3 + 2/3 + 1/3 + 1) / 4 = 2/3; R = (1 + 1 + 1/2 + 1/2) / 4 = 3/4; F1 = 12/17.
    assert scores.bcubed_scores(predicted, truth) == (0.6667, 0.75, pytest.approx(0.7059))
    assert scores.cluster_errors(predicted, truth) == (1, 1)


def test_mentions_outside_the_truth_are_not_scored():
    truth = {"a": 1, "b": 1}
    # "z" is no labelled mention: joining it to a and b changes nothing.
    assert scores.pairwise_scores({"a": "X", "b": "X", "z": "X"}, truth) == (1.0, 1.0, 1.0)
    assert scores.bcubed_scores({"a": "X", "b": "X", "z": "X"}, truth) == (1.0, 1.0, 1.0)
