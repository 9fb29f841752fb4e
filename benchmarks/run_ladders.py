"""The published ladders: for each of the four games, the library's bots at several
budgets rated against each other (docs/tournaments.rst, "Ladders"), and the scaling of a
tournament on 1 and 2 processes and on Ray.

    python benchmarks/run_ladders.py                   # play (resumable), then write
    python benchmarks/run_ladders.py --games 12        # games per table (default 12)
    python benchmarks/run_ladders.py --only armadora   # one game
    python benchmarks/run_ladders.py --render-only     # tables and plots from the results
    python benchmarks/run_ladders.py --scaling         # the scaling table only (wall
                                                       # time, interleaved rounds)

Each game's games go to ``benchmarks/results/ladder-<game>.jsonl`` as they finish: run
the same command again after an interruption and it resumes.  The budgets are iteration
and node counts, never times, so the ratings do not depend on the machine or its load.
Writes docs/figures/ladders.rst and docs/figures/ladder-<game>.png.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from interleave import cpu_timed, interleaved
from run_search import grid

from boardrules.cli.match import progress_display
from boardrules.tournament import TournamentResult, ladder, read_results, round_robin

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
FIGURES = ROOT / "docs" / "figures"

#: The rungs, in the order of the ladder (roughly weakest first): each meets the rungs
#: at most REACH away.
RUNGS = [
    "random",
    "greedy",
    "alphabeta:max_nodes=1000",
    "mcts:iterations=100",
    "ismcts:iterations=100",
    "alphabeta:max_nodes=10000",
    "mcts:iterations=1000",
    "ismcts:iterations=1000",
    "alphabeta:max_nodes=100000",
    "mcts:iterations=10000",
    "ismcts:iterations=10000",
]
REACH = 2
GAMES = [("armadora", {"players": 2}), ("rome_and_carthage", {"players": 2}),
         ("armada", {"players": 2}), ("albion", {"players": 2})]
SEED = 2026


def results_path(game_id: str) -> Path:
    return RESULTS / f"ladder-{game_id}.jsonl"


def play(game_id: str, options: dict[str, int], games: int, processes: int | None) -> None:
    RESULTS.mkdir(parents=True, exist_ok=True)
    with progress_display(sys.stderr, f"ladder {game_id}") as show:
        ladder(game_id, RUNGS, games=games, reach=REACH, seed=SEED, options=options,
               processes=processes, results=results_path(game_id), progress=show,
               anchor="random", bootstrap=0)


def ratings_table(result: TournamentResult) -> str:
    assert result.ratings is not None, result.ratings_error
    standings = {s.bot: s for s in result.standings}
    rows = []
    for rank, r in enumerate(result.ranked(), start=1):
        s = standings[r.bot]
        rows.append([str(rank), f"``{r.bot}``", f"{r.elo:+.0f}",
                     f"{r.low:+.0f} to {r.high:+.0f}", str(s.games), f"{s.score:g}",
                     f"{s.mean_move_seconds:.3g}"])
    return grid(["#", "bot", "Elo", "95% interval", "games", "score", "wall s/move"], rows)


def render(games: int) -> str:
    parts = []
    for game_id, options in GAMES:
        path = results_path(game_id)
        if not path.exists():
            continue
        result = read_results(path, anchor="random", bootstrap=1000)
        if not result.complete:  # an unfinished ladder is not published
            print(f"{game_id}: {len(result.records)}/{result.total} games, skipped",
                  file=sys.stderr)
            continue
        title = f"{game_id}, " + ", ".join(f"{k}={v}" for k, v in options.items())
        parts += [title, "~" * len(title), "",
                  f"{len(result.records)}/{result.total} games, {len(result.tables)} tables "
                  f"of two rungs at most {REACH} apart, {result.games} games each, seed "
                  f"{SEED}; ``random`` fixed at 0.", "", ratings_table(result), ""]
        if result.ratings is not None:
            picture = FIGURES / f"ladder-{game_id}.png"
            result.ratings.save_plot(picture, title=f"{game_id} (2 players): ladder")
            parts += [f".. image:: figures/ladder-{game_id}.png",
                      f"   :alt: the {game_id} ladder's ratings with their intervals",
                      "   :width: 100%", ""]
    return "\n".join(parts)


def scaling(rounds: int) -> str:
    """One tournament on one process, two processes and Ray (two CPUs), the three taking
    turns for ``rounds`` rounds (:mod:`interleave`).  Wall time: what more processes save
    is wall time (their CPU time is spread over them); the speed-up over one process is
    taken round by round."""
    bots = ["random", "greedy", "mcts:iterations=300", "ismcts:iterations=300",
            "alphabeta:max_nodes=3000"]
    kwargs = {"games": 6, "seed": 1, "options": {"players": 2}, "bootstrap": 0}
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)  # before any timing
    backends = {"local, 1 process": {"processes": 1}, "local, 2 processes": {"processes": 2},
                "Ray, 2 CPUs (local instance)": {"backend": "ray"}}

    def run(extra: dict[str, object]) -> int:
        return len(round_robin("armadora", bots, **kwargs, **extra).records)  # type: ignore[arg-type]

    r = interleaved({label: partial(cpu_timed, partial(run, extra))
                     for label, extra in backends.items()}, rounds, progress=True)
    first = next(iter(backends))
    rows = [[label, str(r.timings[label][0].count),
             f"{statistics.median(t.wall_seconds for t in r.timings[label]):.1f}",
             r.rate(label, "wall").rate_text(digits=2),
             str(r.ratio(label, first, "wall"))] for label in backends]
    return grid(["backend", "games", "wall seconds (median)",
                 "games/wall s: median (lowest-highest round)", "speed-up (wall)"], rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--processes", type=int, default=None)
    parser.add_argument("--only", default=None)
    parser.add_argument("--render-only", action="store_true")
    parser.add_argument("--scaling", action="store_true")
    parser.add_argument("--rounds", type=int, default=3,
                        help="interleaved rounds of the scaling table (default 3)")
    args = parser.parse_args()
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    if args.scaling:
        table = scaling(args.rounds)
        print(table)
        (FIGURES / "tournament_scaling.rst").write_text(
            f".. {machine}\n\n{table}\n", encoding="utf-8")
        return
    if not args.render_only:
        for game_id, options in GAMES:
            if args.only in (None, game_id):
                play(game_id, options, args.games, args.processes)
    text = render(args.games)
    (FIGURES / "ladders.rst").write_text(f".. {machine}\n\n{text}", encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
