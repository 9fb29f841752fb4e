"""``boardrules tournament``: a round-robin, gauntlet or ladder of bots
(:func:`boardrules.tournament.play_tournament`), with its progress on standard error, its
games appended to a results file as they finish (the same command resumes it), and the
ratings printed as a table or JSON, or plotted.  Ctrl-C stops it and prints the ratings
of the games finished so far (exit status 130)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from boardrules.cli.match import INTERRUPTED_STATUS, progress_display


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "tournament", help="rate a field of bots: round-robin, gauntlet or ladder",
        description="Play a tournament between the bots and print their ratings (Elo "
                    "scale, Bradley-Terry fit, bootstrap intervals). A bot is a spec as "
                    "for the match command. With --results FILE each finished game is "
                    "appended to FILE as it finishes, and the same command run again "
                    "resumes the tournament: only the games FILE lacks are played.")
    p.add_argument("game", metavar="GAME", help="a game id (see the games command)")
    p.add_argument("bots", nargs="+", metavar="BOT",
                   help="two or more bot specs (gauntlet: the challenger first; ladder: "
                        "the rungs weakest first)")
    p.add_argument("--format", dest="tournament", default="round-robin",
                   choices=("round-robin", "gauntlet", "ladder"),
                   help="the tables: every combination of bots (default), the first bot "
                        "against the others, or rungs at most --reach apart")
    p.add_argument("--games", type=int, default=20, metavar="N",
                   help="games per table (default 20)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="the seed (default 0)")
    p.add_argument("--table-size", type=int, default=None, metavar="K",
                   help="bots per table (default 2; 3 in a game of 3 players)")
    p.add_argument("--reach", type=int, default=2, metavar="R",
                   help="a ladder's reach: rungs at most R apart meet (default 2)")
    p.add_argument("--processes", type=int, default=None, metavar="P",
                   help="workers (default: every core, on Ray every CPU; 1 plays in-process)")
    p.add_argument("--backend", default="local", choices=("local", "ray"),
                   help="local processes (default) or Ray actors")
    p.add_argument("--ray-address", default=None, metavar="ADDR",
                   help="the Ray cluster to join (ray.init(address=ADDR); default: "
                        "RAY_ADDRESS, else a local Ray started for the run)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a game option, e.g. --option players=4 (repeatable)")
    p.add_argument("--results", default=None, metavar="FILE",
                   help="the JSON-lines results file to append to and resume from")
    p.add_argument("--records", default=None, metavar="DIR",
                   help="write each game's whole record to DIR/table-001-game-00001.json, ...")
    p.add_argument("--move-time-limit", type=float, default=None, metavar="SECONDS",
                   help="a bot over it on a move forfeits the game")
    p.add_argument("--anchor", default=None, metavar="BOT",
                   help="the bot rated 0 (default: the mean rating is 0)")
    p.add_argument("--bootstrap", type=int, default=1000, metavar="B",
                   help="bootstrap resamples for the intervals (default 1000)")
    p.add_argument("--plot", default=None, metavar="FILE",
                   help="also plot the ratings to FILE (.png or .svg; needs matplotlib)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(run=tournament)


def tournament(args: argparse.Namespace) -> int:
    """Exit status 2 and the reason on a bad argument or results file, 1 if a file cannot
    be written, 130 after Ctrl-C (with the ratings of the finished games printed)."""
    import warnings

    from boardrules import arena
    from boardrules.tournament import DroppedResultsWarning, dropped_lines, play_tournament

    try:
        if args.ray_address is not None:
            _join_ray(args.ray_address)
        with progress_display(sys.stderr, "tournament") as show, \
                warnings.catch_warnings():
            # the lines of the results file not counted are said below, one a line
            warnings.simplefilter("ignore", DroppedResultsWarning)
            result = play_tournament(
                args.game, args.bots, tournament=args.tournament, games=args.games,
                seed=args.seed, options=arena.parse_options(args.option),
                table_size=args.table_size, reach=args.reach, processes=args.processes,
                backend=args.backend, results=args.results, records_dir=args.records,
                progress=show, move_time_limit=args.move_time_limit, anchor=args.anchor,
                bootstrap=args.bootstrap)
        if args.plot is not None and result.ratings is not None:
            result.ratings.save_plot(args.plot, title=_title(result))
    except (ValueError, TypeError, LookupError, ImportError) as exc:
        print(f"boardrules tournament: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"boardrules tournament: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # before the games started: nothing to show
        print("boardrules tournament: interrupted", file=sys.stderr)
        return INTERRUPTED_STATUS
    for line in dropped_lines(result.dropped) if result.dropped else []:
        print(f"boardrules tournament: {line.strip()}", file=sys.stderr)
    print(result.to_json() if args.json else result.table())
    if result.interrupted:
        print(f"boardrules tournament: interrupted after {len(result.records)} of "
              f"{result.total} games" + (f"; run the same command again to resume from "
                                         f"{args.results}" if args.results else ""),
              file=sys.stderr)
        return INTERRUPTED_STATUS
    return 0


def _join_ray(address: str) -> None:
    from boardrules._runner import ray_module

    ray = ray_module()
    if not ray.is_initialized():
        ray.init(address=address, log_to_driver=False)


def _title(result: Any) -> str:
    opts = ", ".join(f"{k}={v}" for k, v in result.options.items())
    return f"{result.game}" + (f" ({opts})" if opts else "") + f": {result.tournament}"
