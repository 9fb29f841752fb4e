"""Pig's observation tensor: its legend and its reference from a view.

The core writes it (``pig_observation`` in ``src_ext/boardrules/_ext/pig.pyx``);
:func:`observation_from_view` computes the same floats from ``view(player)`` for the
conformance suite.  Pig hides nothing; seats are relative to the observer (his own first).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from boardrules.observations import Observation, ObservationLayout, ObservationWriter

PHASES = ("decide", "rolling", "over")

LAYOUT = ObservationLayout([
    ("scores", (2,), "banked points: the observer's, then the opponent's (the winner's "
                     "last turn included: at most 19 + 6)", 25),
    ("turn_total", (1,), "points of the turn in progress (lost on a 1)", 25),
    ("turn_player", (2,), "1.0 for the seat whose turn it is (observer, opponent)"),
    ("phase", (3,), "one-hot: deciding (roll or hold), the die rolling, the game over"),
    ("last_die", (7,), "one-hot: no die rolled yet, then faces 1 to 6 of the last roll"),
    ("turns", (1,), "turns completed (a turn ends on hold or a 1; 40 end the game)", 40),
    ("to_move", (2,), "1.0 for the seat to move (observer, opponent); both 0 while the die "
                      "rolls and at the end"),
])


def observation_from_view(view: Mapping[str, Any], player: int) -> Observation:
    out = ObservationWriter(LAYOUT)
    for seat, score in enumerate(view["scores"]):
        out["scores"][(seat - player) % 2] = score
    out["turn_total"][0] = view["turn_total"]
    out.one_hot("turn_player", (view["turn_player"] - player) % 2)
    out.one_hot("phase", PHASES.index(view["phase"]))
    out.one_hot("last_die", view["last_die"] or 0)  # None before the first roll
    out["turns"][0] = view["turns"]
    if view["current_player"] >= 0:
        out.one_hot("to_move", (view["current_player"] - player) % 2)
    return out.array
