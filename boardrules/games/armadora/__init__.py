"""Armadora (Christwart Conrad; Blackrock Editions, 2013).

Anatomy, shared by every game package: ``game.py`` (options, Game/State facades),
``moves.py`` (typed moves and notation), ``board.py`` + ``boards/`` (board data),
``render.py`` (SVG), ``position.py`` (the position format), ``events.py`` (what happened),
``views.py`` (the TypedDicts of a view).  The rules are in ``src_ext/boardrules/_ext/armadora.pyx``.
"""

from boardrules.games.armadora.board import Board, load_board, shipped_boards
from boardrules.games.armadora.game import ArmadoraGame, ArmadoraState
from boardrules.games.armadora.moves import ArmadoraMove
from boardrules.games.armadora.views import (
    ArmadoraPeekView,
    ArmadoraPlayerView,
    ArmadoraSquareView,
    ArmadoraView,
    ArmadoraWarriorView,
)

__all__ = ["ArmadoraGame", "ArmadoraMove", "ArmadoraPeekView", "ArmadoraPlayerView",
           "ArmadoraSquareView", "ArmadoraState", "ArmadoraView", "ArmadoraWarriorView",
           "Board", "load_board", "shipped_boards"]
