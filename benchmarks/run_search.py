"""Measure the search core and print reStructuredText tables.

    python benchmarks/run_search.py                 # everything (strength takes minutes)
    python benchmarks/run_search.py --quick         # smaller workloads, fewer games
    python benchmarks/run_search.py --rst FILE      # also write the tables to FILE

OpenSpiel's figures appear when the optional package is installed
(``pip install -e ".[openspiel]"``).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import search_workloads as w

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


def best_of(repeats: int, measure: object) -> w.Rate:
    rates = [measure() for _ in range(repeats)]  # type: ignore[operator]
    return max(rates, key=lambda r: r.per_second)


#: Our MCTS against OpenSpiel's C++ MCTSBot, simulations per second (issue 20).
TARGET_RATIO = 12.0


def _against(ours: w.Rate, theirs: w.Rate | None) -> str:
    if theirs is None:
        return ""
    ratio = ours.per_second / theirs.per_second
    met = "met" if ratio >= TARGET_RATIO else "not met"
    return f"{ratio:.1f}x OpenSpiel (target {TARGET_RATIO:g}x): {met}"


def connect_four_rows(scale: int, repeats: int) -> list[list[str]]:
    """MCTS on connect four beside OpenSpiel's C++ MCTSBot, in one run: 20,000 and 200,000
    simulations, ours with 1 and 2 threads (root parallel: one tree a thread), theirs with
    its one thread."""
    rows: list[list[str]] = []
    for sims in (20_000 // scale, 200_000 // scale):
        where = f"connect_four, empty board, {sims:,} sims"
        theirs = (best_of(repeats, lambda n=sims: w.openspiel_mcts_connect_four(n))
                  if w.openspiel_available() else None)
        rows.append(["MCTS, random rollout", where, "OpenSpiel C++ MCTSBot", "1",
                     f"{theirs.per_second:,.0f} sims/s" if theirs else "not installed", ""])
        for threads in (1, 2):
            ours = best_of(repeats, lambda n=sims, t=threads: w.mcts_connect_four(n, t))
            rows.append(["MCTS, random rollout", where, "boardrules", str(threads),
                         f"{ours.per_second:,.0f} sims/s", _against(ours, theirs)])
    return rows


def ismcts_bridge_rows(scale: int, repeats: int) -> list[list[str]]:
    """ISMCTS on Armadora's first decision beside OpenSpiel's ISMCTS on the same game
    through the bridge (its Python ISMCTSBot: the C++ one crashes on Python games)."""
    if not w.openspiel_available():
        return [["ISMCTS, random rollout", "armadora 2p, first move", "OpenSpiel ISMCTSBot",
                 "1", "not installed", ""]]
    theirs = best_of(repeats, lambda: w.openspiel_ismcts_armadora_first_move(200 // scale))
    ours = best_of(repeats, lambda: w.ismcts_armadora_first_move(20_000 // scale))
    ratio = ours.per_second / theirs.per_second
    return [["ISMCTS, random rollout", "armadora 2p, first move, bridge",
             "OpenSpiel Python ISMCTSBot", "1", f"{theirs.per_second:,.0f} sims/s",
             f"{200 // scale:,} sims"],
            ["ISMCTS, random rollout", "armadora 2p, first move", "boardrules", "1",
             f"{ours.per_second:,.0f} sims/s",
             f"{20_000 // scale:,} sims; {ratio:,.0f}x OpenSpiel through the bridge"]]


def speed_table(scale: int, repeats: int) -> str:
    rows = connect_four_rows(scale, repeats) + ismcts_bridge_rows(scale, repeats)
    depth = 12 if scale == 1 else 10
    ab = best_of(repeats, lambda: w.alphabeta_connect_four(depth))
    rows.append([f"alpha-beta, depth {depth}", "connect_four, empty board", "boardrules", "1",
                 f"{ab.per_second:,.0f} nodes/s",
                 f"target 5,000,000: {'met' if ab.per_second >= 5e6 else 'not met'}"])
    arm_sims = 20_000 // scale
    for players, variant in w.ARMADORA_CONFIGS:
        for algorithm in ("mcts", "ismcts"):
            one = best_of(repeats, lambda p=players, v=variant, a=algorithm:
                          w.mcts_armadora(p, v, a, arm_sims))
            two = best_of(repeats, lambda p=players, v=variant, a=algorithm:
                          w.mcts_armadora(p, v, a, arm_sims, threads=2))
            speedup = two.per_second / one.per_second
            where = f"armadora, {players}p {variant}, start"
            rows.append([algorithm.upper(), where, "boardrules", "1",
                         f"{one.per_second:,.0f} sims/s", ""])
            rows.append([algorithm.upper(), where, "boardrules", "2",
                         f"{two.per_second:,.0f} sims/s",
                         f"speed-up {speedup:.2f}x (target 1.7x): "
                         f"{'met' if speedup >= 1.7 else 'not met'}"])
    return grid(["search", "position", "engine", "threads", "speed", "note"], rows)


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
    parser.add_argument("--repeats", type=int, default=3, help="best of N (default 3)")
    parser.add_argument("--games", type=int, default=None,
                        help="strength games of 20,000 against 2,000 iterations (twice as many "
                             "against random play; default 20, --quick 4)")
    parser.add_argument("--processes", type=int, default=None,
                        help="worker processes of the strength matches (default: every core)")
    parser.add_argument("--rst", type=Path, help="also write the tables to this file")
    args = parser.parse_args()
    scale = 10 if args.quick else 1
    games = args.games or (4 if args.quick else 20)
    machine = (f"{platform.platform()}; {os.cpu_count()} CPUs; Python "
               f"{platform.python_version()}; boardrules {boardrules.__version__}")
    print(f"Machine: {machine}")
    speed = speed_table(scale, args.repeats)
    print(speed)
    strength = strength_table(games, 20_000 // scale, 2_000 // scale, args.processes)
    print(strength)
    if args.rst:
        title = "Strength (Armadora, 2 players, basic; seats alternate; a shared win counts half)"
        args.rst.write_text(f"Speed\n^^^^^\n\n{speed}\n\n{title}\n{'^' * len(title)}\n\n"
                            f"{strength}\n\n*{machine}*\n", encoding="utf-8")
        print(f"Tables written to {args.rst}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
