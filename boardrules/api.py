"""The public contract: :class:`Game`, :class:`State`, :class:`Move`, :class:`Outcome`.

Every game is one compiled rules core (``boardrules._ext.<game>``) behind these classes.
The generic machinery here -- legality checks, undo, copies, chance, JSON persistence --
knows no game; a game package supplies notation, views, scoring and rendering.

The classes live in modules of their own, one concern each -- ``_base`` (moves, outcomes,
the integer checks), ``_game`` (:class:`Game`), ``_state`` (:class:`State` and its
:class:`History`), ``_saves`` (the save format and its signature) -- and are imported from
here or from ``boardrules``, where users find them.

>>> import boardrules
>>> game = boardrules.load("armadora", players=2)
>>> state = game.new_game(seed=7)
>>> state.current_player
0
>>> state.apply("3@c2")
>>> state.history[-1]
<ArmadoraMove '3@c2'>
>>> state.undo()
<ArmadoraMove '3@c2'>
"""

from __future__ import annotations

from boardrules._base import (
    CHANCE,
    TERMINAL,
    Move,
    MoveT,
    Outcome,
    Termination,
    check_seed,
    exact_int,
)
from boardrules._decisions import Decision
from boardrules._events import Event
from boardrules._game import Game, GameMoveT, GameStateT
from boardrules._saves import (
    MAX_STATE_JSON_BYTES,
    SIGNATURE_FIELD,
    STATE_FORMAT,
    STATE_FORMAT_VERSION,
    _parse_state_json,
    sign_document,
)
from boardrules._state import History, State, StateT

__all__ = [
    "CHANCE",
    "MAX_STATE_JSON_BYTES",
    "SIGNATURE_FIELD",
    "STATE_FORMAT",
    "STATE_FORMAT_VERSION",
    "TERMINAL",
    "Decision",
    "Event",
    "Game",
    "GameMoveT",
    "GameStateT",
    "History",
    "Move",
    "MoveT",
    "Outcome",
    "State",
    "StateT",
    "Termination",
    "_parse_state_json",
    "check_seed",
    "exact_int",
    "sign_document",
]
