"""The ``boardrules`` command (also ``python -m boardrules``): each subcommand is a module of
this package with ``add_parser(subparsers)``, which sets the ``run`` the command calls.

>>> from boardrules.cli import main
>>> main(["games"])  # doctest: +ELLIPSIS
albion
...
0
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from boardrules.cli.demo import (
    BOT_ITERATIONS,
    DEMO_GAMES,
    SUGGESTION_ITERATIONS,
    demo_bots,
    play_demo_game,
)

__all__ = ["BOT_ITERATIONS", "DEMO_GAMES", "SUGGESTION_ITERATIONS", "demo_bots", "main",
           "play_demo_game"]

#: The subcommands, in the order ``--help`` lists them (each a module of this package).
COMMANDS = ("demo", "games", "play", "suggest", "replay", "render", "match", "tournament",
            "selfplay", "record", "bench")


def _games(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    import boardrules

    def run(args: argparse.Namespace) -> int:
        print("\n".join(boardrules.available_games()))
        return 0

    p = sub.add_parser("games", help="list the available games")
    p.set_defaults(run=run)


def build_parser(prog: str = "boardrules") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog, description="boardrules: play, replay, render and rate board games "
                               "(Armadora, Rome & Carthage, Armada, Albion) from the terminal.",
        epilog="In 'boardrules play', 'help' lists the commands and 'legend' says what each "
               "mark of the game's text board means (RI, *~#, 0S1, ?2...).")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        if name == "games":
            _games(sub)
        else:
            importlib.import_module(f"boardrules.cli.{name}").add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None, prog: str = "boardrules") -> int:
    args = build_parser(prog).parse_args(argv)
    try:
        status: int = args.run(args)
    except KeyboardInterrupt:  # Ctrl-C: no traceback; a command that keeps work catches it
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (| head): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    return status
