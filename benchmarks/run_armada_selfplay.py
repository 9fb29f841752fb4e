"""Armada self-play: how games between equal search bots end (a confirmed victory or the
round cap), and after how many rounds.

    python benchmarks/run_armada_selfplay.py [--games 10] [--bot ismcts|mcts]
        [--iterations 20000] [--players 2] [--cards] [--max-rounds 60]
        [--processes 2] [--seed 0]

Every player gets the same bot (ISMCTS by default; it is MCTS on a game without hidden
information, i.e. without ``--cards``).  Each game is seeded (bots and chance), so the
figures are reproducible; games run in ``--processes`` worker processes.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import boardrules
from boardrules import State
from boardrules.search import ISMCTSBot, MCTSBot

#: The outcome's termination -> how the game ended, in the words of the rules.
ENDS = {"mastery": "victory", "round_cap": "round_cap"}


@dataclass(frozen=True)
class Setting:
    """What every game of a run shares."""

    bot: str
    iterations: int
    players: int
    cards: bool
    max_rounds: int


def play(seed: int, setting: Setting) -> tuple[str, int, tuple[int, ...], float]:
    """One self-play game: (end, rounds played, territories owned, seconds)."""
    start = time.perf_counter()
    game = boardrules.load("armada", players=setting.players, cards=setting.cards,
                           max_rounds=setting.max_rounds)
    state: State[Any] = game.new_game(seed=seed)
    bot_class = ISMCTSBot if setting.bot == "ismcts" else MCTSBot
    bots = [bot_class(iterations=setting.iterations, seed=seed * 10 + p)
            for p in range(setting.players)]
    while not state.is_terminal():
        state.apply(bots[state.current_player].choose(state))
    outcome = state.outcome()
    assert outcome is not None
    rounds = int(state.view(None)["round"])
    return ENDS[outcome.reason.value], rounds, outcome.scores, time.perf_counter() - start


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--bot", choices=("ismcts", "mcts"), default="ismcts")
    parser.add_argument("--iterations", type=int, default=20_000)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--cards", action="store_true", help="the 3rd-edition card variant")
    parser.add_argument("--max-rounds", type=int, default=60)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    setting = Setting(args.bot, args.iterations, args.players, args.cards, args.max_rounds)
    seeds = range(args.seed, args.seed + args.games)
    with ProcessPoolExecutor(args.processes) as pool:
        results = list(pool.map(play, seeds, [setting] * args.games))
    ends = Counter(end for end, *_ in results)
    for seed, (end, rounds, owned, seconds) in zip(seeds, results, strict=True):
        print(f"seed {seed}: {end} after {rounds} rounds, territories {owned}, "
              f"{seconds:.0f} s")
    won = ends["victory"]
    print(f"{args.games} games, {args.bot.upper()} {args.iterations:,} iterations each "
          f"side, {args.players} players{', cards' if args.cards else ''}, round cap "
          f"{args.max_rounds}: {won} ended by a victory ({won / args.games:.0%}), "
          f"{ends['round_cap']} by the round cap")
    return 0


if __name__ == "__main__":
    sys.exit(main())
