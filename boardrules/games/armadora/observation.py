"""Armadora's observation tensor: its legend and its reference from a view.

The core writes it (``ar_observation`` in ``src_ext/boardrules/_ext/armadora.pyx``);
:func:`observation_from_view` computes the same floats from ``view(player)`` alone, for
the conformance suite.  The conventions (docs/armadora.rst, "Observation tensor"):

* seats are relative to the observer: a per-seat field lists his own seat first, then
  the next in turn order (seat ``(player + k) % players`` at index ``k``); in the 4-player
  game his partner is index 2;
* board planes have shape ``(height, width)`` in cell order (``y * width + x``: row 0 is
  the title edge ``1``, column 0 is ``a``), one plane per seat or per category;
* one-hot flags are 0.0 / 1.0, counts (arrows, gold, warriors, tokens, palisades) are
  plain counts;
* only what the view shows: a face-down strength the observer may not see is index 0
  ("unseen") of the ``strength`` one-hot, the others' screens show only their
  ``warriors_left``; the value a Mage just looked at without ``look_at_face_down`` (the
  view's ``peek``) shows in ``strength`` while the view shows it;
* the size depends on the players, the variant (the advanced game's race, token and
  face-up fields) and the board's size: :func:`observation_layout`.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from boardrules.games.armadora.moves import COLUMNS, RACES
from boardrules.observations import FieldSpec, Observation, ObservationLayout, ObservationWriter

PHASES = ("gold", "race", "turn", "after_power", "second_palisade", "over")
#: Printed warrior strengths 1..5 (rule 2.3); index 0 of ``strength`` is "unseen".
MAX_STRENGTH = 5
#: The gold pile sizes, 3..7 (rule 2.5: 3, 4, 4, 5, 5, 6, 6, 7).
PILE_SIZES = (3, 4, 5, 6, 7)
#: The fields' highest values (their Gymnasium bounds): at most two piles of a size (rule
#: 2.5); 11 warriors of strength 1 and 16 in all behind a screen (rule 2.3, 2 players);
#: 2 ability tokens (Elves and Mages, rule 7.1.2), so 2 elf arrows; 35 palisades (rule 1).
MAX_PILES_OF_A_SIZE = 2
MAX_OF_A_STRENGTH = 11
MAX_WARRIORS = 16
MAX_TOKENS = 2
MAX_ARROWS = 2
PALISADES = 35


@lru_cache(maxsize=64)
def observation_layout(num_players: int, advanced: bool, width: int,
                       height: int) -> ObservationLayout:
    """The legend for ``num_players`` on a ``width`` x ``height`` board; the advanced
    game adds the face-up, arrow and reinforcement planes and the races and tokens."""
    n, cells = num_players, (height, width)
    board: list[FieldSpec] = [
        ("warriors", (n, *cells), "1.0 where a seat has a warrior, [seat, row, column]: "
                                  "the observer's, then the next seats in turn order"),
        ("strength", (MAX_STRENGTH + 1, *cells),
         "one-hot per warrior: [0] its strength is hidden from the observer, [1..5] its "
         "printed strength (his own with look_at_face_down, face-up ones, those his Mage "
         "looked at, every one once the game is over)"),
    ]
    if advanced:
        board += [
            ("face_up", cells, "1.0 on a face-up warrior (the Goblin's)"),
            ("arrows", cells, "elf arrows on the warrior (each -1 at scoring)",
             MAX_ARROWS),
            ("reinforced", cells, "1.0 on the warrior holding a reinforcement token (+1)"),
        ]
    board += [
        ("mines", cells, "1.0 on a gold-mine square"),
        ("gold", cells, "gold on the mine once its pile is placed (0 before)",
         max(PILE_SIZES)),
        ("palisades", (2, *cells), "1.0 where a palisade stands: [0] on the square's east "
                                   "side, [1] on its south side"),
        ("territory_size", cells, "squares in the square's territory", width * height),
        ("territory_empty", cells, "empty squares (no warrior, no mine) in the square's "
                                   "territory", width * height),
        ("pool", (MAX_STRENGTH,), "the observer's warriors behind his screen, by strength "
                                  "1..5", MAX_OF_A_STRENGTH),
        ("warriors_left", (n,), "warriors behind each seat's screen", MAX_WARRIORS),
        ("passed", (n,), "1.0 for a seat that has ended (passed) for the game"),
    ]
    if advanced:
        board += [
            ("race", (n, len(RACES)), "one-hot per seat: orc, goblin, elf, mage (all 0 "
                                      "until dealt)"),
            ("power_tokens", (n,), "ability tokens each seat has left", MAX_TOKENS),
            ("reinforcement_left", (n,), "1.0 while a seat still holds his reinforcement "
                                         "token"),
        ]
    board += [
        ("palisades_left", (1,), "palisades in the common supply", PALISADES),
        ("unplaced_gold", (len(PILE_SIZES),), "gold piles not yet on a mine, by size 3..7",
         MAX_PILES_OF_A_SIZE),
        ("phase", (len(PHASES),), "one-hot: gold, race (setup chance), turn, after_power, "
                                  "second_palisade, over"),
        ("to_move", (n,), "1.0 for the seat to move; all 0 at chance and at the end"),
    ]
    return ObservationLayout(board)


def layout_of_view(view: Mapping[str, Any]) -> ObservationLayout:
    return observation_layout(len(view["players"]), view["options"]["variant"] == "advanced",
                              view["width"], view["height"])


def _cell(square: str, width: int) -> int:
    return (int(square[1:]) - 1) * width + COLUMNS.index(square[0])


def observation_from_view(view: Mapping[str, Any], player: int) -> Observation:
    """``player``'s tensor computed from ``view(player)`` alone (never the truth)."""
    layout = layout_of_view(view)
    out = ObservationWriter(layout)
    width: int = view["width"]
    n = len(view["players"])
    advanced = view["options"]["variant"] == "advanced"

    def at(cell: int) -> tuple[int, int]:
        return cell // width, cell % width

    empty: set[int] = set()
    for cell, square in enumerate(view["squares"]):
        y, x = at(cell)
        if square["mine"]:
            out["mines"][y, x] = 1.0
            out["gold"][y, x] = square["gold"] or 0
        warrior = square["warrior"]
        if warrior is None:
            if not square["mine"]:
                empty.add(cell)
            continue
        out["warriors"][(warrior["owner"] - player) % n, y, x] = 1.0
        out["strength"][warrior["strength"] or 0, y, x] = 1.0  # strengths are 1..5
        if advanced:
            out["face_up"][y, x] = warrior["face_up"]
            out["arrows"][y, x] = warrior["arrows"]
            out["reinforced"][y, x] = warrior["reinforced"]
    peek = view.get("peek")
    if peek is not None:  # the Mage's value, shown right after his peek
        y, x = at(_cell(peek["square"], width))
        out["strength"][:, y, x] = 0.0
        out["strength"][peek["strength"], y, x] = 1.0
    for gap in view["palisades"]:
        a, b = (_cell(name, width) for name in gap.split("-"))
        out["palisades"][(0 if b == a + 1 else 1, *at(a))] = 1.0
    for territory in view["territories"]:
        cells = [_cell(name, width) for name in territory]
        room = sum(1 for c in cells if c in empty)
        for c in cells:
            out["territory_size"][at(c)] = len(cells)
            out["territory_empty"][at(c)] = room
    for entry in view["players"]:
        seat = (entry["player"] - player) % n
        out["warriors_left"][seat] = entry["warriors_left"]
        out["passed"][seat] = entry["passed"]
        if entry["player"] == player:
            out["pool"][:] = entry["pool"]
        if advanced:
            out.one_hot("race", None if entry["race"] is None else RACES.index(entry["race"]),
                        seat)
            out["power_tokens"][seat] = entry["power_tokens"]
            out["reinforcement_left"][seat] = entry["reinforcement_left"]
    out["palisades_left"][0] = view["palisades_left"]
    for pile in view["unplaced_gold"]:
        out["unplaced_gold"][PILE_SIZES.index(pile)] += 1
    out.one_hot("phase", PHASES.index(view["phase"]))
    if view["current_player"] >= 0:
        out.one_hot("to_move", (view["current_player"] - player) % n)
    return out.array
