"""The conformance suite every registered game gets for free (architecture.md).

Each check of the public kit :mod:`boardrules.testing` (seeded random playouts checking
the contract at every step) runs on every game in the registry with each of its
``example_options``: one test per check and option set.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

import boardrules
from boardrules import Game, IllegalMoveError, InvalidMoveError, Move
from boardrules.games import as_game_id
from boardrules.games.tic_tac_toe import TicTacToeGame, TicTacToeMove, TicTacToeState
from boardrules.testing import CHECKS, assert_rejected, check_game, example_configs


def _configs() -> list[Any]:
    """Every registered game with each of its example options."""
    return [pytest.param(game_id, options,
                         id="-".join([game_id, *(f"{k}={v}" for k, v in options.items())]))
            for game_id, options in example_configs()]


CONFIGS = _configs()
_GAMES: dict[str, Game[Any, Any]] = {}


def _game(game_id: str, options: dict[str, Any]) -> Game[Any, Any]:
    """The game of a config, loaded once for all checks."""
    key = f"{game_id} {sorted(options.items())}"
    if key not in _GAMES:
        _GAMES[key] = boardrules.load(as_game_id(game_id), **options)
    return _GAMES[key]


@pytest.mark.parametrize(("game_id", "options"), CONFIGS)
@pytest.mark.parametrize("check", list(CHECKS.values()), ids=list(CHECKS))
def test_conformance(check: Callable[..., None], game_id: str, options: dict[str, Any]) -> None:
    check(_game(game_id, options))


def test_registry_lists_games_and_accepts_a_users_game() -> None:
    from boardrules.games import _REGISTRY, register

    assert {"armadora", "connect_four", "tic_tac_toe"} <= set(boardrules.available_games())
    my_id = register("my_tic_tac_toe", type(boardrules.load("tic_tac_toe")))
    try:
        assert my_id == "my_tic_tac_toe"
        assert "my_tic_tac_toe" in boardrules.available_games()
        assert boardrules.load(my_id).new_game(seed=1).legal_moves()
        assert boardrules.load(as_game_id("my_tic_tac_toe")).num_players == 2
    finally:
        del _REGISTRY["my_tic_tac_toe"]
    with pytest.raises(boardrules.UnknownGameError, match="no game 'my_tic_tac_toe'"):
        as_game_id("my_tic_tac_toe")
    with pytest.raises(TypeError):
        as_game_id(3)  # type: ignore[arg-type]


# --- the kit can fail ------------------------------------------------------------------------


class _UnsortedState(TicTacToeState):
    """A broken game: its legal moves come in reverse order."""

    __slots__ = ()

    def legal_moves(self) -> list[TicTacToeMove]:
        return super().legal_moves()[::-1]


class _ForgetfulState(TicTacToeState):
    """A broken game: its saves drop the position beside the history."""

    __slots__ = ()

    def to_json(self) -> str:
        doc = json.loads(super().to_json())
        del doc["state"]
        return json.dumps(doc)


class _RaisingIsLegalState(TicTacToeState):
    """A broken game: is_legal raises on what is not a move (this library's old
    behaviour) instead of answering False."""

    __slots__ = ()

    def is_legal(self, move: object) -> bool:
        return bool(self._core.is_legal(self._game._action_of(move)))


def _broken(state_class: type[TicTacToeState]) -> TicTacToeGame:
    game = TicTacToeGame()
    game.state_class = state_class  # this instance only; the registered game is intact
    return game


@pytest.mark.parametrize(("state_class", "check", "message"), [
    (_UnsortedState, "legal_moves", r"legal_moves\(\) not sorted"),
    (_ForgetfulState, "json_round_trip", r"InvalidStateError raised: fields must be exactly"),
    (_RaisingIsLegalState, "is_legal", r"InvalidMoveError raised: not a Tic-tac-toe move"),
])
def test_check_game_catches_a_broken_game(state_class: type[TicTacToeState], check: str,
                                          message: str) -> None:
    game = _broken(state_class)
    with pytest.raises(AssertionError, match=rf"check '{check}' failed: .*{message}"):
        check_game(game)
    with pytest.raises(AssertionError, match=message):
        CHECKS[check](game)
    check_game(TicTacToeGame())  # the control: the same game unbroken passes


@pytest.mark.parametrize("game_id", ["pig", "tic_tac_toe", "connect_four"])
def test_check_game_with_one_game_a_check_passes_a_correct_game(game_id: str) -> None:
    """``check_game(game, games=1)`` failed Pig's notation check ("only 7 distinct moves
    seen in 1 games": one game need not roll every face); a short run plays on with the
    next seeds until it has seen the notation."""
    check_game(boardrules.load(as_game_id(game_id)), games=1, seed=0)


def test_check_game_refuses_what_is_not_a_game() -> None:
    with pytest.raises(TypeError, match="needs a boardrules Game"):
        check_game("tic_tac_toe")  # type: ignore[arg-type]


# --- is_legal and the parse error, for every game ------------------------------------------


@pytest.mark.parametrize(("game_id", "text", "article"), [
    ("armadora", "3@z9", "an Armadora move"),
    ("connect_four", "h", "a Connect Four move"),
    ("pig", "jump", "a Pig move"),
    ("tic_tac_toe", "d4", "a Tic-tac-toe move"),
])
def test_parse_error_uses_the_right_article(game_id: str, text: str, article: str) -> None:
    game = boardrules.load(as_game_id(game_id))
    with pytest.raises(InvalidMoveError, match=f"^not {article}: '{text}'"):
        game.parse_move(text)
    with pytest.raises(InvalidMoveError, match=f"^not {article}: 'xxxxxxxx"):
        game.parse_move("x" * 100)


def test_is_legal_is_false_for_anything_not_a_legal_move_here() -> None:
    """is_legal answers False (apply raises its documented errors) for unparseable text, a
    move of another game, a wrong type and a forged move."""
    game = boardrules.load("armadora")
    armadora = game.new_game(seed=1)
    other = boardrules.load("tic_tac_toe").move(0)
    key = game._game_key()
    forged = [Move.__new__(Move),                       # no fields at all
              Move(10**6, "3@c2", key),                 # this game's key, no such action
              Move(True, "a1-b1", key),                 # an action id that is a bool
              Move(1, "a1-b1", [*key])]                 # a key of another type
    cases: list[tuple[object, type[Exception]]] = [
        ("3@z9", InvalidMoveError), ("", InvalidMoveError), ("x" * 1000, InvalidMoveError),
        (other, InvalidMoveError), *((f, InvalidMoveError) for f in forged),
        (None, TypeError), (7, TypeError), (b"pass", TypeError), ("done", IllegalMoveError),
    ]
    for value, error in cases:
        assert armadora.is_legal(value) is False, value
        assert_rejected(armadora, error, lambda v=value: armadora.apply(v))
    assert armadora.is_legal("pass") and armadora.is_legal(armadora.legal_moves()[0])
