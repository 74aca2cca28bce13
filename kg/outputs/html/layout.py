"""Node positions computed in Python with a fixed seed, so the same graph gives the same page."""

from __future__ import annotations

import math
import random

from kg.graphs.backend import igraph

LAYOUT_SEED = 20240601


def layout_positions(n: int, edges: list[tuple[int, int]], weights: list[float]) -> list[tuple[int, int]]:
    """Positions (in screen pixels) for nodes ``0..n-1``, the same on every run."""
    if n == 0:
        return []
    if n == 1:
        return [(0, 0)]
    ig = igraph()

    # GraphBase, igraph's C graph, lays out the same as Graph, whose constructor imports numpy (a
    # fifth of a second of every build) only to check whether the edges are an array
    g = ig.GraphBase(n, edges, False)
    previous = random
    ig.set_random_number_generator(random.Random(LAYOUT_SEED))
    try:
        # the grid variant is linear per iteration: 5k nodes in under a second
        coords = g.layout_fruchterman_reingold(weights=weights or None, niter=500, grid=n > 1000)
    finally:
        ig.set_random_number_generator(previous)
    xs = [c[0] for c in coords]
    ys = [c[1] for c in coords]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    extent = max(max(xs) - min(xs), max(ys) - min(ys)) or 1.0
    side = 170.0 * math.sqrt(n)  # about one node per 170 x 170 pixels
    scale = side / extent
    return [(round((x - cx) * scale), round((y - cy) * scale)) for x, y in coords]
