"""Fuzz target: the board, dice and deck files of every game.

Input: the bytes of a data file (``fuzz/corpus/board_files`` holds every shipped board,
dice and deck file).  Each loader reads them from a file -- Armadora's, Rome & Carthage's,
Albion's and Armada's boards, Armada's dice and deck -- and only
:class:`~boardrules.BoardDataError` may come out.  A file that loads is playable: the game
built on it (every player count it allows) plays random moves with its invariants
holding, its saves restore, and its compiled core plays random games to the end.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable
from typing import Any

from _common import BoardRulesError, boardrules, json_mutator, main

from boardrules.errors import BoardDataError, InvalidOptionError
from boardrules.games.albion import board as albion_board
from boardrules.games.armada import board as armada_board
from boardrules.games.armada import deck as armada_deck
from boardrules.games.armada import dice as armada_dice
from boardrules.games.armadora import board as armadora_board
from boardrules.games.rome_and_carthage import board as rc_board

#: (game id, the option that takes the file, its loader, options that keep games short)
LOADERS: list[tuple[str, str, Callable[[Any], Any], dict[str, Any]]] = [
    ("armadora", "board", armadora_board.load_board, {}),
    ("rome_and_carthage", "board", rc_board.load_board, {"max_rounds": 3}),
    ("albion", "board", albion_board.load_board, {"max_rounds": 2}),
    ("armada", "board", armada_board.load_board, {"max_rounds": 2}),
    ("armada", "dice", armada_dice.load_dice, {"max_rounds": 2}),
    ("armada", "deck", armada_deck.load_deck, {"max_rounds": 2, "cards": True}),
]
PATH = os.path.join(tempfile.mkdtemp(prefix="boardrules-fuzz-"), "board.json")


def loaded(loader: Callable[[Any], Any], spec: Any) -> Any:
    try:
        return loader(spec)
    except BoardDataError:
        return None
    except BaseException as exc:
        raise AssertionError(f"{loader.__module__}.{loader.__name__} raised "
                             f"{type(exc).__name__}, not BoardDataError: {exc}") from exc


def play_on(game_id: str, option: str, path: str, options: dict[str, Any]) -> None:
    """Build the game on a file that loaded and play it (a file the loader accepts must
    not give a game that breaks its own rules)."""
    for players in (2, 3, 4):
        try:
            game = boardrules.load(game_id, players=players, **{option: path}, **options)
        except InvalidOptionError:
            continue  # a board for other player counts: refused, named
        except BaseException as exc:
            raise AssertionError(f"a {option} file that loads breaks load({game_id!r}, "
                                 f"players={players}): {type(exc).__name__}: {exc}") from exc
        state = boardrules.testing.random_play(game, seed=players, moves=60, rng_seed=players)
        for name, (counted, expected) in state.invariants().items():
            if counted != expected:
                raise AssertionError(f"{game_id} on a fuzzed {option}: invariant {name!r} "
                                     f"{counted} != {expected}")
        if game.state_from_json(state.to_json()) != state:
            raise AssertionError(f"{game_id} on a fuzzed {option}: a save does not restore")
        game.core.random_playouts(2, players)


def TestOneInput(data: bytes) -> None:
    with open(PATH, "wb") as handle:
        handle.write(data)
    for game_id, option, loader, options in LOADERS:
        if loaded(loader, PATH) is not None:
            try:
                play_on(game_id, option, PATH, options)
            except BoardRulesError as exc:
                raise AssertionError(f"{game_id} on a {option} file that loads: "
                                     f"{type(exc).__name__}: {exc}") from exc


if __name__ == "__main__":
    main(TestOneInput, json_mutator)
    sys.exit(0)
