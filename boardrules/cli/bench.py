"""``boardrules bench``: the engine's and the search's speed on this machine
(:mod:`boardrules.bench`), printed as a table or JSON."""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from boardrules.bench import BenchReport, BenchRow, LoadAverage

#: The longest a row may be asked to run (seconds of CPU time).
MAX_SECONDS = 600.0
#: Every rate is per CPU second of this process, and its column says so: pytest-benchmark
#: and wall-clock timings of the same workload read lower on a shared machine, and a
#: figure quoted without its clock cannot be compared with them.
RATE, GAMES = "rate/CPU s", "games/CPU s"
HEADER = ("game", "workload", RATE, "unit", GAMES, "CPU s", "note")
#: Columns aligned right.
RIGHT = {RATE, GAMES, "CPU s"}
#: Left out of the plain table (in the rich one and the JSON): it keeps the table within 88
#: columns.
WIDE = {"note"}


def seconds_value(text: str) -> float:
    """``--seconds``: a finite number above 0 and at most :data:`MAX_SECONDS`."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(value) or not 0 < value <= MAX_SECONDS:
        raise argparse.ArgumentTypeError(
            f"must be above 0 and at most {MAX_SECONDS:g} seconds, not {text}")
    return value


def add_parser(sub: Any) -> None:
    from boardrules.bench import DEFAULT_GAMES, DEFAULT_SECONDS

    p = sub.add_parser(
        "bench", help="measure the engine and the search on this machine",
        description="Time a few workloads of each game, each for --seconds of CPU time: "
                    "random playouts in C and through the Python API, legal-move "
                    "generation, apply+undo, and MCTS/ISMCTS simulations with one thread. "
                    "Rates are per CPU second of this process (not wall time); a warning on "
                    "standard error says when other work was loading the machine.")
    p.add_argument("--game", action="append", metavar="G",
                   help=f"a game id (repeatable; default {', '.join(DEFAULT_GAMES)})")
    p.add_argument("--seconds", type=seconds_value, default=DEFAULT_SECONDS, metavar="S",
                   help=f"CPU seconds each row runs for (default {DEFAULT_SECONDS:g})")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument("--search", action=argparse.BooleanOptionalAction, default=True,
                   help="measure the search too (default: yes)")
    p.set_defaults(run=bench)


def bench(args: argparse.Namespace, loadavg: LoadAverage | None = os.getloadavg) -> int:
    """Exit status 2 and the reason on an unknown game.  ``loadavg`` reads the machine's
    load (before and after the run)."""
    from boardrules import bench as lib

    try:
        games = lib.check_games(args.game or lib.DEFAULT_GAMES)
    except ValueError as exc:
        print(f"boardrules bench: error: {exc}", file=sys.stderr)
        return 2
    report = run_with_status(games, args.seconds, args.search, loadavg)
    warning = report.load.warning()
    if warning:
        print(f"boardrules bench: {warning}", file=sys.stderr)
    if args.json:
        print(report.to_json())
    elif sys.stdout.isatty():
        print_rich(report)
    else:
        sys.stdout.write(plain_table(report))
    return 0


def run_with_status(games: Sequence[str], seconds: float, search: bool,
                    loadavg: LoadAverage | None) -> BenchReport:
    """The run, with a line saying what is being measured when standard error is a
    terminal (rich's status spinner)."""
    from boardrules.bench import run_bench

    if not sys.stderr.isatty():
        return run_bench(games, seconds=seconds, search=search, loadavg=loadavg)
    from rich.console import Console

    with Console(stderr=True).status("measuring") as status:
        return run_bench(games, seconds=seconds, search=search, loadavg=loadavg,
                         progress=lambda g, w: status.update(f"measuring {g}: {w}"))


def cells(row: BenchRow) -> list[str]:
    games = row.games_per_s
    return [f"{row.game} {row.players}p", row.workload, f"{row.rate:,.0f}", row.unit,
            "" if games is None else f"{games:,.0f}", f"{row.cpu_seconds:.2f}", row.note]


def summary(report: BenchReport) -> list[str]:
    """What was measured where: the versions and platform, the CPU and load, the budget."""
    m, load = report.machine, report.load
    loads = ("no load average" if load.before is None or load.after is None
             else f"load {load.before:.2f} before, {load.after:.2f} after")
    return [f"boardrules {m['boardrules']}, {m['python']}, {m['platform']}",
            f"{m['cpu']}, {load.cores} cores, {loads}",
            f"{report.seconds:g} CPU s a row; rates per CPU second (process_time), "
            "not wall time"]


def plain_table(report: BenchReport) -> str:
    """The table as aligned text (numbers right-aligned), under the summary."""
    keep = [i for i, name in enumerate(HEADER) if name not in WIDE]
    names = [HEADER[i] for i in keep]
    rows = [names, *([cells(r)[i] for i in keep] for r in report.rows)]
    widths = [max(len(r[i]) for r in rows) for i in range(len(names))]

    def line(row: Sequence[str]) -> str:
        return "  ".join(c.rjust(w) if h in RIGHT else c.ljust(w)
                         for c, w, h in zip(row, widths, names, strict=True)).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([*summary(report), "", line(rows[0]), rule,
                      *(line(r) for r in rows[1:])]) + "\n"


def print_rich(report: BenchReport) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title="boardrules bench", caption="\n".join(summary(report)))
    for name in HEADER:
        table.add_column(name, justify="right" if name in RIGHT else "left",
                         overflow="fold")
    previous = None
    for row in report.rows:
        if previous is not None and row.game != previous:
            table.add_section()
        table.add_row(*cells(row))
        previous = row.game
    Console().print(table)
