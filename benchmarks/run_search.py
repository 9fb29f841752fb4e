"""Measure the search core and print reStructuredText tables.

    python benchmarks/run_search.py                 # everything (strength takes minutes)
    python benchmarks/run_search.py --quick         # smaller workloads, fewer games
    python benchmarks/run_search.py --no-strength   # the speed table alone
    python benchmarks/run_search.py --rst FILE --strength-rst FILE2   # also write them

OpenSpiel's figures appear when the optional package is installed
(``pip install -e ".[openspiel]"``).

Side by side, the engines (or thread counts) run in interleaved rounds (A, B, A, B, ...;
``--rounds``, default 5) and each ratio is taken round by round: the median with the
lowest and highest round (:mod:`interleave`).  One thread against one is timed in CPU
seconds of this process (OpenSpiel's C++ bot runs in it too); two threads in wall
seconds, which is what they save.  Timing each engine alone, best of 3, read 48.9x
OpenSpiel on a loaded machine where interleaved CPU-time rounds read 16x.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import search_workloads as w
from bench_tables import machine_summary
from interleave import Clock, Rounds, interleaved

import boardrules


def grid(header: list[str], rows: list[list[str]]) -> str:
    """A reStructuredText grid table."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def line(ch: str) -> str:
        return "+" + "+".join(ch * (n + 2) for n in widths) + "+"

    def row(cells: list[str]) -> str:
        return "| " + " | ".join(c.ljust(n) for c, n in zip(cells, widths, strict=True)) + " |"

    out = [line("-"), row(header), line("=")]
    for r in rows:
        out += [row(r), line("-")]
    return "\n".join(out)


#: Our MCTS against OpenSpiel's C++ MCTSBot, simulations per CPU second (issue 20).
TARGET_RATIO = 12.0
HEADER = ["search", "position", "engine", "threads", "clock",
          "rate: median (lowest-highest round)", "note"]


def _rate_cell(rounds: Rounds, name: str, unit: str, clock: Clock = "cpu") -> str:
    return f"{rounds.rate(name, clock).rate_text()} {unit}/s"


def connect_four_rows(scale: int, rounds: int) -> list[list[str]]:
    """MCTS on connect four beside OpenSpiel's C++ MCTSBot, in interleaved rounds: 20,000
    and 200,000 simulations, ours with 1 and 2 threads (root parallel: one tree a thread),
    theirs with its one thread.  One thread against one: CPU time; two threads: wall
    time."""
    rows: list[list[str]] = []
    for sims in (20_000 // scale, 200_000 // scale):
        where = f"connect_four, empty board, {sims:,} sims"
        sides = {"ours 1": lambda n=sims: w.mcts_connect_four(n, 1),
                 "ours 2": lambda n=sims: w.mcts_connect_four(n, 2)}
        if w.openspiel_available():
            sides = {"openspiel": lambda n=sims: w.openspiel_mcts_connect_four(n), **sides}
        print(f"MCTS connect_four, {sims:,} simulations", file=sys.stderr, flush=True)
        r = interleaved(sides, rounds, progress=True)
        against = against_wall = ""
        if "openspiel" in sides:
            rows.append(["MCTS, random rollout", where, "OpenSpiel C++ MCTSBot", "1", "CPU",
                         _rate_cell(r, "openspiel", "sims"), ""])
            ratio = r.ratio("ours 1", "openspiel")
            met = "met" if ratio.median >= TARGET_RATIO else "not met"
            against = f"{ratio} OpenSpiel (CPU; target {TARGET_RATIO:g}x: {met})"
            against_wall = f"{r.ratio('ours 2', 'openspiel', 'wall')} OpenSpiel's wall rate; "
        else:
            rows.append(["MCTS, random rollout", where, "OpenSpiel C++ MCTSBot", "1", "",
                         "not installed", ""])
        rows.append(["MCTS, random rollout", where, "boardrules", "1", "CPU",
                     _rate_cell(r, "ours 1", "sims"), against])
        rows.append(["MCTS, random rollout", where, "boardrules", "2", "wall",
                     _rate_cell(r, "ours 2", "sims", "wall"),
                     f"{against_wall}speed-up {r.ratio('ours 2', 'ours 1', 'wall')} "
                     "over 1 thread (wall)"])
    return rows


def ismcts_bridge_rows(scale: int, rounds: int) -> list[list[str]]:
    """ISMCTS on Armadora's first decision beside OpenSpiel's ISMCTS on the same game
    through the bridge (its Python ISMCTSBot: the C++ one crashes on Python games)."""
    if not w.openspiel_available():
        return [["ISMCTS, random rollout", "armadora 2p, first move", "OpenSpiel ISMCTSBot",
                 "1", "", "not installed", ""]]
    theirs_sims, ours_sims = 200 // scale, 20_000 // scale
    print("ISMCTS armadora, through the bridge", file=sys.stderr, flush=True)
    r = interleaved({"openspiel": lambda: w.openspiel_ismcts_armadora_first_move(theirs_sims),
                     "ours": lambda: w.ismcts_armadora_first_move(ours_sims)},
                    rounds, progress=True)
    return [["ISMCTS, random rollout", "armadora 2p, first move, bridge",
             "OpenSpiel Python ISMCTSBot", "1", "CPU", _rate_cell(r, "openspiel", "sims"),
             f"{theirs_sims:,} sims"],
            ["ISMCTS, random rollout", "armadora 2p, first move", "boardrules", "1", "CPU",
             _rate_cell(r, "ours", "sims"),
             f"{ours_sims:,} sims; {r.ratio('ours', 'openspiel')} OpenSpiel through the "
             "bridge (CPU)"]]


def alphabeta_rows(scale: int, rounds: int) -> list[list[str]]:
    depth = 12 if scale == 1 else 10
    print(f"alpha-beta connect_four, depth {depth}", file=sys.stderr, flush=True)
    r = interleaved({"ab": lambda: w.alphabeta_connect_four(depth)}, rounds, progress=True)
    met = "met" if r.median_rate("ab") >= 5e6 else "not met"
    return [[f"alpha-beta, depth {depth}", "connect_four, empty board", "boardrules", "1",
             "CPU", _rate_cell(r, "ab", "nodes"), f"target 5,000,000: {met}"]]


def armadora_thread_rows(scale: int, rounds: int) -> list[list[str]]:
    """MCTS and ISMCTS on Armadora with 1 and 2 threads, in interleaved rounds: the one
    thread's rate in CPU time, the two threads' and the speed-up in wall time."""
    rows: list[list[str]] = []
    sims = 20_000 // scale
    for players, variant in w.ARMADORA_CONFIGS:
        for algorithm in ("mcts", "ismcts"):
            print(f"{algorithm} armadora {players}p {variant}, 1 and 2 threads",
                  file=sys.stderr, flush=True)
            r = interleaved({str(t): lambda p=players, v=variant, a=algorithm, n=t:
                             w.mcts_armadora(p, v, a, sims, threads=n)
                             for t in (1, 2)}, rounds, progress=True)
            speedup = r.ratio("2", "1", "wall")
            where = f"armadora, {players}p {variant}, start"
            rows.append([algorithm.upper(), where, "boardrules", "1", "CPU",
                         _rate_cell(r, "1", "sims"), ""])
            rows.append([algorithm.upper(), where, "boardrules", "2", "wall",
                         _rate_cell(r, "2", "sims", "wall"),
                         f"speed-up {speedup} over 1 thread (wall; target 1.7x): "
                         f"{'met' if speedup.median >= 1.7 else 'not met'}"])
    return rows


def speed_table(scale: int, rounds: int) -> str:
    rows = (connect_four_rows(scale, rounds) + ismcts_bridge_rows(scale, rounds)
            + alphabeta_rows(scale, rounds) + armadora_thread_rows(scale, rounds))
    return grid(HEADER, rows)


def strength_table(games: int, strong_iterations: int, weak_iterations: int,
                   processes: int | None = None) -> str:
    """Score rates from :mod:`boardrules.arena` (a shared first place counts half)."""
    table = []
    for strong, weak, target, count in (
        (w.ismcts_bot(weak_iterations), "random", 0.95, 2 * games),
        (w.ismcts_bot(strong_iterations), w.ismcts_bot(weak_iterations), 0.60, games),
    ):
        result = w.armadora_match(strong, weak, count, processes=processes)
        rate = result.bots[0].score_rate
        table.append([_label(strong), _label(weak), str(result.games), f"{rate:.0%}",
                      f"{target:.0%}", "met" if rate >= target else "not met"])
    return grid(["bot", "against", "games", "win rate", "target", ""], table)


def _label(spec: str) -> str:
    """``ismcts:iterations=2000`` -> ``ISMCTS 2,000 iterations``; ``random`` -> random play."""
    if spec == "random":
        return "random play"
    name, _, budget = spec.partition(":iterations=")
    return f"{name.upper()} {int(budget):,} iterations"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a tenth of the workloads")
    parser.add_argument("--rounds", type=int, default=None,
                        help="interleaved rounds of each side by side (default 5, --quick 3)")
    parser.add_argument("--strength", action=argparse.BooleanOptionalAction, default=True,
                        help="play the strength matches too (default: yes)")
    parser.add_argument("--games", type=int, default=None,
                        help="strength games of 20,000 against 2,000 iterations (twice as many "
                             "against random play; default 20, --quick 4)")
    parser.add_argument("--processes", type=int, default=None,
                        help="worker processes of the strength matches (default: every core)")
    parser.add_argument("--rst", type=Path, help="also write the speed table to this file")
    parser.add_argument("--strength-rst", type=Path,
                        help="also write the strength table to this file")
    args = parser.parse_args()
    scale = 10 if args.quick else 1
    rounds = args.rounds or (3 if args.quick else 5)
    games = args.games or (4 if args.quick else 20)
    load_before = os.getloadavg()[0]
    speed = speed_table(scale, rounds)
    machine = machine_summary(load_before, f"{rounds} interleaved rounds")
    print(f"Machine: {machine}")
    print(speed)
    if args.rst:
        args.rst.write_text(f"{speed}\n\n*{machine}*\n", encoding="utf-8")
        print(f"Speed table written to {args.rst}")
    if args.strength:
        strength = strength_table(games, 20_000 // scale, 2_000 // scale, args.processes)
        print(strength)
        if args.strength_rst:
            args.strength_rst.write_text(
                f"{strength}\n\n*boardrules {boardrules.__version__}; {games} games of "
                f"{20_000 // scale:,} against {2_000 // scale:,} iterations, {2 * games} "
                "against random play*\n", encoding="utf-8")
            print(f"Strength table written to {args.strength_rst}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
