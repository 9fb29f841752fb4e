"""Armadora events (docs/armadora.rst, "Events"): what each action caused, built on
positions, and their redaction -- each viewer's events hold nothing his view does not
(twins that differ only in what he cannot see give him equal events)."""

from __future__ import annotations

import json
import random

import pytest

import boardrules
from boardrules import CHANCE
from boardrules.games.armadora import (
    ArmadoraGame,
    ArmadoraState,
    ArmadoraView,
    ArmadoraWarriorView,
)
from boardrules.testing import random_playout

#: Mid-game, advanced: player 0 the Mage, player 1 the Goblin, each with a warrior down.
ADVANCED = """\
Armadora position
board: printed
players: 2
variant: advanced
phase: turn
to move: 0
move: 12
last: 1@e3
passed: none
gold: d1 5, b2 4, f2 6, h2 7, a4 4, e4 6, c5 5, g5 3
palisades: none
player 0: race mage, tokens 2, peeked none
player 1: race goblin, tokens 1, peeked none
a1: player 0, strength 3
e3: player 1, strength 1
"""

#: The end is near: player 1 has passed; the top-left corner {a1 b1 a2 b2} is closed
#: (b2 holds 4 gold) with player 0's 3 and player 1's 2 in it, the rest is one territory.
ENDGAME = """\
Armadora position
board: printed
players: 2
variant: basic
phase: turn
to move: 0
move: 16
last: pass
passed: 1
gold: d1 5, b2 4, f2 6, h2 7, a4 4, e4 6, c5 5, g5 3
palisades: b1-c1, b2-c2, a2-a3, b2-b3
a1: player 0, strength 3
b1: player 1, strength 2
e3: player 0, strength 1
"""


def warrior(view: ArmadoraView, cell: int) -> ArmadoraWarriorView:
    """The warrior on ``cell`` of a view (there must be one)."""
    found = view["squares"][cell]["warrior"]
    assert found is not None
    return found


def advanced(**options: object) -> ArmadoraState:
    game = boardrules.load("armadora", variant="advanced", **options)
    return game.position(ADVANCED)


def kinds(state: ArmadoraState, viewer: int | None = None) -> list[str]:
    return [e.kind for e in state.last_events(viewer)]


def test_setup_events_name_each_pile_with_its_mine_and_each_race() -> None:
    # rule 2.6 (setup): the piles go onto the mines in the board's order; rule 7.1.1 races
    game = boardrules.load("armadora", variant="advanced")
    state = game.new_game(seed=0, auto_chance=False)
    state.apply("gold 7")
    state.apply("gold 3")
    assert [(e.kind, dict(e.data)) for e in state.events()] == [
        ("gold", {"square": "d1", "gold": 7}), ("gold", {"square": "b2", "gold": 3})]
    for v in (4, 4, 5, 5, 6, 6):
        state.apply(f"gold {v}")
    state.apply("race elf")
    event = state.last_events(1)[0]
    assert (event.player, event.kind, dict(event.data)) == (
        CHANCE, "race", {"player": 0, "race": "elf", "tokens": 2})


def test_rule_3_warriors_a_placed_strength_shows_only_to_its_owner() -> None:
    state = advanced()
    state.apply("4@c3")
    mine, theirs, spectator = (state.last_events(v)[0] for v in (0, 1, None))
    assert mine.kind == "warrior" and dict(mine.data) == {
        "player": 0, "square": "c3", "strength": 4}
    assert theirs.data["strength"] is None and spectator.data["strength"] is None


def test_rule_3_warriors_without_look_at_face_down_the_owner_forgets_too() -> None:
    state = advanced(look_at_face_down=False)
    state.apply("4@c3")
    assert state.last_events(0)[0].data["strength"] is None
    assert warrior(state.view(0), 18)["strength"] is None


def test_rule_7_2_2_the_mage_alone_learns_the_value_he_peeked_at() -> None:
    state = advanced()
    state.apply("peek e3")
    assert dict(state.last_events(0)[0].data) == {
        "player": 0, "race": "mage", "tokens_left": 1, "square": "e3", "strength": 1}
    assert state.last_events(1)[0].data["strength"] is None
    assert state.last_events(None)[0].data["strength"] is None


def test_rule_7_2_2_the_goblin_warrior_is_public_and_the_turn_goes_on() -> None:
    state = advanced()
    state.apply("1@c3")
    state.apply("goblin 5@f3")
    assert dict(state.last_events(0)[0].data) == {
        "player": 1, "race": "goblin", "tokens_left": 0, "square": "f3", "strength": 5}
    state.apply("b1-c1")
    assert kinds(state) == ["palisade"]
    assert state.events()[-2].kind == "power"


def test_rule_7_2_2_elf_arrows_and_orc_palisades() -> None:
    text = (ADVANCED.replace("race mage", "race elf").replace("race goblin", "race orc")
)
    state = boardrules.load("armadora", variant="advanced").position(text)
    state.apply("arrow e3")
    assert dict(state.last_events(1)[0].data) == {
        "player": 0, "race": "elf", "tokens_left": 1, "square": "e3", "strength": None,
        "arrows": 1}
    state.apply("2@a3")
    state.apply("orc c1-d1")
    assert dict(state.last_events()[0].data) == {
        "player": 1, "race": "orc", "tokens_left": 0, "edge": "c1-d1"}


def test_rule_7_2_3_reinforcement_and_rule_4_pass() -> None:
    text = ENDGAME.replace("variant: basic", "variant: advanced").replace(
        "a1: player 0", "player 0: race orc, tokens 1, peeked none\n"
        "player 1: race elf, tokens 2, peeked none\na2: player 0, strength 1\n"
        "a1: player 0").replace("move: 16", "move: 20")
    state = boardrules.load("armadora", variant="advanced").position(text)
    state.apply("reinforce a1")
    assert [(e.kind, dict(e.data)) for e in state.last_events()] == [
        ("reinforce", {"player": 0, "square": "a1"})]


def test_rule_5_the_end_reveals_every_warrior_and_scores_each_territory() -> None:
    state = boardrules.load("armadora").position(ENDGAME)
    state.apply("pass")
    passed, reveal, scoring = state.last_events(1)
    assert (passed.kind, dict(passed.data)) == ("pass", {"player": 0})
    assert reveal.data["warriors"] == [
        {"square": "a1", "player": 0, "strength": 3},
        {"square": "b1", "player": 1, "strength": 2},
        {"square": "e3", "player": 0, "strength": 1}]
    corner, rest = scoring.data["territories"]
    assert dict(corner) == {"squares": ["a1", "b1", "a2", "b2"], "gold": 4,
                            "strength": [3, 2], "share": [4, 0], "winners": [0]}
    assert rest["gold"] == 36 and rest["winners"] == [0]
    assert scoring.data["gold"] == [40, 0] == list(state.score())
    assert state.render_text().endswith(
        "last: player 0 passes; every warrior turned over; scored: player 0 40, player 1 0")


def test_events_are_json_ready_and_logged_from_the_start_of_a_position() -> None:
    state = advanced()
    assert state.events() == []
    state.apply("1@c3")
    assert [e.index for e in state.events()] == [0]
    json.dumps([e.as_dict() for e in state.events(0)])
    state.undo()
    assert state.events() == []


@pytest.mark.parametrize("seed", range(4))
def test_twins_the_viewer_cannot_tell_apart_give_him_equal_events(seed: int) -> None:
    """Player 0's face-down a1 is a 3 in one game, a 4 in its twin: player 1 (the Goblin,
    who cannot peek) and spectators see the same, and so get the same events, until the
    end turns the warriors over."""
    game = boardrules.load("armadora", variant="advanced")
    a = game.position(ADVANCED)
    b = game.position(ADVANCED.replace("a1: player 0, strength 3", "a1: player 0, strength 4"))
    rng = random.Random(seed)
    while True:
        for viewer in (1, None):
            assert a.view(viewer) == b.view(viewer)
            assert a.events(viewer) == b.events(viewer)
        assert a.view(0) != b.view(0)  # the twins differ: their owner sees it
        both = [m for m in a.legal_moves() if b.is_legal(m)]
        move = rng.choice(both)
        a.apply(move)
        b.apply(move)
        if a.is_terminal():
            break
    assert a.events(1)[:-2] == b.events(1)[:-2]  # all but the reveal and the scoring


@pytest.mark.parametrize("options", ArmadoraGame.example_options, ids=str)
def test_no_event_shows_a_face_down_strength_the_view_hides(options: dict[str, object]) -> None:
    game = boardrules.load("armadora", **options)
    state = random_playout(game, seed=5)
    look = game.options["look_at_face_down"]
    for viewer in [None, *range(game.num_players)]:
        for event in state.events(viewer):
            if event.kind == "warrior" and not (look and event.player == viewer):
                assert event.data["strength"] is None
            if event.kind == "power" and event.data["race"] == "mage":
                assert (event.data["strength"] is None) == (event.player != viewer)


def test_rule_7_2_2_without_look_at_face_down_the_mage_keeps_what_his_view_showed() -> None:
    """The events show what the view showed right after the action: the peeked value
    (view["peek"]), never his own face-down strengths."""
    state = advanced(look_at_face_down=False)
    state.apply("peek e3")
    assert state.view(0)["peek"] == {"square": "e3", "strength": 1}
    assert state.last_events(0)[0].data["strength"] == 1
    state.apply("2@c3")
    assert "peek" not in state.view(0)
    assert [e.data["strength"] for e in state.events(0)] == [1, None]
