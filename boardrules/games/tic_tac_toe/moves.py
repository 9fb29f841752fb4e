"""Tic-tac-toe moves and their notation.

A move is the square marked, named column letter then row number, row 1 at the top::

       a    b    c
    1  a1 | b1 | c1
    2  a2 | b2 | c2
    3  a3 | b3 | c3

The action id is the cell number ``3 * row + column`` (0-based), so ``a1`` is 0, ``b1``
is 1 and ``c3`` is 8.  Parsing ignores case and surrounding white space (``" B2 "``).
"""

from __future__ import annotations

from typing import Any, ClassVar

from boardrules.api import Move

COLUMNS = "abc"
SIZE = 3
#: Longest text worth looking up: anything longer is not a move.
MAX_MOVE_TEXT = 16


class TicTacToeMove(Move):
    """A tic-tac-toe move: the player to move marks ``square``."""

    __slots__ = ("square",)

    #: The square marked, ``"a1"`` to ``"c3"`` (``str(move)`` too).
    square: str
    #: The one kind of move of the game (every game's moves have a ``kind``).
    kind: ClassVar[str] = "mark"

    def __init__(self, action: int, game_key: tuple[Any, ...]) -> None:
        self.square = square_name(action)
        super().__init__(action, self.square, game_key)


def square_name(cell: int) -> str:
    """``a1`` .. ``c3`` for cells 0 .. 8."""
    return f"{COLUMNS[cell % SIZE]}{cell // SIZE + 1}"


def build_move_table(game_key: tuple[Any, ...]) -> list[TicTacToeMove]:
    """One move per action id: the move marking cell c is ``table[c]``."""
    return [TicTacToeMove(cell, game_key) for cell in range(SIZE * SIZE)]


def normalise(text: str) -> str:
    """Lower case without surrounding white space: the key of the parse table."""
    return str.__str__(text).strip().lower()
