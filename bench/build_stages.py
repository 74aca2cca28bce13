"""Where a build's time goes, size by size, and how far the design is from the issue's north star.

``kg build --timings`` prints the seconds of each stage. Across two sizes, a stage's growth exponent
over works (:func:`growth`, as for the whole build) says whether it grows faster
than the corpus, and carried on to the north star (:data:`NORTH_STAR_WORKS` works in
:data:`NORTH_STAR_SECONDS` s within :data:`NORTH_STAR_GIB` GiB) it says which stages stand in the way.

A projection assumes the exponent measured between the last two sizes holds: a rough guide, not a
prediction (an exponent measured from 1,000 to 10,000 CVs has held within 0.05 at 5,000). Stages marked
"beside the others" run on a thread or a process of their own beside the first half, so the stages
overlap and do not add up to the total.
"""

from __future__ import annotations

import math
import re

#: The issue's north star: a million works in five minutes within 8 GiB.
NORTH_STAR_WORKS = 1_000_000
NORTH_STAR_SECONDS = 300
NORTH_STAR_GIB = 8
_STAGE = re.compile(r"^  (.+): (\d+(?:\.\d+)?) s$")


def parse_timings(text: str) -> dict[str, float]:
    """The stages ``kg build --timings`` printed in *text*, in order, with their seconds ("total" too).

    >>> parse_timings("built\\ntimings:\\n  reading: 13.05 s\\n  identity: 21.91 s\\n  total: 72.30 s\\n")
    {'reading': 13.05, 'identity': 21.91, 'total': 72.3}
    >>> parse_timings("no timings here:\\n  reading: 1 s")
    {}
    """
    stages: dict[str, float] = {}
    lines = text.splitlines()
    if "timings:" not in lines:
        return stages
    for line in lines[lines.index("timings:") + 1:]:
        found = _STAGE.match(line)
        if not found:
            break
        stages[found.group(1)] = float(found.group(2))
    return stages


def growth(t1: float | None, t2: float | None, n1: float | None, n2: float | None) -> float | None:
    """log(t2/t1) / log(n2/n1): how a figure (seconds, memory) grows with the size (works, mentions;
    1.0: in proportion); None where it means nothing (a figure missing or 0, one size twice).

    >>> growth(10, 100, 1_000, 10_000), growth(10, 40, 100, 200), growth(0, 5, 1, 2), growth(1, 2, None, 5)
    (1.0, 2.0, None, None)
    """
    values = (t1, t2, n1, n2)
    if not all(isinstance(v, (int, float)) and v > 0 for v in values) or any(map(math.isnan, values)) or n1 == n2:
        return None
    return math.log(t2 / t1) / math.log(n2 / n1)


def projected(value: float, works: float, exponent: float, target: float = NORTH_STAR_WORKS) -> float:
    """*value*, measured at *works*, carried to *target* works with *exponent*.

    >>> projected(60.0, 30_000, 1.0, 300_000), round(projected(10.0, 100, 2.0, 1_000))
    (600.0, 1000)
    """
    return value * (target / works) ** exponent


def stage_order(measured: list[dict]) -> list[str]:
    """Every stage of the *measured* builds (smallest first), in the largest build's order; a stage only
    a smaller build has (a step named for how it ran there) comes right after the stage before it there.

    >>> small = {"stages": {"reading": 1.0, "mapping, with a fork": 2.0, "total": 3.0}}
    >>> big = {"stages": {"reading": 9.0, "mapping, paced": 20.0, "total": 30.0}}
    >>> stage_order([small, big])
    ['reading', 'mapping, with a fork', 'mapping, paced', 'total']
    """
    order: list[str] = []
    for build in reversed(measured):
        previous = None
        for stage in build["stages"]:
            if stage not in order:
                order.insert(order.index(previous) + 1 if previous is not None else 0, stage)
            previous = stage
    return order


def stage_rows(builds: list[dict]) -> list[dict]:
    """One row per stage (:func:`stage_order`): its seconds at each size, its exponent between the last
    two sizes, and its seconds projected to :data:`NORTH_STAR_WORKS` works (None without two sizes).

    *builds*: rows of :func:`bench.bench_build.build_size`, smallest first, each with ``works`` and the
    ``stages`` :func:`parse_timings` read.

    >>> small = {"works": 1_000, "stages": {"reading": 2.0, "identity": 4.0, "total": 7.0}}
    >>> big = {"works": 10_000, "stages": {"reading": 20.0, "identity": 80.0, "total": 110.0}}
    >>> rows = stage_rows([small, big])
    >>> [(r["stage"], r["seconds"], round(r["exponent"], 2), round(r["projected"])) for r in rows]
    [('reading', [2.0, 20.0], 1.0, 2000), ('identity', [4.0, 80.0], 1.3, 32000), ('total', [7.0, 110.0], 1.2, 27163)]
    """
    measured = [b for b in builds if b.get("stages") and b.get("works")]
    if not measured:
        return []
    rows = []
    for stage in stage_order(measured):
        seconds = [b["stages"].get(stage) for b in measured]
        row: dict = {"stage": stage, "seconds": seconds, "exponent": None, "projected": None}
        if len(measured) > 1 and seconds[-2] is not None and seconds[-1] is not None:
            before, last = measured[-2], measured[-1]
            row["exponent"] = growth(seconds[-2], seconds[-1], before["works"], last["works"])
            if row["exponent"] is not None:
                row["projected"] = projected(seconds[-1], last["works"], row["exponent"])
        rows.append(row)
    return rows


def north_star(builds: list[dict]) -> dict | None:
    """The build's seconds and memory (all its processes, PSS) at :data:`NORTH_STAR_WORKS` works, carried
    from the last two sizes by their exponents, beside the north star's; None without two sizes.

    >>> a = {"works": 30_000, "seconds": 60.0, "tree_pss_mib": 700.0}
    >>> b = {"works": 300_000, "seconds": 780.0, "tree_pss_mib": 5_600.0}
    >>> star = north_star([a, b])
    >>> round(star["seconds"]), round(star["gib"], 1), round(star["times_too_slow"], 1)
    (2982, 16.2, 9.9)
    """
    measured = [b for b in builds if b.get("works") and b.get("seconds") and b.get("tree_pss_mib")]
    if len(measured) < 2:
        return None
    before, last = measured[-2], measured[-1]
    time_exp = growth(before["seconds"], last["seconds"], before["works"], last["works"])
    memory_exp = growth(before["tree_pss_mib"], last["tree_pss_mib"], before["works"], last["works"])
    if time_exp is None or memory_exp is None:
        return None
    seconds = projected(last["seconds"], last["works"], time_exp)
    gib = projected(last["tree_pss_mib"], last["works"], memory_exp) / 1024
    return {"works": NORTH_STAR_WORKS, "from_works": last["works"], "time_exponent": time_exp,
            "memory_exponent": memory_exp, "seconds": seconds, "gib": gib,
            "times_too_slow": seconds / NORTH_STAR_SECONDS, "times_too_big": gib / NORTH_STAR_GIB}


def stages_markdown(builds: list[dict]) -> str:
    """The stages' table and the north star's line ("" without the stages of any build)."""
    rows = stage_rows(builds)
    if not rows:
        return ""
    sizes = [b for b in builds if b.get("stages") and b.get("works")]
    head = " | ".join(f"{b['documents']:,} CVs s" for b in sizes)
    out = ["| stage | " + head + " | exponent | at 1,000,000 works s |", "|---" * (len(sizes) + 3) + "|"]
    for r in rows:
        cells = " | ".join("" if s is None else f"{s:.2f}" for s in r["seconds"])
        exp = "" if r["exponent"] is None else f"{r['exponent']:.2f}"
        star = "" if r["projected"] is None else f"{r['projected']:,.0f}"
        out.append(f"| {r['stage']} | {cells} | {exp} | {star} |")
    star = north_star(builds)
    if star:
        out.append(f"\nNorth star ({NORTH_STAR_WORKS:,} works in {NORTH_STAR_SECONDS} s within {NORTH_STAR_GIB} GiB), "
                   f"carried from {star['from_works']:,} works: {star['seconds']:,.0f} s (exponent "
                   f"{star['time_exponent']:.2f}; {star['times_too_slow']:.1f} times the goal) "
                   f"and {star['gib']:.1f} GiB (exponent {star['memory_exponent']:.2f}; "
                   f"{star['times_too_big']:.1f} times the goal).")
    return "\n".join(out)
