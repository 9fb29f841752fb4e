"""Defects the fuzz targets found (fuzz/, docs/fuzzing.rst), each pinned by its input.

``str.isdigit()`` is true for digits ``int()`` refuses (superscripts such as ``'²'``):
three parsers checked a number with it and let ``int()``'s ValueError out of the API
instead of the library's error.
"""

from __future__ import annotations

import json

import pytest

import boardrules
from boardrules import InvalidMoveError, InvalidStateError
from boardrules.errors import InvalidPositionError
from boardrules.testing import assert_rejected


def test_rome_and_carthage_play_with_a_superscript_digit_is_not_a_move() -> None:
    game = boardrules.load("rome_and_carthage")
    with pytest.raises(InvalidMoveError, match="not a Rome & Carthage move"):
        game.parse_move("play \u00b2+3")
    state = game.new_game(seed=1)
    assert_rejected(state, InvalidMoveError, lambda: state.apply("play 3+\u00b2"))


def test_rome_and_carthage_save_with_a_superscript_digit_is_an_invalid_state() -> None:
    state = boardrules.load("rome_and_carthage").new_game(seed=1)
    doc = json.loads(state.to_json())
    doc["history"].append("play \u00b2+3")
    with pytest.raises(InvalidStateError, match=r"history\[\d+\]"):
        boardrules.state_from_json(json.dumps(doc))


def test_armadora_position_with_a_superscript_digit_names_the_field() -> None:
    game = boardrules.load("armadora", players=2)
    state = game.new_game(seed=1)
    state.apply(next(m for m in state.legal_moves() if str(m).startswith("1@")))
    text = state.position()
    assert "a1: player 0, strength 1" in text
    with pytest.raises(InvalidPositionError) as refused:
        game.position(text.replace("a1: player 0", "a1: player \u00b2"))
    assert refused.value.field == "a1"


def test_pig_position_with_a_superscript_digit_names_the_field() -> None:
    game = boardrules.load("pig")
    text = game.new_game(seed=1).position()
    with pytest.raises(InvalidPositionError) as refused:
        game.position(text.replace("turns: 0", "turns: \u00b2"))
    assert refused.value.field == "turns"
