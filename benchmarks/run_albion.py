"""Albion speed figures: C-core random playouts and MCTS simulations per second.

    python benchmarks/run_albion.py [--games 2000] [--repeats 3]

Prints an reStructuredText table (best of ``--repeats``) and whether the C core reaches
its target of 1,000,000 atomic actions a second.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence

from albion_workloads import C_CORE_TARGET, CONFIGS, load_game, mcts, playouts, positions


def best_rate(work: Callable[[], int], repeats: int) -> tuple[int, float]:
    """(units of one run, best units per second over ``repeats`` runs)."""
    best = float("inf")
    units = 0
    for _ in range(repeats):
        start = time.perf_counter()
        units = work()
        best = min(best, time.perf_counter() - start)
    return units, units / best


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    rows = []
    ok = True
    for players in CONFIGS:
        game = load_game(players)
        playouts(game, 50)  # warm-up
        actions, rate = best_rate(lambda g=game: playouts(g, args.games), args.repeats)
        states = positions(game)
        _, sims = best_rate(lambda s=states: mcts(s), 1)
        ok &= rate >= C_CORE_TARGET
        rows.append((f"{players} players", f"{actions / args.games:,.0f}", f"{rate:,.0f}",
                     f"{sims:,.0f}"))
    header = ("configuration", "actions a game", "C core actions/s", "MCTS simulations/s")
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(4)]
    rule = "  ".join("=" * w for w in widths)
    print(rule)
    print("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)))
    print(rule)
    for row in rows:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)))
    print(rule)
    print(f"C core target {C_CORE_TARGET:,} actions/s: {'met' if ok else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
