"""Kuhn poker's observation tensor: its legend and its reference from a view.

The core writes it (``kuhn_observation`` in ``_core.pyx``); :func:`observation_from_view`
computes the same floats from ``view(player)`` for the conformance suite.  Seats are
relative to the observer (his own first); the betting is in the order it was made
(player 0 acts first).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from boardrules.observations import Observation, ObservationLayout, ObservationWriter

from boardrules_kuhn_poker.moves import CARDS

LAYOUT = ObservationLayout([
    ("card", (3,), "one-hot: the observer's card, J, Q or K (all 0 before it is dealt)"),
    ("opponent_card", (3,), "one-hot: the opponent's card, shown at a showdown only"),
    ("dealt", (2,), "1.0 for each seat holding a card (observer, opponent)"),
    ("betting", (3, 2), "for each betting action in order (player 0's first): one-hot "
                        "pass, bet; all 0 for an action not made"),
    ("pot", (2,), "chips put in (observer, opponent): the ante 1, plus 1 for a bet", 2),
    ("to_move", (2,), "1.0 for the seat to move (observer, opponent); both 0 at the deal "
                      "and at the end"),
])


def observation_from_view(view: Mapping[str, Any], player: int) -> Observation:
    out = ObservationWriter(LAYOUT)
    for seat, card in enumerate(view["cards"]):
        k = (seat - player) % 2
        if card is not None:
            out["dealt"][k] = 1.0
        if card in ("J", "Q", "K"):
            out.one_hot("card" if k == 0 else "opponent_card", CARDS.index(card))
        out["pot"][k] = view["pot"][seat]
    for i, action in enumerate(view["betting"]):
        out.one_hot("betting", ("pass", "bet").index(action), i)
    if view["current_player"] >= 0:
        out.one_hot("to_move", (view["current_player"] - player) % 2)
    return out.array
