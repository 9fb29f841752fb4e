"""``boardrules selfplay``: games played by one bot in every seat, each decision written
as a row of a Parquet or ``.npz`` file (:func:`boardrules.selfplay.generate`), with the
progress on standard error.  Ctrl-C stops it and writes the games finished so far (exit
status 130)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from boardrules.cli.match import INTERRUPTED_STATUS, clock


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "selfplay", help="self-play data for learning (Parquet or .npz)",
        description="Play GAMES games with BOT in every seat and write, per decision, the "
                    "observation tensor, the action mask, the search's visit "
                    "distribution and the final returns to OUT (.parquet or .npz).")
    p.add_argument("game", metavar="GAME", help="a game id (see the games command)")
    p.add_argument("--bot", default="mcts:iterations=200", metavar="SPEC",
                   help="the bot of every seat (default mcts:iterations=200)")
    p.add_argument("--games", type=int, default=100, metavar="N",
                   help="games to play (default 100)")
    p.add_argument("--out", default="selfplay.parquet", metavar="FILE",
                   help="the file to write, .parquet or .npz (default selfplay.parquet)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="the seed (default 0)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a game option, e.g. --option players=4 (repeatable)")
    p.add_argument("--processes", type=int, default=None, metavar="P",
                   help="workers (default: every core, on Ray every CPU)")
    p.add_argument("--backend", default="local", choices=("local", "ray"),
                   help="local processes (default) or Ray actors")
    p.set_defaults(run=selfplay)


def selfplay(args: argparse.Namespace) -> int:
    """Exit status 2 and the reason on a bad argument, 1 if the file cannot be written or
    the bot fails, 130 after Ctrl-C (the finished games written)."""
    from boardrules import arena
    from boardrules.selfplay import SelfPlayError, SelfPlayProgress, generate

    tenths = [0]

    def show(progress: SelfPlayProgress) -> None:
        tenth = progress.done * 10 // progress.total
        if tenth > tenths[0]:
            tenths[0] = tenth
            print(f"boardrules selfplay: {progress.done}/{progress.total} games, "
                  f"{progress.decisions} decisions, {clock(progress.elapsed)} elapsed",
                  file=sys.stderr, flush=True)

    try:
        result = generate(args.game, args.bot, args.games, args.out, seed=args.seed,
                          options=arena.parse_options(args.option),
                          processes=args.processes, backend=args.backend, progress=show)
    except (ValueError, TypeError, LookupError, ImportError) as exc:
        print(f"boardrules selfplay: error: {exc}", file=sys.stderr)
        return 2
    except (OSError, SelfPlayError) as exc:
        print(f"boardrules selfplay: error: {exc}", file=sys.stderr)
        return 1
    print(f"{result.path}: {result.games} games, {result.decisions} decisions "
          f"({result.format}), {result.seconds:.1f} s")
    if result.interrupted:
        print(f"boardrules selfplay: interrupted after {result.games} of {args.games} games",
              file=sys.stderr)
        return INTERRUPTED_STATUS
    return 0
