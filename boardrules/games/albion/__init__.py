"""Albion (Klaus-Jürgen Wrede; AMIGO 2009).

Anatomy, shared by every game package: ``game.py`` (options, Game/State facades),
``moves.py`` (typed moves and notation), ``board.py`` + ``boards/`` (board data),
``render.py`` (SVG and text).  The rules are in ``src_ext/boardrules/_ext/albion.pyx``.
"""

from boardrules.games.albion.board import Board, load_board, shipped_boards
from boardrules.games.albion.game import AlbionGame, AlbionState
from boardrules.games.albion.moves import AlbionMove

__all__ = ["AlbionGame", "AlbionMove", "AlbionState", "Board", "load_board", "shipped_boards"]
