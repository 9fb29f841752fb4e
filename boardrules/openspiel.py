"""An OpenSpiel bridge: every boardrules game as a pyspiel Python game (extra
``boardrules[openspiel]``).

>>> import pyspiel
>>> import boardrules.openspiel
>>> game = pyspiel.load_game("boardrules_armadora", {"players": 3, "variant": "advanced"})
>>> game.num_players(), game.get_type().information.name
(3, 'IMPERFECT_INFORMATION')

Importing the module registers ``"boardrules_<game>"`` for every registered game; its
parameters are the game's options whose default is a number, a word or a flag
(:func:`load_game` takes any option, also those).  OpenSpiel's algorithms then run on
our rules: ``pyspiel.random_sim_test``, its ``MCTSBot`` and ``ISMCTSBot``, CFR on the small
ones, torchrl's OpenSpiel wrapper.

The mapping (docs/adapters.rst, "OpenSpiel"):

* actions are our action ids, chance outcomes too (``chance_outcomes()`` gives their
  probabilities; chance is explicit: the bridge never draws it);
* a forced step (one legal move, the game's ``auto_forced``) is taken inside
  ``apply_action``, so every decision OpenSpiel sees is a real choice;
* ``GameType``, each loaded game its own (``game.get_type()``: its options decide):
  sequential; explicit stochastic chance when the game has chance nodes (deterministic
  for tic-tac-toe and Connect Four); imperfect information where the game hides anything
  (Armada only with its cards); zero-sum when two teams' returns cancel, else
  general-sum; terminal rewards; the observation tensor, observation string and
  information-state string are provided, the information-state tensor is not.  The type
  registered under the name claims the widest of its option sets;
* the observation tensor is :meth:`State.observation <boardrules.State.observation>`
  (written by the core; its legend is :attr:`Game.observation_layout
  <boardrules.Game.observation_layout>`), the observation string the view as JSON, and the
  information-state string the player's own move log (``history_view``) with his view: two
  histories he cannot tell apart give him the same string;
* ``resample_from_infostate`` draws a world with :meth:`State.determinize
  <boardrules.State.determinize>`, so OpenSpiel's ISMCTS plays our hidden-information games;
* states pickle and serialise (``pyspiel.serialize_game_and_state``) through the boardrules
  save;
* a long game costs what its moves cost: a clone (OpenSpiel clones before every step of
  its tests and searches) keeps the events already computed, and ``str(state)`` adds the
  new moves' notation to the text it kept (docs/adapters.rst, "What a long game costs").
"""

from __future__ import annotations

import functools
import inspect
import json
import random
from collections.abc import Mapping
from typing import Any

import numpy as np

try:
    import pyspiel
except ImportError as exc:  # pragma: no cover - only without the extra
    raise ImportError("boardrules.openspiel needs OpenSpiel: "
                      "pip install 'boardrules[openspiel]'") from exc

import boardrules
from boardrules._adapters import load_observed_game
from boardrules.api import CHANCE, TERMINAL, Game, State
from boardrules.games import as_game_id
from boardrules.observations import OBSERVATION_DTYPE

__all__ = ["Observer", "SpielGame", "SpielState", "game_class", "load_game", "register_games",
           "short_name"]

#: Games probed for chance nodes and for whether their returns cancel.
_PROBE_GAMES = 8


def short_name(game_id: str) -> str:
    """The pyspiel name of a boardrules game: ``"boardrules_armadora"``."""
    return f"boardrules_{game_id}"


def load_game(game_id: str, **options: Any) -> SpielGame:
    """The pyspiel game of ``game_id`` with ``options`` (any option of the game, including
    those ``pyspiel.load_game`` cannot pass: a board given as a mapping)."""
    register_games()
    return game_class(as_game_id(game_id))(options=options)


def register_games() -> list[str]:
    """Register ``"boardrules_<game>"`` with pyspiel for every registered boardrules game
    not yet registered (done on import); the names registered."""
    done = []
    registered = set(pyspiel.registered_names())
    for game_id in boardrules.available_games():
        name = short_name(game_id)
        if name not in registered:
            pyspiel.register_game(_game_type(game_id), game_class(game_id))
            done.append(name)
    return done


@functools.cache
def game_class(game_id: str) -> type[SpielGame]:
    """The :class:`SpielGame` subclass of one game, the constructor pyspiel calls with the
    parameters.  (A class, as OpenSpiel's own Python games register: pyspiel's registry
    keeps the constructor until after the interpreter's end, and a class outlives that
    where a plain function object would be freed without the GIL and abort the process.)"""
    name = "".join(part.title() for part in game_id.split("_")) + "SpielGame"
    return type(name, (SpielGame,), {"game_id": game_id, "__module__": __name__})


class SpielGame(pyspiel.Game):  # type: ignore[misc]  # (pyspiel is untyped)
    """A boardrules game as a pyspiel game (see the module notes)."""

    #: The boardrules game id (set by each game's subclass, :func:`game_class`).
    game_id: str

    def __init__(self, params: Mapping[str, Any] | None = None, *,
                 options: Mapping[str, Any] | None = None) -> None:
        game_id = self.game_id
        given = {**_pyspiel_options(game_id, params or {}), **(options or {})}
        # (a game without observation tensors fails here, as for every adapter)
        self.rules: Game[Any, Any] = load_observed_game(game_id, given)
        facts = _facts(self.rules)
        kind = _instance_type(self.rules)  # this game's own: its options decide
        # OpenSpiel takes a utility sum only from a game whose type is zero-sum
        zero_sum = kind.utility == pyspiel.GameType.Utility.ZERO_SUM
        info = pyspiel.GameInfo(
            num_distinct_actions=self.rules.num_distinct_actions,
            max_chance_outcomes=self.rules.num_distinct_actions if facts.chance else 0,
            num_players=self.rules.num_players,
            min_utility=-1.0, max_utility=1.0,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=self.rules.max_game_length)
        super().__init__(kind, info, _spiel_params(game_id, given))

    def new_initial_state(self) -> SpielState:
        # chance explicit (OpenSpiel applies the outcomes); forced steps taken by the game
        return SpielState(self, self.rules.new_game(seed=0, auto_chance=False,
                                                    auto_forced=True))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return Observer(self.rules, perfect_recall)


class SpielState(pyspiel.State):  # type: ignore[misc]
    """A boardrules state as a pyspiel state: chance explicit, forced steps taken."""

    # pyspiel clones a Python state by deep-copying each value of its ``__dict__`` into a
    # new initial state, and serialises it by pickling that dict: every attribute below
    # is copied cheaply (the rules state by its own copy, strings and _Shared as they are)
    # and pickles.

    def __init__(self, game: SpielGame, state: State[Any]) -> None:
        super().__init__(game)
        self.rules_state = state
        #: What each player had seen before ``rules_state`` began: empty for a game played
        #: from its start; for a world drawn by :meth:`resample_from_infostate` (a world has
        #: no history of its own), the move log of the player it was drawn for, so that his
        #: information-state string is the same in the world as in the truth.
        self.seen_before: tuple[tuple[tuple[int, str], ...], ...] = _Shared(
            ((),) * game.num_players())

    @property
    def rules_state(self) -> State[Any]:
        """The boardrules state (the whole truth); change it only through
        ``apply_action``, which keeps pyspiel's history in step with it."""
        state: State[Any] = self._rules_state
        return state

    @rules_state.setter
    def rules_state(self, state: State[Any]) -> None:
        self._rules_state = state
        # the notation of the history's first _notation_count moves, for __str__: grown by
        # the moves applied since, so that a long game's text costs its new moves only
        self._notation_count = 0
        self._notation = ""

    def seen(self, player: int) -> list[tuple[int, str]]:
        """``player``'s move log from the game's start (``history_view``)."""
        return [*self.seen_before[player], *self.rules_state.history_view(player)]

    def current_player(self) -> int:
        player = self.rules_state.current_player
        if player == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        if player == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return int(player)

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.rules_state.current_player:
            return []
        return [move.action for move in self.rules_state.legal_moves()]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(move.action, p) for move, p in self.rules_state.chance_outcomes()]

    def _apply_action(self, action: int) -> None:
        # the state was made with auto_forced: a forced step that follows is taken here
        self.rules_state.apply(self.rules_state.game.move(int(action)))

    def _action_to_string(self, player: int, action: int) -> str:
        return str(self.rules_state.game.move(int(action)))

    def is_terminal(self) -> bool:
        return self.rules_state.is_terminal()

    def returns(self) -> list[float]:
        return list(self.rules_state.returns())

    def resample_from_infostate(self, player: int, probability_sampler: Any) -> SpielState:
        """A world ``player`` cannot tell from this one (``State.determinize``), seeded
        from ``probability_sampler`` (OpenSpiel's ISMCTS passes a uniform one)."""
        seed = int(probability_sampler() * 2**53)
        world = self.rules_state.determinize(int(player), seed=seed)
        clone: SpielState = self.clone()
        clone.rules_state = world
        # every seat's log before the world is what the drawing player saw: the same in
        # every world drawn for him, so it tells the search nothing he does not know
        known = tuple(self.seen(int(player)))
        clone.seen_before = _Shared((known,) * len(self.seen_before))
        return clone

    def __str__(self) -> str:
        """The whole truth as text (OpenSpiel's debugging string): the board as a
        spectator sees it, then the history in notation."""
        return f"{self.rules_state.render_text(None)}\n[{self._history_notation()}]"

    def _history_notation(self) -> str:
        """The history's moves in notation, separated by spaces: the text kept from the
        last call, with the moves applied since appended (a state's history only grows,
        unless someone undid moves of ``rules_state``, when it is written again)."""
        history = self.rules_state.history
        done = self._notation_count
        if done > len(history):
            done, self._notation = 0, ""
        if done < len(history):
            new = " ".join(str(move) for move in history[done:])
            self._notation = f"{self._notation} {new}" if done else new
            self._notation_count = len(history)
        return self._notation


class _Shared(tuple):  # type: ignore[type-arg]  # (holds any immutable values)
    """A tuple of immutable values that a clone shares instead of copying (a deep copy
    would walk every entry of a long move log on every clone)."""

    __slots__ = ()

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


class Observer:
    """OpenSpiel's Python observer protocol (``tensor``, ``dict``, ``set_from``,
    ``string_from``): the observation tensor and string, or the information-state
    string when ``perfect_recall``."""

    def __init__(self, rules: Game[Any, Any], perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        layout = rules.observation_layout
        if perfect_recall:  # no information-state tensor: OpenSpiel is told so
            self.tensor = np.zeros(0, dtype=OBSERVATION_DTYPE)
            self.dict: dict[str, Any] = {}
        else:
            self.tensor = layout.zeros()
            self.dict = layout.split(self.tensor)

    def set_from(self, state: SpielState, player: int) -> None:
        if not self.perfect_recall:
            state.rules_state.observation(int(player), out=self.tensor)

    def string_from(self, state: SpielState, player: int) -> str:
        rules_state = state.rules_state
        view = json.dumps(rules_state.view(int(player)), sort_keys=True, default=str)
        if not self.perfect_recall:
            return view
        seen = " ".join(f"{mover}:{move}" for mover, move in state.seen(int(player)))
        return f"p{player} [{seen}] {view}"


# --- the game type, parameters and probed facts ---

class _Facts:
    def __init__(self, chance: bool, zero_sum: bool) -> None:
        self.chance, self.zero_sum = chance, zero_sum


@functools.cache
def _facts_of(game_id: str, options_key: str) -> _Facts:
    rules = boardrules.load(as_game_id(game_id), **json.loads(options_key))
    chance, zero_sum = False, len(rules.teams) == 2
    rng = random.Random(0)
    for seed in range(_PROBE_GAMES):
        state = rules.new_game(seed=seed, auto_chance=False)
        while not state.is_terminal():
            if state.current_player == CHANCE:
                chance = True
                state.apply_random_chance()
            else:
                state.apply(rng.choice(state.legal_moves()))
        zero_sum = zero_sum and abs(sum(state.returns())) < 1e-9
    return _Facts(chance, zero_sum)


def _facts(rules: Game[Any, Any]) -> _Facts:
    """Whether ``rules`` has chance nodes, and whether its returns cancel (two teams and
    every probed game summing to 0), from seeded random games: what GameType declares."""
    return _facts_of(rules.id, json.dumps(dict(rules.options), sort_keys=True, default=str))


@functools.cache
def _game_type(game_id: str) -> Any:
    """The registered game type: the widest claims over the default and example option
    sets (chance if any has chance nodes, imperfect information if any hides something,
    zero-sum only if every number of players is: two teams whose returns cancel).  Each
    game loaded says its own (:func:`_instance_type`)."""
    rules = boardrules.load(as_game_id(game_id))
    loaded = [rules, *(boardrules.load(as_game_id(game_id), **options)
                       for options in type(rules).example_options)]
    facts = [_facts(each) for each in loaded]
    players = _player_range(game_id, rules)
    zero_sum = all(f.zero_sum for f in facts) and all(
        len(boardrules.load(as_game_id(game_id), players=n).teams) == 2 for n in players
        if n != rules.num_players)
    return _type(game_id, type(rules).name, chance=any(f.chance for f in facts),
                 hidden=any(each.has_hidden_information for each in loaded),
                 zero_sum=zero_sum, players=players)


def _instance_type(rules: Game[Any, Any]) -> Any:
    """The game type of one loaded game: its own chance, information and returns."""
    facts = _facts(rules)
    return _type(rules.id, type(rules).name, chance=facts.chance,
                 hidden=rules.has_hidden_information, zero_sum=facts.zero_sum,
                 players=_player_range(rules.id, rules))


def _type(game_id: str, name: str, *, chance: bool, hidden: bool, zero_sum: bool,
          players: list[int]) -> Any:
    modes = pyspiel.GameType
    return pyspiel.GameType(
        short_name=short_name(game_id),
        long_name=f"boardrules {name}",
        dynamics=modes.Dynamics.SEQUENTIAL,
        chance_mode=(modes.ChanceMode.EXPLICIT_STOCHASTIC if chance
                     else modes.ChanceMode.DETERMINISTIC),
        information=(modes.Information.IMPERFECT_INFORMATION if hidden
                     else modes.Information.PERFECT_INFORMATION),
        utility=modes.Utility.ZERO_SUM if zero_sum else modes.Utility.GENERAL_SUM,
        reward_model=modes.RewardModel.TERMINAL,
        max_num_players=max(players), min_num_players=min(players),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_defaults(game_id))


def _player_range(game_id: str, rules: Game[Any, Any]) -> list[int]:
    """The numbers of players the game takes: ``rules``' own, those of the example option
    sets, and every count from 1 to 4 that loads."""
    return sorted({rules.num_players, *_other_player_counts(game_id)})


@functools.cache
def _other_player_counts(game_id: str) -> frozenset[int]:
    """The player counts of :func:`_player_range` that do not depend on the loaded game:
    found once per game (each count tried loads the game, which a deserialised state's
    game would otherwise do again)."""
    rules = boardrules.load(as_game_id(game_id))
    counts = {int(options["players"]) for options in type(rules).example_options
              if "players" in options}
    if "players" in _defaults(game_id):
        for players in range(1, 5):
            try:
                boardrules.load(as_game_id(game_id), players=players)
            except (ValueError, TypeError):
                continue
            counts.add(players)
    return frozenset(counts)


#: How a pyspiel parameter says ``None`` for an optional word (Armada's ``neutral``).
NONE_PARAMETER = ""


@functools.cache
def _defaults(game_id: str) -> dict[str, Any]:
    """The game's options pyspiel can hold, with their defaults: those whose default is
    an int, a float, a word or a flag, and an optional word (default ``None``, spelt
    :data:`NONE_PARAMETER`)."""
    factory = type(boardrules.load(as_game_id(game_id)))
    found: dict[str, Any] = {}
    for name, parameter in inspect.signature(factory).parameters.items():
        default = parameter.default
        if isinstance(default, (bool, int, float, str)):
            found[name] = default
        elif default is None and str(parameter.annotation).replace(" ", "") == "str|None":
            found[name] = NONE_PARAMETER
    return found


def _pyspiel_options(game_id: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """The game's options from pyspiel's parameters (an optional word's ``""``: None)."""
    defaults = _defaults(game_id)
    unknown = sorted(set(params) - set(defaults))
    if unknown:
        raise ValueError(f"{short_name(game_id)}: unknown parameter(s) {', '.join(unknown)}; "
                         f"parameters: {', '.join(sorted(defaults)) or 'none'}")
    return {name: None if value == NONE_PARAMETER and defaults[name] == NONE_PARAMETER
            else value for name, value in params.items()}


def _spiel_params(game_id: str, given: Mapping[str, Any]) -> dict[str, Any]:
    """The parameters pyspiel records for the game (to serialise it): the game's options
    that it can hold, defaults filled in (``None`` as :data:`NONE_PARAMETER`)."""
    found = {}
    for name, default in _defaults(game_id).items():
        value = given.get(name, default)
        if value is None:
            value = NONE_PARAMETER
        if isinstance(value, (bool, int, float, str)):
            found[name] = value
    return found


register_games()
