"""``state.decision()``: what the next decision is (who, phase, kinds of move, how many,
simultaneous or not), for a client that must not parse notation."""

from __future__ import annotations

import random

import pytest

import boardrules
from boardrules import CHANCE, TERMINAL

GAMES = ["albion", "armada", "armadora", "connect_four", "pig", "rome_and_carthage",
         "tic_tac_toe"]


@pytest.mark.parametrize("game_id", GAMES)
def test_decision_agrees_with_the_legal_moves_at_every_step(game_id: str) -> None:
    game = boardrules.load(game_id)
    state = game.new_game(seed=4, auto_chance=False)
    rng = random.Random(4)
    while True:
        decision = state.decision()
        moves = state.legal_moves()
        assert decision.player == state.current_player
        assert decision.moves == len(moves)
        assert decision.kinds == tuple(sorted({m.kind for m in moves}))  # type: ignore[attr-defined]
        assert decision.is_chance == (state.current_player == CHANCE)
        assert decision.has_one_answer == (len(moves) == 1)
        if hasattr(state, "phase"):
            assert decision.phase == state.phase
        if state.is_terminal():
            assert decision.is_over and decision.phase == "over" and decision.kinds == ()
            break
        state.apply(rng.choice(moves))


def test_decision_marks_a_battle_card_chosen_after_a_hidden_commit_as_simultaneous() -> None:
    """Rome & Carthage: the second battle card is chosen not knowing the first (hidden)."""
    game = boardrules.load("rome_and_carthage", players=2)
    rng = random.Random(1)
    seen = {True: 0, False: 0}
    for seed in range(6):
        state = game.new_game(seed=seed)
        while not state.is_terminal():
            decision = state.decision()
            if decision.phase == "commit":
                seen[decision.simultaneous] += 1
            else:
                assert not decision.simultaneous
            state.apply(rng.choice(state.legal_moves()))
    assert seen[True] > 0 and seen[False] > 0


def test_decision_of_a_game_without_phases_names_play_chance_and_over() -> None:
    state = boardrules.load("pig").new_game(seed=1, auto_chance=False)
    first = state.decision()  # a turn's first step: nothing to hold yet, a forced roll
    assert first.phase == "play" and first.kinds == ("roll",) and first.has_one_answer
    state.apply("roll")
    assert state.decision().phase == "chance" and state.decision().kinds == ("die",)
    assert state.decision().player == CHANCE != TERMINAL
