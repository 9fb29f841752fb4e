"""Engine and search speed on this machine: the figures behind ``boardrules bench``.

For each game (its default options), a few representative workloads, each run for a
bounded time and timed in CPU seconds of this process (``time.process_time``: every
workload runs on one thread, and CPU time moves far less than wall time when other work
shares the machine):

* **playouts (C core)** -- :meth:`CoreGame.random_playouts <boardrules.Game.core>`:
  whole seeded random games in C, chance included; atomic actions (and games) a second;
* **playouts (Python)** -- the loop a user writes, ``apply(rng.choice(
  legal_moves()))`` from ``new_game(seed=i)`` to the end; moves (and games) a second;
* **legal moves** -- what ``legal_moves()`` does (the core's list of legal actions mapped
  to typed moves) on fresh copies of seeded positions, so that the list is generated, not
  read from the state's cache; calls a second;
* **apply+undo** -- every legal move of the seeded positions applied and taken back;
  pairs a second;
* **MCTS / ISMCTS (1 thread)** -- :func:`~boardrules.search.suggest` with one thread from the seeded
  positions: ISMCTS on a game with hidden information, MCTS otherwise, the game's own
  rollout limit and exploration; simulations (iterations) a second.

The positions are the start of a game, or for the larger games the first decision with a
choice after a number of random actions (:data:`POSITION_HISTORY`, the values of the
per-game scripts in ``benchmarks/``).  Every workload is seeded: a given batch does the
same work on every run; only the times vary.

The machine's load (:func:`os.getloadavg`) is read before and after and compared with the
cores this process may run on: :class:`LoadCheck` says when other work was running.

>>> from boardrules.bench import run_bench
>>> report = run_bench(["tic_tac_toe"], seconds=0.01, search=False)
>>> [row.workload for row in report.rows]  # doctest: +NORMALIZE_WHITESPACE
['playouts (C core)', 'playouts (Python)', 'legal moves', 'apply+undo']
>>> all(row.rate > 0 for row in report.rows)
True
"""

from __future__ import annotations

import itertools
import json
import math
import os
import platform
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

import boardrules
from boardrules.api import CHANCE, Game, State

__all__ = ["DEFAULT_GAMES", "DEFAULT_SECONDS", "BenchReport", "BenchRow", "LoadCheck",
           "Workload", "check_games", "cpu_model", "python_api_playouts", "run_bench",
           "seeded_positions", "time_workload", "workloads"]

AnyGame = Game[Any, Any]
AnyState = State[Any]
LoadAverage = Callable[[], tuple[float, float, float]]

#: The games ``boardrules bench`` measures when none is named: the four and connect_four
#: (the search benchmarks' reference game).
DEFAULT_GAMES = ("armadora", "rome_and_carthage", "armada", "albion", "connect_four")
#: CPU seconds each row runs for by default.
DEFAULT_SECONDS = 0.5
#: A row's timed jobs stop after this many times its CPU budget of wall time (on a busy
#: machine CPU time comes slowly).
WALL_FACTOR = 4.0
#: Calibration: the batch grows until one run takes this share of the row's budget.
CALIBRATION_SHARE = 0.05
#: Random actions before a benchmarked position (the games not listed start from the
#: beginning): past Rome & Carthage's placement, a few rounds into Albion and Armada, as
#: the per-game benchmark scripts draw them.
POSITION_HISTORY: dict[str, int] = {"rome_and_carthage": 80, "albion": 40, "armada": 120}
POSITION_COUNT = 4
POSITION_SEED = 7
#: Seed of the C core's playouts (that of ``benchmarks/run.py``).
PLAYOUT_SEED = 20_130_101
#: Seed of the Python loop's ``random.Random`` (games use ``new_game(seed=i)``).
PYTHON_RNG_SEED = 12_345
#: Search budgets tried (iterations a search; the largest keeps a row's searches short of
#: trees far bigger than a bot's).
SEARCH_FIRST, SEARCH_LIMIT = 32, 20_000
#: Load beyond this benchmark's own, a core, above which the figures are flagged.
LOAD_PER_CORE = 0.5
#: The load this benchmark adds itself: one busy thread.
OWN_LOAD = 1.0


# --- shared workload code (also imported by benchmarks/) -----------------------------------


def seeded_positions(game: AnyGame, count: int, seed: int, min_history: int) -> list[AnyState]:
    """``count`` seeded positions reached by random play: the first decision with a
    choice after ``min_history`` actions (a new game if one ends first)."""
    out: list[AnyState] = []
    for i in range(count):
        state = game.new_game(seed=seed + i)
        rng = random.Random(seed + i)
        while len(out) <= i:
            state.apply(rng.choice(state.legal_moves()))
            if state.is_terminal():
                state = game.new_game(seed=seed + 100 + i)
            elif (len(state.history) > min_history and state.current_player != CHANCE
                  and len(state.legal_moves()) > 1):
                out.append(state)
    return out


def python_api_playouts(game: AnyGame, games: int, rng_seed: int = PYTHON_RNG_SEED) -> int:
    """Play ``games`` random games through the public API; the number of player moves."""
    rng = random.Random(rng_seed)
    choice = rng.choice
    moves = 0
    for i in range(games):
        state = game.new_game(seed=i)
        while not state.is_terminal():
            state.apply(choice(state.legal_moves()))
            moves += 1
    return moves


def cpu_model() -> str:
    """The CPU's model name, as well as the platform tells it."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown CPU"


# --- rows, load, report --------------------------------------------------------------------


@dataclass(frozen=True)
class BenchRow:
    """One measured workload: ``count`` ``unit`` in ``cpu_seconds`` of CPU time."""

    game: str
    players: int
    workload: str
    unit: str
    count: int
    cpu_seconds: float
    #: wall time of the timed jobs
    wall_seconds: float
    #: runs of the workload timed, and the size of each (games, calls, iterations...)
    runs: int
    batch: int
    #: whole games played (the playout rows), else None
    games: int | None = None
    note: str = ""

    @property
    def rate(self) -> float:
        """``unit`` a CPU second (not a wall second)."""
        return self.count / self.cpu_seconds if self.cpu_seconds > 0 else 0.0

    @property
    def games_per_s(self) -> float | None:
        """Whole games a CPU second (the playout rows), else None."""
        if self.games is None or self.cpu_seconds <= 0:
            return None
        return self.games / self.cpu_seconds

    def as_dict(self) -> dict[str, Any]:
        # "clock": the rates are per CPU second, said on every row so that a figure copied
        # out of the report keeps its clock (pytest-benchmark's are per wall second)
        return {**asdict(self), "rate": self.rate, "games_per_s": self.games_per_s,
                "clock": "cpu"}


@dataclass(frozen=True)
class LoadCheck:
    """The 1-minute load average before and after the run, against the cores.

    The benchmark itself keeps one thread busy (:data:`OWN_LOAD`); the other work is the
    larger of the load before and the load after less that.  Above :data:`LOAD_PER_CORE`
    a core, the machine was busy enough for the figures to read low: CPU time hides
    waiting for a core, not sharing caches and memory bandwidth with other work.
    """

    before: float | None
    after: float | None
    cores: int
    own: float = OWN_LOAD
    per_core: float = LOAD_PER_CORE

    @property
    def other_load(self) -> float | None:
        """The load beyond this benchmark's (None when the platform has no load average)."""
        if self.before is None or self.after is None:
            return None
        return max(self.before, self.after - self.own, 0.0)

    @property
    def busy(self) -> bool:
        other = self.other_load
        return other is not None and other > self.per_core * self.cores

    def warning(self) -> str | None:
        """The line to print when the machine was busy, else None."""
        if not self.busy:
            return None
        return (f"warning: the machine is busy: load average {self.before:.2f} before and "
                f"{self.after:.2f} after on {self.cores} cores, about {self.other_load:.1f} "
                f"beyond this benchmark's own thread (more than {self.per_core:g} a core); "
                "the figures may read low and vary from run to run")

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "other_load": self.other_load, "busy": self.busy,
                "warning": self.warning()}


@dataclass(frozen=True)
class BenchReport:
    rows: tuple[BenchRow, ...]
    load: LoadCheck
    seconds: float
    machine: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"machine": self.machine, "seconds_per_row": self.seconds,
                "clock": "process_time", "load": self.load.as_dict(),
                "rows": [row.as_dict() for row in self.rows]}

    def to_json(self) -> str:
        return json.dumps(self.as_dict(), indent=1)


def machine() -> dict[str, Any]:
    return {"platform": platform.platform(), "cpu": cpu_model(), "cores": core_count(),
            "python": f"{platform.python_implementation()} {platform.python_version()}",
            "boardrules": boardrules.__version__}


def core_count() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on every platform
        return os.cpu_count() or 1


def read_load(loadavg: LoadAverage | None) -> float | None:
    if loadavg is None:
        return None
    try:
        return float(loadavg()[0])
    except OSError:  # a platform without a load average
        return None


# --- timing --------------------------------------------------------------------------------

#: A workload: given a batch size, a job to time (made untimed); the job returns its count.
Job = Callable[[], int]


@dataclass(frozen=True)
class Workload:
    name: str
    unit: str
    make: Callable[[int], Job]
    first: int = 1
    limit: int = 1 << 22
    counts_games: bool = False
    note: str = ""


@dataclass(frozen=True)
class Timing:
    count: int
    cpu_seconds: float
    wall_seconds: float
    runs: int
    batch: int


def calibrate(make: Callable[[int], Job], seconds: float, first: int, limit: int,
              clock: Callable[[], float]) -> int:
    """The batch of which one run takes about :data:`CALIBRATION_SHARE` of ``seconds``
    (these runs are not counted: the first ones warm the caches up)."""
    target = seconds * CALIBRATION_SHARE
    batch = first
    while batch < limit:
        job = make(batch)
        start = clock()
        job()
        took = clock() - start
        if took >= target:
            break
        batch = min(limit, batch * (8 if took < target / 8 else 2))
    return batch


def time_workload(make: Callable[[int], Job], seconds: float, *, first: int = 1,
                  limit: int = 1 << 22, clock: Callable[[], float] = time.process_time
                  ) -> Timing:
    """Run ``make(batch)`` jobs until they took ``seconds`` of ``clock`` (CPU time); only
    the jobs themselves are timed.  On a busy machine CPU time comes slowly: the jobs stop
    after :data:`WALL_FACTOR` times ``seconds`` of wall time (twice that with the
    untimed making of the jobs), whatever CPU time they got."""
    batch = calibrate(make, seconds, first, limit, clock)
    count = runs = 0
    cpu = wall = 0.0
    started = time.perf_counter()
    while runs == 0 or (cpu < seconds and wall < WALL_FACTOR * seconds
                        and time.perf_counter() - started < 2 * WALL_FACTOR * seconds):
        job = make(batch)
        wall_start, start = time.perf_counter(), clock()
        count += job()
        cpu += clock() - start
        wall += time.perf_counter() - wall_start
        runs += 1
    return Timing(count, cpu, wall, runs, batch)


# --- the workloads of a game ---------------------------------------------------------------


def bench_positions(game_id: str, game: AnyGame) -> list[AnyState]:
    history = POSITION_HISTORY.get(game_id)
    if history is None:
        return [game.new_game(seed=POSITION_SEED + i) for i in range(POSITION_COUNT)]
    return seeded_positions(game, POSITION_COUNT, POSITION_SEED, history)


def search_algorithm(game: AnyGame) -> Literal["mcts", "ismcts"]:
    """The search the game defaults to: ISMCTS when it hides something."""
    return "ismcts" if game.has_hidden_information else "mcts"


def legal_moves_job(positions: Sequence[AnyState], batch: int) -> Job:
    # The call State.legal_moves() makes, on copies of the positions' cores without their
    # undo history (a state's copy carries it: megabytes for a batch of Armada positions):
    # a fresh core has no list of legal moves yet, so each call generates it.
    table = positions[0].game._moves
    cores = [positions[i % len(positions)]._core.copy(False) for i in range(batch)]

    def job() -> int:
        for core in cores:
            core.legal_moves(table)
        return len(cores)
    return job


def apply_undo_job(pairs: Sequence[tuple[AnyState, Any]], batch: int) -> Job:
    def job() -> int:
        for i in range(batch):
            state, move = pairs[i % len(pairs)]
            state.apply(move)
            state.undo()
        return batch
    return job


def search_job(positions: Sequence[AnyState], algorithm: Literal["mcts", "ismcts"],
               turn: Iterable[int]) -> Callable[[int], Job]:
    from boardrules.search import suggest

    order = iter(turn)

    def make(iterations: int) -> Job:
        i = next(order)

        def job() -> int:
            result = suggest(positions[i], algorithm=algorithm, iterations=iterations,
                             threads=1, seed=i)
            return int(result.stats["iterations"])
        return job
    return make


def workloads(game_id: str, game: AnyGame, search: bool = True) -> list[Workload]:
    """The workloads of one game (its positions drawn once here)."""
    positions = bench_positions(game_id, game)
    pairs = [(state, move) for state in positions for move in state.legal_moves()]
    mean_moves = len(pairs) / len(positions)
    where = ("the start" if game_id not in POSITION_HISTORY
             else f"{len(positions)} positions after {POSITION_HISTORY[game_id]}+ actions")
    out = [
        Workload("playouts (C core)", "actions",
                 lambda n: lambda: int(game.core.random_playouts(n, PLAYOUT_SEED)),
                 counts_games=True, note="whole games in C, chance included"),
        Workload("playouts (Python)", "moves",
                 lambda n: lambda: python_api_playouts(game, n), counts_games=True,
                 note="new_game, legal_moves, apply"),
        Workload("legal moves", "calls", lambda n: legal_moves_job(positions, n),
                 limit=1 << 16, note=f"{where}, {mean_moves:.1f} moves each"),
        Workload("apply+undo", "pairs", lambda n: apply_undo_job(pairs, n),
                 note=f"every legal move of {where}"),
    ]
    if search:
        algorithm = search_algorithm(game)
        out.append(Workload(
            f"{algorithm.upper()} (1 thread)", "simulations",
            search_job(positions, algorithm, itertools.cycle(range(len(positions)))),
            first=SEARCH_FIRST, limit=SEARCH_LIMIT, note=f"from {where}"))
    return out


def check_games(games: Iterable[str]) -> list[str]:
    """The games asked for, each once, in order; ``ValueError`` naming an unknown one."""
    asked = list(dict.fromkeys(games))
    known = boardrules.available_games()
    unknown = [g for g in asked if g not in known]
    if unknown:
        raise ValueError(f"unknown game{'s' if len(unknown) > 1 else ''} "
                         f"{', '.join(repr(g) for g in unknown)} (the games: "
                         f"{', '.join(known)})")
    if not asked:
        raise ValueError("no game to measure")
    return asked


def check_seconds(seconds: float) -> float:
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) \
            or not math.isfinite(seconds) or not 0 < seconds <= 600:
        raise ValueError(f"seconds must be a number above 0 and at most 600, not {seconds!r}")
    return float(seconds)


def run_bench(games: Iterable[str] = DEFAULT_GAMES, *, seconds: float = DEFAULT_SECONDS,
              search: bool = True, loadavg: LoadAverage | None = os.getloadavg,
              cores: int | None = None,
              progress: Callable[[str, str], None] | None = None) -> BenchReport:
    """Measure every workload of every game for ``seconds`` of CPU time each.

    ``loadavg`` (default :func:`os.getloadavg`; None: not read) gives the load before and
    after; ``cores`` defaults to the cores this process may run on; ``progress(game,
    workload)`` is called before each row.  Unknown games and a bad ``seconds`` raise
    ``ValueError`` before anything runs.
    """
    asked = check_games(games)
    seconds = check_seconds(seconds)
    before = read_load(loadavg)
    rows = []
    for game_id in asked:
        game: AnyGame = boardrules.load(game_id)
        for workload in workloads(game_id, game, search):
            if progress is not None:
                progress(game_id, workload.name)
            rows.append(measure(game_id, game, workload, seconds))
    load = LoadCheck(before, read_load(loadavg), cores if cores is not None else core_count())
    return BenchReport(tuple(rows), load, seconds, machine())


def measure(game_id: str, game: AnyGame, workload: Workload, seconds: float) -> BenchRow:
    timing = time_workload(workload.make, seconds, first=workload.first, limit=workload.limit)
    return BenchRow(
        game=game_id, players=game.num_players, workload=workload.name, unit=workload.unit,
        count=timing.count, cpu_seconds=timing.cpu_seconds, wall_seconds=timing.wall_seconds,
        runs=timing.runs, batch=timing.batch,
        games=timing.runs * timing.batch if workload.counts_games else None,
        note=workload.note)
