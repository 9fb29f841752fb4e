"""The shape of :meth:`KuhnPokerState.view <boardrules_kuhn_poker.KuhnPokerState.view>`,
as a TypedDict for type checkers."""

from __future__ import annotations

from typing import Any, TypedDict


class KuhnPokerView(TypedDict):
    """The hand as one player (or a spectator) sees it, JSON-ready."""

    game: str
    options: dict[str, Any]
    viewer: int | None
    current_player: int
    #: per player: ``"J"``, ``"Q"`` or ``"K"`` when the viewer may see it (his own card;
    #: both at a showdown), ``"?"`` for a card dealt face down, ``None`` before the deal
    cards: list[str | None]
    #: the chips each player has put in (the ante 1, plus 1 for a bet)
    pot: list[int]
    #: the betting actions so far, in order: ``"pass"`` or ``"bet"``
    betting: list[str]
    #: the winner at the end, else ``None``
    winner: int | None
    #: whether the hand ended with the cards shown
    showdown: bool
    legal_moves: list[str]
