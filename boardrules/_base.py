"""The move, outcome and player constants every game shares, and the checks of the
integers a caller passes (seeds, players, action ids)."""

from __future__ import annotations

import enum
import os
from dataclasses import dataclass
from typing import Any, TypeVar

#: ``state.current_player`` at a chance node (a die roll, a draw, a random placement).
CHANCE: int = -1
#: ``state.current_player`` once the game is over.
TERMINAL: int = -4

#: A game's own move class (``ArmadoraMove``).
MoveT = TypeVar("MoveT", bound="Move")


class Termination(enum.Enum):
    """Why a game ended."""

    #: Armadora: every player has ended (passed) -- rule 4, end of the game.
    ALL_PASSED = "all_passed"
    #: Tic-tac-toe, Connect Four: the last move completed a line (three or four in a row).
    LINE = "line"
    #: Tic-tac-toe, Connect Four: the board is full and no line was completed (a draw).
    BOARD_FULL = "board_full"
    #: Pig: a player's score and turn total reached the target (he wins at once).
    TARGET_REACHED = "target_reached"
    #: Pig: the last turn was played; the higher score wins, equal scores draw.
    TURN_LIMIT = "turn_limit"
    #: Rome & Carthage: a team held both enemy capitals for a complete turn.
    CAPITALS = "capitals"
    #: Rome & Carthage: the other team has no army left.
    ELIMINATION = "elimination"
    #: Rome & Carthage (library rule): rounds without battle, elimination, Uprising or
    #: change of a capital's holder -- the evasion draw made operational (a draw).
    NO_PROGRESS = "no_progress"
    #: Rome & Carthage, Albion, Armada (library rule): the hard round cap was reached (a draw).
    ROUND_CAP = "round_cap"
    #: Rome & Carthage, Rapid Conquest: the other team is down to 5 armies or fewer.
    ARMY_REDUCED = "army_reduced"
    #: Rome & Carthage, Rapid Conquest: an opponent is down to 3 armies or fewer and his
    #: ally's capital was held for a complete turn.
    WEAK_AND_CAPITAL = "weak_and_capital"
    #: Albion: a player completed three stage IV settlements and the round was finished.
    THREE_SETTLEMENTS = "three_settlements"
    #: Armada: a colour was in a victory situation at the end of two of its turns in a
    #: row (announced, then confirmed): its player is master of the archipelago.
    MASTERY = "mastery"
    #: A betting game (the tutorial's Kuhn poker): a player folded; the other takes the pot.
    FOLD = "fold"
    #: A betting game: the betting ended with the hands compared; the best takes the pot.
    SHOWDOWN = "showdown"


@dataclass(frozen=True)
class Outcome:
    """The final result of a game.

    * ``winners`` -- the players who share first place (both partners of a winning team);
    * ``ranking`` -- each player's place, 1 for first, equal places on a full tie;
    * ``scores`` -- each player's final score by the game's scoring (Armadora: gold);
    * ``team_scores`` -- each team's score, in ``game.teams`` order;
    * ``returns`` -- each player's payoff in [-1, 1] as search uses it;
    * ``reason`` -- why the game ended.
    """

    winners: tuple[int, ...]
    ranking: tuple[int, ...]
    scores: tuple[int, ...]
    team_scores: tuple[int, ...]
    returns: tuple[float, ...]
    reason: Termination


class Move:
    """One atomic decision: a player's move or a chance outcome.

    A move prints in the game's canonical notation (``str(move)``), which
    :meth:`Game.parse_move` reads back.  Moves compare and hash by game, options and
    action id, and sort in action-id order (the order of ``legal_moves()``).
    """

    __slots__ = ("_action", "_game_key", "_text")

    def __init__(self, action: int, text: str, game_key: tuple[Any, ...]) -> None:
        self._action = action
        self._text = text
        self._game_key = game_key

    @property
    def action(self) -> int:
        """The action id the compiled core uses for this move."""
        return self._action

    # A Move made without __init__ (``Move.__new__(Move)``: a forged move) has no slots
    # set; it prints as blank, equals only another blank move and sorts with none, and
    # every state refuses it (InvalidMoveError).  Only reading its fields (``action``,
    # a game's move fields) raises AttributeError: it has none.

    def __str__(self) -> str:
        try:
            return self._text
        except AttributeError:
            return ""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {str(self)!r}>"

    def _identity(self) -> tuple[Any, int] | None:
        try:
            return self._game_key, self._action
        except AttributeError:
            return None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        try:
            return self._action == other._action and self._game_key == other._game_key
        except AttributeError:
            return self._identity() == other._identity()

    def __hash__(self) -> int:
        try:
            return hash((self._game_key, self._action))
        except AttributeError:
            return hash(None)

    def __lt__(self, other: Move) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        try:
            if other._game_key != self._game_key:
                return NotImplemented
            return self._action < other._action
        except AttributeError:
            return NotImplemented

    # A move is immutable: a copy is the move itself, and a pickled move comes back as
    # the same move of the same game (its game pickles with it, by class and options).
    def __copy__(self) -> Move:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Move:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        from boardrules._game import game_of_key, move_of_game

        identity = self._identity()
        if identity is None:
            raise TypeError(f"a blank {type(self).__name__} (made without a game) cannot "
                            "be pickled")
        return (move_of_game, (game_of_key(identity[0]), identity[1]))


def exact_int(value: object, name: str) -> int:
    """``value`` as a plain ``int`` (TypeError for a bool or a non-int).

    An ``int`` subclass can override its comparisons (``0 <= player`` answering true for
    any value) and its conversions: every integer a caller passes is taken through
    ``int.__index__``, which reads the true value, *before* any range check, so the
    checked value is the one that reaches the compiled core."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    return int.__index__(value)


def check_seed(seed: object) -> int:
    """A seed in [0, 2**64), or a fresh random one for ``None`` (TypeError for anything but
    an int, ValueError out of range)."""
    if seed is None:
        return int.from_bytes(os.urandom(8), "little")
    seed = exact_int(seed, "seed")
    if not 0 <= seed < 2**64:
        raise ValueError("seed must be in [0, 2**64)")
    return seed
