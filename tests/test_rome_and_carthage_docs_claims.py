"""Rome & Carthage: claims of the documentation that the code did not keep (a docs
review's findings, fixed since).

Each test is named after the defect it pins.  The docs say ``history_view(player)``
is the log *a player* may see (``None``: a spectator), like
:meth:`boardrules.State.history_view`, which refuses a player that is not one
(TypeError / ValueError) -- and the project's standard is that bad input raises a clear
documented error.  ``RomeCarthageState.history_view`` overrides it and skips that check:
``-1`` silently reads as the last player (his team's draws shown), ``4`` raises a bare
IndexError and ``"0"`` a TypeError about tuple indices.  Likewise
``capital_occupied(player)`` takes ``True`` and ``1.0`` for player 1, where ``view``
refuses them.
"""

from __future__ import annotations

from typing import Any

import pytest

import boardrules
from boardrules.games.rome_and_carthage import RomeCarthageState


def placed_game() -> RomeCarthageState:
    """A 4-player game after the placements: player 0 has drawn a card."""
    state = boardrules.load("rome_and_carthage", players=4).new_game(seed=1)
    while state.phase == "place":
        state.apply(state.legal_moves()[0])
    assert isinstance(state, RomeCarthageState)
    return state


@pytest.mark.parametrize(("player", "error"), [
    (-1, ValueError), (-3, ValueError), (4, ValueError),
    (True, TypeError), ("0", TypeError), (1.0, TypeError),
])
def test_history_view_refuses_a_player_out_of_range_like_view(player: Any,
                                                               error: type) -> None:
    state = placed_game()
    with pytest.raises(error, match="player must be"):
        state.view(player)
    with pytest.raises(error, match="player must be"):
        state.history_view(player)


def test_history_view_of_a_negative_player_does_not_pass_for_another() -> None:
    """Player 0's ally (player 2) sees his draw; ``-2`` must not pass for player 2."""
    state = placed_game()
    assert state.history_view(2)[-1] == (-1, "draw 7")
    with pytest.raises(ValueError):
        state.history_view(-2)


@pytest.mark.parametrize("player", [True, 1.0])
def test_capital_occupied_refuses_a_bool_or_float_player_like_view(player: Any) -> None:
    state = placed_game()
    with pytest.raises(TypeError):
        state.view(player)
    with pytest.raises(TypeError):
        state.capital_occupied(player)


@pytest.mark.parametrize(("value", "error"), [(-1, ValueError), (99, ValueError),
                                              (True, TypeError), ("0", TypeError)])
def test_city_key_and_empires_of_refuse_bad_indices(value: Any, error: type) -> None:
    """``city_key(-1)`` returned the last city (a negative index wrapped)."""
    game = boardrules.load("rome_and_carthage", players=4)
    with pytest.raises(error):
        game.city_key(value)
    with pytest.raises(error):
        game.empires_of(value)
