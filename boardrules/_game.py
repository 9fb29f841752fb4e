"""The :class:`Game`: a game with its options fixed -- its facts, new states, move
notation, and restoring saves.  It pickles by its class and options (a game is immutable:
copies of it are the game itself)."""

from __future__ import annotations

import json
import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, TypeGuard, TypeVar, cast

from boardrules._base import CHANCE, Move, check_seed, exact_int
from boardrules._events import Event
from boardrules._ext.core import CoreGame, CoreState
from boardrules._saves import _compare_snapshot, _expect, _parse_state_json
from boardrules.errors import InvalidMoveError, InvalidPositionError, InvalidStateError
from boardrules.observations import Observation, ObservationLayout

if TYPE_CHECKING:
    from boardrules._state import State

#: The state and move types of a :class:`Game` (``Game[ArmadoraState, ArmadoraMove]``).
GameStateT = TypeVar("GameStateT", bound="State[Any]", covariant=True)
GameMoveT = TypeVar("GameMoveT", bound="Move")


class Game(Generic[GameStateT, GameMoveT]):
    """A game with its options fixed.  Get one with :func:`boardrules.load`.

    ``Game`` is generic over the game's own :class:`State` and :class:`Move` classes, so
    that a type checker knows what ``new_game()``, ``parse_move()`` and the state's
    ``legal_moves()`` return: a game declares ``class TicTacToeGame(Game[TicTacToeState,
    TicTacToeMove])`` and overrides nothing to narrow them.

    Subclasses set the class attributes and fill ``_core`` (the compiled game) and
    ``_moves`` (one :class:`Move` per action id) in their constructor.
    """

    #: The registry id (``"armadora"``).
    id: ClassVar[str]
    #: Human name of the game.
    name: ClassVar[str]
    #: Bumped whenever the behaviour of the rules changes.
    rules_version: ClassVar[str]
    #: The rollout limit MCTS and ISMCTS use when the caller gives none: random moves
    #: before the game's heuristic ``evaluate`` (``None``: rollouts play to the end).  A
    #: game whose random games run to hundreds of moves sets one, so that the default
    #: search stays fast and strong (Rome & Carthage: 30).
    rollout_limit: ClassVar[int | None] = None
    #: The UCT exploration constant MCTS and ISMCTS use when the caller gives none
    #: (``None``: 1.0).  A game whose ``evaluate`` tells good moves from bad by small
    #: margins sets a lower one (Albion: 0.05, with rollouts cut at once).
    exploration: ClassVar[float | None] = None
    #: How MCTS and ISMCTS rollouts choose a player's move when the caller does not say:
    #: ``"random"`` (uniformly), or ``"informed"``: the move the game's C-level
    #: ``action_values`` rate best, but for a uniformly random one with probability
    #: :attr:`rollout_epsilon` (chosen per game by measurement: the search page).
    rollout_policy: ClassVar[Literal["random", "informed"]] = "random"
    #: The chance of a uniformly random move in an informed rollout.
    rollout_epsilon: ClassVar[float] = 0.1
    #: The scale on which the game's search values differ (``None``: its
    #: :attr:`exploration` constant, else 1.0 -- a game whose ``evaluate`` separates moves
    #: by small margins has both small): a suggestion's tie tolerance and the floor of its
    #: standard deviations are 0.01 of it (:func:`~boardrules.suggest`, "How sure a
    #: suggestion is").
    value_scale: ClassVar[float | None] = None
    #: The MCTS / ISMCTS iteration cap of each strength level of
    #: :func:`~boardrules.suggest` (``"fast"``, ``"normal"`` -- the default --,
    #: ``"strong"``).  A level searches until its answer is sure, its CPU limit (0.1, 1 and
    #: 10 seconds: :data:`~boardrules.search.suggest.LEVEL_CPU_SECONDS`) is spent or this
    #: many iterations are done; the caps are set per game so that at the busy positions
    #: the CPU limit comes first (the search page's "Strength levels").
    search_levels: ClassVar[Mapping[str, int]] = {
        "fast": 10_000, "normal": 100_000, "strong": 1_000_000}
    #: The :class:`State` subclass of the game.
    state_class: ClassVar[type[State[Any]]]
    #: Action id of a move that ends a player's game for good (Armadora's pass), if any.
    pass_action: ClassVar[int | None] = None
    #: The core's rule keys for refused moves -> messages citing the rule text.
    illegal_reasons: ClassVar[Mapping[str, str]]
    #: Move text longer than this is refused without parsing.
    max_move_text: ClassVar[int] = 40
    #: A reminder of the notation, for parse errors.
    notation_hint: ClassVar[str] = ""
    #: Option sets that exercise the game (the conformance suite plays each of them).
    example_options: ClassVar[tuple[dict[str, Any], ...]] = ({},)

    _core: CoreGame
    _moves: list[GameMoveT]
    _by_text: Mapping[str, GameMoveT]  # every accepted (normalised) spelling -> its move
    _options: dict[str, Any]

    # --- facts ---

    @property
    def options(self) -> Mapping[str, Any]:
        """The validated options (JSON-ready), defaults filled in."""
        return dict(self._options)

    @property
    def num_players(self) -> int:
        return int(self._core.num_players)

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        """Players grouped by team; every player is in exactly one team."""
        team_of = self._core.team_of
        return tuple(
            tuple(p for p in range(self.num_players) if team_of[p] == t)
            for t in range(self._core.num_teams)
        )

    @property
    def max_game_length(self) -> int:
        """No game lasts more actions than this (chance outcomes included)."""
        return int(self._core.max_game_length)

    @property
    def num_distinct_actions(self) -> int:
        return int(self._core.num_distinct_actions)

    @property
    def has_hidden_information(self) -> bool:
        return bool(self._core.has_hidden_information)

    @property
    def search_value_scale(self) -> float:
        """:attr:`value_scale`, or the game's exploration constant, else 1.0."""
        if self.value_scale is not None:
            return float(self.value_scale)
        return 1.0 if self.exploration is None else float(self.exploration)

    @property
    def core(self) -> CoreGame:
        """The compiled game (the C-level contract), for the search core and benchmarks."""
        return self._core

    # --- observation tensors (observation.py of each game; boardrules.observations) ---

    @property
    def observation_layout(self) -> ObservationLayout:
        """The legend of a player's observation tensor (:class:`ObservationLayout`): its
        named fields, their offsets and shapes.  :class:`NotImplementedError` for a game
        whose core writes no observation."""
        layout: ObservationLayout | None = self.__dict__.get("_observation_layout_cache")
        if layout is None:
            layout = self._observation_layout()
            if layout.size != self._core.observation_size:
                raise RuntimeError(f"{self.id}: the observation legend has {layout.size} "
                                   f"floats, the core writes {self._core.observation_size}")
            self.__dict__["_observation_layout_cache"] = layout
        return layout

    @property
    def observation_shape(self) -> tuple[int]:
        """The shape of :meth:`State.observation`: ``(observation_layout.size,)``."""
        return self.observation_layout.shape

    def _observation_layout(self) -> ObservationLayout:
        raise NotImplementedError(f"{self.id} has no observation tensor")

    def observation_from_view(self, view: Mapping[str, Any], player: int) -> Observation:
        """The observation tensor of ``player`` computed in Python from his view
        (``state.view(player)``): the reference the conformance suite holds the core's
        tensor to.  Slow; adapters use :meth:`State.observation`."""
        player = exact_int(player, "player")
        if not 0 <= player < self.num_players:
            raise ValueError(f"player must be 0 to {self.num_players - 1}, not {player}")
        if not isinstance(view, Mapping) or view.get("viewer") != player:
            raise ValueError(f"the view must be player {player}'s own (view['viewer'])")
        return self._observation_from_view(view, player)

    def _observation_from_view(self, view: Mapping[str, Any], player: int) -> Observation:
        raise NotImplementedError(f"{self.id} has no observation tensor")

    def _game_key(self) -> tuple[Any, ...]:
        return (self.id, json.dumps(self._options, sort_keys=True))

    def _install(self, core: CoreGame, options: dict[str, Any],
                 build_moves: Callable[[tuple[Any, ...]], Sequence[GameMoveT]],
                 aliases: Callable[[GameMoveT], list[str]] = lambda move: []) -> None:
        """What every game's constructor ends with: its validated options, the compiled
        core, one move per action id (built by ``build_moves(game_key)``) and the parse
        table of their spellings (canonical notation plus ``aliases``)."""
        self._options = options
        self._core = core
        self._game_key_cache = self._game_key()
        _LIVE_GAMES[self._game_key_cache] = self
        self._moves = list(build_moves(self._game_key_cache))
        by_text: dict[str, GameMoveT] = {}
        for move in self._moves:
            by_text[str(move)] = move
            for alias in aliases(move):
                by_text[alias] = move
        self._by_text = by_text

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self._options.items())
        return f"<{type(self).__name__} {opts}>" if opts else f"<{type(self).__name__}>"

    # --- copies and pickles ---
    #
    # A game is immutable once built: a copy, even a deep one, is the game itself.  A
    # pickle holds its class and its options (a user's board file travels as its content:
    # the options hold the board data, not a path), and unpickling builds the game again
    # through its constructor, which checks them as ``load`` does.

    def __eq__(self, other: object) -> bool:
        """Games of one class with the same options are equal (and their moves, states
        and saves are interchangeable)."""
        if not isinstance(other, Game):
            return NotImplemented
        return type(other) is type(self) and other._game_key_cache == self._game_key_cache

    def __hash__(self) -> int:
        return hash((type(self).__qualname__, self._game_key_cache))

    def __copy__(self) -> Game[GameStateT, GameMoveT]:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Game[GameStateT, GameMoveT]:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (restore_game, (type(self), self._options))

    # --- states ---

    def new_game(self, seed: int | None = None, auto_chance: bool = True,
                 auto_forced: bool = True) -> GameStateT:
        """A new game.  With ``auto_chance`` (the default) every chance event -- the
        random setup included -- is drawn from the RNG seeded by ``seed``; without it the
        state stops at each chance node for the caller to apply an outcome (a physical
        table applying what really happened).  With ``auto_forced`` (the default) the
        engine takes every forced step -- a decision with one answer, which the game makes
        for the player -- as it comes, and records it in the history (``state.forced``
        lists them); without it the state asks each of them as any decision
        (``state.decision().forced`` says which)."""
        seed = check_seed(seed)
        _check_flags(auto_chance, auto_forced)
        core = self._core.new_state()
        core.seed(seed)
        core.run_auto(auto_chance, auto_forced)
        return self._state(core, auto_chance, auto_forced)

    def _state(self, core: CoreState, auto_chance: bool, auto_forced: bool = True,
               start: str | None = None) -> GameStateT:
        """The game's own State around ``core`` (``state_class`` is a ClassVar, which a
        type variable cannot annotate: the cast is where the two meet)."""
        return cast(GameStateT, self.state_class(self, core, auto_chance, auto_forced, start))

    # --- positions ---

    #: Position text longer than this is refused without parsing.
    max_position_text: ClassVar[int] = 20_000

    def position(self, text: str, *, seed: int | None = None, auto_chance: bool = True,
                 auto_forced: bool = True) -> GameStateT:
        """A state at the position ``text`` (the game's position format, as
        :meth:`State.position` writes it; the game's docs page describes it field by
        field).

        The position is checked as untrusted input: its fields are read and range-checked,
        and the pieces, cards and counters must be what the game's rules could have made
        (the conservation checks of :meth:`State.invariants` included); anything else
        raises :class:`~boardrules.errors.InvalidPositionError` naming the field.  The state
        has no history before the position (undo stops there) and a save of it carries
        the position as its start.  ``seed``, ``auto_chance`` and ``auto_forced`` are as
        for :meth:`new_game` (a position at a chance node draws at once with
        ``auto_chance``)."""
        seed = check_seed(seed)
        _check_flags(auto_chance, auto_forced)
        core = self._position_core(text)
        core.seed(seed)
        canonical = self._position_text(self._core.export(core))
        core.run_auto(auto_chance, auto_forced)
        return self._state(core, auto_chance, auto_forced, canonical)

    def _position_core(self, text: object) -> CoreState:
        """A core state holding the checked position ``text`` (InvalidPositionError)."""
        if not isinstance(text, str):
            raise TypeError(f"a position is text, not {type(text).__name__}")
        text = str.__str__(text)
        if len(text) > self.max_position_text:
            raise InvalidPositionError("", f"a {self.name} position is at most "
                                       f"{self.max_position_text} characters")
        raw = self._position_raw(text)
        core = self._core.new_state()
        try:
            self._core.load(core, raw)
        except NotImplementedError:
            raise
        except (ValueError, TypeError, KeyError, IndexError) as exc:
            field, _, why = str(exc).partition(": ")
            raise InvalidPositionError(field if why else "", why or str(exc)) from None
        broken = {name: pair for name, pair in
                  self.state_class(self, core, False).invariants().items()
                  if pair[0] != pair[1]}
        if broken:
            name, (counted, expected) = next(iter(sorted(broken.items())))
            raise InvalidPositionError(name, f"counts {counted}, the game has {expected}")
        return core

    def _position_text(self, raw: dict[str, Any]) -> str:
        """The position format's text of a position (the core's ``export``).  Each game
        with positions overrides this and :meth:`_position_raw`."""
        raise NotImplementedError(f"{self.name} has no position format")

    def _position_raw(self, text: str) -> dict[str, Any]:
        """Parse position text into the dict the core's ``load`` takes (its ``export``
        form); InvalidPositionError naming the field for text that is not a position."""
        raise NotImplementedError(f"{self.name} has no position format")

    # --- events ---

    def _events(self, before: dict[str, Any], action: int, mover: int,
                after: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        """The events ``action`` (by ``mover``, a player or CHANCE) caused, whole truth,
        as (kind, JSON-ready fields), from the core's ``export`` of the state before and
        after it (both read-only: the ``after`` of one action is the ``before`` of the
        next).  Each game overrides this; the default records none."""
        return []

    def _redact_event(self, event: Event, viewer: int | None) -> Event | None:
        """``event`` as ``viewer`` (None: a spectator) may see it -- the same redaction as
        the game's ``view`` -- or None when he may not know it happened.  Games without
        hidden information show every event as it is."""
        return event

    # --- moves ---

    def parse_move(self, text: str) -> GameMoveT:
        """The move written ``text`` in the game's notation (:class:`InvalidMoveError`
        if it is not a move of this game).  Legality is checked by ``State.apply``."""
        if not isinstance(text, str):
            raise TypeError(f"move text must be a str, not {type(text).__name__}")
        return self._parse(text)

    def _parse(self, text: str) -> GameMoveT:
        # the exact str of a subclass, whose own methods (lower, split...) could misbehave
        text = str.__str__(text)
        what = f"not {_indefinite_article(self.name)} {self.name} move"
        if len(text) > self.max_move_text:
            raise InvalidMoveError(f"{what}: {text[:self.max_move_text]!r}... (too long)",
                                   "too_long")
        move = self._by_text.get(self._normalise(text))
        if move is None:
            raise InvalidMoveError(f"{what}: {text!r} ({self._notation_hint()})",
                                   "not_notation")
        return move

    def _notation_hint(self) -> str:
        """The reminder of the notation a parse error gives: the moves of this game's
        options only (a game whose options remove kinds of move overrides it)."""
        return self.notation_hint

    def _normalise(self, text: str) -> str:
        """The key of ``_by_text`` for a spelling of a move (lower case, single spaces)."""
        return " ".join(text.lower().split())

    def move(self, action: int) -> GameMoveT:
        """The move with action id ``action``."""
        action = exact_int(action, "action")
        if not 0 <= action < len(self._moves):
            raise InvalidMoveError(f"action {action} is out of range for {self.id}",
                                   "action_out_of_range")
        return self._moves[action]

    def _action_of(self, move: object) -> int:
        """Action id of a move object or notation string (type-checked).  A Move's fields
        are read defensively: a forged one (built without ``__init__``, or with fields of
        other types) is refused, never trusted."""
        if isinstance(move, Move):
            key = getattr(move, "_game_key", None)
            if key is self._game_key_cache or (
                    type(key) is tuple and all(type(k) is str for k in key)
                    and key == self._game_key_cache):
                action = getattr(move, "_action", None)
                if type(action) is int and 0 <= action < len(self._moves):
                    return action
                raise InvalidMoveError("a forged move: its action id is out of range",
                                       "forged_move")
            text = getattr(move, "_text", None)
            shown = repr(text) if type(text) is str else "(no notation)"
            raise InvalidMoveError(f"{type(move).__name__} {shown} is a move of another game "
                                   "or other options", "other_game")
        if isinstance(move, str):
            return self._parse(move)._action
        raise TypeError(f"a move must be a Move or its notation string, not {type(move).__name__}")

    _game_key_cache: tuple[Any, ...]

    def _explain(self, core: CoreState, action: int) -> tuple[str, str]:
        """(rule key, message citing the rule) for an action the core rejected."""
        key = self._core.illegal_reason(core, action)
        return key, self.illegal_reasons[key]

    def _redact(self, move: GameMoveT, mover: int, viewer: int | None) -> str:
        """How ``viewer`` (None: a spectator) sees ``move`` made by ``mover`` (a player or
        CHANCE) in a move log.  Perfect-information games show every move as it is."""
        return str(move)

    # --- where moves land, and pictures of views ---

    def move_locations(self, move: object) -> tuple[str, ...]:
        """The board locations ``move`` touches -- where it comes from, then where it
        goes -- named by the ids the game's notation and views use (Armadora's squares
        ``"c2"`` and palisade gaps ``"c2-d2"``, Rome & Carthage's cities, Armada's
        territories and sea spaces, Albion's regions, Connect Four's columns), for a
        client to draw the last move (``highlight``) or a suggestion (``arrows``) with
        :meth:`render_view_svg`.

        ``move`` is a move of this game or its notation, a move as a player's log shows it
        redacted included (:meth:`State.history_view`: Armadora's ``"?@c2"`` is at
        ``("c2",)``).  A move with no location -- a pass, a chance outcome, cards played
        -- gives ``()``, as does every move of a game without a board (Pig).  Text that
        is no move of this game raises :class:`~boardrules.errors.InvalidMoveError`, a
        value of another type ``TypeError``."""
        if isinstance(move, str):
            redacted = self._redacted_locations(" ".join(str.__str__(move).lower().split()))
            if redacted is not None:
                return redacted
        return self._locations(self._moves[self._action_of(move)])

    def _locations(self, move: GameMoveT) -> tuple[str, ...]:
        """The locations of one of the game's moves (:meth:`move_locations`); the
        default, for a game without a board: none."""
        return ()

    def _redacted_locations(self, text: str) -> tuple[str, ...] | None:
        """The locations of ``text`` (lower case, single spaces) when it is a move as a
        redacted log writes it (``"?@c2"``, ``"draw ?"``), else ``None``: it is read as
        notation.  The default: no game without hidden moves writes any."""
        return None

    def render_view_svg(self, view: Mapping[str, Any], *, highlight: Sequence[str] = (),
                        marks: Sequence[tuple[str, str]] = (),
                        arrows: Sequence[tuple[str, str]] = (),
                        size: int | None = None) -> str:
        """An SVG picture of ``view`` (a :meth:`State.view` mapping, as a record stores
        it) without a state, ``size`` as for the game's :meth:`State.render_svg`
        (``None``: its default).

        On top of the board: ``highlight``, locations (:meth:`move_locations`' ids)
        outlined clearly -- the last move; ``marks``, ``(location, label)`` pairs drawn
        as small labelled badges -- suggestion ranks ``"1"``, ``"2"``...; ``arrows``,
        ``(from, to)`` pairs drawn as arrows -- a suggested or last army move.  Each
        element added has the class ``br-highlight``, ``br-mark`` or ``br-arrow`` and a
        ``data-location`` attribute (an arrow's is its start; ``data-from`` and
        ``data-to`` name both ends).  With all three empty the picture is the plain one,
        byte for byte.  A location the board does not have raises ``ValueError`` naming
        it."""
        raise NotImplementedError(f"{self.name} draws no pictures")

    def _check_view(self, view: object) -> Mapping[str, Any]:
        """``view`` if it is a mapping that is no other game's view (``TypeError`` /
        ``ValueError`` otherwise), for :meth:`render_view_svg` and
        :meth:`render_view_text`."""
        if not isinstance(view, Mapping):
            raise TypeError(f"a view is a mapping (State.view), not {type(view).__name__}")
        if view.get("game", self.id) != self.id:
            raise ValueError(f"a view of {view.get('game')!r}, not of {self.id!r}")
        return view

    #: Whether :meth:`render_view_rgb` draws this game (the adapters' ``"rgb_array"``
    #: render mode): where a raster is cheap, without an SVG rasteriser.
    renders_rgb: ClassVar[bool] = False

    def render_view_rgb(self, view: Mapping[str, Any]) -> Any:
        """``view`` (a :meth:`State.view` mapping) as an RGB picture, a ``(height, width,
        3)`` ``uint8`` numpy array, for the games that draw one (:attr:`renders_rgb`: the
        line games); :class:`NotImplementedError` for the others."""
        raise NotImplementedError(f"{self.name} draws no RGB picture (render_view_svg does)")

    def render_view_text(self, view: Mapping[str, Any]) -> str:
        """The text board of ``view`` (a :meth:`State.view` mapping) without a state:
        :meth:`State.render_text` without its ``last:`` line (which needs the events)."""
        raise NotImplementedError(f"{self.name} has no text board")

    @classmethod
    def check_saved_options(cls, options: dict[str, Any]) -> None:
        """Refuse options of a saved (untrusted) state that only a trusted caller may
        pass, such as a path on the server's disk (raises InvalidStateError)."""

    # --- persistence ---

    def state_from_json(self, text: str | bytes, *, key: bytes | None = None) -> GameStateT:
        """Restore a state saved by :meth:`State.to_json`.

        The text is untrusted: every field is checked (types, ranges, the options and
        rules version), the move history is replayed through the rules -- chance outcomes
        drawn from the game's RNG are drawn again from the saved starting RNG and must
        come out the same -- and the saved position must equal the replayed one (every
        warrior, palisade and gold piece accounted for).  With ``key`` the save must carry
        a valid signature made with that key (see :meth:`State.to_json`).  Anything else
        raises :class:`InvalidStateError`.
        """
        doc = _parse_state_json(text, key)
        _expect(doc.get("game") == self.id,
                f"the state is of game {doc.get('game')!r}, not {self.id!r}")
        _expect(
            doc.get("rules_version") == self.rules_version,
            f"rules_version {doc.get('rules_version')!r} is not this library's "
            f"{self.rules_version!r}",
        )
        _expect(
            json.dumps(doc.get("options"), sort_keys=True)
            == json.dumps(self._options, sort_keys=True),
            "the saved options differ from this game's options",
        )
        auto_chance = doc["auto_chance"]
        auto_forced = doc["auto_forced"]
        start = doc["start"]
        if start is None:
            core = self._core.new_state()
        else:
            try:
                core = self._position_core(start)
            except (InvalidPositionError, NotImplementedError) as exc:
                raise InvalidStateError(f"start: {exc}") from None
            _expect(self._position_text(self._core.export(core)) == start,
                    "start is not a position as this library writes it")
        history = doc["history"]
        _expect(len(history) <= self.max_game_length, "history is longer than any game")
        drawn, forced = doc["drawn"], doc["forced"]
        for name, indices in (("drawn", drawn), ("forced", forced)):
            _expect(indices == sorted(set(indices))
                    and all(0 <= i < len(history) for i in indices),
                    f"{name} must list history indices, ascending, without repeats")
        _expect(not set(drawn) & set(forced), "an action is either drawn or forced")
        try:
            core.rng_start = tuple(int(w, 16) for w in doc["rng_start"])
        except ValueError as exc:
            raise InvalidStateError(f"rng_start: {exc}") from None
        self._replay(core, history, set(drawn), set(forced), auto_chance, auto_forced)
        _expect(core.rng_state == tuple(int(w, 16) for w in doc["rng"]),
                "rng is not what the saved starting RNG and its draws give")
        if auto_chance and core.current_player == CHANCE:
            raise InvalidStateError("auto_chance state stopped at a chance node")
        if auto_forced and core.is_forced():
            raise InvalidStateError("auto_forced state stopped at a forced step")
        state = self._state(core, auto_chance, auto_forced, start)
        _compare_snapshot(doc["state"], state._snapshot(), "state")
        return state

    def _replay(self, core: CoreState, history: list[str], drawn: set[int],
                forced: set[int], auto_chance: bool, auto_forced: bool) -> None:
        """Apply a saved history to a new core state, each move checked by the rules;
        the outcomes in ``drawn`` are drawn again from the core's RNG (an auto-chance game
        draws every chance outcome itself), and the steps in ``forced`` must be forced
        steps (an auto-forced game takes every one itself)."""
        for i, text_move in enumerate(history):
            try:
                action = self._action_of(text_move)
            except InvalidMoveError as exc:
                raise InvalidStateError(f"history[{i}]: {exc}") from None
            at_forced = bool(core.is_forced())
            if i in forced or (auto_forced and at_forced):
                _expect(at_forced and auto_forced and i in forced,
                        f"history[{i}] {text_move!r}: only forced steps are marked forced, "
                        "and an auto_forced game takes all of them")
                try:
                    core.apply_forced(action)
                except ValueError:
                    raise InvalidStateError(
                        f"history[{i}] {text_move!r} is not the forced step's move") from None
                continue
            at_chance = core.current_player == CHANCE
            if i in drawn or (auto_chance and at_chance):
                _expect(at_chance and i in drawn,
                        f"history[{i}] {text_move!r}: only chance outcomes are drawn, and an "
                        "auto_chance game draws all of them")
                try:
                    core.redraw(action)
                except ValueError:
                    raise InvalidStateError(
                        f"history[{i}] {text_move!r} is not the outcome the saved RNG "
                        "draws") from None
                continue
            if not core.is_legal(action):
                _, why = self._explain(core, action)
                raise InvalidStateError(f"history[{i}] {text_move!r} is illegal: {why}")
            core.apply(action)


def _check_flags(auto_chance: object, auto_forced: object) -> None:
    if not isinstance(auto_chance, bool):
        raise TypeError("auto_chance must be a bool")
    if not isinstance(auto_forced, bool):
        raise TypeError("auto_forced must be a bool")


def _indefinite_article(word: str) -> str:
    """``"an"`` before a vowel (an Armadora move), else ``"a"`` (a Pig move)."""
    return "an" if word[:1].lower() in ("a", "e", "i", "o", "u") else "a"


#: The games built in this process, by game key (id and options), for pickled moves: a
#: move pickles with its game, found here (or loaded again from the registry by id).
_LIVE_GAMES: weakref.WeakValueDictionary[tuple[Any, ...], Game[Any, Any]] = (
    weakref.WeakValueDictionary())
#: Games rebuilt from pickles, by class and options: unpickling a thousand states of one
#: game builds it once.
_RESTORED_GAMES: dict[tuple[type[Any], str], Game[Any, Any]] = {}
_RESTORED_GAMES_MAX = 64


def restore_game(cls: type[Game[Any, Any]], options: dict[str, Any]) -> Game[Any, Any]:
    """A pickled game: its class built again with its options (one per process).  Only a
    concrete game class pickles: a subclass of :class:`Game` with a game id whose
    constructor builds the game (installs its core); anything else -- the abstract
    :class:`Game` itself included -- is ``TypeError``, never a half-built game."""
    if not _is_game_class(cls) or not isinstance(options, dict):
        raise TypeError("not a pickled boardrules game")
    text = json.dumps(options, sort_keys=True)
    live = _LIVE_GAMES.get((cls.id, text))
    if type(live) is cls:
        return live  # this process has that game already: the same object
    key = (cls, text)
    game = _RESTORED_GAMES.get(key)
    if game is None:
        game = cls(**options)
        if not hasattr(game, "_game_key_cache"):  # (set by _install: the core is there)
            raise TypeError(f"not a pickled boardrules game: {cls.__qualname__} builds "
                            "no game")
        if len(_RESTORED_GAMES) >= _RESTORED_GAMES_MAX:
            _RESTORED_GAMES.pop(next(iter(_RESTORED_GAMES)))
        _RESTORED_GAMES[key] = game
    return game


def _is_game_class(cls: object) -> TypeGuard[type[Game[Any, Any]]]:
    """``cls`` is a game's own class: a subclass of :class:`Game`, not :class:`Game`
    itself, that names its game (a non-empty ``id``; the abstract class has none)."""
    return (isinstance(cls, type) and issubclass(cls, Game) and cls is not Game
            and isinstance(getattr(cls, "id", None), str) and bool(cls.id))


def game_of_key(key: tuple[Any, ...]) -> Game[Any, Any]:
    """The game a move belongs to: one built in this process with that key, else the
    registered game of that id loaded with those options."""
    game = _LIVE_GAMES.get(key)
    if game is None:
        from boardrules.games import as_game_id, load

        game_id, options = key
        game = load(as_game_id(game_id), **json.loads(options))
    return game


def move_of_game(game: Game[Any, GameMoveT], action: int) -> GameMoveT:
    """A pickled move: the move with that action id of its (unpickled) game."""
    if not isinstance(game, Game):
        raise TypeError("not a pickled boardrules move")
    return game.move(action)

