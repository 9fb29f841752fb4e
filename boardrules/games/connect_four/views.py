"""The shape of :meth:`ConnectFourState.view
<boardrules.games.connect_four.ConnectFourState.view>` (docs/connect_four.rst, "View"),
as a TypedDict for type checkers."""

from __future__ import annotations

from typing import Any, TypedDict


class ConnectFourView(TypedDict):
    """The board as every viewer sees it (perfect information), JSON-ready."""

    game: str
    options: dict[str, Any]
    viewer: int | None
    current_player: int
    #: ``["X", "O"]``: player 0's and player 1's discs
    symbols: list[str]
    #: the top row first, seven cells each: ``"...X..."``
    rows: list[str]
    #: discs per column, ``a`` to ``g``
    heights: list[int]
    winner: int | None
    #: the connected four(s) as ``[column, row]`` pairs, row 1 at the bottom
    line: list[list[Any]]
    legal_moves: list[str]
