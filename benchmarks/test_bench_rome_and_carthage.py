"""pytest-benchmark benchmarks of Rome & Carthage: C-core random playouts and ISMCTS.

Run with ``python -m pytest benchmarks --benchmark-only``.  Workloads are seeded and
fixed; pytest-benchmark times wall seconds, so the rates in ``extra_info`` (``clock``:
"wall") are per wall second, not per CPU second as ``boardrules bench`` and the run_*.py
scripts give them; nothing here asserts a speed (``run_rome_and_carthage.py`` compares to
the target).
"""

from __future__ import annotations

from typing import Any

import pytest
from rc_workloads import CONFIGS, ISMCTS_ITERATIONS, ismcts, load_game, playouts, positions

IDS = [f"{players}p-{variant}" for players, variant in CONFIGS]


@pytest.mark.parametrize(("players", "variant"), CONFIGS, ids=IDS)
def test_rome_and_carthage_c_core_playouts(benchmark: Any, players: int, variant: str) -> None:
    game = load_game(players, variant)
    results: list[int] = []

    def workload() -> int:
        results.append(playouts(game, 1000))
        return results[-1]

    benchmark.group = "rome_and_carthage, C core, 1000 games a round"
    benchmark.pedantic(workload, rounds=5, warmup_rounds=1, iterations=1)
    assert len(set(results)) == 1, "the seeded workload is not reproducible"
    benchmark.extra_info["actions_per_round"] = results[0]
    benchmark.extra_info["clock"] = "wall"  # pytest-benchmark's timer, not CPU time
    benchmark.extra_info["actions_per_s_best"] = results[0] / benchmark.stats.stats.min


@pytest.mark.parametrize(("players", "variant"), CONFIGS[:2], ids=IDS[:2])
def test_rome_and_carthage_ismcts(benchmark: Any, players: int, variant: str) -> None:
    states = positions(load_game(players, variant))
    done = benchmark.pedantic(lambda: ismcts(states), rounds=2, iterations=1)
    assert done == ISMCTS_ITERATIONS * len(states)
    benchmark.group = "rome_and_carthage, ISMCTS"
    benchmark.extra_info["clock"] = "wall"  # pytest-benchmark's timer, not CPU time
    benchmark.extra_info["simulations_per_s_best"] = done / benchmark.stats.stats.min
