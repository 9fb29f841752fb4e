"""pytest-benchmark benchmarks of the observation tensors and the adapters (``python -m
pytest benchmarks --benchmark-only``).  Each round runs one seeded workload; extra_info
holds the best round's rate per CPU second (``clock``: "cpu"; pytest-benchmark's own
table is in wall seconds).  No speed is asserted: ``run_adapters.py`` prints the
figures against their target (observations at every decision cost at most half the
core's playout rate)."""

from __future__ import annotations

from typing import Any

import adapter_workloads as w
import pytest

ROUNDS = 3
IDS = [game_id for game_id, _ in w.GAMES]


def _rate(benchmark: Any, measure: Any, unit: str, **info: Any) -> None:
    rates: list[w.Rate] = []

    def workload() -> None:
        rates.append(measure())

    benchmark.pedantic(workload, rounds=ROUNDS, warmup_rounds=1, iterations=1)
    assert len({r.count for r in rates}) == 1  # seeded: every round does the same work
    best = max(rates, key=lambda r: r.per_second)
    benchmark.extra_info.update(info, count=best.count,
                                **{f"{unit}_per_cpu_s": round(best.per_second)}, clock="cpu")


@pytest.mark.parametrize(("game_id", "options"), w.GAMES, ids=IDS)
@pytest.mark.parametrize("observe", [False, True], ids=["plain", "observed"])
def test_bench_playout_steps(benchmark: Any, game_id: str, options: dict[str, Any],
                             observe: bool) -> None:
    benchmark.group = f"random playouts in C, {game_id}"
    games = 20_000 if game_id in ("tic_tac_toe", "connect_four", "pig") else 500
    _rate(benchmark, lambda: w.playout_steps(game_id, options, games, observe), "steps",
          observe=observe)


@pytest.mark.parametrize(("game_id", "options"), w.GAMES, ids=IDS)
def test_bench_python_observations(benchmark: Any, game_id: str,
                                   options: dict[str, Any]) -> None:
    benchmark.group = "state.observation(p, out=buf)"
    _rate(benchmark, lambda: w.python_observations(game_id, options, 20, 50), "observations")


@pytest.mark.parametrize("which", ["boardrules", "classic"])
def test_bench_pettingzoo_connect_four_observe(benchmark: Any, which: str) -> None:
    benchmark.group = "PettingZoo connect four observe()"
    _rate(benchmark, lambda: w.pettingzoo_observe(which, 20_000), "observations", env=which)


@pytest.mark.parametrize("which", ["bridge", "cpp"])
def test_bench_openspiel_connect_four_observation_tensor(benchmark: Any, which: str) -> None:
    benchmark.group = "OpenSpiel connect four observation_tensor()"
    _rate(benchmark, lambda: w.openspiel_observation_tensor(which, 20_000), "observations",
          game=which)
