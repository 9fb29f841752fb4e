"""Connect Four: the Game and State facades over the compiled core.

The rules live in ``src_ext/boardrules/_ext/connect_four.pyx``; this module translates
between moves and action ids, builds views and JSON, and explains rejected moves.  It
re-implements no rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Literal

import numpy as np
import numpy.typing as npt

from boardrules._ext.connect_four import ConnectFourCore
from boardrules.api import Game
from boardrules.games.connect_four import observation
from boardrules.games.connect_four.events import connect_four_events
from boardrules.games.connect_four.moves import (
    COLUMNS,
    MAX_MOVE_TEXT,
    ROWS,
    ConnectFourMove,
    build_move_table,
    normalise,
)
from boardrules.games.connect_four.position import position_raw, position_text
from boardrules.games.connect_four.views import ConnectFourView
from boardrules.games.line_games import LineGameState, rgb_board
from boardrules.observations import Observation, ObservationLayout

#: Player 0 (X, red in pictures) moves first; player 1 is O (yellow).
SYMBOLS = ("X", "O")
EMPTY = "."
#: Bits per column in the core's bitboards (6 rows and a guard bit).
STRIDE = ROWS + 1

#: Why the core refused an action: rule key -> message.
ILLEGAL_REASONS: dict[str, str] = {
    "unknown_action": "no such move in Connect Four",
    "game_over": "the game is over (four are connected or the board is full)",
    "column_full": "that column is full (6 discs): drop the disc into another column",
    "legal": "the move is legal",
}


class ConnectFourGame(Game["ConnectFourState", ConnectFourMove]):
    """Connect Four, 7 columns by 6 rows.  It has no options:
    ``boardrules.load("connect_four")``."""

    id: ClassVar[str] = "connect_four"
    name: ClassVar[str] = "Connect Four"
    rules_version: ClassVar[str] = "1.0"
    # the iteration caps of suggest()'s strength levels, beside their CPU limits and
    # their stop once the answer is sure (docs: the search page's "Strength levels")
    search_levels: ClassVar[Mapping[str, int]] = {
        "fast": 100_000, "normal": 1_000_000, "strong": 10_000_000}
    # rollouts by the core's action values (win, block, quiet, gives a win), a random
    # column a tenth of the time: 76% against random rollouts at equal CPU time a move
    # (the docs page's "Search: informed rollouts and the solver")
    rollout_policy: ClassVar[Literal["random", "informed"]] = "informed"
    rollout_epsilon: ClassVar[float] = 0.1
    illegal_reasons: ClassVar[Mapping[str, str]] = ILLEGAL_REASONS
    max_move_text: ClassVar[int] = MAX_MOVE_TEXT
    notation_hint: ClassVar[str] = "a column letter, 'a' to 'g'"
    example_options: ClassVar[tuple[dict[str, Any], ...]] = ({},)
    _core: ConnectFourCore

    def __init__(self) -> None:
        self._install(ConnectFourCore(), {}, build_move_table)

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
        return connect_four_events(before, action, mover, after)

    # --- where moves land, and pictures (render.py) ---

    def _locations(self, move: ConnectFourMove) -> tuple[str, ...]:
        """The column the disc drops into (the cell it lands on depends on the
        position: the view's ``heights`` tell it)."""
        return (move.column,)

    def render_view_svg(self, view: Mapping[str, Any], *, highlight: Sequence[str] = (),
                        marks: Sequence[tuple[str, str]] = (),
                        arrows: Sequence[tuple[str, str]] = (),
                        size: int | None = None) -> str:
        from boardrules.games.connect_four.render import render_svg

        return render_svg(self._check_view(view), size=56 if size is None else size,
                          highlight=highlight, marks=marks, arrows=arrows)

    def render_view_text(self, view: Mapping[str, Any]) -> str:
        from boardrules.games.connect_four.render import render_text

        return render_text(self._check_view(view))


class ConnectFourState(LineGameState[ConnectFourMove]):
    """A Connect Four game in progress."""

    __slots__ = ()
    _game: ConnectFourGame

    @property
    def game(self) -> ConnectFourGame:
        """The game this is a state of, as its own class."""
        return self._game

    def _rows(self, raw: dict[str, Any]) -> list[str]:
        """The board as six strings of seven, the top row first: ``"...X..."``."""
        return ["".join(SYMBOLS[o] if o >= 0 else EMPTY for o in row)
                for row in reversed(raw["board"])]

    # --- what each player sees (everything: perfect information) ---

    # The view's own TypedDict (views.py) narrows State.view's Mapping[str, Any].
    def view(self, player: int | None) -> ConnectFourView:
        """The board, JSON-ready; the same for every viewer except ``legal_moves``, filled
        only for the player to move (``None``: a spectator).

        ``rows`` is the top row first, ``"X"``, ``"O"`` or ``"."`` per cell;
        ``heights`` the discs in each column ``a`` to ``g``; ``winner`` a player or
        ``None``; ``line`` the cells of the connected four as ``[column, row]``, row 1 at
        the bottom (``["d", 1]``).
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
            "heights": list(raw["height"]),
            "winner": raw["winner"] if raw["winner"] >= 0 else None,
            "line": [[COLUMNS[c], r + 1] for c, r in raw["line"]],
            "legal_moves": ([str(m) for m in self.legal_moves()]
                            if player is not None and player == self.current_player else []),
        }

    def invariants(self) -> dict[str, tuple[int, int]]:
        """Every disc accounted for: discs on the board = moves played = the column
        heights added up, no cell held twice, each column a stack from the bottom of its
        height, nothing off the board, player 0 (who starts) with as many discs as
        player 1 or one more, and the player to move following from the moves."""
        raw = self._raw()
        a, b = raw["discs"]
        moves = raw["move_count"]
        heights = raw["height"]
        stacked = sum(((a | b) >> (STRIDE * c)) & ((1 << STRIDE) - 1) == (1 << h) - 1
                      for c, h in enumerate(heights))
        return {
            "discs": ((a | b).bit_count(), moves),
            "heights": (sum(heights), moves),
            "overlap": ((a & b).bit_count(), 0),
            "stacked": (stacked, len(COLUMNS)),
            "off_board": ((a | b) >> (STRIDE * len(COLUMNS)), 0),
            "first_minus_second": (a.bit_count() - b.bit_count(), moves % 2),
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
        from boardrules.games.connect_four.events import describe
        text = self._game.render_view_text(self.view(player))
        last = self.last_events(player)
        if last:
            text += "\nlast: " + "; ".join(describe(event) for event in last)
        return text

    def render_svg(self, player: int | None = None, *, highlight: Sequence[str] = (),
                   marks: Sequence[tuple[str, str]] = (),
                   arrows: Sequence[tuple[str, str]] = (), size: int = 56) -> str:
        """An SVG picture of the board (cells ``size`` pixels wide); the connected four,
        if any, are ringed."""
        return self._game.render_view_svg(self.view(player), highlight=highlight, marks=marks,
                                          arrows=arrows, size=size)


ConnectFourGame.state_class = ConnectFourState

__all__ = ["ConnectFourGame", "ConnectFourMove", "ConnectFourState"]
