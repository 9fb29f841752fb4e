"""``render_svg(size=...)`` is checked the same way by every game: one shared check
(:func:`boardrules.games.checks.check_picture_size`), an integer within the game's
``SIZE_RANGE`` (a bool refused), ``ValueError`` naming the range otherwise.

Armadora, tic-tac-toe, Connect Four and pig drew whatever they were given: ``width="nan"``
for NaN or infinity, a negative or zero width, a fractional one, a 9,000,000,000-pixel
picture, and ``OverflowError`` (no documented error) for ``2**1024``."""

from __future__ import annotations

import importlib
import math
import xml.etree.ElementTree as ET
from typing import Any

import pytest

import boardrules
from boardrules.games.checks import check_picture_size

GAMES = boardrules.available_games()
BAD_SIZES: list[Any] = [float("nan"), float("inf"), -float("inf"), -5, 0, 1.5, 56.0, 2**1024, 10**9,
             True, False, "56"]


def _range(game_id: str) -> tuple[int, int]:
    low, high = importlib.import_module(f"boardrules.games.{game_id}.render").SIZE_RANGE
    return low, high


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_refuses_a_size_that_is_no_integer_in_its_range(game_id: str) -> None:
    game = boardrules.load(game_id)
    state: Any = game.new_game(seed=1)  # (each game's render_svg adds ``size``)
    view = state.view(None)
    low, high = _range(game_id)
    for size in [*BAD_SIZES, low - 1, high + 1]:
        with pytest.raises(ValueError, match=f"integer from {low} to {high} pixels"):
            state.render_svg(None, size=size)
        with pytest.raises(ValueError, match=f"integer from {low} to {high} pixels"):
            game.render_view_svg(view, size=size)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_draws_its_smallest_and_largest_size_with_whole_finite_dimensions(
        game_id: str) -> None:
    state: Any = boardrules.load(game_id).new_game(seed=1)
    for size in _range(game_id):
        root = ET.fromstring(state.render_svg(None, size=size))
        for dimension in ("width", "height"):
            value = float(root.get(dimension, "nan"))
            assert math.isfinite(value) and value > 0, (game_id, size, dimension, value)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_checks_its_size_with_the_one_shared_check(
        game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Each render module calls the shared check (imported by name): replaced there, a
    # size it passes is drawn, so the module has no second check of its own.
    render = importlib.import_module(f"boardrules.games.{game_id}.render")
    seen: list[Any] = []

    def spy(size: object, low: int, high: int, meaning: str) -> int:
        seen.append((size, low, high))
        return check_picture_size(size, low, high, meaning)

    monkeypatch.setattr(render, "check_picture_size", spy)
    low, high = render.SIZE_RANGE
    state: Any = boardrules.load(game_id).new_game(seed=1)
    state.render_svg(None, size=low)
    assert seen == [(low, low, high)]


def test_the_shared_size_check_names_what_the_size_measures() -> None:
    assert check_picture_size(200, 200, 10_000, "the picture's width") == 200
    with pytest.raises(ValueError, match=r"size \(a square's width\) must be an integer "
                                         r"from 20 to 1000 pixels"):
        check_picture_size(True, 20, 1000, "a square's width")
