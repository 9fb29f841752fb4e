"""The shape of :meth:`ArmadaState.view <boardrules.games.armada.ArmadaState.view>`
(docs/armada.rst, "View"), as TypedDicts for type checkers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypedDict


class CoupView(TypedDict):
    """A Coup de main being played."""

    colour: str
    actions_left: int
    interrupted_actions_left: int


class ColourView(TypedDict):
    """One colour (all four are listed, in turn order)."""

    colour: str
    player: int | None
    in_play: bool
    neutral: bool
    pool: int
    bands: int
    bands_on_ships: int
    flags: int
    victory_option: bool
    in_victory: bool


class PlayerView(TypedDict):
    """One player: his colours, his hand's size, and his hand (to him alone)."""

    player: int
    colours: list[str]
    hand_size: int
    hand: dict[str, int] | None


class TerritoryView(TypedDict):
    """One territory, in board order."""

    territory: str
    flag: str | None
    explored: bool
    colour: str | None
    bands: int
    gold: int
    natives: int


class ShipView(TypedDict):
    """One of the 8 ships."""

    ship: int
    owner: str
    where: str
    at: str | None
    crew: str | None
    bands: int
    gold: int
    captured: bool


class SupplyView(TypedDict):
    gold: int
    natives: int


class ArmadaView(TypedDict):
    """What a viewer may see, JSON-ready."""

    game: str
    options: Mapping[str, Any]
    viewer: int | None
    phase: str
    current_player: int
    turn_colour: str
    acting_colour: str
    round: int
    max_rounds: int
    actions_left: int
    coup: CoupView | None
    colours: list[ColourView]
    players: list[PlayerView]
    territories: list[TerritoryView]
    ships: list[ShipView]
    supply: SupplyView
    #: the pile's size
    deck: int
    #: the cards a Grand strategist has set aside
    set_aside: int
    played: dict[str, int]
    #: the pending sub-decision (its ``kind`` says which fields it has), or None
    pending: dict[str, Any] | None
    winners: list[int] | None
    end_reason: str | None
    legal_moves: list[str]
