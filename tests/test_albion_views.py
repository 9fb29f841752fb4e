"""Albion's view has the shape its TypedDicts (boardrules/games/albion/views.py) and the
docs' "The view" section give, field by field, nested ones too."""

from __future__ import annotations

from typing import Any, get_type_hints

from boardrules.games.albion import AlbionGame
from boardrules.games.albion.views import (
    AlbionView,
    BuildingView,
    BuildView,
    PictsView,
    PlayerView,
    RegionView,
    ResourcesView,
)
from boardrules.testing import random_positions


def keys(typed: Any) -> set[str]:
    return set(get_type_hints(typed))


def test_the_view_has_the_fields_of_its_typeddicts() -> None:
    game = AlbionGame(3, max_rounds=4)
    built = 0
    for state in random_positions(game, games=3, seed=8):
        for viewer in (None, 0):
            view = state.view(viewer)
            assert set(view) == keys(AlbionView)
            assert set(view["supply"]) == keys(ResourcesView)
            assert set(view["picts"]) == keys(PictsView)
            for player in view["players"]:
                assert set(player) == keys(PlayerView)
                assert set(player["resources"]) == set(player["production"]) == keys(
                    ResourcesView)
            for region in view["regions"]:
                assert set(region) == keys(RegionView)
                for building in region["buildings"]:
                    assert set(building) == keys(BuildingView)
            if view["build"] is not None:
                built += 1
                assert set(view["build"]) == keys(BuildView)
    assert built
