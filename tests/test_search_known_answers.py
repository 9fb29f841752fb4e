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


@pytest.mark.parametrize(("algorithm", "win_budget", "block_budget"), [
    ("mcts", {"iterations": 2000}, {"iterations": 4000}),
    ("alphabeta", {"depth": 3}, {"depth": 4}),
])
def test_tic_tac_toe_win_in_one_and_must_block(algorithm: str, win_budget: dict[str, int],
                                               block_budget: dict[str, int]) -> None:
    win = position("tic_tac_toe", "a1 b1 a2 b2")  # X completes column a
    assert str(suggest(win, algorithm=algorithm, seed=1,  # type: ignore[arg-type]
                       **win_budget).move) == "a3"
    block = position("tic_tac_toe", "a1 b1 c3 b2")  # O threatens b3
    assert str(suggest(block, algorithm=algorithm, seed=1,  # type: ignore[arg-type]
                       **block_budget).move) == "b3"


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


# --- pig: chance in the middle of the search ------------------------------------------------


def pig_position() -> State:
    """Player 0 has rolled 6, 6, 6 (a turn total of 18, nothing banked); player 1 has 18.

    ``hold`` banks 18 and hands the turn to player 1, who needs 2: his first roll wins
    with 5/6.  ``roll`` wins at once with 5/6 (18 + 2 or more reaches 20); a 1 (1/6)
    loses the 18 and hands player 1 the same first roll.  The dice are applied by hand.
    """
    state = boardrules.load("pig").new_game(seed=0, auto_chance=False)
    moves = ["roll", "die 1",                          # player 0: a 1 at once
             "roll", "die 6", "roll", "die 6", "roll", "die 6", "hold",  # player 1: 18
             "roll", "die 6", "roll", "die 6", "roll", "die 6"]          # player 0: 18
    for move in moves:
        state.apply(move)
    view = state.view(None)
    assert (view["scores"], view["turn_total"], state.current_player) == ([0, 18], 18, 0)
    return state


def test_alphabeta_expectimax_over_the_die_in_pig() -> None:
    """At depth 2 the value of ``roll`` is the chance node's probability-weighted mean
    over the six faces: five wins (terminal, +1) and the position after a 1 (evaluated,
    about -0.86), each 1/6, computed here from the game's returns and evaluation.  The
    search weighs results reached sooner a little more (0.1 % per ply), which moves the
    value by at most 0.002.  Whatever comes after a 1 is worth at least -1, so the value
    is also at least 5/6 - 1/6."""
    state = pig_position()
    result = suggest(state, algorithm="alphabeta", depth=2, seed=1)
    assert str(result.move) == "roll"
    values = {str(move): value for move, value, _ in result.ranked}
    rolling = state.child("roll")
    outcomes = rolling.chance_outcomes()
    assert [p for _, p in outcomes] == [1 / 6] * 6
    expected = 0.0
    for outcome, probability in outcomes:
        child = rolling.child(outcome)
        if child.is_terminal():
            expected += probability * child.returns()[0]
        else:
            expected += probability * child._core.evaluate()[0]
    # after a 1, player 1 (needing 2) rolls first against player 0 (needing 20):
    # evaluate() gives player 0 -0.860306..., so the mean is 0.689949
    assert expected == pytest.approx(5 / 6 - 0.860306197398877 / 6, abs=1e-12)
    assert abs(values["roll"] - expected) <= 0.002
    assert 5 / 6 - 1 / 6 - 0.002 <= values["roll"] <= 1.0
    # hold: both need 2 and player 1 rolls first, so player 1 wins with
    # 5/6 + (1/6)^2 5/6 + ... = 6/7: the value of hold is -5/7 (the evaluation of
    # player 1's forced roll at the horizon gives exactly that)
    assert abs(values["hold"] - -5 / 7) <= 0.001
    assert values["hold"] < 0 < values["roll"]


@pytest.mark.parametrize("depth", [1, 3, 4, 6])
def test_alphabeta_prefers_rolling_in_pig_at_every_depth(depth: int) -> None:
    result = suggest(pig_position(), algorithm="alphabeta", depth=depth, seed=1)
    assert str(result.move) == "roll"
    assert [str(m) for m in result.pv][:1] == ["roll"]
    roll, hold = result.ranked[0][1], result.ranked[1][1]
    # near the true value of roll, which lies in [2/3, 13/18] (see the MCTS test)
    assert 2 / 3 - 0.01 <= roll <= 13 / 18 + 0.01
    assert hold < -0.6


def test_mcts_samples_the_die_in_pig() -> None:
    """MCTS samples the die with its probabilities.  Its value for ``roll`` estimates the
    mean result: +1 for the five winning faces; after a 1 player 1 wins at once with his
    first roll with 5/6, so that branch is worth at most 1/6 - 5/6 = -2/3 (and at least
    -1) whatever the players do.  The value therefore lies in [2/3, 13/18]."""
    state = pig_position()
    result = suggest(state, algorithm="mcts", iterations=3000, seed=1)
    assert str(result.move) == "roll"
    roll = next((value, visits) for move, value, visits in result.ranked if str(move) == "roll")
    assert roll[1] > 2500
    assert 0.6 < roll[0] < 0.8
    hold = next(value for move, value, _ in result.ranked if str(move) == "hold")
    assert hold < 0


@pytest.mark.parametrize("algorithm,budget", [("mcts", {"iterations": 500}),
                                              ("mcts", {"iterations": 500, "threads": 2}),
                                              ("alphabeta", {"depth": 6})])
def test_suggest_is_deterministic_for_a_seed_in_pig(algorithm: str,
                                                     budget: dict[str, int]) -> None:
    """Chance outcomes inside the search come from the seeded RNG."""
    state = boardrules.load("pig").new_game(seed=0, auto_chance=False)
    for move in ["roll", "die 4", "roll", "die 3"]:
        state.apply(move)

    def ranked(seed: int) -> list[tuple[str, float, int]]:
        result = suggest(state, algorithm=algorithm, seed=seed, **budget)  # type: ignore[arg-type]
        return [(str(m), v, n) for m, v, n in result.ranked]

    assert ranked(7) == ranked(7)
    if algorithm == "mcts":
        assert ranked(7) != ranked(8)


def test_alphabeta_root_parallel_threads_agree_with_one_thread() -> None:
    """Root moves are shared out among the threads; each is searched with a full window,
    so the ranking and the values agree with one thread (up to the small discount that
    depends on where a transposition was first stored), and stay deterministic."""
    state = position("connect_four", "d d c")
    one = suggest(state, algorithm="alphabeta", depth=7, seed=1)
    two = suggest(state, algorithm="alphabeta", depth=7, seed=1, threads=2)
    again = suggest(state, algorithm="alphabeta", depth=7, seed=1, threads=2)
    assert two.stats["threads"] == 2 and two.stats["depth"] == 7
    assert [(str(m), v, n) for m, v, n in two.ranked] == \
        [(str(m), v, n) for m, v, n in again.ranked]
    values_one = {str(m): v for m, v, _ in one.ranked}
    values_two = {str(m): v for m, v, _ in two.ranked}
    assert values_one.keys() == values_two.keys()
    assert all(abs(values_one[m] - values_two[m]) < 0.01 for m in values_one)
    assert str(one.move) == str(two.move)
    win = position("connect_four", "c a d a")
    assert str(suggest(win, algorithm="alphabeta", depth=3, seed=1, threads=2).move) == "e"
