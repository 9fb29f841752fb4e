"""Albion moves and their notation.

Regions are named by their board key (``londinium``); figures by kind and region, so
identical settlers or legionnaires give one move, not several; resources by kind.

=============================  =========================================================
notation                       move
=============================  =========================================================
``fortress <r>``               Preparation: the starting fortress I (turn order)
``resources``                  action B, "Take Resources" (the whole turn)
``launch <r>``                 Fortress Stage III: a settler from the launching region
                               onto the stage III fortress in ``r`` (before moving)
``settler <a>-<b>``            move a settler; costs the boundaries crossed (shortest)
``legion <a>-<b>``             move a legionnaire
``carry <a>-<b>``              a legionnaire picks up a face-down Pict in ``a``, carries
                               it to ``b`` (through any region) and drops it there
``build <type> <r>``           a new ``settlement``, ``fortress``, ``rampart`` or
                               ``plant`` with a settler standing in ``r``
``develop <r>``                one stage more on one's building in ``r`` (a settler
                               there); after a settlement III, its free development
``remove <r>``                 voluntary removal of one's building in ``r``
``pay <kinds>``                the payment: ``pay fish``, ``pay wood+gold``, ...
``tribute <kind>``             a tribute taker picks one of the paid resources
``pict assault``, ``pict       chance: the face-down Pict turned over
peace``
``return settler <r>``,        a reduced settlement I/II: the figure its owner returns
``return legion <r>``
``reduce <r>``                 a reduced settlement III: the owner's other stage II or III
                               building that loses a stage
``take settler``, ``take       settlement I/II: the new figure
legion``
``skip``                       settlement III: no free development
``end``                        end the turn
=============================  =========================================================

A choice with one option only is made by the engine and never asked.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Literal

from boardrules.api import Move

MoveKind = Literal["fortress", "resources", "launch", "settler", "legion", "carry", "build",
                   "develop", "remove", "pay", "tribute", "pict", "return", "reduce",
                   "take", "skip", "end"]
RESOURCES = ("fish", "wood", "stone", "gold")
BUILDING_TYPES = ("settlement", "fortress", "rampart", "plant")


class AlbionMove(Move):
    """An Albion move.  ``kind`` says which; the other fields are ``None`` unless the kind
    uses them: ``region`` (the region acted on, a movement's start), ``to`` (a movement's
    destination), ``building`` (the type of a new building), ``resources`` (the kinds
    paid, in index order), ``resource`` (a tribute pick), ``figure`` (``settler`` or
    ``legion``: take / return), ``assault`` (a Pict turned over)."""

    __slots__ = ("assault", "building", "figure", "kind", "region", "resource", "resources",
                 "to")

    kind: MoveKind
    region: str | None
    to: str | None
    building: str | None
    resources: tuple[str, ...] | None
    resource: str | None
    figure: str | None
    assault: bool | None

    def __init__(self, action: int, game_key: tuple[Any, ...], kind: MoveKind, *,
                 region: str | None = None, to: str | None = None,
                 building: str | None = None, resources: tuple[str, ...] | None = None,
                 resource: str | None = None, figure: str | None = None,
                 assault: bool | None = None) -> None:
        self.kind = kind
        self.region = region
        self.to = to
        self.building = building
        self.resources = resources
        self.resource = resource
        self.figure = figure
        self.assault = assault
        super().__init__(action, self._notation(), game_key)

    @property
    def is_chance(self) -> bool:
        return self.kind == "pict"

    def _notation(self) -> str:
        kind = self.kind
        if kind in ("resources", "skip", "end"):
            return kind
        if kind in ("fortress", "launch", "develop", "remove", "reduce"):
            return f"{kind} {self.region}"
        if kind in ("settler", "legion", "carry"):
            return f"{kind} {self.region}-{self.to}"
        if kind == "build":
            return f"build {self.building} {self.region}"
        if kind == "pay":
            assert self.resources is not None
            return "pay " + "+".join(self.resources)
        if kind == "tribute":
            return f"tribute {self.resource}"
        if kind == "pict":
            return "pict assault" if self.assault else "pict peace"
        if kind == "return":
            return f"return {self.figure} {self.region}"
        return f"take {self.figure}"


def build_move_table(layout: dict[str, int], keys: Sequence[str], pay_masks: Sequence[int],
                     game_key: tuple[Any, ...]) -> list[AlbionMove]:
    """One move per action id, following the core's action layout."""
    n = len(keys)

    def move(kind: MoveKind, offset: int, **fields: Any) -> AlbionMove:
        return AlbionMove(layout[kind] + offset, game_key,
                          kind, **fields)

    table = [AlbionMove(layout["resources"], game_key, "resources"),
             AlbionMove(layout["end"], game_key, "end"),
             AlbionMove(layout["skip"], game_key, "skip"),
             AlbionMove(layout["take_settler"], game_key, "take", figure="settler"),
             AlbionMove(layout["take_legion"], game_key, "take", figure="legion")]
    table += [move("fortress", r, region=keys[r]) for r in range(n)]
    table += [move("launch", r, region=keys[r]) for r in range(n)]
    for kind in ("settler", "legion", "carry"):
        table += [move(kind, a * n + b, region=keys[a], to=keys[b])
                  for a in range(n) for b in range(n)]
    table += [move("build", i * n + r, region=keys[r], building=building)
              for i, building in enumerate(BUILDING_TYPES) for r in range(n)]
    table += [move("develop", r, region=keys[r]) for r in range(n)]
    table += [move("remove", r, region=keys[r]) for r in range(n)]
    table += [move("pay", i, resources=tuple(k for b, k in enumerate(RESOURCES)
                                             if mask >> b & 1))
              for i, mask in enumerate(pay_masks)]
    table += [move("tribute", k, resource=kind) for k, kind in enumerate(RESOURCES)]
    table += [move("return", r, region=keys[r], figure="settler") for r in range(n)]
    table += [move("return", n + r, region=keys[r], figure="legion") for r in range(n)]
    table += [move("reduce", r, region=keys[r]) for r in range(n)]
    table += [move("pict", 0, assault=True), move("pict", 1, assault=False)]
    assert [m.action for m in table] == list(range(layout["end_of_actions"])), \
        "move table out of order"
    return table


_SPACES = re.compile(r"\s+")
_AROUND = re.compile(r"\s*([+-])\s*")


def normalise(text: str) -> str:
    """Lower case, single spaces, no spaces around ``+`` and ``-``, and the kinds of
    ``pay`` in index order (fish, wood, stone, gold): the key of the parse table.  Read
    from the exact ``str`` of the characters: a ``str`` subclass's own methods (which may
    misbehave) are never called."""
    text = _AROUND.sub(r"\1", _SPACES.sub(" ", str.__str__(text).strip().lower()))
    if text.startswith("pay ") and "+" in text:
        parts = text[4:].split("+")
        if all(p in RESOURCES for p in parts) and len(set(parts)) == len(parts):
            return "pay " + "+".join(sorted(parts, key=RESOURCES.index))
    return text
