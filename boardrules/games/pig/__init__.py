"""Pig, the dice game: an example game with chance in the middle of play.

Every ``roll`` leads to a chance node (the die), so search meets chance at every turn:
MCTS samples the die by its probabilities, alpha-beta takes the expectation over the six
faces.  Same anatomy as every game package: ``game.py`` (the Game/State facades),
``moves.py`` (typed moves and notation), ``render.py`` (SVG),
``position.py`` (the position format), ``events.py`` (what
happened), ``views.py`` (the TypedDict of a view).  The rules are in
``src_ext/boardrules/_ext/pig.pyx``.
"""

from boardrules.games.pig.game import PigGame, PigState
from boardrules.games.pig.moves import PigMove
from boardrules.games.pig.views import PigView

__all__ = ["PigGame", "PigMove", "PigState", "PigView"]
