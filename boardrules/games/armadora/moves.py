"""Armadora moves and their notation.

Squares are named like a chess board: column letter ``a``.. then row number ``1``..,
row 1 along the title edge (``c2`` is x=2, y=1).  A palisade gap is named by the two
squares it separates, lower-numbered square first (``c2-d2``, ``c2-c3``).

========================  ===================================================
notation                  move
========================  ===================================================
``pass``                  end for the rest of the game (rule 4)
``3@c2``                  place a warrior of strength 3 face down on c2
``c2-d2``                 place a palisade between c2 and d2
``done``                  stop after the first palisade of a palisade action
``goblin 3@c2``           Goblin power: an extra warrior, face up
``orc c2-d2``             Orc power: an extra palisade
``peek c2``               Mage power: look at the face-down warrior on c2
``arrow c2``              Elf power: an arrow on the warrior on c2 (-1)
``reinforce c2``          the reinforcement token on one's own warrior on c2 (+1)
``gold 5``                chance: a pile of 5 gold goes onto the next mine
``race elf``              chance: the next player is dealt a race
========================  ===================================================
"""

from __future__ import annotations

import re
from typing import Any, Literal

from boardrules.api import Move

MoveKind = Literal[
    "pass", "done", "palisade", "warrior", "goblin", "orc", "peek", "arrow", "reinforce",
    "gold", "race",
]
RACES = ("orc", "goblin", "elf", "mage")
COLUMNS = "abcdefgh"


class ArmadoraMove(Move):
    """An Armadora move.  ``kind`` says which; the other fields are ``None`` unless the
    kind uses them."""

    __slots__ = ("edge", "gold", "kind", "race", "square", "strength")

    kind: MoveKind
    square: str | None
    edge: tuple[str, str] | None
    strength: int | None
    gold: int | None
    race: str | None

    def __init__(self, action: int, game_key: tuple[Any, ...], kind: MoveKind, *,
                 square: str | None = None, edge: tuple[str, str] | None = None,
                 strength: int | None = None, gold: int | None = None,
                 race: str | None = None) -> None:
        self.kind = kind
        self.square = square
        self.edge = edge
        self.strength = strength
        self.gold = gold
        self.race = race
        super().__init__(action, _notation(kind, square, edge, strength, gold, race), game_key)

    @property
    def is_chance(self) -> bool:
        return self.kind in ("gold", "race")

    @property
    def is_power(self) -> bool:
        """A race power (advanced game)."""
        return self.kind in ("goblin", "orc", "peek", "arrow")


def _notation(kind: MoveKind, square: str | None, edge: tuple[str, str] | None,
              strength: int | None, gold: int | None, race: str | None) -> str:
    if kind in ("pass", "done"):
        return kind
    if kind == "palisade":
        assert edge is not None
        return f"{edge[0]}-{edge[1]}"
    if kind == "orc":
        assert edge is not None
        return f"orc {edge[0]}-{edge[1]}"
    if kind == "warrior":
        return f"{strength}@{square}"
    if kind == "goblin":
        return f"goblin {strength}@{square}"
    if kind == "gold":
        return f"gold {gold}"
    if kind == "race":
        return f"race {race}"
    return f"{kind} {square}"


def square_name(cell: int, width: int) -> str:
    return f"{COLUMNS[cell % width]}{cell // width + 1}"


def build_move_table(layout: dict[str, int], edges: list[tuple[int, int]], width: int,
                     ncells: int, game_key: tuple[Any, ...]) -> list[ArmadoraMove]:
    """One move per action id, following the core's action layout."""
    names = [square_name(c, width) for c in range(ncells)]
    table: list[ArmadoraMove] = [
        ArmadoraMove(layout["pass"], game_key, "pass"),
        ArmadoraMove(layout["done"], game_key, "done"),
    ]
    for kind in ("palisade",):
        table += [ArmadoraMove(layout[kind] + e, game_key, kind, edge=(names[a], names[b]))
                  for e, (a, b) in enumerate(edges)]
    placements: tuple[MoveKind, ...] = ("warrior", "goblin")
    for kind in placements:
        table += [ArmadoraMove(layout[kind] + 5 * c + k - 1, game_key, kind,
                               square=names[c], strength=k)
                  for c in range(ncells) for k in range(1, 6)]
    table += [ArmadoraMove(layout["orc"] + e, game_key, "orc", edge=(names[a], names[b]))
              for e, (a, b) in enumerate(edges)]
    targets: tuple[MoveKind, ...] = ("peek", "arrow", "reinforce")
    for kind in targets:
        table += [ArmadoraMove(layout[kind] + c, game_key, kind, square=names[c])
                  for c in range(ncells)]
    table += [ArmadoraMove(layout["gold"] + v, game_key, "gold", gold=v) for v in range(8)]
    table += [ArmadoraMove(layout["race"] + r, game_key, "race", race=RACES[r]) for r in range(4)]
    assert [m.action for m in table] == list(range(layout["end"])), "move table out of order"
    return table


_SPACES = re.compile(r"\s+")
_EDGE = re.compile(r"^([a-h][1-8])\s*-\s*([a-h][1-8])$")


def normalise(text: str) -> str:
    """Lower case, single spaces, a canonical edge order; the key of the parse table."""
    text = _SPACES.sub(" ", str.__str__(text).strip().lower())
    text = re.sub(r"\s*([@-])\s*", r"\1", text)
    prefix, _, rest = text.rpartition(" ")
    match = _EDGE.match(rest)
    if match:
        a, b = match.groups()
        return f"{prefix} {a}-{b}".strip()
    return text


def edge_aliases(move: ArmadoraMove) -> list[str]:
    """Other spellings accepted for a palisade move (squares in either order)."""
    if move.edge is None:
        return []
    a, b = move.edge
    return [f"orc {b}-{a}" if move.kind == "orc" else f"{b}-{a}"]
