"""Albion forced steps (docs/albion.rst, "Forced steps"): a decision with one legal
action -- a payment possible one way, the last paid kind for a tribute taker, a loser's
only candidate, the only kind of figure left, ``end`` when nothing else is left -- is a
decision node the engine takes by default, recorded in the history; with
``auto_forced=False`` it is asked."""

from __future__ import annotations

import copy
import pickle
import random

from albion_helpers import TEST_BOARD, figures, give, new_game, play

from boardrules import CHANCE
from boardrules.games.albion import AlbionGame, AlbionState


def one_payment() -> AlbionState:
    """Player 0's settler in the glade with a single fish: a settlement I is paid one
    way only."""
    state = new_game(2)
    figures(state, "glade", 0, settlers=1)
    figures(state, "port", 0, settlers=0)
    give(state, 0, fish=1, wood=0)
    return state


def test_forced_step_payment_is_in_the_history_and_marked() -> None:
    state = one_payment()
    play(state, "build settlement glade")
    assert [str(m) for m in state.history] == ["build settlement glade", "pay fish"]
    assert state.forced == [1] and state.phase == "figure"


def test_forced_step_end_when_nothing_else_is_left() -> None:
    state = one_payment()
    play(state, "build settlement glade", "take legion")
    # the settler went home and has built: 'end' alone is left, taken by the engine
    assert str(state.history[-1]) == "end" and state.forced == [1, 3]
    assert state.current_player == 1 and state.phase == "move"


def test_forced_steps_are_asked_without_auto_forced() -> None:
    game = AlbionGame(2, board=TEST_BOARD)
    auto = one_payment()
    asked = game.position(auto.position(), auto_chance=False, auto_forced=False)
    play(asked, "build settlement glade")
    decision = asked.decision()
    assert decision.forced and [str(m) for m in asked.legal_moves()] == ["pay fish"]
    play(asked, "pay fish", "take legion")
    assert asked.decision().forced and [str(m) for m in asked.legal_moves()] == ["end"]
    play(asked, "end")
    assert asked.forced == [] and not asked.decision().forced
    play(auto, "build settlement glade", "take legion")
    assert asked.state_bytes() == auto.state_bytes()


def test_undo_takes_back_a_move_with_the_forced_steps_after_it() -> None:
    state = one_payment()
    before = state.state_bytes()
    play(state, "build settlement glade")
    state.undo()
    assert state.state_bytes() == before and state.history == [] and state.forced == []


def test_forced_steps_survive_saves_and_pickles() -> None:
    state = one_payment()
    play(state, "build settlement glade", "take legion")
    for other in (state.game.state_from_json(state.to_json()),
                  pickle.loads(pickle.dumps(state)), copy.deepcopy(state)):
        assert other.state_bytes() == state.state_bytes()
        assert other.forced == state.forced == [1, 3]


def test_forced_steps_a_game_asking_them_ends_byte_identical() -> None:
    game = AlbionGame(3, max_rounds=5)
    rng = random.Random(2)
    auto = game.new_game(seed=2)
    while not auto.is_terminal():
        auto.apply(rng.choice(auto.legal_moves()))
    forced = set(auto.forced)
    assert forced
    asked = game.new_game(seed=2, auto_forced=False)     # the same Picts drawn
    movers = [mover for mover, _ in auto.history_view(None)]
    for i, move in enumerate(auto.history):
        if movers[i] == CHANCE:
            continue
        assert asked.decision().forced == (i in forced)
        asked.apply(move)
    assert asked.state_bytes() == auto.state_bytes() and asked.forced == []
