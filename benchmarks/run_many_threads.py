"""Many threads and a short time limit: wall time, memory and work of one ``suggest`` with
``threads=64, time_limit=0.2`` per game and algorithm (the figures of docs/ai_search.rst,
"Memory" and "Many threads and the time limit").

    python benchmarks/run_many_threads.py [--threads 64] [--time-limit 0.2] [GAME ...]
"""

from __future__ import annotations

import argparse
import resource
import time

import boardrules

GAMES = ["tic_tac_toe", "connect_four", "pig", "armadora", "rome_and_carthage", "albion",
         "armada"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=GAMES)
    parser.add_argument("--threads", type=int, default=64)
    parser.add_argument("--time-limit", type=float, default=0.2)
    args = parser.parse_args()
    print(f"{'game':<18} {'algorithm':<10} {'wall s':>7} {'+RSS MiB':>9} {'work':>10} stopped")
    for game_id in args.games:
        state = boardrules.load(boardrules.games.as_game_id(game_id)).new_game(seed=1)
        for algorithm in ("auto", "alphabeta"):
            before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            start = time.perf_counter()
            hint = boardrules.suggest(state, algorithm=algorithm, threads=args.threads,
                                      time_limit=args.time_limit, seed=1)
            wall = time.perf_counter() - start
            grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
            work = hint.stats.get("iterations", hint.stats.get("nodes"))
            print(f"{game_id:<18} {hint.stats['algorithm']:<10} {wall:>7.2f} {grown:>9.0f} "
                  f"{work:>10} {hint.stats['stopped']}")


if __name__ == "__main__":
    main()
