"""The Ray backend, on a real local Ray instance started here (``ray.init(num_cpus=2)``):
a tournament, a match and Ctrl-C give what the local backend gives, and leave the
cluster's CPUs free."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
import ray

from boardrules.arena import play_match
from boardrules.tournament import TournamentProgress, TournamentResult, round_robin

BOTS = ["random", "greedy", "mcts:iterations=20", "ismcts:iterations=20"]


@pytest.fixture(scope="module", autouse=True)
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def untimed(result: TournamentResult) -> list[tuple[Any, ...]]:
    return [(g.table, g.index, g.seed, g.seats, g.winners, g.places, g.points, g.length,
             g.moves, g.forfeit) for g in result.records]


def _cpus_free(within: float = 10.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if ray.available_resources().get("CPU", 0) == 2:
            return True
        time.sleep(0.1)
    return False


def test_a_tournament_on_ray_is_the_tournament_on_local_processes() -> None:
    kwargs: dict[str, Any] = {"games": 3, "seed": 11, "options": {"players": 2},
                              "bootstrap": 100}
    on_ray = round_robin("armadora", BOTS, backend="ray", **kwargs)
    local = round_robin("armadora", BOTS, processes=2, **kwargs)
    assert len(on_ray.records) == 18
    assert untimed(on_ray) == untimed(local)
    assert on_ray.ratings == local.ratings
    assert _cpus_free()


def test_a_match_on_ray_is_the_match_in_process() -> None:
    on_ray = play_match("pig", ["greedy", "mcts:iterations=30"], games=8, seed=2,
                        backend="ray")
    here = play_match("pig", ["greedy", "mcts:iterations=30"], games=8, seed=2, processes=1)
    assert [(r.seed, r.points, r.moves, r.places) for r in on_ray.records] == [
        (r.seed, r.points, r.moves, r.places) for r in here.records]


def test_ctrl_c_on_ray_keeps_the_finished_games_and_frees_the_cpus(tmp_path: Any) -> None:
    def stop(progress: TournamentProgress) -> None:
        if progress.done >= 4:
            raise KeyboardInterrupt

    results = tmp_path / "r.jsonl"
    stopped = round_robin("connect_four", BOTS, games=4, seed=1, backend="ray",
                          results=results, progress=stop, bootstrap=10)
    assert stopped.interrupted and len(stopped.records) >= 4
    assert _cpus_free()
    again = round_robin("connect_four", BOTS, games=4, seed=1, backend="ray",
                        results=results, bootstrap=10)
    assert again.complete
    assert untimed(again) == untimed(round_robin("connect_four", BOTS, games=4, seed=1,
                                                 processes=1, bootstrap=10))
