"""How a long build shows where it is: a progress bar per stage on a terminal, and the seconds
each stage took (``kg build --timings``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def stage_bar(items, progress: bool, stage: str, total: int | None = None):
    """*items*, with a progress bar named *stage* on the terminal when *progress*."""
    if not progress:
        return items
    from tqdm import tqdm

    return tqdm(items, desc=stage, unit="doc", total=total, leave=False)


class Stopwatch:
    """The seconds between one lap and the next, named: the build's stage timings."""

    def __init__(self) -> None:
        self.laps: list[tuple[str, float]] = []
        self._since = self._start = time.perf_counter()

    def lap(self, stage: str) -> None:
        now = time.perf_counter()
        self.laps.append((stage, now - self._since))
        self._since = now

    def timed(self, stage: str, work: Callable[[], T]) -> T:
        """*work*'s result, its time recorded under *stage* (for work on another thread: no lap)."""
        start = time.perf_counter()
        result = work()
        self.laps.append((stage + " (beside the others)", time.perf_counter() - start))
        return result

    def beside(self, laps: list[tuple[str, float]]) -> None:
        """Record stages timed in another process (see :meth:`timed`)."""
        self.laps += [(stage + " (beside the others)", seconds) for stage, seconds in laps]

    def total(self, stage: str = "total") -> None:
        self.laps.append((stage, time.perf_counter() - self._start))
