"""Armada positions (docs/armada.rst, "Position format"): every reachable state written
by ``state.position()`` reads back byte for byte; hand-written positions; refusals name
the field and leave nothing changed."""

from __future__ import annotations

import json
import pickle

import pytest

import boardrules
from boardrules import CHANCE
from boardrules.errors import InvalidPositionError
from boardrules.games.armada import ArmadaGame
from boardrules.testing import check_positions_round_trip, random_positions

GAMES = [ArmadaGame(**options) for options in ArmadaGame.example_options]

#: Green to act with 5 bands on gn1 (the lairs keep their printed flags, unnamed).
HAND_WRITTEN = """\
armada position
territory gn1: flag=green green=5
territory rs1: flag=raspberry raspberry=3
territory bl1: flag=blue blue=3
territory or1: flag=orange orange=3
phase: turn
"""


@pytest.mark.parametrize("game", GAMES, ids=lambda g: repr(g.options)[:60])
def test_positions_round_trip_for_every_reachable_state(game: ArmadaGame) -> None:
    check_positions_round_trip(game, games=2, seed=3)


def test_every_position_of_random_games_round_trips_exactly() -> None:
    for game in GAMES:
        for state in random_positions(game, games=1, seed=11)[::3]:
            again = game.position(state.position(), auto_chance=False, auto_forced=False)
            assert again.state_bytes() == state.state_bytes()
            assert again.position() == state.position()



def test_hand_written_position_is_read_and_written_canonically() -> None:
    game = ArmadaGame()
    state = game.position(HAND_WRITTEN)
    text = state.position()
    assert text.startswith("armada position\nterritory gn1: flag=green green=5\n")
    assert "territory gn2: flag=green\n" in text          # idle: the printed flag
    assert "territory ci1: -\n" in text
    assert "ship 0: owner=green box\n" in text
    assert game.position(text).position() == text
    view = state.view(0)
    assert view["colours"][0]["pool"] == 45 and view["supply"] == {"gold": 50, "natives": 50}
    assert view["actions_left"] == 10 and state.current_player == 0


def test_state_from_a_position_has_no_history_and_saves_its_start() -> None:
    game = ArmadaGame()
    state = game.position(HAND_WRITTEN)
    assert list(state.history) == [] and state.start_position == state.position()
    with pytest.raises(IndexError):
        state.undo()
    state.apply("move gn1-gn2")
    state.apply("bands 2")
    for copy in (game.state_from_json(state.to_json()), pickle.loads(pickle.dumps(state))):
        assert copy.state_bytes() == state.state_bytes()
        assert copy.start_position == state.start_position
        assert [str(m) for m in copy.history] == [str(m) for m in state.history]
    assert json.loads(state.to_json())["start"] == state.start_position


def _refused(game: ArmadaGame, text: str, field: str) -> None:
    with pytest.raises(InvalidPositionError) as info:
        game.position(text)
    assert info.value.field == field, str(info.value)


@pytest.mark.parametrize(("change", "field"), [
    (("armada position", "chess position"), "header"),
    (("phase: turn", "phase: dance"), "phase"),
    (("phase: turn", "phase: turn\nphase: turn"), "phase"),
    (("phase: turn", "colour: green"), "colour"),
    (("green=5", "green=five"), "territory gn1"),
    (("green=5", "green=5 green=2"), "territory gn1"),
    (("green=5", "purple=5"), "territory gn1"),
    (("territory gn1", "territory zz9"), "territory zz9"),
    (("phase: turn", "phase: turn\nactions: 256"), "actions"),
    (("phase: turn", "phase: turn\ncurrent: 4"), "current"),
    (("phase: turn", "phase: turn\nroute: land gn1-or7"), "route"),
    (("phase: turn", "phase: turn\nround: 61"), "round"),
    (("phase: turn", "phase: turn\nship 0: city=gn3"), "ship 0"),
])
def test_unreadable_positions_name_their_field(change: tuple[str, str], field: str) -> None:
    _refused(ArmadaGame(), HAND_WRITTEN.replace(*change), field)


@pytest.mark.parametrize(("change", "field"), [
    (("green=5", "green=5 natives=1"), "natives[0]"),          # bands with natives
    (("green=5", "green=51"), "bands[0]"),
    (("territory rs1: flag=raspberry raspberry=3",
      "territory rs1: flag=raspberry green=46"), "bands"),      # 51 green bands in play
    (("phase: turn", "phase: turn\nterritory ci1: natives=2"), "natives[33]"),
    (("phase: turn", "phase: turn\nterritory gn3: explored"), "explored[2]"),
    (("phase: turn", "phase: turn\nship 0: owner=green sea=s_c1\nship 1: owner=green sea=s_c1"),
     "ship_pos[1]"),
    (("phase: turn", "phase: turn\nship 0: owner=green city=gn1"), "ship_pos[0]"),
    (("phase: turn", "phase: turn\nship 0: owner=green sea=s_c1 green=6 gold=5"),
     "ship_gold[0]"),
    (("phase: turn", "phase: turn\nship 0: owner=green box captured"), "captured[0]"),
    (("phase: turn", "phase: turn\nhand 0: dope=1"), "hand"),          # no cards option
    (("phase: turn", "phase: turn\ncurrent: 1"), "current"),           # green's player acts
    (("phase: turn", "phase: over"), "end_reason"),
    (("phase: turn", "phase: bands"), "route"),                         # no pending move
    (("phase: turn", "phase: bands\nroute: land gn2-gn1"), "route"),    # gn2 holds no bands
    (("phase: turn", "phase: turn\nacting: blue"), "acting"),          # not in a coup
    (("phase: turn", "phase: turn\nwinners: 0"), "winners"),
])
def test_inconsistent_positions_name_their_field(change: tuple[str, str], field: str) -> None:
    _refused(ArmadaGame(), HAND_WRITTEN.replace(*change), field)


def test_core_load_refuses_junk_and_leaves_the_state_untouched() -> None:
    game = ArmadaGame(players=2, cards=True)
    state = game.new_game(seed=5)
    raw = game._core.export(state._core)
    fresh = game._core.new_state()
    before = fresh.state_bytes()
    for key, junk in (("bands", "many"), ("bands", [0] * 3), ("phase", True),
                      ("phase", 2**70), ("hand", [[0] * 12]), ("route", 1.5),
                      ("winners", [7]), ("explored", [1] * len(raw["explored"]))):
        bad = dict(raw, **{key: junk})
        with pytest.raises((TypeError, ValueError), match=rf"^{key}"):
            game._core.load(fresh, bad)
        assert fresh.state_bytes() == before
    missing = dict(raw)
    del missing["ap"]
    with pytest.raises(ValueError, match=r"^ap: missing"):
        game._core.load(fresh, missing)
    # a colour field out of the byte's range is named as a colour, with its true value
    for junk in (300, 5, -1):
        with pytest.raises(ValueError, match=rf"^target_colour: {junk} is not a colour or "
                                             r"brown or 255 \(none\)$"):
            game._core.load(fresh, dict(raw, target_colour=junk))
    assert fresh.state_bytes() == before
    game._core.load(fresh, raw)
    assert fresh.state_bytes() == state.state_bytes()


def test_a_position_is_taken_only_by_a_state_without_history() -> None:
    game = ArmadaGame()
    state = game.new_game(seed=2)
    state.apply(state.legal_moves()[0])
    raw = game._core.export(state._core)
    with pytest.raises(ValueError):
        game._core.load(state._core, raw)


def test_positions_of_every_example_game_at_chance_nodes_round_trip() -> None:
    seen = 0
    for game in GAMES:
        chance = [s for s in random_positions(game, games=1, seed=4)
                  if s.current_player == CHANCE][:20]
        seen += len(chance)
        for state in chance:
            again = game.position(state.position(), auto_chance=False)
            assert again.state_bytes() == state.state_bytes()
            assert again.chance_outcomes() == state.chance_outcomes()
    assert seen


def test_position_loads_through_the_public_api() -> None:
    game = boardrules.load("armada", players=2)
    state = game.new_game(seed=9)
    assert game.position(state.position()).state_bytes() == state.state_bytes()
