"""``boardrules match``: a match between bots (:func:`boardrules.arena.play_match`),
printed as a table or JSON, with its progress on standard error as it goes: a live bar
on a terminal, one line per tenth of the games otherwise.  Ctrl-C stops it and prints
the finished games (exit status 130)."""

from __future__ import annotations

import argparse
import sys
from abc import abstractmethod
from collections.abc import Iterator
from contextlib import AbstractContextManager
from types import TracebackType
from typing import TYPE_CHECKING, Any, Protocol, TextIO

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

#: The exit status of a match stopped by Ctrl-C (128 + SIGINT, as a shell reports it).
INTERRUPTED_STATUS = 130


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "match", help="play a match between bots and print each bot's score",
        description="Play GAMES games between the bots, seats rotated (see the arena docs). "
                    "A bot is a spec: random, greedy, mcts:iterations=1000, "
                    "ismcts:iterations=2000,threads=1, alphabeta:depth=3, mcts:time_limit=0.5. "
                    "The progress goes to standard error (a live bar on a terminal); "
                    "Ctrl-C stops the match and prints the games finished so far.")
    p.add_argument("game", metavar="GAME", help="a game id (see the games command)")
    p.add_argument("bots", nargs="+", metavar="BOT", help="two or more bot specs")
    p.add_argument("--games", type=int, default=100, metavar="N",
                   help="games to play (default 100)")
    p.add_argument("--seed", type=int, default=0, metavar="S",
                   help="the match seed (default 0)")
    p.add_argument("--processes", type=int, default=None, metavar="P",
                   help="worker processes (default: every core; 1 plays in-process)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a game option, e.g. --option players=4 (repeatable)")
    p.add_argument("--records", default=None, metavar="DIR",
                   help="write each finished game's whole record to DIR/game-00001.json, "
                        "... (DIR is made if missing and must hold no game records)")
    p.add_argument("--move-time-limit", type=float, default=None, metavar="SECONDS",
                   help="a bot over it on a move forfeits the game")
    p.add_argument("--backend", default="local", choices=("local", "ray"),
                   help="local processes (default) or Ray actors (ray.init: RAY_ADDRESS "
                        "or a local Ray)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(run=match)


def match(args: argparse.Namespace) -> int:
    """Exit status 2 and the reason on a bad game, option, bot or records directory, 1 if
    a record cannot be written, 130 after Ctrl-C (with the finished games printed)."""
    from boardrules import arena

    try:
        with progress_display(sys.stderr) as show:
            result = arena.play_match(args.game, args.bots, games=args.games, seed=args.seed,
                                      processes=args.processes,
                                      options=arena.parse_options(args.option),
                                      progress=show, records_dir=args.records,
                                      move_time_limit=args.move_time_limit,
                                      backend=args.backend)
    except (ValueError, TypeError, LookupError, ImportError) as exc:
        print(f"boardrules match: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # the records directory cannot be made or written
        print(f"boardrules match: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # before the games started: nothing to show
        print("boardrules match: interrupted", file=sys.stderr)
        return INTERRUPTED_STATUS
    print(result.to_json() if args.json else result.table())
    if result.interrupted:
        print(f"boardrules match: interrupted after {result.games} of {args.games} games",
              file=sys.stderr)
        return INTERRUPTED_STATUS
    return 0


class MatchProgress(Protocol):
    """What the displays read of a match's (or a tournament's) progress."""

    @property
    def done(self) -> int: ...
    @property
    def total(self) -> int: ...
    @property
    def bots(self) -> tuple[str, ...]: ...
    @property
    def scores(self) -> tuple[float, ...]: ...
    @property
    def elapsed(self) -> float: ...
    @property
    def seconds_left(self) -> float | None: ...


def progress_display(stream: TextIO, what: str = "match") -> _Display:
    """The progress display for ``stream``: a live bar if it is a terminal, else a line
    per tenth of the games (a log file or a pipe gets no cursor movements)."""
    isatty = getattr(stream, "isatty", None)
    if callable(isatty) and isatty():
        return _Bar(stream)
    return _Lines(stream, what)


def scores_text(progress: MatchProgress) -> str:
    """Each bot's score so far: ``greedy 12.5, random 3.5``."""
    return ", ".join(f"{bot} {score:g}" for bot, score in
                     zip(progress.bots, progress.scores, strict=True))


def clock(seconds: float) -> str:
    """A duration as ``h:mm:ss`` (as the bar shows it)."""
    minutes, secs = divmod(round(seconds), 60)
    return f"{minutes // 60}:{minutes % 60:02d}:{secs:02d}"


class _Display(AbstractContextManager["_Display"]):
    """Shows a match's progress: called with each :class:`~boardrules.arena.MatchProgress`."""

    @abstractmethod
    def __call__(self, progress: MatchProgress) -> None: ...

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 traceback: TracebackType | None) -> None:
        return None


class _Lines(_Display):
    """A line each time another tenth of the games is done."""

    def __init__(self, stream: TextIO, what: str = "match") -> None:
        self.stream = stream
        self.what = what
        self.tenths = 0

    def __call__(self, progress: MatchProgress) -> None:
        tenths = progress.done * 10 // progress.total
        if tenths <= self.tenths:
            return
        self.tenths = tenths
        left = progress.seconds_left
        eta = f", {clock(left)} left" if left else ""
        print(f"boardrules {self.what}: {progress.done}/{progress.total} games, "
              f"{scores_text(progress)}, {clock(progress.elapsed)} elapsed{eta}",
              file=self.stream, flush=True)


class _Bar(_Display):
    """A live bar (rich): games done of the total, the scores, elapsed and time left.  It
    is drawn from the first report on, which comes once the worker processes exist:
    rich's refresh thread is then never copied into a forked worker."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.bar: Progress | None = None
        self.task: TaskID | None = None

    def __call__(self, progress: MatchProgress) -> None:
        if self.bar is None or self.task is None:
            self.bar, self.task = self._start(progress.total)
        self.bar.update(self.task, completed=progress.done, scores=scores_text(progress))

    def _start(self, total: int) -> tuple[Progress, TaskID]:
        from rich.console import Console, RenderableType
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
        from rich.table import Column
        from rich.text import Text

        class ScoresBelow(Progress):
            """The bar's line, then the scores on a line of their own: a few bot specs
            are longer than a terminal line leaves beside the bar."""

            def get_renderables(self) -> Iterator[RenderableType]:
                yield self.make_tasks_table(self.tasks)
                for task in self.tasks:
                    yield Text(f"  {task.fields.get('scores', '')}")

        def fixed(text: str) -> Column:  # the bar alone shrinks on a narrow terminal
            return Column(no_wrap=True, min_width=len(text))

        count = f"{total}/{total}"
        bar = ScoresBelow(
            TextColumn("games", table_column=fixed("games")), BarColumn(),
            MofNCompleteColumn(table_column=fixed(count)),
            TimeElapsedColumn(table_column=fixed("0:00:00")),
            TextColumn("elapsed,", table_column=fixed("elapsed,")),
            TimeRemainingColumn(table_column=fixed("0:00:00")),
            TextColumn("left", table_column=fixed("left")),
            console=Console(file=self.stream, force_terminal=True), refresh_per_second=4)
        bar.start()
        return bar, bar.add_task("match", total=total, scores="")

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 traceback: TracebackType | None) -> None:
        if self.bar is not None:
            self.bar.stop()
