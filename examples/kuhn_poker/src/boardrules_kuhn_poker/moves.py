"""Kuhn poker moves and their notation.

A player's move is ``pass`` or ``bet`` (facing a bet, ``pass`` folds and ``bet`` calls);
a chance move deals a card to a player, ``deal Q to 1``.  Action ids::

    0 pass    1 bet    2 deal J to 0    3 deal Q to 0    4 deal K to 0
                       5 deal J to 1    6 deal Q to 1    7 deal K to 1

(``2 + 3 * player + card``, the cards 0 J, 1 Q, 2 K).  Another player's deal is shown
without its card, ``deal ? to 1``.  Parsing ignores case and extra white space
(``" Deal  q TO 1"``).
"""

from __future__ import annotations

from typing import Any

from boardrules.api import Move

PASS = 0
BET = 1
#: Action id of ``deal J to 0``; dealing card c to player p is ``DEAL + 3 * p + c``.
DEAL = 2
#: The cards, lowest first: card c is ``CARDS[c]``.
CARDS = "JQK"
#: Longest text worth looking up: anything longer is not a move.
MAX_MOVE_TEXT = 24


class KuhnPokerMove(Move):
    """A Kuhn poker move: ``pass``, ``bet``, or a deal (a chance outcome)."""

    __slots__ = ("card", "kind", "player")

    #: ``"pass"``, ``"bet"`` or ``"deal"`` (a chance outcome).
    kind: str
    #: A deal's card, ``"J"``, ``"Q"`` or ``"K"``; ``None`` for pass and bet.
    card: str | None
    #: The player a deal's card goes to; ``None`` for pass and bet.
    player: int | None

    def __init__(self, action: int, game_key: tuple[Any, ...]) -> None:
        if action < DEAL:
            self.kind, self.card, self.player = ("pass", "bet")[action], None, None
            text = self.kind
        else:
            self.kind = "deal"
            self.player, card = divmod(action - DEAL, len(CARDS))
            self.card = CARDS[card]
            text = deal_text(self.card, self.player)
        super().__init__(action, text, game_key)


def deal_text(card: str, player: int) -> str:
    """``deal Q to 1``; with ``card`` ``"?"`` a deal as another player's log shows it."""
    return f"deal {card} to {player}"


def build_move_table(game_key: tuple[Any, ...]) -> list[KuhnPokerMove]:
    """One move per action id: pass, bet, then the six deals."""
    return [KuhnPokerMove(action, game_key) for action in range(DEAL + 2 * len(CARDS))]


def normalise(text: str) -> str:
    """Lower case, white space runs made single spaces, none around, the card in capitals
    (``deal q to 1`` -> ``deal Q to 1``): the key of the parse table.  Read from the exact
    ``str`` of the characters, so that a ``str`` subclass's own methods (which may
    misbehave) are never called."""
    words = str.__str__(text).lower().split()
    if len(words) == 4 and words[0] == "deal":
        words[1] = words[1].upper()
    return " ".join(words)
