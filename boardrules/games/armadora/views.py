"""The shape of :meth:`ArmadoraState.view <boardrules.games.armadora.ArmadoraState.view>`
(docs/armadora.rst, section "View", field by field), as TypedDicts for type checkers."""

from __future__ import annotations

from typing import Any, TypedDict


class ArmadoraWarriorView(TypedDict):
    """A warrior on a square."""

    owner: int
    #: ``None`` to a viewer who may not see it (rule 3: face down)
    strength: int | None
    face_up: bool
    arrows: int
    reinforced: bool


class ArmadoraSquareView(TypedDict):
    """One square of the board, in cell order (``y * width + x``)."""

    square: str
    mine: bool
    #: the pile on a mine once placed, else ``None``
    gold: int | None
    warrior: ArmadoraWarriorView | None


class ArmadoraPlayerView(TypedDict):
    """One player as the viewer sees him."""

    player: int
    team: int
    race: str | None
    power_tokens: int
    reinforcement_left: bool
    passed: bool
    warriors_left: int
    #: warriors behind the screen by strength 1..5: the viewer's own only, else ``None``
    pool: list[int] | None


class ArmadoraPeekView(TypedDict):
    """The value a Mage just looked at (``look_at_face_down=False`` only)."""

    square: str
    strength: int


class _ArmadoraViewFields(TypedDict):
    """The fields every view has."""

    game: str
    options: dict[str, Any]
    viewer: int | None
    phase: str
    current_player: int
    width: int
    height: int
    squares: list[ArmadoraSquareView]
    palisades: list[str]
    palisades_left: int
    territories: list[list[str]]
    unplaced_gold: list[int]
    players: list[ArmadoraPlayerView]
    legal_moves: list[str]


class ArmadoraView(_ArmadoraViewFields, total=False):
    """What one viewer may see of an Armadora state, JSON-ready (``peek`` only right
    after a Mage's peek, with ``look_at_face_down=False``, in the Mage's view)."""

    peek: ArmadoraPeekView
