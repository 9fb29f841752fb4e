"""Armada (Philippe des Pallières and Patrice Pillet; Jeux Descartes 1986), third edition.

The game itself is not implemented yet: no rules core, no game class, no registry entry.
This package holds only its data and their loaders: the board (``board.py`` +
``boards/``), the three special dice (``dice.py`` + ``dice/``) and the third-edition deck
(``deck.py`` + ``decks/``).
"""

from boardrules.games.armada.board import Board, load_board, shipped_boards
from boardrules.games.armada.deck import Deck, load_deck, shipped_decks
from boardrules.games.armada.dice import Dice, load_dice, shipped_dice

__all__ = ["Board", "Deck", "Dice", "load_board", "load_deck", "load_dice", "shipped_boards",
           "shipped_decks", "shipped_dice"]
