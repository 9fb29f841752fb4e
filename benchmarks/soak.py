"""Soak: many seeded games of every game and option set, every invariant and round trip
checked, with the counts, the wall time and the memory (peak and growth) reported.

Usage::

    python benchmarks/soak.py                      # 10,000 random games per option set,
                                                   # 300 bot games per game, 2 processes
    python benchmarks/soak.py --games 200 --bot-games 10 --only armada
    python benchmarks/soak.py --json soak.json --rst docs/figures/soak.rst
    python benchmarks/soak.py --only armada --log part.log     # a soak in parts, then
    python benchmarks/soak.py --merge part.log other.log --rst docs/figures/soak.rst

What every game checks (a failure is reported with the command that replays that game):

* after every move (and at the start): ``state.invariants()``, each (counted, expected)
  pair equal -- the "invariant checks" column counts the pairs compared;
* at one sampled step (uniform over the game's moves, kept by reservoir sampling) and at
  the end: ``to_json`` -> ``state_from_json`` (the game's; at the sampled step of one
  game in ``PACKAGE_RESTORE_EVERY``, ``boardrules.state_from_json``) gives an equal state
  with the same bytes that saves the same JSON; ``copy()`` is equal and saves the same JSON; a
  pickle round trip is equal, byte for byte, with the same JSON (RNG included); the
  sampled copy still has the bytes the game had at that step;
* at the end: ``undo()`` back through the whole game gives back each earlier state byte
  for byte (and the move that made it), then replaying the same moves gives each state
  again and the same end, JSON and RNG included.

Random games choose uniformly among the legal moves with a ``random.Random`` seeded per
game; bot games seat the library's bots in turn (random, greedy, MCTS and ISMCTS with
``BOT_ITERATIONS`` iterations, alpha-beta with ``BOT_MAX_NODES`` nodes) and take the
game's example option sets in turn.  Every game's seed derives from ``--seed``, the game,
the option set and the game's index, so one game replays alone (``--start``).

Each task (an option set's random games, or a game's bot games) runs in a fresh worker
process (``--processes``; 0 runs everything in this process), so its peak RSS
(``getrusage``'s ``ru_maxrss``) and its RSS growth (``VmRSS`` of ``/proc/self/status``
after the first 10% of its games against the end) are its own.  Exit status 1 on any
failure.  Nothing here is timed against a target: it is a soak, not a benchmark.
"""

# ruff: noqa: B023  (the lambdas passed as messages to require run at once, in the loop)
from __future__ import annotations

import argparse
import functools
import json
import multiprocessing
import os
import pickle
import platform
import random
import resource
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import boardrules
from boardrules import Game, Move, State
from boardrules.search.bots import AlphaBetaBot, GreedyBot, ISMCTSBot, MCTSBot, RandomBot

DEFAULT_GAMES = 10_000
DEFAULT_BOT_GAMES = 300
DEFAULT_SEED = 20_240_601
#: Search budgets of the bot games: small, a soak is about the contract, not strength.
BOT_ITERATIONS = 200
BOT_MAX_NODES = 2_000
BOT_NAMES = ("random", "greedy", "mcts", "ismcts", "alphabeta")
#: A task stops after this many failing games (the first ones are what one replays).
MAX_FAILURES_PER_TASK = 10
#: One game in this many restores its sampled step's save with the package's
#: ``boardrules.state_from_json``, the others with the game's own: the package's loads the
#: game again from the saved options each time (~25 ms for Rome & Carthage, more than a
#: whole random game), the game's replays the save on the game it has.
PACKAGE_RESTORE_EVERY = 10

AnyState = State[Any]
AnyGame = Game[Any, Any]
Chooser = Callable[[AnyState], Move]


class SoakFailure(AssertionError):
    """A broken invariant or round trip (any other exception a game raises is a failure
    too)."""


def require(condition: object, message: Callable[[], str]) -> None:
    # The message names the position: built only on failure, it costs nothing per move.
    if not condition:
        raise SoakFailure(message())


# --- what one task is and what it found ---------------------------------------------------


@dataclass(frozen=True)
class Task:
    """An option set's random games (``kind`` "random") or a game's bot games ("bots",
    ``option_index`` None: the example option sets in turn)."""

    kind: str
    game_id: str
    option_index: int | None
    games: int
    start: int
    seed: int


@dataclass
class Tally:
    """What a task played and checked, and what it cost."""

    kind: str
    game_id: str
    option_index: int | None
    options: str
    games: int = 0
    moves: int = 0
    invariant_checks: int = 0
    round_trips: int = 0
    failures: list[dict[str, Any]] = field(default_factory=list)
    wall_seconds: float = 0.0
    peak_rss_mib: float = 0.0
    rss_after_tenth_mib: float = 0.0
    rss_end_mib: float = 0.0

    @property
    def rss_growth_mib(self) -> float:
        return self.rss_end_mib - self.rss_after_tenth_mib


@functools.cache
def example_options(game_id: str) -> tuple[dict[str, Any], ...]:
    # cached: loading a game to read its class builds its move table (~25 ms)
    return type(boardrules.load(boardrules.games.AnyGameId(game_id))).example_options


def load(game_id: str, options: dict[str, Any]) -> AnyGame:
    return boardrules.load(boardrules.games.AnyGameId(game_id), **options)


def game_seed(task: Task, option_index: int, index: int) -> int:
    """The seed of one game: the same for the same (--seed, game, option set, index),
    whichever other games run (``random.Random`` seeds a string through SHA-512)."""
    text = f"{task.seed}:{task.kind}:{task.game_id}:{option_index}:{index}"
    return random.Random(text).getrandbits(63)


def replay_command(task: Task, option_index: int, index: int) -> str:
    """The command that plays this one game again."""
    counts = ("--games 1 --bot-games 0" if task.kind == "random"
              else "--games 0 --bot-games 1")
    options = f" --options {option_index}" if task.kind == "random" else ""
    return (f"python benchmarks/soak.py --only {task.game_id}{options} --start {index} "
            f"{counts} --seed {task.seed} --processes 0")


# --- memory -------------------------------------------------------------------------------


def rss_mib() -> float:
    """This process's resident set now (``VmRSS``), in MiB (0.0 where /proc is not)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def peak_rss_mib() -> float:
    """This process's peak resident set (``ru_maxrss``: KiB on Linux, bytes on macOS)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


# --- the checks ---------------------------------------------------------------------------


def check_invariants(state: AnyState, where: Callable[[], str]) -> int:
    """Every (counted, expected) pair equal; returns how many were compared."""
    invariants = state.invariants()
    require(invariants, lambda: f"invariants() is empty: {where()}")
    for name, (counted, expected) in invariants.items():
        require(counted == expected,
                lambda: f"invariant {name!r}: counted {counted}, expected {expected}: {where()}")
    return len(invariants)


def check_round_trips(state: AnyState, where: Callable[[], str], *,
                      by_package: bool) -> int:
    """Save and restore, copy and pickle each give the same state byte for byte, with
    the same JSON (RNG included); returns the number of round trips (3).  The save is
    restored by ``boardrules.state_from_json`` (``by_package``: it loads the game again
    from the saved options, ~15 ms for Armada) or by the game's own ``state_from_json``."""
    text = state.to_json()
    saved_bytes = state.state_bytes()
    restored = (boardrules.state_from_json(text) if by_package
                else state.game.state_from_json(text))
    require(restored == state and restored.state_bytes() == saved_bytes,
            lambda: f"state_from_json(to_json()) gives another state: {where()}")
    require(restored.to_json() == text,
            lambda: f"the restored state saves other JSON: {where()}")
    twin = state.copy()
    require(twin == state and twin.to_json() == text,
            lambda: f"copy() differs from the state: {where()}")
    unpickled = pickle.loads(pickle.dumps(state))
    require(unpickled == state and unpickled.state_bytes() == saved_bytes,
            lambda: f"a pickle round trip gives another state: {where()}")
    require(unpickled.to_json() == text,
            lambda: f"a pickle round trip saves other JSON (RNG?): {where()}")
    return 3


def check_undo_and_replay(state: AnyState, moves: list[Move], trail: list[bytes],
                          where: Callable[[], str]) -> None:
    """``undo()`` back to the start gives back every earlier state byte for byte, then
    replaying ``moves`` gives every state again and the same end (JSON, RNG included)."""
    end_text = state.to_json()
    for step in range(len(moves), 0, -1):
        undone = state.undo()
        require(undone == moves[step - 1],
                lambda: f"undo at step {step} took back {undone}, not {moves[step - 1]}: "
                        f"{where()}")
        require(state.state_bytes() == trail[step - 1],
                lambda: f"undo back to step {step - 1} gives other bytes: {where()}")
    for step, move in enumerate(moves, start=1):
        state.apply(move)
        require(state.state_bytes() == trail[step],
                lambda: f"replaying after undo gives other bytes at step {step}: {where()}")
    require(state.to_json() == end_text,
            lambda: f"replaying after undo ends in another save (RNG?): {where()}")


@dataclass
class Counts:
    moves: int = 0
    invariant_checks: int = 0
    round_trips: int = 0


def play_checked(game: AnyGame, seed: int, choose: Chooser, counts: Counts,
                 label: str, *, by_package: bool) -> None:
    """One game to its end with ``choose``, every check made (SoakFailure on the first
    that fails)."""
    state = game.new_game(seed=seed)
    sampler = random.Random(seed ^ 0x5EED)
    moves: list[Move] = []
    trail = [state.state_bytes()]

    def where() -> str:
        tail = " ".join(str(m) for m in moves[-6:])
        return f"{label}, step {len(moves)} (last moves: {tail or '-'})"

    counts.invariant_checks += check_invariants(state, where)
    sampled: tuple[int, AnyState] | None = None
    while not state.is_terminal():
        require(len(moves) < game.max_game_length,
                lambda: f"longer than max_game_length {game.max_game_length}: {where()}")
        move = choose(state)
        state.apply(move)
        moves.append(move)
        trail.append(state.state_bytes())
        counts.invariant_checks += check_invariants(state, where)
        # reservoir sampling: step t replaces the kept copy with probability 1/t, so the
        # sampled step is uniform over the game without knowing its length in advance
        if sampler.randrange(len(moves)) == 0:
            sampled = (len(moves), state.copy())
    counts.moves += len(moves)
    if sampled is not None:
        step, copy = sampled
        require(copy.state_bytes() == trail[step],
                lambda: f"the copy taken at step {step} changed as the game went on: {where()}")
        counts.round_trips += check_round_trips(copy, lambda: f"{where()}, sampled step {step}",
                                                by_package=by_package)
    counts.round_trips += check_round_trips(state, where, by_package=False)
    check_undo_and_replay(state, moves, trail, where)
    counts.round_trips += 1


# --- choosers -----------------------------------------------------------------------------


def random_chooser(seed: int) -> Chooser:
    rng = random.Random(seed)
    return lambda state: rng.choice(state.legal_moves())


def make_bot(name: str, seed: int) -> Any:
    if name == "random":
        return RandomBot(seed=seed)
    if name == "greedy":
        return GreedyBot(seed=seed)
    if name == "mcts":
        return MCTSBot(iterations=BOT_ITERATIONS, seed=seed)
    if name == "ismcts":
        return ISMCTSBot(iterations=BOT_ITERATIONS, seed=seed)
    return AlphaBetaBot(max_nodes=BOT_MAX_NODES, seed=seed)


def bot_seating(players: int, index: int) -> list[str]:
    """The bots at the table of bot game ``index``: the five in turn, one seat further
    each game, so every bot meets every other at every seat."""
    return [BOT_NAMES[(index + seat) % len(BOT_NAMES)] for seat in range(players)]


def bots_chooser(game: AnyGame, index: int, seed: int) -> Chooser:
    rng = random.Random(seed)
    bots = [make_bot(name, rng.getrandbits(63))
            for name in bot_seating(game.num_players, index)]
    return lambda state: bots[state.current_player].choose(state)


# --- a task -------------------------------------------------------------------------------


def games_of(task: Task) -> Iterator[tuple[int, int]]:
    """(option index, game index) of each game the task plays."""
    count = len(example_options(task.game_id))
    for index in range(task.start, task.start + task.games):
        yield (task.option_index if task.option_index is not None else index % count), index


def options_label(task: Task) -> str:
    if task.option_index is None:
        return "example options in turn"
    options = example_options(task.game_id)[task.option_index]
    return json.dumps(options, sort_keys=True) if options else "{}"


def run_task(task: Task) -> Tally:
    """Play and check the task's games; what they counted and cost."""
    tally = Tally(task.kind, task.game_id, task.option_index, options_label(task))
    counts = Counts()
    games: dict[int, AnyGame] = {}
    tenth = max(1, task.games // 10)
    start = time.perf_counter()
    for played, (option_index, index) in enumerate(games_of(task), start=1):
        options = example_options(task.game_id)[option_index]
        if option_index not in games:
            games[option_index] = load(task.game_id, options)
        game = games[option_index]
        seed = game_seed(task, option_index, index)
        choose = (random_chooser(seed) if task.kind == "random"
                  else bots_chooser(game, index, seed))
        label = f"{task.game_id} {options} {task.kind} game {index}"
        try:
            play_checked(game, seed, choose, counts, label,
                         by_package=index % PACKAGE_RESTORE_EVERY == 0)
        except Exception as exc:  # every exception is a finding to report, then go on
            tally.failures.append({
                "game": task.game_id, "options": options, "kind": task.kind,
                "index": index, "seed": task.seed, "game_seed": seed,
                "error": f"{type(exc).__name__}: {exc}",
                "replay": replay_command(task, option_index, index)})
            if len(tally.failures) >= MAX_FAILURES_PER_TASK:
                break
        tally.games = played
        if played == tenth:
            tally.rss_after_tenth_mib = rss_mib()
    tally.wall_seconds = time.perf_counter() - start
    tally.moves, tally.invariant_checks = counts.moves, counts.invariant_checks
    tally.round_trips = counts.round_trips
    tally.rss_end_mib = rss_mib()
    tally.peak_rss_mib = peak_rss_mib()
    return tally


def tasks_of(args: argparse.Namespace) -> list[Task]:
    """The random tasks (one per option set) and the bot tasks (one per game), the
    longest games first so that the worker processes finish together."""
    out = []
    for game_id in args.only or boardrules.available_games():
        count = len(example_options(game_id))
        indexes = [args.options] if args.options is not None else range(count)
        if args.games > 0:
            out += [Task("random", game_id, k, args.games, args.start, args.seed)
                    for k in indexes if 0 <= k < count]
        if args.bot_games > 0:
            out.append(Task("bots", game_id, None, args.bot_games, args.start, args.seed))
    return sorted(out, key=lambda t: -load(t.game_id, {}).max_game_length)


def run_tasks(tasks: Sequence[Task], processes: int, log: str | None = None) -> list[Tally]:
    """Every task's tally (:func:`in_table_order`); each one's row is printed to
    stderr as it ends, and appended to ``log`` as a JSON line (a long soak stopped early
    still leaves what it finished: ``--merge`` makes the table of such logs)."""
    def progress(tally: Tally) -> Tally:
        print("done: " + " | ".join(table_rows([tally])[0]), file=sys.stderr, flush=True)
        if log is not None:
            with open(log, "a", encoding="utf-8") as out:
                out.write(json.dumps(asdict(tally)) + "\n")
        return tally

    if processes == 0:
        return in_table_order(progress(run_task(task)) for task in tasks)
    # a fresh process per task: its peak RSS and growth are its own
    with multiprocessing.Pool(processes, maxtasksperchild=1) as pool:
        return in_table_order(progress(tally) for tally in
                              pool.imap_unordered(run_task, tasks, chunksize=1))


def read_tallies(paths: Sequence[str]) -> list[Tally]:
    """The tallies of ``--log`` files (a JSON line a task) and ``--json`` reports, in
    the order of the tasks of a whole soak (a task found twice: the last one read)."""
    found: dict[tuple[str, str, int | None], Tally] = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        try:
            whole = json.loads(text)
        except json.JSONDecodeError:  # more than one line: a log
            whole = None
        if isinstance(whole, dict) and "tasks" in whole:  # a --json report
            records = whole["tasks"]
        else:
            records = [json.loads(line) for line in text.splitlines() if line.strip()]
        for record in records:
            record.pop("rss_growth_mib", None)  # a property of Tally, in reports
            tally = Tally(**record)
            found[tally.kind, tally.game_id, tally.option_index] = tally
    return in_table_order(found.values())


def in_table_order(tallies: Iterable[Tally]) -> list[Tally]:
    """By game (as ``available_games`` lists them), random games by option set, then
    bot games."""
    rank = {game_id: i for i, game_id in enumerate(boardrules.available_games())}
    return sorted(tallies, key=lambda t: (
        rank.get(t.game_id, len(rank)), t.kind == "bots", t.option_index or 0))


# --- the report ---------------------------------------------------------------------------


HEADER = ("game", "options", "games", "moves", "invariant checks", "round trips",
          "failures", "wall s", "peak RSS MiB", "RSS growth MiB")


def table_rows(tallies: Sequence[Tally]) -> list[tuple[str, ...]]:
    rows: list[tuple[str, ...]] = []
    for t in tallies:
        name = t.game_id if t.kind == "random" else f"{t.game_id} (bots)"
        rows.append((name, t.options, f"{t.games:,}", f"{t.moves:,}",
                     f"{t.invariant_checks:,}", f"{t.round_trips:,}",
                     str(len(t.failures)), f"{t.wall_seconds:,.1f}",
                     f"{t.peak_rss_mib:.1f}", f"{t.rss_growth_mib:+.1f}"))
    return rows


def total_row(tallies: Sequence[Tally]) -> tuple[str, ...]:
    """The sums (wall: the tasks' wall times added up), the largest peak and growth."""
    wall = sum(t.wall_seconds for t in tallies)
    return ("all", f"{len(tallies)} tasks", f"{sum(t.games for t in tallies):,}",
            f"{sum(t.moves for t in tallies):,}",
            f"{sum(t.invariant_checks for t in tallies):,}",
            f"{sum(t.round_trips for t in tallies):,}",
            str(sum(len(t.failures) for t in tallies)), f"{wall:,.1f}",
            f"{max((t.peak_rss_mib for t in tallies), default=0.0):.1f}",
            f"{max((t.rss_growth_mib for t in tallies), default=0.0):+.1f}")


def rst_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A reStructuredText grid table (cells may hold spaces and commas)."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    rule = "+" + "+".join("-" * (w + 2) for w in widths) + "+"
    head_rule = rule.replace("-", "=")

    def line(row: Sequence[str]) -> str:
        return "|" + "|".join(f" {c.ljust(w)} " for c, w in zip(row, widths, strict=True)) + "|"

    out = [rule, line(header), head_rule]
    for row in rows:
        out += [line(row), rule]
    return "\n".join(out) + "\n"


def machine() -> dict[str, Any]:
    return {"platform": platform.platform(), "python": platform.python_version(),
            "cpus": os.cpu_count(), "boardrules": boardrules.__version__}


def report(tallies: Sequence[Tally], wall: float, argv: Sequence[str]) -> dict[str, Any]:
    return {"command": " ".join(["python benchmarks/soak.py", *argv]), "machine": machine(),
            "wall_seconds": wall,
            "tasks": [asdict(t) | {"rss_growth_mib": t.rss_growth_mib} for t in tallies],
            "failures": [f for t in tallies for f in t.failures]}


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES,
                        help="random games per game and option set (default %(default)s)")
    parser.add_argument("--bot-games", type=int, default=DEFAULT_BOT_GAMES,
                        help="bot games per game (default %(default)s)")
    parser.add_argument("--only", action="append", choices=boardrules.available_games(),
                        metavar="GAME", help="this game only (may be repeated)")
    parser.add_argument("--options", type=int, default=None, metavar="K",
                        help="random games of the K-th example option set only")
    parser.add_argument("--start", type=int, default=0,
                        help="index of the first game (to replay one game: --games 1)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--processes", type=int, default=min(2, os.cpu_count() or 1),
                        help="worker processes, one task each (0: in this process)")
    parser.add_argument("--json", metavar="FILE", help="also write the report as JSON")
    parser.add_argument("--rst", metavar="FILE", help="also write the table alone")
    parser.add_argument("--log", metavar="FILE",
                        help="append each finished task's tally as a JSON line")
    parser.add_argument("--merge", nargs="+", metavar="FILE",
                        help="play nothing: the table of these --log files and --json "
                             "reports (e.g. a soak run in parts)")
    args = parser.parse_args(argv)
    if min(args.games, args.bot_games, args.start, args.processes) < 0:
        parser.error("--games, --bot-games, --start and --processes must be >= 0")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parse_args(argv)
    start = time.perf_counter()
    if args.merge:
        tallies = read_tallies(args.merge)
    else:
        tallies = run_tasks(tasks_of(args), args.processes, args.log)
    wall = time.perf_counter() - start
    table = rst_table(HEADER, [*table_rows(tallies), total_row(tallies)])
    print(f"boardrules {boardrules.__version__}, Python {platform.python_version()}, "
          f"{platform.platform()}, {os.cpu_count()} CPUs, {args.processes} processes, "
          f"{wall:,.1f} s" + (" (merged)" if args.merge else ""))
    print(table)
    doc = report(tallies, wall, argv)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(doc, out, indent=1)
    if args.rst:
        with open(args.rst, "w", encoding="utf-8") as out:
            out.write(table)
    for failure in doc["failures"]:
        print(f"FAILURE {failure['error']}\n  replay: {failure['replay']}", file=sys.stderr)
    return 1 if doc["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
