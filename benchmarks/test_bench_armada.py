"""pytest-benchmark benchmarks of Armada: C-core random playouts and MCTS / ISMCTS.

Run with ``python -m pytest benchmarks --benchmark-only``.  Workloads are seeded and
fixed; pytest-benchmark times wall seconds, so the rates in ``extra_info`` (``clock``:
"wall") are per wall second, not per CPU second as ``boardrules bench`` and the run_*.py
scripts give them; nothing here asserts a speed (``run_armada.py`` compares to the target).
"""

from __future__ import annotations

from typing import Any

import pytest
from armada_workloads import (
    CONFIGS,
    IDS,
    SEARCH_ITERATIONS,
    algorithm,
    load_game,
    playouts,
    positions,
    search,
)

OPTIONS = [options for _, options in CONFIGS]


@pytest.mark.parametrize("options", OPTIONS, ids=IDS)
def test_armada_c_core_playouts(benchmark: Any, options: dict[str, Any]) -> None:
    game = load_game(options)
    results: list[int] = []

    def workload() -> int:
        results.append(playouts(game, 500))
        return results[-1]

    benchmark.group = "armada, C core, 500 games a round"
    benchmark.pedantic(workload, rounds=5, warmup_rounds=1, iterations=1)
    assert len(set(results)) == 1, "the seeded workload is not reproducible"
    benchmark.extra_info["actions_per_round"] = results[0]
    benchmark.extra_info["clock"] = "wall"  # pytest-benchmark's timer, not CPU time
    benchmark.extra_info["actions_per_s_best"] = results[0] / benchmark.stats.stats.min


@pytest.mark.parametrize("options", OPTIONS, ids=IDS)
def test_armada_search(benchmark: Any, options: dict[str, Any]) -> None:
    game = load_game(options)
    states = positions(game)
    benchmark.group = "armada, MCTS / ISMCTS"
    done = benchmark.pedantic(lambda: search(states), rounds=2, iterations=1)
    assert done == SEARCH_ITERATIONS * len(states)
    benchmark.extra_info["algorithm"] = algorithm(game)
    benchmark.extra_info["clock"] = "wall"  # pytest-benchmark's timer, not CPU time
    benchmark.extra_info["simulations_per_s_best"] = done / benchmark.stats.stats.min
