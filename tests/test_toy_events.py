"""Events of the example games (docs "Events"): marks and drops, the line or four they
complete, draws; Pig's dice, a turn lost on a 1, a hold, the end.  Built on positions.
Nothing is hidden in these games: every viewer gets the same events."""

from __future__ import annotations

import json

import pytest

import boardrules
from boardrules import CHANCE
from boardrules.games.pig import PigState
from boardrules.testing import random_playout


def data(events: list[boardrules.Event]) -> list[tuple[str, dict[str, object]]]:
    return [(e.kind, dict(e.data)) for e in events]


def test_tic_tac_toe_a_mark_and_the_line_it_completes() -> None:
    state = boardrules.load("tic_tac_toe").position("Tic-tac-toe position\nXX.\nOO.\n...")
    state.apply("c1")
    assert data(state.last_events()) == [
        ("mark", {"player": 0, "square": "c1"}),
        ("line", {"player": 0, "squares": ["a1", "b1", "c1"]})]
    assert state.render_text().endswith("last: X on c1; X completes a1-b1-c1")


def test_tic_tac_toe_the_ninth_mark_without_a_line_is_a_draw() -> None:
    state = boardrules.load("tic_tac_toe").position("Tic-tac-toe position\nXOX\nXOO\nOX.")
    state.apply("c3")
    assert data(state.last_events()) == [("mark", {"player": 0, "square": "c3"}),
                                         ("draw", {})]


def test_connect_four_a_drop_lands_on_top_and_connects_four() -> None:
    c4 = "Connect Four position\n" + ".......\n" * 4
    state = boardrules.load("connect_four").position(c4 + "OOO....\nXXX....")
    state.apply("a")
    assert data(state.last_events()) == [("drop", {"player": 0, "column": "a", "row": 3})]
    state.apply("a")
    state.apply("d")
    assert data(state.last_events()) == [
        ("drop", {"player": 0, "column": "d", "row": 1}),
        ("four", {"player": 0, "cells": ["a1", "b1", "c1", "d1"]})]


def test_connect_four_the_last_disc_without_four_is_a_draw() -> None:
    rows = ["O.XOXOX", "OXXXOXX", "OXOXOXO", "XOXOOOX", "XOOOXXO", "XXOXOXO"]
    state = boardrules.load("connect_four").position(
        "Connect Four position\n" + "\n".join(rows))
    state.apply("b")
    assert data(state.last_events()) == [("drop", {"player": 1, "column": "b", "row": 6}),
                                         ("draw", {})]
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0, 1)


PIG = """Pig position
scores: 12 17
turns: 9
to move: 1
turn total: 0
phase: decide
last die: 1
"""


def pig() -> PigState:
    return boardrules.load("pig").position(PIG, auto_chance=False)


def test_pig_dice_add_to_the_turn_and_a_hold_banks_it() -> None:
    state = pig()
    state.apply("roll")
    assert state.last_events() == []  # the roll itself: the die says what happened
    state.apply("die 2")
    (die,) = state.last_events()
    assert (die.player, die.kind, dict(die.data)) == (
        CHANCE, "die", {"player": 1, "face": 2, "turn_total": 2})
    state.apply("hold")
    assert data(state.last_events()) == [("hold", {"player": 1, "banked": 2, "score": 19})]


def test_pig_a_one_loses_the_turn_total() -> None:
    state = pig()
    for move in ("roll", "die 2", "roll", "die 1"):
        state.apply(move)
    assert data(state.last_events()) == [
        ("die", {"player": 1, "face": 1, "turn_total": 0}),
        ("lost turn", {"player": 1, "lost": 2})]
    assert state.render_text().endswith("last: player 1 rolls 1; player 1 loses 2")


def test_pig_reaching_20_ends_the_game_with_the_winner() -> None:
    state = pig()
    state.apply("roll")
    state.apply("die 3")
    assert data(state.last_events()) == [
        ("die", {"player": 1, "face": 3, "turn_total": 3}),
        ("end", {"scores": [12, 20], "winner": 1, "turns": 9})]


def test_pig_the_fortieth_turn_ends_on_the_scores_a_draw_included() -> None:
    text = (PIG.replace("turns: 9", "turns: 39").replace("scores: 12 17", "scores: 12 12")
)
    state = boardrules.load("pig").position(text, auto_chance=False)
    for move in ("roll", "die 1"):
        state.apply(move)
    assert data(state.last_events())[-1] == (
        "end", {"scores": [12, 12], "winner": None, "turns": 40})


def test_with_auto_chance_the_last_events_hold_the_die_drawn_after_the_roll() -> None:
    state = boardrules.load("pig").position(PIG, seed=3)
    state.apply("roll")
    assert state.last_events()[0].kind == "die"


@pytest.mark.parametrize("game_id", ["tic_tac_toe", "connect_four", "pig"])
def test_events_are_the_same_for_every_viewer_and_json_ready(game_id: str) -> None:
    state = random_playout(boardrules.load(game_id), seed=2)
    events = state.events()
    assert events and events == state.events(0) == state.events(1)
    assert [e.index for e in events] == sorted(e.index for e in events)
    json.dumps([e.as_dict() for e in events])
    assert events[-1].kind in ("line", "four", "draw", "end")
