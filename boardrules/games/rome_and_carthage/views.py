"""The shape of :meth:`RomeCarthageState.view`'s result, as TypedDicts (the docs page's
"Hidden information" describes each field): a type checker then knows what a client
reads from a view."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypedDict


class ArmyView(TypedDict):
    """An army: its empire, kind and the player who plays it."""

    empire: str
    kind: str
    player: int


class CityView(TypedDict):
    """A city: its resident army, an attacker during a battle, an army passing (R22)."""

    city: str
    army: ArmyView | None
    attacker: ArmyView | None
    passing: ArmyView | None


class PlayerView(TypedDict):
    """A player as the viewer sees him: ``hand`` and ``lost_cards`` are ``None`` unless
    the viewer may see his cards (himself; his ally except in Equal Arms)."""

    player: int
    team: int
    empires: list[str]
    hand_size: int
    hand: list[int] | None
    known: list[int]
    unknown: int
    lost: int
    lost_cards: list[int] | None
    armies: int
    eliminated: bool
    capital_occupied: bool


class SpecialsView(TypedDict):
    """Which special cards a player may still play (they lie face up)."""

    player: int
    treason: bool
    uprising: bool


class BattleView(TypedDict):
    """The battle being fought (``face_down_cards``: only to the attacker's side)."""

    city: str
    attacker: int
    defender: int
    round: str
    to_play: str | None
    face_down: int
    face_down_cards: list[int] | None
    spy: str | None
    totals: list[int] | None


class ForcedMarchView(TypedDict):
    """The turn's forced march: whether it is used, the points paid so far."""

    used: bool
    paid: int


class ClockView(TypedDict):
    """A team's victory clock (R4, R16): running, and complete turns counted."""

    team: int
    running: bool
    turns: int


class RomeCarthageView(TypedDict):
    """What :meth:`RomeCarthageState.view` returns.  In Equal Arms ``pile_size``,
    ``discard`` and ``discard_size`` hold one entry per team's pile."""

    game: str
    options: Mapping[str, Any]
    viewer: int | None
    phase: str
    current_player: int
    turn_player: int
    round: int
    cities: list[CityView]
    players: list[PlayerView]
    pile_size: int | list[int]
    discard: list[int] | list[list[int]]
    discard_size: int | list[int]
    removed: list[int]
    fifteens_removed: int
    fifteens_aside: int
    specials: list[SpecialsView]
    battle: BattleView | None
    forced_march: ForcedMarchView
    capitals_clock: list[ClockView]
    weak_and_capital_clock: list[ClockView]
    pass_bonus: bool
    quiet_turns: int
    winner_team: int | None
    end_reason: str | None
    legal_moves: list[str]
