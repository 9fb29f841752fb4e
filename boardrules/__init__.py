"""boardrules: rules adjudication and AI search for four published board games.

All four are implemented: Armadora, Rome & Carthage, Albion and Armada (1986), each a
compiled Cython rules core behind one typed API, with ``tic_tac_toe``, ``connect_four``
and the dice game ``pig`` as small example games of the same contract.

>>> import boardrules
>>> boardrules.available_games()
['albion', 'armada', 'armadora', 'connect_four', 'pig', 'rome_and_carthage', 'tic_tac_toe']
>>> game = boardrules.load("armadora", players=4, variant="advanced")
>>> state = game.new_game(seed=7)
>>> state.current_player
0
"""

from __future__ import annotations

import functools
import json
from collections.abc import Hashable
from typing import Any, cast

try:
    from boardrules._ext import core as _core  # noqa: F401
except ImportError as exc:  # pragma: no cover - only on a broken install
    raise ImportError(
        f"boardrules' compiled Cython cores (boardrules._ext.*) are not there: {exc}. "
        f"This boardrules was imported from {__file__}. Either (1) it is a source checkout "
        "on sys.path (e.g. Python started in the clone's root) shadowing the installed "
        "package: the source folder has no compiled cores; for development run "
        "`pip install -e .` in the clone, which compiles them in place, or run from another "
        "directory; or (2) the install did not compile them: installing from source (an "
        "sdist or a clone) needs a C compiler and the Python headers, so install those and "
        "reinstall, or install a binary wheel for your platform."
    ) from exc

from boardrules.api import (
    CHANCE,
    TERMINAL,
    Decision,
    Event,
    Game,
    Move,
    Outcome,
    State,
    Termination,
)
from boardrules.errors import (
    BoardDataError,
    BoardRulesError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionError,
    InvalidPositionError,
    InvalidStateError,
    UnknownGameError,
)
from boardrules.games import AnyGameId, available_games, check_saved_options, load
from boardrules.search import Suggestion, suggest


def get_include() -> str:
    """The directory to put on Cython's include path to build a game of your own against
    this installed boardrules: it holds ``boardrules/_ext/core.pxd`` (the C-level
    contract, ``cimport``-ed as ``boardrules._ext.core``) and every game's ``.pxd``.  In a
    wheel they are shipped under ``boardrules/include``; in a source checkout (an editable
    install) they are the tree's ``src_ext``.  See docs/tutorial_add_a_game.rst."""
    from pathlib import Path

    here = Path(__file__).resolve().parent
    for candidate in (here / "include", here.parent / "src_ext"):
        if (candidate / "boardrules" / "_ext" / "core.pxd").is_file():
            return str(candidate)
    raise FileNotFoundError(f"boardrules' .pxd contract files are not installed beside "
                            f"{here} (a wheel ships them in boardrules/include)")

__version__ = "0.6.0"

__all__ = [
    "CHANCE",
    "TERMINAL",
    "BoardDataError",
    "BoardRulesError",
    "Decision",
    "Event",
    "Game",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidOptionError",
    "InvalidPositionError",
    "InvalidStateError",
    "Move",
    "Outcome",
    "State",
    "Suggestion",
    "Termination",
    "UnknownGameError",
    "available_games",
    "get_include",
    "load",
    "state_from_json",
    "suggest",
]


def state_from_json(text: str | bytes, *, key: bytes | None = None) -> State[Any]:
    """Restore a saved state of any game, loading the game with the saved options (with
    ``key``, only a save signed with that key: see :meth:`State.to_json`)."""
    from boardrules.api import _parse_state_json

    doc = _parse_state_json(text, key)
    options: Any = doc["options"]
    game_id = doc["game"]
    if not isinstance(game_id, str) or not isinstance(options, dict):
        raise InvalidStateError("game must be a string and options an object")
    if game_id not in available_games():
        raise InvalidStateError(f"unknown game {game_id!r}")
    check_saved_options(game_id, options)
    try:
        game = _game_of_save(game_id, options)
    except (InvalidOptionError, BoardDataError) as exc:
        raise InvalidStateError(f"options: {exc}") from None
    state: State[Any] = game.state_from_json(json.dumps(doc), key=key)
    return state


def _game_of_save(game_id: str, options: dict[str, Any]) -> Game[Any, Any]:
    """The game of a save.  A game class's games are values (its options decide them), so
    restored states share one per id, class and options: a server restoring many saves
    of one game pays for loading it, and its board, once.  Another factory (a function a
    user registered, which may answer differently each call) loads every time."""
    from boardrules.games import _REGISTRY

    factory = _REGISTRY[game_id]
    if isinstance(factory, type) and issubclass(factory, Game):
        # a class hashes by identity (mypy reads Game's __eq__ as making it unhashable)
        return _cached_game(cast(Hashable, factory), game_id,
                            json.dumps(options, sort_keys=True))
    game: Game[Any, Any] = load(AnyGameId(game_id), **options)
    return game


@functools.lru_cache(maxsize=32)
def _cached_game(factory: Hashable, game_id: str, options: str) -> Game[Any, Any]:
    game: Game[Any, Any] = load(AnyGameId(game_id), **json.loads(options))
    return game
