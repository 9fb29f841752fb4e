"""The :class:`State`: a game in progress, the whole truth with undo and the seeded RNG
beside it.  It pickles and deep-copies through its save (:meth:`State.to_json`)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast, overload

import numpy as np

from boardrules._base import CHANCE, TERMINAL, MoveT, Outcome, check_seed, exact_int
from boardrules._decisions import Decision
from boardrules._events import Event
from boardrules._ext.core import CoreState
from boardrules._saves import (
    SIGNATURE_FIELD,
    STATE_FORMAT,
    STATE_FORMAT_VERSION,
    _compact_json,
    sign_document,
)
from boardrules.errors import IllegalMoveError, InvalidMoveError
from boardrules.observations import (
    ACTION_MASK_DTYPE,
    OBSERVATION_DTYPE,
    ActionMask,
    Observation,
    check_buffer,
)

if TYPE_CHECKING:
    from typing_extensions import Self

    from boardrules._game import Game

StateT = TypeVar("StateT", bound="State[Any]")
ItemT = TypeVar("ItemT", bound=object, covariant=True)


class History(Sequence[ItemT]):
    """A game's moves so far, oldest first: what :attr:`State.history` returns.

    A read-only snapshot: it stays as it was when the state moves on (or is undone).  It
    indexes, slices (a slice is a list), iterates and measures as a list does, and
    compares equal to a list or tuple of the same moves (and to another History)."""

    __slots__ = ("_items", "_len")

    def __init__(self, items: list[ItemT], length: int) -> None:
        self._items = items  # append-only while this snapshot exists: only [:length] is ours
        self._len = length

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, index: int) -> ItemT: ...
    @overload
    def __getitem__(self, index: slice) -> list[ItemT]: ...

    def __getitem__(self, index: int | slice) -> ItemT | list[ItemT]:
        if isinstance(index, slice):
            return [self._items[i] for i in range(*index.indices(self._len))]
        i = exact_int(index, "a history index")
        if i < 0:
            i += self._len
        if not 0 <= i < self._len:
            raise IndexError("history index out of range")
        return self._items[i]

    def __iter__(self) -> Iterator[ItemT]:
        return itertools.islice(self._items, self._len)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, History | list | tuple):
            return NotImplemented
        return len(other) == self._len and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(list(self))


class State(Generic[MoveT]):
    """A game in progress: the whole truth, with undo and the seeded RNG beside it.

    Get one from :meth:`Game.new_game` or :meth:`Game.state_from_json`.  Methods that
    reject their input raise before touching anything: the state stays byte-identical.
    """

    __slots__ = ("_auto_chance", "_auto_forced", "_core", "_events_log", "_game", "_log",
                 "_log_shared", "_start", "_world")

    def __init__(self, game: Game[Any, MoveT], core: CoreState, auto_chance: bool,
                 auto_forced: bool = True, start: str | None = None) -> None:
        self._game = game
        self._core = core
        self._auto_chance = auto_chance
        self._auto_forced = auto_forced
        # The position the game started from (Game.position), None for the game's start.
        self._start = start
        # The events of each action of the history, whole truth, built when first asked.
        self._events_log: list[list[Event]] = []
        # The history's moves, oldest first, grown as moves are applied (None: not built
        # yet).  Once handed out in a History it is never shortened in place.
        self._log: list[MoveT] | None = None
        self._log_shared = False
        # A world drawn by determinize: it starts from no game's start, so it has no save.
        self._world = False

    @property
    def game(self) -> Game[Self, MoveT]:
        """The game this state is a state of (its own class: ``ArmadoraGame``)."""
        return cast("Game[Self, MoveT]", self._game)

    @property
    def auto_chance(self) -> bool:
        """Whether chance events are drawn from the state's RNG as they come."""
        return self._auto_chance

    @property
    def auto_forced(self) -> bool:
        """Whether the engine takes forced steps (a decision with one answer the game
        makes for the player) as they come; they are in the history all the same, and
        :attr:`forced` lists them."""
        return self._auto_forced

    @property
    def forced(self) -> list[int]:
        """The history indices of the forced steps the engine took (``auto_forced``)."""
        return list(self._core.forced)

    @property
    def start_position(self) -> str | None:
        """The position the game started from (:meth:`Game.position`), or ``None`` for
        the game's own start.  Undo stops there; a save carries it."""
        return self._start

    # --- whose turn, what is legal ---

    @property
    def current_player(self) -> int:
        """The player to move (0-based), :data:`CHANCE` or :data:`TERMINAL`."""
        return int(self._core.current_player)

    def is_terminal(self) -> bool:
        return self._core.current_player == TERMINAL

    def legal_moves(self) -> list[MoveT]:
        """The legal moves, sorted and without duplicates; at a chance node the possible
        outcomes; empty only when the game is over."""
        return self._core.legal_moves(self._game._moves)

    def is_legal(self, move: object) -> bool:
        """Whether ``move`` (a :class:`Move` or its notation) is legal here.  Anything
        that is not a legal move of this game answers ``False``: an illegal move, text
        that is no move, a move of another game or other options, a forged move, a value
        of another type.  (:meth:`apply` says which, with its error.)"""
        try:
            action = self._game._action_of(move)
        except (InvalidMoveError, TypeError):
            return False
        return bool(self._core.is_legal(action))

    def decision(self) -> Decision:
        """What the state waits for -- who decides, in which phase, between what kinds of
        move, how many, and whether simultaneously with a hidden commit -- for a client to
        show without parsing notation (see :class:`~boardrules.Decision`)."""
        player = self.current_player
        moves = self.legal_moves()
        phase = getattr(self, "phase", None)
        if not isinstance(phase, str):
            phase = {CHANCE: "chance", TERMINAL: "over"}.get(player, "play")
        kinds = sorted({str(getattr(move, "kind", "move")) for move in moves})
        return Decision(player=player, phase=phase, kinds=tuple(kinds), moves=len(moves),
                        simultaneous=player >= 0 and bool(self._core.simultaneous()),
                        forced=bool(self._core.is_forced()))

    def chance_outcomes(self, viewer: int | None = None) -> list[tuple[MoveT, float]]:
        """[(outcome, probability)] at a chance node, else [].

        Without ``viewer``: the engine's odds, from the whole truth (in two-player Armada,
        what a card draw can give is the deck, which a player can tell apart from his
        opponent's hand only by looking at it).  With ``viewer=p``: the odds as player
        ``p`` sees them, over everything he cannot see -- what player-facing code shows.
        The outcomes are the same either way; a game whose odds depend on hidden
        information weighs them from ``p``'s knowledge."""
        moves = self._game._moves
        if viewer is None:
            return [(moves[a], p) for a, p in self._core.chance_outcomes()]
        self._check_viewer(viewer, spectator=False)
        if self._core.current_player != CHANCE:
            return []
        return [(moves[a], p) for a, p in self._viewer_chance_outcomes(int(viewer))]

    def _viewer_chance_outcomes(self, viewer: int) -> list[tuple[int, float]]:
        """[(action, probability)] at a chance node as ``viewer`` sees it.  The default:
        the engine's odds, right for every game whose chance events do not depend on what
        the viewer cannot see; a game where they do overrides this."""
        result: list[tuple[int, float]] = self._core.chance_outcomes()
        return result

    # --- changes ---

    def apply(self, move: MoveT | str, *, player: int | None = None) -> None:
        """Apply a move (a :class:`Move` or its notation).

        ``player``, when given, is who asks: a move sent by anyone but the player to move
        is refused.  An illegal move raises :class:`IllegalMoveError` naming the rule it
        breaks; nothing changes.  With ``auto_chance`` the chance events that follow are
        drawn at once.
        """
        game = self._game
        action = game._action_of(move)
        core = self._core
        if player is not None:
            self._check_player(player)
        try:
            core.apply(action, self._auto_chance, self._auto_forced)
            return
        except ValueError:
            rule, message = game._explain(core, action)
            raise IllegalMoveError(f"{game._moves[action]}: {message}", rule) from None

    def _check_player(self, player: int) -> None:
        player = exact_int(player, "player")
        current = self.current_player
        if player != current or not 0 <= player < self._game.num_players:
            who = {CHANCE: "a chance event", TERMINAL: "nobody (the game is over)"}.get(
                current, f"player {current}"
            )
            raise IllegalMoveError(f"not player {player}'s turn: {who} is to move", "wrong_player")

    def apply_random_chance(self, seed: int | None = None) -> MoveT:
        """Draw one outcome at a chance node with its probability and apply it: from the
        state's own RNG, or from a throw-away RNG seeded with ``seed``.  With
        ``auto_forced`` the forced steps that follow are taken too."""
        if self._core.current_player != CHANCE:
            raise IllegalMoveError("not a chance node", "not_chance")
        if seed is not None:
            seed = check_seed(seed)
        action = self._core.apply_random_chance(seed, self._auto_forced)
        return self._game._moves[action]

    def undo(self) -> MoveT:
        """Take back the last move and return it.  With ``auto_chance`` the chance
        outcomes drawn automatically after that move are taken back with it."""
        # One call into the core either way: no other thread can see it half undone.
        core = self._core
        if self._auto_chance or self._auto_forced:
            action = core.undo_move(self._auto_chance)
        else:
            action = core.undo()
        self._truncate_log()
        return self._game._moves[action]

    def determinize(self: StateT, player: int, seed: int | None = None) -> StateT:
        """A world consistent with everything ``player`` may know: what he cannot see
        (opponents' face-down values, hidden hands...) is redrawn at random from what
        remains possible.  It has no undo history (which would hold the truth)."""
        player = exact_int(player, "player")
        if not 0 <= player < self._game.num_players:
            raise ValueError(f"player must be 0 to {self._game.num_players - 1}")
        world = type(self)(self._game, self._core.determinized(player, check_seed(seed)),
                           self._auto_chance, self._auto_forced)
        world._world = True
        return world

    def invariants(self) -> dict[str, tuple[int, int]]:
        """Conservation checks: name -> (counted, expected); equal in every valid state
        (every piece, card and gold piece accounted for)."""
        raise NotImplementedError

    def copy(self: StateT) -> StateT:
        """An independent copy (history and RNG included)."""
        other = type(self)(self._game, self._core.copy(), self._auto_chance,
                           self._auto_forced, self._start)
        other._world = self._world
        # the events computed so far are the copy's too (each Event is frozen): a copy's
        # last_events then costs its own new moves, not the whole history again
        other._events_log = self._events_log[:]
        return other

    def child(self: StateT, move: MoveT | str) -> StateT:
        """A copy with ``move`` applied; this state is unchanged."""
        other = self.copy()
        other.apply(move)
        return other

    def _check_viewer(self, player: object, *, spectator: bool = True) -> None:
        """TypeError / ValueError unless ``player`` is a player of the game (or ``None``,
        a spectator, when ``spectator``)."""
        if player is None and spectator:
            return
        if isinstance(player, bool) or not isinstance(player, int):
            raise TypeError("player must be an int or None" if spectator
                            else "player must be an int")
        if not 0 <= int.__index__(player) < self._game.num_players:
            raise ValueError(f"player must be 0 to {self._game.num_players - 1}"
                             + (" or None" if spectator else ""))

    def history_view(self, player: int | None) -> list[tuple[int, str]]:
        """The move log as ``player`` may see it (``None``: a spectator): ``(mover,
        move)`` pairs, the mover a player or :data:`CHANCE`, and a move whose content is
        hidden from him written redacted (Armadora: ``"?@c2"`` for another player's
        face-down warrior)."""
        self._check_viewer(player)
        moves = self._game._moves
        return [(mover, self._game._redact(moves[a], mover, player))
                for a, mover in zip(self._core.actions, self._core.movers(), strict=True)]

    @property
    def history(self) -> History[MoveT]:
        """Every action applied since the start, chance outcomes included (whole truth):
        a read-only :class:`History` of the moves so far, oldest first, which compares
        equal to a list of the same moves.  A read costs O(1) after a move (the moves are
        recorded as they are applied), so a loop that reads it after every move stays
        linear."""
        log = self._moves_so_far()
        self._log_shared = True
        return History(log, len(log))

    def _moves_so_far(self) -> list[MoveT]:
        """The state's own list of its history's moves, brought up to date: the moves
        applied since the last read are appended (the list is rebuilt if it is longer than
        the history, which only a caller of the core's undo can cause)."""
        core, log = self._core, self._log
        n = core.num_actions
        if log is None or len(log) > n:
            moves = self._game._moves
            log = self._log = [moves[a] for a in core.actions]
            self._log_shared = False
        elif len(log) < n:
            moves = self._game._moves
            log.extend([moves[a] for a in core.actions_from(len(log))])
        return log

    def _truncate_log(self) -> None:
        """After an undo: the recorded moves end where the history now ends (a list already
        handed out in a History is left as it was: a new, shorter one replaces it)."""
        log = self._log
        if self._events_log:
            del self._events_log[self._core.num_actions:]
        if log is None:
            return
        n = self._core.num_actions
        if len(log) <= n:
            return
        if self._log_shared:
            self._log, self._log_shared = log[:n], False
        else:
            del log[n:]

    # --- what happened ---

    def events(self, viewer: int | None = None) -> list[Event]:
        """The game's whole event log as ``viewer`` may see it (``None``: a spectator),
        oldest first: what each action caused (see :class:`~boardrules.Event`), redacted
        exactly as :meth:`view` is.  A world drawn by :meth:`determinize` has none."""
        self._check_viewer(viewer)
        return self._events_from(0, viewer)

    def last_events(self, viewer: int | None = None) -> list[Event]:
        """What the last move caused, as ``viewer`` may see it: the events of the last
        move asked of a player and of the chance outcomes drawn and forced steps taken
        after it (what a client shows after :meth:`apply`)."""
        self._check_viewer(viewer)
        first = self._core.last_move_index(self._auto_chance)
        return self._events_from(max(first, 0), viewer)

    def _events_from(self, first: int, viewer: int | None) -> list[Event]:
        truth = self._truth_events()
        redact = self._game._redact_event
        shown: list[Event] = []
        for per_action in truth[first:]:
            for event in per_action:
                seen = redact(event, viewer)
                if seen is not None:
                    shown.append(seen)
        return shown

    def _truth_events(self) -> list[list[Event]]:
        """The whole-truth events of every action so far, computed for the actions not
        seen yet from the state before and after each (the undo snapshots)."""
        log, core, game = self._events_log, self._core, self._game
        n = core.num_actions
        if len(log) < n:
            export = game._core.export
            actions = core.actions_from(len(log))
            before = core.state_at(len(log))
            before_raw = export(before)
            for i, action in enumerate(actions, start=len(log)):
                after = core.state_at(i + 1)
                after_raw = export(after)  # read-only to _events: the next action's before
                mover = int(before.current_player)
                log.append([Event(i, mover, kind, data) for kind, data in
                            game._events(before_raw, action, mover, after_raw)])
                before, before_raw = after, after_raw
        return log

    # --- results (per game) ---

    def score(self) -> tuple[int, ...]:
        """Each player's standing by the game's scoring, were it scored now."""
        raise NotImplementedError

    def outcome(self) -> Outcome | None:
        """``None`` until the game is over, then the final :class:`Outcome`."""
        raise NotImplementedError

    def returns(self) -> tuple[float, ...]:
        """Each player's payoff in [-1, 1] (0 for all until the game is over)."""
        return tuple(self._core.returns())

    def observation(self, player: int, out: Observation | None = None) -> Observation:
        """``player``'s observation tensor (``float32``, shape
        :attr:`Game.observation_shape`), written by the core: what he may see and nothing
        more, laid out as :attr:`Game.observation_layout` says.  ``out`` (a writable
        contiguous ``float32`` array of that shape) is filled and returned instead of a new
        array."""
        self._check_viewer(player, spectator=False)
        size = self._game.observation_layout.size
        if out is None:
            out = np.empty(size, dtype=OBSERVATION_DTYPE)
        else:
            check_buffer(out, size, OBSERVATION_DTYPE, "this game's observation")
        self._core.observation_into(player, out)
        return out

    def action_mask(self, out: ActionMask | None = None) -> ActionMask:
        """The legal moves of the player to move as an ``int8`` mask over the action ids
        (``num_distinct_actions`` entries: 1 legal, 0 not; all 0 at a chance node and at
        the end).  ``out`` is filled and returned instead of a new array."""
        size = self._game.num_distinct_actions
        if out is None:
            out = np.empty(size, dtype=ACTION_MASK_DTYPE)
        else:
            check_buffer(out, size, ACTION_MASK_DTYPE, "this game's actions")
        self._core.action_mask_into(out)
        return out

    def view(self, player: int | None) -> Mapping[str, Any]:
        """What ``player`` may see, JSON-ready (``None``: a spectator)."""
        raise NotImplementedError

    def render_svg(self, player: int | None = None, *, highlight: Sequence[str] = (),
                   marks: Sequence[tuple[str, str]] = (),
                   arrows: Sequence[tuple[str, str]] = ()) -> str:
        """An SVG picture of what ``player`` may see (``None``: a spectator), the same
        redaction as :meth:`view`; :meth:`render_svg_truth` draws the whole truth.
        ``highlight``, ``marks`` and ``arrows`` draw locations over the board, as
        :meth:`Game.render_view_svg` does (the picture of ``view(player)`` is
        ``game.render_view_svg(state.view(player))``)."""
        raise NotImplementedError

    def render_svg_truth(self, *, highlight: Sequence[str] = (),
                         marks: Sequence[tuple[str, str]] = (),
                         arrows: Sequence[tuple[str, str]] = ()) -> str:
        """An SVG picture of the whole truth, hidden values included (for analysis, never
        for a player), with the overlays of :meth:`render_svg`.  A game without hidden
        information draws the spectator's view."""
        if self._game.has_hidden_information:
            raise NotImplementedError
        return self.render_svg(None, highlight=highlight, marks=marks, arrows=arrows)

    def render_text(self, player: int | None = None) -> str:
        """The board as text: ``player=None`` a spectator's (hidden values redacted, as
        in ``view(None)``), else what ``player`` may see."""
        raise NotImplementedError

    def __str__(self) -> str:
        """The board as a spectator sees it (:meth:`render_text`), like ``print(board)``;
        a game without a text board prints its ``repr``."""
        try:
            return self.render_text()
        except NotImplementedError:
            return repr(self)

    def _repr_svg_(self) -> str:
        """The picture Jupyter shows for a state: a spectator's view."""
        return self.render_svg(None)

    def _raw(self) -> dict[str, Any]:
        """The whole truth as plain Python values, from the compiled core's ``export``."""
        return self._game._core.export(self._core)

    def _snapshot(self) -> dict[str, Any]:
        """The explicit position saved beside the history in ``to_json``."""
        raise NotImplementedError

    # --- positions ---

    def position(self) -> str:
        """The position as text in the game's position format (its docs page describes
        it): everything the rules need to go on from here -- board, pools, hands, phase,
        counters -- without the history or the RNG.  :meth:`Game.position` reads it back
        to a state with the same position byte for byte."""
        return self._game._position_text(self._raw())

    # --- copies and pickles: through the save ---

    def __copy__(self: StateT) -> StateT:
        return self.copy()

    def __deepcopy__(self: StateT, memo: dict[int, Any]) -> StateT:
        return self.copy()

    def __reduce__(self) -> tuple[Any, ...]:
        """A state pickles as its game and its save (:meth:`to_json`): unpickling replays
        and checks the save as :meth:`Game.state_from_json` does, and gives back the same
        position byte for byte, its history (so undo) and its RNG.  Unpickling untrusted
        bytes runs whatever they say, as any pickle does: keep signed JSON saves for
        untrusted storage."""
        return (restore_state, (self._game, self.to_json()))

    def to_json(self, *, key: bytes | None = None) -> str:
        """The whole state as JSON text, for a server to persist; restore it with
        :meth:`Game.state_from_json` (or :func:`boardrules.state_from_json`).

        The save holds the truth, RNG included: whoever holds it can read the hidden
        information and can even rewrite it consistently (choose the dice and an RNG that
        draws them) so that it still loads.  A server that hands saves to players passes
        ``key`` (a secret of at least 16 bytes it keeps): the save then carries an
        HMAC-SHA256 ``signature``, and ``state_from_json(text, key=key)`` refuses any save
        that was changed or not signed with that key.
        """
        self._check_savable()
        doc: dict[str, Any] = {
            "format": STATE_FORMAT,
            "format_version": STATE_FORMAT_VERSION,
            "game": self._game.id,
            "rules_version": self._game.rules_version,
            "options": self._game._options,
            "auto_chance": self._auto_chance,
            "auto_forced": self._auto_forced,
            "forced": self._core.forced,
            "start": self._start,
            "rng_start": [f"{w:016x}" for w in self._core.rng_start],
            "rng": [f"{w:016x}" for w in self._core.rng_state],
            "drawn": self._core.drawn,
            "history": [str(m) for m in self._moves_so_far()],
            "state": self._snapshot(),
        }
        if key is not None:
            doc[SIGNATURE_FIELD] = sign_document(doc, key)
        return _compact_json(doc)

    def _check_savable(self) -> None:
        if self._world:
            raise ValueError(
                "a world drawn by determinize() has no save: it starts from no position of "
                "the game's start, and its history is empty (save or pickle the state it was "
                "drawn from)")

    def state_bytes(self) -> bytes:
        """The compiled state struct, byte for byte (for identity checks)."""
        return bytes(self._core.state_bytes())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return (
            self._game._game_key_cache == other._game._game_key_cache
            and self.state_bytes() == other.state_bytes()
            and self._core.actions == other._core.actions
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self._game.id} move {len(self._core.actions)}>"


def restore_state(game: Game[Any, Any], save: str) -> State[Any]:
    """A pickled state: its save restored by its (unpickled) game."""
    from boardrules._game import Game

    if not isinstance(game, Game) or not isinstance(save, str):
        raise TypeError("not a pickled boardrules state")
    state: State[Any] = game.state_from_json(save)
    return state
