"""Pig: one test per rule, named after the rule, on positions built from move sequences
in the notation (``roll``, ``hold``, and the die's outcome ``die 1`` to ``die 6``).

The positions are played with ``new_game(seed=0, auto_chance=False)``, so every die is
applied by hand; ``rolls(6, 6, 1)`` writes ``roll, die 6, roll, die 6, roll, die 1``.
"""

from __future__ import annotations

import functools
import json
from typing import Any

import pytest

import boardrules
from boardrules import (
    CHANCE,
    TERMINAL,
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionError,
    Termination,
)
from boardrules.games.pig import PigMove, PigState
from boardrules.testing import assert_illegal, random_positions

GAME = boardrules.load("pig")
TARGET = 20
TURN_LIMIT = 40


def rolls(*faces: int) -> list[str]:
    """``roll`` and the die's outcome, for each face in turn."""
    return [text for face in faces for text in ("roll", f"die {face}")]


def play(*moves: str | list[str]) -> PigState:
    """A new game (dice applied by hand) with ``moves`` applied; a list stands for its
    moves in order."""
    state = GAME.new_game(seed=0, auto_chance=False)
    assert isinstance(state, PigState)
    for item in moves:
        for move in [item] if isinstance(item, str) else item:
            state.apply(move)
    return state


def legal(state: PigState) -> list[str]:
    return [str(m) for m in state.legal_moves()]


def refused(state: PigState, move: str) -> str:
    """Apply an illegal move: check it is refused (by is_legal, apply and child), absent
    from legal_moves, and changes nothing; return the rule key it broke."""
    return assert_illegal(state, move).rule


POSITIONS = random_positions(GAME, 60, 1)  # chance nodes included


# --- the players and the start ---------------------------------------------------------------


def test_two_players_each_his_own_team() -> None:
    assert GAME.num_players == 2
    assert GAME.teams == ((0,), (1,))
    assert not GAME.has_hidden_information
    assert GAME.num_distinct_actions == 8
    assert (GAME.target, GAME.turn_limit) == (TARGET, TURN_LIMIT)  # type: ignore[attr-defined]


def test_scores_start_at_zero_and_player_zero_moves_first() -> None:
    state = play()
    view = state.view(None)
    assert state.current_player == 0
    assert view["scores"] == [0, 0] and view["turn_total"] == 0 and view["turns"] == 0
    assert view["last_die"] is None and view["phase"] == "decide"
    assert state.score() == (0, 0)


# --- a turn ------------------------------------------------------------------------------------


def test_turn_must_roll_first() -> None:
    state = play()
    assert legal(state) == ["roll"]
    assert refused(state, "hold") == "must_roll_first"
    state = play(rolls(4, 1))  # the next player's turn starts with a roll too
    assert state.current_player == 1
    assert legal(state) == ["roll"]
    assert refused(state, "hold") == "must_roll_first"


def test_roll_is_followed_by_the_die() -> None:
    state = play("roll")
    assert state.current_player == CHANCE
    assert state.view(None)["phase"] == "rolling"
    assert legal(state) == [f"die {face}" for face in range(1, 7)]
    assert refused(state, "roll") == "chance_expected"
    assert refused(state, "hold") == "chance_expected"


def test_die_outcomes_are_uniform() -> None:
    state = play(rolls(3), "roll")
    outcomes = state.chance_outcomes()
    assert [(str(m), m.action) for m, _ in outcomes] == [
        (f"die {face}", face + 1) for face in range(1, 7)]
    assert [p for _, p in outcomes] == [1 / 6] * 6
    # the state's own RNG draws them with those probabilities
    counts = [0] * 6
    for seed in range(3000):
        drawn = play("roll").apply_random_chance(seed)
        assert isinstance(drawn, PigMove) and drawn.face is not None
        counts[drawn.face - 1] += 1
    assert all(400 <= n <= 600 for n in counts), counts  # 500 each expected, sd 20


def test_a_die_outcome_is_not_a_players_move() -> None:
    assert refused(play(), "die 4") == "not_chance"
    assert refused(play(rolls(5)), "die 5") == "not_chance"


def test_two_to_six_add_to_the_turn_total_and_the_player_chooses_again() -> None:
    state = play(rolls(2, 6, 3))
    view = state.view(None)
    assert view["turn_total"] == 11 and view["scores"] == [0, 0]
    assert view["last_die"] == 3
    assert state.current_player == 0
    assert legal(state) == ["roll", "hold"]


def test_rolling_a_one_loses_the_turn_total() -> None:
    state = play(rolls(6, 5, 1))
    view = state.view(None)
    assert view["scores"] == [0, 0]
    assert view["turn_total"] == 0
    assert view["last_die"] == 1
    assert view["turns"] == 1
    assert state.current_player == 1
    banked = play(rolls(4), "hold", rolls(2, 1))  # a 1 loses only this turn's points
    assert banked.score() == (4, 0) and banked.current_player == 0


def test_hold_banks_the_turn_total() -> None:
    state = play(rolls(6, 5), "hold")
    view = state.view(None)
    assert state.score() == (11, 0)
    assert view["turn_total"] == 0 and view["turns"] == 1
    assert state.current_player == 1
    state.apply("roll")
    state.apply("die 4")
    state.apply("hold")
    assert state.score() == (11, 4)
    assert state.current_player == 0


def test_players_alternate_turns() -> None:
    state = play(rolls(3), "hold")
    with pytest.raises(IllegalMoveError) as excinfo:
        state.apply("roll", player=0)
    assert excinfo.value.rule == "wrong_player"
    state.apply("roll", player=1)
    with pytest.raises(IllegalMoveError) as excinfo:
        state.apply("die 3", player=1)  # the die is nobody's move
    assert excinfo.value.rule == "wrong_player"
    state.apply("die 1")
    assert state.current_player == 0


# --- the end of the game -----------------------------------------------------------------------


def test_reaching_the_target_wins_at_once() -> None:
    state = play(rolls(6, 6, 6))
    assert not state.is_terminal() and state.view(None)["turn_total"] == 18
    state.apply("roll")
    state.apply("die 2")  # 18 + 2 = 20: no hold needed
    assert state.is_terminal()
    assert state.legal_moves() == []
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winners == (0,)
    assert outcome.ranking == (1, 2)
    assert outcome.scores == (20, 0)
    assert outcome.returns == (1.0, -1.0)
    assert outcome.reason is Termination.TARGET_REACHED


def test_target_counts_the_banked_score_and_the_turn_total() -> None:
    state = play(rolls(6, 6, 5), "hold",   # player 0: 17
                 rolls(1),                 # player 1: nothing
                 rolls(2))                 # player 0: 17 + 2 = 19, not yet
    assert not state.is_terminal()
    state.apply("roll")
    state.apply("die 6")                   # 17 + 8 = 25 >= 20
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,)
    assert outcome.scores == (25, 0)       # the winning turn is banked


def test_turn_limit_ends_the_game() -> None:
    state = play(rolls(2), "hold",          # turn 1: player 0 banks 2
                 rolls(1) * (TURN_LIMIT - 2))  # turns 2 to 39 end on a 1
    assert not state.is_terminal() and state.view(None)["turns"] == TURN_LIMIT - 1
    assert state.current_player == 1
    state.apply("roll")
    state.apply("die 1")                   # turn 40 ends
    assert state.is_terminal()
    assert state.view(None)["turns"] == TURN_LIMIT
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winners == (0,) and outcome.ranking == (1, 2)
    assert outcome.scores == (2, 0)
    assert outcome.returns == (1.0, -1.0)
    assert outcome.reason is Termination.TURN_LIMIT


def test_a_turn_ends_with_hold_or_a_one() -> None:
    assert play(rolls(3, 5)).view(None)["turns"] == 0
    assert play(rolls(3, 5), "hold").view(None)["turns"] == 1
    assert play(rolls(3, 5, 1)).view(None)["turns"] == 1
    # the limit counts both kinds: 10 turns ended by a hold, 30 by a 1
    state = play([*rolls(2), "hold"] * 10, rolls(1) * (TURN_LIMIT - 10))
    outcome = state.outcome()
    assert outcome is not None and outcome.scores == (10, 10)
    assert outcome.reason is Termination.TURN_LIMIT


def test_draw_on_equal_scores_at_the_turn_limit() -> None:
    state = play(rolls(3), "hold", rolls(3), "hold", rolls(1) * (TURN_LIMIT - 2))
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winners == (0, 1)
    assert outcome.ranking == (1, 1)
    assert outcome.scores == (3, 3)
    assert outcome.returns == (0.0, 0.0)
    assert outcome.reason is Termination.TURN_LIMIT
    assert state.view(None)["winner"] is None


def test_longest_game_is_max_game_length() -> None:
    """40 turns of nine 2s (a turn total of 18) and then a 1: 800 actions, the most a
    game can have (a tenth non-1 die would reach the target)."""
    state = play(rolls(2, 2, 2, 2, 2, 2, 2, 2, 2, 1) * TURN_LIMIT)
    assert state.is_terminal()
    assert len(state.history) == GAME.max_game_length == 800
    outcome = state.outcome()
    assert outcome is not None and outcome.scores == (0, 0) and outcome.winners == (0, 1)
    assert play(rolls(2) * 10).is_terminal()  # ten 2s in one turn reach 20


def test_game_over_refuses_every_move() -> None:
    state = play(rolls(6, 6, 6, 6))
    assert state.current_player == TERMINAL
    for move in ["roll", "hold", "die 1", "die 6"]:
        assert refused(state, move) == "game_over"


def test_scores_and_returns_before_the_end() -> None:
    state = play(rolls(5), "hold", rolls(4, 4))
    assert state.score() == (5, 0)  # the turn total in progress is not banked
    assert state.returns() == (0.0, 0.0)
    assert state.outcome() is None


def test_auto_chance_rolls_the_die() -> None:
    state = GAME.new_game(seed=3)
    state.apply("roll")
    assert state.current_player != CHANCE
    assert str(state.history[0]) == "roll"
    assert str(state.history[1]).startswith("die ")
    assert state.undo() == GAME.parse_move("roll")  # the die goes back with the roll
    assert state.history == []
    again = GAME.new_game(seed=3)
    again.apply("roll")
    assert again.history == GAME.new_game(seed=3).child("roll").history  # seeded


# --- notation ----------------------------------------------------------------------------------


def test_notation_is_roll_hold_and_die_faces() -> None:
    moves = [GAME.move(a) for a in range(8)]
    assert [str(m) for m in moves] == ["roll", "hold"] + [f"die {k}" for k in range(1, 7)]
    assert all(isinstance(m, PigMove) for m in moves)
    assert [(m.kind, m.face) for m in moves[:3]] == [  # type: ignore[attr-defined]
        ("roll", None), ("hold", None), ("die", 1)]
    assert GAME.parse_move("die 6").action == 7


@pytest.mark.parametrize("text,expected", [("ROLL", "roll"), (" hold\n", "hold"),
                                           ("Die  4", "die 4"), ("\tdie\t2 ", "die 2")])
def test_notation_ignores_case_and_extra_space(text: str, expected: str) -> None:
    assert GAME.parse_move(text) == GAME.parse_move(expected)


@pytest.mark.parametrize("text", ["", "r", "rol", "rolls", "die", "die 0", "die 7", "die6",
                                  "d6", "6", "pass", "roll" * 100, "\u200broll",
                                  "\uff52\uff4f\uff4c\uff4c"])  # full-width roll
def test_junk_is_not_a_move(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        GAME.parse_move(text)


def test_no_options() -> None:
    assert GAME.options == {}
    with pytest.raises(InvalidOptionError):
        boardrules.load("pig", target=100)


# --- views, JSON, pictures ---------------------------------------------------------------------


def test_view_shows_everything_and_legal_moves_to_the_player_to_move() -> None:
    state = play(rolls(4), "hold", rolls(5))
    view = state.view(1)
    assert view["scores"] == [4, 0] and view["turn_total"] == 5
    assert view["turn_player"] == 1 and view["current_player"] == 1
    assert view["legal_moves"] == ["roll", "hold"]
    assert state.view(0)["legal_moves"] == []
    assert {k: v for k, v in state.view(0).items() if k not in ("viewer", "legal_moves")} == {
        k: v for k, v in view.items() if k not in ("viewer", "legal_moves")}
    rolling = state.child("roll").view(1)
    assert rolling["current_player"] == CHANCE and rolling["turn_player"] == 1
    assert rolling["legal_moves"] == []  # the die is nobody's move


@pytest.mark.parametrize("player,error", [(2, ValueError), (-1, ValueError),
                                          ("0", TypeError), (True, TypeError)])
def test_view_checks_the_player(player: Any, error: type[Exception]) -> None:
    with pytest.raises(error):
        play().view(player)


def test_json_round_trip_and_forged_position_refused() -> None:
    state = play(rolls(4), "hold", rolls(5), "roll")
    text = state.to_json()
    restored = GAME.state_from_json(text)
    assert restored == state and restored.current_player == CHANCE
    doc = json.loads(text)
    assert doc["state"]["scores"] == [4, 0] and doc["state"]["turn_total"] == 5
    doc["state"]["turn_total"] = 6
    with pytest.raises(boardrules.InvalidStateError, match=r"state.turn_total"):
        GAME.state_from_json(json.dumps(doc))


def test_render_svg() -> None:
    svg = play(rolls(6, 6, 6, 6)).render_svg()
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert "player 0 wins" in svg
    assert play(rolls(5))._repr_svg_().count("<circle") == 5  # the last die shows 5 pips
    assert "<circle" not in play().render_svg()               # no die rolled yet


# --- the compiled core -------------------------------------------------------------------------


def test_illegal_reasons_agree_with_legal_moves() -> None:
    """On positions of random games, chance nodes included, every action id is legal
    (and listed) or refused with a named rule."""
    for state in POSITIONS:
        listed = {m.action for m in state.legal_moves()}
        for action in range(GAME.num_distinct_actions):
            reason = GAME._explain(state._core, action)[0]
            assert (reason == "legal") == (action in listed)
        assert GAME._explain(state._core, 8)[0] == "unknown_action"
        assert GAME._explain(state._core, -1)[0] == "unknown_action"


def test_invariants_hold_on_random_positions() -> None:
    for state in POSITIONS:
        for name, (counted, expected) in state.invariants().items():
            assert counted == expected, name


def test_hash_ignores_the_last_die_and_the_order_of_the_dice() -> None:
    one = play(rolls(3, 4))
    two = play(rolls(4, 3))
    assert one.view(None)["last_die"] != two.view(None)["last_die"]
    assert one._core.hash() == two._core.hash()
    assert one._core.hash() != one.child("roll")._core.hash()  # the phase counts


def test_hash_distinguishes_positions() -> None:
    """Positions differing in anything but the last die have different hashes."""
    by_position: dict[str, int] = {}
    for state in POSITIONS:
        raw = state.view(None)
        key = json.dumps([raw["scores"], raw["turn_total"], raw["turn_player"],
                          raw["turns"], raw["phase"], raw["winner"]])
        by_position[key] = state._core.hash()
    assert len(set(by_position.values())) == len(by_position) > 1000


@functools.cache
def finish(need: int) -> float:
    """The chance of scoring ``need`` more points in one turn by rolling until they are
    reached (independent of the core's table)."""
    if need <= 0:
        return 1.0
    return sum(finish(need - face) for face in range(2, 7)) / 6


def test_evaluate_is_the_documented_race_estimate() -> None:
    for state in POSITIONS:
        values = state._core.evaluate()
        if state.is_terminal():
            assert tuple(values) == state.returns()
            continue
        view = state.view(None)
        p = view["turn_player"]
        a = finish(TARGET - view["scores"][p] - view["turn_total"])
        b = finish(TARGET - view["scores"][1 - p])
        assert values[p] == pytest.approx(2 * a / (a + b - a * b) - 1, abs=1e-12)
        assert -1.0 < values[p] < 1.0 and values[1 - p] == -values[p]


def test_evaluate_signs() -> None:
    assert play()._core.evaluate()[0] > 0                        # moving first helps
    assert play(rolls(6, 6))._core.evaluate()[0] > play()._core.evaluate()[0]
    assert play(rolls(6, 6, 6), "hold")._core.evaluate()[0] > 0  # 18 to 0
    assert play(rolls(1), rolls(6, 6, 6), "hold")._core.evaluate()[0] < 0


def test_no_hidden_information_and_nothing_to_determinize() -> None:
    state = play(rolls(4), "roll")
    assert state.determinize(0, seed=1).state_bytes() == state.state_bytes()
    assert state.determinize(1, seed=2).state_bytes() == state.state_bytes()
