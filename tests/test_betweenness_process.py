"""Betweenness in a process of its own (kg.graphs.betweenness), as kg analyze's report uses it.

The answers are compared with centrality() computed in this process, on graphs whose betweenness
is known by hand: in a path a - b - c - d - e, b lies on the shortest paths of the pairs
(a, c), (a, d), (a, e): 3 of the C(4, 2) = 6 pairs without b, so normalised 0.5; c on (a, d),
(a, e), (b, d), (b, e): 4 of 6, so 0.666666667.
"""

from __future__ import annotations

import sys

import networkx as nx
import pytest

from kg.graphs.betweenness import BetweennessProcess
from kg.graphs.structure import CentralityInBackground, centrality

PATH = nx.path_graph(["a", "b", "c", "d", "e"])


def by_node(frame):
    return dict(zip(frame["node"], frame["betweenness"], strict=True))


def test_the_background_answer_is_the_answer_here():
    here = centrality(PATH)
    there = CentralityInBackground(PATH).result()
    assert by_node(there) == {"a": 0.0, "b": 0.5, "c": 0.666666667, "d": 0.5, "e": 0.0}
    assert there.equals(here) and there.attrs == here.attrs


def test_sampled_betweenness_in_the_background_is_the_same_sample():
    graph = nx.connected_watts_strogatz_graph(300, 6, 0.2, seed=3)
    here = centrality(graph, method="sampled", pivots=40, seed=7)
    there = CentralityInBackground(graph, method="sampled", pivots=40, seed=7).result()
    assert there.equals(here)
    assert "sampled from 40 of 300 pivots" in there.attrs["method"]


def test_after_pagerank_ran_here_the_process_still_answers():
    # regression: a fork of a process whose PageRank had started OpenMP threads hung in the child;
    # the betweenness now runs in a new interpreter, which has none
    centrality(PATH)
    job = BetweennessProcess()
    job.start(3, [(0, 1), (1, 2)], None)
    assert job.result() == [0.0, 1.0, 0.0]


def test_without_a_python_to_start_it_runs_here(monkeypatch):
    monkeypatch.setattr(sys, "executable", "/nonexistent/python")
    job = BetweennessProcess()
    job.start(3, [(0, 1), (1, 2)], None)
    assert job.process is None  # it could not start: the answer is computed here
    assert job.result() == [0.0, 1.0, 0.0]


def test_a_cancelled_job_leaves_no_process():
    job = BetweennessProcess()
    job.start(3, [(0, 1), (1, 2)], None)
    process = job.process
    job.cancel()
    job.cancel()
    assert job.process is None and process.returncode is not None


def test_inputs_are_checked_at_once():
    from kg.errors import UserError

    with pytest.raises(UserError, match="method must be"):
        CentralityInBackground(PATH, method="fast")
