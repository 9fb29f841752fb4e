"""Every figure of docs/benchmarks.rst, regenerated in one run (about 10-15 minutes on the
project's 2-core machine): run it on an idle machine before a release.

    python benchmarks/run_release_figures.py                 # every figure
    python benchmarks/run_release_figures.py --only rules    # one part (repeatable)
    python benchmarks/run_release_figures.py --quick         # a smoke run, minutes
    python benchmarks/run_release_figures.py --strength      # also the strength matches

The parts, each writing its file of ``docs/figures/`` (the page includes them):

``rules``     release_rules.rst, release_playouts.rst: every game's rules core and random
              playouts, the workloads of ``boardrules bench`` (:mod:`boardrules.bench`,
              the same code and clock), each row in ``--rounds`` rounds;
``search``    release_search.rst: MCTS, ISMCTS and alpha-beta with one thread on every
              game, from ``boardrules bench``'s positions, in ``--rounds`` rounds;
``cli``       bench_cli.txt: what ``boardrules bench --game rome_and_carthage --game
              connect_four`` prints (its plain table, as the page shows it);
``armadora``  armadora_engine.rst: ``run.py`` (Armadora's four configurations against
              the targets);
``openspiel`` search.rst: ``run_search.py --no-strength`` (MCTS beside OpenSpiel's C++
              MCTSBot, ISMCTS beside OpenSpiel's through the bridge, alpha-beta, two
              threads), interleaved rounds;
``adapters``  adapters.rst: ``run_adapters.py`` (observation tensors, PettingZoo,
              OpenSpiel), interleaved rounds;
``versions``  compare_0.5.0.rst: ``compare_versions.py aa13a7d`` (0.5.0 against this
              tree, interleaved worker rounds; the first run builds 0.5.0 in a temporary
              directory, a few minutes more; this tree is measured as installed,
              ``--no-build``).

Every rate is per CPU second of the process doing the work (``time.process_time``) but
the two-thread figures of search.rst, which are per wall second and say so.  Each file
ends with the machine line: the release, Python, platform, CPU, cores and the load
average before and after its part (load well above 1 means other work shared the
machine; CPU time hides most of it, ratios of interleaved rounds more).  Nothing is
asserted.
"""

from __future__ import annotations

import argparse
import itertools
import os
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any, Literal

HERE = Path(__file__).resolve().parent
FIGURES = HERE.parent / "docs" / "figures"
sys.path.insert(0, str(HERE))

from bench_tables import machine_summary  # noqa: E402 - benchmarks/ is no package
from interleave import Spread, alternate  # noqa: E402
from run_search import grid  # noqa: E402

import boardrules  # noqa: E402
from boardrules import bench  # noqa: E402

#: Every game of the library, with its default options (``boardrules.load(game)``).
GAMES = ("armadora", "rome_and_carthage", "armada", "albion", "tic_tac_toe", "connect_four",
         "pig")
PARTS = ("rules", "search", "cli", "armadora", "openspiel", "adapters", "versions")
ALGORITHMS: tuple[Literal["mcts", "ismcts", "alphabeta"], ...] = ("mcts", "ismcts",
                                                                  "alphabeta")
#: 0.5.0's commit, the reference of compare_versions.py.
REF_050 = "aa13a7d"


def timed_rounds(workloads: Sequence[bench.Workload], seconds: float,
                 rounds: int) -> dict[str, list[bench.Timing]]:
    """Each workload timed for ``seconds`` of CPU time (``boardrules bench``'s
    :func:`~boardrules.bench.time_workload`) once a round, the workloads taking turns."""
    sides = {w.name: partial(bench.time_workload, w.make, seconds, first=w.first,
                             limit=w.limit) for w in workloads}
    return alternate(sides, rounds, warmup=False)


def per_cpu_second(timings: list[bench.Timing], games: bool = False) -> Spread:
    """The rounds' rates: units (or whole games: runs times batch) a CPU second."""
    return Spread.of([(t.runs * t.batch if games else t.count) / t.cpu_seconds
                      for t in timings])


def label(game: Any, game_id: str) -> str:
    return f"{game_id} {game.num_players}p"


def rules_tables(seconds: float, rounds: int) -> tuple[str, str]:
    """The rules cores (actions, legal-move calls, apply+undo pairs a CPU second) and the
    random playouts (games a CPU second in C and through the Python API)."""
    rules, playouts = [], []
    for game_id in GAMES:
        print(f"rules: {game_id}", file=sys.stderr, flush=True)
        game = boardrules.load(game_id)
        runs = timed_rounds(bench.workloads(game_id, game, search=False), seconds, rounds)
        c_core, python = runs["playouts (C core)"], runs["playouts (Python)"]
        rules.append([label(game, game_id), per_cpu_second(c_core).rate_text(),
                      per_cpu_second(runs["legal moves"]).rate_text(),
                      per_cpu_second(runs["apply+undo"]).rate_text(),
                      per_cpu_second(python).rate_text()])
        actions = sum(t.count for t in c_core) / sum(t.runs * t.batch for t in c_core)
        playouts.append([label(game, game_id), f"{actions:,.1f}",
                         per_cpu_second(c_core, games=True).rate_text(),
                         per_cpu_second(python, games=True).rate_text()])
    return (grid(["game (default options)", "C core actions/CPU s", "legal moves calls/CPU s",
                  "apply+undo pairs/CPU s", "Python API moves/CPU s"], rules),
            grid(["game (default options)", "atomic actions a game",
                  "C core games/CPU s", "Python API games/CPU s"], playouts))


def alphabeta_job(positions: Sequence[Any]) -> Callable[[int], bench.Job]:
    from boardrules.search import suggest

    order = itertools.cycle(range(len(positions)))

    def make(nodes: int) -> bench.Job:
        i = next(order)
        return lambda: int(suggest(positions[i], algorithm="alphabeta", max_nodes=nodes,
                                   seed=i).stats["nodes"])
    return make


def search_table(seconds: float, rounds: int) -> str:
    """MCTS and ISMCTS simulations and alpha-beta nodes a CPU second, one thread, from
    ``boardrules bench``'s positions of every game, the algorithms taking turns."""
    rows = []
    for game_id in GAMES:
        print(f"search: {game_id}", file=sys.stderr, flush=True)
        game = boardrules.load(game_id)
        positions = bench.bench_positions(game_id, game)
        cycle = itertools.cycle(range(len(positions)))
        workloads = [bench.Workload(a, "simulations", bench.search_job(positions, a, cycle),
                                    first=bench.SEARCH_FIRST, limit=bench.SEARCH_LIMIT)
                     for a in ("mcts", "ismcts")]
        workloads.append(bench.Workload("alphabeta", "nodes", alphabeta_job(positions),
                                        first=1_000, limit=1 << 22))
        runs = timed_rounds(workloads, seconds, rounds)
        where = ("the start" if game_id not in bench.POSITION_HISTORY else
                 f"{len(positions)} positions after {bench.POSITION_HISTORY[game_id]}+ actions")
        default = bench.search_algorithm(game).upper()
        rows.append([label(game, game_id), where, default,
                     *(per_cpu_second(runs[a]).rate_text() for a in ALGORITHMS)])
    return grid(["game (default options)", "positions", "default search",
                 "MCTS simulations/CPU s", "ISMCTS simulations/CPU s",
                 "alpha-beta nodes/CPU s"], rows)


def write(name: str, text: str, load_before: float, how: str) -> None:
    path = FIGURES / name
    path.write_text(f"{text}\n\n*{machine_summary(load_before, how)}*\n", encoding="utf-8")
    print(f"wrote {path}", file=sys.stderr, flush=True)


def cli_output(path: Path, quick: bool) -> None:
    """``boardrules bench``'s plain table, as a user's terminal shows it through a pipe;
    its warning, when the machine is busy, after it."""
    command = [sys.executable, "-m", "boardrules", "bench", "--game", "rome_and_carthage",
               "--game", "connect_four", *(["--seconds", "0.05"] if quick else [])]
    print("$ boardrules " + " ".join(command[3:]), file=sys.stderr, flush=True)
    done = subprocess.run(command, check=True, capture_output=True, text=True)
    path.write_text(done.stdout + done.stderr.replace("boardrules bench: ", "\n"),
                    encoding="utf-8")
    print(f"wrote {path}", file=sys.stderr, flush=True)


def script(*argv: str) -> None:
    """Run one of the scripts of ``benchmarks/`` under this interpreter."""
    command = [sys.executable, str(HERE / argv[0]), *argv[1:]]
    print("$ " + " ".join(command[1:]), file=sys.stderr, flush=True)
    subprocess.run(command, check=True)


def run_part(part: str, args: argparse.Namespace) -> None:
    load = os.getloadavg()[0]
    quick = ["--quick"] if args.quick else []
    if part == "rules":
        rules, playouts = rules_tables(args.seconds, args.rounds)
        how = f"{args.rounds} rounds of {args.seconds:g} CPU s a row; CPU time"
        write("release_rules.rst", rules, load, how)
        write("release_playouts.rst", playouts, load, how)
    elif part == "search":
        write("release_search.rst", search_table(args.seconds, args.rounds), load,
              f"{args.rounds} rounds of {args.seconds:g} CPU s a row; CPU time")
    elif part == "cli":
        cli_output(FIGURES / "bench_cli.txt", args.quick)
    elif part == "armadora":
        script("run.py", *quick, "--rst", str(FIGURES / "armadora_engine.rst"))
    elif part == "openspiel":
        strength = (["--strength-rst", str(FIGURES / "search_strength.rst")]
                    if args.strength else ["--no-strength"])
        script("run_search.py", *quick, "--rst", str(FIGURES / "search.rst"), *strength)
    elif part == "adapters":
        script("run_adapters.py", *quick, "--rst", str(FIGURES / "adapters.rst"))
    elif part == "versions":
        script("compare_versions.py", REF_050, "--label", f"0.5.0 ({REF_050})", "--no-build",
               "--rounds", "3" if not args.quick else "1", "--repeats", "2", *quick,
               "--rst", str(FIGURES / "compare_0.5.0.rst"))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", choices=PARTS, help="this part only")
    parser.add_argument("--quick", action="store_true", help="a smoke run: less of each")
    parser.add_argument("--seconds", type=float, default=None,
                        help="CPU seconds a row a round of the rules and search tables "
                             "(default 0.5, --quick 0.05)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="rounds of the rules and search tables (default 3)")
    parser.add_argument("--strength", action="store_true",
                        help="also play run_search.py's strength matches (many minutes)")
    args = parser.parse_args(argv)
    args.seconds = args.seconds or (0.05 if args.quick else 0.5)
    started = time.perf_counter()
    for part in args.only or PARTS:
        print(f"== {part}", file=sys.stderr, flush=True)
        run_part(part, args)
    print(f"done in {time.perf_counter() - started:.0f} s; boardrules {boardrules.__version__}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
