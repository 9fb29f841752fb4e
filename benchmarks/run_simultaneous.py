"""Decoupled search at simultaneous choices against plain SO-ISMCTS, at equal iterations.

    python benchmarks/run_simultaneous.py                          # Rome & Carthage, 100 games
    python benchmarks/run_simultaneous.py --game pig --games 4     # a smoke run, any game
    python benchmarks/run_simultaneous.py --option players=2 --iterations 2000
    python benchmarks/run_simultaneous.py --toy                    # the toy matrix games

The match is ``ismcts:iterations=N`` (decoupled, the default) against
``ismcts:iterations=N,simultaneous=sequential``, played by ``boardrules.arena`` with the
seats rotated, so each bot starts half of the games.  The score counts a draw (or a shared
win) as half a game; the interval is the arena's 95% Wilson interval.  On a game whose
contract has no simultaneous decisions the two bots search alike, and the score measures
only the seat order and the noise.

``--toy`` measures instead, without the arena, what the search finds on the compiled toy
game of the tests (``boardrules._ext.toy_commit``): the root values and visit shares of
the first committer, the pooled replies of the second and, with regret matching, both
average strategies.  ``--mode regret`` plays regret matching against plain SO-ISMCTS
instead of decoupled UCT.
"""

from __future__ import annotations

import argparse
import sys
import time

from boardrules._ext.core import CoreState
from boardrules._ext.search import run_mcts
from boardrules._ext.toy_commit import RPS, ToyCommitCore
from boardrules.arena import parse_options, play_match
from boardrules.errors import BoardRulesError
from boardrules.games import as_game_id

#: A zero-sum matrix whose only equilibrium is (rock, paper, scissors) = (0.2, 0.4, 0.4).
BIASED = (0.0, -1.0, 1.0, 1.0, 0.0, -0.5, -1.0, 0.5, 0.0)
NAMES = ("rock", "paper", "scissors")


def match(game: str, games: int, iterations: int, options: dict[str, object], seed: int,
          processes: int | None, rollout_limit: int | None = None,
          mode: str = "decoupled") -> str:
    rollout = "" if rollout_limit is None else f",rollout_limit={rollout_limit}"
    ours_spec = f"ismcts:iterations={iterations}{rollout},simultaneous={mode}"
    sequential = f"ismcts:iterations={iterations}{rollout},simultaneous=sequential"
    t0 = time.perf_counter()
    result = play_match(as_game_id(game), [ours_spec, sequential], games=games, seed=seed,
                        processes=processes, options=options)
    ours = result.bots[0]
    where = game + "".join(f" {k}={v}" for k, v in options.items())
    return (f"{result.table()}\n\n"
            f"{mode} against sequential, {iterations} iterations each{rollout}, {where}: "
            f"{ours.score:g} of {ours.games} games = {ours.score_rate:.1%} "
            f"(draws half; 95% interval {ours.ci_low:.1%}-{ours.ci_high:.1%}; "
            f"{time.perf_counter() - t0:.0f} s)")


def _shares(rows: list[tuple[int, int, float]]) -> str:
    total = sum(n for _, n, _ in rows) or 1
    return ", ".join(f"{NAMES[a]} {n / total:.2f} ({v:+.2f})" for a, n, v in sorted(rows))


def _mix(strategy: list[tuple[int, float]]) -> str:
    return ", ".join(f"{NAMES[a]} {p:.2f}" for a, p in strategy)


def toy(iterations: int, seed: int) -> str:
    lines = ["toy commit game, player 0 to commit, ISMCTS, exploration 1.0: visit share "
             "(mean value for the mover) per action"]
    for label, payoff in (("rock-paper-scissors (equilibrium 1/3 each, value 0)", RPS),
                          ("biased (equilibrium 0.2 / 0.4 / 0.4, value 0)", BIASED)):
        st = CoreState(ToyCommitCore(payoff))
        lines.append(f"  {label}")
        for mode in ("sequential", "decoupled", "regret"):
            r = run_mcts(st, iterations, 0.0, 1.0, -1, True, False, 0, seed, 1, 1 << 20,
                         None, mode)
            lines.append(f"    {mode:10}  player 0: {_shares(r['children'])}")
            if r["replies"]:
                lines.append(f"    {'':10}  player 1 (pooled): {_shares(r['replies'])}")
            if r["strategy"]:
                lines.append(f"    {'':10}  average strategies: player 0 "
                             f"{_mix(r['strategy'])}; player 1 {_mix(r['reply_strategy'])}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="rome_and_carthage", help="a registered game id")
    parser.add_argument("--games", type=int, default=100, help="games (default 100)")
    parser.add_argument("--iterations", type=int, default=500,
                        help="ISMCTS iterations a move, both bots (default 500)")
    parser.add_argument("--rollout-limit", type=int, default=None,
                        help="random moves of a rollout before the game's heuristic "
                             "(default: the game's own rollout_limit)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a game option (repeatable), e.g. players=2")
    parser.add_argument("--seed", type=int, default=1, help="match seed (default 1)")
    parser.add_argument("--processes", type=int, default=None, help="default: every core")
    parser.add_argument("--mode", choices=("decoupled", "regret"), default="decoupled",
                        help="the search played against plain SO-ISMCTS")
    parser.add_argument("--toy", action="store_true",
                        help="measure the toy matrix games instead of playing a match")
    args = parser.parse_args()
    if args.toy:
        print(toy(args.iterations, args.seed))
        return 0
    try:
        text = match(args.game, args.games, args.iterations, parse_options(args.option),
                     args.seed, args.processes, args.rollout_limit, args.mode)
    except (BoardRulesError, ValueError, TypeError) as exc:
        print(f"run_simultaneous: {exc}", file=sys.stderr)
        return 2
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
