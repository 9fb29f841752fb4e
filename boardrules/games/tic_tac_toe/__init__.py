"""Tic-tac-toe: an example game, the smallest complete game package.

Same anatomy as every game package: ``game.py`` (the Game/State facades), ``moves.py``
(typed moves and notation), ``render.py`` (SVG),
``position.py`` (the position format), ``events.py`` (what
happened), ``views.py`` (the TypedDict of a view).  The rules are in
``src_ext/boardrules/_ext/tic_tac_toe.pyx``.  A game of one's own is built as a package
outside the library instead: ``docs/tutorial_add_a_game.rst``.
"""

from boardrules.games.tic_tac_toe.game import TicTacToeGame, TicTacToeState
from boardrules.games.tic_tac_toe.moves import TicTacToeMove
from boardrules.games.tic_tac_toe.views import TicTacToeView

__all__ = ["TicTacToeGame", "TicTacToeMove", "TicTacToeState", "TicTacToeView"]
