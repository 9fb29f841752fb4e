"""Reuse between moves, measured as strength at equal time: per game, the search bot that
keeps the subtree of the position reached (``reuse=1``, the bots' default) against the
same bot starting every move from nothing (``reuse=0``), both with the same time per move,
in one seeded match with seats rotated (docs/ai_search.rst, "Reuse between moves").

    python benchmarks/run_reuse.py                  # play (resumable), then write
    python benchmarks/run_reuse.py --games 200      # games per game (default 200)
    python benchmarks/run_reuse.py --only armadora  # one game
    python benchmarks/run_reuse.py --render-only    # the table from the results

Each game's games go to ``benchmarks/results/reuse-<game>-<ms>ms.jsonl`` as they finish:
run the same command again after an interruption and it resumes.  The budget is a time
limit, so the figures depend on the machine and its load: run it on an idle machine (two
processes on two cores, one per game at a time).  The score is the reusing bot's (a win
1, a draw a half) with the arena's 95% Wilson interval; 50% would mean "no better".
Writes docs/figures/reuse.rst.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import pair_matches as pm
from run_search import grid

from boardrules.tournament import TournamentResult

# (game, options, algorithm, seconds per move)
GAMES = [("connect_four", {}, "mcts", 0.02),
         ("armadora", {"players": 2}, "ismcts", 0.05),
         ("rome_and_carthage", {"players": 2}, "ismcts", 0.02)]
SEED = 2029
DEFAULT_GAMES = 200


def results_path(game_id: str, seconds: float) -> Path:
    return pm.RESULTS / f"reuse-{game_id}-{round(seconds * 1000)}ms.jsonl"


def bots(algorithm: str, seconds: float) -> list[str]:
    return [f"{algorithm}:time_limit={seconds},reuse=1",
            f"{algorithm}:time_limit={seconds},reuse=0"]


def row(game_id: str, result: TournamentResult) -> list[str]:
    return [game_id, f"``{result.bots[0]}``", f"``{result.bots[1]}``",
            *pm.score_cells(result)]


def render() -> str:
    rows = []
    for game_id, _options, _algorithm, seconds in GAMES:
        result = pm.finished(game_id, results_path(game_id, seconds))
        if result is not None:
            rows.append(row(game_id, result))
    return grid(["game (2 players)", "reusing", "from nothing", "games",
                 "won-drawn-lost", "score", "95% interval", "wall s/move", "wall s/move"], rows)


def main() -> None:
    args = pm.arguments(__doc__)
    games = DEFAULT_GAMES if args.games == 100 and "--games" not in sys.argv else args.games
    if not args.render_only:
        for game_id, options, algorithm, seconds in GAMES:
            if args.only in (None, game_id):
                pm.play("reuse", game_id, bots(algorithm, seconds), games=games, seed=SEED,
                        options=options, processes=args.processes,
                        path=results_path(game_id, seconds))
    pm.write_figure("reuse.rst", "run_reuse.py", SEED, render())


if __name__ == "__main__":
    main()
