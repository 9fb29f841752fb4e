"""What the ecosystem adapters (``boardrules.pettingzoo``, ``.gymnasium``, ``.openspiel``)
share; no third-party import here, so ``import boardrules`` needs none of them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

import boardrules
from boardrules.api import Game


def load_observed_game(game: str | Game[Any, Any], options: Mapping[str, Any]) -> Game[Any, Any]:
    """``game`` (a loaded :class:`~boardrules.Game`, or an id loaded with ``options``),
    checked to have an observation tensor (``NotImplementedError`` otherwise)."""
    if isinstance(game, Game):
        if options:
            raise TypeError("options go with a game id, not with a loaded Game")
        loaded = game
    elif isinstance(game, str):
        loaded = boardrules.load(boardrules.games.as_game_id(game), **options)
    else:
        raise TypeError(f"game must be a game id or a boardrules Game, not {type(game).__name__}")
    loaded.observation_layout  # noqa: B018 - a game without observation tensors fails here
    return loaded


def action_id(action: object) -> int | None:
    """An agent's action as an int (a numpy integer or 0-d integer array included), or
    None when it is no integer at all (a bool is none)."""
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        return int(action)
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        return None
    return int(action)


def legal_action(game: Game[Any, Any], state: Any, action: object) -> int | None:
    """The action id of ``action`` when it is legal for the player to move, else None."""
    move_id = action_id(action)
    if move_id is None or not 0 <= move_id < game.num_distinct_actions:
        return None
    return move_id if state.is_legal(game.move(move_id)) else None
