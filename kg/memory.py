"""Whether the build has the memory to run a step beside its work: in a fork, or the store's load.

A fork shares the first half's memory only until either process touches an object: Python's
reference counts write to every object read, so a fork that reads the merged view (or the
identity decisions) ends up with its own copy. At 10,000 CVs the validation's fork took the
build from 6.5 to 9.7 GiB. So a step forks only where a full copy of this process fits in the
memory left: the system's available memory (a container's limit where one is set), or what is
left of the user's ``--memory-limit``. Otherwise it runs in this process, after the work it
would have run beside: slower, in less memory. (A fork also needs a core of its own, see
:data:`kg.build.FORK_FROM_CORES`.) Likewise the store loads the sources beside the
first half only where its load (:data:`STORE_LOAD`) fits (see :mod:`kg.store_load`), and a big
graph's page is drawn while the store loads only where both fit.
"""

from __future__ import annotations

import os
import re
import sys
import threading
import time
from pathlib import Path

from kg.errors import UsageError

_UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}
_SIZE = re.compile(r"(?P<number>\d+(?:\.\d+)?)\s*(?P<unit>[KMGT]?)(?:I?B)?", re.I)
_CGROUP = Path("/sys/fs/cgroup")


def parse_size(text: str) -> int:
    """The number of bytes *text* names: a number with an optional unit K, M, G or T (powers of 1024).

    >>> parse_size("6G"), parse_size("512M"), parse_size("1.5GiB"), parse_size("4096")
    (6442450944, 536870912, 1610612736, 4096)
    >>> parse_size("lots")
    Traceback (most recent call last):
    ...
    kg.errors.UsageError: 'lots' is not a size; give a number with K, M, G or T, such as 6G or 512M
    """
    m = _SIZE.fullmatch(text.strip())
    if m is None or float(m.group("number")) <= 0:
        raise UsageError(f"{text!r} is not a size; give a number with K, M, G or T, such as 6G or 512M")
    return int(float(m.group("number")) * _UNITS[m.group("unit").upper()])


def meminfo_available(meminfo: str) -> int | None:
    """``MemAvailable`` of a ``/proc/meminfo`` text, in bytes (None where it has none).

    >>> meminfo_available("MemTotal:  8000000 kB\\nMemAvailable:   2048 kB\\n")
    2097152
    """
    return _kib_field(meminfo, "MemAvailable")


def _kib_field(text: str, name: str) -> int | None:
    """The field *name* of a ``/proc`` text that counts KiB (``Name:   2048 kB``), in bytes."""
    m = re.search(rf"^{name}:\s+(\d+)\s*kB", text, re.M)
    return int(m.group(1)) * 1024 if m else None


def cgroup_room(limit: str, current: str) -> int | None:
    """What a cgroup (v2) may still take, from its ``memory.max`` and ``memory.current`` (None: no limit).

    >>> cgroup_room("max\\n", "100\\n"), cgroup_room("1000\\n", "300\\n")
    (None, 700)
    """
    limit = limit.strip()
    return None if limit == "max" or not limit.isdigit() else max(0, int(limit) - int(current.strip() or 0))


def available_memory() -> int | None:
    """The memory this process may still take, in bytes: the system's available memory, or less where
    a container's limit says so; None where the system does not say (not Linux)."""
    found = []
    try:
        found.append(meminfo_available(Path("/proc/meminfo").read_text()))
    except OSError:
        pass
    try:
        found.append(cgroup_room((_CGROUP / "memory.max").read_text(), (_CGROUP / "memory.current").read_text()))
    except (OSError, ValueError):
        pass
    known = [f for f in found if f is not None]
    return min(known) if known else None


def resident_memory(pid: int | str = "self") -> int | None:
    """The resident memory of a process (``VmRSS``), in bytes; None where the system does not say."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    return _kib_field(status, "VmRSS")


def room_for_a_copy(limit: int | None = None) -> bool:
    """Whether a fork of this process could copy all of it and stay within the memory there is.

    With *limit* (bytes, the build's ``--memory-limit``) the build's processes (this one and its
    parent) and the copy must fit in it; otherwise the copy must fit in :func:`available_memory`.
    True where the system does not say how much memory there is or is used.
    """
    mine = resident_memory()
    if mine is None:
        return True
    if limit is not None:
        return 2 * mine + (resident_memory(os.getppid()) or 0) <= limit
    free = available_memory()
    return free is None or mine <= free


#: The most the store's bulk load holds, with room to spare: it is given a piece of the file at a time
#: (:data:`kg.store.LOAD_PIECE`), and a process loading the 38 million statements of 10,000 CVs so
#: peaked at 0.20 GiB (given each file whole, Oxigraph's batches held 2.4 GiB).
STORE_LOAD = 2**28


def room_for_the_store_load(limit: int | None = None, writer: int | None = None) -> bool:
    """Whether the store's load (:data:`STORE_LOAD`) fits beside the build's first half, whose resident
    memory is *writer* (bytes): with *limit* (the build's ``--memory-limit``) this process, the writer
    and the load must fit in it; otherwise the load must fit in :func:`available_memory`. Without a
    limit, True where the system does not say; with one, False where the writer's memory is unknown.

    >>> room_for_the_store_load(limit=2**20, writer=0)
    False
    """
    if limit is not None:
        return writer is not None and (resident_memory() or 0) + writer + STORE_LOAD <= limit
    free = available_memory()
    return free is None or free >= STORE_LOAD


#: What drawing a big graph's page from the tables takes: a base and so much per triple of the merged
#: view (measured: 0.39 GiB for the 1.7 million triples of 1,000 CVs, 2.79 GiB for the 16.5 million of
#: 10,000; this gives 0.40 and 2.83).
PAGE_BASE, PAGE_PER_TRIPLE = 2**27, 176


def room_for_the_page(triples: int, limit: int | None = None) -> bool:
    """Whether the page of a merged view of *triples* triples can be drawn while the store loads: the
    page and the load (:data:`STORE_LOAD`) must fit in what is left of *limit* (the build's
    ``--memory-limit``) beside this process, or else in :func:`available_memory`.

    >>> room_for_the_page(10**7, limit=2**30)  # 1.8 GB for the page alone
    False
    """
    need = PAGE_BASE + triples * PAGE_PER_TRIPLE + STORE_LOAD
    if limit is not None:
        return (resident_memory() or 0) + need <= limit
    free = available_memory()
    return free is None or free >= need


def largest_process() -> int | None:
    """The most memory this process or any of its finished children held at once (their peak RSS), in
    bytes: for a command that ran one build, the build's largest process. None where unknown."""
    try:
        import resource
    except ImportError:  # not on this system
        return None
    peak = max(resource.getrusage(who).ru_maxrss for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    return peak if sys.platform == "darwin" else peak * 1024  # macOS counts bytes, Linux KiB


def tree_pss(root: int | None = None, include_root: bool = True) -> int | None:
    """The proportional set size of process *root* (this one by default; itself only with *include_root*)
    and all its descendants together, in bytes: the memory they take together, where a page a fork
    shares is counted once, split between the sharers (their RSS counts it in each). None where the
    system does not say (no ``/proc/PID/smaps_rollup``: not Linux).
    """
    proc = Path("/proc")
    root = os.getpid() if root is None else root
    if not (proc / str(root) / "smaps_rollup").is_file():
        return None
    children: dict[int, list[int]] = {}
    for stat in proc.glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()  # the name, in parentheses, may hold spaces
        except (OSError, IndexError):
            continue  # the process ended meanwhile
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    total, todo = 0, [root] if include_root else list(children.get(root, []))
    while todo:
        pid = todo.pop()
        todo += children.get(pid, [])
        try:
            rollup = (proc / str(pid) / "smaps_rollup").read_text()
        except OSError:
            continue
        total += _kib_field(rollup, "Pss") or 0
    return total


#: A sample of :func:`tree_pss` costs the kernel a walk over every page the processes map: 39 ms of
#: CPU for one process of 4 GiB (2026-11-30). So a sampler waits this many times as long as its last
#: sample cost it, where that is longer than its interval: sampling then takes at most a fiftieth of a
#: core. At 10,000 CVs the build's own sampler and the bench's, every second and every half second,
#: took about a fifth of a core of the two, and held the kernel's lock on each process's memory map.
SAMPLE_COST_RATIO = 50


def next_sample_in(interval: float, cost: float) -> float:
    """The seconds a sampler waits before its next sample: *interval*, or :data:`SAMPLE_COST_RATIO` times
    *cost* (the CPU seconds its last sample took) where that is longer.

    >>> next_sample_in(1.0, 0.005), next_sample_in(1.0, 0.065)
    (1.0, 3.25)
    """
    return max(interval, cost * SAMPLE_COST_RATIO)


class PeakMemory:
    """The peak of :func:`tree_pss` of this process and its descendants, sampled on a thread once every
    *interval* seconds (or less often, where a sample costs more: :func:`next_sample_in`) inside a
    ``with`` block and once at its end: ``peak``, in bytes (None where the system does not say),
    ``sampling``, the CPU seconds the samples on the thread took, and ``longest``, the most one of
    them took. A step shorter than the wait may peak unseen.

    >>> before = tree_pss()
    >>> with PeakMemory(interval=0.1) as memory:
    ...     block = b"x" * 50 * 2**20  # written, so resident
    >>> before is None or memory.peak - before > 45 * 2**20
    True
    >>> del block
    """

    def __init__(self, interval: float = 1.0):
        self.interval, self.peak, self.sampling, self.longest = interval, tree_pss(), 0.0, 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._follow, name="kg-peak-memory", daemon=True)

    def __enter__(self) -> PeakMemory:
        if self.peak is not None:
            self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        if self.peak is not None:
            self._stop.set()
            self._thread.join()
            self._sample()

    def _follow(self) -> None:
        wait = self.interval
        while not self._stop.wait(wait):
            began = time.thread_time()  # this thread's CPU: the kernel's walk of the pages included
            self._sample()
            cost = time.thread_time() - began
            self.sampling += cost
            self.longest = max(self.longest, cost)
            wait = next_sample_in(self.interval, cost)

    def _sample(self) -> None:
        self.peak = max(self.peak or 0, tree_pss() or 0)


def size_text(size: int) -> str:
    """*size* (bytes) as the build prints it: in GiB, or MiB below one.

    >>> size_text(6 * 2**30 + 2**29), size_text(2**20)
    ('6.50 GiB', '1.0 MiB')
    """
    return f"{size / 2**30:.2f} GiB" if size >= 2**30 else f"{size / 2**20:.1f} MiB"
