"""Positions of the example games (tic-tac-toe, Connect Four, Pig): the text formats of
their docs pages ("Position format"), round trips over random reachable states,
hand-written positions, and refusals naming the field (the state untouched)."""

from __future__ import annotations

import pickle

import pytest

import boardrules
from boardrules.errors import InvalidPositionError
from boardrules.testing import random_positions

TOYS = ("tic_tac_toe", "connect_four", "pig")


@pytest.mark.parametrize("game_id", TOYS)
def test_positions_round_trip_every_reachable_state(game_id: str) -> None:
    game = boardrules.load(game_id)
    for state in random_positions(game, games=40, seed=7):
        text = state.position()
        again = game.position(text, auto_chance=False)
        assert again.state_bytes() == state.state_bytes()
        assert again.position() == text
        assert again.current_player == state.current_player
        assert again.outcome() == state.outcome()


@pytest.mark.parametrize("game_id", TOYS)
def test_a_state_from_a_position_has_no_history_and_saves_its_start(game_id: str) -> None:
    game = boardrules.load(game_id)
    played = game.new_game(seed=1)
    played.apply(played.legal_moves()[0])
    text = played.position()
    state = game.position(text, seed=4)
    assert list(state.history) == [] and state.start_position == text
    with pytest.raises(IndexError):
        state.undo()
    state.apply(state.legal_moves()[-1])
    restored = game.state_from_json(state.to_json())
    assert restored.state_bytes() == state.state_bytes() and restored.start_position == text
    assert pickle.loads(pickle.dumps(state)).state_bytes() == state.state_bytes()
    state.undo()
    assert state.position() == text


def _refused(game_id: str, text: str, field: str) -> None:
    game = boardrules.load(game_id)
    with pytest.raises(InvalidPositionError) as info:
        game.position(text)
    assert info.value.field == field, str(info.value)


# --- tic-tac-toe ---------------------------------------------------------------------

def test_tic_tac_toe_position_by_hand_wins_with_the_next_mark() -> None:
    game = boardrules.load("tic_tac_toe")
    state = game.position("tic-tac-toe position\n x x . \n o o .\n\n# comment\n . . .")
    assert state.position() == "Tic-tac-toe position\nXX.\nOO.\n...\n"
    state.apply("c1")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,)


@pytest.mark.parametrize(("rows", "field"), [
    ("XX.\n...\n...", "board"),          # X two marks ahead
    ("O..\n...\n...", "board"),          # O before X
    ("XXX\nOOO\n...", "board"),          # both lines
    ("XXX\nOO.\nO..", "board"),          # X's line, then O moved again
    ("XXX\nOO.\n...\n...", "board"),     # four rows
    ("XX\nOO.\n...", "row 1"),           # a short row
    ("XXZ\nOO.\n...", "row 1"),          # no such symbol
])
def test_tic_tac_toe_positions_play_cannot_reach_are_refused(rows: str, field: str) -> None:
    _refused("tic_tac_toe", "Tic-tac-toe position\n" + rows, field)


def test_tic_tac_toe_line_by_the_last_mark_of_two_lines_is_accepted() -> None:
    # X's last mark on a1 completes row 1 and column a at once: reachable
    state = boardrules.load("tic_tac_toe").position("Tic-tac-toe position\nXXX\nXOO\nXOO")
    assert state.view(None)["line"] == ["a1", "b1", "c1", "a2", "a3"]


def test_tic_tac_toe_core_load_checks_types_and_consistency() -> None:
    game = boardrules.load("tic_tac_toe")
    raw = game.new_game().child("b2")._raw()
    for field, value in (("board", [0] * 8), ("marks", [1, 0]), ("current", True),
                         ("winner", 0), ("line", [4]), ("move_count", 2**80)):
        core = game._core.new_state()
        before = core.state_bytes()
        with pytest.raises((TypeError, ValueError), match=rf"^{field}"):
            game._core.load(core, dict(raw, **{field: value}))
        assert core.state_bytes() == before


# --- Connect Four --------------------------------------------------------------------

C4 = "Connect Four position\n" + ".......\n" * 4


def test_connect_four_position_by_hand_and_a_four_from_it() -> None:
    game = boardrules.load("connect_four")
    state = game.position(C4 + "OOO....\nXXX....")
    assert state.current_player == 0
    state.apply("d")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,)
    assert state.position() == C4 + "OOO....\nXXXX...\n"


@pytest.mark.parametrize(("rows", "field"), [
    ("X......\n.......", "board[1][0]"),   # floating above an empty cell
    ("X......\nX......", "board"),         # X two discs ahead
    ("OOOO...\nXXXX...", "board"),         # both fours
    ("OOO....\nXXXX..O", "board"),         # X's four, then O dropped again
    ("OOO....\nXXX", "row 1"),
    ("OOO....", "board"),                  # five rows
])
def test_connect_four_positions_play_cannot_reach_are_refused(rows: str, field: str) -> None:
    _refused("connect_four", C4 + rows, field)


def test_connect_four_core_load_checks_types_and_consistency() -> None:
    game = boardrules.load("connect_four")
    raw = game.new_game().child("d")._raw()
    for field, value in (("height", [1] * 7), ("discs", [0, 0]), ("board", [[0] * 7] * 5),
                         ("current", 0), ("line", None), ("winner", -2)):
        core = game._core.new_state()
        before = core.state_bytes()
        with pytest.raises((TypeError, ValueError), match=rf"^{field}"):
            game._core.load(core, dict(raw, **{field: value}))
        assert core.state_bytes() == before


# --- Pig -------------------------------------------------------------------------------

PIG = """Pig position
scores: 12 17
turns: 9
to move: 1
turn total: 0
phase: decide
last die: 1
"""


def test_pig_position_by_hand_is_canonical_and_rolls_on() -> None:
    game = boardrules.load("pig")
    state = game.position(PIG, auto_chance=False)
    assert state.position() == PIG
    state.apply("roll")
    assert state.position() == PIG.replace("decide", "rolling")
    state.apply("die 1")
    assert state.position() == PIG.replace("turns: 9", "turns: 10").replace(
        "to move: 1", "to move: 0")


@pytest.mark.parametrize(("old", "new", "field"), [
    ("Pig position", "Dice position", ""),
    ("scores: 12 17", "scores: 12", "scores"),
    ("scores: 12 17", "scores: 12 x", "scores"),
    ("turns: 9", "turns: 41", "turns"),
    ("to move: 1", "to move: 0", "current"),           # turns alternate
    ("to move: 1", "to move: 2", "to move"),
    ("turn total: 0", "turn total: 1", "turn_total"),  # a 1 loses the turn total
    ("turn total: 0", "turn total: 3", "turn_total"),  # 17 + 3 would have won
    ("phase: decide", "phase: thinking", "phase"),
    ("phase: decide", "phase: over", "phase"),         # nobody at 20 before turn 40
    ("scores: 12 17", "scores: 12 20", "phase"),       # 20 ends the game at once
    ("scores: 12 17", "scores: 21 17", "scores[0]"),   # in his own turn only
    ("last die: 1", "last die: 7", "last die"),
    ("last die: 1", "last die: -", "last_die"),        # 9 turns need rolls
    ("phase: decide\n", "", "phase"),
    ("phase: decide", "phase: decide\nphase: decide", "phase"),
    ("phase: decide", "colour: red", "colour"),
])
def test_pig_positions_play_cannot_reach_are_refused(old: str, new: str, field: str) -> None:
    assert old in PIG
    _refused("pig", PIG.replace(old, new), field)


def test_pig_a_player_without_a_turn_has_no_points() -> None:
    text = PIG.replace("turns: 9", "turns: 1").replace("scores: 12 17", "scores: 12 3")
    _refused("pig", text, "scores[1]")
    assert boardrules.load("pig").position(text.replace("12 3", "12 0")).current_player == 1


def test_pig_core_load_checks_types_and_consistency() -> None:
    game = boardrules.load("pig")
    raw = game.position(PIG)._raw()
    for field, value in (("scores", [12.0, 17]), ("phase", 0), ("winner", 1),
                         ("turns", None), ("last_die", True)):
        core = game._core.new_state()
        before = core.state_bytes()
        with pytest.raises((TypeError, ValueError), match=rf"^{field}"):
            game._core.load(core, dict(raw, **{field: value}))
        assert core.state_bytes() == before
