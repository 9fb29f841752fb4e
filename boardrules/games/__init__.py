"""The game packages and the registry of game ids.

Typing.  :func:`load` is overloaded by game id: ``load("armadora")`` is an
:class:`~boardrules.games.armadora.ArmadoraGame` to a type checker, whose states'
``legal_moves()`` are :class:`~boardrules.games.armadora.ArmadoraMove`\\ s.  So that
``mypy --strict`` rejects a misspelled id (``load("armadorra")``), ``load`` accepts a
plain ``str`` only once it is known to be a registered id -- an :data:`AnyGameId`:

* a built-in game by its literal id (:data:`GameId`): ``load("pig")``;
* a game of your own by the id :func:`register` returns:
  ``MY_GAME = register("my_game", MyGame)``, then ``load(MY_GAME)``;
* an id known only at run time (a command line, a saved state) through
  :func:`as_game_id`, which checks it against the registry:
  ``load(as_game_id(args.game))``.

At run time ``load`` takes any string and raises :class:`~boardrules.UnknownGameError`
for an unknown id; the distinction exists for the type checker only.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, NewType, overload

from boardrules.api import Game, Move, State
from boardrules.errors import InvalidOptionError, UnknownGameError

if TYPE_CHECKING:
    from boardrules.games.albion import AlbionGame
    from boardrules.games.armada import ArmadaGame
    from boardrules.games.armadora import ArmadoraGame
    from boardrules.games.connect_four import ConnectFourGame
    from boardrules.games.pig import PigGame
    from boardrules.games.rome_and_carthage import RomeCarthageGame
    from boardrules.games.tic_tac_toe import TicTacToeGame

#: The ids of the built-in games.
GameId = Literal["albion", "armada", "armadora", "connect_four", "pig", "rome_and_carthage",
                 "tic_tac_toe"]
#: A game id checked against the registry at run time (:func:`register` and
#: :func:`as_game_id` return one): :func:`load` types its game as ``Game[State[Move], Move]``
#: (any game: its moves are plain :class:`~boardrules.Move`\ s).
AnyGameId = NewType("AnyGameId", str)

_REGISTRY: dict[str, Callable[..., Game[Any, Any]]] = {}
_BUILTIN = (
    ("albion", "boardrules.games.albion", "AlbionGame"),
    ("armada", "boardrules.games.armada", "ArmadaGame"),
    ("armadora", "boardrules.games.armadora", "ArmadoraGame"),
    ("connect_four", "boardrules.games.connect_four", "ConnectFourGame"),
    ("pig", "boardrules.games.pig", "PigGame"),
    ("rome_and_carthage", "boardrules.games.rome_and_carthage", "RomeCarthageGame"),
    ("tic_tac_toe", "boardrules.games.tic_tac_toe", "TicTacToeGame"),
)


def register(game_id: str, factory: Callable[..., Game[Any, Any]]) -> AnyGameId:
    """Register a game under ``game_id`` (its module name); returns the id, typed for
    :func:`load`."""
    if not isinstance(game_id, str):
        raise TypeError("game_id must be a str")
    _REGISTRY[game_id] = factory
    return AnyGameId(game_id)


def available_games() -> list[str]:
    """The registered game ids, sorted."""
    _load_builtin()
    return sorted(_REGISTRY)


def as_game_id(game_id: str) -> AnyGameId:
    """``game_id``, checked to be registered (:class:`~boardrules.UnknownGameError`
    otherwise), typed for :func:`load`: the way to load a game whose id is known only at
    run time."""
    _load_builtin()
    if not isinstance(game_id, str):
        raise TypeError("game_id must be a str")
    if game_id not in _REGISTRY:
        raise UnknownGameError(f"no game {game_id!r}; available: {', '.join(available_games())}")
    return AnyGameId(game_id)


@overload
def load(game_id: Literal["albion"], /, **options: Any) -> AlbionGame: ...
@overload
def load(game_id: Literal["armada"], /, **options: Any) -> ArmadaGame: ...
@overload
def load(game_id: Literal["armadora"], /, **options: Any) -> ArmadoraGame: ...
@overload
def load(game_id: Literal["connect_four"], /, **options: Any) -> ConnectFourGame: ...
@overload
def load(game_id: Literal["pig"], /, **options: Any) -> PigGame: ...
@overload
def load(game_id: Literal["rome_and_carthage"], /, **options: Any) -> RomeCarthageGame: ...
@overload
def load(game_id: Literal["tic_tac_toe"], /, **options: Any) -> TicTacToeGame: ...
@overload
def load(game_id: AnyGameId, /, **options: Any) -> Game[State[Move], Move]: ...


def load(game_id: str, /, **options: Any) -> Game[Any, Any]:
    """The game ``game_id`` with ``options`` checked and defaults filled in.

    ``game_id`` is a built-in game's id (:data:`GameId`: the type checker then knows the
    game's own class) or, for a game of your own or an id read at run time, the
    :data:`AnyGameId` that :func:`register` or :func:`as_game_id` returns (see the module
    notes).  An unregistered id raises :class:`~boardrules.UnknownGameError`.
    """
    _load_builtin()
    if not isinstance(game_id, str):
        raise TypeError("game_id must be a str")
    factory = _REGISTRY.get(game_id)
    if factory is None:
        raise UnknownGameError(f"no game {game_id!r}; available: {', '.join(available_games())}")
    try:
        return factory(**options)
    except TypeError as exc:
        raise InvalidOptionError(f"{game_id}: {exc}") from None


def check_saved_options(game_id: str, options: dict[str, Any]) -> None:
    """Refuse options of an untrusted saved state or record that only a trusted caller
    may pass (see :meth:`Game.check_saved_options`); the game must be registered."""
    _load_builtin()
    factory = _REGISTRY[game_id]
    if isinstance(factory, type) and issubclass(factory, Game):
        factory.check_saved_options(options)


def _load_builtin() -> None:
    """Register the shipped games on first use (a user's own games may come first)."""
    for game_id, module, name in _BUILTIN:
        if game_id not in _REGISTRY:
            register(game_id, getattr(importlib.import_module(module), name))
