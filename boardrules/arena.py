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
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from boardrules._runner import BATCH_SECONDS, Backend, Runner, check_backend, check_processes
from boardrules.api import CHANCE, Game, Move, State, check_seed
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
    "BATCH_SECONDS",
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
    word for an option whose default is a word or that the bot lists in its
    ``word_options``: ``"ismcts:simultaneous=sequential"``, ``"ismcts:level=strong"``).

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
    """Whether the bot's constructor has a keyword ``key`` whose default is a str, or the
    class names it among its ``word_options`` (its value in a spec is then a word, like
    ``simultaneous=sequential`` or ``level=strong``)."""
    if key in getattr(cls, "word_options", ()):
        return True
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
class Forfeit:
    """A bot that lost a game by forfeit: ``bot`` (its index in the match's bots, or the
    tournament's field), the ``seat`` it was playing and the ``reason`` (the exception
    its ``choose`` raised, the move that could not be played, or the time it took over
    the limit).  The game stops there: that bot is placed last, the others share first
    place."""

    bot: int
    seat: int
    reason: str


def record_fields(doc: Mapping[str, Any]) -> dict[str, Any]:
    """A game record's JSON object as keyword arguments: lists as tuples, the forfeit as
    a :class:`Forfeit` (TypeError on a forfeit that is not an object)."""
    fields: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v
                              for k, v in doc.items()}
    forfeit = fields.get("forfeit")
    if forfeit is not None:
        if not isinstance(forfeit, Mapping):
            raise TypeError("forfeit must be an object or null")
        fields["forfeit"] = Forfeit(**forfeit)
    return fields


def seconds_left(elapsed: float, done: int, left: int) -> float | None:
    """The time ``left`` more games (or jobs) should take at the pace of the ``done``
    ones in ``elapsed`` seconds (None before the first is done)."""
    if done <= 0:
        return None
    return elapsed / done * left


@dataclass(frozen=True)
class GameRecord:
    """One game of a match.

    * ``index`` -- the game number ``g``; ``seed`` -- its ``new_game`` seed
      (``derive_seed(match seed, g)``): ``game.new_game(seed=record.seed)`` replays its setup;
    * ``seats`` -- the bot (index into the match's bots) in each seat;
    * ``winners`` -- the winning players (``outcome.winners``); ``points`` -- each bot's
      result (1, 0.5 or 0);
    * ``length`` -- the players' moves (chance outcomes not counted);
    * ``moves`` / ``seconds`` -- each bot's moves and its time in ``choose`` in seconds;
    * ``places`` -- each bot's place, 1 best, equal on a tie (its best seat's place in
      ``outcome.ranking``), which tournament ratings use;
    * ``forfeit`` -- the :class:`Forfeit` that ended the game, or None.
    """

    index: int
    seed: int
    seats: tuple[int, ...]
    winners: tuple[int, ...]
    points: tuple[float, ...]
    length: int
    moves: tuple[int, ...]
    seconds: tuple[float, ...]
    places: tuple[int, ...] = ()
    forfeit: Forfeit | None = None

    @classmethod
    def from_dict(cls, doc: Mapping[str, Any]) -> GameRecord:
        """A record back from its JSON form (``dataclasses.asdict``); TypeError or
        KeyError on a malformed one."""
        return cls(**record_fields(doc))


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
        return seconds_left(self.elapsed, self.done, self.total - self.done)


@dataclass(frozen=True)
class BotResult:
    """One bot's results over a match.

    ``score`` is wins plus half the draws (a draw: first place shared with another bot);
    ``score_rate`` is ``score / games`` and ``ci_low``/``ci_high`` its 95% Wilson interval;
    ``moves`` counts its moves over the match and ``mean_move_seconds`` its mean time per
    move in ``choose``; ``forfeits`` counts the games it lost by forfeit (each a loss).
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
    forfeits: int = 0


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
        lines += forfeit_lines(self.specs, [r.forfeit for r in self.records if r.forfeit])
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
                records=tuple(GameRecord.from_dict(r) for r in doc["records"]),
                interrupted=interrupted)
        except (KeyError, TypeError) as exc:
            raise ValueError(f"malformed match result: {exc}") from None

    @classmethod
    def from_json(cls, text: str) -> MatchResult:
        return cls.from_dict(json.loads(text))


def forfeit_lines(bots: Sequence[str], forfeits: Sequence[Forfeit], most: int = 10) -> list[str]:
    """The forfeits of a match or a tournament, for its table (nothing when none)."""
    if not forfeits:
        return []
    lines = [f"forfeits ({len(forfeits)}):"]
    lines += [f"  {bots[f.bot]} (seat {f.seat}): {f.reason}" for f in forfeits[:most]]
    if len(forfeits) > most:
        lines.append(f"  ... and {len(forfeits) - most} more")
    return lines


# --- playing ---

def play_match(game: str | AnyGame, bots: Sequence[object], games: int = 100,
               seed: int | None = 0,
               processes: int | None = None,
               options: Mapping[str, Any] | None = None,
               progress: Callable[[MatchProgress], object] | None = None,
               records_dir: str | os.PathLike[str] | None = None,
               move_time_limit: float | None = None,
               backend: str = "local") -> MatchResult:
    """Play ``games`` games of ``game`` between ``bots``, seats rotated.

    * ``game`` -- a game id (loaded with ``options``) or a :class:`~boardrules.Game`;
    * ``bots`` -- at least two, their number dividing the number of players; game ``g``
      puts bot ``(s + g) % len(bots)`` in seat ``s``;
    * ``seed`` -- the match seed (``None``: a fresh one, recorded in the result); game
      ``g`` and each of its seats get seeds derived from it (:func:`derive_seed`);
    * ``processes`` -- worker processes (default ``os.cpu_count()``, on Ray the
      cluster's CPUs); ``1`` plays in this process, which a bot that cannot be pickled
      needs;
    * ``progress`` -- called in this process with a :class:`MatchProgress` when the games
      start and after each finished game, as they finish (with several processes, not in
      game order); an exception it raises stops the match and propagates;
    * ``records_dir`` -- a directory (made if missing, holding no game records yet) where
      each finished game's whole record (:func:`boardrules.records.game_record`, viewer
      ``"all"``) is written as it finishes: game ``g`` to ``game-{g + 1:05d}.json``;
    * ``move_time_limit`` -- seconds a bot may take over one move (None: no limit); a
      bot over it forfeits the game (see :class:`Forfeit`);
    * ``backend`` -- ``"local"`` (this process or local worker processes) or ``"ray"``
      (Ray actors on the cluster ``ray.init`` joined, or a local one; the same result).

    A bot is handed :func:`fair_state`: a world of what its seat may know, with an RNG
    of its own, so it can neither read a hidden card nor the next die.  A bot that
    raises, returns a move that cannot be played or runs past ``move_time_limit``
    forfeits the game (:class:`Forfeit`, in the game's record), and the match goes on.

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
    runner_backend = check_backend(backend)
    workers = check_processes(processes)
    limit = check_move_time_limit(move_time_limit)
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be a callable or None, not {type(progress).__name__}")
    records = _records_dir(records_dir)
    build_each_once(makers)
    if workers != 1 or runner_backend == "ray":
        check_picklable(type(the_game), makers)
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    collector = _Collector(games, tuple(m.label for m in makers), progress, records)
    table = tuple(range(len(makers)))
    # built one by one as the games go out: a match of any length starts at once
    jobs = (GameJob(table, match_seed, g, records is not None, limit) for g in range(games))
    runner = game_runner(the_game, makers, runner_backend, workers)
    interrupted = False
    try:
        runner.run(jobs, lambda job, played: collector.add(*played), collector.start,
                   count=games)
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


def check_move_time_limit(limit: object) -> float | None:
    """``move_time_limit`` checked: None or a positive finite number of seconds."""
    if limit is None:
        return None
    if isinstance(limit, bool) or not isinstance(limit, (int, float)):
        raise TypeError(f"move_time_limit must be a number of seconds or None, "
                        f"not {type(limit).__name__}")
    if not math.isfinite(limit) or limit <= 0:
        raise ValueError(f"move_time_limit must be a positive number of seconds, not {limit}")
    return float(limit)


def build_each_once(makers: Sequence[_Maker]) -> None:
    """Build each bot once, so that bad options fail before any game is played."""
    for i, maker in enumerate(makers):
        try:
            maker.make(0)
        except (ValueError, TypeError, BoardRulesError) as exc:
            raise _with_context(exc, f"bot {i} ({maker.label}): {exc}") from exc


def check_picklable(game_class: type[AnyGame], makers: Sequence[_Maker]) -> None:
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


@dataclass(frozen=True)
class GameJob:
    """One game to play: the bots at the table (indices into the worker's makers, in
    rotation order), the seed its seeds derive from, its index, whether to return its
    whole record, and the time limit per move."""

    table: tuple[int, ...]
    match_seed: int
    index: int
    keep_record: bool = False
    move_time_limit: float | None = None


#: A finished game: its summary (bots as indices into the job's table), and its whole
#: record as JSON text when it was asked for.
Played = tuple[GameRecord, "str | None"]
#: What each worker holds: the game and every bot's maker.
_Context = tuple[AnyGame, Sequence[_Maker]]


def game_runner(game: AnyGame, makers: Sequence[_Maker], backend: Backend,
                processes: int | None) -> Runner[GameJob, Played]:
    """A :class:`~boardrules._runner.Runner` playing :class:`GameJob` s: each worker
    rebuilds the game from its class and options and holds the makers."""
    return Runner(_worker_context, (type(game), dict(game.options), list(makers)),
                  _play_job, backend=backend, processes=processes)


def _worker_context(game_class: Callable[..., AnyGame], options: dict[str, Any],
                    makers: list[_Maker]) -> _Context:
    return game_class(**options), makers


def _play_job(context: _Context, job: GameJob) -> Played:
    game, makers = context
    return play_game(game, [makers[b] for b in job.table], job.index, job.match_seed,
                     keep_record=job.keep_record, move_time_limit=job.move_time_limit)


def fair_state(state: State[Any], player: int, seed: int) -> State[Any]:
    """What the arena hands the bot of ``player``: a world of what he may know
    (:meth:`~boardrules.State.determinize`: others' hidden cards redrawn, his own
    knowledge kept), with an RNG of its own seeded by ``seed``, so that no bot can read
    a hidden card, nor the next die, card or Pict through the table's RNG.  The library's
    bots search such worlds anyway: they choose the same moves from it as from the
    truth."""
    return state.determinize(player, seed)


class _OutOfTime(BaseException):
    """Raised in a bot's ``choose`` by the alarm of the hard time limit (a BaseException:
    a bot catching Exception does not swallow it)."""


#: How far past ``move_time_limit`` a bot is stopped mid-move (where it can be: in the
#: main thread of a process with SIGALRM), as a factor of the limit and at least
#: :data:`HARD_LIMIT_GRACE` seconds more; a bot returning late but before it is also
#: forfeits.
HARD_LIMIT_FACTOR = 2.0
HARD_LIMIT_GRACE = 1.0


def _choose(bot: Bot, world: State[Any], limit: float | None) -> tuple[object, float]:
    """The bot's move for ``world`` and its time; raises what the bot raised, or
    :class:`_OutOfTime` when the alarm stopped it."""
    alarm = limit is not None and _can_alarm()
    previous: Any = None
    if alarm:
        assert limit is not None
        def on_alarm(signum: int, frame: object) -> None:
            raise _OutOfTime
        previous = signal.signal(signal.SIGALRM, on_alarm)
        signal.setitimer(signal.ITIMER_REAL,
                         max(limit * HARD_LIMIT_FACTOR, limit + HARD_LIMIT_GRACE))
    start = time.perf_counter()
    try:
        move = bot.choose(world)
    finally:
        seconds = time.perf_counter() - start
        if alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
    return move, seconds


def _can_alarm() -> bool:
    """SIGALRM can stop a bot here: a platform that has it, in the main thread, with no
    handler of the caller's own on it."""
    return (hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGALRM) in (signal.SIG_DFL, signal.SIG_IGN, None))


def _bot_move(bot: Bot, state: State[Any], player: int, limit: float | None,
              world_seed: int) -> tuple[Any | None, float, str | None]:
    """(the move, the seconds, None) or (None, the seconds, why the bot forfeits)."""
    world = fair_state(state, player, world_seed)
    try:
        move, seconds = _choose(bot, world, limit)
    except _OutOfTime:
        assert limit is not None
        return None, limit, f"stopped after running past the {limit:g} s move time limit"
    except Exception as exc:  # a bot of the user's may raise anything: it loses the game
        return None, 0.0, f"choose raised {type(exc).__name__}: {exc}"
    if limit is not None and seconds > limit:
        return None, seconds, f"took {seconds:.3g} s, over the {limit:g} s move time limit"
    if not state.is_legal(move):
        why = _why_not(state, move, player)
        return None, seconds, f"chose {_shown(move)}, which cannot be played: {why}"
    return move, seconds, None


def _shown(move: object) -> str:
    """A move in its notation; anything else as its repr, cut short."""
    text = str(move) if isinstance(move, Move) else repr(move)
    return text if len(text) <= 80 else text[:77] + "..."


def _why_not(state: State[Any], move: object, player: int) -> str:
    """The error applying ``move`` would raise (on a copy: the table is untouched)."""
    try:
        state.copy().apply(move, player=player)
    except (ValueError, TypeError) as exc:
        return str(exc)
    return "not a legal move"


def play_game(game: AnyGame, makers: Sequence[_Maker], index: int, match_seed: int, *,
              keep_record: bool = False, move_time_limit: float | None = None) -> Played:
    """Game ``index`` of a match between ``makers`` (seats rotated), one freshly made bot
    per seat, each handed :func:`fair_state`; with ``keep_record`` also its whole record
    as JSON (made here, where the state is)."""
    k = len(makers)
    seats = tuple((s + index) % k for s in range(game.num_players))
    players: list[Bot | None] = []
    forfeit: Forfeit | None = None
    for s, b in enumerate(seats):
        try:
            players.append(makers[b].make(derive_seed(match_seed, index, "seat", s)))
        except Exception as exc:  # a factory of the user's failing mid-match
            players.append(None)
            forfeit = forfeit or Forfeit(b, s, f"could not be made: {type(exc).__name__}: {exc}")
    game_seed = derive_seed(match_seed, index)
    state = game.new_game(seed=game_seed)
    moves = [0] * k
    seconds = [0.0] * k
    while forfeit is None and not state.is_terminal():
        player = state.current_player
        if player == CHANCE:  # auto_chance draws these itself; a game may still stop here
            state.apply_random_chance()
        else:
            bot = seats[player]
            chooser = players[player]
            assert chooser is not None
            move, took, reason = _bot_move(
                chooser, state, player, move_time_limit,
                derive_seed(match_seed, index, "world", len(state.history)))
            seconds[bot] += took
            moves[bot] += 1
            if reason is not None:
                forfeit = Forfeit(bot, player, reason)
                break
            state.apply(move, player=player)
        if len(state.history) > game.max_game_length:
            raise RuntimeError(f"game {index} of {game.id} ran past max_game_length "
                               f"({game.max_game_length}): a defect of the rules core")
    winners, places = _result(state, seats, k, forfeit)
    summary = GameRecord(index=index, seed=game_seed, seats=seats, winners=winners,
                         points=_points(winners, seats, k), length=sum(moves),
                         moves=tuple(moves), seconds=tuple(seconds), places=places,
                         forfeit=forfeit)
    text = None
    if keep_record:
        text = json.dumps(_whole_record(state, [makers[b].label for b in seats], game_seed))
    return summary, text


def _result(state: State[Any], seats: Sequence[int], num_bots: int,
            forfeit: Forfeit | None) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The winning players and each bot's place (1 best, equal on a tie): a bot's place
    is that of its best seat in the game's ranking; after a forfeit, the other bots'
    seats win and the forfeiting bot is last."""
    if forfeit is not None:
        winners = tuple(p for p, b in enumerate(seats) if b != forfeit.bot)
        places = tuple(num_bots if b == forfeit.bot else 1 for b in range(num_bots))
        return winners, places
    outcome = state.outcome()
    assert outcome is not None
    best = [min(outcome.ranking[p] for p, b in enumerate(seats) if b == bot)
            for bot in range(num_bots)]
    places = tuple(1 + sum(other < mine for other in best) for mine in best)
    return tuple(outcome.winners), places


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


def _whole_record(state: State[Any], players: list[str], seed: int) -> dict[str, Any]:
    """``game_record(state, "all")``, with who sat where and the game's seed when the
    records module takes them."""
    given: dict[str, Any] = {"players": players, "seed": seed}
    extra = {name: value for name, value in given.items() if name in _record_keywords()}
    return game_record(state, "all", **extra)


@functools.cache
def _record_keywords() -> frozenset[str]:
    return frozenset(inspect.signature(game_record).parameters)


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
            mean_move_seconds=sum(r.seconds[b] for r in records) / moves if moves else 0.0,
            forfeits=sum(r.forfeit is not None and r.forfeit.bot == b for r in records)))
    return MatchResult(
        game=game.id, options=dict(game.options), players=game.num_players,
        games=games, seed=seed, specs=tuple(m.label for m in makers), bots=tuple(results),
        mean_game_length=sum(r.length for r in records) / games if games else 0.0,
        records=tuple(records), interrupted=interrupted)
