"""The game packages and the registry of game ids."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, Literal

from boardrules.api import Game
from boardrules.errors import InvalidOptionError, UnknownGameError

GameId = Literal["armadora", "connect_four", "pig", "tic_tac_toe"]

_REGISTRY: dict[str, Callable[..., Game]] = {}
_BUILTIN = (
    ("armadora", "boardrules.games.armadora", "ArmadoraGame"),
    ("connect_four", "boardrules.games.connect_four", "ConnectFourGame"),
    ("pig", "boardrules.games.pig", "PigGame"),
    ("tic_tac_toe", "boardrules.games.tic_tac_toe", "TicTacToeGame"),
)


def register(game_id: str, factory: Callable[..., Game]) -> None:
    """Register a game under ``game_id`` (its module name)."""
    _REGISTRY[game_id] = factory


def available_games() -> list[str]:
    """The registered game ids, sorted."""
    _load_builtin()
    return sorted(_REGISTRY)


def load(game_id: str, /, **options: Any) -> Game:
    """The game ``game_id`` with ``options`` checked and defaults filled in."""
    _load_builtin()
    if not isinstance(game_id, str):
        raise TypeError("game_id must be a str")
    factory = _REGISTRY.get(game_id)
    if factory is None:
        raise UnknownGameError(f"no game {game_id!r}; available: {', '.join(available_games())}")
    try:
        return factory(**options)
    except TypeError as exc:
        raise InvalidOptionError(f"{game_id}: {exc}") from None


def check_saved_options(game_id: str, options: dict[str, Any]) -> None:
    """Refuse options of an untrusted saved state or record that only a trusted caller
    may pass (see :meth:`Game.check_saved_options`); the game must be registered."""
    _load_builtin()
    factory = _REGISTRY[game_id]
    if isinstance(factory, type) and issubclass(factory, Game):
        factory.check_saved_options(options)


def _load_builtin() -> None:
    """Register the shipped games on first use (a user's own games may come first)."""
    for game_id, module, name in _BUILTIN:
        if game_id not in _REGISTRY:
            register(game_id, getattr(importlib.import_module(module), name))
