"""Tournaments: a field of bots rated against each other, every game written as it
finishes, resumable, on local processes or on Ray.

>>> from boardrules.tournament import round_robin
>>> result = round_robin("tic_tac_toe", ["random", "greedy", "mcts:iterations=50"],
...                      games=10, seed=1, processes=1, bootstrap=100)
>>> [r.bot for r in result.ranked()][0] != "random"
True
>>> len(result.records)   # three tables of two bots, ten games each
30

A tournament is a list of *tables* -- the bots that play a game together -- each playing
``games`` games with the seats rotated and seeded exactly as :func:`~boardrules.arena.play_match`
plays them (table ``t`` is the match of its bots with the seed
``derive_seed(seed, "table", *their labels)``).  The formats differ only in their tables:

* :func:`round_robin` -- every combination of ``table_size`` bots of the field;
* :func:`gauntlet` -- the first bot (the challenger) with every combination of the others;
* :func:`ladder` -- rungs in order (weakest first, say search budgets), each table of
  rungs at most ``reach`` apart (per seat of the table).

The results -- each bot's place in each game -- give ratings by a Bradley-Terry fit on
the Elo scale with bootstrap confidence intervals (:mod:`boardrules.ratings`).  With a
``results`` file (JSON lines: a header, then one line per finished game, written as it
finishes) an interrupted tournament resumes where it stopped: the same call (or CLI
command) plays only the games the file does not hold, so no game is lost or played
twice.  See :doc:`/tournaments`.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import time
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from boardrules import arena
from boardrules._runner import check_backend, check_processes
from boardrules.api import check_seed
from boardrules.arena import AnyGame, Forfeit, GameJob, GameRecord, Played, derive_seed
from boardrules.ratings import GameResult, Ratings, fit_ratings

__all__ = [
    "FORMATS",
    "BotStanding",
    "DroppedResultsWarning",
    "TournamentGame",
    "TournamentProgress",
    "TournamentResult",
    "gauntlet",
    "ladder",
    "play_tournament",
    "read_results",
    "round_robin",
    "tables_for",
]

#: The tournament formats, as :func:`play_tournament` and the CLI name them.
FORMATS: tuple[str, ...] = ("round-robin", "gauntlet", "ladder")
RESULTS_FORMAT = "boardrules-tournament"
RESULTS_FORMAT_VERSION = 1


class DroppedResultsWarning(UserWarning):
    """A resumed tournament's results file held lines that are no games of its schedule
    (or a second line for a game): they were not counted (``TournamentResult.dropped``
    says which, and why)."""


# --- tables ---

def default_table_size(num_players: int) -> int:
    """Bots per table when none is asked: the smallest number of at least two that
    shares the seats equally (two in a game of 2 or 4 players, three in one of 3)."""
    return next(n for n in range(2, num_players + 1) if num_players % n == 0)


def tables_for(tournament: str, num_bots: int, table_size: int = 2,
               reach: int = 2) -> list[tuple[int, ...]]:
    """The tables of a ``tournament`` of ``num_bots`` bots (indices into the field), in
    the order they are played."""
    bots = range(num_bots)
    if tournament == "round-robin":
        return list(itertools.combinations(bots, table_size))
    if tournament == "gauntlet":
        return [(0, *others) for others in itertools.combinations(bots[1:], table_size - 1)]
    if tournament == "ladder":
        return [t for t in itertools.combinations(bots, table_size)
                if t[-1] - t[0] <= reach * (table_size - 1)]
    raise ValueError(f"unknown tournament {tournament!r}; formats: {', '.join(FORMATS)}")


# --- results ---

@dataclass(frozen=True)
class TournamentGame:
    """One finished game of a tournament (a line of the results file).

    * ``table`` -- its table's index; ``index`` -- the game's number at that table;
    * ``bots`` -- the table's bots (indices into the field), in the table's order;
    * ``seats`` -- the bot (index into the field) in each seat;
    * ``places`` / ``points`` / ``moves`` / ``seconds`` -- per bot of the table, in
      ``bots`` order (see :class:`~boardrules.arena.GameRecord`);
    * ``seed``, ``winners``, ``length`` -- as in a match's record;
    * ``forfeit`` -- the :class:`~boardrules.arena.Forfeit` (its ``bot`` an index into
      the field) or None.
    """

    table: int
    index: int
    bots: tuple[int, ...]
    seed: int
    seats: tuple[int, ...]
    winners: tuple[int, ...]
    places: tuple[int, ...]
    points: tuple[float, ...]
    length: int
    moves: tuple[int, ...]
    seconds: tuple[float, ...]
    forfeit: Forfeit | None = None

    @classmethod
    def from_record(cls, table: int, bots: tuple[int, ...], record: GameRecord) -> TournamentGame:
        """A match's record (bots as indices into ``bots``) as the field sees it."""
        forfeit = record.forfeit
        if forfeit is not None:
            forfeit = Forfeit(bots[forfeit.bot], forfeit.seat, forfeit.reason)
        return cls(table=table, index=record.index, bots=bots, seed=record.seed,
                   seats=tuple(bots[b] for b in record.seats), winners=record.winners,
                   places=record.places, points=record.points, length=record.length,
                   moves=record.moves, seconds=record.seconds, forfeit=forfeit)

    @classmethod
    def from_dict(cls, doc: Mapping[str, Any]) -> TournamentGame:
        return cls(**arena.record_fields(doc))


@dataclass(frozen=True)
class TournamentProgress:
    """Where a running tournament stands, passed to ``progress`` when the games start
    and after each finished game.

    * ``done`` / ``total`` -- games finished (those read back from the results file
      included) and games of the tournament; ``resumed`` -- those read back;
    * ``bots`` / ``scores`` -- each bot's label and its points so far (a game's point
      goes to its winner, shared on a draw);
    * ``elapsed`` -- seconds since this run's games started; ``game`` -- the game that
      has just finished (None in the first report).
    """

    done: int
    total: int
    resumed: int
    bots: tuple[str, ...]
    scores: tuple[float, ...]
    elapsed: float
    game: TournamentGame | None = None

    @property
    def seconds_left(self) -> float | None:
        """The time the other games should take at this run's pace (None before its
        first game ends)."""
        return arena.seconds_left(self.elapsed, self.done - self.resumed,
                                  self.total - self.done)


@dataclass(frozen=True)
class BotStanding:
    """One bot's games over a tournament: ``score`` its points (wins plus half the
    draws, a draw being first place shared), ``forfeits`` the games it lost by forfeit,
    ``mean_move_seconds`` its mean time per move in ``choose``."""

    bot: str
    games: int
    score: float
    wins: int
    draws: int
    losses: int
    forfeits: int
    moves: int
    mean_move_seconds: float


@dataclass(frozen=True)
class TournamentResult:
    """The result of a tournament: the settings, every finished game (table order, then
    game order), each bot's standing, and its ratings (None with ``ratings_error``
    saying why when the games so far give none: a bot with no game yet, or a field in
    groups that never met).  ``dropped``: the results file's lines not counted, each with
    why.  ``str(result)`` is :meth:`table`."""

    game: str
    options: dict[str, Any]
    players: int
    tournament: str
    bots: tuple[str, ...]
    tables: tuple[tuple[int, ...], ...]
    games: int
    seed: int
    records: tuple[TournamentGame, ...] = field(repr=False)
    standings: tuple[BotStanding, ...]
    ratings: Ratings | None
    ratings_error: str | None = None
    interrupted: bool = False
    #: The results file's lines that were not counted, each with why: a line that is no
    #: game of this tournament's schedule, or a second line for a game.
    dropped: tuple[str, ...] = ()

    @property
    def total(self) -> int:
        """The games of the whole tournament."""
        return len(self.tables) * self.games

    @property
    def complete(self) -> bool:
        return len(self.records) == self.total

    def ranked(self) -> list[Any]:
        """The ratings, best first (empty without ratings)."""
        if self.ratings is None:
            return []
        return sorted(self.ratings.ratings, key=lambda r: -r.elo)

    def cross_table(self) -> list[list[float | None]]:
        """For two-bot tables: ``[i][j]`` is bot i's points against bot j (None where
        they never met)."""
        n = len(self.bots)
        table: list[list[float | None]] = [[None] * n for _ in range(n)]
        for game in self.records:
            if len(game.bots) != 2:
                continue
            for me, other in ((0, 1), (1, 0)):
                i, j = game.bots[me], game.bots[other]
                table[i][j] = (table[i][j] or 0.0) + game.points[me]
        return table

    def table(self) -> str:
        opts = ", ".join(f"{k}={v}" for k, v in self.options.items())
        title = f"{self.game} ({opts})" if opts else self.game
        state = "" if self.complete else (" (interrupted)" if self.interrupted
                                          else " (incomplete)")
        lines = [f"{title}: {self.tournament} of {len(self.bots)} bots, "
                 f"{len(self.tables)} tables x {self.games} games, "
                 f"{len(self.records)}/{self.total} played{state}, seed {self.seed}"]
        if self.ratings is not None:
            lines += ["", self.ratings.table()]
        else:
            lines += ["", f"no ratings yet: {self.ratings_error}"]
        lines += ["", _standings_text(self.standings)]
        if all(len(t) == 2 for t in self.tables):
            lines += ["", _cross_text(self.bots, self.cross_table())]
        forfeits = [g.forfeit for g in self.records if g.forfeit is not None]
        if forfeits:
            lines += ["", *arena.forfeit_lines(self.bots, forfeits)]
        if self.dropped:
            lines += ["", *dropped_lines(self.dropped)]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: the settings, the standings, the ratings (their own document) and
        every game."""
        doc = {"format": "boardrules-tournament-result", "format_version": 1,
               **_header_fields(self.game, self.options, self.players, self.tournament,
                                self.bots, self.tables, self.games, self.seed),
               "standings": [asdict(s) for s in self.standings],
               "ratings": self.ratings.as_dict() if self.ratings is not None else None,
               "ratings_error": self.ratings_error, "interrupted": self.interrupted,
               "dropped": list(self.dropped),
               "records": [asdict(g) for g in self.records]}
        result: dict[str, Any] = json.loads(json.dumps(doc))
        return result

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.as_dict(), indent=indent)


def dropped_lines(dropped: Sequence[str], most: int = 10) -> list[str]:
    """The results file's lines not counted, as the result's table and the CLI say them."""
    lines = [f"{len(dropped)} line(s) of the results file not counted:"]
    lines += [f"  {why}" for why in dropped[:most]]
    if len(dropped) > most:
        lines.append(f"  ... and {len(dropped) - most} more")
    return lines


def _standings_text(standings: Sequence[BotStanding]) -> str:
    header = ["bot", "games", "score", "W", "D", "L", "forfeits", "s/move"]
    rows = [[s.bot, str(s.games), f"{s.score:g}", str(s.wins), str(s.draws), str(s.losses),
             str(s.forfeits), f"{s.mean_move_seconds:.3g}"] for s in standings]
    return _columns(header, rows)


def _cross_text(bots: Sequence[str], cross: list[list[float | None]]) -> str:
    header = ["points of row vs column", *(str(j) for j in range(len(bots)))]
    rows = [[f"{i} {bot}", *("-" if v is None else f"{v:g}" for v in cross[i])]
            for i, bot in enumerate(bots)]
    return _columns(header, rows)


def _columns(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(r[c]) for r in [header, *rows]) for c in range(len(header))]
    return "\n".join("  ".join(r[c].ljust(widths[c]) if c == 0 else r[c].rjust(widths[c])
                               for c in range(len(header))).rstrip()
                     for r in [header, *rows])


# --- playing ---

def round_robin(game: str | AnyGame, bots: Sequence[object], **kwargs: Any) -> TournamentResult:
    """Every combination of ``table_size`` bots of the field (see :func:`play_tournament`)."""
    return play_tournament(game, bots, tournament="round-robin", **kwargs)


def gauntlet(game: str | AnyGame, challenger: object, field: Sequence[object],
             **kwargs: Any) -> TournamentResult:
    """``challenger`` against every combination of the ``field`` (see
    :func:`play_tournament`); the challenger is bot 0 of the result."""
    if isinstance(field, str) or not isinstance(field, Sequence):
        raise TypeError("field must be a sequence of bots")
    return play_tournament(game, [challenger, *field], tournament="gauntlet", **kwargs)


def ladder(game: str | AnyGame, rungs: Sequence[object], **kwargs: Any) -> TournamentResult:
    """Rungs in order, weakest first, each against those at most ``reach`` rungs away
    (see :func:`play_tournament`)."""
    return play_tournament(game, rungs, tournament="ladder", **kwargs)


def play_tournament(game: str | AnyGame, bots: Sequence[object], *,
                    tournament: str = "round-robin", games: int = 20, seed: int | None = 0,
                    options: Mapping[str, Any] | None = None, table_size: int | None = None,
                    reach: int = 2, processes: int | None = None, backend: str = "local",
                    results: str | os.PathLike[str] | None = None,
                    records_dir: str | os.PathLike[str] | None = None,
                    progress: Callable[[TournamentProgress], object] | None = None,
                    move_time_limit: float | None = None, anchor: str | None = None,
                    bootstrap: int = 1000) -> TournamentResult:
    """Play a tournament and rate its bots.

    * ``game`` / ``options`` / ``bots`` / ``seed`` / ``processes`` / ``move_time_limit``
      -- as for :func:`~boardrules.arena.play_match` (the bots' labels must differ);
    * ``tournament`` -- ``"round-robin"``, ``"gauntlet"`` or ``"ladder"`` (:data:`FORMATS`);
    * ``games`` -- games per table; ``table_size`` -- bots per table (default: two, or
      three in a game of three players; it must divide the players); ``reach`` -- a
      ladder's reach;
    * ``backend`` -- ``"local"`` or ``"ray"`` (the same results);
    * ``results`` -- a JSON-lines file: made with a header when missing, else read back
      (it must be of this same tournament) and only the games it lacks are played; each
      finished game is appended as it finishes;
    * ``records_dir`` -- each game's whole record, as ``table-001-game-00001.json``;
    * ``progress`` -- called with a :class:`TournamentProgress`;
    * ``anchor`` -- the bot rated 0 (default: the mean rating is 0); ``bootstrap`` --
      resamples for the rating intervals.

    Ctrl-C returns the games finished so far with ``interrupted=True`` (and the results
    file holds every one of them).  Bad arguments raise ValueError / TypeError before
    any game is played.
    """
    the_game = arena._resolve_game(game, options)
    makers = [arena._maker(b) for b in arena._bot_list(bots)]
    labels = _distinct_labels(makers)
    if tournament not in FORMATS:
        raise ValueError(f"unknown tournament {tournament!r}; formats: {', '.join(FORMATS)}")
    size = _table_size(the_game, len(makers), table_size)
    _check_count(reach, "reach")
    tables = tables_for(tournament, len(makers), size, reach)
    if not tables:
        raise ValueError(f"a {tournament} of {len(makers)} bots has no table")
    _check_count(games, "games")
    tournament_seed = check_seed(seed)
    runner_backend = check_backend(backend)
    workers = check_processes(processes)
    limit = arena.check_move_time_limit(move_time_limit)
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be a callable or None, not {type(progress).__name__}")
    if anchor is not None and anchor not in labels:
        raise ValueError(f"anchor {anchor!r} is not one of the bots: {', '.join(labels)}")
    header = {"format": RESULTS_FORMAT, "format_version": RESULTS_FORMAT_VERSION,
              **_header_fields(the_game.id, dict(the_game.options), the_game.num_players,
                               tournament, labels, tuple(tables), games, tournament_seed),
              "move_time_limit": limit}
    header = json.loads(json.dumps(header))
    results_file = _ResultsFile.open(results, header) if results is not None else None
    records = _records_path(records_dir)
    arena.build_each_once(makers)
    if workers != 1 or runner_backend == "ray":
        arena.check_picklable(type(the_game), makers)
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)

    done: dict[tuple[int, int], TournamentGame] = (
        dict(results_file.games) if results_file is not None else {})
    dropped = results_file.dropped if results_file is not None else ()
    schedule = _Schedule.of(header)
    resumed = frozenset(done)
    table_index = {t: i for i, t in enumerate(tables)}
    # built one by one as the games go out: a tournament of any length starts at once
    jobs = (GameJob(tables[i], schedule.table_seeds[i], g, records is not None, limit)
            for i, g in schedule.in_order() if (i, g) not in resumed)
    collector = _Collector(labels, schedule.total, done, progress, results_file, records)
    runner = arena.game_runner(the_game, makers, runner_backend, workers)
    interrupted = False
    try:
        runner.run(jobs, lambda job, played: collector.add(table_index[job.table], job,
                                                           played),
                   collector.start, count=schedule.total - len(resumed))
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if results_file is not None:
            results_file.close()
    return summarise(header, labels, list(collector.games.values()), interrupted,
                     anchor=anchor, bootstrap=bootstrap, dropped=dropped)


def _distinct_labels(makers: Sequence[Any]) -> tuple[str, ...]:
    labels = tuple(m.label for m in makers)
    repeated = sorted({label for label in labels if labels.count(label) > 1})
    if repeated:
        raise ValueError(f"the bots' labels must differ (ratings are by label): "
                         f"{', '.join(map(repr, repeated))} given more than once")
    return labels


def _table_size(game: AnyGame, num_bots: int, table_size: int | None) -> int:
    if num_bots < 2:
        raise ValueError("a tournament needs at least two bots")
    size = default_table_size(game.num_players) if table_size is None else table_size
    _check_count(size, "table_size")
    if size < 2 or game.num_players % size:
        raise ValueError(f"{size} bots per table cannot share the {game.num_players} seats "
                         f"of {game.id} equally: table_size must divide the players")
    if size > num_bots:
        raise ValueError(f"tables of {size} bots need at least {size} bots, not {num_bots}")
    return size


def _check_count(value: object, name: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int")
    if value < 1:
        raise ValueError(f"{name} must be at least 1")


def _header_fields(game: str, options: Mapping[str, Any], players: int, tournament: str,
                   bots: Sequence[str], tables: Sequence[Sequence[int]], games: int,
                   seed: int) -> dict[str, Any]:
    return {"game": game, "options": dict(options), "players": players,
            "tournament": tournament, "bots": list(bots),
            "tables": [list(t) for t in tables], "games": games, "seed": seed}


class _Collector:
    """The parent's side: each finished game written (record file, then results line),
    kept, and reported."""

    def __init__(self, labels: tuple[str, ...], total: int,
                 done: dict[tuple[int, int], TournamentGame],
                 progress: Callable[[TournamentProgress], object] | None,
                 results_file: _ResultsFile | None, records_dir: Path | None) -> None:
        self.labels = labels
        self.total = total
        self.games = done
        self.resumed = len(done)
        self.progress = progress
        self.results_file = results_file
        self.records_dir = records_dir
        self.scores = [0.0] * len(labels)
        for game in done.values():
            self._count(game)
        self.started = time.perf_counter()

    def start(self) -> None:
        self.started = time.perf_counter()
        self._report(None)

    def add(self, table: int, job: GameJob, played: Played) -> None:
        record, text = played
        game = TournamentGame.from_record(table, job.table, record)
        if self.records_dir is not None and text is not None:
            name = f"table-{table + 1:03d}-game-{record.index + 1:05d}.json"
            arena._write_atomic(self.records_dir / name, text)
        if self.results_file is not None:
            self.results_file.append(game)
        self.games[(table, record.index)] = game
        self._count(game)
        self._report(game)

    def _count(self, game: TournamentGame) -> None:
        for bot, points in zip(game.bots, game.points, strict=True):
            self.scores[bot] += points

    def _report(self, game: TournamentGame | None) -> None:
        if self.progress is not None:
            self.progress(TournamentProgress(
                done=len(self.games), total=self.total, resumed=self.resumed,
                bots=self.labels, scores=tuple(self.scores),
                elapsed=time.perf_counter() - self.started, game=game))


def _records_path(records_dir: str | os.PathLike[str] | None) -> Path | None:
    if records_dir is None:
        return None
    if not isinstance(records_dir, (str, os.PathLike)):
        raise TypeError(f"records_dir must be a path or None, not {type(records_dir).__name__}")
    path = Path(records_dir)
    if path.exists() and not path.is_dir():
        raise ValueError(f"records_dir {str(path)!r} is not a directory")
    return path


class _ResultsFile:
    """The JSON-lines results file: a header line, then a line per finished game,
    appended and flushed as each finishes (a line cut short by a crash is dropped when
    the file is read back, and its game played again)."""

    def __init__(self, path: Path, games: dict[tuple[int, int], TournamentGame],
                 dropped: tuple[str, ...] = ()) -> None:
        self.path = path
        self.games = games
        self.dropped = dropped
        self._file = path.open("a", encoding="utf-8")

    @classmethod
    def open(cls, path: str | os.PathLike[str], header: dict[str, Any]) -> _ResultsFile:
        if not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"results must be a path or None, not {type(path).__name__}")
        where = Path(path)
        if where.is_dir():
            raise ValueError(f"results {str(where)!r} is a directory, not a file")
        games: dict[tuple[int, int], TournamentGame] = {}
        dropped: tuple[str, ...] = ()
        if where.exists() and where.stat().st_size > 0:
            found, lines, good_bytes = _read_lines(where)
            _check_same_tournament(where, found, header)
            games, dropped = _Schedule.of(header).kept(lines)
            if dropped:
                warnings.warn(f"{where}: " + " ".join(dropped_lines(dropped, most=3)),
                              DroppedResultsWarning, stacklevel=3)
            if good_bytes < where.stat().st_size:
                with where.open("r+b") as torn:  # a line cut short by a crash
                    torn.truncate(good_bytes)
        else:
            where.parent.mkdir(parents=True, exist_ok=True)
            where.write_text(json.dumps(header) + "\n", encoding="utf-8")
        return cls(where, games, dropped)

    def append(self, game: TournamentGame) -> None:
        self._file.write(json.dumps(asdict(game)) + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()


#: A results file's game line: its line number and the game it holds.
_Line = tuple[int, TournamentGame]


def _read_lines(path: Path) -> tuple[dict[str, Any], list[_Line], int]:
    """The header, the game lines (in file order, not yet checked against the schedule)
    and the bytes of whole lines, from a results file (ValueError on a file that is not
    one)."""
    data = path.read_bytes()
    lines = data.split(b"\n")
    # the part after the last newline is a line cut short (or nothing)
    complete, good_bytes = lines[:-1], len(data) - len(lines[-1])
    if not complete:
        raise ValueError(f"{path} is not a tournament results file (no header line)")
    try:
        header = json.loads(complete[0])
    except ValueError:
        raise ValueError(f"{path} is not a tournament results file") from None
    if not isinstance(header, dict) or header.get("format") != RESULTS_FORMAT:
        raise ValueError(f"{path} is not a {RESULTS_FORMAT} results file")
    if header.get("format_version") != RESULTS_FORMAT_VERSION:
        raise ValueError(f"{path}: results format version {header.get('format_version')!r}, "
                         f"this library reads {RESULTS_FORMAT_VERSION}")
    games: list[_Line] = []
    for number, line in enumerate(complete[1:], start=2):
        try:
            games.append((number, TournamentGame.from_dict(json.loads(line))))
        except (ValueError, TypeError, KeyError) as exc:
            raise ValueError(f"{path}, line {number}: not a game of the tournament "
                             f"({exc})") from None
    return header, games, good_bytes


@dataclass(frozen=True)
class _Schedule:
    """The games a tournament plays -- table ``t``'s game ``g`` for every table and
    ``g < games`` -- and what each must be (its bots, seats, seed; points and places
    its winners give): a results line counts only if it is one of them."""

    tables: tuple[tuple[int, ...], ...]
    games: int
    table_seeds: tuple[int, ...]
    players: int

    @classmethod
    def of(cls, header: Mapping[str, Any]) -> _Schedule:
        """The schedule a results file's header describes (ValueError if it cannot)."""
        try:
            labels, seed = list(header["bots"]), int(header["seed"])
            tables = tuple(tuple(int(b) for b in t) for t in header["tables"])
            seeds = tuple(derive_seed(seed, "table", *(str(labels[b]) for b in t))
                          for t in tables)
            games, players = int(header["games"]), int(header["players"])
        except (KeyError, TypeError, ValueError, IndexError):
            raise ValueError("the results file's header does not describe a tournament "
                             "(bots, seed, tables, games, players)") from None
        return cls(tables, games, seeds, players)

    @property
    def total(self) -> int:
        return len(self.tables) * self.games

    def in_order(self) -> Iterator[tuple[int, int]]:
        """Every game's (table, index), in the order they are played."""
        return ((t, g) for t in range(len(self.tables)) for g in range(self.games))

    def kept(self, lines: Iterable[_Line]) -> tuple[dict[tuple[int, int], TournamentGame],
                                                      tuple[str, ...]]:
        """The games of the schedule among ``lines``, the first line of each kept, and
        what was dropped, with why."""
        games: dict[tuple[int, int], TournamentGame] = {}
        dropped: list[str] = []
        for number, game in lines:
            why = self.problem(game)
            if why is None and (game.table, game.index) in games:
                why = f"a second line for table {game.table}'s game {game.index}"
            if why is not None:
                dropped.append(f"line {number}: {why}")
            else:
                games[(game.table, game.index)] = game
        return games, tuple(dropped)

    def problem(self, game: TournamentGame) -> str | None:
        """Why ``game`` is no game of this schedule (None: it is one)."""
        table, index = game.table, game.index
        if not (_is_int(table) and 0 <= table < len(self.tables)):
            return f"table {table!r} is not one of the {len(self.tables)} tables"
        if not (_is_int(index) and 0 <= index < self.games):
            return f"game {index!r} is not one of table {table}'s {self.games} games"
        bots = self.tables[table]
        seats = tuple(bots[(s + index) % len(bots)] for s in range(self.players))
        expected = {"bots": bots, "seats": seats,
                    "seed": derive_seed(self.table_seeds[table], index)}
        for name, value in expected.items():
            if getattr(game, name) != value:
                return f"table {table}'s game {index} has other {name} than the schedule's"
        return _result_problem(game, seats)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _result_problem(game: TournamentGame, seats: tuple[int, ...]) -> str | None:
    """Why a scheduled game's result cannot be one a game gives: winners that are not
    players, points other than its winners', places that disagree with them, counts
    that are not counts (None: it can be)."""
    where = f"table {game.table}'s game {game.index}"
    if not all(isinstance(getattr(game, name), tuple)
               for name in ("winners", "places", "points", "moves", "seconds")):
        return f"{where}: winners, places, points, moves and seconds must be lists"
    k, players = len(game.bots), len(seats)
    winners = game.winners
    if not (all(_is_int(p) and 0 <= p < players for p in winners)
            and len(set(winners)) == len(winners)):
        return f"{where}: its winners are not players of the game"
    local = tuple(game.bots.index(b) for b in seats)
    if game.points != arena._points(winners, local, k):
        return f"{where}: its points are not those its winners give"
    if (len(game.places) != k or not all(_is_int(p) and 1 <= p <= k for p in game.places)
            or any((place == 1) != (points > 0)
                   for place, points in zip(game.places, game.points, strict=True))):
        return f"{where}: its places disagree with its winners"
    if (len(game.moves) != k or not all(_is_int(m) and m >= 0 for m in game.moves)
            or game.length != sum(game.moves) or len(game.seconds) != k
            or not all(isinstance(t, (int, float)) and math.isfinite(t) and t >= 0
                       for t in game.seconds)):
        return f"{where}: its moves, length or seconds are not counts"
    forfeit = game.forfeit
    if forfeit is not None and not (_is_int(forfeit.seat) and 0 <= forfeit.seat < players
                                    and seats[forfeit.seat] == forfeit.bot):
        return f"{where}: its forfeit names a bot not in that seat"
    return None


def _check_same_tournament(path: Path, found: Mapping[str, Any],
                           header: Mapping[str, Any]) -> None:
    differ = [key for key in header if found.get(key) != header[key]]
    if differ:
        raise ValueError(f"{path} holds the results of another tournament (it differs in "
                         f"{', '.join(differ)}); give a new file to start this one")


def read_results(path: str | os.PathLike[str], *, anchor: str | None = None,
                 bootstrap: int = 1000) -> TournamentResult:
    """The result of a tournament from its results file, finished or not (nothing is
    played)."""
    header, lines, _ = _read_lines(Path(path))
    games, dropped = _Schedule.of(header).kept(lines)
    return summarise(header, tuple(header["bots"]), list(games.values()), False,
                     anchor=anchor, bootstrap=bootstrap, dropped=dropped)


def summarise(header: Mapping[str, Any], labels: tuple[str, ...],
              games: Iterable[TournamentGame], interrupted: bool, *,
              anchor: str | None = None, bootstrap: int = 1000,
              dropped: Sequence[str] = ()) -> TournamentResult:
    ordered = sorted(games, key=lambda g: (g.table, g.index))
    ratings: Ratings | None = None
    error: str | None = None
    try:
        ratings = fit_ratings([GameResult(g.bots, g.places) for g in ordered], labels,
                              anchor=anchor, bootstrap=bootstrap,
                              seed=int(header["seed"]) % 2**32)
    except ValueError as exc:
        error = str(exc)
    return TournamentResult(
        game=header["game"], options=dict(header["options"]), players=header["players"],
        tournament=header["tournament"], bots=labels,
        tables=tuple(tuple(t) for t in header["tables"]), games=header["games"],
        seed=header["seed"], records=tuple(ordered),
        standings=tuple(_standing(b, label, ordered) for b, label in enumerate(labels)),
        ratings=ratings, ratings_error=error, interrupted=interrupted,
        dropped=tuple(dropped))


def _standing(bot: int, label: str, games: Sequence[TournamentGame]) -> BotStanding:
    points, moves, seconds, forfeits = [], 0, 0.0, 0
    for game in games:
        if bot not in game.bots:
            continue
        at = game.bots.index(bot)
        points.append(game.points[at])
        moves += game.moves[at]
        seconds += game.seconds[at]
        forfeits += game.forfeit is not None and game.forfeit.bot == bot
    return BotStanding(bot=label, games=len(points), score=sum(points),
                       wins=points.count(1.0), draws=points.count(0.5),
                       losses=points.count(0.0), forfeits=forfeits, moves=moves,
                       mean_move_seconds=seconds / moves if moves else 0.0)
