"""Rome & Carthage typed views and notation hint: ``view()`` returns exactly the fields of
its TypedDicts (views.py, the docs page's "Hidden information"), nested ones included;
a move error's hint lists only the moves of the game's variant."""

from __future__ import annotations

import random
from typing import Any, get_type_hints

import pytest

import boardrules
from boardrules.games.rome_and_carthage import RomeCarthageGame
from boardrules.games.rome_and_carthage.views import (
    ArmyView,
    BattleView,
    CityView,
    ClockView,
    ForcedMarchView,
    PlayerView,
    RomeCarthageView,
    SpecialsView,
)


def _keys(typed: Any) -> set[str]:
    return set(get_type_hints(typed))


def _check_view(view: dict[str, Any]) -> None:
    assert set(view) == _keys(RomeCarthageView)
    for city in view["cities"]:
        assert set(city) == _keys(CityView)
        for army in (city["army"], city["attacker"], city["passing"]):
            assert army is None or set(army) == _keys(ArmyView)
    assert all(set(p) == _keys(PlayerView) for p in view["players"])
    assert all(set(s) == _keys(SpecialsView) for s in view["specials"])
    assert view["battle"] is None or set(view["battle"]) == _keys(BattleView)
    assert set(view["forced_march"]) == _keys(ForcedMarchView)
    for clock in view["capitals_clock"] + view["weak_and_capital_clock"]:
        assert set(clock) == _keys(ClockView)


@pytest.mark.parametrize("options", RomeCarthageGame.example_options,
                         ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_view_has_the_typed_fields(options: dict[str, object]) -> None:
    game = RomeCarthageGame(**options)  # type: ignore[arg-type]
    state = game.new_game(seed=9)
    rng = random.Random(9)
    for step in range(3000):
        if state.is_terminal():
            break
        if step % 7 == 0 or state.phase in ("commit", "spy"):
            for viewer in [None, *range(game.num_players)]:
                _check_view(dict(state.view(viewer)))
        state.apply(rng.choice(state.legal_moves()))
    _check_view(dict(state.view(None)))


@pytest.mark.parametrize(("options", "present", "absent"), [
    ({}, ["'uprising roma'", "'play 10+4'"], ["'ally'", "'give 5'", "'agree'"]),
    ({"players": 4, "variant": "rapid_conquest"}, ["'ally'", "'give 5'"],
     ["'uprising roma'", "'agree'", "'refuse'"]),
    ({"players": 4, "variant": "rapid_conquest", "consent": "explicit"},
     ["'ally'", "'agree'", "'refuse'"], ["'uprising roma'"]),
])
def test_notation_hint_lists_only_the_variants_moves(
        options: dict[str, object], present: list[str], absent: list[str]) -> None:
    game = RomeCarthageGame(**options)  # type: ignore[arg-type]
    with pytest.raises(boardrules.InvalidMoveError) as caught:
        game.parse_move("xyz")
    for move in present:
        assert move in str(caught.value)
    for move in absent:
        assert move not in str(caught.value)
