"""Albion speed figures: C-core random playouts and MCTS simulations per second.

    python benchmarks/run_albion.py [--games 2000] [--repeats 3]

Prints an reStructuredText table (best of ``--repeats``, rates per CPU second of this
process) and whether the C core reaches
its target of 1,000,000 atomic actions a second.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from albion_workloads import C_CORE_TARGET, CONFIGS, load_game, mcts, playouts, positions
from bench_tables import best_rate, print_table


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
    header = ("configuration", "actions a game", "C core actions/CPU s",
              "MCTS simulations/CPU s")
    print_table(header, rows)
    print(f"C core target {C_CORE_TARGET:,} actions/s: {'met' if ok else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
