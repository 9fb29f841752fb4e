"""The game packages and the registry of game ids.

Typing.  :func:`load` is overloaded by game id: ``load("armadora")`` is an
:class:`~boardrules.games.armadora.ArmadoraGame` to a type checker, whose states'
``legal_moves()`` are :class:`~boardrules.games.armadora.ArmadoraMove`\\ s.  Any other
``str`` -- an id read at run time, one of those :func:`available_games` returns, or a game
of your own registered with :func:`register` -- gives the general ``Game[State[Move],
Move]``, whose moves are plain :class:`~boardrules.Move`\\ s: enough for
``state.apply(suggest(state).move)`` and every other loop of the API.

:func:`as_game_id` checks an id against the registry at once
(:class:`~boardrules.UnknownGameError` otherwise); its :data:`AnyGameId` is a ``str``.

``load`` raises :class:`~boardrules.UnknownGameError` for an unknown id, and
:class:`~boardrules.InvalidOptionError` naming the valid options (and the nearest one) for
an unknown option.
"""

from __future__ import annotations

import difflib
import importlib
import importlib.metadata
import inspect
import re
import warnings
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
def load(game_id: str, /, **options: Any) -> Game[State[Move], Move]: ...


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
    _check_option_names(game_id, factory, options)
    try:
        return factory(**options)
    except TypeError as exc:
        raise InvalidOptionError(f"{game_id}: {exc}") from None


def option_names(game_id: str) -> list[str] | None:
    """The options ``load(game_id, ...)`` takes, sorted (``None``: the game's factory
    takes any keyword, so only it can say)."""
    _load_builtin()
    factory = _REGISTRY.get(game_id)
    if factory is None:
        raise UnknownGameError(f"no game {game_id!r}; available: {', '.join(available_games())}")
    try:
        parameters = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return None
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters):
        return None
    return sorted(p.name for p in parameters
                  if p.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                inspect.Parameter.KEYWORD_ONLY))


def _check_option_names(game_id: str, factory: Callable[..., Any],
                        options: dict[str, Any]) -> None:
    """An unknown option names the valid ones, and the nearest to what was written."""
    valid = option_names(game_id)
    if valid is None:
        return
    for name in options:
        if name not in valid:
            near = difflib.get_close_matches(name, valid, n=1)
            hint = f"; did you mean {near[0]!r}?" if near else ""
            raise InvalidOptionError(
                f"{game_id} has no option {name!r}{hint} (its options: {', '.join(valid)})")


def check_saved_options(game_id: str, options: dict[str, Any]) -> None:
    """Refuse options of an untrusted saved state or record that only a trusted caller
    may pass (see :meth:`Game.check_saved_options`); the game must be registered."""
    _load_builtin()
    factory = _REGISTRY[game_id]
    if isinstance(factory, type) and issubclass(factory, Game):
        factory.check_saved_options(options)


def _load_builtin() -> None:
    """Register the shipped games on first use (a user's own games may come first), then
    the games installed packages declare (:func:`load_entry_points`)."""
    for game_id, module, name in _BUILTIN:
        if game_id not in _REGISTRY:
            register(game_id, getattr(importlib.import_module(module), name))
    if not _PLUGINS_LOADED:
        load_entry_points()


#: The entry-point group through which an installed package declares its games: in its
#: ``pyproject.toml``, ``[project.entry-points."boardrules.games"]`` then ``nim =
#: "boardrules_nim:NimGame"`` (the id, then the Game class or any factory of one).
ENTRY_POINT_GROUP = "boardrules.games"
_PLUGINS_LOADED = False


def load_entry_points() -> dict[str, str]:
    """Register every game that installed packages declare in the ``boardrules.games``
    entry-point group (done on first use of the registry).  An id already registered (a
    built-in game, or one registered by hand) is kept: the entry point is skipped with a
    warning, as is one that fails to import (any exception, ``SystemExit`` too: only
    ``KeyboardInterrupt`` goes through) or is not a factory.  An installed package whose
    ``entry_points.txt`` cannot be read is skipped with a warning naming it; the other
    packages' games load.  Returns the problems, id -> reason (for an unreadable package,
    ``"distribution NAME"`` -> reason)."""
    global _PLUGINS_LOADED
    _PLUGINS_LOADED = True
    problems: dict[str, str] = {}
    for point in _declared_entry_points(problems):
        try:
            factory = point.load()
        except (KeyboardInterrupt, GeneratorExit):
            raise
        except BaseException as exc:  # a broken package must not break the rest:
            # a module that calls sys.exit() when a dependency is missing included
            problems[point.name] = f"{point.value} failed to load: {type(exc).__name__}: {exc}"
            continue
        if point.name in _REGISTRY:
            if _REGISTRY[point.name] is not factory:  # (registered by hand already: fine)
                problems[point.name] = f"the id is already registered; {point.value} is not used"
            continue
        if not callable(factory):
            problems[point.name] = f"{point.value} is not a Game class or factory"
            continue
        register(point.name, factory)
    for game_id, reason in problems.items():
        what = game_id if game_id.startswith("distribution ") else f"game {game_id!r}"
        warnings.warn(f"boardrules: {what} from entry point group "
                      f"{ENTRY_POINT_GROUP!r}: {reason}", RuntimeWarning, stacklevel=2)
    return problems


def _declared_entry_points(problems: dict[str, str]) -> list[importlib.metadata.EntryPoint]:
    """The ``boardrules.games`` entry points of the installed distributions, read one
    distribution at a time: ``importlib.metadata.entry_points()`` parses every package's
    ``entry_points.txt`` at once, so one malformed file (even of a package with no game)
    would raise for all.  The first distribution of a name on ``sys.path`` wins, as in
    ``entry_points()``; an unreadable one goes to ``problems`` under ``"distribution
    NAME"``."""
    points: list[importlib.metadata.EntryPoint] = []
    seen: set[str] = set()
    try:
        for dist in importlib.metadata.distributions():
            name = ""
            try:
                name = _distribution_name(dist)
                if name in seen:
                    continue
                seen.add(name)
                points.extend(dist.entry_points.select(group=ENTRY_POINT_GROUP))
            except Exception as exc:  # a malformed entry_points.txt or METADATA
                where = getattr(dist, "_path", "?")
                problems[f"distribution {name or where}"] = (
                    f"its entry points cannot be read ({where}): {type(exc).__name__}: {exc}")
    except Exception as exc:  # a sys.path entry the finders cannot walk
        problems["distribution ?"] = (f"the installed packages cannot be listed: "
                                      f"{type(exc).__name__}: {exc}")
    return points


def _distribution_name(dist: importlib.metadata.Distribution) -> str:
    """The name ``importlib.metadata`` tells distributions apart by (normalized)."""
    normalized = getattr(dist, "_normalized_name", None)
    if isinstance(normalized, str) and normalized:
        return normalized
    return re.sub(r"[-_.]+", "_", str(dist.metadata["Name"] or "")).lower()
