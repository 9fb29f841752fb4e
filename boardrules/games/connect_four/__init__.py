"""Connect Four (7 columns by 6 rows): an example game.

Same anatomy as every game package: ``game.py`` (the Game/State facades), ``moves.py``
(typed moves and notation), ``render.py`` (SVG).  The rules are in
``src_ext/boardrules/_ext/connect_four.pyx``.
"""

from boardrules.games.connect_four.game import ConnectFourGame, ConnectFourState
from boardrules.games.connect_four.moves import ConnectFourMove

__all__ = ["ConnectFourGame", "ConnectFourMove", "ConnectFourState"]
