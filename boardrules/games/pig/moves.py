"""Pig moves and their notation.

A player's move is ``roll`` or ``hold``; the outcome of a roll, a chance move, is
``die 1`` to ``die 6``.  Action ids::

    0 roll     1 hold     2 die 1    3 die 2    ...    7 die 6

Parsing ignores case and extra white space (``" Die  4 "`` is ``die 4``).
"""

from __future__ import annotations

from typing import Any

from boardrules.api import Move

ROLL = 0
HOLD = 1
#: Action id of ``die 1``; ``die k`` is ``DIE_1 + k - 1``.
DIE_1 = 2
FACES = 6
#: Longest text worth looking up: anything longer is not a move.
MAX_MOVE_TEXT = 16


class PigMove(Move):
    """A pig move: ``roll``, ``hold``, or the die's outcome ``die 1`` .. ``die 6``."""

    __slots__ = ("face", "kind")

    #: ``"roll"``, ``"hold"`` or ``"die"`` (a chance outcome).
    kind: str
    #: The face of a ``die`` move, 1 to 6; ``None`` for roll and hold.
    face: int | None

    def __init__(self, action: int, game_key: tuple[Any, ...]) -> None:
        if action == ROLL:
            self.kind, self.face = "roll", None
        elif action == HOLD:
            self.kind, self.face = "hold", None
        else:
            self.kind, self.face = "die", action - DIE_1 + 1
        text = self.kind if self.face is None else f"die {self.face}"
        super().__init__(action, text, game_key)


def build_move_table(game_key: tuple[Any, ...]) -> list[PigMove]:
    """One move per action id: roll, hold, then die 1 to die 6."""
    return [PigMove(action, game_key) for action in range(DIE_1 + FACES)]


def normalise(text: str) -> str:
    """Lower case, white space runs made single spaces, none around: the key of the parse
    table.  Read from the exact ``str`` of the characters, so that a ``str`` subclass's
    own methods (which may misbehave) are never called."""
    return " ".join(str.__str__(text).lower().split())
