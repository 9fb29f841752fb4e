"""``boardrules match``: a match between bots (:func:`boardrules.arena.play_match`),
printed as a table or JSON."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "match", help="play a match between bots and print each bot's score",
        description="Play GAMES games between the bots, seats rotated (see the arena docs). "
                    "A bot is a spec: random, greedy, mcts:iterations=1000, "
                    "ismcts:iterations=2000,threads=1, alphabeta:depth=3, mcts:time_limit=0.5")
    p.add_argument("game", metavar="GAME", help="a game id (see the games command)")
    p.add_argument("bots", nargs="+", metavar="BOT", help="two or more bot specs")
    p.add_argument("--games", type=int, default=100, metavar="N",
                   help="games to play (default 100)")
    p.add_argument("--seed", type=int, default=0, metavar="S",
                   help="the match seed (default 0)")
    p.add_argument("--processes", type=int, default=None, metavar="P",
                   help="worker processes (default: every core; 1 plays in-process)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a game option, e.g. --option players=4 (repeatable)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(run=match)


def match(args: argparse.Namespace) -> int:
    """Exit status 2 and the reason on a bad game, option or bot."""
    from boardrules import arena

    try:
        result = arena.play_match(args.game, args.bots, games=args.games, seed=args.seed,
                                  processes=args.processes,
                                  options=arena.parse_options(args.option))
    except (ValueError, TypeError, LookupError) as exc:
        print(f"boardrules match: error: {exc}", file=sys.stderr)
        return 2
    print(result.to_json() if args.json else result.table())
    return 0
