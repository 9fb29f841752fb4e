"""Connect Four moves and their notation.

A move is the column the disc is dropped into, ``a`` (left) to ``g`` (right); the disc
falls to the lowest free row.  The action id is the column number, 0 (``a``) to 6
(``g``).  Parsing ignores case and surrounding white space (``" D "``).
"""

from __future__ import annotations

from typing import Any, ClassVar

from boardrules.api import Move

COLUMNS = "abcdefg"
ROWS = 6
#: Longest text worth looking up: anything longer is not a move.
MAX_MOVE_TEXT = 16


class ConnectFourMove(Move):
    """A Connect Four move: the player to move drops a disc into ``column``."""

    __slots__ = ("column",)

    #: The column, ``"a"`` to ``"g"`` (``str(move)`` too).
    column: str
    #: The one kind of move of the game (every game's moves have a ``kind``).
    kind: ClassVar[str] = "drop"

    def __init__(self, action: int, game_key: tuple[Any, ...]) -> None:
        self.column = COLUMNS[action]
        super().__init__(action, self.column, game_key)


def build_move_table(game_key: tuple[Any, ...]) -> list[ConnectFourMove]:
    """One move per action id: the move into column c is ``table[c]``."""
    return [ConnectFourMove(column, game_key) for column in range(len(COLUMNS))]


def normalise(text: str) -> str:
    """Lower case without surrounding white space: the key of the parse table."""
    return str.__str__(text).strip().lower()
