"""``boardrules suggest``: the search's best moves for a position, a save or any step of a
record -- for the player to move, from what that player may see."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from boardrules.cli._inputs import CommandError, add_source_arguments, source_state
from boardrules.errors import BoardRulesError
from boardrules.search import suggest


def add_parser(sub: Any) -> None:
    p = sub.add_parser("suggest", help="the best moves for a position, a save or a record",
                       description=__doc__)
    add_source_arguments(p)
    p.add_argument("--algorithm", default="auto",
                   choices=["auto", "mcts", "ismcts", "alphabeta"],
                   help="the search (default auto: ISMCTS with hidden information)")
    p.add_argument("--level", default=None, choices=["fast", "normal", "strong"],
                   help="the strength level (default normal when no other budget is "
                        "given; not with --iterations)")
    p.add_argument("--iterations", type=int, default=None, metavar="N",
                   help="simulations (MCTS/ISMCTS)")
    p.add_argument("--time-limit", type=float, default=None, metavar="S", help="seconds")
    p.add_argument("--cpu-limit", type=float, default=None, metavar="S",
                   help="CPU seconds of the search thread (MCTS/ISMCTS)")
    p.add_argument("--confidence", type=float, default=None, metavar="C",
                   help="of the moves' intervals (default 0.95)")
    p.add_argument("--seed", type=int, default=0, help="the search's seed (default 0)")
    p.add_argument("--top", type=int, default=5, metavar="K", help="moves listed (default 5)")
    p.add_argument("--json", action="store_true", help="print the suggestion as JSON")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        state, _ = source_state(args)
        if state.is_terminal():
            raise CommandError("the game is over: nothing to suggest")
        if state.current_player < 0:
            raise CommandError("chance moves next: nobody to suggest a move to")
        extra = {name: value for name, value in (("cpu_limit", args.cpu_limit),
                                                 ("confidence", args.confidence))
                 if value is not None}
        hint = suggest(state, algorithm=args.algorithm, iterations=args.iterations,
                       time_limit=args.time_limit, level=args.level, seed=args.seed,
                       **extra)
    except (CommandError, BoardRulesError, ValueError, TypeError) as exc:
        print(f"boardrules suggest: error: {exc}", file=sys.stderr)
        return 2
    top = hint.estimates[: max(args.top, 1)]
    if args.json:
        print(json.dumps({
            "player": state.current_player, "move": str(hint.move),
            # JSON has no infinity: a move with too few visits has no interval (null)
            "ranked": [{"move": str(e.move), "value": e.value, "visits": e.visits,
                        "stderr": _finite(e.stderr), "low": e.low, "high": e.high}
                       for e in top],
            "separated": hint.separated, "sure": hint.sure,
            "tied": [str(m) for m in hint.tied], "confidence": hint.confidence,
            "pv": [str(m) for m in hint.pv],
            "best_visits": hint.best_visits,
            # JSON has no infinity: one legal move has no second to be ahead of
            "margin": hint.margin if len(hint.ranked) > 1 else None,
            "warning": hint.warning,
            "stats": {k: v for k, v in hint.stats.items()
                      if isinstance(v, (int, float, str, type(None)))}}))
        return 0
    stats = hint.stats
    level = f"level {stats['level']}, " if stats.get("level") else ""
    print(f"player {state.current_player}: {hint.move}  ({stats.get('algorithm')}, "
          f"{level}{stats.get('iterations', stats.get('nodes'))} iterations, "
          f"{stats.get('seconds', 0):.2f} s)")
    for rank, e in enumerate(top, start=1):
        interval = ("no interval" if e.stderr == float("inf") else
                    f"{e.low:+.3f} to {e.high:+.3f}")
        print(f"  {rank}. {e.move!s:<24} value {e.value:+.3f}  visits {e.visits}  "
              f"({interval})")
    print("  line: " + " ".join(str(m) for m in hint.pv))
    verdict = ("separated" if hint.separated else "sure (tied)" if hint.sure
               else "not sure")
    print(f"  {verdict} at {hint.confidence:.0%}; stopped: {stats.get('stopped') or 'budget'}")
    if hint.warning is not None:
        print(f"  warning: {hint.warning}")
    return 0


def _finite(value: float) -> float | None:
    return None if value == float("inf") else value
