"""Tic-tac-toe: the Game and State facades over the compiled core.

The rules live in ``src_ext/boardrules/_ext/tic_tac_toe.pyx``; this module translates
between moves and action ids, builds views and JSON, and explains rejected moves.  It
re-implements no rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from boardrules._ext.tic_tac_toe import TicTacToeCore
from boardrules.api import Game
from boardrules.games.line_games import LineGameState, rgb_board
from boardrules.games.tic_tac_toe import observation
from boardrules.games.tic_tac_toe.events import tic_tac_toe_events
from boardrules.games.tic_tac_toe.moves import (
    MAX_MOVE_TEXT,
    SIZE,
    TicTacToeMove,
    build_move_table,
    normalise,
    square_name,
)
from boardrules.games.tic_tac_toe.position import position_raw, position_text
from boardrules.games.tic_tac_toe.views import TicTacToeView
from boardrules.observations import Observation, ObservationLayout

#: Player 0 plays X (and moves first), player 1 plays O.
SYMBOLS = ("X", "O")
EMPTY = "."

#: Why the core refused an action: rule key -> message.
ILLEGAL_REASONS: dict[str, str] = {
    "unknown_action": "no such move in tic-tac-toe",
    "game_over": "the game is over (a line is complete or the board is full)",
    "cell_taken": "that square is already marked (a mark goes on an empty square)",
    "legal": "the move is legal",
}


class TicTacToeGame(Game["TicTacToeState", TicTacToeMove]):
    """Tic-tac-toe on a 3 x 3 board.  It has no options: ``boardrules.load("tic_tac_toe")``."""

    id: ClassVar[str] = "tic_tac_toe"
    name: ClassVar[str] = "Tic-tac-toe"
    rules_version: ClassVar[str] = "1.0"
    illegal_reasons: ClassVar[Mapping[str, str]] = ILLEGAL_REASONS
    max_move_text: ClassVar[int] = MAX_MOVE_TEXT
    notation_hint: ClassVar[str] = (
        "a square, 'a1' to 'c3': column letter, then row number, row 1 at the top")
    example_options: ClassVar[tuple[dict[str, Any], ...]] = ({},)
    _core: TicTacToeCore

    def __init__(self) -> None:
        self._install(TicTacToeCore(), {}, build_move_table)

    renders_rgb: ClassVar[bool] = True

    def render_view_rgb(self, view: Mapping[str, Any]) -> npt.NDArray[np.uint8]:
        """The board as an RGB picture (``line_games.rgb_board``): a disc a cell."""
        return rgb_board(self._check_view(view))

    # --- the observation tensor (observation.py) ---

    def _observation_layout(self) -> ObservationLayout:
        return observation.LAYOUT

    def _observation_from_view(self, view: Mapping[str, Any], player: int) -> Observation:
        return observation.observation_from_view(view, player)

    def _normalise(self, text: str) -> str:
        return normalise(text)

    # --- positions and events (position.py, events.py) ---

    def _position_text(self, raw: dict[str, Any]) -> str:
        return position_text(raw)

    def _position_raw(self, text: str) -> dict[str, Any]:
        return position_raw(text)

    def _events(self, before: dict[str, Any], action: int, mover: int,
                after: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        return tic_tac_toe_events(before, action, mover, after)

    # --- where moves land, and pictures (render.py) ---

    def _locations(self, move: TicTacToeMove) -> tuple[str, ...]:
        """The square marked."""
        return (move.square,)

    def render_view_svg(self, view: Mapping[str, Any], *, highlight: Sequence[str] = (),
                        marks: Sequence[tuple[str, str]] = (),
                        arrows: Sequence[tuple[str, str]] = (),
                        size: int | None = None) -> str:
        from boardrules.games.tic_tac_toe.render import render_svg

        return render_svg(self._check_view(view), size=80 if size is None else size,
                          highlight=highlight, marks=marks, arrows=arrows)

    def render_view_text(self, view: Mapping[str, Any]) -> str:
        from boardrules.games.tic_tac_toe.render import render_text

        return render_text(self._check_view(view))


class TicTacToeState(LineGameState[TicTacToeMove]):
    """A tic-tac-toe game in progress."""

    __slots__ = ()
    _game: TicTacToeGame

    @property
    def game(self) -> TicTacToeGame:
        """The game this is a state of, as its own class."""
        return self._game

    def _rows(self, raw: dict[str, Any]) -> list[str]:
        """The board as three strings, row 1 (the top) first: ``"X.O"``."""
        board = raw["board"]
        return ["".join(SYMBOLS[o] if o >= 0 else EMPTY for o in board[r * SIZE:(r + 1) * SIZE])
                for r in range(SIZE)]

    # --- what each player sees (everything: perfect information) ---

    # The view's own TypedDict (views.py) narrows State.view's Mapping[str, Any].
    def view(self, player: int | None) -> TicTacToeView:
        """The board, JSON-ready; the same for every viewer except ``legal_moves``, filled
        only for the player to move (``None``: a spectator).

        ``rows`` is row 1 (the top) first, ``"X"``, ``"O"`` or ``"."`` per square;
        ``winner`` a player or ``None``; ``line`` the squares of the completed line.
        """
        self._check_viewer(player)
        raw = self._raw()
        return {
            "game": self._game.id,
            "options": dict(self._game.options),
            "viewer": player,
            "current_player": self.current_player,
            "symbols": list(SYMBOLS),
            "rows": self._rows(raw),
            "winner": raw["winner"] if raw["winner"] >= 0 else None,
            "line": [square_name(c) for c in raw["line"]],
            "legal_moves": ([str(m) for m in self.legal_moves()]
                            if player is not None and player == self.current_player else []),
        }

    def invariants(self) -> dict[str, tuple[int, int]]:
        """Every mark accounted for: marks on the board = moves played, no square marked
        twice, X (who starts) has as many marks as O or one more, and the player to move
        follows from the number of moves."""
        raw = self._raw()
        x, o = raw["marks"]
        moves = raw["move_count"]
        return {
            "marks": (x.bit_count() + o.bit_count(), moves),
            "overlap": ((x & o).bit_count(), 0),
            "x_minus_o": (x.bit_count() - o.bit_count(), moves % 2),
            "turn": (raw["current"], moves % 2),
        }

    # --- persistence ---

    def _snapshot(self) -> dict[str, Any]:
        raw = self._raw()
        return {
            "rows": self._rows(raw),
            "current_player": self.current_player,
            "winner": raw["winner"] if raw["winner"] >= 0 else None,
        }

    # --- pictures ---

    def render_text(self, player: int | None = None) -> str:
        """The board as text (``print(state)`` shows it); the same for every viewer
        (perfect information).  ``player`` is checked as for :meth:`view`."""
        from boardrules.games.tic_tac_toe.events import describe
        text = self._game.render_view_text(self.view(player))
        last = self.last_events(player)
        if last:
            text += "\nlast: " + "; ".join(describe(event) for event in last)
        return text

    def render_svg(self, player: int | None = None, *, highlight: Sequence[str] = (),
                   marks: Sequence[tuple[str, str]] = (),
                   arrows: Sequence[tuple[str, str]] = (), size: int = 80) -> str:
        """An SVG picture of the board (squares ``size`` pixels wide); the completed line,
        if any, is highlighted."""
        return self._game.render_view_svg(self.view(player), highlight=highlight, marks=marks,
                                          arrows=arrows, size=size)


TicTacToeGame.state_class = TicTacToeState

__all__ = ["TicTacToeGame", "TicTacToeMove", "TicTacToeState"]
