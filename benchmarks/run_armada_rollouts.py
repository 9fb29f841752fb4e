"""Armada: informed rollouts against 0.6.0's default search at equal CPU time a move
(issue 34, item 3; docs/armada.rst, "Search: informed rollouts").

    nice -n 10 python benchmarks/run_armada_rollouts.py              # play, then the table
    nice -n 10 python benchmarks/run_armada_rollouts.py --games 40   # games a match
    python benchmarks/run_armada_rollouts.py --only limit30-eps0.1   # one match
    python benchmarks/run_armada_rollouts.py --render-only           # the table only
    nice -n 10 python benchmarks/run_armada_rollouts.py --speed      # simulations a CPU s

Every match is ISMCTS against ISMCTS on the two-player game, seats rotated, both bots at
``cpu_limit`` CPU seconds a move (``--cpu``, default 0.05) with ``until_sure=false``:
the same search, exploration 0.005 and root selection on both sides, only the rollouts
differ.  The reference is 0.6.0's default (random rollouts cut at once:
``rollout_limit=0``); the challengers play ``rollout_policy=informed`` (the core's
``action_values``, epsilon-greedy) for ``rollout_limit`` moves before ``evaluate``.  A
last match sets the chosen setting (``--chosen``) against the greedy bot.  Each match's
games go to ``benchmarks/results/armada-rollouts-<name>-<cpu>.jsonl`` as they finish, so
that an interrupted run resumes; the table gives the challenger's score with its 95%
Wilson interval.  ``--speed`` prints what each setting costs instead: ISMCTS simulations
a CPU second from the five ``boardrules.bench`` mid-game positions, in interleaved rounds
(benchmarks/interleave.py).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import pair_matches as pm
from interleave import Rate, cpu_timed, interleaved
from run_search import grid

import boardrules
from boardrules.bench import bench_positions
from boardrules.search import suggest
from boardrules.tournament import read_results

GAME = "armada"
OPTIONS = {"players": 2}
SEED = 34
#: 0.6.0's default for Armada (rollout_limit 0: evaluate() at the leaf; c = 0.005)
REFERENCE = "rollout_policy=random,rollout_limit=0"
#: name -> the challenger's rollout options
CHALLENGERS = {
    "limit10-eps0.1": "rollout_policy=informed,rollout_limit=10,rollout_epsilon=0.1",
    "limit30-eps0.1": "rollout_policy=informed,rollout_limit=30,rollout_epsilon=0.1",
    "limit100-eps0.1": "rollout_policy=informed,rollout_limit=100,rollout_epsilon=0.1",
    "limit30-eps0.3": "rollout_policy=informed,rollout_limit=30,rollout_epsilon=0.3",
    # the same depth with random moves: what the policy adds beyond the depth
    "random-limit30": "rollout_policy=random,rollout_limit=30",
}


def spec(rollouts: str, cpu: float) -> str:
    """ISMCTS at ``cpu`` CPU seconds a move, searched out (no stop once sure)."""
    return (f"ismcts:cpu_limit={cpu!r},until_sure=false,iterations=1000000,"
            f"exploration=0.005,{rollouts}")


def matches(chosen: str, cpu: float) -> dict[str, list[str]]:
    """Match name -> [challenger, opponent] bot specs."""
    out = {name: [spec(r, cpu), spec(REFERENCE, cpu)] for name, r in CHALLENGERS.items()}
    out[f"{chosen}-vs-greedy"] = [spec(CHALLENGERS[chosen], cpu), "greedy"]
    return out


def results_path(name: str, cpu: float) -> Path:
    return pm.RESULTS / f"armada-rollouts-{name}-{cpu:g}.jsonl"


def render(chosen: str, cpu: float) -> str:
    """The table; a match not played to its end shows the games played so far, marked
    (its interval is as wide as they leave it)."""
    rows = []
    for name, bots in matches(chosen, cpu).items():
        path = results_path(name, cpu)
        if not path.exists():
            continue
        result = read_results(path, bootstrap=0)
        if not result.records:
            continue
        cells = pm.score_cells(result)
        if not result.complete:
            cells[0] = f"{len(result.records)} of {result.total} (unfinished)"
        opponent = "greedy" if bots[1] == "greedy" else "0.6.0 default"
        rows.append([f"``{bots[0].split(',', 4)[4]}``", opponent, *cells])
    return grid(["challenger's rollouts", "against", "games", "won-drawn-lost",
                 "challenger's score", "95% interval", "challenger wall s/move",
                 "opponent wall s/move"], rows)


SPEED_ITERATIONS = 2000     # simulations a position, a round


def speed(rounds: int) -> str:
    """Simulations a CPU second of the reference's rollouts and each challenger's."""
    game = boardrules.load(GAME, **OPTIONS)
    positions = bench_positions(GAME, game)
    settings = {"0.6.0 default": REFERENCE, **CHALLENGERS}

    def side(rollouts: str) -> Callable[[], Rate]:
        options = dict(item.split("=") for item in rollouts.split(","))
        policy, limit = options["rollout_policy"], int(options["rollout_limit"])
        epsilon = float(options.get("rollout_epsilon", "0.1"))

        def run() -> int:
            for seed, state in enumerate(positions):
                suggest(state, algorithm="ismcts", iterations=SPEED_ITERATIONS,
                        until_sure=False, exploration=0.005, rollout_policy=policy,
                        rollout_limit=limit, rollout_epsilon=epsilon, seed=seed)
            return SPEED_ITERATIONS * len(positions)
        return lambda: cpu_timed(run)

    timed = interleaved({name: side(r) for name, r in settings.items()}, rounds)
    rows = [[f"``{settings[name]}``", timed.rate(name).rate_text(),
             str(timed.ratio(name, "0.6.0 default"))] for name in settings]
    return grid(["rollouts", "simulations a CPU second (lowest-highest round)",
                 "against 0.6.0's default"], rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--cpu", type=float, default=0.05)
    parser.add_argument("--processes", type=int, default=None)
    parser.add_argument("--only", default=None, help="one match, by name")
    parser.add_argument("--chosen", default="limit30-eps0.1", choices=sorted(CHALLENGERS))
    parser.add_argument("--render-only", action="store_true")
    parser.add_argument("--speed", type=int, default=0, metavar="ROUNDS",
                        help="print simulations a CPU second instead, in ROUNDS rounds")
    args = parser.parse_args()
    if args.speed:
        print(speed(args.speed))
        return
    if not args.render_only:
        for name, bots in matches(args.chosen, args.cpu).items():
            if args.only in (None, name):
                pm.play(name, GAME, bots, games=args.games, seed=SEED, options=OPTIONS,
                        processes=args.processes, path=results_path(name, args.cpu))
    print(render(args.chosen, args.cpu))


if __name__ == "__main__":
    main()
