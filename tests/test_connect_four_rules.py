"""Connect Four: one test per rule, named after the rule, on positions built from move
sequences in the notation (the column, ``a`` to ``g``).

Views print the board top row first; rows are numbered from 1 at the bottom::

    6  .......
    ...
    1  .......
       abcdefg
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import boardrules
from boardrules import TERMINAL, IllegalMoveError, InvalidMoveError, InvalidOptionError, Termination
from boardrules.games.connect_four import ConnectFourMove, ConnectFourState
from boardrules.testing import assert_illegal

GAME = boardrules.load("connect_four")
EMPTY_ROW = "......."

#: 42 moves that fill the board without four in a row (found by random play).
FULL_BOARD_DRAW = "dgbdbdgeffdedbbaedaeggcgbaffcefbfgaaccecca"
#: 42 moves whose last one connects four as it fills the board.
FULL_BOARD_WIN = "fcdfbbcegcfdddfcgdabbgagbdegfbeaafcageecae"


def play(moves: str | list[str] = "") -> ConnectFourState:
    """A game after ``moves``: a string of column letters, or a list of move texts."""
    state = GAME.new_game()
    assert isinstance(state, ConnectFourState)
    for move in moves:
        state.apply(move)
    return state


def rows(state: ConnectFourState) -> list[str]:
    """The board, bottom row first (so ``rows(s)[0]`` is row 1)."""
    return list(reversed(state.view(None)["rows"]))


def legal(state: ConnectFourState) -> str:
    return "".join(str(m) for m in state.legal_moves())


def refused(state: ConnectFourState, move: str) -> str:
    """Apply an illegal move: check it is refused (by is_legal, apply and child), absent
    from legal_moves, and changes nothing; return the rule key it broke."""
    return assert_illegal(state, move).rule


def reference_four(board: list[str], symbol: str) -> bool:
    """An independent check (test oracle, not the library's rule): four ``symbol`` in a
    row across, up or diagonally on a board of strings."""
    cells = {(c, r) for r, row in enumerate(board) for c, ch in enumerate(row) if ch == symbol}
    return any(all((c + k * dc, r + k * dr) in cells for k in range(4))
               for c, r in cells for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)))


# --- the board and the players -------------------------------------------------------------


def test_board_is_seven_columns_by_six_rows() -> None:
    state = play()
    assert state.view(None)["rows"] == [EMPTY_ROW] * 6
    assert legal(state) == "abcdefg"
    assert GAME.max_game_length == 42


def test_two_players_each_his_own_team() -> None:
    assert GAME.num_players == 2
    assert GAME.teams == ((0,), (1,))
    assert not GAME.has_hidden_information


def test_first_player_moves_first() -> None:
    state = play()
    assert state.current_player == 0
    state.apply("d", player=0)
    assert rows(state)[0] == "...X..."


def test_players_alternate() -> None:
    state = play("d")
    assert state.current_player == 1
    with pytest.raises(IllegalMoveError) as excinfo:
        state.apply("d", player=0)
    assert excinfo.value.rule == "wrong_player"
    state.apply("d", player=1)
    assert state.current_player == 0


def test_piece_falls_to_lowest_free_row() -> None:
    state = play("ddd")
    assert rows(state)[:4] == ["...X...", "...O...", "...X...", EMPTY_ROW]
    assert state.view(None)["heights"] == [0, 0, 0, 3, 0, 0, 0]
    state.apply("a")
    assert rows(state)[0] == "O..X..."


def test_column_full_is_illegal() -> None:
    state = play("dddddd")
    assert state.view(None)["heights"][3] == 6
    assert legal(state) == "abcefg"
    assert refused(state, "d") == "column_full"


# --- the end of the game --------------------------------------------------------------------


def test_four_in_a_row_horizontal_wins() -> None:
    state = play("aabbccd")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winners == (0,)
    assert outcome.ranking == (1, 2)
    assert outcome.reason is Termination.LINE
    assert state.view(None)["line"] == [["a", 1], ["b", 1], ["c", 1], ["d", 1]]


def test_four_in_a_row_vertical_wins() -> None:
    state = play("agagagbg")  # O stacks g1..g4 while X plays a1, a2, a3, b1
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (1,)
    assert state.view(None)["line"] == [["g", 1], ["g", 2], ["g", 3], ["g", 4]]


@pytest.mark.parametrize("moves,line", [
    # X climbs a1 b2 c3 d4 (rising to the right)
    ("abbcdccdedd", [["a", 1], ["b", 2], ["c", 3], ["d", 4]]),
    # X climbs g1 f2 e3 d4 (rising to the left): the mirror image
    ("gffedeedcdd", [["d", 4], ["e", 3], ["f", 2], ["g", 1]]),
])
def test_four_in_a_row_diagonal_wins(moves: str, line: list[list[Any]]) -> None:
    state = play(moves[:-1])
    assert not state.is_terminal()
    state.apply(moves[-1])
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,)
    assert state.view(None)["line"] == line


def test_three_in_a_row_does_not_win() -> None:
    state = play("aabbc")
    assert not state.is_terminal()
    assert state.outcome() is None
    assert state.score() == (0, 0)


def test_lines_do_not_wrap_between_columns() -> None:
    """X on a5, a6 (the top of column a) and b1, b2 (the bottom of column b) are not four
    in a row, though in the bitboard they are one guard bit apart."""
    state = play("babaaaaca")
    assert [row[:2] for row in rows(state)] == ["OX", "OX", "X.", "O.", "X.", "X."]
    assert not state.is_terminal()


def test_draw_when_board_full() -> None:
    state = play(FULL_BOARD_DRAW)
    board = rows(state)
    assert "." not in "".join(board)
    assert not reference_four(board, "X") and not reference_four(board, "O")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winners == (0, 1)
    assert outcome.ranking == (1, 1)
    assert outcome.returns == (0.0, 0.0)
    assert outcome.reason is Termination.BOARD_FULL


def test_four_on_the_last_cell_wins_rather_than_draws() -> None:
    state = play(FULL_BOARD_WIN[:-1])
    assert not state.is_terminal()
    state.apply(FULL_BOARD_WIN[-1])
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winners == (1,)
    assert outcome.reason is Termination.LINE
    assert reference_four(rows(state), "O")


def test_game_over_after_four() -> None:
    state = play("aabbccd")
    assert state.current_player == TERMINAL
    assert state.legal_moves() == []
    assert refused(state, "e") == "game_over"


def test_win_detection_agrees_with_a_reference() -> None:
    """In random games the game ends exactly when the reference sees four (or the board
    is full), and the winner is the one with four."""
    rng = random.Random(7)
    for _ in range(200):
        state = play()
        while not state.is_terminal():
            board = rows(state)
            assert not reference_four(board, "X") and not reference_four(board, "O")
            state.apply(rng.choice(state.legal_moves()))
        outcome = state.outcome()
        assert outcome is not None
        board = rows(state)
        if outcome.reason is Termination.LINE:
            assert reference_four(board, "XO"[outcome.winners[0]])
        else:
            assert "." not in "".join(board)


# --- notation -------------------------------------------------------------------------------


def test_columns_are_letters_a_to_g() -> None:
    assert [str(m) for m in GAME._moves] == list("abcdefg")
    move = GAME.parse_move("d")
    assert isinstance(move, ConnectFourMove)
    assert move.column == "d" and move.action == 3


@pytest.mark.parametrize("text", ["D", " d", "d\n", "\tD "])
def test_notation_ignores_case_and_surrounding_space(text: str) -> None:
    assert GAME.parse_move(text) == GAME.parse_move("d")


@pytest.mark.parametrize("text", ["", "h", "4", "d4", "dd", "d d", "pass", "d" * 10_000,
                                  "\u200bd", "\uff44"])  # zero-width space, full-width d
def test_junk_is_not_a_move(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        GAME.parse_move(text)


def test_no_options() -> None:
    assert GAME.options == {}
    with pytest.raises(InvalidOptionError):
        boardrules.load("connect_four", columns=8)


# --- views, JSON, pictures ------------------------------------------------------------------


def test_view_shows_everything_and_legal_moves_to_the_player_to_move() -> None:
    state = play("d")
    view = state.view(1)
    assert view["current_player"] == 1 and view["winner"] is None
    assert view["legal_moves"] == list("abcdefg")
    assert state.view(0)["legal_moves"] == []
    json.dumps(view)


@pytest.mark.parametrize("player,error", [(2, ValueError), (-1, ValueError),
                                          ("0", TypeError), (True, TypeError)])
def test_view_checks_the_player(player: Any, error: type[Exception]) -> None:
    with pytest.raises(error):
        play().view(player)


def test_json_round_trip_and_forged_position_refused() -> None:
    state = play("ddc")
    text = state.to_json()
    assert GAME.state_from_json(text) == state
    doc = json.loads(text)
    assert doc["state"]["rows"][-1] == "..XX..."
    doc["state"]["rows"][-1] = "..XXX.."
    with pytest.raises(boardrules.InvalidStateError, match=r"state.rows\[5\]"):
        GAME.state_from_json(json.dumps(doc))


def test_render_svg() -> None:
    svg = play("aabbccd").render_svg()
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert "red (X) wins" in svg
    assert play()._repr_svg_().count("<circle") == 42


# --- the compiled core ----------------------------------------------------------------------


def test_illegal_reasons_agree_with_legal_moves() -> None:
    rng = random.Random(1)
    for _ in range(30):
        state = play()
        while True:
            listed = {m.action for m in state.legal_moves()}
            for action in range(-1, GAME.num_distinct_actions + 1):
                reason = GAME._explain(state._core, action)[0]
                assert (reason == "legal") == (action in listed)
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_moves()))


def test_hash_equal_for_transpositions() -> None:
    one = play("dce")   # X d, O c, X e
    two = play("ecd")   # X e, O c, X d
    assert one.state_bytes() == two.state_bytes()
    assert one._core.hash() == two._core.hash()


def test_hash_distinguishes_positions() -> None:
    """No collision among the positions of many random games (and the side to move is
    part of the key: the same discs never occur with the other player to move)."""
    rng = random.Random(3)
    seen: dict[int, bytes] = {}
    for _ in range(300):
        state = play()
        while not state.is_terminal():
            key = state.state_bytes()
            assert seen.setdefault(state._core.hash(), key) == key
            state.apply(rng.choice(state.legal_moves()))
    assert len(seen) > 5000


def test_evaluate_in_range_and_signs() -> None:
    rng = random.Random(5)
    for _ in range(100):
        state = play()
        while True:
            first, second = state._core.evaluate()
            assert -1.0 < first < 1.0 or state.is_terminal()
            assert second == -first
            if state.is_terminal():
                assert (first, second) == state.returns()
                break
            state.apply(rng.choice(state.legal_moves()))
    assert play()._core.evaluate() == [0.0, 0.0]
    assert play("d")._core.evaluate()[0] > 0            # the centre column
    assert play("a")._core.evaluate()[0] < play("d")._core.evaluate()[0]
    assert play("ad")._core.evaluate()[1] > 0            # each from his own side: O's centre
    three = play("agbgc")._core.evaluate()[0]           # X: open three a1 b1 c1
    assert three > play("agbg")._core.evaluate()[0]     # ... is worth more than the two
    assert three > 0.2


def test_no_chance_and_nothing_to_determinize() -> None:
    state = play("dd")
    assert state.chance_outcomes() == []
    assert state.determinize(1, seed=1).state_bytes() == state.state_bytes()
