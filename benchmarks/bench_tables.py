"""Helpers shared by the per-game speed scripts (``run_albion.py``,
``run_rome_and_carthage.py``): best-of-N rates, seeded mid-game positions and the
reStructuredText table they print."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from boardrules import CHANCE, Game, State


def best_rate(work: Callable[[], int], repeats: int) -> tuple[int, float]:
    """(units of one run, best units per second over ``repeats`` runs)."""
    best = float("inf")
    units = 0
    for _ in range(repeats):
        start = time.perf_counter()
        units = work()
        best = min(best, time.perf_counter() - start)
    return units, units / best


def seeded_positions(game: Game, count: int, seed: int, min_history: int) -> list[State]:
    """``count`` seeded positions reached by random play: the first decision with a
    choice after ``min_history`` actions (a new game if one ends first)."""
    out = []
    for i in range(count):
        state = game.new_game(seed=seed + i)
        rng = random.Random(seed + i)
        while len(out) <= i:
            state.apply(rng.choice(state.legal_moves()))
            if state.is_terminal():
                state = game.new_game(seed=seed + 100 + i)
            elif (len(state.history) > min_history and state.current_player != CHANCE
                  and len(state.legal_moves()) > 1):
                out.append(state)
    return out


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
