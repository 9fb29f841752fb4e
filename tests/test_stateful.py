"""Stateful property tests (Hypothesis): one rule-based state machine per game and option
set, which applies random legal moves, junk, undo, copies, saves (signed too), pickles
and determinized worlds in any order Hypothesis finds, with every invariant of the state
checked after each step.

What each rule holds the library to:

* ``apply_legal`` / ``apply_many`` / ``chance`` -- a legal move (drawn from
  ``legal_moves()``) applies and extends the history by it;
* ``apply_junk`` / ``apply_out_of_turn`` -- text that is no legal move, a move that is not
  legal here, a value of another type, or a legal move sent by another player, is refused
  with a boardrules error (TypeError for a wrong type) and leaves the state byte-identical
  (bytes, history, save);
* ``undo`` -- takes back the last decision: the state is byte for byte the one before it;
* ``copy`` -- a copy equals the state, then evolves independently of it;
* ``save_restore`` -- ``to_json`` (signed or not) restores to an equal state that saves
  the same text, through the game and through ``boardrules.state_from_json``; the machine
  may go on from the restored state;
* ``pickle_round_trip`` -- a pickled (or deep-copied) state is equal and saves the same;
* ``determinize`` -- the world is a legal state (its invariants hold, it plays on), with
  the same player to move and the same view for its observer (``world.view(p) ==
  state.view(p)``, as ``boardrules.testing.check_views_hide_what_the_viewer_cannot_see``
  compares them) and, for the player to move, the same legal moves.

The normal suite runs a few short programs per game (well under a minute in all);
``BOARDRULES_HYPOTHESIS_PROFILE=soak`` runs many long ones for a local soak.
"""

from __future__ import annotations

import copy
import os
import pickle
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

import boardrules
from boardrules import CHANCE, BoardRulesError, IllegalMoveError, Move
from boardrules.testing import snapshot

CONFIGS = [(game_id, options) for game_id in boardrules.available_games()
           for options in type(boardrules.load(game_id)).example_options]
KEY = b"stateful-test-signing-key"

PROFILES = {
    "default": {"max_examples": 5, "stateful_step_count": 25},
    "soak": {"max_examples": 200, "stateful_step_count": 100},
}
PROFILE = os.environ.get("BOARDRULES_HYPOTHESIS_PROFILE", "default")
SETTINGS = settings(
    **PROFILES[PROFILE], deadline=None, derandomize=PROFILE == "default",
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.filter_too_much])


def junk(game: Any) -> st.SearchStrategy[Any]:
    """Values that may or may not be a legal move here: any text, any move of the game
    (most are not legal at a given moment), and values of other types."""
    every_move = st.integers(0, game.num_distinct_actions - 1).map(game.move)
    return st.one_of(
        st.text(max_size=30), every_move, every_move.map(str),
        every_move.map(lambda m: str(m).upper() + " !"), st.integers(), st.none(),
        st.binary(max_size=8), st.floats(allow_nan=False),
        st.builds(Move, st.integers(-2, game.num_distinct_actions + 2), st.text(max_size=8),
                  st.sampled_from([game._game_key_cache, ("other", "{}")])))


class GameMachine(RuleBasedStateMachine):
    """A game in progress and the calls a client makes on it."""

    game: Any  # set by machine_for

    def __init__(self) -> None:
        super().__init__()
        self.state: Any = None
        # the state's bytes and history before each decision still in its history
        self.before: list[tuple[bytes, list[str]]] = []

    @initialize(seed=st.integers(0, 2**64 - 1), auto_chance=st.booleans())
    def start(self, seed: int, auto_chance: bool) -> None:
        self.state = self.game.new_game(seed=seed, auto_chance=auto_chance)
        self.before = []

    def remember(self) -> None:
        self.before.append((self.state.state_bytes(), [str(m) for m in self.state.history]))

    def apply_checked(self, move: Any) -> None:
        length = len(self.state.history)
        self.remember()
        self.state.apply(move)
        assert self.state.history[length] == move

    # --- moves ---

    @precondition(lambda self: self.state.current_player >= 0)
    @rule(data=st.data())
    def apply_legal(self, data: st.DataObject) -> None:
        self.apply_checked(data.draw(st.sampled_from(self.state.legal_moves()), label="move"))

    @precondition(lambda self: self.state.current_player >= 0)
    @rule(seed=st.integers(0, 2**16), moves=st.integers(1, 40))
    def apply_many(self, seed: int, moves: int) -> None:
        """Several random moves at once, so that late positions are reached."""
        rng = random.Random(seed)
        for _ in range(moves):
            if self.state.is_terminal():
                break
            if self.state.current_player == CHANCE:
                self.chance()
            else:
                self.apply_checked(rng.choice(self.state.legal_moves()))

    @precondition(lambda self: self.state.current_player == CHANCE)
    @rule()
    def chance(self) -> None:
        length = len(self.state.history)
        self.remember()
        drawn = self.state.apply_random_chance()
        assert self.state.history[length] == drawn

    @rule(data=st.data())
    def apply_junk(self, data: st.DataObject) -> None:
        value = data.draw(junk(self.game), label="junk")
        if self.state.is_legal(value):
            return  # a legal move is apply_legal's case
        before = snapshot(self.state)
        with pytest.raises((BoardRulesError, TypeError)):
            self.state.apply(value)
        assert snapshot(self.state) == before

    @precondition(lambda self: self.state.current_player >= 0)
    @rule(data=st.data())
    def apply_out_of_turn(self, data: st.DataObject) -> None:
        move = data.draw(st.sampled_from(self.state.legal_moves()), label="move")
        others = [p for p in range(self.game.num_players) if p != self.state.current_player]
        player = data.draw(st.sampled_from(others), label="player")
        before = snapshot(self.state)
        with pytest.raises(IllegalMoveError) as refused:
            self.state.apply(move, player=player)
        assert refused.value.rule == "wrong_player"
        assert snapshot(self.state) == before

    @precondition(lambda self: bool(self.before))
    @rule()
    def undo(self) -> None:
        self.state.undo()
        state_bytes, history = self.before.pop()
        assert self.state.state_bytes() == state_bytes
        assert [str(m) for m in self.state.history] == history

    # --- copies, saves, pickles ---

    @rule(data=st.data())
    def copy_evolves_independently(self, data: st.DataObject) -> None:
        twin = self.state.copy()
        assert twin == self.state
        moves = twin.legal_moves()
        if not moves:
            return
        before = snapshot(self.state)
        twin.apply(data.draw(st.sampled_from(moves), label="move in the copy"))
        assert snapshot(self.state) == before
        assert twin != self.state

    @rule(signed=st.booleans(), go_on_from_it=st.booleans())
    def save_restore(self, signed: bool, go_on_from_it: bool) -> None:
        key = KEY if signed else None
        text = self.state.to_json(key=key)
        for restored in (self.game.state_from_json(text, key=key),
                         boardrules.state_from_json(text.encode(), key=key)):
            assert restored == self.state
            assert restored.state_bytes() == self.state.state_bytes()
            assert restored.to_json(key=key) == text
        if go_on_from_it:
            self.state = restored

    @rule(how=st.sampled_from(["pickle", "deepcopy"]), go_on_from_it=st.booleans())
    def pickle_round_trip(self, how: str, go_on_from_it: bool) -> None:
        twin = (pickle.loads(pickle.dumps(self.state)) if how == "pickle"
                else copy.deepcopy(self.state))
        assert twin == self.state
        assert twin.to_json() == self.state.to_json()
        assert twin.history == self.state.history
        if go_on_from_it:
            self.state = twin

    @rule(data=st.data(), seed=st.integers(0, 2**64 - 1))
    def determinize(self, data: st.DataObject, seed: int) -> None:
        player = data.draw(st.integers(0, self.game.num_players - 1), label="observer")
        before = snapshot(self.state)
        world = self.state.determinize(player, seed=seed)
        assert snapshot(self.state) == before
        assert world.current_player == self.state.current_player
        assert world.view(player) == self.state.view(player)
        if player == self.state.current_player:
            assert world.legal_moves() == self.state.legal_moves()
        assert_invariants(world)
        moves = world.legal_moves()
        if moves:  # the world is a legal state: it plays on, its invariants holding
            world.apply(data.draw(st.sampled_from(moves), label="move in the world"))
            assert_invariants(world)

    @invariant()
    def invariants_hold(self) -> None:
        if self.state is not None:
            assert_invariants(self.state)


def assert_invariants(state: Any) -> None:
    broken = {name: pair for name, pair in state.invariants().items() if pair[0] != pair[1]}
    assert not broken, f"invariants broken: {broken}"


def machine_for(game_id: str, options: dict[str, Any]) -> type[GameMachine]:
    game = boardrules.load(game_id, **options)
    return type(f"{type(game).__name__}Machine", (GameMachine,), {"game": game})


@pytest.mark.parametrize(("game_id", "options"), CONFIGS,
                         ids=[f"{g}-{i}" for i, (g, _) in enumerate(CONFIGS)])
def test_stateful_apply_undo_copy_save_restore_determinize(game_id: str,
                                                           options: dict[str, Any]) -> None:
    run_state_machine_as_test(machine_for(game_id, options), settings=SETTINGS)
