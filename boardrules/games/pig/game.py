"""Pig: the Game and State facades over the compiled core.

The rules live in ``src_ext/boardrules/_ext/pig.pyx``; this module translates between
moves and action ids, builds views and JSON, and explains rejected moves.  It
re-implements no rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from boardrules._ext.pig import PigCore
from boardrules.api import TERMINAL, Game, Outcome, State, Termination
from boardrules.games.pig import observation
from boardrules.games.pig.events import pig_events
from boardrules.games.pig.moves import MAX_MOVE_TEXT, PigMove, build_move_table, normalise
from boardrules.games.pig.position import position_raw, position_text
from boardrules.games.pig.views import PigView
from boardrules.observations import Observation, ObservationLayout

#: Why the core refused an action: rule key -> message.
ILLEGAL_REASONS: dict[str, str] = {
    "unknown_action": "no such move in pig",
    "game_over": "the game is over (a player reached 20 points, or 40 turns were played)",
    "chance_expected": "the die is rolling: apply one of state.chance_outcomes() "
                       "('die 1' to 'die 6')",
    "not_chance": "a die outcome is not a player's move: 'roll' first",
    "must_roll_first": "a turn starts with a roll: 'hold' needs a turn total above 0",
    "legal": "the move is legal",
}


class PigGame(Game["PigState", PigMove]):
    """Pig, the dice game, to 20 points (the game also ends after 40 turns).  It has no
    options: ``boardrules.load("pig")``."""

    id: ClassVar[str] = "pig"
    name: ClassVar[str] = "Pig"
    rules_version: ClassVar[str] = "1.0"
    illegal_reasons: ClassVar[Mapping[str, str]] = ILLEGAL_REASONS
    max_move_text: ClassVar[int] = MAX_MOVE_TEXT
    notation_hint: ClassVar[str] = "'roll', 'hold', or a roll's outcome 'die 1' to 'die 6'"
    example_options: ClassVar[tuple[dict[str, Any], ...]] = ({},)
    _core: PigCore

    def __init__(self) -> None:
        self._install(PigCore(), {}, build_move_table)

    @property
    def target(self) -> int:
        """Points that win at once: 20."""
        return self._core.target

    @property
    def turn_limit(self) -> int:
        """Turns (each ended by ``hold`` or a 1) after which the game ends on the scores:
        40."""
        return self._core.turn_limit

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
        return pig_events(before, action, mover, after)

    # --- where moves land, and pictures (render.py) ---

    def render_view_svg(self, view: Mapping[str, Any], *, highlight: Sequence[str] = (),
                        marks: Sequence[tuple[str, str]] = (),
                        arrows: Sequence[tuple[str, str]] = (),
                        size: int | None = None) -> str:
        from boardrules.games.pig.render import render_svg

        return render_svg(self._check_view(view), size=300 if size is None else size,
                          highlight=highlight, marks=marks, arrows=arrows)

    def render_view_text(self, view: Mapping[str, Any]) -> str:
        from boardrules.games.pig.render import render_text

        return render_text(self._check_view(view))


class PigState(State[PigMove]):
    """A pig game in progress."""

    __slots__ = ()
    _game: PigGame

    @property
    def game(self) -> PigGame:
        """The game this is a state of, as its own class."""
        return self._game

    # --- results ---

    def score(self) -> tuple[int, ...]:
        """The two players' banked points (the turn total in progress not included; the
        winner's includes the turn that reached the target)."""
        return tuple(self._raw()["scores"])

    def outcome(self) -> Outcome | None:
        """The winner (ranked 1, the loser 2) -- the player who reached the target, or
        the higher score after the last turn -- or a draw on equal scores after the last
        turn (both ranked 1, both ``winners``)."""
        if self._core.current_player != TERMINAL:
            return None
        raw = self._raw()
        winner = raw["winner"]
        scores = self.score()
        if winner >= 0:
            winners: tuple[int, ...] = (winner,)
            ranking = tuple(1 if p == winner else 2 for p in range(2))
        else:
            winners, ranking = (0, 1), (1, 1)
        reached = max(scores) >= self._game.target
        return Outcome(
            winners=winners,
            ranking=ranking,
            scores=scores,
            team_scores=tuple(sum(scores[p] for p in team) for team in self._game.teams),
            returns=self.returns(),
            reason=Termination.TARGET_REACHED if reached else Termination.TURN_LIMIT,
        )

    # --- what each player sees (everything: perfect information) ---

    # The view's own TypedDict (views.py) narrows State.view's Mapping[str, Any].
    def view(self, player: int | None) -> PigView:
        """The scores and the turn in progress, JSON-ready; the same for every viewer
        except ``legal_moves``, filled only for the player to move (``None``: a
        spectator).

        ``turn_player`` is whose turn it is (also while the die rolls, when
        ``current_player`` is CHANCE); ``turn_total`` his points this turn; ``turns``
        the turns completed; ``phase`` ``"decide"``, ``"rolling"`` or ``"over"``;
        ``last_die`` the last face rolled (``None`` before the first roll).
        """
        self._check_viewer(player)
        raw = self._raw()
        return {
            "game": self._game.id,
            "options": dict(self._game.options),
            "viewer": player,
            "current_player": self.current_player,
            "target": self._game.target,
            "turn_limit": self._game.turn_limit,
            "scores": list(raw["scores"]),
            "turn_player": raw["current"],
            "turn_total": raw["turn_total"],
            "turns": raw["turns"],
            "phase": raw["phase"],
            "last_die": raw["last_die"] or None,
            "winner": raw["winner"] if raw["winner"] >= 0 else None,
            "legal_moves": ([str(m) for m in self.legal_moves()]
                            if player is not None and player == self.current_player else []),
        }

    def invariants(self) -> dict[str, tuple[int, int]]:
        """Scores and turn total consistent with the rules: no score at the target
        unless the game was won by reaching it; the turn total keeps the player below
        the target, is never 1 (a 1 loses it) and is 0 at a turn's start and at the
        end; turns within the limit, and the game over at it; the players alternate by
        turns; the winner is the higher score."""
        raw = self._raw()
        scores, tt, turns = raw["scores"], raw["turn_total"], raw["turns"]
        target, limit = self._game.target, self._game.turn_limit
        over = raw["phase"] == "over"
        expected_winner = -1
        if over and scores[0] != scores[1]:
            expected_winner = 0 if scores[0] > scores[1] else 1
        return {
            "at_target": (sum(s >= target for s in scores), int(over and turns < limit)),
            "in_reach": (int(not over and scores[raw["current"]] + tt >= target), 0),
            "turn_total_not_one": (int(tt == 1), 0),
            "turn_total_at_end": (tt if over else 0, 0),
            "turns": (min(turns, limit), turns),
            "over_at_limit": (int(turns == limit), int(over and turns == limit)),
            "turn": (raw["current"], turns % 2),
            "winner": (raw["winner"], expected_winner),
        }

    # --- persistence ---

    def _snapshot(self) -> dict[str, Any]:
        raw = self._raw()
        return {
            "scores": list(raw["scores"]),
            "turn_player": raw["current"],
            "turn_total": raw["turn_total"],
            "turns": raw["turns"],
            "phase": raw["phase"],
            "last_die": raw["last_die"],
            "winner": raw["winner"] if raw["winner"] >= 0 else None,
        }

    # --- pictures ---

    def render_text(self, player: int | None = None) -> str:
        """The board as text (``print(state)`` shows it); the same for every viewer
        (perfect information).  ``player`` is checked as for :meth:`view`."""
        from boardrules.games.pig.events import describe
        text = self._game.render_view_text(self.view(player))
        last = self.last_events(player)
        if last:
            text += "\nlast: " + "; ".join(describe(event) for event in last)
        return text

    def render_svg(self, player: int | None = None, *, highlight: Sequence[str] = (),
                   marks: Sequence[tuple[str, str]] = (),
                   arrows: Sequence[tuple[str, str]] = (), size: int = 300) -> str:
        """An SVG picture: the two score bars up to the target (the turn total in
        progress drawn after the score of the player whose turn it is), the turn
        total, the last die rolled and whose turn it is; ``size`` is the bars' length in
        pixels."""
        return self._game.render_view_svg(self.view(player), highlight=highlight, marks=marks,
                                          arrows=arrows, size=size)


PigGame.state_class = PigState

__all__ = ["PigGame", "PigMove", "PigState"]
