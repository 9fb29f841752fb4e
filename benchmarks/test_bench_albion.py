"""pytest-benchmark benchmarks of Albion: C-core random playouts and MCTS.

Run with ``python -m pytest benchmarks --benchmark-only``.  Workloads are seeded and
fixed; pytest-benchmark times wall seconds, so the rates in ``extra_info`` (``clock``:
"wall") are per wall second, not per CPU second as ``boardrules bench`` and the run_*.py
scripts give them; nothing here asserts a speed (``run_albion.py`` compares to the target).
"""

from __future__ import annotations

from typing import Any

import pytest
from albion_workloads import CONFIGS, MCTS_ITERATIONS, load_game, mcts, playouts, positions

IDS = [f"{players}p" for players in CONFIGS]


@pytest.mark.parametrize("players", CONFIGS, ids=IDS)
def test_albion_c_core_playouts(benchmark: Any, players: int) -> None:
    game = load_game(players)
    results: list[int] = []

    def workload() -> int:
        results.append(playouts(game, 1000))
        return results[-1]

    benchmark.group = "albion, C core, 1000 games a round"
    benchmark.pedantic(workload, rounds=5, warmup_rounds=1, iterations=1)
    assert len(set(results)) == 1, "the seeded workload is not reproducible"
    benchmark.extra_info["actions_per_round"] = results[0]
    benchmark.extra_info["clock"] = "wall"  # pytest-benchmark's timer, not CPU time
    benchmark.extra_info["actions_per_s_best"] = results[0] / benchmark.stats.stats.min


@pytest.mark.parametrize("players", CONFIGS[:2], ids=IDS[:2])
def test_albion_mcts(benchmark: Any, players: int) -> None:
    states = positions(load_game(players))
    done = benchmark.pedantic(lambda: mcts(states), rounds=2, iterations=1)
    assert done == MCTS_ITERATIONS * len(states)
    benchmark.group = "albion, MCTS"
    benchmark.extra_info["clock"] = "wall"  # pytest-benchmark's timer, not CPU time
    benchmark.extra_info["simulations_per_s_best"] = done / benchmark.stats.stats.min
