"""Rome & Carthage moves and their notation.

Cities are named by their board key (``roma``, ``carthago``); cards by their values.
Identical armies and identical cards give one move, not several: an army is named by the
city it stands on (outside battles a city holds one army), cards by their values.

=========================  =============================================================
notation                   move
=========================  =============================================================
``infantry@roma``          turns 1 and 2: place an infantry (``galley``, ``chariot``,
                           ``elephant``) on a city of its own colour
``pass``                   end the turn without moving ("The player may then pass")
``uprising roma``          Popular Uprising: destroy the army occupying one's capital
``treason``                General's Treason: the next move(s) move enemy armies
``roma-capua``             a simple move of the army on ``roma`` (own, or an enemy's
                           after ``treason``)
``done``                   no second infantry / no forced march; or end the Treason
``pay 5``                  one card of a forced march (non-increasing values, until the
                           payment reaches 3)
``battle capua``           several battles pending: fight the one at ``capua`` next
``play 10+4``              lay two battle cards face down (higher value first)
``play 7``                 lay one card (tie rounds; an occupied capital)
``withdraw``               a spy who saw the opponent's points gives up the battle
``ally``                   Rapid Conquest: pay (``pay v``) to move an ally's army
``give 5``                 Rapid Conquest: give a card to the ally instead of moving
``agree`` / ``refuse``     Rapid Conquest with explicit consent: the ally's answer
``draw 7``                 chance: the card the turn player draws
=========================  =============================================================

In the move log a player may see (``history_view``) a card drawn by someone whose hand
he may not see (an enemy; in Equal Arms his ally too) reads ``draw ?``, an attacker's
cards still face down read ``play ?`` to whoever may not see his hand, and a card given
to an ally reads ``give ?`` to the opponents.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Literal

from boardrules.api import Move

MoveKind = Literal["pass", "done", "treason", "withdraw", "ally", "agree", "refuse",
                   "uprising", "place", "move", "battle", "play", "pay", "give", "draw"]
KINDS = ("infantry", "galley", "chariot", "elephant")
CARD_VALUES = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15)


class RomeCarthageMove(Move):
    """A Rome & Carthage move.  ``kind`` says which; the other fields are ``None`` unless
    the kind uses them: ``city`` (uprising, place, battle, and the source of a move),
    ``to`` (a move's destination), ``army`` (the kind of army placed), ``cards`` (card
    values played, highest first), ``value`` (a card paid, given or drawn)."""

    __slots__ = ("army", "cards", "city", "kind", "to", "value")

    kind: MoveKind
    city: str | None
    to: str | None
    army: str | None
    cards: tuple[int, ...] | None
    value: int | None

    def __init__(self, action: int, game_key: tuple[Any, ...], kind: MoveKind, *,
                 city: str | None = None, to: str | None = None, army: str | None = None,
                 cards: tuple[int, ...] | None = None, value: int | None = None) -> None:
        self.kind = kind
        self.city = city
        self.to = to
        self.army = army
        self.cards = cards
        self.value = value
        super().__init__(action, _notation(kind, city, to, army, cards, value), game_key)

    @property
    def is_chance(self) -> bool:
        return self.kind == "draw"


def _notation(kind: MoveKind, city: str | None, to: str | None, army: str | None,
              cards: tuple[int, ...] | None, value: int | None) -> str:
    if kind in ("pass", "done", "treason", "withdraw", "ally", "agree", "refuse"):
        return kind
    if kind == "place":
        return f"{army}@{city}"
    if kind == "move":
        return f"{city}-{to}"
    if kind in ("uprising", "battle"):
        return f"{kind} {city}"
    if kind == "play":
        assert cards is not None
        return "play " + "+".join(str(v) for v in cards)
    return f"{kind} {value}"


def build_move_table(layout: dict[str, int], keys: Sequence[str],
                     pairs: Sequence[tuple[int, int]],
                     game_key: tuple[Any, ...]) -> list[RomeCarthageMove]:
    """One move per action id, following the core's action layout."""
    n = len(keys)
    table: list[RomeCarthageMove] = [
        RomeCarthageMove(layout["pass"], game_key, "pass"),
        RomeCarthageMove(layout["done"], game_key, "done"),
        RomeCarthageMove(layout["treason"], game_key, "treason"),
        RomeCarthageMove(layout["withdraw"], game_key, "withdraw"),
        RomeCarthageMove(layout["ally"], game_key, "ally"),
        RomeCarthageMove(layout["agree"], game_key, "agree"),
        RomeCarthageMove(layout["refuse"], game_key, "refuse"),
    ]
    table += [RomeCarthageMove(layout["uprising"] + c, game_key, "uprising", city=keys[c])
              for c in range(n)]
    table += [RomeCarthageMove(layout["place"] + k * n + c, game_key, "place", city=keys[c],
                               army=KINDS[k])
              for k in range(len(KINDS)) for c in range(n)]
    table += [RomeCarthageMove(layout["move"] + a * n + b, game_key, "move", city=keys[a],
                               to=keys[b])
              for a in range(n) for b in range(n)]
    table += [RomeCarthageMove(layout["battle"] + c, game_key, "battle", city=keys[c])
              for c in range(n)]
    table += [RomeCarthageMove(layout["pair"] + i, game_key, "play",
                               cards=(CARD_VALUES[b], CARD_VALUES[a]))
              for i, (a, b) in enumerate(pairs)]
    table += [RomeCarthageMove(layout["single"] + v, game_key, "play", cards=(value,))
              for v, value in enumerate(CARD_VALUES)]
    table += [RomeCarthageMove(layout["pay"] + v, game_key, "pay", value=value)
              for v, value in enumerate(CARD_VALUES)]
    table += [RomeCarthageMove(layout["give"] + v, game_key, "give", value=value)
              for v, value in enumerate(CARD_VALUES)]
    table += [RomeCarthageMove(layout["draw"] + v, game_key, "draw", value=value)
              for v, value in enumerate(CARD_VALUES)]
    assert [m.action for m in table] == list(range(layout["end"])), "move table out of order"
    return table


_SPACES = re.compile(r"\s+")
_AROUND = re.compile(r"\s*([@+-])\s*")


def normalise(text: str) -> str:
    """Lower case, single spaces, no spaces around ``@``, ``+`` and ``-``, and the
    cards of ``play`` highest first: the key of the parse table."""
    text = _AROUND.sub(r"\1", _SPACES.sub(" ", str.__str__(text).strip().lower()))
    if text.startswith("play ") and "+" in text:
        parts = text[5:].split("+")
        # ASCII digits only: str.isdigit() also takes '²', which int() refuses
        if len(parts) == 2 and all(p.isascii() and p.isdigit() and len(p) <= 2
                                   for p in parts):
            high, low = sorted((int(p) for p in parts), reverse=True)
            return f"play {high}+{low}"
    return text
