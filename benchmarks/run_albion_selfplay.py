"""Albion self-play: how games between two equal MCTS bots end (the victory condition
or the round cap), and after how many rounds.

    python benchmarks/run_albion_selfplay.py [--games 10] [--iterations 20000]
        [--players 2] [--processes 2] [--seed 0]

Each game is seeded (bots and chance), so the figures are reproducible; games run in
``--processes`` worker processes.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

import boardrules
from boardrules.search import MCTSBot


def play(seed: int, iterations: int, players: int) -> tuple[str, int, tuple[int, ...], float]:
    """One self-play game: (end reason, rounds played, stage IV settlements, seconds)."""
    start = time.perf_counter()
    game = boardrules.load("albion", players=players)
    state = game.new_game(seed=seed)
    bots = [MCTSBot(iterations=iterations, seed=seed * 10 + p) for p in range(players)]
    while not state.is_terminal():
        state.apply(bots[state.current_player].choose(state))
    outcome = state.outcome()
    assert outcome is not None
    raw_round = state.view(None)["round"]
    return outcome.reason.value, raw_round, state.score(), time.perf_counter() - start


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--iterations", type=int, default=20_000)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    seeds = range(args.seed, args.seed + args.games)
    with ProcessPoolExecutor(args.processes) as pool:
        results = list(pool.map(play, seeds, [args.iterations] * args.games,
                                [args.players] * args.games))
    reasons = Counter(reason for reason, *_ in results)
    for seed, (reason, rounds, score, seconds) in zip(seeds, results, strict=True):
        print(f"seed {seed}: {reason} after {rounds} rounds, stage IV {score}, "
              f"{seconds:.0f} s")
    won = reasons["three_settlements"]
    print(f"{args.games} games, MCTS {args.iterations:,} iterations each side, "
          f"{args.players} players: {won} ended by the victory condition "
          f"({won / args.games:.0%}), {reasons['round_cap']} by the round cap")
    return 0


if __name__ == "__main__":
    sys.exit(main())
