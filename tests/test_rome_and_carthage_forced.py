"""Rome & Carthage forced steps (the docs page's "Forced steps"): a placement, a
Treason's move or the forced march's extra move with one legal answer is taken by the
engine (``auto_forced``), recorded in the history, asked with ``auto_forced=False``; a
decision that depends on a hand is asked even with one answer."""

from __future__ import annotations

import pickle
import random

import pytest

import boardrules
from boardrules.games.rome_and_carthage import RomeCarthageGame

FORCED_PHASES = {"place", "treason", "treason_second", "extra"}


def _random_game(game: RomeCarthageGame, seed: int, auto_forced: bool = True,
                 ) -> tuple[boardrules.State, list[str]]:
    """A random game played to its end; returns it and the moves asked of the players
    (a forced step, asked without auto_forced, is answered by its one move)."""
    state = game.new_game(seed=seed, auto_forced=auto_forced)
    rng = random.Random(seed)
    while not state.is_terminal():
        moves = state.legal_moves()
        if state.decision().forced:
            state.apply(moves[0])
        else:
            state.apply(rng.choice(moves))
    return state, [str(m) for m in state.history]


@pytest.mark.parametrize("options", RomeCarthageGame.example_options,
                         ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_forced_steps_are_in_the_history_and_only_where_one_public_answer(
        options: dict[str, object]) -> None:
    game = RomeCarthageGame(**options)  # type: ignore[arg-type]
    auto, _ = _random_game(game, seed=2)
    asked = game.new_game(seed=2, auto_forced=False)
    rng = random.Random(2)
    forced_at = []
    while not asked.is_terminal():
        moves = asked.legal_moves()
        if asked.decision().forced:
            assert asked.phase in FORCED_PHASES and len(moves) == 1
            forced_at.append(len(asked.history))
            asked.apply(moves[0])
        else:
            asked.apply(rng.choice(moves))
    assert auto.forced == forced_at


def test_forced_steps_happen_in_random_games() -> None:
    game = RomeCarthageGame(players=2, max_rounds=12)
    kinds = set()
    for seed in range(8):
        state, _ = _random_game(game, seed)
        kinds |= {state.history[i].kind for i in state.forced}
    assert kinds & {"place", "move", "done"}


def test_forced_step_asked_without_auto_forced_gives_the_same_game() -> None:
    game = RomeCarthageGame(players=2, max_rounds=12)
    auto, auto_moves = _random_game(game, seed=7)
    asked, asked_moves = _random_game(game, seed=7, auto_forced=False)
    assert asked.forced == []
    assert asked_moves == auto_moves
    assert asked.state_bytes() == auto.state_bytes()


def test_forced_step_is_undone_with_the_move_before_it() -> None:
    game = RomeCarthageGame(players=2, max_rounds=12)
    for seed in range(20):
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            length, forced = len(state.history), len(state.forced)
            state.apply(rng.choice(state.legal_moves()))
            if len(state.forced) > forced:
                taken = state.history[length:]
                state.undo()                # the move asked and the steps after it
                assert len(state.history) == length
                assert len(state.forced) == forced
                assert len(taken) >= 2
                return
    pytest.fail("no forced step in 20 random games")


def test_forced_steps_survive_saves_and_pickles() -> None:
    game = RomeCarthageGame(players=2, max_rounds=12)
    state, _ = _random_game(game, seed=3)
    for again in (boardrules.state_from_json(state.to_json()),
                  pickle.loads(pickle.dumps(state))):
        assert again.forced == state.forced
        assert again.state_bytes() == state.state_bytes()


def test_forced_hand_dependent_single_answer_is_still_asked() -> None:
    """R9: the decision after a move with only ``done`` legal is asked (a payment could
    not be ruled out by the others), and so is a payment with one card possible."""
    game = RomeCarthageGame(players=2)
    seen = set()
    for seed in range(6):
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            if state.is_terminal():
                break
            moves = state.legal_moves()
            if len(moves) == 1 and state.phase in ("moved", "pay", "commit"):
                assert not state.decision().forced
                seen.add(state.phase)
            state.apply(rng.choice(moves))
    assert seen
