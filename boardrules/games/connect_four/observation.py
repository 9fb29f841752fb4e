"""Connect Four's observation tensor: its legend and its reference from a view.

The core writes it (``c4_observation`` in ``src_ext/boardrules/_ext/connect_four.pyx``);
:func:`observation_from_view` computes the same floats from ``view(player)`` for the
conformance suite.  Seats are relative to the observer (his own first).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from boardrules.observations import Observation, ObservationLayout, ObservationWriter

ROWS = 6
COLUMNS = 7

LAYOUT = ObservationLayout([
    ("discs", (2, COLUMNS, ROWS), "1.0 where a seat has a disc, [seat, column, row] with "
                                  "column 0 = a and row 0 at the bottom: the observer's "
                                  "discs, then the opponent's"),
    ("to_move", (2,), "1.0 for the seat to move (observer, opponent); both 0 at the end"),
])


def observation_from_view(view: Mapping[str, Any], player: int) -> Observation:
    out = ObservationWriter(LAYOUT)
    symbols = view["symbols"]
    for top_row, line in enumerate(view["rows"]):  # the view lists the top row first
        for column, mark in enumerate(line):
            if mark in symbols:
                seat = symbols.index(mark)
                out["discs"][(seat - player) % 2, column, ROWS - 1 - top_row] = 1.0
    if view["current_player"] >= 0:
        out.one_hot("to_move", (view["current_player"] - player) % 2)
    return out.array
