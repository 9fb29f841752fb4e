"""pytest-benchmark benchmarks of the search core (``python -m pytest benchmarks
--benchmark-only``).  Each round runs one seeded search with a fixed budget; extra_info
holds simulations or nodes per CPU second of the best round (``clock``: "cpu"; the
workloads time themselves in CPU seconds, while pytest-benchmark's own table is in wall
seconds).  No speed is asserted here:
``run_search.py`` prints the figures against their targets."""

from __future__ import annotations

from typing import Any

import pytest
import search_workloads as w

ROUNDS = 3


def _rate(benchmark: Any, measure: Any, unit: str, **info: Any) -> None:
    rates: list[w.Rate] = []

    def workload() -> None:
        rates.append(measure())

    benchmark.pedantic(workload, rounds=ROUNDS, warmup_rounds=1, iterations=1)
    # seeded, fixed budget: every round does the same amount of work
    assert len({r.count for r in rates}) == 1
    best = max(rates, key=lambda r: r.per_second)
    benchmark.extra_info.update(info, count=best.count, clock="cpu",
                                **{f"{unit}_per_cpu_s": round(best.per_second)})


def test_bench_mcts_connect_four(benchmark: Any) -> None:
    benchmark.group = "MCTS connect_four, 10,000 simulations"
    _rate(benchmark, lambda: w.mcts_connect_four(10_000), "sims", engine="boardrules")


@pytest.mark.skipif(not w.openspiel_available(), reason="optional open-spiel not installed")
def test_bench_openspiel_mcts_connect_four(benchmark: Any) -> None:
    benchmark.group = "MCTS connect_four, 10,000 simulations"
    _rate(benchmark, lambda: w.openspiel_mcts_connect_four(10_000), "sims", engine="OpenSpiel")


def test_bench_alphabeta_connect_four(benchmark: Any) -> None:
    benchmark.group = "alpha-beta connect_four"
    _rate(benchmark, lambda: w.alphabeta_connect_four(10), "nodes", depth=10)


@pytest.mark.parametrize("algorithm", ["mcts", "ismcts"])
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize(("players", "variant"), w.ARMADORA_CONFIGS,
                         ids=[f"{p}p-{v}" for p, v in w.ARMADORA_CONFIGS])
def test_bench_search_armadora(benchmark: Any, players: int, variant: str, algorithm: str,
                               threads: int) -> None:
    benchmark.group = f"{algorithm} armadora {players}p {variant}, 4,000 simulations"
    _rate(benchmark, lambda: w.mcts_armadora(players, variant, algorithm, 4_000, threads),
          "sims", threads=threads)


@pytest.mark.parametrize(("game_id", "options", "iterations"), w.REUSE_CONFIGS,
                         ids=[g for g, _, _ in w.REUSE_CONFIGS])
def test_bench_reuse_walk(benchmark: Any, game_id: str, options: dict[str, int],
                          iterations: int) -> None:
    """What keeping a tree costs the next search: the walk to its position and the
    compaction of the subtree (a fresh kept tree each round)."""
    benchmark.group = "reuse between moves: walk and compaction"
    rates: list[w.Rate] = []

    def setup() -> tuple[tuple[Any, ...], dict[str, Any]]:
        return w.kept_tree(game_id, options, iterations), {}

    def workload(handle: Any, state: Any, player: int) -> None:
        rates.append(w.reuse_walk(handle, state, player))

    benchmark.pedantic(workload, setup=setup, rounds=ROUNDS, warmup_rounds=0)
    assert len({r.count for r in rates}) == 1  # seeded: the same tree kept every round
    best = max(rates, key=lambda r: r.per_second)
    benchmark.extra_info.update(kept_nodes=best.count, iterations=iterations, clock="cpu",
                                cpu_milliseconds=round(best.seconds * 1e3, 3))
