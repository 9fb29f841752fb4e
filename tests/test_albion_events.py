"""Albion events (docs/albion.rst, "Events"): what each action caused, from staged
positions -- the Pict turned over, the assault's strength against each defence and each
loss, tribute taken, resources taken -- and their redaction (nothing is hidden: every
viewer's log is the whole truth)."""

from __future__ import annotations

import random
from typing import Any

from albion_helpers import INDEX, building, figures, give, new_game, play, stage_position

from boardrules import CHANCE
from boardrules.games.albion import AlbionGame, AlbionState


def neutral(state: AlbionState, player: int, held: int) -> None:
    def change(whole: dict[str, Any]) -> None:
        whole["neutral_supply"] += whole["neutral"][player] - held
        whole["neutral"][player] = held

    stage_position(state, change)


def reveal(state: AlbionState, region: str, n: int) -> None:
    def change(whole: dict[str, Any]) -> None:
        whole["face_down"][INDEX[region]] -= n
        whole["face_up"][INDEX[region]] += n
        whole["pool_assault"] -= n

    stage_position(state, change)


def kinds(state: AlbionState) -> list[tuple[str, dict[str, Any]]]:
    return [(e.kind, dict(e.data)) for e in state.last_events()]


def example_3() -> AlbionState:
    """The rule text's example 3 (as in test_albion_rules): strength 3 in the peak."""
    state = new_game(4)
    reveal(state, "peak", 2)
    figures(state, "peak", 0, settlers=1)
    building(state, "peak", 0, "rampart", 1)
    building(state, "peak", 2, "rampart", 3)
    building(state, "peak", 1, "settlement", 1)
    figures(state, "peak", 1, legions=1)
    building(state, "port", 1, "rampart", 2)
    building(state, "peak", 3, "fortress", 1)
    neutral(state, 3, 2)
    building(state, "port", 3, "rampart", 2)
    figures(state, "hill", 3, legions=1)
    give(state, 0, fish=1, wood=1)
    assert not {k: v for k, v in state.invariants().items() if v[0] != v[1]}
    return state


def test_events_assault_strength_against_each_defence_and_each_loss() -> None:
    state = example_3()
    play(state, "develop peak")           # pays fish+wood: the only payment
    play(state, "tribute wood")           # Sebastian (stage III) picks
    tribute = [data for kind, data in kinds(state) if kind == "tribute"]
    assert {"player": 2, "resource": "wood"} in tribute
    play(state, "pict assault")
    assert kinds(state) == [
        ("pict", {"region": "peak", "pict": "assault"}),
        ("assault", {"region": "peak", "strength": 3, "defenders": [
            {"player": 0, "defence": 2, "repelled": False},
            {"player": 1, "defence": 3, "repelled": True},
            {"player": 2, "defence": 4, "repelled": True},
            {"player": 3, "defence": 2, "repelled": False}]}),
        ("loss", {"player": 0, "region": "peak", "what": "token"}),
        ("loss", {"player": 3, "region": "peak", "what": "stage", "building": "fortress",
                  "stage": 0}),
    ]
    assert state.last_events()[0].player == CHANCE


def test_events_peace_pict_has_no_assault() -> None:
    state = new_game(2)
    figures(state, "moor", 0, settlers=1)
    give(state, 0, fish=1, wood=0)
    play(state, "build settlement moor", "pict peace")
    assert kinds(state)[0] == ("pict", {"region": "moor", "pict": "peace"})
    assert all(kind != "assault" for kind, _ in kinds(state))


def test_events_take_resources_lists_what_was_taken() -> None:
    state = new_game(2)
    building(state, "quarry", 0, "plant", 2)
    play(state, "resources")
    assert kinds(state) == [("resources", {"player": 0, "returned": [], "took": {
        "fish": 1, "wood": 1, "stone": 2, "gold": 0}})]


def test_events_are_the_same_for_every_viewer_nothing_is_hidden() -> None:
    game = AlbionGame(3, max_rounds=6)
    rng = random.Random(4)
    state = game.new_game(seed=4)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_moves()))
    truth = state.events(None)
    assert any(e.kind == "pict" for e in truth) and truth[-1].kind == "end"
    for viewer in range(3):
        assert state.events(viewer) == truth


def test_render_text_shows_the_last_moves_events() -> None:
    state = example_3()
    play(state, "develop peak", "tribute wood", "pict assault")
    last = state.render_text(0).splitlines()[-1]
    assert last.startswith("last: assault Pict in peak; assault 3 in peak")
    assert "p3 loses fortress to stage 0 in peak" in last


def test_chance_odds_are_the_same_for_every_viewer() -> None:
    """Nothing is hidden: the Pict's odds from each player's view are the pool's."""
    state = new_game(2)
    figures(state, "moor", 0, settlers=1)
    give(state, 0, fish=1, wood=0)
    play(state, "build settlement moor")
    truth = state.chance_outcomes()
    assert [(str(m), p) for m, p in truth] == [("pict assault", 16 / 26),
                                              ("pict peace", 10 / 26)]
    for viewer in (None, 0, 1):
        assert state.chance_outcomes(viewer=viewer) == truth
