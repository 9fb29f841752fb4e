"""Observation tensors and the ecosystem adapters, measured side by side in one run;
prints reStructuredText tables (docs/adapters.rst, "Figures").

    python benchmarks/run_adapters.py            # full workloads (about two minutes)
    python benchmarks/run_adapters.py --quick    # a tenth of them
    python benchmarks/run_adapters.py --rst FILE # also write the tables to FILE

Needs the ``pettingzoo`` and ``openspiel`` extras (``pip install -e ".[test]"`` has them).
Rates are per CPU second of this process (``time.process_time``; every workload runs on
one thread), the sides of each table timed in interleaved rounds (``--rounds``, default 3;
:mod:`interleave`): each figure is the median over the rounds with the lowest and highest
round, and each ratio is taken round by round.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

import adapter_workloads as w
from bench_tables import machine_summary
from interleave import Rate, Spread, interleaved
from run_search import grid

#: The reference of the connect four observations' side by side.
OPENSPIEL_CPP = "OpenSpiel C++ connect_four observation_tensor()"


def _label(game_id: str, options: dict[str, Any]) -> str:
    return game_id + "".join(f" {k}={v}" for k, v in options.items())


def observation_table(scale: int, rounds: int) -> str:
    """Per game, interleaved: the plain playouts, the same playouts observing each decision
    (steps a second of both), the tensors alone (the observed playouts' tensors over the
    CPU time they added to the plain ones, round by round) and the Python API's calls."""
    rows = []
    for game_id, options in w.GAMES:
        games = max(1, {"tic_tac_toe": 200_000, "connect_four": 100_000, "pig": 100_000,
                        "armadora": 20_000}.get(game_id, 2_000) // scale)
        print(f"observations: {_label(game_id, options)}", file=sys.stderr, flush=True)
        r = interleaved({
            "plain": partial(w.playout_steps, game_id, options, games, False),
            "observed": partial(w.playout_steps, game_id, options, games, True),
            "tensors": partial(w.observed_playouts, game_id, options, games),
            "api": partial(w.python_observations, game_id, options, 20, max(1, 200 // scale)),
        }, rounds, progress=True)
        tensors = [t.count / extra if (extra := t.cpu_seconds - p.cpu_seconds) > 0
                   else float("inf")
                   for t, p in zip(r.timings["tensors"], r.timings["plain"], strict=True)]
        ratio = Spread.of([x / p for x, p in zip(tensors, r.rates("plain"), strict=True)])
        size = w.load(game_id, options).observation_layout.size
        rows.append([_label(game_id, options), f"{size:,}", r.rate("plain").rate_text(),
                     r.rate("observed").rate_text(), Spread.of(tensors).rate_text(),
                     f"{ratio} ({'met' if ratio.median >= 0.5 else 'not met'})",
                     r.rate("api").rate_text()])
    return grid(["game", "floats", "playout steps/CPU s",
                 "steps/CPU s, observing each decision", "observations/CPU s",
                 "observations / steps (target >= 0.5)",
                 "state.observation() /CPU s (Python)"], rows)


def connect_four_table(scale: int, rounds: int) -> str:
    steps = max(1_000, 100_000 // scale)
    sides: dict[str, Callable[[], Rate]] = {
        "boardrules state.observation(p, out=buf)":
            lambda: w.python_observations("connect_four", {}, 50, max(1, steps // 100)),
        "boardrules.pettingzoo env.observe()": lambda: w.pettingzoo_observe("boardrules", steps),
        "PettingZoo classic connect_four_v3 observe()":
            lambda: w.pettingzoo_observe("classic", steps),
        OPENSPIEL_CPP: lambda: w.openspiel_observation_tensor("cpp", steps),
        "boardrules.openspiel bridge observation_tensor()":
            lambda: w.openspiel_observation_tensor("bridge", steps),
    }
    print("connect four observations", file=sys.stderr, flush=True)
    r = interleaved(sides, rounds, progress=True)
    return grid(["connect four observations", "per CPU second", "against OpenSpiel C++"],
                [[name, r.rate(name).rate_text(),
                  "reference" if name == OPENSPIEL_CPP else str(r.ratio(name, OPENSPIEL_CPP))]
                 for name in sides])


def bridge_search_table(scale: int, rounds: int) -> str:
    rows = []
    for game_id, options in (("connect_four", {}), ("armadora", {"players": 2})):
        sims = max(50, 2_000 // scale)
        print(f"MCTS through the bridge: {game_id}", file=sys.stderr, flush=True)
        r = interleaved({
            "theirs": partial(w.openspiel_mcts_through_bridge, game_id, options, sims),
            "ours": partial(w.our_mcts, game_id, options, sims * 10),
        }, rounds, progress=True)
        rows.append([game_id, r.rate("theirs").rate_text(), r.rate("ours").rate_text(),
                     str(r.ratio("ours", "theirs"))])
    return grid(["game", "OpenSpiel Python MCTSBot via the bridge (sims/CPU s)",
                 "boardrules MCTS (sims/CPU s)", "ours / theirs"], rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--rst", type=Path)
    args = parser.parse_args()
    scale = 10 if args.quick else 1
    load_before = os.getloadavg()[0]
    text = "\n\n".join([observation_table(scale, args.rounds),
                         connect_four_table(scale, args.rounds),
                         bridge_search_table(scale, args.rounds)])
    machine = machine_summary(load_before, f"{args.rounds} interleaved rounds; CPU time")
    print(f"{machine}\n")
    print(text)
    if args.rst:
        args.rst.write_text(f"{text}\n\n*{machine}*\n", encoding="utf-8")


if __name__ == "__main__":
    main()
