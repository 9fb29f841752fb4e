"""The shape of :meth:`PigState.view <boardrules.games.pig.PigState.view>`
(docs/pig.rst, "View"), as a TypedDict for type checkers."""

from __future__ import annotations

from typing import Any, TypedDict


class PigView(TypedDict):
    """The game as every viewer sees it (perfect information), JSON-ready."""

    game: str
    options: dict[str, Any]
    viewer: int | None
    current_player: int
    target: int
    turn_limit: int
    scores: list[int]
    #: whose turn it is (also while the die rolls)
    turn_player: int
    turn_total: int
    turns: int
    #: ``"decide"``, ``"rolling"`` or ``"over"``
    phase: str
    #: the last face rolled, ``None`` before the first roll
    last_die: int | None
    winner: int | None
    legal_moves: list[str]
