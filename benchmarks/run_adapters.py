"""Observation tensors and the ecosystem adapters, measured side by side in one run;
prints reStructuredText tables (docs/adapters.rst, "Figures").

    python benchmarks/run_adapters.py            # full workloads (about two minutes)
    python benchmarks/run_adapters.py --quick    # a tenth of them
    python benchmarks/run_adapters.py --rst FILE # also write the tables to FILE

Needs the ``pettingzoo`` and ``openspiel`` extras (``pip install -e ".[test]"`` has them).
Rates are per CPU second of this process (``time.process_time``), best of ``--repeats``.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

import adapter_workloads as w
from run_search import grid


def best(repeats: int, measure: Callable[..., w.Rate], *args: Any) -> w.Rate:
    """The best of ``repeats`` runs of ``measure(*args)``."""
    return max((measure(*args) for _ in range(repeats)), key=lambda r: r.per_second)


def observation_table(scale: int, repeats: int) -> str:
    rows = []
    for game_id, options in w.GAMES:
        games = max(1, {"tic_tac_toe": 200_000, "connect_four": 100_000, "pig": 100_000,
                        "armadora": 20_000}.get(game_id, 2_000) // scale)
        plain = best(repeats, w.playout_steps, game_id, options, games, False)
        observed = best(repeats, w.playout_steps, game_id, options, games, True)
        tensors = max(w.observations_per_second(game_id, options, games, plain)
                      for _ in range(repeats))
        api = best(repeats, w.python_observations, game_id, options, 20, max(1, 200 // scale))
        ratio = tensors / plain.per_second
        size = w.load(game_id, options).observation_layout.size
        label = game_id + "".join(f" {k}={v}" for k, v in options.items())
        rows.append([label, f"{size:,}", f"{plain.per_second:,.0f}",
                     f"{observed.per_second:,.0f}", f"{tensors:,.0f}",
                     f"{ratio:.2f} ({'met' if ratio >= 0.5 else 'not met'})",
                     f"{api.per_second:,.0f}"])
    return grid(["game", "floats", "playout steps/s", "steps/s, observing each decision",
                 "observations/s", "observations / steps (target >= 0.5)",
                 "state.observation() /s (Python)"], rows)


def connect_four_table(scale: int, repeats: int) -> str:
    steps = max(1_000, 100_000 // scale)
    rows = [
        ["boardrules state.observation(p, out=buf)",
         best(repeats, w.python_observations, "connect_four", {}, 50, max(1, steps // 100))],
        ["boardrules.pettingzoo env.observe()",
         best(repeats, w.pettingzoo_observe, "boardrules", steps)],
        ["PettingZoo classic connect_four_v3 observe()",
         best(repeats, w.pettingzoo_observe, "classic", steps)],
        ["OpenSpiel C++ connect_four observation_tensor()",
         best(repeats, w.openspiel_observation_tensor, "cpp", steps)],
        ["boardrules.openspiel bridge observation_tensor()",
         best(repeats, w.openspiel_observation_tensor, "bridge", steps)],
    ]
    return grid(["connect four observations", "per second"],
                [[name, f"{rate.per_second:,.0f}"] for name, rate in rows])


def bridge_search_table(scale: int, repeats: int) -> str:
    rows = []
    for game_id, options in (("connect_four", {}), ("armadora", {"players": 2})):
        sims = max(50, 2_000 // scale)
        theirs = best(repeats, w.openspiel_mcts_through_bridge, game_id, options, sims)
        ours = best(repeats, w.our_mcts, game_id, options, sims * 10)
        rows.append([game_id, f"{theirs.per_second:,.0f}", f"{ours.per_second:,.0f}",
                     f"{ours.per_second / theirs.per_second:,.0f}x"])
    return grid(["game", "OpenSpiel Python MCTSBot via the bridge (sims/s)",
                 "boardrules MCTS (sims/s)", "ours / theirs"], rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--rst", type=Path)
    args = parser.parse_args()
    scale = 10 if args.quick else 1
    text = "\n\n".join([observation_table(scale, args.repeats),
                        connect_four_table(scale, args.repeats),
                        bridge_search_table(scale, args.repeats)])
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}, load average {os.getloadavg()[0]:.2f}\n")
    print(text)
    if args.rst:
        args.rst.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
