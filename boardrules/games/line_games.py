"""Results shared by the two example games, where a completed line wins and a full board
without one is a draw (``tic_tac_toe``, ``connect_four``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from boardrules.api import TERMINAL, MoveT, Outcome, State, Termination

#: The raster of a board (``rgb_board``): pixels per cell, and the colours of the board,
#: its grid lines and each player's pieces (player 0 red, player 1 gold).
CELL = 32
BOARD_RGB = (30, 80, 170)
GRID_RGB = (15, 40, 90)
EMPTY_RGB = (235, 235, 235)
PIECE_RGB = ((210, 40, 40), (240, 190, 20))


def rgb_board(view: Mapping[str, Any]) -> npt.NDArray[np.uint8]:
    """A line game's view (``rows`` of ``symbols`` and ``.``, the top row first) as an
    RGB picture, ``(rows * CELL, columns * CELL, 3)`` ``uint8``: a disc per cell, empty or
    in its player's colour (PettingZoo's ``"rgb_array"``: cheap, no SVG rasteriser)."""
    rows: Sequence[str] = view["rows"]
    symbols: Sequence[str] = view["symbols"]
    height, width = len(rows), len(rows[0])
    y, x = np.mgrid[0:CELL, 0:CELL]
    disc = (x - CELL / 2 + 0.5) ** 2 + (y - CELL / 2 + 0.5) ** 2 <= (CELL * 0.4) ** 2
    edge = (x == 0) | (y == 0) | (x == CELL - 1) | (y == CELL - 1)
    picture = np.empty((height * CELL, width * CELL, 3), dtype=np.uint8)
    for r, line in enumerate(rows):
        for c, mark in enumerate(line):
            cell = picture[r * CELL:(r + 1) * CELL, c * CELL:(c + 1) * CELL]
            cell[...] = BOARD_RGB
            cell[edge] = GRID_RGB
            cell[disc] = PIECE_RGB[symbols.index(mark)] if mark in symbols else EMPTY_RGB
    return picture


class LineGameState(State[MoveT]):
    """A two-player game won by completing a line; ``_raw()["winner"]`` is the winner or
    -1."""

    __slots__ = ()

    def score(self) -> tuple[int, ...]:
        """1 for the player who completed a line, 0 for the other; (0, 0) until then."""
        winner = self._raw()["winner"]
        return tuple(int(p == winner) for p in range(2))

    def outcome(self) -> Outcome | None:
        """The winner (ranked 1, the loser 2) when a line is complete, or a draw (both
        ranked 1, both ``winners``) when the board filled up without one."""
        if self._core.current_player != TERMINAL:
            return None
        winner = self._raw()["winner"]
        scores = self.score()
        if winner >= 0:
            winners: tuple[int, ...] = (winner,)
            ranking = tuple(1 if p == winner else 2 for p in range(2))
        else:
            winners, ranking = (0, 1), (1, 1)
        return Outcome(
            winners=winners,
            ranking=ranking,
            scores=scores,
            team_scores=tuple(sum(scores[p] for p in team) for team in self._game.teams),
            returns=self.returns(),
            reason=Termination.LINE if winner >= 0 else Termination.BOARD_FULL,
        )
