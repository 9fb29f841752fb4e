"""The default search against 0.5.0's: per game, the bot that ``suggest(state)`` with no
budget plays today (the ``"normal"`` level) against the same search at 0.5.0's default of
1,000 iterations, in one seeded match with seats rotated (docs/ai_search.rst, "Strength
levels").

    python benchmarks/run_defaults.py                  # play (resumable), then write
    python benchmarks/run_defaults.py --games 100      # games per game (default 100)
    python benchmarks/run_defaults.py --only armadora  # one game
    python benchmarks/run_defaults.py --render-only    # the table from the results

Each game's games go to ``benchmarks/results/defaults-<game>-<iterations>.jsonl`` as they
finish (the default's iterations in the name): run
the same command again after an interruption and it resumes.  Both budgets are iteration
counts, never times, so the result does not depend on the machine or its load.  The
score is the default's (a win 1, a shared first place or draw a half) with the arena's
95% Wilson interval; 50% would mean "no better".  Writes docs/figures/defaults.rst.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import pair_matches as pm
from run_search import grid

import boardrules
from boardrules.search.suggest import DEFAULT_LEVEL, LEGACY_DEFAULT_ITERATIONS
from boardrules.tournament import TournamentResult

GAMES = [("armadora", {"players": 2}), ("rome_and_carthage", {"players": 2}),
         ("armada", {"players": 2}), ("albion", {"players": 2})]
SEED = 2027


#: A game's match played again after its default search changed without its level or
#: bot spec changing (a new file, ``-r<n>``; the table shows the earlier one, marked,
#: until the new one is complete).  Rome & Carthage: a defender's battle cards are
#: searched from the attacker's commit taken back, and the bots reuse their trees.
REVISIONS = {"rome_and_carthage": 1}


def results_path(game_id: str, options: dict[str, int], revision: int | None = None) -> Path:
    """The match's results file, named after the default's iteration count too: a later
    change of the game's level starts a match of its own instead of resuming this one
    (the bot spec, ``ismcts``, would read the same in both); ``revision`` (default the
    game's current one) adds ``-r<n>``."""
    iterations = boardrules.load(game_id, **options).search_levels[DEFAULT_LEVEL]
    revision = REVISIONS.get(game_id, 0) if revision is None else revision
    suffix = f"-r{revision}" if revision else ""
    return pm.RESULTS / f"defaults-{game_id}-{iterations}{suffix}.jsonl"


#: 0.5.0's default beyond its iterations where today's defaults differ: Albion's UCT
#: constant was 0.02 (0.05 since the exploration figures of docs/albion.rst), and there
#: was no reuse between moves.  (The other games' rows, and Rome & Carthage's r0, were
#: played before reuse existed, with the specs their results files hold.)
LEGACY_EXTRAS = {"albion": ",exploration=0.02,reuse=0", "rome_and_carthage": ",reuse=0"}


def bots(game_id: str, options: dict[str, int]) -> list[str]:
    """Today's default and 0.5.0's: the algorithm suggest() picks for the game."""
    game = boardrules.load(game_id, **options)
    algorithm = "ismcts" if game.has_hidden_information else "mcts"
    legacy = f"{algorithm}:iterations={LEGACY_DEFAULT_ITERATIONS}"
    return [algorithm, legacy + LEGACY_EXTRAS.get(game_id, "")]


def row(game_id: str, options: dict[str, int], result: TournamentResult) -> list[str]:
    game = boardrules.load(game_id, **options)
    return [game_id, f"``{result.bots[0]}`` ({game.search_levels[DEFAULT_LEVEL]:,})",
            f"``{result.bots[1]}``", *pm.score_cells(result)]


def render() -> str:
    rows = []
    for game_id, options in GAMES:
        result = pm.finished(game_id, results_path(game_id, options))
        if result is not None:
            rows.append(row(game_id, options, result))
        elif REVISIONS.get(game_id, 0) > 0:  # the earlier match, marked, until then
            earlier = pm.finished(game_id, results_path(game_id, options,
                                                        REVISIONS[game_id] - 1))
            if earlier is not None:
                cells = row(game_id, options, earlier)
                cells[0] += f" (r{REVISIONS[game_id] - 1})"
                rows.append(cells)
    return grid(["game (2 players)", "default (iterations)", "0.5.0 default", "games",
                 "won-drawn-lost", "score", "95% interval", "wall s/move",
                 "0.5.0 wall s/move"], rows)


def main() -> None:
    args = pm.arguments(__doc__)
    if not args.render_only:
        for game_id, options in GAMES:
            if args.only in (None, game_id):
                pm.play("defaults", game_id, bots(game_id, options), games=args.games,
                        seed=SEED, options=options, processes=args.processes,
                        path=results_path(game_id, options))
    pm.write_figure("defaults.rst", "run_defaults.py", SEED, render())


if __name__ == "__main__":
    main()
