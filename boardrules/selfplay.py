"""Self-play data for learning: one bot plays every seat, every decision becomes a row.

>>> import tempfile
>>> from pathlib import Path
>>> from boardrules.selfplay import generate, read
>>> path = Path(tempfile.mkdtemp()) / "ttt.npz"
>>> result = generate("tic_tac_toe", "mcts:iterations=50", games=4, path=path,
...                   processes=1)
>>> result.games, result.decisions == len(read(path)["action"])
(4, True)
>>> read(path)["observation"].shape[1], read(path)["policy"].shape[1]
(20, 9)

Each row holds what the player to move could see (``observation``, ``action_mask``),
what he did (``action``), what the search thought of the moves (``policy``: the visit
counts, normalised) and how the game ended (``returns``, ``value``): the inputs and the
targets of a policy-value network.  The file is Parquet (``.parquet``, through pyarrow:
``pip install 'boardrules[parquet]'``) or a compressed ``.npz`` (numpy alone);
:func:`read` gives the same arrays from either.  See :doc:`/selfplay` for the columns,
the seeds, Ray and reading the data with pandas or pyarrow.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import math
import numbers
import os
import signal
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from boardrules._runner import Backend, Runner, check_backend, check_processes
from boardrules.api import CHANCE, Game, State, check_seed
from boardrules.arena import (
    _bot_move,
    _check_games,
    _Maker,
    _maker,
    _resolve_game,
    build_each_once,
    check_picklable,
    derive_seed,
    seconds_left,
)
from boardrules.search.bots import Bot

__all__ = [
    "COLUMNS",
    "FORMATS",
    "SELFPLAY_FORMAT",
    "SELFPLAY_FORMAT_VERSION",
    "SelfPlayError",
    "SelfPlayProgress",
    "SelfPlayResult",
    "column_widths",
    "generate",
    "read",
    "read_meta",
]

#: A game of any kind.
AnyGame = Game[Any, Any]
#: The rows of one or more games: each column's array, rows first.
Columns = dict[str, npt.NDArray[Any]]

SELFPLAY_FORMAT = "boardrules-selfplay"
SELFPLAY_FORMAT_VERSION = 1
#: The file formats :func:`generate` writes, and the path suffix each is known by.
FORMATS: tuple[str, ...] = ("parquet", "npz")
SUFFIXES: Mapping[str, str] = {".parquet": "parquet", ".npz": "npz"}
#: The key of the settings' JSON in a Parquet file's key-value metadata (and the name of
#: the 0-d string array holding it in an ``.npz``, ``meta``).
META_KEY = SELFPLAY_FORMAT
NPZ_META = "meta"

#: Every column, in file order, with its dtype.  ``observation``, ``action_mask``,
#: ``policy`` and ``returns`` hold a vector per row (see :func:`column_widths`).
COLUMNS: Mapping[str, type[np.generic]] = {
    "game": np.int32,
    "step": np.int32,
    "player": np.int8,
    "observation": np.float32,
    "action_mask": np.int8,
    "action": np.int32,
    "policy": np.float32,
    "returns": np.float32,
    "value": np.float32,
}

#: A Parquet row group holds this many rows, or fewer when that many would pass
#: :data:`ROW_GROUP_BYTES` (Albion's rows are 26 kB each: its masks and policies are
#: 2868 wide), so that the rows waiting for their group stay a bounded buffer.
ROW_GROUP_ROWS = 4096
ROW_GROUP_BYTES = 64 * 2**20
#: Bytes at the start of each format's files (Parquet's magic; an ``.npz`` is a zip).
_MAGIC = {"parquet": b"PAR1", "npz": b"PK\x03\x04"}


class SelfPlayError(RuntimeError):
    """A self-play game that could not go on: its bot raised, returned a move that
    cannot be played, could not be made, or left search statistics that are not a
    policy.  The message names the game (its index and seed), the seat and the step."""


# --- results ---

@dataclass(frozen=True)
class SelfPlayResult:
    """What :func:`generate` wrote.

    * ``path`` / ``format`` -- the file, and ``"parquet"`` or ``"npz"``;
    * ``game`` / ``options`` / ``bot`` / ``seed`` -- the settings (``bot`` as a spec or
      the name of its class or factory; ``seed`` the one used, drawn when None was
      given);
    * ``games`` / ``decisions`` -- the games in the file and their rows;
    * ``interrupted`` -- Ctrl-C stopped the run: the file holds the games 0 to
      ``games - 1`` only;
    * ``seconds`` -- wall time from the first game to the file in place.
    """

    path: str
    format: str
    game: str
    options: dict[str, Any]
    bot: str
    games: int
    decisions: int
    seed: int
    interrupted: bool
    seconds: float

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready data (a copy of the options)."""
        doc: dict[str, Any] = json.loads(json.dumps(asdict(self)))
        return doc


@dataclass(frozen=True)
class SelfPlayProgress:
    """What :func:`generate` passes its ``progress`` callback: once when the games start
    (``done`` 0) and after each finished game, in the order they finish.

    ``done`` / ``total`` are the games finished and asked for, ``decisions`` the rows of
    the finished games, ``elapsed`` the seconds since the games started."""

    done: int
    total: int
    decisions: int
    elapsed: float

    @property
    def seconds_left(self) -> float | None:
        """The time the other games should take at the pace so far (None before the
        first game ends)."""
        return seconds_left(self.elapsed, self.done, self.total - self.done)


# --- generating ---

def generate(game: str | AnyGame, bot: object = "mcts:iterations=200", games: int = 100,
             path: str | os.PathLike[str] = "selfplay.parquet", *, seed: int | None = 0,
             options: Mapping[str, Any] | None = None, processes: int | None = None,
             backend: str = "local",
             progress: Callable[[SelfPlayProgress], object] | None = None,
             format: str | None = None) -> SelfPlayResult:
    """Play ``games`` games of ``game`` with ``bot`` in every seat and write each decision
    as a row of ``path``.

    * ``game`` -- a game id (loaded with ``options``) or a :class:`~boardrules.Game`;
    * ``bot`` -- what :func:`~boardrules.arena.play_match` takes for one bot: a spec
      (``"mcts:iterations=200"``), a class or factory called with ``seed=``, or an object
      with ``choose(state)`` (copied for each seat); one fresh bot per seat and game,
      seeded ``derive_seed(seed, "selfplay", g, "seat", s)``, handed
      :func:`~boardrules.arena.fair_state` of the table, never the truth;
    * ``seed`` -- game ``g`` is set up with ``derive_seed(seed, "selfplay", g)`` (None: a
      fresh seed, in the result); the same settings give the same file whatever the
      processes or the backend;
    * ``processes`` / ``backend`` -- as for a match: worker processes (default every
      core), ``"local"`` or ``"ray"`` (the cluster ``ray.init`` joined, or a local one);
    * ``progress`` -- called with a :class:`SelfPlayProgress` at the start and after each
      game; an exception it raises stops the run and propagates (no file is written);
    * ``format`` -- ``"parquet"`` or ``"npz"``; None: from the suffix of ``path``.

    The rows go in game order, each game's decisions in turn; Parquet is written as the
    games finish, an ``.npz`` at the end.  The file appears under ``path`` whole (it is
    written beside it under a temporary name, then renamed).  Ctrl-C stops the run: the
    games finished up to the first one still being played are written, and the result
    says ``interrupted``.  A bot that raises or plays an illegal move stops the run with
    :class:`SelfPlayError` naming the game.  TypeError / ValueError on a bad argument,
    ImportError for Parquet without pyarrow, before any game is played.
    """
    the_game = _resolve_game(game, options)
    widths = column_widths(the_game)
    maker = _maker(bot)
    _check_games(games)
    selfplay_seed = check_seed(seed)
    runner_backend = check_backend(backend)
    workers = check_processes(processes)
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be a callable or None, not {type(progress).__name__}")
    target = _target(path)
    file_format = _format_of(target, format)
    build_each_once([maker])
    if workers != 1 or runner_backend == "ray":
        check_picklable(type(the_game), [maker])
    jobs = (_Job(selfplay_seed, g) for g in range(games))  # built as the games go out
    runner = _runner(the_game, maker, runner_backend, workers)
    # opened now: a missing pyarrow or an unwritable directory fails before any game
    sink = _open_sink(file_format, target, widths, _meta(the_game, maker.label, selfplay_seed))
    collector = _Collector(sink, games, progress)
    interrupted = False
    try:
        try:
            runner.run(jobs, collector.add, collector.start, count=games)
        except KeyboardInterrupt:
            interrupted = True
        with _InterruptsHeld():  # a second Ctrl-C waits for the file to be in place
            sink.finish()
    except BaseException:
        sink.discard()
        raise
    return SelfPlayResult(
        path=str(target), format=file_format, game=the_game.id,
        options=dict(the_game.options), bot=maker.label, games=collector.written,
        decisions=collector.written_rows, seed=selfplay_seed, interrupted=interrupted,
        seconds=time.perf_counter() - collector.started)


def column_widths(game: AnyGame) -> dict[str, int]:
    """The length of each vector column for ``game``: the observation's floats, the
    action ids (mask and policy) and the players (returns).  ValueError for a game whose
    core writes no observation."""
    try:
        size = game.observation_layout.size
    except NotImplementedError:
        raise ValueError(f"{game.id} writes no observation tensor: self-play data has "
                         f"nothing to record") from None
    actions = game.num_distinct_actions
    return {"observation": size, "action_mask": actions, "policy": actions,
            "returns": game.num_players}


def _target(path: object) -> Path:
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a str or a path, not {type(path).__name__}")
    target = Path(path)
    if target.is_dir():
        raise ValueError(f"path {str(target)!r} is a directory; give a file name")
    if not target.parent.is_dir():
        raise ValueError(f"the directory of {str(target)!r} does not exist")
    return target


def _format_of(target: Path, format: object) -> str:
    if format is None:
        found = SUFFIXES.get(target.suffix.lower())
        if found is None:
            raise ValueError(f"cannot tell the format of {str(target)!r} from its suffix: "
                             f"name it .parquet or .npz, or pass format='parquet' or 'npz'")
        return found
    if not isinstance(format, str):
        raise TypeError(f"format must be a str or None, not {type(format).__name__}")
    if format not in FORMATS:
        raise ValueError(f"unknown format {format!r}; formats: {', '.join(FORMATS)}")
    return format


def _meta(game: AnyGame, bot: str, seed: int) -> dict[str, Any]:
    """The settings a file carries, so that the rows can be read without the call that
    made them: the layout ties each observation float to its field."""
    from boardrules import __version__

    layout = game.observation_layout
    return {
        "format": SELFPLAY_FORMAT, "format_version": SELFPLAY_FORMAT_VERSION,
        "game": game.id, "options": dict(game.options), "rules_version": game.rules_version,
        "players": game.num_players, "num_distinct_actions": game.num_distinct_actions,
        "bot": bot, "seed": seed, "boardrules_version": __version__,
        "observation_size": layout.size,
        "observation_layout": [{"name": f.name, "start": f.start, "shape": list(f.shape)}
                               for f in layout.fields],
        "columns": list(COLUMNS),
    }


# --- playing (in the workers) ---

@dataclass(frozen=True)
class _Job:
    """Game ``index`` of the self-play run seeded ``seed``."""

    seed: int
    index: int


#: What each worker holds: the game and the bot's maker.
_Context = tuple[AnyGame, _Maker]


def _runner(game: AnyGame, maker: _Maker, backend: Backend,
            processes: int | None) -> Runner[_Job, Columns]:
    return Runner(_worker_context, (type(game), dict(game.options), maker), _play_job,
                  backend=backend, processes=processes)


def _worker_context(game_class: Callable[..., AnyGame], options: dict[str, Any],
                    maker: _Maker) -> _Context:
    return game_class(**options), maker


def _play_job(context: _Context, job: _Job) -> Columns:
    game, maker = context
    return _play_game(game, maker, job.seed, job.index)


def _play_game(game: AnyGame, maker: _Maker, seed: int, index: int) -> Columns:
    """Game ``index`` of the run seeded ``seed``: its rows, one per decision."""
    game_seed = derive_seed(seed, "selfplay", index)
    where = f"self-play game {index} of {game.id} (seed {game_seed})"
    bots = [_make_bot(maker, seed, index, s, where) for s in range(game.num_players)]
    state = game.new_game(seed=game_seed)
    players: list[int] = []
    observations: list[npt.NDArray[np.float32]] = []
    masks: list[npt.NDArray[np.int8]] = []
    actions: list[int] = []
    policies: list[npt.NDArray[np.float32]] = []
    while not state.is_terminal():
        player = state.current_player
        if player == CHANCE:  # auto_chance draws these itself; a game may still stop here
            state.apply_random_chance()
        else:
            at = f"{where}, seat {player}, step {len(actions)}"
            mask = state.action_mask()
            # before the move, from the table: the tensor shows only what he may see
            observations.append(state.observation(player))
            masks.append(mask)
            world_seed = derive_seed(seed, "selfplay", index, "world", len(state.history))
            action, policy = _decide(bots[player], state, player, mask, world_seed,
                                     f"{at}, bot {maker.label!r}")
            players.append(player)
            actions.append(action)
            policies.append(policy)
            state.apply(game.move(action), player=player)
        if len(state.history) > game.max_game_length:
            raise RuntimeError(f"{where} ran past max_game_length "
                               f"({game.max_game_length}): a defect of the rules core")
    returns = np.asarray(state.returns(), dtype=np.float32)
    return _game_columns(game, index, players, observations, masks, actions, policies,
                         returns)


def _make_bot(maker: _Maker, seed: int, index: int, seat: int, where: str) -> Bot:
    try:
        return maker.make(derive_seed(seed, "selfplay", index, "seat", seat))
    except Exception as exc:  # a factory of the user's failing mid-run
        raise SelfPlayError(f"{where}: the bot {maker.label!r} for seat {seat} could not "
                            f"be made: {type(exc).__name__}: {exc}") from None


def _decide(bot: Bot, state: State[Any], player: int, mask: npt.NDArray[np.int8],
            world_seed: int, where: str) -> tuple[int, npt.NDArray[np.float32]]:
    """The bot's action on a fair world of the table, and its policy."""
    before = _fresh_last(bot)
    move, _seconds, reason = _bot_move(bot, state, player, None, world_seed)
    if reason is not None:
        raise SelfPlayError(f"{where}: {reason}")
    action = state.game._action_of(move)
    last = getattr(bot, "last", None)
    # a search bot that found one legal move returns it without searching: its last
    # suggestion is then still the previous move's (or None, which it was reset to)
    if last is not None and last is not before:
        try:
            policy = _visit_policy(getattr(last, "ranked", None), state.game, mask)
        except (TypeError, ValueError) as exc:
            raise SelfPlayError(f"{where}: its last.ranked is not a policy: "
                                f"{exc}") from None
        if policy is not None:
            return action, policy
    one_hot = np.zeros(len(mask), dtype=np.float32)
    one_hot[action] = 1.0
    return action, one_hot


def _fresh_last(bot: Bot) -> object:
    """The bot's ``last`` before it chooses, reset to None where it can be (a bot whose
    ``last`` cannot be set is told fresh from stale by identity alone)."""
    if not hasattr(bot, "last"):
        return None
    with contextlib.suppress(AttributeError, TypeError):  # a read-only property, slots
        bot.last = None
    return getattr(bot, "last", None)


def _visit_policy(ranked: object, game: AnyGame,
                  mask: npt.NDArray[np.int8]) -> npt.NDArray[np.float32] | None:
    """The visit counts of ``ranked`` (``[(move, value, visits)]``) normalised over the
    action ids; None when there are none to normalise (no ``ranked``, no visits)."""
    if ranked is None:
        return None
    if not isinstance(ranked, Sequence):
        raise TypeError(f"a sequence of (move, value, visits), not {type(ranked).__name__}")
    counts = np.zeros(len(mask), dtype=np.float64)
    for move, _value, visits in ranked:
        action = game._action_of(move)
        if not mask[action]:
            raise ValueError(f"it ranks {game.move(action)}, which is not legal here")
        if not isinstance(visits, numbers.Real) or not math.isfinite(visits) or visits < 0:
            raise ValueError(f"{game.move(action)} has {visits!r} visits")
        counts[action] += visits
    total = counts.sum()
    if total <= 0:
        return None
    policy: npt.NDArray[np.float32] = (counts / total).astype(np.float32)
    return policy


def _game_columns(game: AnyGame, index: int, players: list[int],
                  observations: list[npt.NDArray[np.float32]],
                  masks: list[npt.NDArray[np.int8]], actions: list[int],
                  policies: list[npt.NDArray[np.float32]],
                  returns: npt.NDArray[np.float32]) -> Columns:
    n = len(actions)
    widths = column_widths(game)
    player = np.asarray(players, dtype=np.int8)

    def stacked(rows: Sequence[npt.NDArray[Any]], name: str) -> npt.NDArray[Any]:
        if not rows:  # a game over before anyone moved: no rows, the widths kept
            return np.zeros((0, widths[name]), dtype=COLUMNS[name])
        return np.stack(rows).astype(COLUMNS[name], copy=False)

    return {
        "game": np.full(n, index, dtype=np.int32),
        "step": np.arange(n, dtype=np.int32),
        "player": player,
        "observation": stacked(observations, "observation"),
        "action_mask": stacked(masks, "action_mask"),
        "action": np.asarray(actions, dtype=np.int32),
        "policy": stacked(policies, "policy"),
        "returns": np.tile(returns, (n, 1)),
        "value": returns[player.astype(np.intp)].astype(np.float32),
    }


# --- writing (in this process) ---

class _Collector:
    """Takes the games as they finish and hands them to the sink in game order (a game
    that finishes before its predecessors waits for them); reports the progress."""

    def __init__(self, sink: _Sink, total: int,
                 progress: Callable[[SelfPlayProgress], object] | None) -> None:
        self.sink = sink
        self.total = total
        self.progress = progress
        self.waiting: dict[int, Columns] = {}
        self.written = 0          # games 0 .. written - 1 are in the sink
        self.written_rows = 0
        self.done = 0             # games finished, written or waiting
        self.done_rows = 0
        self.started = time.perf_counter()

    def start(self) -> None:
        self.started = time.perf_counter()
        self._report()

    def add(self, job: _Job, columns: Columns) -> None:
        rows = len(columns["action"])
        # held: a Ctrl-C between the sink's write and these counts would leave them
        # disagreeing with the file, or half a row group in it
        with _InterruptsHeld():
            self.waiting[job.index] = columns
            while self.written in self.waiting:
                ready = self.waiting.pop(self.written)
                self.sink.write(ready)
                self.written += 1
                self.written_rows += len(ready["action"])
            self.done += 1
            self.done_rows += rows
        self._report()

    def _report(self) -> None:
        if self.progress is not None:
            self.progress(SelfPlayProgress(done=self.done, total=self.total,
                                           decisions=self.done_rows,
                                           elapsed=time.perf_counter() - self.started))


class _InterruptsHeld:
    """Ctrl-C held back until the block is done, then raised: what the block writes is
    either all in or not begun.  Only in the main thread with Python's own SIGINT
    handler in place (a caller's handler of its own is left alone)."""

    def __enter__(self) -> None:
        self.caught = False
        self.holding = (threading.current_thread() is threading.main_thread()
                        and signal.getsignal(signal.SIGINT) is signal.default_int_handler)
        if self.holding:
            signal.signal(signal.SIGINT, self._hold)

    def _hold(self, signum: int, frame: object) -> None:
        self.caught = True

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self.holding:
            signal.signal(signal.SIGINT, signal.default_int_handler)
        if self.caught and exc is None:
            raise KeyboardInterrupt


class _Sink(Protocol):
    def write(self, columns: Columns) -> None: ...
    def finish(self) -> None: ...
    def discard(self) -> None: ...


def _open_sink(file_format: str, target: Path, widths: Mapping[str, int],
               meta: Mapping[str, Any]) -> _Sink:
    meta_text = json.dumps(meta, sort_keys=True)
    if file_format == "parquet":
        return _ParquetSink(target, widths, meta_text)
    return _NpzSink(target, widths, meta_text)


def _temp_path(target: Path) -> Path:
    """Where a file is written before it is renamed to ``target``: beside it (a rename
    within one directory is atomic), hidden, named after this process."""
    return target.with_name(f".{target.name}.{os.getpid()}.tmp")


def _pyarrow() -> tuple[Any, Any]:
    # imported by name: pyarrow ships no type information, and the rest of the library
    # (and .npz) must not need it
    try:
        return importlib.import_module("pyarrow"), importlib.import_module("pyarrow.parquet")
    except ImportError as exc:
        raise ImportError("self-play data as Parquet needs pyarrow: "
                          "pip install 'boardrules[parquet]' (or write .npz)") from exc


def _row_group_rows(widths: Mapping[str, int]) -> int:
    """Rows per Parquet row group: :data:`ROW_GROUP_ROWS`, fewer for wide rows (read
    at each run, so that a test can make groups small)."""
    row_bytes = sum(np.dtype(COLUMNS[name]).itemsize * widths.get(name, 1)
                    for name in COLUMNS)
    return max(1, min(ROW_GROUP_ROWS, ROW_GROUP_BYTES // row_bytes))


class _ParquetSink:
    """Rows to a Parquet file as they come: a row group each time enough are waiting."""

    def __init__(self, target: Path, widths: Mapping[str, int], meta_text: str) -> None:
        self.pa, pq = _pyarrow()
        self.target = target
        self.temp = _temp_path(target)
        self.widths = dict(widths)
        self.group_rows = _row_group_rows(widths)
        fields = []
        for name, dtype in COLUMNS.items():
            kind = self.pa.from_numpy_dtype(dtype)
            if name in widths:
                kind = self.pa.list_(kind, widths[name])  # fixed size: a plain array back
            fields.append(self.pa.field(name, kind, nullable=False))
        self.schema = self.pa.schema(fields, metadata={META_KEY: meta_text})
        self.writer = pq.ParquetWriter(str(self.temp), self.schema, compression="zstd")
        self.pending: list[Columns] = []
        self.pending_rows = 0

    def write(self, columns: Columns) -> None:
        self.pending.append(columns)
        self.pending_rows += len(columns["action"])
        if self.pending_rows >= self.group_rows:
            self._flush()

    def _flush(self) -> None:
        if not self.pending:
            return
        columns = _concatenate(self.pending, self.widths)
        arrays = []
        for name in COLUMNS:
            array = columns[name]
            if name in self.widths:
                arrays.append(self.pa.FixedSizeListArray.from_arrays(
                    self.pa.array(array.reshape(-1)), self.widths[name]))
            else:
                arrays.append(self.pa.array(array))
        table = self.pa.Table.from_arrays(arrays, schema=self.schema)
        self.writer.write_table(table, row_group_size=table.num_rows)
        self.pending, self.pending_rows = [], 0

    def finish(self) -> None:
        self._flush()
        self.writer.close()
        os.replace(self.temp, self.target)

    def discard(self) -> None:
        with contextlib.suppress(Exception):  # already closed, or broken by the failure
            self.writer.close()
        self.temp.unlink(missing_ok=True)


class _NpzSink:
    """Rows kept until the end, then one compressed ``.npz`` (a zip cannot be appended
    to array by array)."""

    def __init__(self, target: Path, widths: Mapping[str, int], meta_text: str) -> None:
        self.target = target
        self.temp = _temp_path(target)
        self.widths = dict(widths)
        self.meta_text = meta_text
        self.games: list[Columns] = []
        self.temp.open("wb").close()  # an unwritable directory fails now, not at the end

    def write(self, columns: Columns) -> None:
        self.games.append(columns)

    def finish(self) -> None:
        arrays: dict[str, Any] = _concatenate(self.games, self.widths)
        arrays[NPZ_META] = np.array(self.meta_text)
        with self.temp.open("wb") as out:  # a file object: a name would get ".npz" added
            np.savez_compressed(out, **arrays)
        os.replace(self.temp, self.target)

    def discard(self) -> None:
        self.temp.unlink(missing_ok=True)


def _concatenate(games: Sequence[Columns], widths: Mapping[str, int]) -> Columns:
    if not games:
        return {name: np.zeros((0, widths[name]) if name in widths else (0,), dtype=dtype)
                for name, dtype in COLUMNS.items()}
    return {name: np.concatenate([g[name] for g in games]) for name in COLUMNS}


# --- reading ---

def read(path: str | os.PathLike[str]) -> dict[str, npt.NDArray[Any]]:
    """The columns of a self-play file (either format, told by its first bytes), each a
    numpy array with one row per decision: ``observation`` of shape ``(N,
    observation_size)``, ``action_mask`` and ``policy`` ``(N, num_distinct_actions)``,
    ``returns`` ``(N, players)``, the others ``(N,)``.  ValueError for a file that is no
    self-play data of this version."""
    source = Path(path)
    file_format = _sniff(source)
    if file_format == "npz":
        with np.load(source, allow_pickle=False) as data:
            _check_meta(_npz_meta(data, source), source)
            _check_columns(data.files, source)
            return {name: data[name] for name in COLUMNS}
    _pa, pq = _pyarrow()
    table = pq.read_table(source)
    _check_meta(_parquet_meta(table.schema.metadata, source), source)
    _check_columns(table.column_names, source)
    columns: dict[str, npt.NDArray[Any]] = {}
    for name in COLUMNS:
        column = table.column(name).combine_chunks()
        if hasattr(column.type, "list_size"):
            columns[name] = column.flatten().to_numpy().reshape(-1, column.type.list_size)
        else:
            columns[name] = column.to_numpy()
    return columns


def read_meta(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The settings a self-play file carries: ``game``, ``options``, ``bot``, ``seed``,
    ``players``, ``num_distinct_actions``, ``observation_size`` and
    ``observation_layout`` (each field's ``name``, ``start`` and ``shape``), the
    ``format`` name and ``format_version``, the library's and the rules' versions."""
    source = Path(path)
    if _sniff(source) == "npz":
        with np.load(source, allow_pickle=False) as data:
            return _check_meta(_npz_meta(data, source), source)
    _pa, pq = _pyarrow()
    return _check_meta(_parquet_meta(pq.read_schema(source).metadata, source), source)


def _sniff(source: Path) -> str:
    with source.open("rb") as file:
        head = file.read(4)
    for name, magic in _MAGIC.items():
        if head == magic:
            return name
    raise ValueError(f"{str(source)!r} is neither Parquet nor .npz")


def _npz_meta(data: Any, source: Path) -> str:
    if NPZ_META not in data.files:
        raise ValueError(f"{str(source)!r} is not {SELFPLAY_FORMAT} data (no {NPZ_META!r})")
    return str(data[NPZ_META])


def _parquet_meta(metadata: Mapping[bytes, bytes] | None, source: Path) -> str:
    text = (metadata or {}).get(META_KEY.encode())
    if text is None:
        raise ValueError(f"{str(source)!r} is not {SELFPLAY_FORMAT} data "
                         f"(no {META_KEY!r} metadata)")
    return text.decode()


def _check_columns(names: Sequence[str], source: Path) -> None:
    missing = [name for name in COLUMNS if name not in names]
    if missing:
        raise ValueError(f"{str(source)!r} has no column {', '.join(missing)}")


def _check_meta(text: str, source: Path) -> dict[str, Any]:
    try:
        meta = json.loads(text)
    except ValueError:
        meta = None
    if (not isinstance(meta, dict) or meta.get("format") != SELFPLAY_FORMAT
            or meta.get("format_version") != SELFPLAY_FORMAT_VERSION):
        raise ValueError(f"{str(source)!r} is not {SELFPLAY_FORMAT} version "
                         f"{SELFPLAY_FORMAT_VERSION} data")
    return meta
