"""Error classes.  Every error the library raises on bad input derives from
:class:`BoardRulesError`; a rejected call leaves the state exactly as it was."""

from __future__ import annotations

__all__ = [
    "BoardDataError",
    "BoardRulesError",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidOptionError",
    "InvalidPositionError",
    "InvalidStateError",
    "UnknownGameError",
]


class BoardRulesError(Exception):
    """Base class of the library's errors."""


class IllegalMoveError(BoardRulesError, ValueError):
    """A well-formed move that the rules do not allow here.

    ``rule`` is a short key naming the rule broken (for example
    ``"territory_too_small"``); the message cites the rule text.
    """

    def __init__(self, message: str, rule: str = "") -> None:
        super().__init__(message)
        self.rule = rule

    def __reduce__(self) -> tuple[type[IllegalMoveError], tuple[str, str]]:
        # the rule travels with the error (a process pool re-raises it in the caller)
        return (type(self), (str(self), self.rule))


class InvalidMoveError(BoardRulesError, ValueError):
    """Move text that is not in the game's notation (or a move of another game).

    ``rule`` is a short key saying why, as :attr:`IllegalMoveError.rule` does:
    ``"not_notation"`` (no move of the game is written so), ``"too_long"`` (longer than
    any move's text), ``"action_out_of_range"`` (no move has that action id),
    ``"other_game"`` (a move of another game or of other options) or ``"forged_move"``
    (a :class:`~boardrules.Move` object whose fields were tampered with).
    """

    def __init__(self, message: str, rule: str = "not_notation") -> None:
        super().__init__(message)
        self.rule = rule

    def __reduce__(self) -> tuple[type[InvalidMoveError], tuple[str, str]]:
        return (type(self), (str(self), self.rule))


class InvalidStateError(BoardRulesError, ValueError):
    """A saved state (JSON) that fails validation, or a state no play of the rules
    reaches met by a search (a world or a state below it that is not over and has no
    legal move: see :func:`~boardrules.suggest`)."""


class InvalidPositionError(InvalidStateError):
    """A position (:meth:`Game.position <boardrules.Game.position>`) that is not one of
    the game's: unreadable text, a value out of range, or pieces the rules could never
    have put so.  ``field`` names the field at fault (``"board"``, ``"pool[1]"``...)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field

    def __reduce__(self) -> tuple[type[InvalidPositionError], tuple[str, str]]:
        text = str(self)
        prefix = f"{self.field}: "
        return (type(self), (self.field, text[len(prefix):] if text.startswith(prefix)
                             else text))


class InvalidOptionError(BoardRulesError, ValueError):
    """An unknown game option or a value out of its range."""


class BoardDataError(BoardRulesError, ValueError):
    """A board data file that is missing, malformed or inconsistent (names the field)."""


class UnknownGameError(BoardRulesError, LookupError):
    """No game is registered under that id."""
