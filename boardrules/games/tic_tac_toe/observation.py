"""Tic-tac-toe's observation tensor: its legend and its reference from a view.

The core writes it (``ttt_observation`` in ``src_ext/boardrules/_ext/tic_tac_toe.pyx``);
:func:`observation_from_view` computes the same floats from ``view(player)`` for the
conformance suite.  Seats are relative to the observer (his own first).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from boardrules.observations import Observation, ObservationLayout, ObservationWriter

#: Cells in reading order: ``3 * row + column``, row 1 (the top) first, "a1" is cell 0.
LAYOUT = ObservationLayout([
    ("marks", (2, 9), "1.0 where a seat has marked the cell (cell 3 * row + column, "
                      "a1 first): the observer's marks, then the opponent's"),
    ("to_move", (2,), "1.0 for the seat to move (observer, opponent); both 0 at the end"),
])


def observation_from_view(view: Mapping[str, Any], player: int) -> Observation:
    out = ObservationWriter(LAYOUT)
    symbols = view["symbols"]
    for row, line in enumerate(view["rows"]):
        for column, mark in enumerate(line):
            if mark in symbols:
                seat = symbols.index(mark)
                out["marks"][(seat - player) % 2, 3 * row + column] = 1.0
    if view["current_player"] >= 0:
        out.one_hot("to_move", (view["current_player"] - player) % 2)
    return out.array
