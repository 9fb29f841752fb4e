"""Armadora (Christwart Conrad; Blackrock Editions, 2013).

Anatomy, shared by every game package: ``game.py`` (options, Game/State facades),
``moves.py`` (typed moves and notation), ``board.py`` + ``boards/`` (board data),
``render.py`` (SVG).  The rules are in ``src_ext/boardrules/_ext/armadora.pyx``.
"""

from boardrules.games.armadora.board import Board, load_board, shipped_boards
from boardrules.games.armadora.game import ArmadoraGame, ArmadoraState
from boardrules.games.armadora.moves import ArmadoraMove

__all__ = ["ArmadoraGame", "ArmadoraMove", "ArmadoraState", "Board", "load_board",
           "shipped_boards"]
