"""Rome & Carthage odds as a player sees them (the docs page's "Hidden information"):
a draw from ``chance_outcomes(viewer=p)`` is uniform over the cards p has not seen --
the pile and the cards of hidden hands nobody else knows -- so twins that differ only
in what p cannot see give him equal odds."""

from __future__ import annotations

from fractions import Fraction

import pytest
from rome_and_carthage_helpers import BATTLE_AT_SALONA

from boardrules.games.rome_and_carthage import RomeCarthageGame, RomeCarthageState

PILE = "1 1 1 1 2 2 2 2 3 3 3 4 4 4 4 5 5 5 6 6 6 6 7 7 7 8 8 8 8 9 9 9 9 10 10 10"


def _drawing(secret: str) -> RomeCarthageState:
    """Player 1 draws; player 0 has drawn a card only his side has seen: ``secret``."""
    pile = PILE.replace(f"{secret} ", "", 1)
    text = (BATTLE_AT_SALONA.replace(PILE, pile)
            .replace("hand[0]: 0 0 5 10", f"hand[0]: 0 0 {secret} 5 10")
            .replace("known[1]: 3 7 15 15", "known[1]: 3 7 15 15\nunknown[0]: 1")
            .replace("phase: main\nround: 3\nturn_player: 0\ncurrent: 0",
                     "phase: draw\nround: 3\nturn_player: 1\ncurrent: 1\ndraws_left: 1"))
    return RomeCarthageGame(players=2).position(text, auto_chance=False)


def _odds(state: RomeCarthageState, viewer: int | None) -> dict[int, Fraction]:
    outcomes = state.chance_outcomes(viewer=viewer)
    return {int(move.value or 0): Fraction(p).limit_denominator(100) for move, p in outcomes}


def test_draw_odds_over_what_the_drawer_has_not_seen() -> None:
    state = _drawing("9")
    odds = _odds(state, 1)
    # player 1 has not seen player 0's drawn card: 36 cards (the pile's 35 and it)
    assert odds[9] == Fraction(4, 36) and odds[1] == Fraction(4, 36)
    assert sum(odds.values()) == 1
    # the engine's odds are the pile's: three 9s among 35
    assert _odds(state, None)[9] == Fraction(3, 35)
    # player 0 has seen his own card: the pile is all he has not seen
    assert _odds(state, 0) == _odds(state, None)


@pytest.mark.parametrize("other", ["1", "4", "10"])
def test_draw_odds_twins_differing_in_a_hidden_card_are_equal(other: str) -> None:
    assert _odds(_drawing("9"), 1) == _odds(_drawing(other), 1)
    assert _odds(_drawing("9"), 0) != _odds(_drawing(other), 0)


def test_draw_odds_equal_arms_allies_do_not_see_each_other() -> None:
    game = RomeCarthageGame(players=4, variant="equal_arms", max_rounds=10)
    state = game.new_game(seed=4, auto_chance=False)
    while state.phase != "draw":
        state.apply(state.legal_moves()[0])
    engine = {move.value: p for move, p in state.chance_outcomes()}
    for viewer in range(4):
        odds = {move.value: p for move, p in state.chance_outcomes(viewer=viewer)}
        assert abs(sum(odds.values()) - 1) < 1e-9
        # nobody has drawn yet: every hand is public, the pile is all anyone has not seen
        assert odds == pytest.approx(engine)
