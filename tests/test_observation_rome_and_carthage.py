"""Rome & Carthage's observation tensor (``rc_observation``, ``observation.py``): the
conformance checks on every example option set, and what the tensor shows and hides."""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np
import pytest

import boardrules
from boardrules.games.rome_and_carthage import RomeCarthageGame, RomeCarthageState
from boardrules.games.rome_and_carthage.moves import CARD_VALUES
from boardrules.testing import check_observations_leak_nothing, check_observations_match_views

OPTIONS = RomeCarthageGame.example_options

# the docs page's hand-written battle (Position format): Rome on Aquileia, Byzantium on
# Salona, player 0 to move; PILE is what the hands leave of the deck
POSITION = """Rome & Carthage position
city aquileia: rome infantry
city salona: byzantium infantry
phase: main
round: 3
turn_player: 0
current: 0
removed: 0 0 0 0
hand[0]: 0 0 5 10 15 15
hand[1]: 0 0 3 7 {extra}15 15
known[0]: 5 10 15 15
known[1]: 3 7 15 15
unknown[1]: {unknown}
pile[0]: {pile}
"""
PILE = [1] * 4 + [2] * 4 + [3] * 3 + [4] * 4 + [5] * 3 + [6] * 4 + [7] * 3 + [8] * 4 \
    + [9] * 4 + [10] * 3


def _position(game: RomeCarthageGame, drawn: int | None = None) -> RomeCarthageState:
    """The docs position; with ``drawn``, player 1 also holds that card, which he drew
    (only his side has seen it)."""
    pile = list(PILE)
    if drawn is not None:
        pile.remove(drawn)
    return game.position(POSITION.format(
        extra="" if drawn is None else f"{drawn} ", unknown=0 if drawn is None else 1,
        pile=" ".join(map(str, pile))))


def _counts(values: list[int]) -> list[float]:
    counts = [0.0] * len(CARD_VALUES)
    for value in values:
        counts[CARD_VALUES.index(value)] += 1
    return counts


def _split(state: RomeCarthageState, player: int) -> dict[str, Any]:
    return state.game.observation_layout.split(state.observation(player))


def _placed(game: RomeCarthageGame, seed: int = 1) -> RomeCarthageState:
    """A game after turns 1 and 2 (the first legal placement each time), first draw done."""
    state = game.new_game(seed=seed)
    while state.phase == "place":
        state.apply(state.legal_moves()[0])
    return state


@pytest.mark.parametrize("options", OPTIONS, ids=[str(o) for o in OPTIONS])
def test_conformance_checks_on_every_example_option_set(options: dict[str, Any]) -> None:
    game = boardrules.load("rome_and_carthage", **options)
    check_observations_match_views(game, games=6, seed=3)
    check_observations_leak_nothing(game, games=6, seed=3)


@pytest.mark.parametrize("options", OPTIONS, ids=[str(o) for o in OPTIONS])
def test_legend_total_equals_the_observation_shape(options: dict[str, Any]) -> None:
    game = boardrules.load("rome_and_carthage", **options)
    layout = game.observation_layout
    assert sum(math.prod(f.shape) for f in layout.fields) == layout.size
    assert game.observation_shape == (layout.size,) == (game.core.observation_size,)
    # 56 cities; every per-seat field grows with the players
    seats = options["players"]
    assert layout.field("hand").shape == (seats, len(CARD_VALUES))
    assert layout.field("army").shape == (4, len(game.board.cities))
    assert layout.size == 1136 + 54 * seats


def test_observers_own_hand_is_in_his_tensor() -> None:
    game = boardrules.load("rome_and_carthage", players=4)
    state = _placed(game)
    hand = state.view(0)["players"][0]["hand"]
    assert hand == [0, 0, 2, 4, 6, 7, 8, 10, 15]          # the 7 drawn: only his side saw it
    obs = _split(state, 0)
    assert obs["hand"][0].tolist() == _counts(hand)
    assert obs["hand_visible"][0] == 1.0 and obs["hand_size"][0] == 9
    assert obs["unknown"][0] == 1
    # his ally (seat 2) shows him his cards in the standard game ...
    assert obs["hand_visible"][2] == 1.0
    assert obs["hand"][2].tolist() == _counts(state.view(0)["players"][2]["hand"])
    # ... and his opponents do not: their sizes and known cards only
    for k in (1, 3):
        assert obs["hand_visible"][k] == 0.0 and not obs["hand"][k].any()
        assert obs["hand_size"][k] == 8
        assert obs["known"][k].tolist() == _counts([2, 4, 6, 8, 10, 15])


def test_equal_arms_ally_hand_is_not_in_his_tensor() -> None:
    game = boardrules.load("rome_and_carthage", players=4, variant="equal_arms")
    state = _placed(game)
    obs = _split(state, 0)
    assert state.view(0)["players"][2]["hand"] is None     # "may NOT show" their cards
    assert obs["hand_visible"].tolist() == [1.0, 0.0, 0.0, 0.0]
    assert not obs["hand"][1:].any()
    assert obs["hand"][0].any()


def test_another_players_drawn_card_is_not_in_his_tensor() -> None:
    game = boardrules.load("rome_and_carthage", players=2)
    nine, eight = _position(game, drawn=9), _position(game, drawn=8)
    assert nine.state_bytes() != eight.state_bytes()
    assert np.array_equal(nine.observation(0), eight.observation(0))
    # the drawer himself tells them apart (so the comparison can fail)
    assert not np.array_equal(nine.observation(1), eight.observation(1))
    obs = _split(nine, 0)
    assert obs["hand_size"][1] == 7 and obs["unknown"][1] == 1
    assert obs["known"][1].tolist() == _counts([3, 7, 15, 15])


def test_attackers_face_down_cards_reach_his_side_only() -> None:
    game = boardrules.load("rome_and_carthage", players=2)
    state = _position(game)
    state.apply("aquileia-salona")
    state.apply("play 10+5")
    attacker, defender = _split(state, 0), _split(state, 1)
    for obs in (attacker, defender):
        assert obs["face_down"][0] == 2
        assert obs["battle_to_play"].tolist() == [0.0, 1.0]  # the defender lays his now
        city = game.board.index("salona")
        assert obs["battle_city"].nonzero()[0].tolist() == [city]
    assert attacker["face_down_cards"].tolist() == _counts([10, 5])
    assert not defender["face_down_cards"].any()
    # the attacker, seat 0, is the defender's next seat (index 1 of his tensor)
    assert attacker["battle_attacker"].tolist() == [1.0, 0.0]
    assert defender["battle_attacker"].tolist() == [0.0, 1.0]


def test_seats_are_relative_to_the_observer() -> None:
    game = boardrules.load("rome_and_carthage", players=4)  # rome, carthage, alex., byz.
    state = _placed(game)
    obs = _split(state, 1)
    # player 1's own hand is at index 0, and he is Carthage: slot 0
    assert obs["hand"][0].tolist() == _counts(state.view(1)["players"][1]["hand"])
    assert obs["hand_visible"].tolist() == [1.0, 0.0, 1.0, 0.0]   # his ally is player 3
    assert obs["slot_empire"][0].tolist() == [0.0, 1.0, 0.0, 0.0]
    assert obs["slot_seat"].argmax(axis=1).tolist() == [0, 1, 2, 3]
    assert obs["seat_ally"].tolist() == [1.0, 0.0, 1.0, 0.0]
    # player 0 is to move: the last seat in player 1's tensor
    assert obs["turn_player"].tolist() == obs["to_move"].tolist() == [0.0, 0.0, 0.0, 1.0]
    carthago = game.board.index("carthago")
    roma = game.board.index("roma")
    assert obs["army"][:, carthago].tolist() == [1.0, 0.0, 0.0, 0.0]  # his own army
    assert obs["army"][:, roma].tolist() == [0.0, 0.0, 0.0, 1.0]      # Rome: seat 0
    assert _split(state, 0)["army"][:, roma].tolist() == [1.0, 0.0, 0.0, 0.0]


def test_two_empire_player_has_two_slots() -> None:
    game = boardrules.load("rome_and_carthage", players=2)  # [rome, alexandria], others
    state = _placed(game)
    obs = _split(state, 1)
    # player 1 plays Carthage and Byzantium: slots 0 and 1 (board order), then player 0's
    assert obs["slot_empire"].argmax(axis=1).tolist() == [1, 2, 0, 3]
    assert obs["slot_seat"].argmax(axis=1).tolist() == [0, 0, 1, 1]
    assert obs["armies"].tolist() == [14.0, 14.0]


def test_to_move_is_zero_at_chance_and_at_the_end() -> None:
    game = boardrules.load("rome_and_carthage", players=3, max_rounds=10)
    state = game.new_game(seed=2, auto_chance=False)
    seen_decision = False
    while state.phase == "place":
        for p in range(3):
            assert _split(state, p)["to_move"].sum() == 1.0
        seen_decision = True
        state.apply(state.legal_moves()[0])
    assert seen_decision and state.phase == "draw" and state.current_player < 0
    for p in range(3):
        obs = _split(state, p)
        assert not obs["to_move"].any()
        assert obs["turn_player"].sum() == 1.0             # whose draw it is stays shown
        assert obs["phase"].argmax() == 1                 # draw
    rng = random.Random(2)
    state = game.new_game(seed=2)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_moves()))
    outcome = state.outcome()
    assert outcome is not None
    for p in range(3):
        obs = _split(state, p)
        assert not obs["to_move"].any()
        assert obs["end_reason"].sum() == 1.0
        won = p in outcome.winners and len(outcome.winners) < 3
        assert obs["winner"][0] == (1.0 if won else 0.0)
