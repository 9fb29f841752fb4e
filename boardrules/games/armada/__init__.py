"""Armada (Philippe des Pallières and Patrice Pillet; Jeux Descartes 1986), third edition.

Anatomy, shared by every game package: ``game.py`` (options, Game/State facades),
``moves.py`` (typed moves and notation), ``board.py`` + ``boards/`` (board data),
``render.py`` (SVG and text), ``position.py`` (the position format), ``events.py``
(events and their redaction), ``views.py`` (the view's TypedDicts); Armada adds its
dice (``dice.py`` + ``dice/``) and deck (``deck.py`` + ``decks/``).  The rules are in
``src_ext/boardrules/_ext/armada.pyx``.
"""

from boardrules.games.armada.board import Board, load_board, shipped_boards
from boardrules.games.armada.deck import Deck, load_deck, shipped_decks
from boardrules.games.armada.dice import Dice, load_dice, shipped_dice
from boardrules.games.armada.game import ArmadaGame, ArmadaState
from boardrules.games.armada.moves import ArmadaMove
from boardrules.games.armada.views import ArmadaView

__all__ = ["ArmadaGame", "ArmadaMove", "ArmadaState", "ArmadaView", "Board", "Deck", "Dice",
           "load_board", "load_deck", "load_dice", "shipped_boards", "shipped_decks",
           "shipped_dice"]
