"""Kuhn poker: the Game and State facades over the compiled core.

The rules live in ``_core.pyx``; this module translates between moves and action ids,
builds views (each player sees his own card only, until a showdown), events and JSON,
and explains rejected moves.  It re-implements no rule.  It uses the public names of
boardrules only: :mod:`boardrules.api`, :mod:`boardrules.observations` and the
exceptions of :mod:`boardrules`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from boardrules.api import TERMINAL, Event, Game, Outcome, State, Termination
from boardrules.observations import Observation, ObservationLayout

from boardrules_kuhn_poker import observation
from boardrules_kuhn_poker._core import KuhnPokerCore
from boardrules_kuhn_poker.events import kuhn_poker_events, redact
from boardrules_kuhn_poker.moves import (
    CARDS,
    DEAL,
    MAX_MOVE_TEXT,
    KuhnPokerMove,
    build_move_table,
    deal_text,
    normalise,
)
from boardrules_kuhn_poker.position import position_raw, position_text
from boardrules_kuhn_poker.views import KuhnPokerView

#: Why the core refused an action: rule key -> message.
ILLEGAL_REASONS: dict[str, str] = {
    "unknown_action": "no such move in Kuhn poker",
    "game_over": "the hand is over (a player folded, or the cards were shown)",
    "deal_expected": "the cards are being dealt: apply one of state.chance_outcomes()",
    "wrong_player_dealt": "the cards are dealt in turn: player 0's first, then player 1's",
    "card_dealt": "that card is dealt already (the two players hold different cards)",
    "not_chance": "a deal is not a player's move: 'pass' or 'bet'",
    "legal": "the move is legal",
}

#: How the betting ended: a fold or a showdown (boardrules' Termination members for
#: betting games).
FOLD = Termination.FOLD
SHOWDOWN = Termination.SHOWDOWN


class KuhnPokerGame(Game["KuhnPokerState", KuhnPokerMove]):
    """Kuhn poker: three cards, two players, one betting round.  It has no options:
    ``boardrules.load("kuhn_poker")``."""

    id: ClassVar[str] = "kuhn_poker"
    name: ClassVar[str] = "Kuhn poker"
    rules_version: ClassVar[str] = "1.0"
    illegal_reasons: ClassVar[Mapping[str, str]] = ILLEGAL_REASONS
    max_move_text: ClassVar[int] = MAX_MOVE_TEXT
    notation_hint: ClassVar[str] = (
        "'pass' or 'bet'; a deal (a chance outcome) is 'deal J to 0' .. 'deal K to 1'")
    example_options: ClassVar[tuple[dict[str, Any], ...]] = ({},)
    _core: KuhnPokerCore

    def __init__(self) -> None:
        self._install(KuhnPokerCore(), {}, build_move_table)

    # --- the observation tensor (observation.py) ---

    def _observation_layout(self) -> ObservationLayout:
        return observation.LAYOUT

    def _observation_from_view(self, view: Mapping[str, Any], player: int) -> Observation:
        return observation.observation_from_view(view, player)

    def _normalise(self, text: str) -> str:
        return normalise(text)

    # --- what a player may know of the moves and events ---

    def _redact(self, move: KuhnPokerMove, mover: int, viewer: int | None) -> str:
        """A card dealt to another player is dealt face down: ``deal ? to 1``."""
        if move.kind == "deal" and move.player != viewer:
            assert move.player is not None
            return deal_text("?", move.player)
        return str(move)

    def _redacted_locations(self, text: str) -> tuple[str, ...] | None:
        """``deal ? to 1`` in a log: a move without a location (there is no board)."""
        return () if text in ("deal ? to 0", "deal ? to 1") else None

    def _redact_event(self, event: Event, viewer: int | None) -> Event | None:
        return redact(event, viewer)

    # --- positions and events (position.py, events.py) ---

    def _position_text(self, raw: dict[str, Any]) -> str:
        return position_text(raw)

    def _position_raw(self, text: str) -> dict[str, Any]:
        return position_raw(text)

    def _events(self, before: dict[str, Any], action: int, mover: int,
                after: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        return kuhn_poker_events(before, action, mover, after)

    # --- pictures (render.py) ---

    def render_view_svg(self, view: Mapping[str, Any], *, highlight: Sequence[str] = (),
                        marks: Sequence[tuple[str, str]] = (),
                        arrows: Sequence[tuple[str, str]] = (),
                        size: int | None = None) -> str:
        """The hands of ``view``; Kuhn poker has no board, so it has no locations to
        highlight, mark or point at (any given is a ``ValueError``)."""
        from boardrules_kuhn_poker.render import render_svg

        for location in [*highlight, *(m[0] for m in marks), *(a[0] for a in arrows)]:
            raise ValueError(f"Kuhn poker has no board location {location!r}")
        return render_svg(self._check_view(view), size=60 if size is None else size)

    def render_view_text(self, view: Mapping[str, Any]) -> str:
        from boardrules_kuhn_poker.render import render_text

        return render_text(self._check_view(view))


class KuhnPokerState(State[KuhnPokerMove]):
    """A Kuhn poker hand in progress."""

    __slots__ = ()
    _game: KuhnPokerGame

    @property
    def game(self) -> KuhnPokerGame:
        """The game this is a state of, as its own class."""
        return self._game

    # --- results ---

    def score(self) -> tuple[int, ...]:
        """The chips each player won (+) or lost (-) at the end: the winner gains what
        the loser put in; (0, 0) until then."""
        raw = self._raw()
        winner = raw["winner"]
        if winner < 0:
            return (0, 0)
        chips = raw["pot"][1 - winner]
        return tuple(chips if p == winner else -chips for p in range(2))

    def outcome(self) -> Outcome | None:
        """The winner (ranked 1, the loser 2): the player who did not fold, or the higher
        card at a showdown.  Kuhn poker has no draw."""
        if self._core.current_player != TERMINAL:
            return None
        raw = self._raw()
        winner = raw["winner"]
        scores = self.score()
        return Outcome(
            winners=(winner,),
            ranking=tuple(1 if p == winner else 2 for p in range(2)),
            scores=scores,
            team_scores=tuple(sum(scores[p] for p in team) for team in self._game.teams),
            returns=self.returns(),
            reason=SHOWDOWN if raw["showdown"] else FOLD,
        )

    # --- what each player sees: his own card, the other's at a showdown ---

    def _cards_seen(self, raw: dict[str, Any], player: int | None) -> list[str | None]:
        return [None if c < 0 else CARDS[c] if p == player or raw["showdown"] else "?"
                for p, c in enumerate(raw["cards"])]

    # The view's own TypedDict (views.py) narrows State.view's Mapping[str, Any].
    def view(self, player: int | None) -> KuhnPokerView:
        """The hand as ``player`` sees it (``None``: a spectator), JSON-ready: his own
        card, the other's face down (``"?"``) until a showdown shows both; the chips in,
        the betting, and ``legal_moves`` for the player to move."""
        self._check_viewer(player)
        raw = self._raw()
        return {
            "game": self._game.id,
            "options": dict(self._game.options),
            "viewer": player,
            "current_player": self.current_player,
            "cards": self._cards_seen(raw, player),
            "pot": list(raw["pot"]),
            "betting": [("pass", "bet")[a] for a in raw["betting"]],
            "winner": raw["winner"] if raw["winner"] >= 0 else None,
            "showdown": raw["showdown"],
            "legal_moves": ([str(m) for m in self.legal_moves()]
                            if player is not None and player == self.current_player else []),
        }

    def _viewer_chance_outcomes(self, viewer: int) -> list[tuple[int, float]]:
        """A deal as ``viewer`` sees it: any card he does not hold, uniformly -- for
        player 1's card, player 1 cannot rule out player 0's (which he has not seen)."""
        raw = self._raw()
        player = 0 if raw["cards"][0] < 0 else 1
        own = raw["cards"][viewer]
        unseen = [c for c in range(len(CARDS)) if c != own]
        return [(DEAL + len(CARDS) * player + c, 1.0 / len(unseen)) for c in unseen]

    def invariants(self) -> dict[str, tuple[int, int]]:
        """Every chip and card accounted for: the chips in are the two antes plus one a
        bet; the cards dealt are different, player 0's first; no betting before both
        cards are dealt; the stakes never differ by more than the one chip of a bet."""
        raw = self._raw()
        cards, pot, betting = raw["cards"], raw["pot"], raw["betting"]
        dealt = [c for c in cards if c >= 0]
        return {
            "chips": (sum(pot), 2 + sum(betting)),
            "distinct_cards": (len(set(dealt)), len(dealt)),
            "deal_order": (int(cards[0] < 0 <= cards[1]), 0),
            "betting_after_deal": (len(betting) if len(dealt) < 2 else 0, 0),
            "stakes": (abs(pot[0] - pot[1]), int(pot[0] != pot[1])),
        }

    # --- persistence ---

    def _snapshot(self) -> dict[str, Any]:
        raw = self._raw()
        return {
            "cards": [CARDS[c] if c >= 0 else None for c in raw["cards"]],
            "pot": list(raw["pot"]),
            "betting": list(raw["betting"]),
            "winner": raw["winner"] if raw["winner"] >= 0 else None,
        }

    # --- pictures ---

    def render_text(self, player: int | None = None) -> str:
        """The hands as text (``print(state)`` shows a spectator's), as ``player`` may
        see them, with the last events."""
        from boardrules_kuhn_poker.events import describe
        text = self._game.render_view_text(self.view(player))
        last = self.last_events(player)
        if last:
            text += "\nlast: " + "; ".join(describe(event) for event in last)
        return text

    def render_svg(self, player: int | None = None, *, highlight: Sequence[str] = (),
                   marks: Sequence[tuple[str, str]] = (),
                   arrows: Sequence[tuple[str, str]] = (), size: int = 60) -> str:
        """An SVG picture of what ``player`` may see (cards ``size`` pixels high)."""
        return self._game.render_view_svg(self.view(player), highlight=highlight, marks=marks,
                                          arrows=arrows, size=size)

    def render_svg_truth(self, *, highlight: Sequence[str] = (),
                         marks: Sequence[tuple[str, str]] = (),
                         arrows: Sequence[tuple[str, str]] = (), size: int = 60) -> str:
        """An SVG picture of the whole truth: both cards face up (for analysis, never for
        a player)."""
        view = self.view(None)
        view["cards"] = [CARDS[c] if c >= 0 else None for c in self._raw()["cards"]]
        return self._game.render_view_svg(view, highlight=highlight, marks=marks,
                                          arrows=arrows, size=size)


KuhnPokerGame.state_class = KuhnPokerState

__all__ = ["KuhnPokerGame", "KuhnPokerMove", "KuhnPokerState"]
