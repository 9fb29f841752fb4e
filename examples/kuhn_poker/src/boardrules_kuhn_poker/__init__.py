"""Kuhn poker for boardrules: a game built outside the library, in a package of its own.

Installed, it is a game like the built-in ones -- ``boardrules.load("kuhn_poker")`` --
found through the entry point its ``pyproject.toml`` declares in the group
``boardrules.games``.  Same anatomy as every game package: ``game.py`` (the Game/State
facades), ``moves.py`` (typed moves and notation), ``position.py`` (the position format),
``events.py`` (what happened, redacted per viewer), ``views.py`` (the TypedDict of a
view), ``render.py`` (SVG and text), ``observation.py`` (the observation tensor's
legend).  The rules are in ``_core.pyx``, compiled against ``boardrules.get_include()``.
"""

from boardrules_kuhn_poker.game import KuhnPokerGame, KuhnPokerState
from boardrules_kuhn_poker.moves import KuhnPokerMove
from boardrules_kuhn_poker.views import KuhnPokerView

__all__ = ["KuhnPokerGame", "KuhnPokerMove", "KuhnPokerState", "KuhnPokerView"]
