"""The public contract: :class:`Game`, :class:`State`, :class:`Move`, :class:`Outcome`.

Every game is one compiled rules core (``boardrules._ext.<game>``) behind these classes.
The generic machinery here -- legality checks, undo, copies, chance, JSON persistence --
knows no game; a game package supplies notation, views, scoring and rendering.

>>> import boardrules
>>> game = boardrules.load("armadora", players=2)
>>> state = game.new_game(seed=7)
>>> state.current_player
0
>>> state.apply("3@c2")
>>> state.history[-1]
<ArmadoraMove '3@c2'>
>>> state.undo()
<ArmadoraMove '3@c2'>
"""

from __future__ import annotations

import enum
import json
import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar, cast

from boardrules._ext.core import CoreGame, CoreState
from boardrules.errors import (
    IllegalMoveError,
    InvalidMoveError,
    InvalidStateError,
)

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Game",
    "Move",
    "Outcome",
    "State",
    "Termination",
]

#: ``state.current_player`` at a chance node (a die roll, a draw, a random placement).
CHANCE: int = -1
#: ``state.current_player`` once the game is over.
TERMINAL: int = -4

STATE_FORMAT = "boardrules-state"
_HEX_WORD = re.compile(r"[0-9a-f]{16}")
STATE_FORMAT_VERSION = 1
MAX_STATE_JSON_BYTES = 1_000_000

StateT = TypeVar("StateT", bound="State[Any]")
MoveT = TypeVar("MoveT", bound="Move")


class Termination(enum.Enum):
    """Why a game ended."""

    #: Armadora: every player has ended (passed) -- rule 四.
    ALL_PASSED = "all_passed"
    #: Tic-tac-toe, Connect Four: the last move completed a line (three or four in a row).
    LINE = "line"
    #: Tic-tac-toe, Connect Four: the board is full and no line was completed (a draw).
    BOARD_FULL = "board_full"
    #: Pig: a player's score and turn total reached the target (he wins at once).
    TARGET_REACHED = "target_reached"
    #: Pig: the last turn was played; the higher score wins, equal scores draw.
    TURN_LIMIT = "turn_limit"


@dataclass(frozen=True)
class Outcome:
    """The final result of a game.

    * ``winners`` -- the players who share first place (both partners of a winning team);
    * ``ranking`` -- each player's place, 1 for first, equal places on a full tie;
    * ``scores`` -- each player's final score by the game's scoring (Armadora: gold);
    * ``team_scores`` -- each team's score, in ``game.teams`` order;
    * ``returns`` -- each player's payoff in [-1, 1] as search uses it;
    * ``reason`` -- why the game ended.
    """

    winners: tuple[int, ...]
    ranking: tuple[int, ...]
    scores: tuple[int, ...]
    team_scores: tuple[int, ...]
    returns: tuple[float, ...]
    reason: Termination


class Move:
    """One atomic decision: a player's move or a chance outcome.

    A move prints in the game's canonical notation (``str(move)``), which
    :meth:`Game.parse_move` reads back.  Moves compare and hash by game, options and
    action id, and sort in action-id order (the order of ``legal_moves()``).
    """

    __slots__ = ("_action", "_game_key", "_text")

    def __init__(self, action: int, text: str, game_key: tuple[Any, ...]) -> None:
        self._action = action
        self._text = text
        self._game_key = game_key

    @property
    def action(self) -> int:
        """The action id the compiled core uses for this move."""
        return self._action

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self._text!r}>"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return self._action == other._action and self._game_key == other._game_key

    def __hash__(self) -> int:
        return hash((self._game_key, self._action))

    def __lt__(self, other: Move) -> bool:
        if not isinstance(other, Move) or other._game_key != self._game_key:
            return NotImplemented
        return self._action < other._action


class Game:
    """A game with its options fixed.  Get one with :func:`boardrules.load`.

    Subclasses set the class attributes and fill ``_core`` (the compiled game) and
    ``_moves`` (one :class:`Move` per action id) in their constructor.
    """

    #: The registry id (``"armadora"``).
    id: ClassVar[str]
    #: Human name of the game.
    name: ClassVar[str]
    #: Bumped whenever the behaviour of the rules changes.
    rules_version: ClassVar[str]
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
    _moves: list[Move]
    _by_text: Mapping[str, Move]  # every accepted (normalised) spelling -> its move
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
    def core(self) -> CoreGame:
        """The compiled game (the C-level contract), for the search core and benchmarks."""
        return self._core

    def _game_key(self) -> tuple[Any, ...]:
        return (self.id, json.dumps(self._options, sort_keys=True))

    def _install(self, core: CoreGame, options: dict[str, Any],
                 build_moves: Callable[[tuple[Any, ...]], Sequence[Move]],
                 aliases: Callable[[Move], list[str]] = lambda move: []) -> None:
        """What every game's constructor ends with: its validated options, the compiled
        core, one move per action id (built by ``build_moves(game_key)``) and the parse
        table of their spellings (canonical notation plus ``aliases``)."""
        self._options = options
        self._core = core
        self._game_key_cache = self._game_key()
        self._moves = list(build_moves(self._game_key_cache))
        by_text: dict[str, Move] = {}
        for move in self._moves:
            by_text[str(move)] = move
            for alias in aliases(move):
                by_text[alias] = move
        self._by_text = by_text

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self._options.items())
        return f"<{type(self).__name__} {opts}>" if opts else f"<{type(self).__name__}>"

    # --- states ---

    def new_game(self, seed: int | None = None, auto_chance: bool = True) -> State[Any]:
        """A new game.  With ``auto_chance`` (the default) every chance event -- the
        random setup included -- is drawn from the RNG seeded by ``seed``; without it the
        state stops at each chance node for the caller to apply an outcome (a physical
        table applying what really happened)."""
        seed = check_seed(seed)
        if not isinstance(auto_chance, bool):
            raise TypeError("auto_chance must be a bool")
        core = self._core.new_state()
        core.seed(seed)
        if auto_chance:
            core.run_auto_chance()
        return self.state_class(self, core, auto_chance)

    # --- moves ---

    def parse_move(self, text: str) -> Move:
        """The move written ``text`` in the game's notation (:class:`InvalidMoveError`
        if it is not a move of this game).  Legality is checked by ``State.apply``."""
        if not isinstance(text, str):
            raise TypeError(f"move text must be a str, not {type(text).__name__}")
        return self._parse(text)

    def _parse(self, text: str) -> Move:
        if len(text) > self.max_move_text:
            raise InvalidMoveError(
                f"not a {self.name} move: {text[:self.max_move_text]!r}... (too long)")
        move = self._by_text.get(self._normalise(text))
        if move is None:
            raise InvalidMoveError(f"not a {self.name} move: {text!r} ({self.notation_hint})")
        return move

    def _normalise(self, text: str) -> str:
        """The key of ``_by_text`` for a spelling of a move (lower case, single spaces)."""
        return " ".join(text.lower().split())

    def move(self, action: int) -> Move:
        """The move with action id ``action``."""
        if isinstance(action, bool) or not isinstance(action, int):
            raise TypeError("action must be an int")
        if not 0 <= action < len(self._moves):
            raise InvalidMoveError(f"action {action} is out of range for {self.id}")
        return self._moves[action]

    def _action_of(self, move: Move | str) -> int:
        """Action id of a move object or notation string (type-checked)."""
        if isinstance(move, Move):
            if move._game_key is self._game_key_cache or move._game_key == self._game_key_cache:
                action = move._action
                if isinstance(action, int) and 0 <= action < len(self._moves):
                    return action
                raise InvalidMoveError("a forged move: its action id is out of range")
            raise InvalidMoveError(f"{move!r} is a move of another game or other options")
        if isinstance(move, str):
            return self._parse(move)._action
        raise TypeError(f"a move must be a Move or its notation string, not {type(move).__name__}")

    _game_key_cache: tuple[Any, ...]

    def _explain(self, core: CoreState, action: int) -> tuple[str, str]:
        """(rule key, message citing the rule) for an action the core rejected."""
        key = self._core.illegal_reason(core, action)
        return key, self.illegal_reasons[key]

    def _redact(self, move: Move, mover: int, viewer: int | None) -> str:
        """How ``viewer`` (None: a spectator) sees ``move`` made by ``mover`` (a player or
        CHANCE) in a move log.  Perfect-information games show every move as it is."""
        return str(move)

    @classmethod
    def check_saved_options(cls, options: dict[str, Any]) -> None:
        """Refuse options of a saved (untrusted) state that only a trusted caller may
        pass, such as a path on the server's disk (raises InvalidStateError)."""

    # --- persistence ---

    def state_from_json(self, text: str | bytes) -> State[Any]:
        """Restore a state saved by :meth:`State.to_json`.

        The text is untrusted: every field is checked (types, ranges, the options and
        rules version), the move history is replayed through the rules, and the saved
        position must equal the replayed one -- every warrior, palisade and gold piece
        accounted for.  Anything else raises :class:`InvalidStateError`.
        """
        doc = _parse_state_json(text)
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
        core = self._core.new_state()
        history = doc["history"]
        _expect(len(history) <= self.max_game_length, "history is longer than any game")
        for i, text_move in enumerate(history):
            try:
                action = self._action_of(text_move)
            except InvalidMoveError as exc:
                raise InvalidStateError(f"history[{i}]: {exc}") from None
            if not core.is_legal(action):
                _, why = self._explain(core, action)
                raise InvalidStateError(f"history[{i}] {text_move!r} is illegal: {why}")
            core.apply(action)
        try:
            words = [int(w, 16) for w in doc["rng"]]
            core.rng_state = (words[0], words[1], words[2], words[3])
        except ValueError as exc:
            raise InvalidStateError(f"rng: {exc}") from None
        if auto_chance and core.current_player == CHANCE:
            raise InvalidStateError("auto_chance state stopped at a chance node")
        state = self.state_class(self, core, auto_chance)
        _compare_snapshot(doc["state"], state._snapshot(), "state")
        return state


def check_seed(seed: object) -> int:
    """A seed in [0, 2**64), or a fresh random one for ``None`` (TypeError for anything but
    an int, ValueError out of range)."""
    if seed is None:
        return int.from_bytes(os.urandom(8), "little")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an int, not {type(seed).__name__}")
    if not 0 <= seed < 2**64:
        raise ValueError("seed must be in [0, 2**64)")
    return seed


def _expect(condition: bool, message: str) -> None:
    if not condition:
        raise InvalidStateError(message)


def _parse_state_json(text: str | bytes) -> dict[str, Any]:
    """Decode and check the envelope of a saved state."""
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise InvalidStateError("saved state is not UTF-8") from None
    if not isinstance(text, str):
        raise TypeError(f"a saved state is JSON text, not {type(text).__name__}")
    if len(text) > MAX_STATE_JSON_BYTES:
        raise InvalidStateError("saved state is too large")
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise InvalidStateError(f"not JSON: {exc}") from None
    _expect(isinstance(doc, dict), "a saved state is a JSON object")
    expected = {"format", "format_version", "game", "rules_version", "options", "auto_chance",
                "rng", "history", "state"}
    _expect(set(doc) == expected, f"fields must be exactly {sorted(expected)}, got {sorted(doc)}")
    _expect(doc["format"] == STATE_FORMAT, f"format must be {STATE_FORMAT!r}")
    _expect(doc["format_version"] == STATE_FORMAT_VERSION and type(doc["format_version"]) is int,
            f"format_version must be {STATE_FORMAT_VERSION}")
    _expect(isinstance(doc["auto_chance"], bool), "auto_chance must be true or false")
    rng = doc["rng"]
    _expect(isinstance(rng, list) and len(rng) == 4
            and all(isinstance(w, str) and _HEX_WORD.fullmatch(w) for w in rng),
            "rng must be 4 hexadecimal words of 16 digits")
    _expect(isinstance(doc["history"], list) and all(isinstance(m, str) for m in doc["history"]),
            "history must be a list of move strings")
    _expect(isinstance(doc["state"], dict), "state must be an object")
    checked: dict[str, Any] = doc
    return checked


def _compare_snapshot(saved: Any, replayed: Any, where: str) -> None:
    """Field-by-field equality, naming the first field that differs."""
    if isinstance(replayed, dict):
        _expect(isinstance(saved, dict), f"{where} must be an object")
        _expect(set(saved) == set(replayed),
                f"{where} fields must be {sorted(replayed)}, got {sorted(saved)}")
        for key in replayed:
            _compare_snapshot(saved[key], replayed[key], f"{where}.{key}")
    elif isinstance(replayed, list):
        _expect(isinstance(saved, list) and len(saved) == len(replayed),
                f"{where} must be a list of {len(replayed)} items")
        for i, (a, b) in enumerate(zip(saved, replayed, strict=True)):
            _compare_snapshot(a, b, f"{where}[{i}]")
    else:
        _expect(type(saved) is type(replayed) and saved == replayed,
                f"{where} is {saved!r}, but the history gives {replayed!r}")


class State(Generic[MoveT]):
    """A game in progress: the whole truth, with undo and the seeded RNG beside it.

    Get one from :meth:`Game.new_game` or :meth:`Game.state_from_json`.  Methods that
    reject their input raise before touching anything: the state stays byte-identical.
    """

    __slots__ = ("_auto_chance", "_core", "_game")

    def __init__(self, game: Game, core: CoreState, auto_chance: bool) -> None:
        self._game = game
        self._core = core
        self._auto_chance = auto_chance

    @property
    def game(self) -> Game:
        return self._game

    @property
    def auto_chance(self) -> bool:
        return self._auto_chance

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

    def is_legal(self, move: Move | str) -> bool:
        return bool(self._core.is_legal(self._game._action_of(move)))

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        """[(outcome, probability)] at a chance node, else []."""
        moves = self._game._moves
        return [(moves[a], p) for a, p in self._core.chance_outcomes()]

    # --- changes ---

    def apply(self, move: Move | str, *, player: int | None = None) -> None:
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
            core.apply(action, self._auto_chance)
        except ValueError:
            rule, message = game._explain(core, action)
            raise IllegalMoveError(f"{game._moves[action]}: {message}", rule) from None

    def _check_player(self, player: int) -> None:
        if isinstance(player, bool) or not isinstance(player, int):
            raise TypeError("player must be an int")
        current = self.current_player
        if player != current or not 0 <= player < self._game.num_players:
            who = {CHANCE: "a chance event", TERMINAL: "nobody (the game is over)"}.get(
                current, f"player {current}"
            )
            raise IllegalMoveError(f"not player {player}'s turn: {who} is to move", "wrong_player")

    def apply_random_chance(self, seed: int | None = None) -> Move:
        """Draw one outcome at a chance node with its probability and apply it: from the
        state's own RNG, or from a throw-away RNG seeded with ``seed``."""
        if self._core.current_player != CHANCE:
            raise IllegalMoveError("not a chance node", "not_chance")
        if seed is not None:
            seed = check_seed(seed)
        action = self._core.apply_random_chance(seed)
        return self._game._moves[action]

    def undo(self) -> Move:
        """Take back the last move and return it.  With ``auto_chance`` the chance
        outcomes drawn automatically after that move are taken back with it."""
        core = self._core
        if not self._auto_chance:
            if core.num_actions == 0:
                raise IndexError("nothing to undo")
            return self._game._moves[core.undo()]
        last = core.last_player_move_index()
        if last < 0:
            raise IndexError("nothing to undo")
        while core.num_actions > last + 1:
            core.undo()
        return self._game._moves[core.undo()]

    def determinize(self: StateT, player: int, seed: int | None = None) -> StateT:
        """A world consistent with everything ``player`` may know: what he cannot see
        (opponents' face-down values, hidden hands...) is redrawn at random from what
        remains possible.  It has no undo history (which would hold the truth)."""
        if isinstance(player, bool) or not isinstance(player, int):
            raise TypeError("player must be an int")
        if not 0 <= player < self._game.num_players:
            raise ValueError(f"player must be 0 to {self._game.num_players - 1}")
        world = self._core.determinized(player, check_seed(seed))
        return type(self)(self._game, world, self._auto_chance)

    def invariants(self) -> dict[str, tuple[int, int]]:
        """Conservation checks: name -> (counted, expected); equal in every valid state
        (every piece, card and gold piece accounted for)."""
        raise NotImplementedError

    def copy(self: StateT) -> StateT:
        """An independent copy (history and RNG included)."""
        return type(self)(self._game, self._core.copy(), self._auto_chance)

    def child(self: StateT, move: Move | str) -> StateT:
        """A copy with ``move`` applied; this state is unchanged."""
        other = self.copy()
        other.apply(move)
        return other

    def history_view(self, player: int | None) -> list[tuple[int, str]]:
        """The move log as ``player`` may see it (``None``: a spectator): ``(mover,
        move)`` pairs, the mover a player or :data:`CHANCE`, and a move whose content is
        hidden from him written redacted (Armadora: ``"?@c2"`` for another player's
        face-down warrior)."""
        if player is not None:
            if isinstance(player, bool) or not isinstance(player, int):
                raise TypeError("player must be an int or None")
            if not 0 <= player < self._game.num_players:
                raise ValueError(f"player must be 0 to {self._game.num_players - 1} or None")
        moves = self._game._moves
        return [(mover, self._game._redact(moves[a], mover, player))
                for a, mover in zip(self._core.actions, self._core.movers(), strict=True)]

    @property
    def history(self) -> list[MoveT]:
        """Every action applied since the start, chance outcomes included (whole truth)."""
        moves = cast(list[MoveT], self._game._moves)
        return [moves[a] for a in self._core.actions]

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

    def view(self, player: int | None) -> dict[str, Any]:
        """What ``player`` may see, JSON-ready (``None``: a spectator)."""
        raise NotImplementedError

    def render_svg(self, player: int | None = None) -> str:
        """An SVG picture: ``player=None`` the whole truth, else what ``player`` may see."""
        raise NotImplementedError

    def render_text(self, player: int | None = None) -> str:
        """The board as text: ``player=None`` a spectator's (hidden values redacted, as
        in ``view(None)``), else what ``player`` may see."""
        raise NotImplementedError

    def __str__(self) -> str:
        """The board as a spectator sees it (:meth:`render_text`), like ``print(board)``."""
        return self.render_text()

    def _repr_svg_(self) -> str:
        """The picture Jupyter shows for a state."""
        return self.render_svg(None)

    def _raw(self) -> dict[str, Any]:
        """The whole truth as plain Python values, from the compiled core's ``export``."""
        return self._game._core.export(self._core)

    def _snapshot(self) -> dict[str, Any]:
        """The explicit position saved beside the history in ``to_json``."""
        raise NotImplementedError

    # --- persistence ---

    def to_json(self) -> str:
        """The whole state as JSON text, for a server to persist; restore it with
        :meth:`Game.state_from_json` (or :func:`boardrules.state_from_json`)."""
        doc = {
            "format": STATE_FORMAT,
            "format_version": STATE_FORMAT_VERSION,
            "game": self._game.id,
            "rules_version": self._game.rules_version,
            "options": self._game._options,
            "auto_chance": self._auto_chance,
            "rng": [f"{w:016x}" for w in self._core.rng_state],
            "history": [str(m) for m in self.history],
            "state": self._snapshot(),
        }
        return json.dumps(doc, sort_keys=True, separators=(",", ":"))

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


