"""Bad input of every kind: junk and mistyped moves, illegal moves, bad options, broken
board files and forged or truncated saved states.

The contract under test (docs: architecture, "Saved states are untrusted input" and
"Errors"): every bad call raises the documented error class and leaves the state exactly
as it was; nothing a caller passes may crash the interpreter.
"""

from __future__ import annotations

import copy
import json
import random
import re
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import boardrules
from boardrules import (
    CHANCE,
    BoardDataError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionError,
    InvalidStateError,
    UnknownGameError,
)
from boardrules.games.armadora.board import BOARDS_DIR
from boardrules.games.armadora.game import ILLEGAL_REASONS
from boardrules.testing import assert_rejected as rejects
from boardrules.testing import assert_unchanged, play_to_end, random_play, snapshot

# --------------------------------------------------------------------------------------
# Games (loaded once) and helpers
# --------------------------------------------------------------------------------------

G2B = boardrules.load("armadora", players=2, variant="basic")
G2A = boardrules.load("armadora", players=2, variant="advanced")
G3A = boardrules.load("armadora", players=3, variant="advanced")
G4B = boardrules.load("armadora", players=4, variant="basic")
G4A = boardrules.load("armadora", players=4, variant="advanced")
G2B_7x5 = boardrules.load("armadora", players=2, variant="basic", board="sheet-7x5")

PRINTED = json.loads((BOARDS_DIR / "printed.json").read_text(encoding="utf-8"))
BOARD_FIELDS = ("format", "format_version", "game", "name", "title", "provenance",
                "sources", "width", "height", "mines")


def finished(game: Any, seed: int = 5) -> Any:
    """A finished game: every player passes at once."""
    state = game.new_game(seed=seed)
    while not state.is_terminal():
        state.apply("pass")
    return state


# --------------------------------------------------------------------------------------
# Junk move strings
# --------------------------------------------------------------------------------------

JUNK_MOVES = [
    "",
    "   ",
    "\t\n",
    "zz",
    "3@z9",
    "9@c2",
    "0@c2",
    "6@c2",
    "3@c0",
    "3@c6",      # row 6 is off the 8 x 5 board
    "3@i1",      # column i is off the board
    "3@",
    "@c2",
    "3@@c2",
    "3c2",
    "c2-e2",     # not adjacent
    "c2-d3",     # diagonal
    "c2-c2",
    "c2-",
    "-c2",
    "c2--d2",
    "h1-a2",
    "x" * 10_000,
    "3@c2" * 2_500,
    "pass" + "x" * 10_000,
    "\uff13@\uff43\uff12",  # full-width '3@c2'
    "пасс",
    "🂡",
    "passé",
    "c2\u2013d2",  # en dash
    "\u200bpass",  # zero-width space is not white space
    "pass pass",
    "done done",
    "pass\x00",
    "\x00",
    "3@c2\x00",
    "\x00pass",
    "gold 8",
    "gold",
    "race dwarf",
    "race",
    "peek",
    "arrow z9",
    "reinforce",
    "goblin",
    "goblin c2",
    "orc c2-e2",
    "orc 3@c2",
    "elf 3@c2",
    "pass;DROP TABLE games",
    "\ud800",    # lone surrogate
]


def _junk_states() -> list[Any]:
    return [G2B.new_game(seed=1), random_play(G2A, seed=2, moves=25, rng_seed=3)]


@pytest.mark.parametrize("text", JUNK_MOVES, ids=lambda t: repr(t[:20]))
def test_junk_move_text_is_invalid(text: str) -> None:
    for state in _junk_states():
        game = state.game
        with pytest.raises(InvalidMoveError):
            game.parse_move(text)
        rejects(state, InvalidMoveError, lambda s=state: s.apply(text))
        rejects(state, InvalidMoveError, lambda s=state: s.apply(text, player=s.current_player))
        assert not assert_unchanged(state, lambda s=state: s.is_legal(text))
        rejects(state, InvalidMoveError, lambda s=state: s.child(text))


def test_junk_move_on_the_smaller_board() -> None:
    """h1 exists on the printed 8 x 5 board, not on the 7 x 5 one."""
    state = G2B_7x5.new_game(seed=4)
    assert G2B.parse_move("3@h1").kind == "warrior"
    for text in ("3@h1", "g1-h1", "peek h1"):
        with pytest.raises(InvalidMoveError):
            G2B_7x5.parse_move(text)
        rejects(state, InvalidMoveError, lambda t=text: state.apply(t))


# --------------------------------------------------------------------------------------
# Wrong types
# --------------------------------------------------------------------------------------

WRONG_TYPES = [None, 3, 0, 3.5, True, b"pass", bytearray(b"pass"), ["pass"], ("pass",),
               {"move": "pass"}, {"pass"}, object(), 668j]


@pytest.mark.parametrize("value", WRONG_TYPES, ids=lambda v: type(v).__name__)
def test_wrong_move_type_is_type_error(value: Any) -> None:
    for state in _junk_states():
        with pytest.raises(TypeError):
            state.game.parse_move(value)
        rejects(state, TypeError, lambda s=state: s.apply(value))
        assert not assert_unchanged(state, lambda s=state: s.is_legal(value))
        rejects(state, TypeError, lambda s=state: s.child(value))


# --------------------------------------------------------------------------------------
# Illegal, well-formed moves
# --------------------------------------------------------------------------------------

def _assert_illegal(state: Any, move: Any, rule: str | None = None) -> IllegalMoveError:
    assert not state.is_legal(move)
    exc = rejects(state, IllegalMoveError, lambda: state.apply(move))
    assert isinstance(exc, IllegalMoveError)
    assert isinstance(exc.rule, str) and exc.rule, "IllegalMoveError.rule is empty"
    assert exc.rule != "legal"
    assert str(exc), "IllegalMoveError has no message"
    if rule is not None:
        assert exc.rule == rule, f"{move!r}: rule {exc.rule!r}, expected {rule!r}"
    # a child() of an illegal move raises too and leaves the parent alone
    rejects(state, IllegalMoveError, lambda: state.child(move))
    return exc


def test_warrior_on_a_mine_square() -> None:
    state = G2B.new_game(seed=1)
    mine = G2B.square(G2B.board.mine_cells[0])
    _assert_illegal(state, f"1@{mine}", "square_not_empty")


def test_warrior_on_an_occupied_square() -> None:
    state = G2B.new_game(seed=1)
    state.apply("3@c3")
    _assert_illegal(state, "1@c3", "square_not_empty")
    _assert_illegal(state, "3@c3", "square_not_empty")


def test_strength_the_player_does_not_have() -> None:
    state = G4B.new_game(seed=1)
    _assert_illegal(state, "5@c3", "no_such_warrior")  # 4 players: no warrior of 5
    state2 = G2B.new_game(seed=1)
    state2.apply("5@c3")  # 2 players: one warrior of 5, now used
    state2.apply("1@e3")
    _assert_illegal(state2, "5@a3", "no_such_warrior")


def test_done_at_turn_start() -> None:
    _assert_illegal(G2B.new_game(seed=1), "done", "done_without_palisade")


def test_second_identical_palisade() -> None:
    state = G2B.new_game(seed=1)
    state.apply("c3-d3")
    _assert_illegal(state, "c3-d3", "edge_taken")
    _assert_illegal(state, "d3-c3", "edge_taken")
    state.apply("done")
    _assert_illegal(state, "c3-d3", "edge_taken")


def test_mid_turn_restrictions() -> None:
    state = G2B.new_game(seed=1)
    state.apply("c3-d3")
    _assert_illegal(state, "pass", "pass_mid_turn")
    _assert_illegal(state, "3@e3", "second_palisade_only")


@pytest.mark.parametrize("text", ["goblin 1@c3", "orc c3-d3", "peek c3", "arrow c3"])
def test_power_in_the_basic_game(text: str) -> None:
    _assert_illegal(G2B.new_game(seed=1), text, "basic_game")


def test_power_of_another_race() -> None:
    state = G2A.new_game(seed=1)
    race = json.loads(state.to_json())["state"]["players"][state.current_player]["race"]
    others = {"orc": "orc c3-d3", "goblin": "goblin 1@c3", "mage": "peek c3",
              "elf": "arrow c3"}
    assert race in others
    for other, text in others.items():
        if other != race:
            _assert_illegal(state, text, "wrong_race")


def test_reinforcement_in_the_basic_game() -> None:
    _assert_illegal(G2B.new_game(seed=1), "reinforce c3", "basic_game")


def test_reinforce_without_a_warrior() -> None:
    """Rule 七: each player holds a reinforcement token from the start of the advanced
    game; on a square without his warrior the rule broken is 'reinforce_not_own'."""
    state = G2A.new_game(seed=1)
    _assert_illegal(state, "reinforce c3", "reinforce_not_own")


def test_chance_outcome_at_a_player_node() -> None:
    state = G2A.new_game(seed=1)
    _assert_illegal(state, "gold 5", "not_chance")
    _assert_illegal(state, "race elf", "not_chance")


def test_player_move_at_a_chance_node() -> None:
    state = G2A.new_game(seed=1, auto_chance=False)
    assert state.current_player == CHANCE
    _assert_illegal(state, "3@c3", "chance_expected")
    _assert_illegal(state, "pass", "chance_expected")
    _assert_illegal(state, "race elf", "chance_expected")
    _assert_illegal(state, "gold 0", "gold_pile_unavailable")
    _assert_illegal(state, "gold 1", "gold_pile_unavailable")


def test_every_rejection_rule_is_documented() -> None:
    """Every rule key the library produces has an entry in the message table."""
    state = random_play(G4A, seed=9, moves=30, rng_seed=1)
    for move in (G4A.move(a) for a in range(G4A.num_distinct_actions)):
        if not state.is_legal(move):
            exc = _assert_illegal(state, move)
            assert exc.rule in ILLEGAL_REASONS


# --------------------------------------------------------------------------------------
# Who is asking
# --------------------------------------------------------------------------------------

def test_wrong_player() -> None:
    state = G2B.new_game(seed=1)
    assert state.current_player == 0
    for move in ("3@c3", "pass", state.legal_moves()[5]):
        exc = rejects(state, IllegalMoveError, lambda m=move: state.apply(m, player=1))
        assert exc.rule == "wrong_player"
    state.apply("3@c3", player=0)
    exc = rejects(state, IllegalMoveError, lambda: state.apply("1@e3", player=0))
    assert exc.rule == "wrong_player"


def test_wrong_player_in_four_player_game() -> None:
    state = G4A.new_game(seed=1)
    for p in (1, 2, 3):
        exc = rejects(state, IllegalMoveError, lambda p=p: state.apply("pass", player=p))
        assert exc.rule == "wrong_player"


# ids by type and value, never by address: pytest-xdist's workers must collect the same ids
@pytest.mark.parametrize("player", [True, False, "0", "1", 0.0, 1.5, [0], b"0", object()],
                         ids=lambda p: "object()" if type(p) is object else repr(p))
def test_player_of_wrong_type(player: Any) -> None:
    state = G2B.new_game(seed=1)
    rejects(state, TypeError, lambda: state.apply("3@c3", player=player))


@pytest.mark.parametrize("player", [-1, -4, 2, 5, 2**70, -(2**70)])
def test_player_out_of_range(player: int) -> None:
    """A player id that is no seat at all is refused (IllegalMoveError is a ValueError)."""
    state = G2B.new_game(seed=1)
    rejects(state, ValueError, lambda: state.apply("3@c3", player=player))


def test_player_minus_one_cannot_choose_chance_outcomes() -> None:
    """``player`` is who asks; -1 (the value of CHANCE) is no player, so a client sending
    it must not get to pick the outcome of a chance event."""
    state = G2A.new_game(seed=1, auto_chance=False)
    assert state.current_player == CHANCE
    outcome = state.legal_moves()[0]
    rejects(state, ValueError, lambda: state.apply(outcome, player=CHANCE))


# --------------------------------------------------------------------------------------
# Moves of another game
# --------------------------------------------------------------------------------------

def test_move_of_other_player_count() -> None:
    assert G4B.core.layout == G2B.core.layout  # the same action ids mean the same moves
    state = G2B.new_game(seed=1)
    foreign = G4B.parse_move("3@c3")
    assert state.is_legal(G2B.move(foreign.action))  # legal here under its own game
    rejects(state, InvalidMoveError, lambda: state.apply(foreign))
    assert not assert_unchanged(state, lambda: state.is_legal(foreign))
    rejects(state, InvalidMoveError, lambda: state.child(foreign))
    foreign_pass = G4B.move(0)
    rejects(state, InvalidMoveError, lambda: state.apply(foreign_pass))


def test_move_of_other_variant() -> None:
    state = G2B.new_game(seed=1)
    rejects(state, InvalidMoveError, lambda: state.apply(G2A.parse_move("3@c3")))


def test_move_of_other_board() -> None:
    state = G2B.new_game(seed=1)
    foreign = G2B_7x5.parse_move("3@c3")
    rejects(state, InvalidMoveError, lambda: state.apply(foreign))
    state7 = G2B_7x5.new_game(seed=1)
    rejects(state7, InvalidMoveError, lambda: state7.apply(G2B.parse_move("3@c3")))


def test_move_of_an_identically_loaded_game_is_accepted() -> None:
    """Control: moves compare by game and options, not object identity."""
    other = boardrules.load("armadora", players=2, variant="basic")
    state = G2B.new_game(seed=1)
    state.apply(other.parse_move("3@c3"))
    assert str(state.history[-1]) == "3@c3"


# --------------------------------------------------------------------------------------
# Game over, action ids, views, chance, seeds
# --------------------------------------------------------------------------------------

@pytest.mark.parametrize("game", [G2B, G3A, G4A], ids=["2b", "3a", "4a"])
def test_moves_after_the_game_is_over(game: Any) -> None:
    state = finished(game)
    assert state.is_terminal() and state.legal_moves() == []
    for move in ("pass", "3@c3", "done", "c3-d3", game.move(0), "gold 5"):
        exc = rejects(state, IllegalMoveError, lambda m=move: state.apply(m))
        assert exc.rule == "game_over"
    exc = rejects(state, IllegalMoveError, lambda: state.apply_random_chance())
    assert exc.rule
    exc = rejects(state, IllegalMoveError, lambda: state.apply("pass", player=0))
    assert exc.rule


def test_random_game_over_rejects_moves() -> None:
    state = play_to_end(G2A.new_game(seed=8), rng_seed=8)
    for action in range(G2A.num_distinct_actions):
        rejects(state, IllegalMoveError, lambda a=action: state.apply(G2A.move(a)))


@pytest.mark.parametrize("action", [-1, -(2**70), "n", "n+1", 10**9, 2**31, 2**64])
def test_move_action_out_of_range(action: Any) -> None:
    n = G2B.num_distinct_actions
    action = {"n": n, "n+1": n + 1}.get(action, action)
    G2B.move(n - 1)  # control: the last id is a move
    with pytest.raises(InvalidMoveError):
        G2B.move(action)


@pytest.mark.parametrize("action", ["3", None, 3.0, True, b"\x03", [3]], ids=repr)
def test_move_action_of_wrong_type(action: Any) -> None:
    with pytest.raises(TypeError):
        G2B.move(action)


@pytest.mark.parametrize("player", [5, 2, -1, 2**70])
def test_view_out_of_range(player: int) -> None:
    state = random_play(G2A, seed=3, moves=10)
    rejects(state, ValueError, lambda: state.view(player))


@pytest.mark.parametrize("player", ["0", True, 0.0, [0], b"0"], ids=repr)
def test_view_of_wrong_type(player: Any) -> None:
    state = random_play(G2A, seed=3, moves=10)
    rejects(state, TypeError, lambda: state.view(player))


def test_apply_random_chance_at_a_player_node() -> None:
    for state in (G2B.new_game(seed=1), random_play(G4A, seed=2, moves=15)):
        assert state.current_player >= 0
        exc = rejects(state, IllegalMoveError, lambda s=state: s.apply_random_chance())
        assert exc.rule
        rejects(state, IllegalMoveError, lambda s=state: s.apply_random_chance(seed=3))


@pytest.mark.parametrize("seed", ["x", 1.5, True, [1], -1, 2**64], ids=repr)
def test_apply_random_chance_bad_seed(seed: Any) -> None:
    state = G2A.new_game(seed=1, auto_chance=False)
    assert state.current_player == CHANCE
    rejects(state, (TypeError, ValueError), lambda: state.apply_random_chance(seed=seed))


@pytest.mark.parametrize("seed,error", [
    (-1, ValueError), (2**64, ValueError), (-(2**80), ValueError), (2**100, ValueError),
    ("x", TypeError), ("7", TypeError), (1.0, TypeError), (True, TypeError),
    (b"\x07", TypeError), ([7], TypeError),
], ids=repr)
def test_new_game_bad_seed(seed: Any, error: type[Exception]) -> None:
    with pytest.raises(error):
        G2B.new_game(seed=seed)


@pytest.mark.parametrize("auto_chance", ["yes", 1, None], ids=repr)
def test_new_game_bad_auto_chance(auto_chance: Any) -> None:
    with pytest.raises(TypeError):
        G2B.new_game(seed=1, auto_chance=auto_chance)


def test_new_game_seed_bounds_accepted() -> None:
    """Control: both ends of the seed range are fine and deterministic."""
    for seed in (0, 2**64 - 1):
        assert G2A.new_game(seed=seed).state_bytes() == G2A.new_game(seed=seed).state_bytes()


def test_undo_at_the_start() -> None:
    for state in (G2B.new_game(seed=1), G2B.new_game(seed=1, auto_chance=False)):
        rejects(state, IndexError, state.undo)


# --------------------------------------------------------------------------------------
# Options
# --------------------------------------------------------------------------------------

def _safe_id(value: Any) -> str:
    try:
        return repr(value)[:40]
    except RecursionError:
        return "deeply-nested"


def _deep_list(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("options", [
    {"players": 5}, {"players": 1}, {"players": 0}, {"players": -2}, {"players": True},
    {"players": "2"}, {"players": 2.0}, {"players": None}, {"players": 2**70},
    {"variant": "expert"}, {"variant": "Basic"}, {"variant": None}, {"variant": 1},
    {"variant": ["basic"]}, {"variant": _deep_list(100_000)},
    {"look_at_face_down": "yes"}, {"look_at_face_down": 1}, {"look_at_face_down": None},
    {"foo": 1}, {"Players": 2}, {"players": 2, "seed": 3},
], ids=lambda o: _safe_id(o))
def test_bad_options(options: dict[str, Any]) -> None:
    with pytest.raises(InvalidOptionError):
        boardrules.load("armadora", **options)


@pytest.mark.parametrize("game_id", ["chess", "", "Armadora", "armadora ", "rome"])
def test_unknown_game(game_id: str) -> None:
    with pytest.raises(UnknownGameError):
        boardrules.load(game_id)


@pytest.mark.parametrize("game_id", [3, None, b"armadora", ["armadora"]], ids=repr)
def test_game_id_of_wrong_type(game_id: Any) -> None:
    with pytest.raises(TypeError):
        boardrules.load(game_id)


# --------------------------------------------------------------------------------------
# Board files
# --------------------------------------------------------------------------------------

def _user_board(**changes: Any) -> dict[str, Any]:
    board = copy.deepcopy(PRINTED)
    board["provenance"] = "user"
    board["name"] = "my-board"
    board.update(changes)
    return board


def _without(field: str) -> dict[str, Any]:
    board = _user_board()
    del board[field]
    return board


def _mines(*mines: Any) -> dict[str, Any]:
    return _user_board(mines=list(mines))


_M = PRINTED["mines"]

# (id, board content, the field the message must name)
BAD_BOARDS: list[tuple[str, dict[str, Any], str]] = [
    *[(f"missing-{f}", _without(f), f) for f in BOARD_FIELDS],
    ("unknown-field", _user_board(colour="green"), "colour"),
    ("format-int", _user_board(format=1), "format"),
    ("format-other", _user_board(format="boardrules-state"), "format"),
    ("format_version-str", _user_board(format_version="1"), "format_version"),
    ("format_version-true", _user_board(format_version=True), "format_version"),
    ("format_version-float", _user_board(format_version=1.0), "format_version"),
    ("format_version-2", _user_board(format_version=2), "format_version"),
    ("game-chess", _user_board(game="chess"), "game"),
    ("game-int", _user_board(game=3), "game"),
    ("name-int", _user_board(name=5), "name"),
    ("name-empty", _user_board(name=""), "name"),
    ("name-long", _user_board(name="x" * 65), "name"),
    ("title-none", _user_board(title=None), "title"),
    ("provenance-fake", _user_board(provenance="fake"), "provenance"),
    ("provenance-int", _user_board(provenance=1), "provenance"),
    ("sources-str", _user_board(sources="a book"), "sources"),
    ("sources-ints", _user_board(sources=[1, 2]), "sources"),
    ("width-str", _user_board(width="8"), "width"),
    ("width-float", _user_board(width=8.0), "width"),
    ("width-true", _user_board(width=True), "width"),
    ("width-9", _user_board(width=9), "width"),
    ("width-1", _user_board(width=1), "width"),
    ("width-0", _user_board(width=0), "width"),
    ("width-negative", _user_board(width=-8), "width"),
    ("width-huge", _user_board(width=10**30), "width"),
    ("height-none", _user_board(height=None), "height"),
    ("height-1", _user_board(height=1), "height"),
    ("height-9", _user_board(height=9), "height"),
    ("mines-str", _user_board(mines="b2"), "mines"),
    ("mines-dict", _user_board(mines={}), "mines"),
    ("mines-7", _mines(*_M[:7]), "mines"),
    ("mines-9", _mines(*_M, [0, 0]), "mines"),
    ("mines-0", _mines(), "mines"),
    ("mine-duplicate", _mines(*_M[:7], _M[0]), "mines"),
    ("mine-off-x", _mines(*_M[:7], [8, 0]), "mines"),
    ("mine-off-y", _mines(*_M[:7], [0, 5]), "mines"),
    ("mine-negative", _mines(*_M[:7], [-1, 0]), "mines"),
    ("mine-1-item", _mines(*_M[:7], [1]), "mines"),
    ("mine-3-items", _mines(*_M[:7], [1, 2, 3]), "mines"),
    ("mine-str-item", _mines(*_M[:7], ["a", 1]), "mines"),
    ("mine-bool-item", _mines(*_M[:7], [True, 1]), "mines"),
    ("mine-float-item", _mines(*_M[:7], [1.0, 2]), "mines"),
    ("mine-null", _mines(*_M[:7], None), "mines"),
    ("mine-str", _mines(*_M[:7], "b2"), "mines"),
    ("mine-dict", _mines(*_M[:7], {"x": 0, "y": 0}), "mines"),
]


def _names_field(message: str, field: str) -> bool:
    """The message names ``field`` as a word (``format`` is not named by
    ``format_version``)."""
    return re.search(rf"(?<![\w-]){re.escape(field)}(?!\w)", message) is not None


@pytest.mark.parametrize("content,field", [(c, f) for _, c, f in BAD_BOARDS],
                         ids=[i for i, _, _ in BAD_BOARDS])
def test_bad_board_file(tmp_path: Path, content: dict[str, Any], field: str) -> None:
    path = tmp_path / "board.json"
    path.write_text(json.dumps(content), encoding="utf-8")
    with pytest.raises(BoardDataError) as info:
        boardrules.load("armadora", board=str(path))
    message = str(info.value).replace(str(path), "<path>")
    assert _names_field(message, field), f"message does not name {field!r}: {message}"
    # a pathlib.Path works the same way
    with pytest.raises(BoardDataError):
        boardrules.load("armadora", board=path)


@pytest.mark.parametrize("content,field", [(c, f) for _, c, f in BAD_BOARDS],
                         ids=[i for i, _, _ in BAD_BOARDS])
def test_bad_board_mapping(content: dict[str, Any], field: str) -> None:
    with pytest.raises(BoardDataError) as info:
        boardrules.load("armadora", board=content)
    assert _names_field(str(info.value), field), \
        f"message does not name {field!r}: {info.value}"


@pytest.mark.parametrize("text", [
    "not json", "", "{", '{"format": ', "[]", "[1, 2]", '"printed"', "null", "3",
    "[" * 100_000, '{"a": ' * 50_000,
], ids=lambda t: repr(t[:12]))
def test_board_file_not_a_json_object(tmp_path: Path, text: str) -> None:
    path = tmp_path / "board.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BoardDataError) as info:
        boardrules.load("armadora", board=str(path))
    assert str(path) in str(info.value), "the message does not name the board file"


def test_board_file_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "board.json"
    path.write_bytes(b"\xff\xfe{\x00}\x00\x80\x81")
    with pytest.raises(BoardDataError):
        boardrules.load("armadora", board=str(path))


def test_board_file_too_large(tmp_path: Path) -> None:
    path = tmp_path / "board.json"
    board = _user_board(title="x" * 2_000_000)
    path.write_text(json.dumps(board), encoding="utf-8")
    with pytest.raises(BoardDataError):
        boardrules.load("armadora", board=str(path))


def test_board_nonexistent_path(tmp_path: Path) -> None:
    path = tmp_path / "no-such-board.json"
    with pytest.raises(BoardDataError) as info:
        boardrules.load("armadora", board=str(path))
    assert "no-such-board" in str(info.value)


def test_board_directory_path(tmp_path: Path) -> None:
    with pytest.raises(BoardDataError) as info:
        boardrules.load("armadora", board=str(tmp_path))
    assert str(tmp_path) in str(info.value)


@pytest.mark.parametrize("board", ["", "nonexistent-board", "printed.json", "PRINTED"])
def test_board_unknown_name(board: str) -> None:
    with pytest.raises(BoardDataError):
        boardrules.load("armadora", board=board)


@pytest.mark.parametrize("board", [3, None, b"printed", ["printed"], 1.5], ids=repr)
def test_board_of_wrong_type(board: Any) -> None:
    with pytest.raises((BoardDataError, InvalidOptionError)):
        boardrules.load("armadora", board=board)


def _run_isolated(code: str, timeout: float = 60) -> str:
    """Run ``code`` in a child interpreter with 1 GiB of address space; its stdout.  (A
    test that uses it is marked ``needs_address_limit``: the sanitizer run skips it.)"""
    prelude = textwrap.dedent("""
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
    """)
    try:
        proc = subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(code)],
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        pytest.fail(f"did not finish within {timeout} s")
    return proc.stdout + proc.stderr[-2000:]


@pytest.mark.needs_address_limit
def test_board_endless_file() -> None:
    """A board "file" with no end (a device) is refused as too large, not read until
    memory runs out."""
    out = _run_isolated("""
        import boardrules
        try:
            boardrules.load("armadora", board="/dev/zero")
        except boardrules.BoardDataError:
            print("REFUSED")
    """)
    assert "REFUSED" in out, out


def test_valid_user_board_file_plays_to_the_end(tmp_path: Path) -> None:
    path = tmp_path / "my-board.json"
    board = _user_board()
    path.write_text(json.dumps(board), encoding="utf-8")
    for variant, players in (("basic", 2), ("advanced", 4)):
        game = boardrules.load("armadora", players=players, variant=variant, board=str(path))
        assert game.board.name == "my-board" and game.board.provenance == "user"
        assert game.options["board"] == board  # recorded by content, not by path
        state = play_to_end(game.new_game(seed=7), rng_seed=7)
        assert state.outcome() is not None
        assert sum(state.score()) <= 40
        restored = game.state_from_json(state.to_json())
        assert restored == state
        assert boardrules.state_from_json(state.to_json()) == state


def test_board_as_mapping() -> None:
    board = _user_board()
    game = boardrules.load("armadora", players=3, variant="advanced", board=board)
    assert game.board.name == "my-board"
    state = play_to_end(game.new_game(seed=11), rng_seed=11)
    assert boardrules.state_from_json(state.to_json()) == state
    # the caller's mapping is not kept by reference
    board["width"] = 99
    assert game.options["board"]["width"] == 8


@pytest.mark.parametrize("width,height,mines", [
    (2, 5, [[0, 0], [1, 0], [0, 1], [1, 1], [0, 2], [1, 2], [0, 3], [1, 3]]),
    (5, 2, [[0, 0], [1, 0], [2, 0], [3, 0], [0, 1], [1, 1], [2, 1], [3, 1]]),
    (3, 4, [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2], [0, 3], [1, 3], [2, 3]]),
    (8, 8, [[0, 0], [7, 0], [3, 3], [4, 4], [0, 7], [7, 7], [2, 5], [5, 2]]),
    (2, 8, [[0, 0], [1, 1], [0, 2], [1, 3], [0, 4], [1, 5], [0, 6], [1, 7]]),
], ids=["2x5", "5x2", "3x4", "8x8", "2x8"])
def test_extreme_valid_boards_play_to_the_end(width: int, height: int,
                                              mines: list[list[int]]) -> None:
    board = _user_board(width=width, height=height, mines=mines)
    for players, variant in ((2, "basic"), (4, "advanced"), (3, "advanced")):
        game = boardrules.load("armadora", players=players, variant=variant, board=board)
        for seed in range(3):
            state = play_to_end(game.new_game(seed=seed), rng_seed=seed)
            assert game.state_from_json(state.to_json()) == state


# --------------------------------------------------------------------------------------
# Forged and truncated saved states
# --------------------------------------------------------------------------------------

def _base_state() -> Any:
    state = random_play(G2A, seed=12345, moves=20, rng_seed=99)
    assert len(state.history) >= 20 and not state.is_terminal()
    return state


BASE = _base_state()
BASE_JSON = BASE.to_json()
BASE_DOC = json.loads(BASE_JSON)


def _forge(change: Callable[[dict[str, Any]], Any]) -> str:
    doc = copy.deepcopy(BASE_DOC)
    change(doc)
    return json.dumps(doc)


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """A change setting ``doc[a][b]...`` (keys separated by '/') to ``value``."""
    keys = [int(k) if k.lstrip("-").isdigit() else k for k in path.split("/")]

    def change(doc: dict[str, Any]) -> None:
        target: Any = doc
        for k in keys[:-1]:
            target = target[k]
        target[keys[-1]] = value
    return change


def _delete(path: str) -> Callable[[dict[str, Any]], None]:
    keys = [int(k) if k.lstrip("-").isdigit() else k for k in path.split("/")]

    def change(doc: dict[str, Any]) -> None:
        target: Any = doc
        for k in keys[:-1]:
            target = target[k]
        del target[keys[-1]]
    return change


def _apply_all(*changes: Callable[[dict[str, Any]], Any]) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        for c in changes:
            c(doc)
    return change


def _first_player_history_index() -> int:
    return next(i for i, m in enumerate(BASE.history) if not m.is_chance)


_P0 = _first_player_history_index()
_W0 = BASE_DOC["state"]["warriors"][0]
_G0 = BASE_DOC["state"]["gold"][0]


def _illegal_history(doc: dict[str, Any]) -> None:
    mine = G2A.square(G2A.board.mine_cells[0])
    doc["history"][_P0] = f"1@{mine}"


def _free_square(doc: dict[str, Any]) -> str:
    taken = {w["square"] for w in doc["state"]["warriors"]}
    taken |= {G2A.square(c) for c in G2A.board.mine_cells}
    return next(G2A.square(c) for c in range(40) if G2A.square(c) not in taken)


def _move_warrior(doc: dict[str, Any]) -> None:
    doc["state"]["warriors"][0]["square"] = _free_square(doc)


def _bump(path: str) -> Callable[[dict[str, Any]], None]:
    keys = [int(k) if k.lstrip("-").isdigit() else k for k in path.split("/")]

    def change(doc: dict[str, Any]) -> None:
        target: Any = doc
        for k in keys[:-1]:
            target = target[k]
        target[keys[-1]] += 1
    return change


def _extra_warrior(doc: dict[str, Any]) -> None:
    doc["state"]["warriors"].append({**_W0, "square": _free_square(doc)})


def _other_owner(doc: dict[str, Any]) -> None:
    w = doc["state"]["warriors"][0]
    w["owner"] = 1 - w["owner"]


def _other_gold(doc: dict[str, Any]) -> None:
    g = doc["state"]["gold"][0]
    g["gold"] = g["gold"] + 1 if g["gold"] < 7 else g["gold"] - 1


def _swap_chance_history(doc: dict[str, Any]) -> None:
    """A different (legal) deal of the gold piles, the saved position unchanged."""
    h = doc["history"]
    i = next(i for i in range(1, len(h)) if h[i].startswith("gold") and h[i] != h[0])
    h[0], h[i] = h[i], h[0]


FORGED: list[tuple[str, Callable[[dict[str, Any]], Any]]] = [
    # envelope
    *[(f"missing-{k}", _delete(k)) for k in sorted(BASE_DOC)],
    ("extra-field", _set("extra", 1)),
    ("format-wrong", _set("format", "boardrules-stat")),
    ("format-null", _set("format", None)),
    ("format_version-1-no-rng-history", _set("format_version", 1)),
    ("format_version-4", _set("format_version", 4)),
    ("format_version-2-with-v3-fields", _set("format_version", 2)),
    ("format_version-0", _set("format_version", 0)),
    ("format_version-true", _set("format_version", True)),
    ("format_version-float", _set("format_version", 1.0)),
    ("format_version-str", _set("format_version", "1")),
    ("game-chess", _set("game", "chess")),
    ("game-upper", _set("game", "ARMADORA")),
    ("game-int", _set("game", 5)),
    ("game-null", _set("game", None)),
    ("game-list", _set("game", ["armadora"])),
    ("rules_version-old", _set("rules_version", "0.9")),
    ("rules_version-float", _set("rules_version", 1.0)),
    ("rules_version-null", _set("rules_version", None)),
    # options
    ("options-players-3", _set("options/players", 3)),
    ("options-players-4", _set("options/players", 4)),
    ("options-variant-basic", _set("options/variant", "basic")),
    ("options-board-7x5", _set("options/board", "sheet-7x5")),
    ("options-players-float", _set("options/players", 2.0)),
    ("options-players-true", _set("options/players", True)),
    ("options-look-int", _set("options/look_at_face_down", 1)),
    ("options-extra", _set("options/foo", 1)),
    ("options-game_id", _set("options/game_id", "armadora")),
    ("options-empty", _set("options", {})),
    ("options-null", _set("options", None)),
    ("options-list", _set("options", [])),
    ("options-missing-players", _delete("options/players")),
    # auto_chance
    ("auto_chance-str", _set("auto_chance", "yes")),
    ("auto_chance-int", _set("auto_chance", 1)),
    ("auto_chance-null", _set("auto_chance", None)),
    # auto_forced, forced steps and the start position (format 3)
    ("auto_forced-str", _set("auto_forced", "yes")),
    ("auto_forced-int", _set("auto_forced", 1)),
    ("auto_forced-null", _set("auto_forced", None)),
    ("forced-str", _set("forced", "0")),
    ("forced-null", _set("forced", None)),
    ("forced-not-a-forced-step", _set("forced", [12])),
    ("forced-out-of-range", _set("forced", [10_000])),
    ("forced-negative", _set("forced", [-1])),
    ("forced-also-drawn", _set("forced", [0])),
    ("forced-float", _set("forced", [12.0])),
    ("start-int", _set("start", 5)),
    ("start-list", _set("start", [])),
    ("start-junk", _set("start", "not a position")),
    # rng
    ("rng-3-words", _set("rng", BASE_DOC["rng"][:3])),
    ("rng-5-words", _set("rng", [*BASE_DOC["rng"], BASE_DOC["rng"][0]])),
    ("rng-empty", _set("rng", [])),
    ("rng-str", _set("rng", "".join(BASE_DOC["rng"]))),
    ("rng-null", _set("rng", None)),
    ("rng-short-word", _set("rng/0", BASE_DOC["rng"][0][:15])),
    ("rng-long-word", _set("rng/0", BASE_DOC["rng"][0] + "0")),
    ("rng-non-hex", _set("rng/0", "zzzzzzzzzzzzzzzz")),
    ("rng-int-word", _set("rng/0", 12345)),
    ("rng-all-zero", _set("rng", ["0" * 16] * 4)),
    ("rng-negative-word", _set("rng/0", "-000000000000001")),
    # the starting RNG and the draws made from it
    ("rng_start-3-words", _set("rng_start", BASE_DOC["rng_start"][:3])),
    ("rng_start-all-zero", _set("rng_start", ["0" * 16] * 4)),
    ("rng_start-non-hex", _set("rng_start/0", "zzzzzzzzzzzzzzzz")),
    ("rng_start-other-word", _set("rng_start/0", "%016x" % (int(BASE_DOC["rng_start"][0], 16)
                                                           ^ 1))),
    ("rng_start-null", _set("rng_start", None)),
    ("rng-other-word", _set("rng/0", "%016x" % (int(BASE_DOC["rng"][0], 16) ^ 1))),
    ("drawn-null", _set("drawn", None)),
    ("drawn-str", _set("drawn", "0")),
    ("drawn-bool-item", _set("drawn/0", True)),
    ("drawn-float-item", _set("drawn/0", 0.0)),
    ("drawn-missing-chance", lambda d: d["drawn"].pop()),
    ("drawn-player-move", lambda d: d["drawn"].append(_P0)),
    ("drawn-out-of-range", lambda d: d["drawn"].append(len(d["history"]))),
    ("drawn-negative", lambda d: d["drawn"].insert(0, -1)),
    ("drawn-repeated", lambda d: d["drawn"].append(d["drawn"][-1])),
    ("drawn-reversed", lambda d: d["drawn"].reverse()),
    ("drawn-empty", _set("drawn", [])),
    # history
    ("history-illegal", _illegal_history),
    ("history-junk", _set(f"history/{_P0}", "zz")),
    ("history-long-string", _set(f"history/{_P0}", "x" * 10_000)),
    ("history-int", _set(f"history/{_P0}", 5)),
    ("history-null-item", _set(f"history/{_P0}", None)),
    ("history-list-item", _set(f"history/{_P0}", ["pass"])),
    ("history-str", _set("history", "pass")),
    ("history-null", _set("history", None)),
    ("history-dict", _set("history", {"0": "pass"})),
    ("history-empty", _set("history", [])),
    ("history-truncated", lambda d: d["history"].pop()),
    ("history-extra-move", lambda d: d["history"].append("pass")),
    ("history-too-long", _set("history", ["pass"] * (G2A.max_game_length + 1))),
    ("history-way-too-long", _set("history", ["pass"] * 100_000)),
    ("history-other-deal", _swap_chance_history),
    ("history-foreign-board-move", _set(f"history/{_P0}", "peek z9")),
    # the position block
    ("state-null", _set("state", None)),
    ("state-list", _set("state", [])),
    ("state-empty", _set("state", {})),
    ("state-extra-field", _set("state/extra", 1)),
    ("state-missing-phase", _delete("state/phase")),
    ("state-phase-over", _set("state/phase", "over")),
    ("state-phase-int", _set("state/phase", 2)),
    ("state-current-player", _set("state/current_player",
                                  1 - BASE_DOC["state"]["current_player"])),
    ("state-passed", _set("state/passed", [True, False])),
    ("warrior-strength", _set("state/warriors/0/strength", _W0["strength"] % 5 + 1)),
    ("warrior-strength-0", _set("state/warriors/0/strength", 0)),
    ("warrior-strength-255", _set("state/warriors/0/strength", 255)),
    ("warrior-strength-float", _set("state/warriors/0/strength", float(_W0["strength"]))),
    ("warrior-strength-str", _set("state/warriors/0/strength", str(_W0["strength"]))),
    ("warrior-owner", _other_owner),
    ("warrior-owner-true", _set("state/warriors/0/owner", bool(_W0["owner"]))),
    ("warrior-square", _move_warrior),
    ("warrior-face-up", _set("state/warriors/0/face_up", not _W0["face_up"])),
    ("warrior-face-up-int", _set("state/warriors/0/face_up", int(_W0["face_up"]))),
    ("warrior-arrows", _set("state/warriors/0/arrows", 1)),
    ("warrior-reinforced", _set("state/warriors/0/reinforced", True)),
    ("warrior-extra", _extra_warrior),
    ("warrior-removed", lambda d: d["state"]["warriors"].pop()),
    ("warriors-null", _set("state/warriors", None)),
    ("palisade-removed", lambda d: d["state"]["palisades"].pop()),
    ("palisade-extra", lambda d: d["state"]["palisades"].append("a1-b1")),
    ("palisade-junk", _set("state/palisades/0", "zz")),
    ("palisades_left", _set("state/palisades_left",
                            BASE_DOC["state"]["palisades_left"] - 1)),
    ("palisades_left-true", _set("state/palisades_left", True)),
    ("palisades_left-float", _set("state/palisades_left",
                                  float(BASE_DOC["state"]["palisades_left"]))),
    ("palisades_left-huge", _set("state/palisades_left", 10**30)),
    ("palisades_left-negative", _set("state/palisades_left", -1)),
    ("palisades_left-null", _set("state/palisades_left", None)),
    ("palisades_left-nested", _set("state/palisades_left",
                                   [[[BASE_DOC["state"]["palisades_left"]]]])),
    ("gold-changed", _other_gold),
    ("gold-removed", lambda d: d["state"]["gold"].pop()),
    ("gold-extra", lambda d: d["state"]["gold"].append({**_G0, "square": "a1"})),
    ("gold-float", _set("state/gold/0/gold", float(_G0["gold"]))),
    ("unplaced-gold", _set("state/unplaced_gold", [3])),
    ("player-pool", _bump("state/players/0/pool/0")),
    ("player-pool-short", _set("state/players/0/pool", [11, 2, 1, 1])),
    ("player-race", _set("state/players/0/race", "dwarf")),
    ("player-race-null", _set("state/players/0/race", None)),
    ("player-power-tokens", _set("state/players/0/power_tokens", 9)),
    ("player-power-tokens-bool", _set(
        "state/players/0/power_tokens", bool(BASE_DOC["state"]["players"][0]["power_tokens"]))),
    ("player-reinforcement", _set(
        "state/players/0/reinforcement_left",
        not BASE_DOC["state"]["players"][0]["reinforcement_left"])),
    ("player-peeked", _set("state/players/0/peeked", ["a1"])),
    ("player-extra", lambda d: d["state"]["players"].append(d["state"]["players"][0])),
    ("players-reversed", lambda d: d["state"]["players"].reverse()),
    # combinations that keep a forgery self-consistent in one place only
    ("state-and-options", _apply_all(_set("options/players", 3), _other_gold)),
]


def _all_loaders() -> list[tuple[str, Callable[[Any], Any]]]:
    return [
        ("game.state_from_json", G2A.state_from_json),
        ("boardrules.state_from_json", boardrules.state_from_json),
    ]


def _assert_invalid_state(text: str | bytes) -> None:
    variants: list[str | bytes] = [text]
    if isinstance(text, str):
        variants += [text.encode("utf-8"), bytearray(text.encode("utf-8"))]
    for name, loader in _all_loaders():
        for value in variants:
            try:
                loader(value)
            except InvalidStateError:
                continue
            except Exception as exc:  # the wrong class is a failure, named precisely
                pytest.fail(f"{name}({type(value).__name__}) raised {type(exc).__name__}: "
                            f"{str(exc)[:200]} instead of InvalidStateError")
            pytest.fail(f"{name}({type(value).__name__}) accepted the forged state")


def test_base_state_is_valid() -> None:
    """Control: the unforged document loads through every entry point."""
    for _, loader in _all_loaders():
        for value in (BASE_JSON, BASE_JSON.encode(), bytearray(BASE_JSON.encode())):
            assert loader(value) == BASE


@pytest.mark.parametrize("change", [c for _, c in FORGED], ids=[i for i, _ in FORGED])
def test_forged_state(change: Callable[[dict[str, Any]], Any]) -> None:
    text = _forge(change)
    assert text != json.dumps(BASE_DOC), "the forgery changed nothing"
    _assert_invalid_state(text)


@pytest.mark.parametrize("fraction", [0.0, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999])
def test_truncated_state(fraction: float) -> None:
    cut = int(len(BASE_JSON) * fraction)
    _assert_invalid_state(BASE_JSON[:cut])


def test_truncated_state_every_tenth_char() -> None:
    for cut in range(0, len(BASE_JSON), 10):
        for _, loader in _all_loaders():
            with pytest.raises(InvalidStateError):
                loader(BASE_JSON[:cut])


@pytest.mark.parametrize("text", [
    "not json", "{", "{'format': 1}", "[]", "[1, 2]", '"state"', "null", "true", "3",
    "NaN", "\x00", " " * 100,
], ids=repr)
def test_state_text_not_a_json_object(text: str) -> None:
    _assert_invalid_state(text)


def test_state_deeply_nested() -> None:
    _assert_invalid_state("[" * 100_000)
    _assert_invalid_state('{"a":' * 100_000)
    nested = BASE_JSON.replace(f'"palisades_left":{BASE_DOC["state"]["palisades_left"]}',
                               '"palisades_left":' + "[" * 100_000, 1)
    assert nested != BASE_JSON
    _assert_invalid_state(nested)


def test_state_nested_just_within_the_parser_limit() -> None:
    """Depths the JSON parser accepts, in every place a value is checked or quoted in a
    message."""
    limit = 1
    while True:  # the deepest list json.loads accepts here
        try:
            json.loads("[" * (limit * 2) + "]" * (limit * 2))
        except RecursionError:
            break
        limit *= 2
    lo, hi = limit, limit * 2
    while lo + 1 < hi:
        mid = (lo + hi) // 2
        try:
            json.loads("[" * mid + "]" * mid)
            lo = mid
        except RecursionError:
            hi = mid
    for depth in (lo - 200, lo - 50, lo - 10, lo - 3, lo):
        deep = "[" * depth + "]" * depth
        for key in ("game", "rules_version", "format", "rng", "history", "auto_chance"):
            doc = dict(BASE_DOC)
            doc[key] = "@@DEEP@@"
            _assert_invalid_state(json.dumps(doc).replace('"@@DEEP@@"', deep))
        for path in ("options/variant", "options/board", "state/palisades_left",
                     "state/warriors/0/strength", "state/players/0/pool"):
            _assert_invalid_state(_forge(_set(path, "@@DEEP@@")).replace('"@@DEEP@@"', deep))


def test_state_not_utf8() -> None:
    for data in (b"\xff\xfe\x00", BASE_JSON.encode("utf-16"), b"\x80" + BASE_JSON.encode()):
        for _, loader in _all_loaders():
            with pytest.raises(InvalidStateError):
                loader(data)


def test_state_with_bom() -> None:
    _assert_invalid_state(b"\xef\xbb\xbf" + BASE_JSON.encode())


def test_state_too_large() -> None:
    doc = dict(BASE_DOC)
    doc["history"] = ["pass"] * 300_000
    _assert_invalid_state(json.dumps(doc))
    _assert_invalid_state(BASE_JSON + " " * 2_000_000)


def test_auto_chance_state_stopped_at_a_chance_node() -> None:
    state = G2A.new_game(seed=4, auto_chance=False)
    for _ in range(3):
        state.apply_random_chance()
    assert state.current_player == CHANCE
    assert G2A.state_from_json(state.to_json()) == state  # control: valid as saved
    doc = json.loads(state.to_json())
    doc["auto_chance"] = True
    _assert_invalid_state(json.dumps(doc))


@pytest.mark.parametrize("value", [None, 5, 5.0, ["{}"], {"format": "boardrules-state"},
                                   object(), memoryview(b"{}")], ids=lambda v: type(v).__name__)
def test_state_of_wrong_type(value: Any) -> None:
    for _, loader in _all_loaders():
        with pytest.raises(TypeError):
            loader(value)


def test_state_with_other_look_option() -> None:
    """A different option is a different game: this game's loader refuses it."""
    text = _forge(_set("options/look_at_face_down", False))
    with pytest.raises(InvalidStateError):
        G2A.state_from_json(text)


def test_state_of_other_options_for_game_loader() -> None:
    """A valid state of another game's options is refused by this game's loader, yet
    loads through boardrules.state_from_json."""
    other = random_play(G3A, seed=5, moves=15)
    text = other.to_json()
    with pytest.raises(InvalidStateError):
        G2A.state_from_json(text)
    assert boardrules.state_from_json(text) == other


@pytest.mark.needs_address_limit
def test_state_options_naming_an_endless_board_file() -> None:
    """A forged state may name any board path in its options; one with no end is refused
    (not read until memory runs out)."""
    doc = copy.deepcopy(BASE_DOC)
    doc["options"]["board"] = "/dev/zero"
    out = _run_isolated(f"""
        import boardrules
        try:
            boardrules.state_from_json({json.dumps(doc)!r})
        except boardrules.InvalidStateError:
            print("REFUSED")
    """)
    assert "REFUSED" in out, out


# --------------------------------------------------------------------------------------
# Valid round trips
# --------------------------------------------------------------------------------------

@pytest.mark.parametrize("game,auto_chance", [
    (G2A, True), (G2A, False), (G2B, True), (G3A, True), (G4A, True), (G4B, False),
    (G2B_7x5, True),
], ids=["2a", "2a-manual", "2b", "3a", "4a", "4b-manual", "2b-7x5"])
def test_valid_state_round_trips(game: Any, auto_chance: bool) -> None:
    state = random_play(game, seed=77, moves=20, rng_seed=7, auto_chance=auto_chance)
    text = state.to_json()
    for restored in (game.state_from_json(text), game.state_from_json(text.encode()),
                     boardrules.state_from_json(text)):
        assert restored == state
        assert restored.to_json() == text
        assert restored.state_bytes() == state.state_bytes()
        assert [str(m) for m in restored.history] == [str(m) for m in state.history]
        assert restored.auto_chance == auto_chance
    # continuing play with the same moves gives the same bytes (the RNG came along)
    restored = game.state_from_json(text)
    rng = random.Random(1)
    for _ in range(40):
        if state.is_terminal():
            break
        if state.current_player == CHANCE:
            assert state.apply_random_chance() == restored.apply_random_chance()
        else:
            move = rng.choice(state.legal_moves())
            state.apply(move)
            restored.apply(str(move))
        assert restored.state_bytes() == state.state_bytes()
        assert restored.to_json() == state.to_json()
    # and undo goes back through the replayed history alike
    for _ in range(5):
        assert state.undo() == restored.undo()
        assert restored.state_bytes() == state.state_bytes()


# --------------------------------------------------------------------------------------
# Every action id at several positions
# --------------------------------------------------------------------------------------

def _fuzz_positions() -> list[Any]:
    return [
        G2B.new_game(seed=1),
        random_play(G2A, seed=2, moves=25, rng_seed=2),
        random_play(G3A, seed=3, moves=40, rng_seed=3),
        random_play(G4A, seed=4, moves=10, rng_seed=4),
        G4B.new_game(seed=5, auto_chance=False),                        # chance: gold
        random_play(G3A, seed=6, moves=9, rng_seed=6, auto_chance=False),  # chance: race
        _second_palisade(G2A),
        random_play(G2B_7x5, seed=8, moves=30, rng_seed=8),
        finished(G3A),
        play_to_end(G4A.new_game(seed=9), rng_seed=9),
    ]


def _second_palisade(game: Any) -> Any:
    state = game.new_game(seed=7)
    state.apply(next(m for m in state.legal_moves() if m.kind == "palisade"))
    assert state.phase == "second_palisade"
    return state


def test_every_action_id_at_several_positions() -> None:
    for state in _fuzz_positions():
        game = state.game
        legal = {m.action for m in state.legal_moves()}
        for i in range(-5, game.num_distinct_actions + 5):
            try:
                move = game.move(i)
            except InvalidMoveError:
                assert not 0 <= i < game.num_distinct_actions
                continue
            assert move.action == i
            assert state.is_legal(move) == (i in legal)
            before = snapshot(state)
            if i in legal:
                state.apply(move)
                assert state.history[len(before[2])] == move
                undone = state.undo()
                assert undone == move
                assert snapshot(state) == before, f"apply + undo of {move} changed the state"
            else:
                exc = rejects(state, (IllegalMoveError, InvalidMoveError),
                              lambda s=state, m=move: s.apply(m))
                if isinstance(exc, IllegalMoveError):
                    assert exc.rule and exc.rule != "legal"
                rejects(state, (IllegalMoveError, InvalidMoveError),
                        lambda s=state, m=move: s.apply(str(m)))


class _LyingStr(str):
    """A ``str`` whose own methods misbehave (the 0.5.0 review's probe): a parser must read
    its characters, never call its methods (``str(text)`` would call ``__str__``)."""

    def lower(self) -> Any:
        return 12

    def upper(self) -> Any:
        return 12

    def strip(self, chars: str | None = None) -> Any:
        return self

    def split(self, *args: Any, **kwargs: Any) -> Any:
        return 12

    def startswith(self, *args: Any) -> bool:
        return True

    def __str__(self) -> str:
        return "resign"


@pytest.mark.parametrize("game_id", ["pig", "tic_tac_toe", "connect_four", "armadora",
                                     "rome_and_carthage", "albion", "armada"])
def test_a_str_subclass_move_is_read_by_its_characters(game_id: str) -> None:
    """pig's parser called the subclass's methods (AttributeError): every game answers a
    ``str`` subclass as it answers the same plain text -- the move, or InvalidMoveError /
    IllegalMoveError / False -- and a refused call changes nothing."""
    game = boardrules.load(game_id)
    state = game.new_game(seed=1)
    legal = state.legal_moves()[0]
    text = _LyingStr(str(legal))
    assert game.parse_move(text) == legal
    assert assert_unchanged(state, lambda: state.is_legal(text)) is True
    assert state.child(text).state_bytes() == state.child(legal).state_bytes()
    where = state
    illegal = next((m for m in map(game.move, range(game.num_distinct_actions))
                    if not state.is_legal(m)), None)
    if illegal is None:                 # every move is legal at the start: a finished game
        where, illegal = play_to_end(state.copy()), legal
    lying_illegal = _LyingStr(str(illegal))
    assert game.parse_move(lying_illegal) == illegal
    assert not assert_unchanged(where, lambda: where.is_legal(lying_illegal))
    rejects(where, IllegalMoveError, lambda: where.apply(lying_illegal))
    rejects(where, IllegalMoveError, lambda: where.child(lying_illegal))
    junk = _LyingStr("no such move")
    with pytest.raises(InvalidMoveError):
        game.parse_move(junk)
    assert not assert_unchanged(state, lambda: state.is_legal(junk))
    rejects(state, InvalidMoveError, lambda: state.apply(junk))
    rejects(state, InvalidMoveError, lambda: state.child(junk))
    played = len(state.history)
    state.apply(text)
    assert state.history[played] == legal


@pytest.mark.parametrize("game_id", ["tic_tac_toe", "armadora", "rome_and_carthage"])
def test_a_blank_move_made_without_init_is_refused_never_an_attribute_error(
        game_id: str) -> None:
    """``Move.__new__(Move)`` (a forged move with no slots set) printed, compared, hashed
    and sorted by AttributeError; now it is a blank move every state refuses."""
    import pickle

    from boardrules import Move

    state = boardrules.load(game_id).new_game(seed=3)  # type: ignore[call-overload]
    move_class = type(state.legal_moves()[0])
    before = state.state_bytes(), state.to_json()
    for blank in (Move.__new__(Move), move_class.__new__(move_class)):
        assert str(blank) == "" and repr(blank) == f"<{type(blank).__name__} ''>"
        assert blank not in state.legal_moves() and blank == type(blank).__new__(type(blank))
        assert hash(blank) == hash(Move.__new__(Move)) == hash(None)
        with pytest.raises(TypeError):
            sorted([blank, state.legal_moves()[0]])
        with pytest.raises(TypeError, match="blank"):
            pickle.dumps(blank)
        assert state.is_legal(blank) is False
        for call in (state.apply, state.child):
            with pytest.raises(boardrules.InvalidMoveError):
                call(blank)
    assert (state.state_bytes(), state.to_json()) == before
