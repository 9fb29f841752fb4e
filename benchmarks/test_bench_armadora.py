"""pytest-benchmark benchmarks of Armadora random playouts.

Run with ``python -m pytest benchmarks --benchmark-only``.  Every round plays the same
fixed, seeded workload (``benchmark.pedantic`` with fixed rounds), so runs are
reproducible; ``extra_info`` holds moves/s and games/s of the best round and of the mean,
per **wall** second (pytest-benchmark's timer; ``clock``: "wall"), where ``run.py`` and
``boardrules bench`` give them per CPU second.
Nothing here asserts a speed: the benchmarks measure, ``run.py`` compares to the targets.
"""

from __future__ import annotations

from typing import Any

import pytest
from workloads import (
    C_CORE,
    C_CORE_SEED,
    CONFIGS,
    PYTHON_API,
    PYTHON_RNG_SEED,
    TARGETS,
    counts,
    run_workload,
)

#: Games per round, rounds and warm-up rounds of each path.
GAMES = {C_CORE: 2_000, PYTHON_API: 300}
ROUNDS = 5
WARMUP_ROUNDS = 1

CONFIG_IDS = [f"{players}p-{variant}" for players, variant in CONFIGS]


def _bench(benchmark: Any, armadora: dict[tuple[int, str], Any], rates: list[dict[str, Any]],
           path: str, players: int, variant: str) -> None:
    game, setup = armadora[players, variant]
    games = GAMES[path]
    results: list[int] = []

    def workload() -> int:
        result = run_workload(path, game, games)
        results.append(result)
        return result

    benchmark.group = f"armadora, {path}, {games} games a round"
    benchmark.pedantic(workload, rounds=ROUNDS, warmup_rounds=WARMUP_ROUNDS, iterations=1)

    # The workload is seeded: every round (warm-up included) plays the very same games.
    assert len(set(results)) == 1, f"the workload is not reproducible: {results}"
    moves, actions = counts(path, results[0], games, setup)
    assert moves > 0

    info = benchmark.extra_info
    info.update(
        path=path,
        players=players,
        variant=variant,
        games_per_round=games,
        moves_per_round=moves,
        actions_per_round=actions,
        setup_chance_per_game=setup,
        mean_moves_per_game=round(moves / games, 3),
        seed=C_CORE_SEED if path == C_CORE else PYTHON_RNG_SEED,
        target_moves_per_s=TARGETS[path],
        clock="wall",  # the rates below are from pytest-benchmark's timer: wall seconds
    )
    if benchmark.stats is not None:  # None under --benchmark-disable
        best = benchmark.stats.stats.min
        mean = benchmark.stats.stats.mean
        info.update(
            moves_per_s=round(moves / best),
            games_per_s=round(games / best, 1),
            actions_per_s=round(actions / best),
            moves_per_s_mean=round(moves / mean),
            games_per_s_mean=round(games / mean, 1),
        )
    rates.append(dict(info))


@pytest.mark.parametrize(("players", "variant"), CONFIGS, ids=CONFIG_IDS)
def test_bench_c_core_random_playouts(benchmark: Any, armadora: Any, rates: Any, players: int,
                                      variant: str) -> None:
    """``game.core.random_playouts(games, seed)``: whole random games in C."""
    _bench(benchmark, armadora, rates, C_CORE, players, variant)


@pytest.mark.parametrize(("players", "variant"), CONFIGS, ids=CONFIG_IDS)
def test_bench_python_api_random_playouts(benchmark: Any, armadora: Any, rates: Any,
                                          players: int, variant: str) -> None:
    """``new_game`` / ``legal_moves`` / ``apply`` with a seeded ``random.Random``."""
    _bench(benchmark, armadora, rates, PYTHON_API, players, variant)
