"""Rome & Carthage speed figures: C-core random playouts and ISMCTS simulations per second.

    python benchmarks/run_rome_and_carthage.py [--games 2000] [--repeats 3]

Prints an reStructuredText table (best of ``--repeats``, rates per CPU second of this
process) and whether the C core reaches
its target of 1,000,000 atomic actions a second.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from bench_tables import best_rate, print_table
from rc_workloads import C_CORE_TARGET, CONFIGS, ismcts, load_game, playouts, positions


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    rows = []
    ok = True
    for players, variant in CONFIGS:
        game = load_game(players, variant)
        playouts(game, 50)  # warm-up
        actions, rate = best_rate(lambda g=game: playouts(g, args.games), args.repeats)
        states = positions(game)
        _, sims = best_rate(lambda s=states: ismcts(s), 1)
        ok &= rate >= C_CORE_TARGET
        rows.append((f"{players}p {variant}", f"{actions / args.games:,.0f}", f"{rate:,.0f}",
                     f"{sims:,.0f}"))
    header = ("configuration", "actions a game", "C core actions/CPU s",
              "ISMCTS simulations/CPU s")
    print_table(header, rows)
    print(f"C core target {C_CORE_TARGET:,} actions/s: {'met' if ok else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
