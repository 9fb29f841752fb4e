"""Albion's observation tensor (boardrules/games/albion/observation.py, ``al_observation``
in the core; docs/albion.rst, "Observation tensor"): the conformance checks on every
example option set, and the fields pinned on staged positions of the test board."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from albion_helpers import INDEX, REGIONS, building, figures, give, new_game, play

from boardrules import CHANCE, TERMINAL
from boardrules.games.albion import AlbionGame, AlbionState
from boardrules.games.albion.observation import KINDS, PHASES, TYPES, observation_layout
from boardrules.observations import Observation
from boardrules.testing import (
    check_observations_leak_nothing,
    check_observations_match_views,
)

OPTION_SETS = AlbionGame.example_options
RESOURCES = ("fish", "wood", "stone", "gold")
#: The fields listed by seat (relative to the observer); tribute_takers by its columns.
PER_SEAT = {"building_type", "building_stage", "building_face_down", "settlers", "legions",
            "resources", "movement", "settlers_in_supply", "legions_in_supply", "defence",
            "production", "stage4", "start_player", "turn_player", "to_move",
            "tribute_takers", "winners"}


def fields(state: AlbionState, player: int) -> dict[str, Observation]:
    return state.game.observation_layout.split(state.observation(player))


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: f"{o['players']}p")
def test_observations_match_views(options: dict[str, Any]) -> None:
    check_observations_match_views(AlbionGame(**options), games=6, seed=3)


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: f"{o['players']}p")
def test_observations_leak_nothing(options: dict[str, Any]) -> None:
    # Albion hides nothing (the check has nothing to compare then): what every player
    # sees alike is pinned by test_every_player_sees_the_same_tensor_with_seats_rotated
    game = AlbionGame(**options)
    assert not game.has_hidden_information
    check_observations_leak_nothing(game, games=6, seed=3)


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: f"{o['players']}p")
def test_the_legend_total_is_the_observation_shape(options: dict[str, Any]) -> None:
    game = AlbionGame(**options)
    p, r = game.num_players, len(game.board.regions)
    layout = game.observation_layout
    assert sum(f.size for f in layout.fields) == layout.size
    assert game.observation_shape == (layout.size,) == (13 * r + 8 * p * r + 20 * p + 34,)
    assert game.new_game(seed=0).observation(0).shape == game.observation_shape
    assert layout.field("settlers").shape == (p, r)


def test_the_size_follows_the_board() -> None:
    state = new_game(3)
    assert len(REGIONS) == 13
    assert state.game.observation_shape == (13 * 13 + 8 * 3 * 13 + 20 * 3 + 34,)
    assert state.game.observation_layout is not observation_layout(3, 29)


def test_own_resources_are_at_seat_index_zero() -> None:
    state = new_game(3)
    give(state, 1, fish=5, wood=0, stone=2, gold=1)
    give(state, 2, fish=0, wood=4, stone=0, gold=3)
    mine = fields(state, 1)["resources"]
    assert mine[0].tolist() == [5, 0, 2, 1]       # player 1's own row first
    assert mine[1].tolist() == [0, 4, 0, 3]       # then player 2, the next clockwise
    assert fields(state, 2)["resources"][0].tolist() == [0, 4, 0, 3]
    assert fields(state, 0)["resources"][1].tolist() == [5, 0, 2, 1]


def test_seats_are_relative_for_pieces_and_the_turn() -> None:
    state = new_game(3)
    figures(state, "hill", 2, settlers=2, legions=1)
    building(state, "moor", 2, "settlement", 3)
    hill, moor = INDEX["hill"], INDEX["moor"]
    for observer in range(3):
        seat = (2 - observer) % 3
        f = fields(state, observer)
        assert f["settlers"][seat, hill] == 2 and f["settlers"][:, hill].sum() == 2
        assert f["legions"][seat, hill] == 1
        assert f["building_type"][seat, TYPES.index("settlement"), moor] == 1.0
        assert f["building_stage"][seat, moor] == 3
        assert f["turn_player"].tolist() == np.eye(3)[(0 - observer) % 3].tolist()
        assert f["to_move"].tolist() == f["turn_player"].tolist()
        assert f["start_player"].tolist() == np.eye(3)[(0 - observer) % 3].tolist()


def test_every_player_sees_the_same_tensor_with_seats_rotated() -> None:
    """Nothing is hidden: player 1's tensor is player 0's with every per-seat field
    rotated by one seat (the face-down Picts are counts for everyone)."""
    game = AlbionGame(3, max_rounds=8)
    state = game.new_game(seed=5)
    rng = random.Random(5)
    layout = game.observation_layout
    seen = 0
    while state.current_player != TERMINAL:
        a, b = layout.split(state.observation(0)), layout.split(state.observation(1))
        for f in layout.fields:
            if f.name in PER_SEAT:
                axis = 1 if f.name == "tribute_takers" else 0
                assert np.array_equal(np.roll(a[f.name], -1, axis=axis), b[f.name]), f.name
            else:
                assert np.array_equal(a[f.name], b[f.name]), f.name
        state.apply(rng.choice(state.legal_moves()))
        seen += 1
    assert seen >= 50


def test_a_build_in_progress_and_its_tribute_takers() -> None:
    """Example 2 of the rule text (Tribute Payment): seat 0 develops his rampart in the
    hill; seats 2 then 1 take tribute.  Player 3 sees the face-down stage in seat 1 (player
    0 sits next after him) and the takers as seats 3 and 2 relative to him."""
    state = new_game(4)
    figures(state, "hill", 0, settlers=1)
    building(state, "hill", 0, "rampart", 1)
    building(state, "hill", 1, "settlement", 2)
    building(state, "hill", 2, "rampart", 3)
    building(state, "hill", 3, "fortress", 1)
    give(state, 0, fish=1, wood=1)
    play(state, "develop hill")
    assert state.phase == "tribute" and state.current_player == 2
    hill = INDEX["hill"]
    f = fields(state, 3)
    assert f["phase"].tolist() == np.eye(len(PHASES))[PHASES.index("tribute")].tolist()
    assert f["build_region"].nonzero()[0].tolist() == [hill]
    assert f["build_type"].tolist() == np.eye(4)[TYPES.index("rampart")].tolist()
    assert f["build_stage"][0] == 2 and f["build_free"][0] == 0
    assert f["build_paid_left"].tolist() == [1, 1, 0, 0]       # fish and wood
    assert f["tribute_takers"].tolist() == [np.eye(4)[3].tolist(), np.eye(4)[2].tolist(),
                                            [0, 0, 0, 0]]
    assert f["building_stage"][1, hill] == 2                   # player 0: I + face down II
    assert f["building_face_down"][:, hill].tolist() == [0, 1, 0, 0]
    assert f["to_move"].tolist() == [0, 0, 0, 1]               # player 2 picks first
    assert f["resources"][1].tolist() == [0, 0, 0, 0]          # player 0 paid all he had
    play(state, "tribute wood")
    f = fields(state, 3)
    assert f["tribute_takers"].sum() == 0 and f["build_paid_left"].sum() == 0


def test_to_move_is_zero_at_a_pict_and_at_the_end() -> None:
    state = new_game(2)
    give(state, 0, fish=1, wood=1)
    figures(state, "hill", 0, settlers=1)
    play(state, "build fortress hill")        # a stage I: one resource, then the Pict
    while state.current_player not in (CHANCE, TERMINAL):
        state.apply(state.legal_moves()[0])
    assert state.current_player == CHANCE
    for p in range(2):
        f = fields(state, p)
        assert f["to_move"].sum() == 0
        assert f["phase"][PHASES.index("reveal")] == 1.0
        assert f["turn_player"].sum() == 1.0
    game = AlbionGame(2, max_rounds=1)
    end = game.new_game(seed=2)
    rng = random.Random(2)
    while end.current_player != TERMINAL:
        end.apply(rng.choice(end.legal_moves()))
    for p in range(2):
        f = fields(end, p)
        assert f["to_move"].sum() == 0
        assert f["phase"][PHASES.index("over")] == 1.0
        assert f["end_reason"].tolist() == [0, 1]         # the round cap: a draw
        assert f["winners"].sum() == 0


def test_the_board_part_and_the_picts() -> None:
    state = new_game(2)
    f = fields(state, 0)
    for key, kind, *_ in REGIONS:
        r = INDEX[key]
        assert f["region_kind"][r].tolist() == np.eye(len(KINDS))[KINDS.index(kind)].tolist()
        assert f["laurel"][r] == (key in ("crag", "peak", "glen"))
        assert f["printed_assault"][r] == (1 if key == "moor" else 0)
    view = state.view(0)
    assert f["face_down"].tolist() == [region["face_down"] for region in view["regions"]]
    assert f["face_down"][INDEX["moor"]] == 6
    assert f["picts"].tolist() == [view["picts"]["assault_unrevealed"],
                                   view["picts"]["peace_unrevealed"], view["picts"]["in_box"]]
    assert f["production"][0].tolist() == [1, 1, 0, 0]    # the stage I fishery and mill
    assert f["settlers_in_supply"].tolist() == [3, 3]
    assert f["movement"].tolist() == [2, 2]       # his own and the fortress I's neutral one
    assert f["supply"].tolist() == [view["supply"][k] for k in RESOURCES]
    assert f["round"][0] == 1 and f["max_rounds"][0] == 100
    assert f["points_left"][0] == 2
