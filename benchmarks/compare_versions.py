"""Speed of a released boardrules against this tree, side by side: the same workloads
(C-core random playouts of every game, the Python API loop, MCTS / ISMCTS simulations
and alpha-beta nodes a second) run against both trees, each in its own subprocess with
``PYTHONPATH`` set to that tree.

Usage::

    python benchmarks/compare_versions.py aa13a7d            # 0.5.0 against this tree
    python benchmarks/compare_versions.py aa13a7d --label "0.5.0 (aa13a7d)" \
        --rst docs/figures/compare_0.5.0.rst               # the table in docs/benchmarks.rst
    python benchmarks/compare_versions.py aa13a7d --quick    # a tenth of the work

The ref is exported with ``git archive`` into ``--build-dir`` (default
``$TMPDIR/boardrules-bench-<commit>``) and its extensions built there with ``python
setup.py build_ext --inplace -j 2``; a build already there is reused.  This tree is
built in place the same way first (a no-op when it is up to date; ``--no-build`` skips
it).  ``--build-python`` names the interpreter that builds (its setuptools must read the
project's ``pyproject.toml``: setuptools >= 77); the workloads run under this one.

The workloads are defined here, not taken from either tree's ``benchmarks/``, and use
only API that both trees have, so that one definition measures both.  Each figure is the
best of ``--repeats`` timings in a worker, in CPU seconds of the worker process
(``time.process_time``: every workload runs on one thread), and the trees take turns for
``--rounds`` rounds (interleaved: ref, now, ref, now, ...; :mod:`interleave`), so that a
machine's load changing during the run touches both.  Ratio is this tree's rate over the
ref's, taken round by round: the table gives its median with the lowest and highest round,
and each tree's median rate.  Above 1 is faster now.  Nothing is asserted: the table only
measures.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
THIS_TREE = HERE.parent
sys.path.insert(0, str(HERE))

from interleave import Spread, alternate  # noqa: E402 - benchmarks/ is no package

#: (key, game, options, kind, parameters) of every figure, each sized to about 0.1 to 1
#: CPU second (shorter ones varied by 20% and more between runs on the 2-core machine).
#: ``kind``: "playouts" (C-core random playouts, atomic actions: decisions and chance
#: outcomes), "python" (the user's loop through the public API, moves), "search"
#: (MCTS/ISMCTS iterations from seeded mid-game positions, or the start when ``history``
#: is 0), "alphabeta" (nodes at a fixed depth from the start).  Configurations as in the
#: per-game scripts (run.py, run_search.py, run_rome_and_carthage.py, run_albion.py,
#: run_armada.py).
ARMADA_CARDS = {"players": 4, "cards": True, "recruitment": True,
                "reaction_windows": "every_action"}
WORKLOADS: tuple[tuple[str, str, dict[str, Any], str, dict[str, Any]], ...] = (
    ("armadora 2p basic playouts", "armadora", {"players": 2, "variant": "basic"},
     "playouts", {"games": 20_000}),
    ("armadora 4p advanced playouts", "armadora", {"players": 4, "variant": "advanced"},
     "playouts", {"games": 20_000}),
    ("armadora 2p basic python", "armadora", {"players": 2, "variant": "basic"},
     "python", {"games": 2_000}),
    ("armadora 4p advanced python", "armadora", {"players": 4, "variant": "advanced"},
     "python", {"games": 2_000}),
    ("rome_and_carthage 2p playouts", "rome_and_carthage", {"players": 2},
     "playouts", {"games": 2_000}),
    ("rome_and_carthage 4p playouts", "rome_and_carthage", {"players": 4},
     "playouts", {"games": 2_000}),
    ("rome_and_carthage 4p equal_arms playouts", "rome_and_carthage",
     {"players": 4, "variant": "equal_arms"}, "playouts", {"games": 2_000}),
    ("rome_and_carthage 2p python", "rome_and_carthage", {"players": 2}, "python",
     {"games": 300}),
    ("albion 2p playouts", "albion", {"players": 2}, "playouts", {"games": 2_000}),
    ("albion 2p python", "albion", {"players": 2}, "python", {"games": 300}),
    ("albion 3p playouts", "albion", {"players": 3}, "playouts", {"games": 2_000}),
    ("albion 4p playouts", "albion", {"players": 4}, "playouts", {"games": 2_000}),
    ("armada 2p playouts", "armada", {"players": 2}, "playouts", {"games": 1_000}),
    ("armada 2p python", "armada", {"players": 2}, "python", {"games": 100}),
    ("armada 4p playouts", "armada", {"players": 4}, "playouts", {"games": 1_000}),
    ("armada 4p cards recruitment playouts", "armada", ARMADA_CARDS, "playouts",
     {"games": 1_000}),
    ("tic_tac_toe playouts", "tic_tac_toe", {}, "playouts", {"games": 2_000_000}),
    ("connect_four playouts", "connect_four", {}, "playouts", {"games": 1_000_000}),
    ("pig playouts", "pig", {}, "playouts", {"games": 1_000_000}),
    ("connect_four mcts", "connect_four", {}, "search",
     {"algorithm": "mcts", "iterations": 200_000, "exploration": 2.0, "history": 0}),
    ("connect_four alphabeta", "connect_four", {}, "alphabeta", {"depth": 12}),
    ("armadora 2p basic mcts", "armadora", {"players": 2, "variant": "basic"}, "search",
     {"algorithm": "mcts", "iterations": 20_000, "history": 0}),
    ("armadora 2p basic ismcts", "armadora", {"players": 2, "variant": "basic"}, "search",
     {"algorithm": "ismcts", "iterations": 20_000, "history": 0}),
    ("armadora 4p advanced ismcts", "armadora", {"players": 4, "variant": "advanced"},
     "search", {"algorithm": "ismcts", "iterations": 20_000, "history": 0}),
    ("rome_and_carthage 2p ismcts", "rome_and_carthage", {"players": 2}, "search",
     {"algorithm": "ismcts", "iterations": 10_000, "rollout_limit": 30, "history": 80}),
    ("rome_and_carthage 4p ismcts", "rome_and_carthage", {"players": 4}, "search",
     {"algorithm": "ismcts", "iterations": 10_000, "rollout_limit": 30, "history": 80}),
    ("albion 2p mcts", "albion", {"players": 2}, "search",
     {"algorithm": "mcts", "iterations": 20_000, "history": 40}),
    ("albion 4p mcts", "albion", {"players": 4}, "search",
     {"algorithm": "mcts", "iterations": 20_000, "history": 40}),
    ("armada 2p mcts", "armada", {"players": 2}, "search",
     {"algorithm": "mcts", "iterations": 20_000, "history": 120}),
    ("armada 4p cards recruitment ismcts", "armada", ARMADA_CARDS, "search",
     {"algorithm": "ismcts", "iterations": 20_000, "history": 120}),
)
#: The units of each kind's figures.  Playouts and the Python loop also count whole games:
#: rules 1.2 of Albion and Armada made their single-answer decisions forced steps (more
#: atomic actions per game, the Python loop asks fewer moves), so only games a second
#: compare across those versions.
UNITS = {"playouts": ("actions/CPU s", "games/CPU s"), "python": ("moves/CPU s", "games/CPU s"),
         "search": ("simulations/CPU s",), "alphabeta": ("nodes/CPU s",)}
PLAYOUT_SEED = 20_130_101
POSITION_SEED = 7
POSITIONS = 4


# --- the worker: runs inside one tree ------------------------------------------------------


def best_rate(work: Callable[[], tuple[int, float]], repeats: int) -> float:
    """The best of ``repeats`` (units, seconds) timings, as units a second."""
    return max(units / seconds for units, seconds in (work() for _ in range(repeats)))


def best_rates(work: Callable[[], tuple[int, float]], repeats: int, games: int,
               unit: str) -> dict[str, float]:
    """The fastest of ``repeats`` timings of ``games`` seeded games (the same work each
    time), as ``unit`` (what ``work`` counts) and as games a second."""
    units, seconds = min((work() for _ in range(repeats)), key=lambda t: t[1])
    return {unit: units / seconds, "games/CPU s": games / seconds}


def timed(run: Callable[[], int]) -> tuple[int, float]:
    """(units, CPU seconds of this process): every workload runs on one thread, and its
    CPU time changes far less than its wall time when other work shares the machine."""
    start = time.process_time()
    units = run()
    return units, time.process_time() - start


def positions(game: Any, history: int) -> list[Any]:
    """Seeded positions: the start, or the first decision with a choice after
    ``history`` random actions (as ``bench_tables.seeded_positions`` draws them)."""
    if history == 0:
        return [game.new_game(seed=POSITION_SEED)]
    out: list[Any] = []
    for i in range(POSITIONS):
        state = game.new_game(seed=POSITION_SEED + i)
        rng = random.Random(POSITION_SEED + i)
        while len(out) <= i:
            state.apply(rng.choice(state.legal_moves()))
            if state.is_terminal():
                state = game.new_game(seed=POSITION_SEED + 100 + i)
            elif (len(state.history) > history and state.current_player >= 0
                  and len(state.legal_moves()) > 1):
                out.append(state)
    return out


def python_loop(game: Any, games: int) -> int:
    """Moves of ``games`` random games through the public API (the README's loop)."""
    rng = random.Random(12_345)
    moves = 0
    for i in range(games):
        state = game.new_game(seed=i)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_moves()))
            moves += 1
    return moves


def search_work(states: list[Any], params: dict[str, Any], stat: str) -> Callable[[], int]:
    from boardrules import suggest

    budget = {k: v for k, v in params.items() if k != "history"}

    def run() -> int:
        return sum(int(suggest(s, seed=i, threads=1, **budget).stats[stat])
                   for i, s in enumerate(states))
    return run


def measure(game_id: str, options: dict[str, Any], kind: str, params: dict[str, Any],
            scale: int, repeats: int) -> dict[str, float]:
    """The figures of one workload, by unit."""
    import boardrules

    game = boardrules.load(game_id, **options)
    if kind == "playouts":
        games = max(1, params["games"] // scale)
        game.core.random_playouts(max(1, games // 20), PLAYOUT_SEED)  # warm-up
        return best_rates(lambda: timed(lambda: int(game.core.random_playouts(
            games, PLAYOUT_SEED))), repeats, games, UNITS[kind][0])
    if kind == "python":
        games = max(1, params["games"] // scale)
        return best_rates(lambda: timed(lambda: python_loop(game, games)), repeats, games,
                          UNITS[kind][0])
    if kind == "search":
        budget = dict(params, iterations=max(1, params["iterations"] // scale))
        run = search_work(positions(game, params["history"]), budget, "iterations")
        return {UNITS[kind][0]: best_rate(lambda: timed(run), repeats)}
    depth = params["depth"] - (2 if scale > 1 else 0)
    run = search_work(positions(game, 0), {"algorithm": "alphabeta", "depth": depth}, "nodes")
    return {UNITS[kind][0]: best_rate(lambda: timed(run), repeats)}


def worker(scale: int, repeats: int, keys: Sequence[str]) -> dict[str, Any]:
    import boardrules

    rates = {}
    for key, game_id, options, kind, params in WORKLOADS:
        if not keys or key in keys:
            rates[key] = measure(game_id, options, kind, params, scale, repeats)
    return {"boardrules": boardrules.__version__, "file": boardrules.__file__,
            "rates": rates}


# --- the driver: builds the trees and runs a worker in each -------------------------------


def git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(THIS_TREE), *args], check=True,
                          capture_output=True, text=True).stdout.strip()


def build(tree: Path, python: str) -> None:
    print(f"building {tree} ...", file=sys.stderr, flush=True)
    subprocess.run([python, "setup.py", "build_ext", "--inplace", "-j", "2"], cwd=tree,
                   check=True, stdout=subprocess.DEVNULL)


def export_ref(commit: str, build_dir: Path, python: str) -> Path:
    """The ref's tree, built (reused when a previous run built it)."""
    stamp = build_dir / ".compare_versions_built"
    if stamp.exists():
        return build_dir
    build_dir.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", "-C", str(THIS_TREE), "archive", commit],
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(build_dir)], input=archive, check=True)
    build(build_dir, python)
    stamp.write_text(commit + "\n", encoding="ascii")
    return build_dir


def run_worker(tree: Path, args: argparse.Namespace) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(tree), BOARDRULES_REQUIRE_EXTENSIONS="1")
    command = [sys.executable, str(Path(__file__).resolve()), "--worker",
               "--scale", str(args.scale), "--repeats", str(args.repeats)]
    command += [f"--only={key}" for key in args.only or ()]
    # started from the filesystem root: nothing but PYTHONPATH can supply boardrules
    done = subprocess.run(command, env=env, cwd="/", check=True, capture_output=True,
                          text=True)
    result: dict[str, Any] = json.loads(done.stdout)
    if not Path(result["file"]).resolve().is_relative_to(tree.resolve()):
        raise RuntimeError(f"the worker for {tree} imported {result['file']}")
    return result


Rates = dict[str, dict[str, float]]  # workload -> unit -> rate
RoundRates = dict[str, dict[str, list[float]]]  # workload -> unit -> rate of each round


def compare(ref_tree: Path, args: argparse.Namespace) -> tuple[RoundRates, RoundRates]:
    """Every workload's rate in each unit, round by round, in the ref and in this tree:
    the two trees' workers take turns (:func:`interleave.alternate`), so that each round's
    pair ran side by side."""
    runs = alternate({"ref": lambda: run_worker(ref_tree, args),
                      "now": lambda: run_worker(THIS_TREE, args)},
                     args.rounds, warmup=False, progress=True)

    def by_round(results: list[dict[str, Any]]) -> RoundRates:
        out: RoundRates = {}
        for result in results:
            for key, rates in result["rates"].items():
                for unit, rate in rates.items():
                    out.setdefault(key, {}).setdefault(unit, []).append(rate)
        return out
    return by_round(runs["ref"]), by_round(runs["now"])


def rst_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    rule = "+" + "+".join("-" * (w + 2) for w in widths) + "+"

    def line(row: Sequence[str]) -> str:
        return "|" + "|".join(f" {c.ljust(w)} " for c, w in zip(row, widths, strict=True)) + "|"

    out = [rule, line(header), rule.replace("-", "=")]
    for row in rows:
        out += [line(row), rule]
    return "\n".join(out) + "\n"


def table(ref_label: str, now_label: str, old: RoundRates, new: RoundRates) -> str:
    """Each tree's median rate over the rounds and the ratio now / ref taken round by round:
    its median, lowest and highest round."""
    rows = []
    for key, _, _, kind, _ in WORKLOADS:
        for unit in UNITS[kind]:
            if unit in old.get(key, {}) and unit in new.get(key, {}):
                was, now = old[key][unit], new[key][unit]
                ratio = Spread.of([n / w for n, w in zip(now, was, strict=True)])
                rows.append((key, unit, f"{statistics.median(was):,.0f}",
                             f"{statistics.median(now):,.0f}", f"{ratio.median:.2f}",
                             f"{ratio.low:.2f}-{ratio.high:.2f}"))
    return rst_table(("workload", "unit", ref_label, now_label, "ratio",
                      "ratio: lowest-highest round"), rows)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ref", nargs="?", help="the git ref to compare with (0.5.0: aa13a7d)")
    parser.add_argument("--label", help="the ref's column title (default: the ref)")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="a tenth of the work")
    parser.add_argument("--only", action="append", metavar="WORKLOAD",
                        choices=[w[0] for w in WORKLOADS], help="this workload only")
    parser.add_argument("--build-dir", type=Path)
    parser.add_argument("--build-python", default=sys.executable)
    parser.add_argument("--no-build", action="store_true", help="do not build this tree")
    parser.add_argument("--rst", type=Path, help="also write the table alone")
    parser.add_argument("--json", type=Path, help="also write the rates as JSON")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--scale", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.quick:
        args.scale = 10
    if not args.worker and not args.ref:
        parser.error("the git ref to compare with is required")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.worker:
        json.dump(worker(args.scale, args.repeats, args.only or ()), sys.stdout)
        return 0
    commit = git("rev-parse", "--verify", f"{args.ref}^{{commit}}")
    build_dir = args.build_dir or Path(tempfile.gettempdir()) / f"boardrules-bench-{commit[:12]}"
    ref_tree = export_ref(commit, build_dir, args.build_python)
    if not args.no_build:
        build(THIS_TREE, args.build_python)
    head = git("rev-parse", "--short", "HEAD") + ("+" if git("status", "--porcelain",
                                                              "--untracked-files=no") else "")
    ref_label = args.label or (args.ref if commit.startswith(args.ref)
                               else f"{args.ref} ({commit[:7]})")
    load_before = os.getloadavg()[0]
    old, new = compare(ref_tree, args)
    text = table(ref_label, f"now ({head})", old, new)
    print(f"{platform.platform()}; {os.cpu_count()} CPUs; Python {platform.python_version()}; "
          f"CPU time; best of {args.repeats} in each of {args.rounds} interleaved rounds"
          f"{'; --quick' if args.quick else ''}")
    print(text)
    if args.rst:
        from bench_tables import machine_summary  # imports this tree's boardrules: not in workers

        how = (f"CPU time; best of {args.repeats} in each of {args.rounds} interleaved rounds"
               f"{'; --quick' if args.quick else ''}")
        args.rst.write_text(f"{text}\n*{machine_summary(load_before, how)}*\n",
                            encoding="utf-8")
    if args.json:
        args.json.write_text(json.dumps({"ref": commit, "now": head, "clock": "process_time",
                                         "ref_rounds": old, "now_rounds": new}, indent=1),
                             encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
