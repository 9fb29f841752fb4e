"""The shape of :meth:`AlbionState.view <boardrules.games.albion.AlbionState.view>`
(docs/albion.rst, "The view"): TypedDicts for type checkers, nested ones too.  Albion
hides nothing, so every viewer gets the same fields (``legal_moves`` only for the player
who decides)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypedDict


class ResourcesView(TypedDict):
    """Counts per resource."""

    fish: int
    wood: int
    stone: int
    gold: int


class BuildingView(TypedDict):
    """One player's building in a region."""

    player: int
    type: str            # settlement, fortress, rampart or plant
    stage: int           # the stage being built counts, face down
    face_down: bool      # the top stage is the token being built


class RegionView(TypedDict):
    region: str          # the region's key
    kind: str            # launch, light, start, dark, fish, wood, stone, gold
    face_down: int       # face-down Picts
    assault: int         # face-up assault Picts
    printed_assault: int
    laurel: bool
    buildings: list[BuildingView]
    settlers: list[int]  # per player
    legions: list[int]   # per player


class PlayerView(TypedDict):
    player: int
    resources: ResourcesView
    movement: int        # movement markers: his own and the neutral ones
    settlers_in_supply: int
    legions_in_supply: int
    defence: int         # his face-up rampart stages
    production: ResourcesView
    stage4: int
    start_player: bool


class PictsView(TypedDict):
    unrevealed: int      # on the board face down and the 2 in the box
    assault_unrevealed: int
    peace_unrevealed: int
    in_box: int


class BuildView(TypedDict):
    """The build in progress."""

    region: str
    type: str
    stage: int
    free: bool           # settlement III's free development
    paid_left: list[str]
    tribute_takers: list[int]


class AlbionView(TypedDict):
    game: str
    options: Mapping[str, Any]
    viewer: int | None
    phase: str
    current_player: int
    turn_player: int
    start_player: int
    round: int
    max_rounds: int
    regions: list[RegionView]
    players: list[PlayerView]
    supply: ResourcesView
    neutral_markers: int
    picts: PictsView
    points_left: int
    build: BuildView | None
    end_triggered: bool
    winners: list[int] | None
    end_reason: str | None
    legal_moves: list[str]
