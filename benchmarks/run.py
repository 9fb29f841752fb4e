"""Measure Armadora random-playout speed and print it as a reStructuredText table.

Usage::

    python benchmarks/run.py            # full workload
    python benchmarks/run.py --quick    # a tenth of it
    python benchmarks/run.py --rst table.rst   # also write the table alone to a file

For each (players, variant) it times two paths in CPU seconds of this process
(``time.process_time``: both run on one thread), best of ``--repeats`` (3) repeats of a
fixed, seeded workload:

* C core -- ``game.core.random_playouts(games, seed)``, whole games in C;
* Python API -- ``new_game(seed=i)`` then ``apply(rng.choice(legal_moves()))`` to the end.

Moves are player decisions (the setup chance outcomes excluded, see ``workloads.py``).
The targets are 1,000,000 moves/s for the C core and 100,000 for the Python API.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import boardrules
from boardrules.bench import cpu_model

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_tables import machine_summary
from workloads import (
    C_CORE,
    C_CORE_SEED,
    CONFIGS,
    PATHS,
    PYTHON_API,
    PYTHON_RNG_SEED,
    Measurement,
    counts,
    load_game,
    run_workload,
    setup_chance_actions,
)

#: Games per timed repeat of each path (``--quick`` divides them by 10).
FULL_GAMES = {C_CORE: 20_000, PYTHON_API: 300}
QUICK_DIVISOR = 10


def machine_line() -> str:
    return (
        f"Machine: {platform.platform()}; {cpu_model()}; {os.cpu_count()} CPUs; "
        f"Python {platform.python_version()} ({platform.python_implementation()}); "
        f"boardrules {boardrules.__version__}"
    )


def measure(path: str, players: int, variant: str, games: int, repeats: int) -> Measurement:
    """Best of ``repeats`` timings of one workload (after one small untimed warm-up)."""
    game = load_game(players, variant)
    setup = setup_chance_actions(game)
    run_workload(path, game, max(1, games // 10))  # warm-up
    best = float("inf")
    result = None
    for _ in range(repeats):
        start = time.process_time()
        value = run_workload(path, game, games)
        elapsed = time.process_time() - start
        if result is not None and value != result:
            raise RuntimeError(f"{path} {players}p {variant}: the workload is not reproducible")
        result = value
        best = min(best, elapsed)
    assert result is not None
    moves, actions = counts(path, result, games, setup)
    return Measurement(path, players, variant, games, moves, actions, best)


def rst_table(rows: Sequence[Measurement]) -> str:
    """A reStructuredText grid table of the measurements (numbers right-aligned)."""
    header = ["Path", "Players", "Variant", "Moves/CPU s", "Games/CPU s",
              "Mean moves per game", "Target (moves/s)", "Met"]
    right = [False, True, False, True, True, True, True, False]
    body = [
        [m.path, str(m.players), m.variant, f"{m.moves_per_s:,.0f}", f"{m.games_per_s:,.0f}",
         f"{m.mean_moves:.2f}", f"{m.target:,}", "yes" if m.met else "no"]
        for m in rows
    ]
    widths = [max(len(r[i]) for r in [header, *body]) for i in range(len(header))]

    def rule(char: str) -> str:
        return "+" + "+".join(char * (w + 2) for w in widths) + "+"

    def line(cells: Sequence[str], align: Sequence[bool]) -> str:
        padded = (c.rjust(w) if r else c.ljust(w)
                  for c, w, r in zip(cells, widths, align, strict=True))
        return "| " + " | ".join(padded) + " |"

    out = [rule("-"), line(header, [False] * len(header)), rule("=")]
    for cells in body:
        out += [line(cells, right), rule("-")]
    return "\n".join(out) + "\n"


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help=f"divide the workloads by {QUICK_DIVISOR}")
    parser.add_argument("--repeats", type=int, default=3, help="timed repeats, best kept")
    parser.add_argument("--rst", metavar="FILE", type=Path,
                        help="also write the table alone to FILE")
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    divisor = QUICK_DIVISOR if args.quick else 1
    games = {path: n // divisor for path, n in FULL_GAMES.items()}

    load_before = os.getloadavg()[0]
    print(machine_line())
    print(
        f"Workload: C core {games[C_CORE]:,} games (seed {C_CORE_SEED}), Python API "
        f"{games[PYTHON_API]:,} games (new_game(seed=i), random.Random({PYTHON_RNG_SEED})) "
        f"per figure; best of {args.repeats}; CPU time; moves = player moves (setup chance "
        "excluded)."
    )
    print(flush=True)

    rows = [
        measure(path, players, variant, games[path], args.repeats)
        for path in PATHS
        for players, variant in CONFIGS
    ]
    table = rst_table(rows)
    print(table)
    if args.rst is not None:
        how = f"best of {args.repeats}; CPU time{'; --quick' if args.quick else ''}"
        args.rst.write_text(f"{table}\n*{machine_summary(load_before, how)}*\n",
                            encoding="utf-8")
        print(f"Table written to {args.rst}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
