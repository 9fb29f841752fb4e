"""The observation-tensor API: State.observation / action_mask and their buffers, the
layouts (boardrules.observations), and the core writing every float (a dirty buffer gives
the same tensor as a clean one)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import boardrules
from boardrules.observations import ObservationLayout
from boardrules.testing import assert_unchanged, example_configs, random_play

CONFIGS = [pytest.param(game_id, options,
                        id="-".join([game_id, *(f"{k}={v}" for k, v in options.items())]))
           for game_id, options in example_configs()]


@pytest.mark.parametrize(("game_id", "options"), CONFIGS)
def test_every_game_has_an_observation_tensor_that_writes_every_float(
        game_id: str, options: dict[str, Any]) -> None:
    game = boardrules.load(boardrules.games.as_game_id(game_id), **options)
    state = random_play(game, seed=2, moves=15)
    layout = game.observation_layout
    assert game.observation_shape == (layout.size,) == (game.core.observation_size,)
    for player in range(game.num_players):
        clean = state.observation(player)
        dirty = np.full(layout.size, np.nan, dtype=np.float32)
        assert state.observation(player, out=dirty) is dirty
        assert np.array_equal(dirty, clean)
        assert clean.dtype == np.float32 and layout.out_of_bounds(clean) is None
    mask = state.action_mask()
    assert mask.dtype == np.int8 and mask.shape == (game.num_distinct_actions,)


@pytest.mark.parametrize("bad", [-1, 2, None, True, 1.0, "0"])
def test_a_bad_player_is_refused_and_changes_nothing(bad: object) -> None:
    state = boardrules.load("connect_four").new_game(seed=1)
    error = ValueError if isinstance(bad, int) and not isinstance(bad, bool) else TypeError
    with pytest.raises(error):
        assert_unchanged(state, lambda: state.observation(bad))  # type: ignore[arg-type]


@pytest.mark.parametrize(("out", "error"), [
    (np.zeros(86, dtype=np.float64), TypeError),
    (np.zeros(85, dtype=np.float32), ValueError),
    (np.zeros((2, 43), dtype=np.float32), ValueError),
    (np.zeros(172, dtype=np.float32)[::2], ValueError),
    ([0.0] * 86, TypeError),
    (np.zeros(7, dtype=np.int8), TypeError),
])
def test_a_bad_buffer_is_refused_and_left_alone(out: Any, error: type) -> None:
    state = boardrules.load("connect_four").new_game(seed=1)
    before = out.copy() if isinstance(out, np.ndarray) else list(out)
    with pytest.raises(error):
        state.observation(0, out=out)
    assert (np.array_equal(out, before) if isinstance(out, np.ndarray) else out == before)


def test_a_read_only_buffer_is_refused() -> None:
    state = boardrules.load("tic_tac_toe").new_game(seed=1)
    out = np.zeros(20, dtype=np.float32)
    out.flags.writeable = False
    with pytest.raises(ValueError, match="writable"):
        state.observation(0, out=out)
    mask = np.zeros(9, dtype=np.int8)
    mask.flags.writeable = False
    with pytest.raises(ValueError, match="writable"):
        state.action_mask(out=mask)


def test_the_action_mask_is_the_legal_moves_and_empty_at_chance() -> None:
    game = boardrules.load("pig")
    state = game.new_game(seed=3, auto_chance=False)
    assert state.action_mask().nonzero()[0].tolist() == [m.action for m in state.legal_moves()]
    state.apply("roll")
    assert state.current_player == boardrules.CHANCE and not state.action_mask().any()


def test_a_layout_splits_bounds_and_explains() -> None:
    layout = ObservationLayout([("board", (2, 3), "cells"), ("count", (1,), "a count", 9),
                                ("signed", (2,), "a signed value", 1, -1)])
    assert layout.size == 9 and layout.shape == (9,)
    tensor = layout.zeros()
    tensor[6] = 4.0
    parts = layout.split(tensor)
    assert parts["board"].shape == (2, 3) and parts["count"][0] == 4.0
    low, high = layout.bounds()
    assert low.tolist() == [0.0] * 7 + [-1.0, -1.0] and high[6] == 9.0
    assert layout.out_of_bounds(tensor) is None
    tensor[0] = 2.0
    assert "field 'board'[0, 0] = 2.0 is outside 0.0 .. 1.0" in str(layout.out_of_bounds(tensor))
    tensor[0] = np.nan
    assert layout.out_of_bounds(tensor) is not None
    assert "count: a count" in layout.legend() and "0..9" in layout.legend()
    with pytest.raises(KeyError, match="no observation field 'nope'"):
        layout.field("nope")
    with pytest.raises(ValueError, match="given twice"):
        ObservationLayout([("a", (1,), ""), ("a", (1,), "")])
    with pytest.raises(ValueError, match="dimension"):
        ObservationLayout([("a", (0,), "")])


def test_observation_from_view_needs_the_players_own_view() -> None:
    game = boardrules.load("armadora", players=2)
    state = game.new_game(seed=1)
    assert np.array_equal(game.observation_from_view(state.view(1), 1), state.observation(1))
    with pytest.raises(ValueError, match="player 1's own"):
        game.observation_from_view(state.view(0), 1)
    with pytest.raises(ValueError, match="player 1's own"):
        game.observation_from_view(state.view(None), 1)
