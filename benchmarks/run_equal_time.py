"""Alpha-beta against ISMCTS at equal time: per game, alpha-beta at a node budget and
ISMCTS at the iteration count that takes as long a move on this machine, in one seeded
match with seats rotated (docs/ai_search.rst, "Which algorithm").

    python benchmarks/run_equal_time.py                  # play (resumable), then write
    python benchmarks/run_equal_time.py --games 100      # games per game (default 100)
    python benchmarks/run_equal_time.py --only armada    # one game
    python benchmarks/run_equal_time.py --render-only    # the table from the results

Both budgets are counts, never times, so the result is the same on any machine and
under any load; "equal time" is this machine's, and the table shows each side's
measured seconds a move so that it can be checked.  The pairs were chosen from the
ladders' s/move column (docs/tournaments.rst).  Each game's games go to
``benchmarks/results/equal-time-<game>.jsonl`` as they finish.  Writes
docs/figures/equal_time.rst.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import pair_matches as pm
from run_search import grid

from boardrules.tournament import TournamentResult

#: (game, alpha-beta, ISMCTS at about the same seconds a move on this machine)
PAIRS = [
    ("armadora", "alphabeta:max_nodes=10000", "ismcts:iterations=500"),
    ("rome_and_carthage", "alphabeta:max_nodes=10000", "ismcts:iterations=700"),
    ("armada", "alphabeta:max_nodes=10000", "ismcts:iterations=2700"),
    ("albion", "alphabeta:max_nodes=10000", "ismcts:iterations=4200"),
]
OPTIONS = {"players": 2}
SEED = 2028


def results_path(game_id: str) -> Path:
    return pm.RESULTS / f"equal-time-{game_id}.jsonl"


def row(game_id: str, result: TournamentResult) -> list[str]:
    return [game_id, f"``{result.bots[0]}``", f"``{result.bots[1]}``",
            *pm.score_cells(result)]


def render() -> str:
    rows = []
    for game_id, _, _ in PAIRS:
        result = pm.finished(game_id, results_path(game_id))
        if result is not None:
            rows.append(row(game_id, result))
    return grid(["game (2 players)", "alpha-beta", "ISMCTS", "games",
                 "alpha-beta won-drawn-lost", "alpha-beta's score", "95% interval",
                 "alpha-beta wall s/move", "ISMCTS wall s/move"], rows)


def main() -> None:
    args = pm.arguments(__doc__)
    if not args.render_only:
        for game_id, alphabeta, ismcts in PAIRS:
            if args.only in (None, game_id):
                pm.play("equal time", game_id, [alphabeta, ismcts], games=args.games,
                        seed=SEED, options=OPTIONS, processes=args.processes,
                        path=results_path(game_id))
    pm.write_figure("equal_time.rst", "run_equal_time.py", SEED, render())


if __name__ == "__main__":
    main()
