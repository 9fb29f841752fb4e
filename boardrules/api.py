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
import hashlib
import hmac
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
#: Version 2 added ``rng_start`` and ``drawn`` (the RNG a restored game really had).
STATE_FORMAT_VERSION = 2
#: The optional field holding a save's keyed signature (see :meth:`State.to_json`).
SIGNATURE_FIELD = "signature"
MAX_STATE_JSON_BYTES = 1_000_000

StateT = TypeVar("StateT", bound="State[Any]")
MoveT = TypeVar("MoveT", bound="Move")
#: The state and move types of a :class:`Game` (``Game[ArmadoraState, ArmadoraMove]``).
GameStateT = TypeVar("GameStateT", bound="State[Any]", covariant=True)
GameMoveT = TypeVar("GameMoveT", bound="Move")


class Termination(enum.Enum):
    """Why a game ended."""

    #: Armadora: every player has ended (passed) -- rule 4, end of the game.
    ALL_PASSED = "all_passed"
    #: Tic-tac-toe, Connect Four: the last move completed a line (three or four in a row).
    LINE = "line"
    #: Tic-tac-toe, Connect Four: the board is full and no line was completed (a draw).
    BOARD_FULL = "board_full"
    #: Pig: a player's score and turn total reached the target (he wins at once).
    TARGET_REACHED = "target_reached"
    #: Pig: the last turn was played; the higher score wins, equal scores draw.
    TURN_LIMIT = "turn_limit"
    #: Rome & Carthage: a team held both enemy capitals for a complete turn.
    CAPITALS = "capitals"
    #: Rome & Carthage: the other team has no army left.
    ELIMINATION = "elimination"
    #: Rome & Carthage (library rule): rounds without battle, elimination, Uprising or
    #: change of a capital's holder -- the evasion draw made operational (a draw).
    NO_PROGRESS = "no_progress"
    #: Rome & Carthage, Albion, Armada (library rule): the hard round cap was reached (a draw).
    ROUND_CAP = "round_cap"
    #: Rome & Carthage, Rapid Conquest: the other team is down to 5 armies or fewer.
    ARMY_REDUCED = "army_reduced"
    #: Rome & Carthage, Rapid Conquest: an opponent is down to 3 armies or fewer and his
    #: ally's capital was held for a complete turn.
    WEAK_AND_CAPITAL = "weak_and_capital"
    #: Albion: a player completed three stage IV settlements and the round was finished.
    THREE_SETTLEMENTS = "three_settlements"
    #: Armada: a colour was in a victory situation at the end of two of its turns in a
    #: row (announced, then confirmed): its player is master of the archipelago.
    MASTERY = "mastery"


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
    #: margins sets a lower one (Albion: 0.02, with rollouts cut at once).
    exploration: ClassVar[float | None] = None
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
    def core(self) -> CoreGame:
        """The compiled game (the C-level contract), for the search core and benchmarks."""
        return self._core

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

    # --- states ---

    def new_game(self, seed: int | None = None, auto_chance: bool = True) -> GameStateT:
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
        return self._state(core, auto_chance)

    def _state(self, core: CoreState, auto_chance: bool) -> GameStateT:
        """The game's own State around ``core`` (``state_class`` is a ClassVar, which a
        type variable cannot annotate: the cast is where the two meet)."""
        return cast(GameStateT, self.state_class(self, core, auto_chance))

    # --- moves ---

    def parse_move(self, text: str) -> GameMoveT:
        """The move written ``text`` in the game's notation (:class:`InvalidMoveError`
        if it is not a move of this game).  Legality is checked by ``State.apply``."""
        if not isinstance(text, str):
            raise TypeError(f"move text must be a str, not {type(text).__name__}")
        return self._parse(text)

    def _parse(self, text: str) -> GameMoveT:
        what = f"not {_indefinite_article(self.name)} {self.name} move"
        if len(text) > self.max_move_text:
            raise InvalidMoveError(f"{what}: {text[:self.max_move_text]!r}... (too long)")
        move = self._by_text.get(self._normalise(text))
        if move is None:
            raise InvalidMoveError(f"{what}: {text!r} ({self.notation_hint})")
        return move

    def _normalise(self, text: str) -> str:
        """The key of ``_by_text`` for a spelling of a move (lower case, single spaces)."""
        return " ".join(text.lower().split())

    def move(self, action: int) -> GameMoveT:
        """The move with action id ``action``."""
        if isinstance(action, bool) or not isinstance(action, int):
            raise TypeError("action must be an int")
        if not 0 <= action < len(self._moves):
            raise InvalidMoveError(f"action {action} is out of range for {self.id}")
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
                raise InvalidMoveError("a forged move: its action id is out of range")
            text = getattr(move, "_text", None)
            shown = repr(text) if type(text) is str else "(no notation)"
            raise InvalidMoveError(f"{type(move).__name__} {shown} is a move of another game "
                                   "or other options")
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
        core = self._core.new_state()
        history = doc["history"]
        _expect(len(history) <= self.max_game_length, "history is longer than any game")
        drawn = doc["drawn"]
        _expect(drawn == sorted(set(drawn)) and all(0 <= i < len(history) for i in drawn),
                "drawn must list history indices, ascending, without repeats")
        try:
            core.rng_start = tuple(int(w, 16) for w in doc["rng_start"])
        except ValueError as exc:
            raise InvalidStateError(f"rng_start: {exc}") from None
        self._replay(core, history, set(drawn), auto_chance)
        _expect(core.rng_state == tuple(int(w, 16) for w in doc["rng"]),
                "rng is not what the saved starting RNG and its draws give")
        if auto_chance and core.current_player == CHANCE:
            raise InvalidStateError("auto_chance state stopped at a chance node")
        state = self._state(core, auto_chance)
        _compare_snapshot(doc["state"], state._snapshot(), "state")
        return state

    def _replay(self, core: CoreState, history: list[str], drawn: set[int],
                auto_chance: bool) -> None:
        """Apply a saved history to a new core state, each move checked by the rules;
        the outcomes in ``drawn`` are drawn again from the core's RNG (an auto-chance game
        draws every chance outcome itself)."""
        for i, text_move in enumerate(history):
            try:
                action = self._action_of(text_move)
            except InvalidMoveError as exc:
                raise InvalidStateError(f"history[{i}]: {exc}") from None
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


def _indefinite_article(word: str) -> str:
    """``"an"`` before a vowel (an Armadora move), else ``"a"`` (a Pig move)."""
    return "an" if word[:1].lower() in ("a", "e", "i", "o", "u") else "a"


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


def _canonical(doc: Mapping[str, Any]) -> bytes:
    """The bytes a save's signature covers: the document without its signature, with
    sorted keys and no spaces."""
    return _compact_json({k: v for k, v in doc.items() if k != SIGNATURE_FIELD}).encode("utf-8")


def _compact_json(doc: Mapping[str, Any]) -> str:
    """A saved document as text: sorted keys, no spaces (what is saved and signed)."""
    return json.dumps(doc, sort_keys=True, separators=(",", ":"))


def _check_key(key: object) -> bytes:
    if not isinstance(key, bytes | bytearray):
        raise TypeError(f"a signing key is bytes, not {type(key).__name__}")
    if len(key) < 16:
        raise ValueError("a signing key needs at least 16 bytes")
    return bytes(key)


def sign_document(doc: Mapping[str, Any], key: bytes) -> str:
    """HMAC-SHA256 of a saved document (hex), the signature :meth:`State.to_json` adds."""
    return hmac.new(_check_key(key), _canonical(doc), hashlib.sha256).hexdigest()


def _parse_state_json(text: str | bytes, key: bytes | None = None) -> dict[str, Any]:
    """Decode and check the envelope of a saved state (and its signature, with ``key``)."""
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise InvalidStateError("saved state is not UTF-8") from None
    if not isinstance(text, str):
        raise TypeError(f"a saved state is JSON text, not {type(text).__name__}")
    size = len(text.encode("utf-8", "surrogatepass")) if len(text) <= MAX_STATE_JSON_BYTES else -1
    if not 0 <= size <= MAX_STATE_JSON_BYTES:
        raise InvalidStateError("saved state is too large")
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise InvalidStateError(f"not JSON: {exc}") from None
    _expect(isinstance(doc, dict), "a saved state is a JSON object")
    if key is not None:
        signature = doc.get(SIGNATURE_FIELD)
        _expect(isinstance(signature, str), "the save is not signed")
        # bytes, not str: compare_digest refuses non-ASCII text with a TypeError
        _expect(hmac.compare_digest(signature.encode("utf-8"),
                                    sign_document(doc, key).encode("ascii")),
                "the save's signature does not match: it was changed or signed with "
                "another key")
    expected = {"format", "format_version", "game", "rules_version", "options", "auto_chance",
                "rng_start", "rng", "drawn", "history", "state"}
    _expect(doc.get("format") == STATE_FORMAT, f"format must be {STATE_FORMAT!r}")
    _expect(doc.get("format_version") == STATE_FORMAT_VERSION
            and type(doc.get("format_version")) is int,
            f"format_version must be {STATE_FORMAT_VERSION} (saves of format 1 cannot give "
            "back the RNG their game had; save them again with this version)")
    fields = set(doc) - {SIGNATURE_FIELD}
    _expect(fields == expected, f"fields must be exactly {sorted(expected)}, got {sorted(fields)}")
    _expect(isinstance(doc["auto_chance"], bool), "auto_chance must be true or false")
    for name in ("rng_start", "rng"):
        rng = doc[name]
        _expect(isinstance(rng, list) and len(rng) == 4
                and all(isinstance(w, str) and _HEX_WORD.fullmatch(w) for w in rng),
                f"{name} must be 4 hexadecimal words of 16 digits")
    drawn = doc["drawn"]
    _expect(isinstance(drawn, list) and all(type(i) is int for i in drawn),
            "drawn must be a list of history indices")
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

    def __init__(self, game: Game[Any, MoveT], core: CoreState, auto_chance: bool) -> None:
        self._game = game
        self._core = core
        self._auto_chance = auto_chance

    @property
    def game(self) -> Game[Any, MoveT]:
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

    def chance_outcomes(self) -> list[tuple[MoveT, float]]:
        """[(outcome, probability)] at a chance node, else []."""
        moves = self._game._moves
        return [(moves[a], p) for a, p in self._core.chance_outcomes()]

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

    def apply_random_chance(self, seed: int | None = None) -> MoveT:
        """Draw one outcome at a chance node with its probability and apply it: from the
        state's own RNG, or from a throw-away RNG seeded with ``seed``."""
        if self._core.current_player != CHANCE:
            raise IllegalMoveError("not a chance node", "not_chance")
        if seed is not None:
            seed = check_seed(seed)
        action = self._core.apply_random_chance(seed)
        return self._game._moves[action]

    def undo(self) -> MoveT:
        """Take back the last move and return it.  With ``auto_chance`` the chance
        outcomes drawn automatically after that move are taken back with it."""
        # One call into the core either way: no other thread can see it half undone.
        core = self._core
        action = core.undo_move() if self._auto_chance else core.undo()
        return self._game._moves[action]

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
        if not 0 <= player < self._game.num_players:
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
    def history(self) -> list[MoveT]:
        """Every action applied since the start, chance outcomes included (whole truth)."""
        moves = self._game._moves
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
        """An SVG picture of what ``player`` may see (``None``: a spectator), the same
        redaction as :meth:`view`.  :meth:`render_svg_truth` draws the whole truth."""
        raise NotImplementedError

    def render_svg_truth(self) -> str:
        """An SVG picture of the whole truth, hidden values included (for analysis, never
        for a player).  A game without hidden information draws the spectator's view."""
        if self._game.has_hidden_information:
            raise NotImplementedError
        return self.render_svg(None)

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

    # --- persistence ---

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
        doc: dict[str, Any] = {
            "format": STATE_FORMAT,
            "format_version": STATE_FORMAT_VERSION,
            "game": self._game.id,
            "rules_version": self._game.rules_version,
            "options": self._game._options,
            "auto_chance": self._auto_chance,
            "rng_start": [f"{w:016x}" for w in self._core.rng_start],
            "rng": [f"{w:016x}" for w in self._core.rng_state],
            "drawn": self._core.drawn,
            "history": [str(m) for m in self.history],
            "state": self._snapshot(),
        }
        if key is not None:
            doc[SIGNATURE_FIELD] = sign_document(doc, key)
        return _compact_json(doc)

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


