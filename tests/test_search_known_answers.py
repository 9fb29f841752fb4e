"""Search on the example games, where the right answers are known."""

from __future__ import annotations

import pytest

import boardrules
from boardrules import State, suggest
from boardrules.search import AlphaBetaBot, MCTSBot


def position(game_id: str, moves: str) -> State:
    state = boardrules.load(game_id).new_game(seed=0)
    for move in moves.split():
        state.apply(move)
    return state


def play_out(state: State, bots: list[object]) -> State:
    while not state.is_terminal():
        state.apply(bots[state.current_player].choose(state))  # type: ignore[attr-defined]
    return state


# --- tic-tac-toe ---------------------------------------------------------------------------


def test_tic_tac_toe_is_a_draw_with_perfect_play() -> None:
    """A full-depth alpha-beta values every first move as a draw, and self-play draws."""
    state = position("tic_tac_toe", "")
    result = suggest(state, algorithm="alphabeta", depth=9, seed=1)
    assert result.stats["depth"] == 9
    assert len(result.ranked) == 9
    assert all(abs(value) < 1e-9 for _, value, _ in result.ranked)
    final = play_out(state, [AlphaBetaBot(depth=9, seed=1), AlphaBetaBot(depth=9, seed=2)])
    outcome = final.outcome()
    assert outcome is not None and outcome.winners == (0, 1)


@pytest.mark.parametrize("mcts_seat", [0, 1])
def test_mcts_does_not_lose_tic_tac_toe_to_perfect_play(mcts_seat: int) -> None:
    bots: list[object] = [AlphaBetaBot(depth=9, seed=3), AlphaBetaBot(depth=9, seed=4)]
    bots[mcts_seat] = MCTSBot(iterations=5000, seed=mcts_seat)
    outcome = play_out(position("tic_tac_toe", ""), bots).outcome()
    assert outcome is not None and mcts_seat in outcome.winners


@pytest.mark.parametrize("algorithm", ["mcts", "alphabeta"])
def test_tic_tac_toe_win_in_one_and_must_block(algorithm: str) -> None:
    win = position("tic_tac_toe", "a1 b1 a2 b2")  # X completes column a
    assert str(suggest(win, algorithm=algorithm, iterations=2000, seed=1, depth=3).move) == "a3"
    block = position("tic_tac_toe", "a1 b1 c3 b2")  # O threatens b3
    assert str(suggest(block, algorithm=algorithm, iterations=4000, seed=1, depth=4).move) == "b3"


# --- connect four ----------------------------------------------------------------------------


def test_mcts_finds_connect_four_win_in_one() -> None:
    state = position("connect_four", "a b a b a b")  # X has three in column a
    result = suggest(state, algorithm="mcts", iterations=2000, seed=1)
    assert str(result.move) == "a"
    assert result.ranked[0][1] > 0.9


def test_alphabeta_blocks_a_connect_four_threat() -> None:
    state = position("connect_four", "a b c b d b")  # O has three in column b
    result = suggest(state, algorithm="alphabeta", depth=4, seed=1)
    assert str(result.move) == "b"
    assert all(value < -0.9 for move, value, _ in result.ranked if str(move) != "b")


def test_alphabeta_finds_connect_four_forced_win_in_three_plies() -> None:
    """c-d-e on the bottom row with both ends open: two threats, one block."""
    state = position("connect_four", "c a d a")
    result = suggest(state, algorithm="alphabeta", depth=3, seed=1)
    assert str(result.move) == "e"
    assert result.ranked[0][1] > 0.99


def _forced_win(state: State, winner: int, plies: int) -> bool:
    """True if ``winner`` wins within ``plies`` against every defence, moving by
    alpha-beta at the depth left."""
    if state.is_terminal():
        outcome = state.outcome()
        return outcome is not None and outcome.winners == (winner,)
    if plies <= 0:
        return False
    if state.current_player == winner:
        move = suggest(state, algorithm="alphabeta", depth=plies, seed=1).move
        return _forced_win(state.child(move), winner, plies - 1)
    return all(_forced_win(state.child(reply), winner, plies - 1)
               for reply in state.legal_moves())


def test_alphabeta_finds_connect_four_forced_win_in_five_plies() -> None:
    """A win that needs depth 5: depth 3 does not see it; depth 5 finds a move, and
    alpha-beta then wins against every defence."""
    state = position("connect_four", "a e e c b a e f d e b a")
    assert suggest(state, algorithm="alphabeta", depth=3, seed=1).ranked[0][1] < 0.9
    deep = suggest(state, algorithm="alphabeta", depth=5, seed=1)
    assert str(deep.move) in ("b", "c") and deep.ranked[0][1] > 0.99
    assert _forced_win(state, state.current_player, 5)


def test_alphabeta_prefers_the_quickest_win() -> None:
    state = position("connect_four", "a b a b a b")
    result = suggest(state, algorithm="alphabeta", depth=5, seed=1)
    assert str(result.move) == "a"  # wins now, not later


def test_alphabeta_deterministic_and_iterative_deepening_with_time() -> None:
    state = position("connect_four", "d d c")
    first = suggest(state, algorithm="alphabeta", depth=6, seed=1)
    second = suggest(state, algorithm="alphabeta", depth=6, seed=1)
    assert [(str(m), v, n) for m, v, n in first.ranked] == \
        [(str(m), v, n) for m, v, n in second.ranked]
    timed = suggest(state, algorithm="alphabeta", time_limit=0.2, seed=1)
    assert timed.stats["depth"] >= 4


def test_alphabeta_principal_variation_is_the_winning_line() -> None:
    state = position("connect_four", "c a d a")
    result = suggest(state, algorithm="alphabeta", depth=3, seed=1)
    assert [str(m) for m in result.pv][:1] == ["e"]
    line = state.copy()
    for move in result.pv:
        line.apply(move)
    outcome = line.outcome()
    assert len(result.pv) == 3
    assert outcome is not None and outcome.winners == (0,)
