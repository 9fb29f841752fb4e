"""Matches between bots: N seeded games, seats rotated, scores with confidence intervals.

>>> from boardrules.arena import play_match
>>> result = play_match("tic_tac_toe", ["greedy", "random"], games=20, seed=1, processes=1)
>>> [bot.games for bot in result.bots]
[20, 20]
>>> result.bots[0].score + result.bots[1].score   # one point per game, shared on a draw
20.0

A bot is a *spec* string (``"random"``, ``"greedy"``, ``"mcts:iterations=1000"``,
``"ismcts:iterations=2000,threads=1"``, ``"alphabeta:depth=3"``), a class or factory
called with ``seed=`` once per seat and game, or an object with ``choose(state)``.  See
:doc:`/arena` for the seat rotation, the scoring rule and the confidence interval, and
for what makes a long match practical: a progress callback (:class:`MatchProgress`),
Ctrl-C returning the finished games, and every game's record written as it finishes.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import inspect
import json
import math
import os
import pickle
import re
import signal
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from boardrules.api import CHANCE, Game, State, check_seed
from boardrules.errors import BoardRulesError
from boardrules.games import as_game_id, load
from boardrules.records import game_record
from boardrules.search.bots import (
    AlphaBetaBot,
    Bot,
    GreedyBot,
    ISMCTSBot,
    MCTSBot,
    RandomBot,
)

#: A game of any kind (the arena plays every registered game).
AnyGame = Game[Any, Any]

__all__ = [
    "BOT_CLASSES",
    "BotResult",
    "BotSpec",
    "GameRecord",
    "MatchProgress",
    "MatchResult",
    "derive_seed",
    "parse_bot",
    "parse_options",
    "play_match",
    "wilson_interval",
]

#: The bot names a spec may use, and the class each one builds.
BOT_CLASSES: Mapping[str, type[Any]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "mcts": MCTSBot,
    "ismcts": ISMCTSBot,
    "alphabeta": AlphaBetaBot,
}
#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054
MATCH_FORMAT = "boardrules-match"
MATCH_FORMAT_VERSION = 1
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


# --- bot specs ---

@dataclass(frozen=True)
class BotSpec:
    """A library bot by name with its constructor options (``parse_bot("mcts:iterations=50")``).

    ``str(spec)`` is the canonical spec text; :meth:`build` makes the bot with a seed.
    """

    name: str
    options: tuple[tuple[str, int | float | str], ...] = ()

    def __str__(self) -> str:
        if not self.options:
            return self.name
        return self.name + ":" + ",".join(
            f"{k}={v if isinstance(v, str) else repr(v)}" for k, v in self.options)

    def build(self, seed: int) -> Bot:
        """The bot, its options passed as keyword arguments (its constructor checks them)."""
        bot: Bot = BOT_CLASSES[self.name](seed=seed, **dict(self.options))
        return bot


def parse_bot(spec: str) -> BotSpec:
    """Read a spec ``"name"`` or ``"name:key=value,key=value"`` (values int or float, or a
    word for an option whose default is a word: ``"ismcts:simultaneous=sequential"``).

    Raises :class:`ValueError` naming an unknown bot, an unknown or repeated option, a
    value that is not a number (nor a word where one is due), or ``seed`` (the match sets
    every bot's seed), and :class:`TypeError` if ``spec`` is not a str.
    """
    if not isinstance(spec, str):
        raise TypeError(f"a bot spec must be a str, not {type(spec).__name__}")
    name, _, rest = spec.strip().partition(":")
    name = name.strip()
    cls = BOT_CLASSES.get(name)
    if cls is None:
        raise ValueError(f"unknown bot {name!r} in spec {spec!r}; "
                         f"bots: {', '.join(BOT_CLASSES)}")
    texts: dict[str, str] = {}
    for item in (part.strip() for part in rest.split(",")) if rest.strip() else ():
        key, eq, text = (s.strip() for s in item.partition("="))
        if not eq or not _NAME.fullmatch(key):
            raise ValueError(f"bot spec {spec!r}: {item!r} is not key=value")
        if key in texts:
            raise ValueError(f"bot spec {spec!r}: option {key!r} given twice")
        texts[key] = text
    # the names first: an option the bot does not take is named as such, whatever its value
    _check_option_names(name, cls, texts)
    options: dict[str, int | float | str] = {}
    for key, text in texts.items():
        if _takes_word(cls, key) and _NAME.fullmatch(text):
            options[key] = text
        else:
            options[key] = _number(text, f"bot spec {spec!r}: option {key!r}")
    return BotSpec(name, tuple(options.items()))


def _takes_word(cls: type[Any], key: str) -> bool:
    """Whether the bot's constructor has a keyword ``key`` whose default is a str (its
    value in a spec is then a word, like ``simultaneous=sequential``)."""
    try:
        param = inspect.signature(cls).parameters.get(key)
    except (TypeError, ValueError):
        return False
    return param is not None and isinstance(param.default, str)


def _number(text: str, where: str) -> int | float:
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"{where}: {text!r} is not a number") from None


def _check_option_names(name: str, cls: type[Any], options: Mapping[str, object]) -> None:
    """Refuse an option the bot's constructor does not take (when it names its keywords;
    the values are the constructor's to check)."""
    if "seed" in options:
        raise ValueError(f"bot {name!r}: seed is set by the match seed, not by the spec")
    params = inspect.signature(cls).parameters
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return
    known = [k for k, p in params.items()
             if k != "seed" and p.kind in (inspect.Parameter.KEYWORD_ONLY,
                                           inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    unknown = [k for k in options if k not in known]
    if unknown:
        raise ValueError(f"bot {name!r} has no option {', '.join(map(repr, unknown))}; "
                         f"its options: {', '.join(known) or 'none'}")


def parse_options(items: Sequence[str]) -> dict[str, Any]:
    """Game options from ``key=value`` strings (``["players=4", "variant=advanced"]``):
    an int, a float, ``true``/``false`` or else the text (ValueError on a malformed or
    repeated item)."""
    options: dict[str, Any] = {}
    for item in items:
        key, eq, text = (s.strip() for s in item.partition("="))
        if not eq or not _NAME.fullmatch(key):
            raise ValueError(f"option {item!r} is not key=value")
        if key in options:
            raise ValueError(f"option {key!r} given twice")
        if text.lower() in ("true", "false"):
            options[key] = text.lower() == "true"
        else:
            try:
                options[key] = _number(text, key)
            except ValueError:
                options[key] = text
    return options


@dataclass(frozen=True)
class _Maker:
    """How one bot of the match is made for a seat of a game (picklable when its parts
    are): from a spec, from a factory called with ``seed=`` (or with nothing), or as a
    fresh copy of a given object."""

    label: str
    spec: BotSpec | None = None
    factory: Callable[..., Any] | None = None
    takes_seed: bool = False
    prototype: Any = None

    def make(self, seed: int) -> Bot:
        if self.spec is not None:
            return self.spec.build(seed)
        if self.factory is not None:
            bot = self.factory(seed=seed) if self.takes_seed else self.factory()
            if not callable(getattr(bot, "choose", None)):
                raise TypeError(f"bot {self.label!r}: the factory returned "
                                f"{type(bot).__name__}, which has no choose(state)")
            made: Bot = bot
            return made
        # a copy per seat and game: the object's state never carries from one game to
        # the next, so the result does not depend on which process plays which game
        try:
            fresh: Bot = copy.deepcopy(self.prototype)
        except Exception as exc:  # copying fails in many ways (TypeError, PicklingError...)
            raise TypeError(f"bot {self.label!r} cannot be copied for each game ({exc}); "
                            f"pass its class or a factory taking seed= instead") from None
        return fresh


def _maker(bot: object) -> _Maker:
    if isinstance(bot, str):
        spec = parse_bot(bot)
        return _Maker(str(spec), spec=spec)
    if isinstance(bot, BotSpec):
        cls = BOT_CLASSES.get(bot.name)
        if cls is None:
            raise ValueError(f"unknown bot {bot.name!r}; bots: {', '.join(BOT_CLASSES)}")
        _check_option_names(bot.name, cls, dict(bot.options))
        return _Maker(str(bot), spec=bot)
    if not isinstance(bot, type) and callable(getattr(bot, "choose", None)):
        return _Maker(type(bot).__name__, prototype=bot)
    if callable(bot):
        return _Maker(getattr(bot, "__name__", type(bot).__name__), factory=bot,
                      takes_seed=_takes_seed(bot))
    raise TypeError(f"a bot is a spec string, an object with choose(state) or a factory, "
                    f"not {type(bot).__name__}")


def _takes_seed(factory: Callable[..., Any]) -> bool:
    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):  # a builtin without a signature: try the keyword
        return True
    return "seed" in params or any(p.kind is inspect.Parameter.VAR_KEYWORD
                                   for p in params.values())


# --- seeds and scores ---

def derive_seed(seed: int, *parts: int | str) -> int:
    """A 64-bit seed derived from the match seed and ``parts`` (the game index; a seat):
    ``derive_seed(seed, g)`` seeds game ``g``, ``derive_seed(seed, g, "seat", s)`` the
    bot in seat ``s`` of game ``g``.  The same on every platform and in every process."""
    text = ":".join(str(p) for p in ("boardrules-arena", seed, *parts))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")


def _points(winners: Sequence[int], seats: Sequence[int], num_bots: int) -> tuple[float, ...]:
    """Each bot's result in a game: 1 if only its seats are among the winners, 0.5 if
    its seats share first place with another bot's (a draw), 0 if none of its seats won."""
    winning = {seats[p] for p in winners} or set(range(num_bots))
    shared = len(winning) > 1
    return tuple((0.5 if shared else 1.0) if b in winning else 0.0 for b in range(num_bots))


def wilson_interval(score: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a score rate ``score / games`` (draws counted as half
    a success), at ``z`` (default: 95%).  With draws it is conservative: a half point
    varies less than a win-or-loss, so the true interval is a little narrower."""
    if games <= 0:
        return (0.0, 1.0)
    p = score / games
    z2 = z * z
    denom = 1 + z2 / games
    centre = (p + z2 / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


# --- results ---

@dataclass(frozen=True)
class GameRecord:
    """One game of a match.

    * ``index`` -- the game number ``g``; ``seed`` -- its ``new_game`` seed
      (``derive_seed(match seed, g)``): ``game.new_game(seed=record.seed)`` replays its setup;
    * ``seats`` -- the bot (index into the match's bots) in each seat;
    * ``winners`` -- the winning players (``outcome.winners``); ``points`` -- each bot's
      result (1, 0.5 or 0);
    * ``length`` -- the players' moves (chance outcomes not counted);
    * ``moves`` / ``seconds`` -- each bot's moves and its time in ``choose`` in seconds.
    """

    index: int
    seed: int
    seats: tuple[int, ...]
    winners: tuple[int, ...]
    points: tuple[float, ...]
    length: int
    moves: tuple[int, ...]
    seconds: tuple[float, ...]


@dataclass(frozen=True)
class MatchProgress:
    """Where a running match stands: what :func:`play_match` passes its ``progress``
    callback, once when the games start (``done`` 0, ``record`` None) and then after each
    finished game, in the order the games finish.

    * ``done`` / ``total`` -- the games finished so far and the games of the match;
    * ``bots`` -- each bot's label (as in :attr:`MatchResult.specs`); ``scores`` -- each
      bot's score over the finished games (wins plus half the draws);
    * ``elapsed`` -- seconds since the games started;
    * ``record`` -- the game that has just finished.
    """

    done: int
    total: int
    bots: tuple[str, ...]
    scores: tuple[float, ...]
    elapsed: float
    record: GameRecord | None = None

    @property
    def seconds_left(self) -> float | None:
        """The time the other games should take at the pace so far (None before the
        first game ends)."""
        if self.done == 0:
            return None
        return self.elapsed / self.done * (self.total - self.done)


@dataclass(frozen=True)
class BotResult:
    """One bot's results over a match.

    ``score`` is wins plus half the draws (a draw: first place shared with another bot);
    ``score_rate`` is ``score / games`` and ``ci_low``/``ci_high`` its 95% Wilson interval;
    ``moves`` counts its moves over the match and ``mean_move_seconds`` its mean time per
    move in ``choose``.
    """

    bot: str
    games: int
    score: float
    score_rate: float
    ci_low: float
    ci_high: float
    wins: int
    draws: int
    losses: int
    moves: int
    mean_move_seconds: float


@dataclass(frozen=True)
class MatchResult:
    """The result of :func:`play_match`: the settings, one :class:`BotResult` per bot (in
    the order given), the mean game length in moves, and every :class:`GameRecord` in
    the order of the games.

    ``str(result)`` is :meth:`table`; :meth:`to_json` / :meth:`from_json` round-trip.
    Apart from the times, the result is the same for the same settings however many
    processes play it.  ``interrupted`` is True when Ctrl-C stopped the match: ``games``
    and the figures then count the games that had finished.
    """

    game: str
    options: dict[str, Any]
    players: int
    games: int
    seed: int
    specs: tuple[str, ...]
    bots: tuple[BotResult, ...]
    mean_game_length: float
    records: tuple[GameRecord, ...] = field(repr=False)
    interrupted: bool = False

    def table(self) -> str:
        """A plain-text table, one row per bot (its title says when the match was
        interrupted)."""
        opts = ", ".join(f"{k}={v}" for k, v in self.options.items())
        title = f"{self.game} ({opts})" if opts else self.game
        stopped = " (interrupted)" if self.interrupted else ""
        lines = [f"{title}: {self.games} games{stopped}, seed {self.seed}, "
                 f"{self.players} players, mean length {self.mean_game_length:.1f} moves"]
        header = ["#", "bot", "games", "score", "rate", "95% CI", "W", "D", "L", "s/move"]
        rows = [[str(i), b.bot, str(b.games), f"{b.score:g}", f"{b.score_rate:.3f}",
                 f"{b.ci_low:.3f}-{b.ci_high:.3f}", str(b.wins), str(b.draws), str(b.losses),
                 f"{b.mean_move_seconds:.3g}"] for i, b in enumerate(self.bots)]
        widths = [max(len(r[c]) for r in [header, *rows]) for c in range(len(header))]
        for r in [header, *rows]:
            cells = [r[c].ljust(widths[c]) if c == 1 else r[c].rjust(widths[c])
                     for c in range(len(header))]
            lines.append("  ".join(cells).rstrip())
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready data (tuples become lists) with a format name and version."""
        return {"format": MATCH_FORMAT, "format_version": MATCH_FORMAT_VERSION,
                **json.loads(json.dumps(asdict(self)))}

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.as_dict(), indent=indent)

    @classmethod
    def from_dict(cls, doc: Mapping[str, Any]) -> MatchResult:
        """The result back from :meth:`as_dict` (ValueError on another format)."""
        if doc.get("format") != MATCH_FORMAT or doc.get("format_version") != MATCH_FORMAT_VERSION:
            raise ValueError(f"not a {MATCH_FORMAT} version {MATCH_FORMAT_VERSION} document")
        # a document written before matches could be interrupted has no such key
        interrupted = doc.get("interrupted", False)
        if not isinstance(interrupted, bool):
            raise ValueError("malformed match result: interrupted must be true or false")
        try:
            return cls(
                game=doc["game"], options=dict(doc["options"]), players=doc["players"],
                games=doc["games"], seed=doc["seed"], specs=tuple(doc["specs"]),
                bots=tuple(BotResult(**b) for b in doc["bots"]),
                mean_game_length=doc["mean_game_length"],
                records=tuple(GameRecord(**_tuples(r)) for r in doc["records"]),
                interrupted=interrupted)
        except (KeyError, TypeError) as exc:
            raise ValueError(f"malformed match result: {exc}") from None

    @classmethod
    def from_json(cls, text: str) -> MatchResult:
        return cls.from_dict(json.loads(text))


def _tuples(record: Mapping[str, Any]) -> dict[str, Any]:
    return {k: tuple(v) if isinstance(v, list) else v for k, v in record.items()}


# --- playing ---

def play_match(game: str | AnyGame, bots: Sequence[object], games: int = 100,
               seed: int | None = 0,
               processes: int | None = None,
               options: Mapping[str, Any] | None = None,
               progress: Callable[[MatchProgress], object] | None = None,
               records_dir: str | os.PathLike[str] | None = None) -> MatchResult:
    """Play ``games`` games of ``game`` between ``bots``, seats rotated.

    * ``game`` -- a game id (loaded with ``options``) or a :class:`~boardrules.Game`;
    * ``bots`` -- at least two, their number dividing the number of players; game ``g``
      puts bot ``(s + g) % len(bots)`` in seat ``s``;
    * ``seed`` -- the match seed (``None``: a fresh one, recorded in the result); game
      ``g`` and each of its seats get seeds derived from it (:func:`derive_seed`);
    * ``processes`` -- worker processes (default ``os.cpu_count()``); ``1`` plays in this
      process, which a bot that cannot be pickled needs;
    * ``progress`` -- called in this process with a :class:`MatchProgress` when the games
      start and after each finished game, as they finish (with several processes, not in
      game order); an exception it raises stops the match and propagates;
    * ``records_dir`` -- a directory (made if missing, holding no game records yet) where
      each finished game's whole record (:func:`boardrules.records.game_record`, viewer
      ``"all"``) is written as it finishes: game ``g`` to ``game-{g + 1:05d}.json``.

    Ctrl-C (:class:`KeyboardInterrupt`) while the games are played stops the match at
    once: the games not started are cancelled, those under way dropped (the worker
    processes are terminated), and the result of the finished games is *returned*, with
    ``interrupted=True``.  Raises ValueError / TypeError on a bad argument before any
    game is played.
    """
    the_game = _resolve_game(game, options)
    makers = [_maker(b) for b in _bot_list(bots)]
    _check_seating(the_game, len(makers))
    _check_games(games)
    match_seed = check_seed(seed)
    workers = min(_processes(processes), games)
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be a callable or None, not {type(progress).__name__}")
    records = _records_dir(records_dir)
    _build_each_once(makers)
    if workers > 1:
        _check_picklable(type(the_game), makers)
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    collector = _Collector(games, tuple(m.label for m in makers), progress, records)
    tasks = [(g, match_seed, records is not None) for g in range(games)]
    interrupted = False
    try:
        if workers == 1:
            _play_here(the_game, makers, tasks, collector)
        else:
            _play_in_pool(the_game, makers, tasks, workers, collector)
    except KeyboardInterrupt:
        collector.settle()
        interrupted = True
    return _summarise(the_game, makers, match_seed, collector.finished(), interrupted)


def _resolve_game(game: str | AnyGame, options: Mapping[str, Any] | None) -> AnyGame:
    if isinstance(game, Game):
        if options:
            raise ValueError("options apply to a game id; this Game has its options fixed")
        return game
    if isinstance(game, str):
        if options is not None and not isinstance(options, Mapping):
            raise TypeError("options must be a mapping of option names to values")
        return load(as_game_id(game), **dict(options or {}))
    raise TypeError(f"game must be a game id or a Game, not {type(game).__name__}")


def _bot_list(bots: Sequence[object]) -> list[object]:
    if isinstance(bots, str) or not isinstance(bots, Sequence):
        raise TypeError("bots must be a sequence (a list of specs, bots or factories)")
    return list(bots)


def _check_seating(game: AnyGame, num_bots: int) -> None:
    if num_bots < 2:
        raise ValueError("a match needs at least two bots")
    if game.num_players % num_bots:
        raise ValueError(f"{num_bots} bots cannot share the {game.num_players} seats of "
                         f"{game.id} equally: the number of bots must divide the players")


def _check_games(games: int) -> None:
    if isinstance(games, bool) or not isinstance(games, int):
        raise TypeError("games must be an int")
    if games < 1:
        raise ValueError("games must be at least 1")


def _build_each_once(makers: Sequence[_Maker]) -> None:
    """Build each bot once, so that bad options fail before any game is played."""
    for i, maker in enumerate(makers):
        try:
            maker.make(0)
        except (ValueError, TypeError, BoardRulesError) as exc:
            raise _with_context(exc, f"bot {i} ({maker.label}): {exc}") from exc


def _processes(processes: int | None) -> int:
    if processes is None:
        return os.cpu_count() or 1
    if isinstance(processes, bool) or not isinstance(processes, int):
        raise TypeError("processes must be an int or None")
    if processes < 1:
        raise ValueError("processes must be at least 1")
    return processes


def _check_picklable(game_class: type[AnyGame], makers: Sequence[_Maker]) -> None:
    """The worker processes rebuild the game from its class and options and get the bots'
    makers: all must pickle (a class pickles by its importable name)."""
    try:
        pickle.dumps(game_class)
    except Exception as exc:  # pickling fails in many ways (PicklingError, TypeError...)
        raise TypeError(f"the game class {game_class.__name__} cannot be pickled for the "
                        f"worker processes ({exc}); define it at module level or play "
                        f"with processes=1") from None
    for i, maker in enumerate(makers):
        try:
            pickle.dumps(maker)
        except Exception as exc:  # pickling fails in many ways (PicklingError, TypeError...)
            raise TypeError(
                f"bot {i} ({maker.label}) cannot be pickled for the worker processes "
                f"({exc}); define it at module level or play with processes=1") from None


#: A game to play: its index, the match seed, and whether to return its whole record.
_Task = tuple[int, int, bool]
#: A finished game: its summary, and its whole record as JSON text when it was asked for.
_Played = tuple[GameRecord, "str | None"]


def _play_here(game: AnyGame, makers: Sequence[_Maker], tasks: Sequence[_Task],
               collector: _Collector) -> None:
    """Every game in this process, one after the other."""
    collector.start()
    for task in tasks:
        collector.add(*_play_game(game, makers, *task))


def _play_in_pool(game: AnyGame, makers: Sequence[_Maker], tasks: Sequence[_Task],
                  workers: int, collector: _Collector) -> None:
    """Every game in worker processes, handed to the collector as they finish.

    The games go out in batches of consecutive games, two per worker at a time (one
    playing, one waiting), each as many games as take about :data:`BATCH_SECONDS` at the
    pace so far: one at a time when games are slow, so the progress moves with each,
    many when they are quick, so that handing them over costs little; and a long match
    never holds a future per game.  On any exception (Ctrl-C included) the workers are
    ended at once, mid-game: waiting for the games under way could take as long as the
    games do."""
    pool = ProcessPoolExecutor(workers, initializer=_init_worker,
                               initargs=(type(game), dict(game.options), list(makers)))
    waiting = deque(tasks)
    running: set[Future[_Batch]] = set()
    pace = _Pace()
    done = False
    try:
        for _ in range(2 * workers):
            running |= _submit(pool, waiting, 1)
        collector.start()  # after the first submissions: the workers exist from here on
        while running:
            finished, running = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                played, seconds = future.result()
                for summary, record_text in played:
                    collector.add(summary, record_text)
                pace.add(len(played), seconds)
                running |= _submit(pool, waiting, pace.batch_size(len(waiting), workers))
        done = True
    finally:
        if done:
            pool.shutdown()
        else:
            _stop_now(pool, running)


#: A batch of games sent to a worker should take about this long (seconds): long enough
#: that sending it and its results costs little, short enough that the progress moves.
BATCH_SECONDS = 0.05
#: A batch's games and the seconds the worker took over them.
_Batch = tuple[list[_Played], float]


class _Pace:
    """The seconds a game takes in a worker, over the batches so far."""

    def __init__(self) -> None:
        self.games = 0
        self.seconds = 0.0

    def add(self, games: int, seconds: float) -> None:
        self.games += games
        self.seconds += seconds

    def batch_size(self, waiting: int, workers: int) -> int:
        """Games for the next batch: :data:`BATCH_SECONDS` of them at this pace, but no
        more than a share of those left (so the workers finish together), and one when
        games are slow."""
        per_game = self.seconds / self.games if self.games else BATCH_SECONDS
        wanted = int(BATCH_SECONDS / per_game) if per_game > 0 else waiting
        return max(1, min(wanted, waiting // (2 * workers)))


def _submit(pool: ProcessPoolExecutor, waiting: deque[_Task], size: int) -> set[Future[_Batch]]:
    """The next ``size`` waiting games sent to the pool as one batch (none left: nothing)."""
    batch = [waiting.popleft() for _ in range(min(size, len(waiting)))]
    return {pool.submit(_play_remote, batch)} if batch else set()


def _stop_now(pool: ProcessPoolExecutor, futures: Iterable[Future[_Batch]]) -> None:
    """Cancel the batches not started and end the workers without waiting for theirs."""
    for future in futures:
        future.cancel()
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14 and later
    # before 3.14 the pool does not name its processes publicly; ending them makes its
    # manager thread find the pool broken and let go of it as terminate_workers does
    workers = list((getattr(pool, "_processes", None) or {}).values())
    if callable(terminate):
        terminate()
    else:
        pool.shutdown(wait=False, cancel_futures=True)
        for process in workers:
            process.terminate()
    # and any the pool had not yet listed when it was asked (a worker it was starting)
    workers += [p for p in (getattr(pool, "_processes", None) or {}).values()
                if p not in workers]
    deadline = time.monotonic() + 0.5
    for process in workers:
        process.join(max(0.0, deadline - time.monotonic()))
        if process.is_alive():  # a bot of its own kept SIGTERM from ending it
            process.kill()
            process.join()


class _Collector:
    """The parent's side of a match: keeps each finished game, writes its record and
    reports the progress."""

    def __init__(self, total: int, bots: tuple[str, ...],
                 progress: Callable[[MatchProgress], object] | None,
                 records_dir: Path | None) -> None:
        self.total = total
        self.bots = bots
        self.progress = progress
        self.records_dir = records_dir
        self.games: dict[int, GameRecord] = {}
        self.scores = [0.0] * len(bots)
        self.started = time.perf_counter()
        self._adding: GameRecord | None = None

    def start(self) -> None:
        self.started = time.perf_counter()
        self._report(None)

    def add(self, game: GameRecord, record_text: str | None) -> None:
        self._adding = game
        if self.records_dir is not None and record_text is not None:
            _write_atomic(self._record_path(game.index), record_text)
        self.games[game.index] = game
        self._adding = None
        self.scores = [score + points for score, points in zip(self.scores, game.points,
                                                                  strict=True)]
        self._report(game)

    def settle(self) -> None:
        """After Ctrl-C: the game being added when it came counts if its record was
        written (the rename is atomic), so the files and the result always agree."""
        game, self._adding = self._adding, None
        if game is None:
            return
        if self.records_dir is None or self._record_path(game.index).exists():
            self.games[game.index] = game
        else:
            self.games.pop(game.index, None)

    def finished(self) -> list[GameRecord]:
        """The finished games in game order (whatever order they finished in)."""
        return [self.games[index] for index in sorted(self.games)]

    def _record_path(self, index: int) -> Path:
        assert self.records_dir is not None
        return self.records_dir / f"game-{index + 1:05d}.json"

    def _report(self, game: GameRecord | None) -> None:
        if self.progress is not None:
            self.progress(MatchProgress(
                done=len(self.games), total=self.total, bots=self.bots,
                scores=tuple(self.scores), elapsed=time.perf_counter() - self.started,
                record=game))


def _records_dir(records_dir: str | os.PathLike[str] | None) -> Path | None:
    """The records directory, checked (it is made only once every argument is)."""
    if records_dir is None:
        return None
    if not isinstance(records_dir, (str, os.PathLike)):
        raise TypeError(f"records_dir must be a path or None, not {type(records_dir).__name__}")
    path = Path(records_dir)
    if path.exists() and not path.is_dir():
        raise ValueError(f"records_dir {str(path)!r} is not a directory")
    if path.is_dir():
        # a match's records beside another's would read as one match
        old = sorted(path.glob("game-*.json"))
        if old:
            raise ValueError(f"records_dir {str(path)!r} already holds game records "
                             f"({old[0].name}, ...); give an empty or a new directory")
    return path


def _write_atomic(path: Path, text: str) -> None:
    """Write then rename, so that no one (nor a match stopped mid-write) finds half a
    record under the record's name."""
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


_WORKER: dict[str, Any] = {}


def _init_worker(game_class: Callable[..., AnyGame], options: dict[str, Any],
                 makers: list[_Maker]) -> None:
    # Ctrl-C at a terminal signals the whole process group; the parent alone decides
    # what it means (it ends the workers itself), so a worker never dies of it mid-reply
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER["game"] = game_class(**options)
    _WORKER["makers"] = makers


def _play_remote(batch: list[_Task]) -> _Batch:
    start = time.perf_counter()
    played = [_play_game(_WORKER["game"], _WORKER["makers"], *task) for task in batch]
    return played, time.perf_counter() - start


def _play_game(game: AnyGame, makers: Sequence[_Maker], index: int, match_seed: int,
               keep_record: bool = False) -> _Played:
    """Game ``index`` of the match, one freshly made bot per seat; with ``keep_record``
    also its whole record as JSON (made here, where the state is)."""
    k = len(makers)
    seats = tuple((s + index) % k for s in range(game.num_players))
    players = [makers[b].make(derive_seed(match_seed, index, "seat", s))
               for s, b in enumerate(seats)]
    game_seed = derive_seed(match_seed, index)
    state = game.new_game(seed=game_seed)
    actions = len(state.history)
    moves = [0] * k
    seconds = [0.0] * k
    while not state.is_terminal():
        player = state.current_player
        if player == CHANCE:  # auto_chance draws these itself; a game may still stop here
            state.apply_random_chance()
        else:
            bot = seats[player]
            view = state.copy()  # whatever the bot does to its copy, the game goes on
            start = time.perf_counter()
            move = players[player].choose(view)
            seconds[bot] += time.perf_counter() - start
            moves[bot] += 1
            _apply(state, move, player, makers[bot].label, index)
        actions = len(state.history)
        if actions > game.max_game_length:
            raise RuntimeError(f"game {index} of {game.id} ran past max_game_length "
                               f"({game.max_game_length}): a defect of the rules core")
    outcome = state.outcome()
    assert outcome is not None
    summary = GameRecord(index=index, seed=game_seed, seats=seats,
                         winners=tuple(outcome.winners),
                         points=_points(outcome.winners, seats, k), length=sum(moves),
                         moves=tuple(moves), seconds=tuple(seconds))
    text = None
    if keep_record:
        text = json.dumps(_whole_record(state, [makers[b].label for b in seats], game_seed))
    return summary, text


def _whole_record(state: State[Any], players: list[str], seed: int) -> dict[str, Any]:
    """``game_record(state, "all")``, with who sat where and the game's seed when the
    records module takes them."""
    given: dict[str, Any] = {"players": players, "seed": seed}
    extra = {name: value for name, value in given.items() if name in _record_keywords()}
    return game_record(state, "all", **extra)


@functools.cache
def _record_keywords() -> frozenset[str]:
    return frozenset(inspect.signature(game_record).parameters)


def _apply(state: State[Any], move: object, player: int, label: str, index: int) -> None:
    try:
        state.apply(move, player=player)
    except (ValueError, TypeError) as exc:
        message = (f"game {index}: bot {label!r} in seat {player} chose {move!r}, "
                   f"which cannot be played: {exc}")
        raise _with_context(exc, message) from exc


def _with_context(exc: Exception, message: str) -> Exception:
    """``exc``'s class with a message saying where it happened (its base class if that
    class takes other arguments)."""
    try:
        return type(exc)(message)
    except Exception:
        return TypeError(message) if isinstance(exc, TypeError) else ValueError(message)


def _summarise(game: AnyGame, makers: Sequence[_Maker], seed: int,
               records: Sequence[GameRecord], interrupted: bool = False) -> MatchResult:
    games = len(records)  # none when Ctrl-C came before the first game ended
    results = []
    for b, maker in enumerate(makers):
        points = [r.points[b] for r in records]
        score = sum(points)
        moves = sum(r.moves[b] for r in records)
        low, high = wilson_interval(score, games)
        results.append(BotResult(
            bot=maker.label, games=games, score=score,
            score_rate=score / games if games else 0.0,
            ci_low=low, ci_high=high, wins=points.count(1.0), draws=points.count(0.5),
            losses=points.count(0.0), moves=moves,
            mean_move_seconds=sum(r.seconds[b] for r in records) / moves if moves else 0.0))
    return MatchResult(
        game=game.id, options=dict(game.options), players=game.num_players,
        games=games, seed=seed, specs=tuple(m.label for m in makers), bots=tuple(results),
        mean_game_length=sum(r.length for r in records) / games if games else 0.0,
        records=tuple(records), interrupted=interrupted)
