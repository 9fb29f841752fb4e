"""Rome & Carthage (Jean-René Vernes; Miro 1954, reissued as Mediterranean; Grosso Modo
2012).

Anatomy, shared by every game package: ``game.py`` (options, Game/State facades),
``moves.py`` (typed moves and notation), ``board.py`` + ``boards/`` (map data),
``render.py`` (SVG and text).  The rules are in
``src_ext/boardrules/_ext/rome_and_carthage.pyx``.
"""

from boardrules.games.rome_and_carthage.board import Board, load_board, shipped_boards
from boardrules.games.rome_and_carthage.game import (
    RomeCarthageGame,
    RomeCarthageState,
    default_empires,
)
from boardrules.games.rome_and_carthage.moves import RomeCarthageMove

__all__ = ["Board", "RomeCarthageGame", "RomeCarthageMove", "RomeCarthageState",
           "default_empires", "load_board", "shipped_boards"]
