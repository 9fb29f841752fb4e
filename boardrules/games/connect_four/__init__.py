"""Connect Four (7 columns by 6 rows): an example game.

Same anatomy as every game package: ``game.py`` (the Game/State facades), ``moves.py``
(typed moves and notation), ``render.py`` (SVG),
``position.py`` (the position format), ``events.py`` (what
happened), ``views.py`` (the TypedDict of a view).  The rules are in
``src_ext/boardrules/_ext/connect_four.pyx``.
"""

from boardrules.games.connect_four.game import ConnectFourGame, ConnectFourState
from boardrules.games.connect_four.moves import ConnectFourMove
from boardrules.games.connect_four.views import ConnectFourView

__all__ = ["ConnectFourGame", "ConnectFourMove", "ConnectFourState", "ConnectFourView"]
