"""The shape of :meth:`TicTacToeState.view
<boardrules.games.tic_tac_toe.TicTacToeState.view>` (docs/tic_tac_toe.rst, "View"), as a
TypedDict for type checkers."""

from __future__ import annotations

from typing import Any, TypedDict


class TicTacToeView(TypedDict):
    """The board as every viewer sees it (perfect information), JSON-ready."""

    game: str
    options: dict[str, Any]
    viewer: int | None
    current_player: int
    #: ``["X", "O"]``: player 0's and player 1's marks
    symbols: list[str]
    #: row 1 (the top) first, ``"X.O"``
    rows: list[str]
    winner: int | None
    #: the squares of the completed line(s)
    line: list[str]
    legal_moves: list[str]
