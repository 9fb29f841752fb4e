"""Armada moves and their notation.

Places are named by their board key: a territory (``c11``) or a sea space (``s_c1``; in a
move or an attack a sea key means the ship on that space).  Bands and gold are counts,
so identical pieces give one move, not several.

====================================  ====================================================
notation                              move
====================================  ====================================================
``ship <city>``                       Preliminary Turn: one of the colour's two ships on a
                                      city (the second on a city later in board order)
``deploy <k>``                        Preliminary Turn: k bands on the next territory of
                                      the lair in board order (the last takes the rest)
``move <from>-<to>``                  a group move, one action: territory to territory,
                                      onto the ship on a sea space (loading), off a ship
                                      (unloading), ship to ship (transhipment); then:
``bands <k>``                         how many bands go (1 .. all)
``gold <g>``                          how much gold they carry (0 .. all, within a ship's
                                      room)
``attack <from>-<to>``                a combat roll, one action: the stack on ``from``
                                      (at least 2 bands) against ``to``
``launch <city>-<sea>``               launching an unlaunched ship
``sail <sea>-<sea>``                  moving a ship one space
``explore <t>``                       exploring (the gold and tribes dice follow)
``explore <t> special``               the same with a Special discovery card (x2)
``scuttle <sea>``                     scuttling the empty ship there
``destroy <city>``                    destroying one's unlaunched ship there
``convert <t>``                       converting one gold into 4 bands
``recruit``                           the optional recruitment, then one ``place`` a band
``buy <t or sea>``                    a card for 2 gold from that place and 2 actions
``play <card>``                       playing a card (``dope``, ``shipyard``,
                                      ``gold_mine``, ``recruitment``, ``strategist`` ...;
                                      ``attack_weapon`` / ``defence_weapon`` in a window)
``play coup_de_main <colour>``        a Coup de main: <colour> takes 3 actions
``decline``                           a window passes
``take``, ``look``                    Grand stratège: take the card or look at the next
``place <t>``                         where recruited bands, a card's bands or natives,
                                      gold or a new ship go
``end``                               the end of the turn (or of the Coup de main)
``hits <d> <a>``                      chance: the combat die (defenders, attackers lost)
``find <gold> <tribes>``              chance: the exploration dice (before doubling)
``spears <n>``                        chance: the tribes die of a card
``draw <card>``                       chance: a card from the pile
====================================  ====================================================

A sub-choice with one option only is made by the engine and never asked (a window
always is).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Literal

from boardrules.api import Move

MoveKind = Literal["end", "decline", "take", "look", "recruit", "play", "coup", "ship",
                   "deploy", "move", "attack", "bands", "gold", "launch", "sail", "explore",
                   "scuttle", "destroy", "convert", "buy", "place", "hits", "find",
                   "spears", "draw"]
CHANCE_KINDS = frozenset({"hits", "find", "spears", "draw"})
#: Moves that name a place and nothing else.
PLACE_KINDS = frozenset({"ship", "scuttle", "destroy", "convert", "buy", "place"})


class ArmadaMove(Move):
    """An Armada move.  ``kind`` says which; the other fields are ``None`` unless the
    kind uses them: ``at`` (the place acted on, a route's start), ``to`` (a route's end),
    ``count`` (bands, gold, a deploy's bands, spears), ``card``, ``colour`` (a Coup de
    main's), ``special`` (an exploration with Special discovery), ``first`` and
    ``second`` (a die pair: defenders and attackers lost, or gold and tribes found)."""

    __slots__ = ("at", "card", "colour", "count", "first", "kind", "second", "special", "to")

    kind: MoveKind
    at: str | None
    to: str | None
    count: int | None
    card: str | None
    colour: str | None
    special: bool
    first: int | None
    second: int | None

    def __init__(self, action: int, game_key: tuple[Any, ...], kind: MoveKind, *,
                 at: str | None = None, to: str | None = None, count: int | None = None,
                 card: str | None = None, colour: str | None = None, special: bool = False,
                 first: int | None = None, second: int | None = None) -> None:
        self.kind = kind
        self.at = at
        self.to = to
        self.count = count
        self.card = card
        self.colour = colour
        self.special = special
        self.first = first
        self.second = second
        super().__init__(action, self._notation(), game_key)

    @property
    def is_chance(self) -> bool:
        return self.kind in CHANCE_KINDS

    def _notation(self) -> str:
        kind = self.kind
        if kind in ("end", "decline", "take", "look", "recruit"):
            return kind
        if kind in ("deploy", "bands", "gold", "spears"):
            return f"{kind} {self.count}"
        if kind in ("move", "attack", "launch", "sail"):
            return f"{kind} {self.at}-{self.to}"
        if kind == "explore":
            return f"explore {self.at}" + (" special" if self.special else "")
        if kind in PLACE_KINDS:
            return f"{kind} {self.at}"
        if kind == "play":
            return f"play {self.card}"
        if kind == "coup":
            return f"play coup_de_main {self.colour}"
        if kind in ("hits", "find"):
            return f"{kind} {self.first} {self.second}"
        return f"draw {self.card}"


def build_move_table(layout: dict[str, int], territories: Sequence[str],
                     seas: Sequence[str], routes: Sequence[tuple[int, int, int]],
                     coast: Sequence[tuple[int, int]], sail: Sequence[tuple[int, int]],
                     cards: Sequence[str], colours: Sequence[str], faces: int,
                     max_count: int, game_key: tuple[Any, ...]) -> list[ArmadaMove]:
    """One move per action id, following the core's action layout (``routes``:
    (kind, from, to) with kinds land, load, unload, tranship)."""

    def move(kind: MoveKind, block: str, offset: int, **fields: Any) -> ArmadaMove:
        return ArmadaMove(layout[block] + offset, game_key, kind, **fields)

    def route_ends(kind: int, a: int, b: int) -> dict[str, str]:
        ends = ((territories, territories), (territories, seas), (seas, territories),
                (seas, seas))[kind]
        return {"at": ends[0][a], "to": ends[1][b]}

    table = [ArmadaMove(layout[k], game_key, k)
             for k in ("end", "decline", "take", "look", "recruit")]
    table += [move("play", "play", k, card=card) for k, card in enumerate(cards)]
    table += [move("coup", "coup", c, colour=colour) for c, colour in enumerate(colours)]
    table += [move("ship", "ship", r, at=key) for r, key in enumerate(territories)]
    table += [move("deploy", "deploy", k, count=k) for k in range(max_count + 1)]
    for kind in ("move", "attack"):
        table += [move(kind, kind, x, **route_ends(*route))
                  for x, route in enumerate(routes)]
    table += [move("bands", "bands", k - 1, count=k) for k in range(1, max_count + 1)]
    table += [move("gold", "gold", g, count=g) for g in range(max_count + 1)]
    table += [move("launch", "launch", x, at=territories[r], to=seas[s])
              for x, (r, s) in enumerate(coast)]
    table += [move("sail", "sail", x, at=seas[a], to=seas[b]) for x, (a, b) in enumerate(sail)]
    table += [move("explore", "explore", r, at=key) for r, key in enumerate(territories)]
    table += [move("explore", "special", r, at=key, special=True)
              for r, key in enumerate(territories)]
    table += [move("scuttle", "scuttle", s, at=key) for s, key in enumerate(seas)]
    table += [move("destroy", "destroy", r, at=key) for r, key in enumerate(territories)]
    table += [move("convert", "convert", r, at=key) for r, key in enumerate(territories)]
    table += [move("buy", "buy_t", r, at=key) for r, key in enumerate(territories)]
    table += [move("buy", "buy_s", s, at=key) for s, key in enumerate(seas)]
    table += [move("place", "place", r, at=key) for r, key in enumerate(territories)]
    table += [move("hits", "hits", d * faces + a, first=d, second=a)
              for d in range(faces) for a in range(faces)]
    table += [move("find", "find", g * faces + n, first=g, second=n)
              for g in range(faces) for n in range(faces)]
    table += [move("spears", "spears", n, count=n) for n in range(faces)]
    table += [move("draw", "draw", k, card=card) for k, card in enumerate(cards)]
    assert [m.action for m in table] == list(range(layout["end_of_actions"])), \
        "move table out of order"
    return table


_SPACES = re.compile(r"\s+")
_AROUND = re.compile(r"\s*-\s*")


def normalise(text: str) -> str:
    """Lower case, single spaces, no spaces around ``-``: the key of the parse table."""
    return _AROUND.sub("-", _SPACES.sub(" ", str.__str__(text).strip().lower()))
