"""Armadora's observation tensor (boardrules/games/armadora/observation.py, written by
``ar_observation`` in the core): the conformance checks on every example option set, and
what the tensor shows and hides (docs/armadora.rst, "Observation tensor").

Squares: ``c2`` is x = 2, y = 1, so its planes' index is ``[.., 1, 2]``; on the printed
board the mines are d1, b2, f2, h2, a4, e4, c5, g5.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import boardrules
from boardrules.games.armadora import ArmadoraGame, ArmadoraState
from boardrules.observations import Observation
from boardrules.testing import check_observations_leak_nothing, check_observations_match_views

OPTION_SETS = ArmadoraGame.example_options
#: d1=4, b2=7, f2=4, h2=3, a4=5, e4=6, c5=6, g5=5
GOLD = (4, 7, 4, 3, 5, 6, 6, 5)


def _id(options: dict[str, Any]) -> str:
    return "-".join(f"{k}={v}" for k, v in options.items())


def new(players: int = 2, variant: str = "basic", races: tuple[str, ...] = (),
        **options: Any) -> ArmadoraState:
    """A game after a chosen setup (the chance events applied by hand)."""
    game = boardrules.load("armadora", players=players, variant=variant, **options)
    state = game.new_game(seed=0, auto_chance=False)
    for v in GOLD:
        state.apply(f"gold {v}")
    for race in races:
        state.apply(f"race {race}")
    assert isinstance(state, ArmadoraState)
    return state


def fields(state: ArmadoraState, player: int) -> dict[str, Observation]:
    return state.game.observation_layout.split(state.observation(player))


def play(state: ArmadoraState, *moves: str) -> None:
    for move in moves:
        state.apply(move)


@pytest.mark.parametrize("options", OPTION_SETS, ids=_id)
def test_observations_match_views(options: dict[str, Any]) -> None:
    check_observations_match_views(boardrules.load("armadora", **options), games=6, seed=1)


@pytest.mark.parametrize("options", OPTION_SETS, ids=_id)
def test_observations_leak_nothing(options: dict[str, Any]) -> None:
    check_observations_leak_nothing(boardrules.load("armadora", **options), games=6, seed=2)


@pytest.mark.parametrize("options", OPTION_SETS, ids=_id)
def test_legend_total_equals_observation_shape(options: dict[str, Any]) -> None:
    game = boardrules.load("armadora", **options)
    layout = game.observation_layout
    assert (sum(f.size for f in layout.fields),) == game.observation_shape
    assert game.observation_shape == (game.core.observation_size,)
    assert game.new_game(seed=0).observation(0).shape == game.observation_shape


def test_size_follows_players_variant_and_board() -> None:
    def size(**options: Any) -> int:
        return boardrules.load("armadora", **options).observation_shape[0]

    # 8 x 5 = 40 squares: (players + 12) planes, 5 + 2 per seat + 1 + 5 + 6 + 1 per seat
    assert size(players=2) == 14 * 40 + 5 + 3 * 2 + 12
    assert size(players=4) == 16 * 40 + 5 + 3 * 4 + 12
    # advanced: 3 more planes, 6 more per seat (race one-hot, tokens, reinforcement)
    assert size(players=2, variant="advanced") == size(players=2) + 3 * 40 + 6 * 2
    # 7 x 5 = 35 squares
    assert size(players=3, board="sheet-7x5") == 15 * 35 + 5 + 3 * 3 + 12
    assert size(players=2, look_at_face_down=False) == size(players=2)


def test_rule_3_own_face_down_strength_is_in_his_tensor() -> None:
    state = new()
    play(state, "3@c2")
    own = fields(state, 0)
    assert own["strength"][3, 1, 2] == 1.0 and own["strength"][:, 1, 2].sum() == 1.0
    assert own["warriors"][0, 1, 2] == 1.0
    assert own["pool"].tolist() == [11, 2, 0, 1, 1]  # the 3 left his screen


def test_rule_3_another_players_face_down_strength_is_not_in_his_tensor() -> None:
    a, b = new(), new()
    play(a, "3@c2")
    play(b, "5@c2")   # differ only in player 0's hidden strength (and his screen)
    assert np.array_equal(a.observation(1), b.observation(1))
    assert not np.array_equal(a.observation(0), b.observation(0))
    theirs = fields(a, 1)
    assert theirs["strength"][0, 1, 2] == 1.0 and theirs["strength"][1:, 1, 2].sum() == 0
    assert theirs["warriors"][1, 1, 2] == 1.0          # player 0 is his next seat
    assert theirs["warriors_left"].tolist() == [16, 15]


def test_rule_3_without_look_at_face_down_his_own_strength_is_hidden() -> None:
    state = new(look_at_face_down=False)
    play(state, "3@c2")
    own = fields(state, 0)
    assert own["strength"][0, 1, 2] == 1.0 and own["strength"][1:, 1, 2].sum() == 0
    assert own["pool"].tolist() == [11, 2, 0, 1, 1]   # his screen he still sees


@pytest.mark.parametrize("look", [True, False])
def test_rule_7_2_2_mage_peek_shows_the_value_to_the_mage_only(look: bool) -> None:
    state = new(variant="advanced", races=("mage", "orc"), look_at_face_down=look)
    play(state, "3@c2", "2@e3", "peek e3")
    # e3 is x = 4, y = 2
    assert fields(state, 0)["strength"][2, 2, 4] == 1.0
    assert fields(state, 0)["strength"][0, 2, 4] == 0.0
    assert fields(state, 0)["power_tokens"].tolist() == [1, 1]
    play(state, "1@a1")
    later = fields(state, 0)["strength"][:, 2, 4]
    # with look_at_face_down he may look again at what he saw; without it he must remember
    assert later.tolist() == ([0, 0, 1, 0, 0, 0] if look else [1, 0, 0, 0, 0, 0])
    if look:
        assert fields(state, 1)["strength"][2, 2, 4] == 1.0   # the owner's own


def test_rule_7_2_2_goblin_face_up_strength_is_public() -> None:
    state = new(variant="advanced", races=("orc", "goblin"))
    play(state, "1@a1", "goblin 4@c2")
    other = fields(state, 0)
    assert other["strength"][4, 1, 2] == 1.0 and other["face_up"][1, 2] == 1.0
    assert other["race"].tolist() == [[1, 0, 0, 0], [0, 1, 0, 0]]  # orc, then goblin
    assert other["power_tokens"].tolist() == [1, 0]


def test_rule_5_every_strength_shows_once_the_game_is_over() -> None:
    state = new(players=3)
    play(state, "3@c2", "2@e3", "1@a1", "pass", "pass", "pass")
    assert state.is_terminal()
    for player in range(3):
        strength = fields(state, player)["strength"]
        assert strength[0].sum() == 0 and strength[1:].sum() == 3


def test_seats_are_relative_to_the_observer() -> None:
    state = new(players=3)
    play(state, "2@a1", "3@c2")   # player 0 on a1, player 1 on c2; player 2 to move
    obs = {p: fields(state, p) for p in range(3)}
    assert obs[1]["warriors"][0, 1, 2] == 1.0         # player 1's own field is index 0
    assert obs[1]["warriors"][2, 0, 0] == 1.0         # player 0 is two seats after him
    assert obs[0]["warriors"][1, 1, 2] == 1.0
    assert obs[2]["warriors"][2, 1, 2] == 1.0
    assert obs[1]["warriors_left"].tolist() == [10, 11, 10]
    assert obs[1]["to_move"].tolist() == [0, 1, 0]    # player 2 is next after him
    assert obs[2]["to_move"].tolist() == [1, 0, 0]
    assert obs[1]["pool"].tolist() == [7, 2, 0, 1, 0]  # his own screen, not player 0's


def test_to_move_is_zero_at_chance_and_at_the_end() -> None:
    game = boardrules.load("armadora", players=2, variant="advanced")
    state = game.new_game(seed=4, auto_chance=False)
    assert state.current_player < 0
    for player in range(2):
        assert fields(state, player)["to_move"].sum() == 0
        assert fields(state, player)["phase"].tolist() == [1, 0, 0, 0, 0, 0]
    for v in GOLD:
        state.apply(f"gold {v}")
    assert fields(state, 0)["phase"].tolist() == [0, 1, 0, 0, 0, 0]   # races dealt
    assert fields(state, 0)["to_move"].sum() == 0
    state.apply("race elf")
    state.apply("race mage")
    assert fields(state, 0)["to_move"].tolist() == [1, 0]
    assert fields(state, 1)["to_move"].tolist() == [0, 1]
    rng = random.Random(4)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_moves()))
    for player in range(2):
        assert fields(state, player)["to_move"].sum() == 0
        assert fields(state, player)["phase"].tolist() == [0, 0, 0, 0, 0, 1]
        assert fields(state, player)["passed"].tolist() == [1, 1]


def test_rule_3_palisades_territories_and_gold_are_public() -> None:
    state = new()
    # close the top-left corner {a1 b1 a2 b2} (mine b2 = 7)
    play(state, "b1-c1", "b2-c2", "a2-a3", "b2-b3", "1@a1")
    for player in range(2):
        obs = fields(state, player)
        assert obs["palisades"][0, 0, 1] == 1.0 and obs["palisades"][0, 1, 1] == 1.0  # east
        assert obs["palisades"][1, 1, 0] == 1.0 and obs["palisades"][1, 1, 1] == 1.0  # south
        assert obs["palisades"].sum() == 4
        assert obs["territory_size"][0, 0] == 4 and obs["territory_size"][2, 0] == 36
        assert obs["territory_empty"][0, 0] == 2         # b1, a2: a1 taken, b2 a mine
        assert obs["mines"][1, 1] == 1.0 and obs["gold"][1, 1] == 7
        assert obs["gold"].sum() == sum(GOLD) and obs["unplaced_gold"].sum() == 0
        assert obs["palisades_left"][0] == 31


def test_unplaced_gold_counts_piles_by_size() -> None:
    game = boardrules.load("armadora")
    state = game.new_game(seed=0, auto_chance=False)
    assert fields(state, 0)["unplaced_gold"].tolist() == [1, 2, 2, 2, 1]
    state.apply("gold 4")
    obs = fields(state, 0)
    assert obs["unplaced_gold"].tolist() == [1, 1, 2, 2, 1]
    assert obs["gold"][0, 3] == 4     # d1, the first mine
