"""Scores of a clustering of mentions against the truth: pairwise and B-cubed (as S2AND and WhoIsWho report).

A clustering is a mapping ``mention -> cluster label`` (any hashable labels); the truth maps the
same kind of mention to a true person. Only mentions present in both are scored (the caller
reports the others). Everything is computed from the contingency table (how many mentions each
predicted cluster shares with each true person), so the cost is linear in the mentions, however
large the clusters.

A tiny worked example. The truth has person 1 = {a, b, c} and person 2 = {d, e}; the prediction
puts {a, b} in X and wrongly joins c to d and e in Y.

>>> truth = {"a": 1, "b": 1, "c": 1, "d": 2, "e": 2}
>>> split_and_merged = {"a": "X", "b": "X", "c": "Y", "d": "Y", "e": "Y"}

Pairs: the truth holds 3 + 1 = 4 same-person pairs (ab ac bc, de); the prediction 1 + 3 = 4
(ab; cd ce de), of which ab and de are true: precision 2/4, recall 2/4.

>>> pairwise_scores(split_and_merged, truth)
Scores(precision=0.5, recall=0.5, f1=0.5)

B-cubed, per mention (overlap of its predicted and true cluster over the predicted / true size):
a, b: 2/2 and 2/3; c: 1/3 and 1/3; d, e: 2/3 and 2/2. Precision = (1 + 1 + 1/3 + 2/3 + 2/3) / 5
= 11/15, recall = (2/3 + 2/3 + 1/3 + 1 + 1) / 5 = 11/15.

>>> bcubed_scores(split_and_merged, truth)
Scores(precision=0.7333, recall=0.7333, f1=0.7333)
>>> cluster_errors(split_and_merged, truth)
ClusterErrors(false_merges=1, split_people=1)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Mapping
from typing import NamedTuple


class Scores(NamedTuple):
    precision: float
    recall: float
    f1: float


class ClusterErrors(NamedTuple):
    false_merges: int  # predicted clusters holding mentions of more than one true person
    split_people: int  # true people whose mentions lie in more than one predicted cluster


def _f1(precision: float, recall: float) -> float:
    return 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)


def _scores(precision: float, recall: float) -> Scores:
    return Scores(round(precision, 4), round(recall, 4), round(_f1(precision, recall), 4))


def contingency(predicted: Mapping[Hashable, Hashable], truth: Mapping[Hashable, Hashable]) -> Counter:
    """``(predicted label, true label) -> number of mentions`` over the mentions both map.

    >>> sorted(contingency({"a": "X", "b": "X", "z": "X"}, {"a": 1, "b": 2}).items())
    [(('X', 1), 1), (('X', 2), 1)]
    """
    return Counter((label, truth[m]) for m, label in predicted.items() if m in truth)


def _pairs(n: int) -> int:
    return n * (n - 1) // 2


def pairwise_scores(predicted: Mapping, truth: Mapping) -> Scores:
    """Precision and recall over same-person mention pairs; 1.0 where there are no pairs to judge.

    Joining everyone: 10 predicted pairs, the 4 true ones among them. Splitting everyone: no
    predicted pair (precision 1 by convention), none of the 4 found.

    >>> truth = {"a": 1, "b": 1, "c": 1, "d": 2, "e": 2}
    >>> pairwise_scores(dict.fromkeys(truth, "all"), truth)
    Scores(precision=0.4, recall=1.0, f1=0.5714)
    >>> pairwise_scores({m: m for m in truth}, truth)
    Scores(precision=1.0, recall=0.0, f1=0.0)
    """
    table = contingency(predicted, truth)
    both = sum(_pairs(n) for n in table.values())
    pred_sizes, true_sizes = Counter(), Counter()
    for (p, t), n in table.items():
        pred_sizes[p] += n
        true_sizes[t] += n
    predicted_pairs = sum(_pairs(n) for n in pred_sizes.values())
    true_pairs = sum(_pairs(n) for n in true_sizes.values())
    return _scores(both / predicted_pairs if predicted_pairs else 1.0, both / true_pairs if true_pairs else 1.0)


def bcubed_scores(predicted: Mapping, truth: Mapping) -> Scores:
    """B-cubed precision and recall: per mention, the share of its predicted cluster that is truly
    its person, and the share of its person that its cluster holds; averaged over mentions.

    Joining everyone: a, b, c keep 3/5 of the cluster, d, e 2/5: precision (3 * 3/5 + 2 * 2/5) / 5
    = 13/25. Splitting everyone: recall (3 * 1/3 + 2 * 1/2) / 5 = 2/5.

    >>> truth = {"a": 1, "b": 1, "c": 1, "d": 2, "e": 2}
    >>> bcubed_scores(dict.fromkeys(truth, "all"), truth)
    Scores(precision=0.52, recall=1.0, f1=0.6842)
    >>> bcubed_scores({m: m for m in truth}, truth)
    Scores(precision=1.0, recall=0.4, f1=0.5714)
    >>> bcubed_scores({}, {})
    Scores(precision=1.0, recall=1.0, f1=1.0)
    """
    table = contingency(predicted, truth)
    pred_sizes, true_sizes = Counter(), Counter()
    for (p, t), n in table.items():
        pred_sizes[p] += n
        true_sizes[t] += n
    total = sum(table.values())
    if not total:
        return _scores(1.0, 1.0)
    # Each of the n mentions in cell (p, t) has overlap n: it adds n / |p| to precision, n / |t| to recall.
    precision = sum(n * n / pred_sizes[p] for (p, t), n in table.items()) / total
    recall = sum(n * n / true_sizes[t] for (p, t), n in table.items()) / total
    return _scores(precision, recall)


def cluster_errors(predicted: Mapping, truth: Mapping) -> ClusterErrors:
    """How many predicted clusters join several people, and how many people are split.

    >>> truth = {"a": 1, "b": 1, "c": 2}
    >>> cluster_errors({"a": "X", "b": "Y", "c": "Y"}, truth)
    ClusterErrors(false_merges=1, split_people=1)
    """
    table = contingency(predicted, truth)
    people_in = Counter(p for p, _ in table)
    clusters_of = Counter(t for _, t in table)
    return ClusterErrors(sum(1 for n in people_in.values() if n > 1), sum(1 for n in clusters_of.values() if n > 1))
