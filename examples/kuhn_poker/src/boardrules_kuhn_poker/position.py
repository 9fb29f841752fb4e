"""Kuhn poker's position format: a header line, the cards (player 0's, then player 1's;
``-`` for one not dealt yet) and the betting so far (``-`` for none)::

    Kuhn poker position
    cards: Q K
    betting: pass bet

A position is the whole truth, both cards included (a player's own view hides the
other's).  The pots, the winner and whether there was a showdown follow from the rest;
the core's ``load`` checks that play can reach it all.
"""

from __future__ import annotations

from typing import Any

from boardrules import InvalidPositionError

from boardrules_kuhn_poker.moves import CARDS

HEADER = "Kuhn poker position"
KEYS = ("cards", "betting")
ACTIONS = ("pass", "bet")


def position_text(raw: dict[str, Any]) -> str:
    """The canonical text of the position ``raw`` (the core's export)."""
    cards = " ".join(CARDS[c] if c >= 0 else "-" for c in raw["cards"])
    betting = " ".join(ACTIONS[a] for a in raw["betting"]) or "-"
    return "\n".join([HEADER, f"cards: {cards}", f"betting: {betting}"]) + "\n"


def position_raw(text: str) -> dict[str, Any]:
    """Parse position text into the core's export form (InvalidPositionError naming the
    field); the pots, the winner and the showdown are derived here and checked by the
    core."""
    lines = [line.strip() for line in text.splitlines()]
    lines = [line for line in lines if line and not line.startswith("#")]
    if not lines or " ".join(lines[0].lower().split()) != HEADER.lower():
        raise InvalidPositionError("", f"a Kuhn poker position starts with the line "
                                   f"{HEADER!r}")
    fields: dict[str, list[str]] = {}
    for line in lines[1:]:
        key, colon, value = line.partition(":")
        key = " ".join(key.lower().split())
        if not colon or key not in KEYS:
            raise InvalidPositionError(key[:20], "a line is 'cards: ...' or 'betting: ...'")
        if key in fields:
            raise InvalidPositionError(key, "given twice")
        fields[key] = value.split()
    for key in KEYS:
        if key not in fields:
            raise InvalidPositionError(key, "missing")
    names = [word.upper() for word in fields["cards"]]
    if len(names) != 2 or any(n not in (*CARDS, "-") for n in names):
        raise InvalidPositionError("cards", "two cards, each J, Q, K or - (not dealt): "
                                   "'cards: Q K'")
    cards = [CARDS.index(n) if n != "-" else -1 for n in names]
    words = [word.lower() for word in fields["betting"]]
    if words == ["-"]:
        words = []
    if len(words) > 3 or any(w not in ACTIONS for w in words):
        raise InvalidPositionError("betting", "at most three actions, each pass or bet "
                                   "('betting: pass bet'), or -")
    betting = [ACTIONS.index(w) for w in words]
    pot = [1 + sum(a for k, a in enumerate(betting) if k % 2 == p) for p in range(2)]
    over = len(betting) == 3 or (len(betting) == 2 and betting != [0, 1])
    showdown = over and pot[0] == pot[1]
    if not over or -1 in cards:
        winner = -1
    elif pot[0] != pot[1]:
        winner = 0 if pot[0] > pot[1] else 1
    else:
        winner = 0 if cards[0] > cards[1] else 1
    return {"cards": cards, "pot": pot, "betting": betting, "winner": winner,
            "showdown": showdown and -1 not in cards}
