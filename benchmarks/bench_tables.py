"""Helpers shared by the per-game speed scripts (``run_albion.py``,
``run_rome_and_carthage.py``): best-of-N rates, seeded mid-game positions and the
reStructuredText table they print.  The positions are drawn by
:func:`boardrules.bench.seeded_positions`, which ``boardrules bench`` uses too."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from boardrules.bench import seeded_positions

__all__ = ["best_rate", "print_table", "seeded_positions"]


def best_rate(work: Callable[[], int], repeats: int) -> tuple[int, float]:
    """(units of one run, best units per second over ``repeats`` runs)."""
    best = float("inf")
    units = 0
    for _ in range(repeats):
        start = time.perf_counter()
        units = work()
        best = min(best, time.perf_counter() - start)
    return units, units / best


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
