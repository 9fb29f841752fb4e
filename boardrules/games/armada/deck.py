"""Armada's third-edition cards as data: each kind of card, how many copies, when it is
played and how much of it the rule text gives.

Deck files live in ``decks/`` (``third_edition`` is the 55-card deck of the rulebook's
"3rd-Edition Variant", partly reconstructed).  A user may pass the name of a shipped deck,
the path of a deck file of his own, or the same content as a mapping; every field is
checked and a bad one raises :class:`~boardrules.errors.BoardDataError` naming it
(``cards[3].count: ...``).

Card order is file order: card kind ``i`` is the ``i``-th entry of ``cards``.  Each card
has a ``timing`` (:data:`TIMINGS`: played on its owner's own turn, on another player's
turn, or either) and a ``provenance`` (:data:`CARD_PROVENANCES`): ``described`` (the rule
text gives its effect and count), ``named`` (the text only names it; effect and count
reconstructed) or ``reconstructed`` (not in the text at all).

What a deck must satisfy: unique keys, each a card kind the rules core plays
(``CARD_KINDS``: a deck can leave kinds out or change counts, texts and timings, not
invent a card), and unique names; every count at
least 1; the total 1 to :data:`MAX_DECK_CARDS`.  A shipped deck (loaded by its name)
holds exactly :data:`THIRD_EDITION_CARDS` (the rulebook's "55 cards"); a user's deck need
not.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boardrules._ext.armada import CARD_KINDS
from boardrules.games.armada.board import (
    HEADER_FIELDS,
    MAX_FILE_BYTES,
    MAX_NAME,
    key_field,
    parse_header,
)
from boardrules.games.board_files import (
    fail,
    get_field,
    known_fields,
    load_board_spec,
    shipped_names,
    text_field,
)

DECKS_DIR = Path(__file__).parent / "decks"
DEFAULT_DECK = "third_edition"
#: The rulebook's "55 cards" (Game Components).
THIRD_EDITION_CARDS = 55
MAX_DECK_CARDS = 200
MAX_KINDS = 64
MAX_CARD_TEXT = 1000
TIMINGS: tuple[str, ...] = ("own_turn", "other_turn", "any")
CARD_PROVENANCES: tuple[str, ...] = ("described", "named", "reconstructed")
FIELDS = (*HEADER_FIELDS, "cards")
CARD_FIELDS = ("key", "name", "french", "count", "timing", "provenance", "text")


@dataclass(frozen=True)
class Card:
    """One kind of card: ``count`` copies in the deck."""

    key: str
    name: str
    french: str
    count: int
    timing: str
    provenance: str
    text: str


@dataclass(frozen=True)
class Deck:
    """A validated deck; card kinds in file order."""

    name: str
    title: str
    provenance: str
    sources: tuple[str, ...]
    cards: tuple[Card, ...]

    @property
    def total(self) -> int:
        """How many cards the deck holds (every copy of every kind)."""
        return sum(c.count for c in self.cards)

    def index(self, key: str) -> int:
        """The index of the card kind called ``key``; ``ValueError`` if there is none."""
        for i, card in enumerate(self.cards):
            if card.key == key:
                return i
        raise ValueError(f"no card {key!r} in deck {self.name!r}")

    def to_json(self) -> dict[str, Any]:
        """The deck as a file's content; ``parse_deck`` of it gives an equal deck."""
        return {
            "format": "boardrules-deck",
            "format_version": 1,
            "game": "armada",
            "name": self.name,
            "title": self.title,
            "provenance": self.provenance,
            "sources": list(self.sources),
            "cards": [{"key": c.key, "name": c.name, "french": c.french, "count": c.count,
                       "timing": c.timing, "provenance": c.provenance, "text": c.text}
                      for c in self.cards],
        }


def shipped_decks() -> list[str]:
    """Names of the decks that come with the library."""
    return shipped_names(DECKS_DIR)


def load_deck(spec: str | os.PathLike[str] | Mapping[str, Any]) -> Deck:
    """A deck by shipped name, file path, or as a mapping of the file's fields.  A
    shipped deck must hold the rulebook's :data:`THIRD_EDITION_CARDS` cards."""
    deck = load_board_spec(spec, DECKS_DIR, MAX_FILE_BYTES, parse_deck, "deck")
    if isinstance(spec, str) and spec in shipped_decks() and deck.total != THIRD_EDITION_CARDS:
        raise fail(str(DECKS_DIR / f"{spec}.json"), "cards",
                   f"hold {deck.total} cards, a shipped deck holds {THIRD_EDITION_CARDS}")
    return deck


def parse_deck(doc: Mapping[str, Any], where: str) -> Deck:
    """Validate the fields of a deck file (see the module docstring) and build the
    :class:`Deck`, card kinds in file order."""
    head = parse_header(doc, where, "boardrules-deck", FIELDS)
    raw = get_field(doc, "cards", list, where)
    if not 1 <= len(raw) <= MAX_KINDS:
        raise fail(where, "cards", f"lists {len(raw)} kinds of card, a deck has 1 to "
                   f"{MAX_KINDS}")
    cards = [_parse_card(item, i, where) for i, item in enumerate(raw)]
    keys: set[str] = set()
    names: set[str] = set()
    for i, card in enumerate(cards):
        if card.key in keys:
            raise fail(where, f"cards[{i}].key", f"repeats {card.key!r}")
        if card.name.casefold() in names:
            raise fail(where, f"cards[{i}].name", f"repeats {card.name!r}")
        keys.add(card.key)
        names.add(card.name.casefold())
    total = sum(c.count for c in cards)
    if total > MAX_DECK_CARDS:
        raise fail(where, "cards", f"hold {total} cards, a deck has at most "
                   f"{MAX_DECK_CARDS}")
    return Deck(head.name, head.title, head.provenance, head.sources, tuple(cards))


def _parse_card(raw: Any, i: int, where: str) -> Card:
    at = f"cards[{i}]"
    if not isinstance(raw, Mapping):
        raise fail(where, at, "must be an object")
    known_fields(raw, CARD_FIELDS, where, at)
    key = key_field(raw, where, f"{at}.key")
    if key not in CARD_KINDS:  # a card is one the rules core plays: nothing else loads
        raise fail(where, f"{at}.key", f"unknown card {key!r} (the rules know "
                   f"{', '.join(CARD_KINDS)})")
    name = text_field(raw, "name", where, f"{at}.name")
    french = text_field(raw, "french", where, f"{at}.french", MAX_NAME)
    count: int = get_field(raw, "count", int, where, f"{at}.count")
    if not 1 <= count <= MAX_DECK_CARDS:
        raise fail(where, f"{at}.count", f"{count} must be 1 to {MAX_DECK_CARDS}")
    timing = get_field(raw, "timing", str, where, f"{at}.timing")
    if timing not in TIMINGS:
        raise fail(where, f"{at}.timing", f"{timing!r} must be one of {list(TIMINGS)}")
    provenance = get_field(raw, "provenance", str, where, f"{at}.provenance")
    if provenance not in CARD_PROVENANCES:
        raise fail(where, f"{at}.provenance",
                   f"{provenance!r} must be one of {list(CARD_PROVENANCES)}")
    text = text_field(raw, "text", where, f"{at}.text", MAX_CARD_TEXT)
    return Card(key, name, french, count, timing, provenance, text)
