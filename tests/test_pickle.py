"""Games, states, moves and suggestions pickle and deep-copy, with the guarantees of a save:
a process pool maps over states of every game, and what comes back is the same position,
history and RNG.  (The conformance kit's ``pickle_and_deepcopy`` check runs on every
position of random games; these tests cover what it cannot: other processes, a user's
board, worlds, suggestions.)"""

from __future__ import annotations

import concurrent.futures
import copy
import json
import multiprocessing
import pickle
from typing import Any

import pytest

import boardrules
from boardrules.games.pig import PigGame
from boardrules.testing import random_play

GAMES = ["albion", "armada", "armadora", "connect_four", "pig", "rome_and_carthage",
         "tic_tac_toe"]


def _midgame(game_id: str, **options: Any) -> boardrules.State[Any]:
    game = boardrules.load(game_id, **options)
    state = random_play(game, seed=3, moves=6)
    assert not state.is_terminal()
    return state


def _suggested(state: boardrules.State[Any]) -> tuple[str, str, bytes]:
    """Run in a worker process: the state arrived pickled; its suggestion goes back."""
    hint = boardrules.suggest(state, iterations=40, seed=1)
    return str(hint.move), state.to_json(), state.state_bytes()


def _context() -> multiprocessing.context.BaseContext:
    # spawn: the worker imports everything afresh, so nothing is inherited by fork
    return multiprocessing.get_context("spawn")


def test_a_process_pool_maps_suggest_over_pickled_states_of_every_game() -> None:
    states = [_midgame(game_id) for game_id in GAMES]
    expected = [_suggested(state) for state in states]
    with _context().Pool(2) as pool:
        got = pool.map(_suggested, states)
    assert got == expected


def test_a_process_pool_executor_maps_over_states_and_returns_them() -> None:
    states = [_midgame(game_id) for game_id in ("armada", "albion")]
    with concurrent.futures.ProcessPoolExecutor(2, mp_context=_context()) as pool:
        back = list(pool.map(copy.copy, states))  # a round trip through two pickles
    for original, returned in zip(states, back, strict=True):
        assert type(returned) is type(original)
        assert returned == original and returned.to_json() == original.to_json()


def test_an_unpickled_state_draws_the_same_chance_as_the_original() -> None:
    state = _midgame("pig")
    twin = pickle.loads(pickle.dumps(state))
    draws = []
    for s in (state, twin):
        s.apply("roll")
        draws.append([str(m) for m in s.history[-3:]])
    assert draws[0] == draws[1]
    assert twin.state_bytes() == state.state_bytes()


def test_an_unpickled_state_undoes_to_its_start() -> None:
    state = _midgame("rome_and_carthage")
    twin = pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
    while True:
        try:
            a, b = state.undo(), twin.undo()
        except IndexError:
            break
        assert a == b and state.state_bytes() == twin.state_bytes()
    with pytest.raises(IndexError):
        twin.undo()


def test_a_game_on_a_users_board_pickles_with_the_board_data(tmp_path: Any) -> None:
    board = json.loads(json.dumps(boardrules.load("armadora").board.to_json()))
    board["name"] = "mine"
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(board), encoding="utf-8")
    game = boardrules.load("armadora", board=str(path))
    data = pickle.dumps(game.new_game(seed=2))
    path.unlink()  # the pickle does not need the file
    restored = pickle.loads(data)
    assert restored.game.board.name == "mine" and restored.game.options == game.options


def test_moves_pickle_to_the_moves_of_their_game() -> None:
    game = boardrules.load("armadora", players=3, variant="advanced")
    moves = game.new_game(seed=1).legal_moves()
    back = pickle.loads(pickle.dumps(moves))
    assert back == moves and [type(m) for m in back] == [type(m) for m in moves]
    assert [str(m) for m in back] == [str(m) for m in moves]
    assert copy.deepcopy(moves[0]) is moves[0]


def test_a_suggestion_pickles_and_deep_copies() -> None:
    state = _midgame("connect_four")
    hint = boardrules.suggest(state, iterations=50, seed=4)
    for twin in (pickle.loads(pickle.dumps(hint)), copy.deepcopy(hint)):
        assert twin.move == hint.move and twin.ranked == hint.ranked and twin.pv == hint.pv
        state.child(twin.move)  # still a move of the game


def test_a_copied_state_is_independent() -> None:
    state = _midgame("albion")
    for twin in (copy.copy(state), copy.deepcopy(state)):
        twin.apply(twin.legal_moves()[0])
        assert twin != state


def test_a_world_has_no_save_and_does_not_pickle() -> None:
    """A world drawn by determinize starts from no position of the game's start: its save
    could not be restored, so it refuses to save (and so to pickle) with a clear error."""
    state = _midgame("armadora")
    world = state.determinize(0, seed=1)
    for call in (world.to_json, lambda: pickle.dumps(world)):
        with pytest.raises(ValueError, match="determinize"):
            call()
    assert copy.deepcopy(world) == world  # an in-memory copy still works


def test_an_unpickled_game_is_built_with_its_options_checked() -> None:
    game = boardrules.load("rome_and_carthage", players=3)
    func, args = game.__reduce__()
    with pytest.raises(boardrules.InvalidOptionError):
        func(type(game), {**args[1], "players": 9})
    with pytest.raises(TypeError, match="not a pickled boardrules game"):
        func(dict, {})


class _Tampered:
    """A pickle naming ``cls`` as the game's class (a tampered, not malicious, pickle)."""

    def __init__(self, cls: type) -> None:
        self.cls = cls

    def __reduce__(self) -> tuple[Any, ...]:
        from boardrules._game import restore_game

        return (restore_game, (self.cls, {}))


class _HollowGame(boardrules.Game[Any, Any]):
    """A Game subclass that names a game but whose constructor installs no core."""

    id = "hollow"


class _OwnPig(PigGame):
    """A game class of one's own, not registered (as the arena's tests define them)."""


def test_a_pickle_naming_the_abstract_game_or_a_hollow_class_is_refused() -> None:
    # The abstract boardrules.Game passed issubclass(cls, Game): unpickling gave a Game
    # with no options and no core, whose new_game raised AttributeError.
    for cls in (boardrules.Game, _HollowGame):
        with pytest.raises(TypeError, match="not a pickled boardrules game"):
            pickle.loads(pickle.dumps(_Tampered(cls)))
    # a game class of one's own, registered or not, still pickles (arena workers)
    own = pickle.loads(pickle.dumps(_OwnPig()))
    assert type(own) is _OwnPig and own.new_game(seed=1).legal_moves()
