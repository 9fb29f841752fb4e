"""Helpers shared by the speed scripts of ``benchmarks/``: best-of-N rates on the CPU
clock, seeded mid-game positions, the machine line under a table and the
reStructuredText table the per-game scripts (``run_albion.py``, ``run_armada.py``,
``run_rome_and_carthage.py``) print.  The positions are drawn by
:func:`boardrules.bench.seeded_positions`, which ``boardrules bench`` uses too.  Scripts
that compare two engines, versions or settings time them with :mod:`interleave`
instead."""

from __future__ import annotations

import os
import platform
import time
from collections.abc import Callable, Sequence

import boardrules
from boardrules.bench import LoadCheck, core_count, cpu_model, seeded_positions

__all__ = ["best_rate", "machine_summary", "print_table", "seeded_positions"]


def best_rate(work: Callable[[], int], repeats: int) -> tuple[int, float]:
    """(units of one run, best units per CPU second of this process over ``repeats``
    runs): every workload here runs on one thread."""
    best = float("inf")
    units = 0
    for _ in range(repeats):
        start = time.process_time()
        units = work()
        best = min(best, time.process_time() - start)
    return units, units / best if best > 0 else float("inf")


def machine_summary(load_before: float | None = None, how: str = "") -> str:
    """One line: the release, Python, platform, CPU, cores and the load average (before
    the run, when given, and now), then ``how`` the figures were taken; "measured under
    load" when other work kept the cores busy (``boardrules bench``'s test:
    :class:`boardrules.bench.LoadCheck`)."""
    try:
        now: float | None = os.getloadavg()[0]
    except OSError:  # a platform without a load average
        now = None
    before = load_before if load_before is not None else now
    if now is None:
        load = "no load average"
    elif load_before is None:
        load = f"load average {now:.2f}"
    else:
        load = f"load average {load_before:.2f} before, {now:.2f} after"
    parts = [f"boardrules {boardrules.__version__}",
             f"{platform.python_implementation()} {platform.python_version()}",
             platform.platform(terse=True), cpu_model(), f"{core_count()} cores", load]
    if LoadCheck(before, now, core_count()).busy:
        parts.append("measured under load (other work on the cores)")
    return "; ".join(parts + ([how] if how else []))


def print_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    """An reStructuredText simple table."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    rule = "  ".join("=" * w for w in widths)
    print(rule)
    print("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)))
    print(rule)
    for row in rows:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)))
    print(rule)
