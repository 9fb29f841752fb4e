"""Tic-tac-toe: one test per rule, named after the rule, on positions built from move
sequences in the notation (column letter then row number, row 1 at the top)::

       a   b   c
    1  a1  b1  c1
    2  a2  b2  c2
    3  a3  b3  c3

Tic-tac-toe is small enough to check some properties on every reachable position.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import boardrules
from boardrules import TERMINAL, IllegalMoveError, InvalidMoveError, InvalidOptionError, Termination
from boardrules.games.tic_tac_toe import TicTacToeMove, TicTacToeState
from boardrules.testing import assert_illegal

GAME = boardrules.load("tic_tac_toe")


def play(*moves: str) -> TicTacToeState:
    state = GAME.new_game()
    assert isinstance(state, TicTacToeState)
    for move in moves:
        state.apply(move)
    return state


def legal(state: TicTacToeState) -> list[str]:
    return [str(m) for m in state.legal_moves()]


def refused(state: TicTacToeState, move: str) -> str:
    """Apply an illegal move: check it is refused (by is_legal, apply and child), absent
    from legal_moves, and changes nothing; return the rule key it broke."""
    return assert_illegal(state, move).rule


def all_positions() -> dict[bytes, TicTacToeState]:
    """Every position reachable from the start, by its state bytes."""
    seen: dict[bytes, TicTacToeState] = {}
    stack = [play()]
    while stack:
        state = stack.pop()
        key = state.state_bytes()
        if key in seen:
            continue
        seen[key] = state
        stack.extend(state.child(m) for m in state.legal_moves())
    return seen


POSITIONS = all_positions()


# --- the board and the players -------------------------------------------------------------


def test_board_is_three_by_three_and_starts_empty() -> None:
    state = play()
    assert state.view(None)["rows"] == ["...", "...", "..."]
    assert legal(state) == ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]


def test_two_players_each_his_own_team() -> None:
    assert GAME.num_players == 2
    assert GAME.teams == ((0,), (1,))
    assert not GAME.has_hidden_information
    assert GAME.max_game_length == 9


def test_x_moves_first() -> None:
    state = play()
    assert state.current_player == 0
    state.apply("b2", player=0)
    assert state.view(None)["rows"] == ["...", ".X.", "..."]


def test_players_alternate() -> None:
    state = play("b2")
    assert state.current_player == 1
    with pytest.raises(IllegalMoveError) as excinfo:
        state.apply("a1", player=0)
    assert excinfo.value.rule == "wrong_player"
    state.apply("a1", player=1)
    assert state.current_player == 0
    assert state.view(None)["rows"] == ["O..", ".X.", "..."]


def test_cell_must_be_empty() -> None:
    state = play("b2", "a1")
    assert refused(state, "b2") == "cell_taken"
    assert refused(state, "a1") == "cell_taken"
    assert len(legal(state)) == 7


# --- the end of the game --------------------------------------------------------------------


def test_three_in_a_row_wins() -> None:
    state = play("a1", "a2", "b1", "b2", "c1")
    assert state.is_terminal()
    assert state.view(None)["line"] == ["a1", "b1", "c1"]
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winners == (0,)
    assert outcome.ranking == (1, 2)
    assert outcome.reason is Termination.LINE


def test_three_in_a_column_wins() -> None:
    state = play("a1", "b1", "a2", "b2", "c3", "b3")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (1,)
    assert state.view(None)["line"] == ["b1", "b2", "b3"]


@pytest.mark.parametrize("moves,line", [
    (("a1", "b1", "b2", "c1", "c3"), ["a1", "b2", "c3"]),
    (("c1", "a1", "b2", "b1", "a3"), ["c1", "b2", "a3"]),
])
def test_diagonal_wins(moves: tuple[str, ...], line: list[str]) -> None:
    state = play(*moves)
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,)
    assert sorted(state.view(None)["line"]) == sorted(line)


def test_two_in_a_row_does_not_win() -> None:
    state = play("a1", "a2", "b1")
    assert not state.is_terminal()
    assert state.outcome() is None
    assert state.score() == (0, 0)


def test_full_board_is_a_draw() -> None:
    #  X O X
    #  X O O
    #  O X X
    state = play("a1", "b1", "c1", "b2", "a2", "c2", "b3", "a3", "c3")
    assert state.view(None)["rows"] == ["XOX", "XOO", "OXX"]
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winners == (0, 1)
    assert outcome.ranking == (1, 1)
    assert outcome.scores == (0, 0)
    assert outcome.returns == (0.0, 0.0)
    assert outcome.reason is Termination.BOARD_FULL
    assert state.legal_moves() == []


def test_line_on_the_last_square_wins_rather_than_draws() -> None:
    state = play("a1", "b1", "c1", "b2", "a2", "c2", "b3", "c3", "a3")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winners == (0,)
    assert outcome.reason is Termination.LINE


def test_game_over_after_a_line() -> None:
    state = play("a1", "a2", "b1", "b2", "c1")
    assert state.current_player == TERMINAL
    assert state.legal_moves() == []
    assert refused(state, "c3") == "game_over"


def test_winner_scores_one_and_returns_plus_minus_one() -> None:
    state = play("a1", "a2", "b1", "b2", "c3", "c2")
    assert state.score() == (0, 1)
    assert state.returns() == (-1.0, 1.0)
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.team_scores == (0, 1)


def test_perfect_play_is_a_draw() -> None:
    """Negamax over every position: the value of the start is 0 (the whole engine --
    move generation, lines, draws -- agrees with the known result)."""
    values: dict[bytes, float] = {}

    def value(state: TicTacToeState) -> float:
        key = state.state_bytes()
        if key not in values:
            if state.is_terminal():
                values[key] = state.returns()[len(state.history) % 2]  # the side to move
            else:
                values[key] = max(-value(state.child(m)) for m in state.legal_moves())
        return values[key]

    assert value(play()) == 0.0
    assert len(POSITIONS) == 5478


# --- notation -------------------------------------------------------------------------------


def test_squares_are_column_letter_then_row_number_row_one_at_the_top() -> None:
    assert [m.square for m in GAME._moves] == [  # type: ignore[attr-defined]
        "a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]
    move = GAME.parse_move("c1")
    assert isinstance(move, TicTacToeMove)
    assert move.action == 2
    assert str(move) == "c1"


@pytest.mark.parametrize("text", ["B2", " b2", "b2\n", "\tB2 "])
def test_notation_ignores_case_and_surrounding_space(text: str) -> None:
    assert GAME.parse_move(text) == GAME.parse_move("b2")


@pytest.mark.parametrize("text", ["", "b", "2", "b 2", "d1", "a4", "a0", "2b", "b2b2", "pass",
                                  "b2" * 1000, "\u200bb2", "\uff42\uff12"])  # full-width b2
def test_junk_is_not_a_move(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        GAME.parse_move(text)


def test_no_options() -> None:
    assert GAME.options == {}
    with pytest.raises(InvalidOptionError):
        boardrules.load("tic_tac_toe", size=4)


# --- views, JSON, pictures ------------------------------------------------------------------


def test_view_shows_everything_and_legal_moves_to_the_player_to_move() -> None:
    state = play("b2")
    view = state.view(1)
    assert view["rows"] == ["...", ".X.", "..."]
    assert view["current_player"] == 1 and view["winner"] is None
    assert view["legal_moves"] == legal(state)
    assert state.view(0)["legal_moves"] == []
    assert {k: v for k, v in state.view(0).items() if k not in ("viewer", "legal_moves")} == {
        k: v for k, v in view.items() if k not in ("viewer", "legal_moves")}


@pytest.mark.parametrize("player,error", [(2, ValueError), (-1, ValueError),
                                          ("0", TypeError), (True, TypeError)])
def test_view_checks_the_player(player: Any, error: type[Exception]) -> None:
    with pytest.raises(error):
        play().view(player)


def test_json_round_trip_and_forged_position_refused() -> None:
    state = play("b2", "a1", "c3")
    text = state.to_json()
    assert GAME.state_from_json(text) == state
    doc = json.loads(text)
    assert doc["state"]["rows"] == ["O..", ".X.", "..X"]
    doc["state"]["rows"][0] = "OX."
    with pytest.raises(boardrules.InvalidStateError, match=r"state.rows\[0\]"):
        GAME.state_from_json(json.dumps(doc))


def test_render_svg() -> None:
    svg = play("a1", "a2", "b1", "b2", "c1").render_svg()
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert "X wins" in svg
    assert play()._repr_svg_().count("<line") == 4  # the grid only


# --- the compiled core ----------------------------------------------------------------------


def test_illegal_reasons_agree_with_legal_moves() -> None:
    """On every reachable position, every action id is legal (and listed) or refused
    with a named rule."""
    for state in POSITIONS.values():
        listed = {m.action for m in state.legal_moves()}
        for action in range(GAME.num_distinct_actions):
            reason = GAME._explain(state._core, action)[0]
            assert (reason == "legal") == (action in listed)
        assert GAME._explain(state._core, 9)[0] == "unknown_action"


def test_hash_equal_for_transpositions() -> None:
    one = play("a1", "b2", "c3")
    two = play("c3", "b2", "a1")
    assert one.state_bytes() == two.state_bytes()
    assert one._core.hash() == two._core.hash()


def test_hash_distinguishes_every_position() -> None:
    hashes = {state._core.hash() for state in POSITIONS.values()}
    assert len(hashes) == len(POSITIONS)


def test_evaluate_in_range_and_signs() -> None:
    for state in POSITIONS.values():
        x, o = state._core.evaluate()
        assert -1.0 <= x <= 1.0 and o == -x
        if state.is_terminal():
            assert (x, o) == state.returns()
    assert play("b2")._core.evaluate()[0] > 0          # X in the centre: good for X
    assert play("b2", "a1", "a3")._core.evaluate()[0] > 0
    assert play("a1", "b2")._core.evaluate()[0] < 0    # O took the centre


def test_no_chance_and_nothing_to_determinize() -> None:
    state = play("b2", "a1")
    assert state.chance_outcomes() == []
    assert state.determinize(0, seed=1).state_bytes() == state.state_bytes()
