"""Armada's observation tensor (boardrules/games/armada/observation.py, ``am_observation``
in the core): it equals the reference computed from each player's view at every step,
leaks no card a player has not seen, and lists seats and colours from the observer's."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from armada_review_helpers import new

import boardrules
from boardrules import CHANCE, TERMINAL
from boardrules.games.armada import ArmadaGame
from boardrules.games.armada.observation import PENDING_KINDS
from boardrules.testing import check_observations_leak_nothing, check_observations_match_views

OPTION_SETS = ArmadaGame.example_options
CARD_KINDS = ("attack_weapon", "defence_weapon", "shipyard", "coup_de_main", "discovery",
              "recruitment", "big_recruitment", "mobilisation", "big_mobilisation",
              "strategist", "gold_mine", "dope")


def fields(state: Any, player: int) -> dict[str, np.ndarray]:
    return state.game.observation_layout.split(state.observation(player))  # type: ignore


@pytest.mark.parametrize("options", OPTION_SETS, ids=str)
def test_observations_match_views(options: dict[str, Any]) -> None:
    check_observations_match_views(boardrules.load("armada", **options), games=6)


@pytest.mark.parametrize("options", OPTION_SETS, ids=str)
def test_observations_leak_nothing(options: dict[str, Any]) -> None:
    check_observations_leak_nothing(boardrules.load("armada", **options), games=6)


@pytest.mark.parametrize("options", OPTION_SETS, ids=str)
def test_legend_total_is_the_observation_shape(options: dict[str, Any]) -> None:
    game = boardrules.load("armada", **options)
    layout = game.observation_layout
    assert sum(f.size for f in layout.fields) == layout.size
    assert game.observation_shape == (layout.size,) == (game.core.observation_size,)
    assert game.new_game(seed=0).observation(0).shape == game.observation_shape
    # the board's places: 52 territories (12 of them cities), 88 sea spaces
    assert layout.field("flag").shape == (5, 52)
    assert layout.field("city_ship").shape == (4, 12)
    assert layout.field("sea_crew").shape == (4, 88)
    assert layout.field("hand_size").shape == (game.num_players,)


def test_own_hand_is_in_his_tensor() -> None:
    state = new(4, cards=True, reaction_windows="off",
                deal=["strategist", "dope", "gold_mine", "gold_mine"] + ["shipyard"] * 4)
    hand0 = fields(state, 0)["hand"]
    assert hand0[CARD_KINDS.index("strategist")] == 1
    assert hand0[CARD_KINDS.index("dope")] == 1
    assert hand0.sum() == 2
    assert fields(state, 1)["hand"][CARD_KINDS.index("gold_mine")] == 2
    assert fields(state, 1)["hand"].sum() == 2


def test_another_players_hand_is_not_in_his_tensor() -> None:
    """Two deals differing only in player 0's two cards: every other player's tensor is
    the same in both, player 0's is not."""
    rest = ["shipyard"] * 6
    a = new(4, cards=True, reaction_windows="off", deal=["strategist", "dope", *rest])
    b = new(4, cards=True, reaction_windows="off", deal=["gold_mine", "discovery", *rest])
    assert a.view(0)["players"][0]["hand"] != b.view(0)["players"][0]["hand"]
    assert not np.array_equal(a.observation(0), b.observation(0))
    for p in (1, 2, 3):
        assert np.array_equal(a.observation(p), b.observation(p))
        assert fields(a, p)["hand_size"][(0 - p) % 4] == 2      # the size is public


def test_card_looked_at_is_in_the_lookers_tensor_only() -> None:
    """Grand stratège: the card looked at is seen by the player looking alone."""
    state = new(4, cards=True, reaction_windows="off", deal=["strategist"] + ["dope"] * 7)
    state.apply("play strategist")
    a, b = state.copy(), state.copy()
    a.apply("draw attack_weapon")
    b.apply("draw gold_mine")
    assert a.phase == b.phase == "look"
    card = fields(a, 0)["pending_card"]
    assert card[CARD_KINDS.index("attack_weapon")] == 1 and card.sum() == 1
    assert fields(a, 0)["pending_kind"][PENDING_KINDS.index("look")] == 1
    assert fields(b, 0)["pending_card"][CARD_KINDS.index("gold_mine")] == 1
    for p in (1, 2, 3):
        assert fields(a, p)["pending_card"].sum() == 0
        assert fields(a, p)["pending_player"][(0 - p) % 4] == 1
        assert np.array_equal(a.observation(p), b.observation(p))


def test_seats_and_colours_are_relative() -> None:
    """Player 1's own seat and colour come first: at green's (player 0's) turn, player 1
    sees the mover at seat 3, his own colour raspberry in slot 0, green in slot 3."""
    state = new(4, cards=True, reaction_windows="off")
    assert state.current_player == 0
    obs = fields(state, 1)
    assert obs["to_move"].tolist() == [0, 0, 0, 1]
    assert obs["colour"].argmax(axis=1).tolist() == [1, 2, 3, 0]
    assert obs["colour_owner"].argmax(axis=1).tolist() == [0, 1, 2, 3]
    assert obs["turn_colour"].tolist() == [0, 0, 0, 1]
    # his own bands are in plane 0: raspberry's on the board, green's in plane 3
    raspberry = sum(t["bands"] for t in state.view(1)["territories"] if t["colour"] == "raspberry")
    green = sum(t["bands"] for t in state.view(1)["territories"] if t["colour"] == "green")
    assert obs["bands"][0].sum() == raspberry > 0
    assert obs["bands"][3].sum() == green > 0
    assert fields(state, 0)["bands"][0].sum() == green


def test_two_player_colour_slots_list_his_two_colours_first() -> None:
    game = boardrules.load("armada", players=2)
    state = game.new_game(seed=0)
    order = [fields(state, p)["colour"].argmax(axis=1).tolist() for p in (0, 1)]
    assert order == [[0, 2, 1, 3], [1, 3, 2, 0]]     # G B R O; R O B G
    owners = fields(state, 1)["colour_owner"].tolist()
    assert owners == [[1, 0], [1, 0], [0, 1], [0, 1]]


def test_three_player_neutral_colour_is_the_last_slot() -> None:
    game = boardrules.load("armada", players=3, neutral="raspberry")
    state = game.new_game(seed=0)
    for p in range(3):
        obs = fields(state, p)
        assert obs["colour"][3].argmax() == 1                  # raspberry
        assert obs["colour_owner"][3].sum() == 0               # no player's
        assert obs["colour_owner"][:3].argmax(axis=1).tolist() == [0, 1, 2]
        assert obs["bands"][3].sum() > 0                       # its bands defend its lair


def test_to_move_is_zero_at_chance_and_at_the_end() -> None:
    game = boardrules.load("armada", players=3, max_rounds=1, cards=True, neutral="green")
    state = game.new_game(seed=3, auto_chance=False)
    rng = random.Random(3)
    chance_seen = 0
    while state.current_player != TERMINAL:
        for p in range(3):
            to_move = fields(state, p)["to_move"]
            if state.current_player == CHANCE:
                assert to_move.sum() == 0
            else:
                assert to_move.tolist() == [float(k == (state.current_player - p) % 3)
                                            for k in range(3)]
        if state.current_player == CHANCE:
            chance_seen += 1
            moves, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply(rng.choices(moves, probs)[0])
        else:
            state.apply(rng.choice(state.legal_moves()))
    assert chance_seen > 0
    for p in range(3):
        obs = fields(state, p)
        assert obs["to_move"].sum() == 0
        assert obs["phase"][-1] == 1                           # over
        assert obs["end_reason"].tolist() == [0, 1]            # the round cap
