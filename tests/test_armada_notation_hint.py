"""Armada's notation reminder (a parse error's hint) lists only the moves of the game's
options (issue 15 item 7)."""

from __future__ import annotations

import pytest

from boardrules.errors import InvalidMoveError
from boardrules.games.armada import ArmadaGame


def _hint(game: ArmadaGame) -> str:
    with pytest.raises(InvalidMoveError) as info:
        game.parse_move("fly away")
    return str(info.value)


def test_notation_hint_of_the_basic_game_has_no_card_or_recruitment_move() -> None:
    hint = _hint(ArmadaGame())
    assert "'move a-b'" in hint and "'end'" in hint
    for move in ("'recruit'", "'buy t'", "'play dope'", "'decline'", "'place t'"):
        assert move not in hint


def test_notation_hint_lists_the_moves_of_the_options() -> None:
    hint = _hint(ArmadaGame(recruitment=True, cards=True))
    for move in ("'recruit'", "'buy t'", "'play dope'", "'decline'", "'place t'"):
        assert move in hint
    assert "'place t'" in _hint(ArmadaGame(cards=True))
    assert "'recruit'" not in _hint(ArmadaGame(cards=True))
