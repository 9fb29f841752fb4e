"""What a search budget buys: per game, the default algorithm at growing iteration budgets
against random play and against the next smaller budget, played by ``boardrules.arena``.

    python benchmarks/run_budgets.py                       # about 10 minutes on 2 cores
    python benchmarks/run_budgets.py --games 10 --quick    # a smoke run
    python benchmarks/run_budgets.py --rst docs/figures/budgets.rst

Each row is one match with seats rotated (a draw or a shared win counts half), so a score
of 50% means "no better".  The interval is the arena's 95% Wilson interval.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from run_search import grid

import boardrules
from boardrules.arena import play_match
from boardrules.games import as_game_id

#: (label, game id, options, budgets): the games a user meets, the budgets worth knowing.
SETUPS: list[tuple[str, str, dict[str, object], list[int]]] = [
    ("armadora, 2p basic", "armadora", {"players": 2, "variant": "basic"}, [100, 1000, 10_000]),
    ("armadora, 4p advanced", "armadora", {"players": 4, "variant": "advanced"},
     [100, 1000, 10_000]),
    ("connect_four", "connect_four", {}, [100, 1000, 10_000]),
    ("pig", "pig", {}, [100, 1000, 10_000]),
    ("tic_tac_toe", "tic_tac_toe", {}, [10, 100, 1000]),
]


def default_algorithm(game_id: str, options: dict[str, object]) -> str:
    game = boardrules.load(as_game_id(game_id), **options)
    return "ismcts" if game.has_hidden_information else "mcts"


def budget_rows(games: int, processes: int | None, quick: bool) -> list[list[str]]:
    rows: list[list[str]] = []
    for label, game_id, options, budgets in SETUPS:
        algorithm = default_algorithm(game_id, options)
        if quick:
            budgets = budgets[:2]
        previous: str | None = None
        for budget in budgets:
            bot = f"{algorithm}:iterations={budget}"
            for opponent in ["random", previous]:
                if opponent is None:
                    continue
                t0 = time.perf_counter()
                result = play_match(game_id, [bot, opponent], games=games, seed=1,
                                    processes=processes, options=options)
                ours = result.bots[0]
                rows.append([label, f"{algorithm} {budget:,}", opponent.replace(
                    f"{algorithm}:iterations=", f"{algorithm} "), str(ours.games),
                    f"{ours.score_rate:.0%}", f"{ours.ci_low:.0%}-{ours.ci_high:.0%}",
                    f"{ours.mean_move_seconds * 1000:.1f} ms"])
                print(" | ".join(rows[-1]), f"({time.perf_counter() - t0:.0f} s)",
                      file=sys.stderr, flush=True)
            previous = bot
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per match (default 20)")
    parser.add_argument("--processes", type=int, default=None, help="default: every core")
    parser.add_argument("--quick", action="store_true", help="the two smallest budgets only")
    parser.add_argument("--rst", type=Path, help="also write the table to this file")
    args = parser.parse_args()
    header = ["game", "bot", "against", "games", "score", "95% interval", "wall time a move"]
    table = grid(header, budget_rows(args.games, args.processes, args.quick))
    footer = (f"*{platform.platform()}; {os.cpu_count()} CPUs; Python "
              f"{platform.python_version()}; boardrules {boardrules.__version__}; "
              f"``python benchmarks/run_budgets.py --games {args.games}``*")
    text = f"{table}\n\n{footer}\n"
    print(text)
    if args.rst:
        args.rst.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
