"""Error classes.  Every error the library raises on bad input derives from
:class:`BoardRulesError`; a rejected call leaves the state exactly as it was."""

from __future__ import annotations

__all__ = [
    "BoardDataError",
    "BoardRulesError",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidOptionError",
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


class InvalidMoveError(BoardRulesError, ValueError):
    """Move text that is not in the game's notation (or a move of another game)."""


class InvalidStateError(BoardRulesError, ValueError):
    """A saved state (JSON) that fails validation."""


class InvalidOptionError(BoardRulesError, ValueError):
    """An unknown game option or a value out of its range."""


class BoardDataError(BoardRulesError, ValueError):
    """A board data file that is missing, malformed or inconsistent (names the field)."""


class UnknownGameError(BoardRulesError, LookupError):
    """No game is registered under that id."""
