"""Fixtures of the Armadora benchmarks (``python -m pytest benchmarks --benchmark-only``).

``benchmarks/`` is no package, so pytest puts this directory on ``sys.path`` and the
shared ``workloads`` module imports as is.
"""

from __future__ import annotations

from typing import Any

import pytest
from workloads import CONFIGS, load_game, setup_chance_actions

from boardrules import Game

_RATES = pytest.StashKey[list[dict[str, Any]]]()


@pytest.fixture(scope="session")
def armadora() -> dict[tuple[int, str], tuple[Game, int]]:
    """Each configuration's game and its number of setup chance outcomes, loaded once."""
    out = {}
    for players, variant in CONFIGS:
        game = load_game(players, variant)
        out[players, variant] = (game, setup_chance_actions(game))
    return out


@pytest.fixture(scope="session")
def rates(pytestconfig: pytest.Config) -> list[dict[str, Any]]:
    """Where each benchmark leaves its ``extra_info`` for the summary below."""
    return pytestconfig.stash.setdefault(_RATES, [])


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """Moves/s and games/s of each benchmark (best round), which pytest-benchmark's own
    table (seconds per round) does not show: per wall second, the clock pytest-benchmark
    times (``run.py`` and ``boardrules bench`` give CPU seconds)."""
    rows = [info for info in config.stash.get(_RATES, []) if "moves_per_s" in info]
    if not rows:
        return
    terminalreporter.section("Armadora random playouts (best round, per wall second)")
    terminalreporter.line(f"{'path':<12}{'players':>8}  {'variant':<10}{'moves/s':>12}"
                          f"{'games/s':>11}{'moves/game':>12}{'target':>12}")
    for info in rows:
        terminalreporter.line(
            f"{info['path']:<12}{info['players']:>8}  {info['variant']:<10}"
            f"{info['moves_per_s']:>12,}{info['games_per_s']:>11,.0f}"
            f"{info['mean_moves_per_game']:>12.2f}{info['target_moves_per_s']:>12,}"
        )
