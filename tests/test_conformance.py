"""The conformance suite every registered game gets for free (architecture.md).

Each check of the public kit :mod:`boardrules.testing` (seeded random playouts checking
the contract at every step) runs on every game in the registry with each of its
``example_options``: one test per check and option set.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import boardrules
from boardrules import Game
from boardrules.games import as_game_id
from boardrules.testing import CHECKS


def _configs() -> list[Any]:
    """Every registered game with each of its example options."""
    params = []
    for game_id in boardrules.available_games():
        cls = type(boardrules.load(as_game_id(game_id)))
        for options in cls.example_options:
            label = "-".join([game_id, *(f"{k}={v}" for k, v in options.items())])
            params.append(pytest.param(game_id, options, id=label))
    return params


CONFIGS = _configs()
_GAMES: dict[str, Game[Any, Any]] = {}


def _game(game_id: str, options: dict[str, Any]) -> Game[Any, Any]:
    """The game of a config, loaded once for all checks."""
    key = f"{game_id} {sorted(options.items())}"
    if key not in _GAMES:
        _GAMES[key] = boardrules.load(as_game_id(game_id), **options)
    return _GAMES[key]


@pytest.mark.parametrize(("game_id", "options"), CONFIGS)
@pytest.mark.parametrize("check", list(CHECKS.values()), ids=list(CHECKS))
def test_conformance(check: Callable[..., None], game_id: str, options: dict[str, Any]) -> None:
    check(_game(game_id, options))


def test_registry_lists_games_and_accepts_a_users_game() -> None:
    from boardrules.games import _REGISTRY, register

    assert {"armadora", "connect_four", "tic_tac_toe"} <= set(boardrules.available_games())
    my_id = register("my_tic_tac_toe", type(boardrules.load("tic_tac_toe")))
    try:
        assert my_id == "my_tic_tac_toe"
        assert "my_tic_tac_toe" in boardrules.available_games()
        assert boardrules.load(my_id).new_game(seed=1).legal_moves()
        assert boardrules.load(as_game_id("my_tic_tac_toe")).num_players == 2
    finally:
        del _REGISTRY["my_tic_tac_toe"]
