"""Albion's informed rollouts against 0.6.0's default search at equal CPU time a move
(docs/albion.rst, "Search: informed rollouts").

    python benchmarks/run_albion_rollouts.py                 # play (resumable), then write
    python benchmarks/run_albion_rollouts.py --games 40      # games a match (the default: 100)
    python benchmarks/run_albion_rollouts.py --only limit30  # one match (its label)
    python benchmarks/run_albion_rollouts.py --render-only   # the table from the results

Every match is ISMCTS at ``cpu_limit`` CPU seconds a move without the stop once sure
(``until_sure=false``), 2 players, seats rotated: informed rollouts (the core's
``al_action_values``, epsilon-greedy) at a few cut-offs and epsilons against 0.6.0's
default (``rollout_policy=random`` with the game's ``rollout_limit=0`` and
``exploration=0.05``: the leaf evaluated at once), and the chosen setting against the
greedy bot.  The budget is CPU time, so the match is fair under load, but its games are
not reproducible move for move.  Each match's games go to
``benchmarks/results/albion-rollouts-<label>.jsonl`` as they finish (run it again to
resume).  Writes docs/figures/albion_rollouts.rst.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import pair_matches as pm
from run_search import grid

from boardrules.tournament import TournamentResult, read_results

CPU = "cpu_limit=0.05,until_sure=false"
DEFAULT_060 = f"ismcts:{CPU},rollout_policy=random"
INFORMED = f"ismcts:{CPU},rollout_policy=informed"
#: (label, the searcher measured, its opponent)
MATCHES = [
    ("limit5", f"{INFORMED},rollout_limit=5,rollout_epsilon=0.1", DEFAULT_060),
    ("limit10", f"{INFORMED},rollout_limit=10,rollout_epsilon=0.1", DEFAULT_060),
    ("limit30", f"{INFORMED},rollout_limit=30,rollout_epsilon=0.1", DEFAULT_060),
    ("limit100", f"{INFORMED},rollout_limit=100,rollout_epsilon=0.1", DEFAULT_060),
    ("limit30-eps0.3", f"{INFORMED},rollout_limit=30,rollout_epsilon=0.3", DEFAULT_060),
    ("limit30-c0.2", f"{INFORMED},rollout_limit=30,rollout_epsilon=0.1,exploration=0.2",
     DEFAULT_060),
    ("greedy", f"{INFORMED},rollout_limit=30,rollout_epsilon=0.1", "greedy"),
    ("default-greedy", DEFAULT_060, "greedy"),
]
OPTIONS = {"players": 2}
SEED = 3403


def results_path(label: str) -> Path:
    return pm.RESULTS / f"albion-rollouts-{label}.jsonl"


def played(label: str) -> TournamentResult | None:
    """The games of a match played so far (None: none yet).  A match stopped early is
    shown with the games it has, its games cell saying so: under a CPU budget a clear
    loser need not play on for its interval to be clear."""
    path = results_path(label)
    if not path.exists():
        return None
    result = read_results(path, bootstrap=0)
    return result if result.records else None


def row(result: TournamentResult) -> list[str]:
    cells = pm.score_cells(result)
    if not result.complete:
        cells[0] = f"{cells[0]} of {result.total}"
    return [short(result.bots[0]), short(result.bots[1]), *cells]


def short(bot: str) -> str:
    """A bot spec without the budget every searcher shares (said above the table)."""
    if bot == DEFAULT_060:
        return "0.6.0 default"
    return f"``{bot.replace(f'ismcts:{CPU},', '')}``" if bot.startswith("ismcts") else bot


def render() -> str:
    rows = []
    for label, _, _ in MATCHES:
        result = played(label)
        if result is not None:
            rows.append(row(result))
    return grid(["searcher (ISMCTS, 0.05 CPU s a move)", "opponent", "games",
                 "won-drawn-lost", "score", "95% interval", "wall s/move",
                 "opponent wall s/move"], rows)


def main() -> None:
    args = pm.arguments(__doc__)
    if not args.render_only:
        for label, bot, opponent in MATCHES:
            if args.only in (None, label):
                pm.play(label, "albion", [bot, opponent], games=args.games, seed=SEED,
                        options=OPTIONS, processes=args.processes,
                        path=results_path(label))
    pm.write_figure("albion_rollouts.rst", "run_albion_rollouts.py", SEED, render(),
                    command="python benchmarks/run_albion_rollouts.py --games 40",
                    summary="Clock: CPU time a move (cpu_limit), 2 players.")


if __name__ == "__main__":
    main()
