"""Armada M29, forced steps: a sub-choice with one legal option is a forced step of the
history -- taken by the engine (``auto_forced``, the default) and listed in
``state.forced``, or asked (``auto_forced=False``); never a reaction window."""

from __future__ import annotations

import pickle
import random

from boardrules import CHANCE
from boardrules.games.armada import ArmadaGame, ArmadaState
from boardrules.testing import check_positions_round_trip

HAND = """armada position
territory gn1: flag=green green=5
territory rs1: flag=raspberry raspberry=3
territory bl1: flag=blue blue=3
territory or1: flag=orange orange=3
phase: turn
"""


def _moves(state: ArmadaState) -> list[str]:
    return [str(m) for m in state.history]


def test_m29_forced_gold_step_is_in_the_history_and_marked() -> None:
    state = ArmadaGame().position(HAND)
    state.apply("move gn1-gn2")
    state.apply("bands 2")
    assert _moves(state)[-1] == "gold 0"          # no gold on gn1: one option
    assert state.forced == [len(state.history) - 1]
    assert state.phase == "turn" and not state.decision().forced


def test_m29_forced_step_is_asked_without_auto_forced() -> None:
    state = ArmadaGame().position(HAND, auto_forced=False)
    state.apply("move gn1-gn2")
    state.apply("bands 2")
    assert state.phase == "gold"
    decision = state.decision()
    assert decision.forced and decision.moves == 1 and decision.player == 0
    assert [str(m) for m in state.legal_moves()] == ["gold 0"]
    state.apply("gold 0")
    assert state.forced == [] and state.phase == "turn"


def test_m29_undo_takes_back_a_move_with_the_forced_steps_after_it() -> None:
    state = ArmadaGame().position(HAND)
    state.apply("move gn1-gn2")
    before = state.state_bytes()
    state.apply("bands 2")
    assert state.undo().kind == "bands"
    assert state.state_bytes() == before and state.forced == []


def test_m29_last_lair_territory_deploy_is_forced() -> None:
    state = ArmadaGame(players=2).new_game(seed=1)
    state.apply("ship gn3")
    state.apply("ship gn5")
    for _ in range(6):
        state.apply("deploy 1")
    assert _moves(state)[-1] == "deploy 12"      # the last territory takes the rest
    assert len(state.history) - 1 in state.forced


def test_m29_windows_are_never_forced() -> None:
    rng = random.Random(4)
    game = ArmadaGame(players=2, cards=True, max_rounds=3)
    state = game.new_game(seed=4, auto_forced=False)
    windows = 0
    while not state.is_terminal():
        if state.phase in ("coup", "attack_weapon", "defence_weapon"):
            windows += 1
            assert not state.decision().forced
        if state.current_player != CHANCE:
            state.apply(rng.choice(state.legal_moves()))
    assert windows > 0


def _play(game: ArmadaGame, auto_forced: bool, seed: int) -> ArmadaState:
    """A random game whose choices are drawn only at the decisions that are not forced,
    so that the auto and the asking game make the same choices."""
    rng = random.Random(seed)
    state = game.new_game(seed=seed, auto_forced=auto_forced)
    while not state.is_terminal():
        if state.current_player == CHANCE:
            continue
        moves = state.legal_moves()
        if state.decision().forced:
            assert len(moves) == 1
            state.apply(moves[0])
        else:
            state.apply(rng.choice(moves))
    return state


def test_m29_the_same_game_with_and_without_auto_forced_ends_byte_identical() -> None:
    for options in ({"players": 4, "max_rounds": 2},
                    {"players": 2, "cards": True, "recruitment": True, "max_rounds": 2}):
        game = ArmadaGame(**options)
        auto, asked = _play(game, True, 8), _play(game, False, 8)
        assert auto.state_bytes() == asked.state_bytes()
        assert _moves(auto) == _moves(asked)
        assert auto.forced and not asked.forced


def test_m29_forced_steps_survive_saves_and_pickles() -> None:
    game = ArmadaGame(players=2, max_rounds=2)
    state = _play(game, True, 3)
    for copy in (game.state_from_json(state.to_json()), pickle.loads(pickle.dumps(state))):
        assert copy.forced == state.forced
        assert copy.state_bytes() == state.state_bytes()


def test_m29_positions_at_forced_steps_round_trip() -> None:
    check_positions_round_trip(ArmadaGame(players=2, max_rounds=1), games=1, seed=2)
