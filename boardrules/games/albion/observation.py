"""Albion's observation tensor: its legend and its reference from a view.

The core writes it (``al_observation`` in ``src_ext/boardrules/_ext/albion.pyx``);
:func:`observation_from_view` computes the same floats from ``view(player)`` alone, for
the conformance suite.  The conventions (docs/albion.rst, "Observation tensor"):

* Albion hides nothing (the face-down Picts are unknown to *everyone* and shown as
  counts), so every player's tensor carries the whole view; only the seat order differs;
* seats are relative to the observer: a per-seat field lists seat ``(player + k) %
  players`` at index ``k`` (his own first, then the next in turn order, clockwise);
* per-region fields follow the board's region order (``game.board.regions``);
* categories are one-hot (all 0 when there is none: no building, no build in progress,
  nobody to move at a Pict or at the end); counts are plain counts, not scaled.

The size depends on the players ``P`` and the board's regions ``R``: ``13 R + 8 P R +
20 P + 34`` floats (915 for two players on the shipped board of 29 regions, 1,167 for
three, 1,419 for four).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from boardrules.observations import Observation, ObservationLayout, ObservationWriter

#: The region kinds (one-hot order), as in the view's ``kind``.
KINDS = ("launch", "light", "start", "dark", "fish", "wood", "stone", "gold")
#: The building types (one-hot order; no building: all 0).
TYPES = ("settlement", "fortress", "rampart", "plant")
#: The phases (one-hot order), as :attr:`AlbionState.phase`.
PHASES = ("setup", "move", "build", "pay", "tribute", "reveal", "loss", "figure", "free",
          "over")
RESOURCES = ("fish", "wood", "stone", "gold")
END_REASONS = ("three_settlements", "round_cap")
#: "Tribute Payment with the Building": at most three tribute takers.
MAX_TAKERS = 3
#: The fields' highest values (their Gymnasium bounds), from "Contents": 35 Picts (17
#: peace, 18 assault), 4 settlers and 3 legionnaires a colour, 24 neutral movement markers,
#: at most 24 of a resource (the fish), 4 stages a building, 3 settlements, 2 ramparts and 4
#: plants a colour; the round cap's limit; movement points as the core keeps them (8 bits).
PICTS = 35
SETTLERS = 4
LEGIONS = 3
NEUTRAL_MARKERS = 24
RESOURCE_MAX = 24
STAGES = 4
SETTLEMENTS = 3
RAMPARTS = 2
PLANTS = 4
MAX_ROUNDS = 10_000
POINTS = 255


@cache
def observation_layout(num_players: int, num_regions: int) -> ObservationLayout:
    """The legend for ``num_players`` players on a board of ``num_regions`` regions."""
    p, r = num_players, num_regions
    return ObservationLayout([
        ("region_kind", (r, len(KINDS)), "one-hot per region: launch, light, start, dark, "
                                         "fish, wood, stone, gold"),
        ("laurel", (r,), "1.0 for a region with a laurel wreath"),
        ("printed_assault", (r,), "assault Picts printed in the region", PICTS),
        ("face_down", (r,), "face-down Picts in the region (unknown to everyone: a count)",
         PICTS),
        ("assault", (r,), "face-up assault Picts in the region", PICTS),
        ("building_type", (p, len(TYPES), r), "1.0 where a seat has a building of that type "
                                              "[seat, settlement/fortress/rampart/plant, "
                                              "region]"),
        ("building_stage", (p, r), "stages of a seat's building in a region, the stage being "
                                   "built (face down) counted", STAGES),
        ("building_face_down", (p, r), "1.0 where the top stage is the face-down token being "
                                       "built"),
        ("settlers", (p, r), "a seat's settlers in a region", SETTLERS),
        ("legions", (p, r), "a seat's legionnaires in a region", LEGIONS),
        ("resources", (p, len(RESOURCES)), "a seat's fish, wood, stone, gold", RESOURCE_MAX),
        ("movement", (p,), "a seat's movement markers (his own and the neutral ones)",
         1 + NEUTRAL_MARKERS),
        ("settlers_in_supply", (p,), "a seat's settlers still in his play area", SETTLERS),
        ("legions_in_supply", (p,), "a seat's legionnaires still in his play area", LEGIONS),
        ("defence", (p,), "a seat's face-up rampart stages (defence everywhere)",
         RAMPARTS * STAGES),
        ("production", (p, len(RESOURCES)), "what Take Resources gives a seat (his plants' "
                                             "stages)", PLANTS * STAGES),
        ("stage4", (p,), "a seat's stage IV settlements", SETTLEMENTS),
        ("start_player", (p,), "1.0 for the start player's seat"),
        ("supply", (len(RESOURCES),), "fish, wood, stone, gold in the supply", RESOURCE_MAX),
        ("neutral_markers", (1,), "neutral movement markers left in the supply",
         NEUTRAL_MARKERS),
        ("picts", (3,), "unrevealed assault Picts, unrevealed peace Picts (face down on the "
                        "board and the 2 in the box), Picts in the box", PICTS),
        ("phase", (len(PHASES),), "one-hot: setup, move, build, pay, tribute, reveal (a "
                                  "Pict turned over: chance), loss, figure, free, over"),
        ("turn_player", (p,), "1.0 for the seat whose turn it is"),
        ("to_move", (p,), "1.0 for the seat who decides now; all 0 at a Pict and at the end"),
        ("round", (1,), "the round (from 1)", MAX_ROUNDS),
        ("max_rounds", (1,), "the round cap (the option)", MAX_ROUNDS),
        ("points_left", (1,), "movement points left (0 outside the movement)", POINTS),
        ("build_region", (r,), "one-hot: the region of the stage being built (all 0: none)"),
        ("build_type", (len(TYPES),), "one-hot: the type of the building being built"),
        ("build_stage", (1,), "the stage being built (0: none)", STAGES),
        ("build_free", (1,), "1.0 when it is settlement III's free development"),
        ("build_paid_left", (len(RESOURCES),), "1.0 for each paid resource still to be "
                                               "shared as tribute"),
        ("tribute_takers", (MAX_TAKERS, p), "one-hot per row: the tribute takers still to "
                                            "pick, in the rule's order"),
        ("end_triggered", (1,), "1.0 once a player has three stage IV settlements (the "
                                "round is played out)"),
        ("winners", (p,), "1.0 for each winner's seat, at the end"),
        ("end_reason", (len(END_REASONS),), "one-hot at the end: three settlements, the "
                                            "round cap"),
    ])


def observation_from_view(view: Mapping[str, Any], player: int) -> Observation:
    """``player``'s tensor from his view only (no truth read)."""
    regions = view["regions"]
    players = view["players"]
    n = len(players)
    out = ObservationWriter(observation_layout(n, len(regions)))

    def seat(q: int) -> int:
        return (q - player) % n

    for r, region in enumerate(regions):
        out.one_hot("region_kind", KINDS.index(region["kind"]), r)
        out["laurel"][r] = float(region["laurel"])
        out["printed_assault"][r] = region["printed_assault"]
        out["face_down"][r] = region["face_down"]
        out["assault"][r] = region["assault"]
        for b in region["buildings"]:
            k = seat(b["player"])
            out["building_type"][k, TYPES.index(b["type"]), r] = 1.0
            out["building_stage"][k, r] = b["stage"]
            out["building_face_down"][k, r] = float(b["face_down"])
        for q in range(n):
            out["settlers"][seat(q), r] = region["settlers"][q]
            out["legions"][seat(q), r] = region["legions"][q]
    for q, pv in enumerate(players):
        k = seat(q)
        for i, kind in enumerate(RESOURCES):
            out["resources"][k, i] = pv["resources"][kind]
            out["production"][k, i] = pv["production"][kind]
        out["movement"][k] = pv["movement"]
        out["settlers_in_supply"][k] = pv["settlers_in_supply"]
        out["legions_in_supply"][k] = pv["legions_in_supply"]
        out["defence"][k] = pv["defence"]
        out["stage4"][k] = pv["stage4"]
    out.one_hot("start_player", seat(view["start_player"]))
    for i, kind in enumerate(RESOURCES):
        out["supply"][i] = view["supply"][kind]
    out["neutral_markers"][0] = view["neutral_markers"]
    picts = view["picts"]
    out["picts"][:] = (picts["assault_unrevealed"], picts["peace_unrevealed"],
                       picts["in_box"])
    out.one_hot("phase", PHASES.index(view["phase"]))
    out.one_hot("turn_player", seat(view["turn_player"]))
    if view["current_player"] >= 0:
        out.one_hot("to_move", seat(view["current_player"]))
    out["round"][0] = view["round"]
    out["max_rounds"][0] = view["max_rounds"]
    out["points_left"][0] = view["points_left"]
    build = view["build"]
    if build is not None:
        keys = [region["region"] for region in regions]
        out.one_hot("build_region", keys.index(build["region"]))
        out.one_hot("build_type", TYPES.index(build["type"]))
        out["build_stage"][0] = build["stage"]
        out["build_free"][0] = float(build["free"])
        for kind in build["paid_left"]:
            out["build_paid_left"][RESOURCES.index(kind)] = 1.0
        for row, taker in enumerate(build["tribute_takers"]):
            out.one_hot("tribute_takers", seat(taker), row)
    out["end_triggered"][0] = float(view["end_triggered"])
    for q in view["winners"] or ():
        out.one_hot("winners", seat(q))
    if view["end_reason"] is not None:
        out.one_hot("end_reason", END_REASONS.index(view["end_reason"]))
    return out.array
