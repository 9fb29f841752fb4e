"""Side-by-side timing in interleaved rounds, on the CPU clock: the one helper every
script of ``benchmarks/`` that compares two engines, versions or settings uses.

Why interleaved rounds and CPU time.  On a machine shared with other work, timing one
engine alone (best of 3) and then the other compares two different moments of the
machine: ``run_search.py`` printed 48.9x OpenSpiel that way under load, where interleaved
CPU-time rounds gave 16x.  Here every round runs each side once, in turn (A, B, A, B,
...), so that a change of load touches both sides alike; each run is timed in CPU seconds
of the process doing the work (``time.process_time``; for work done by a child process,
that child's CPU time), which does not count the time the work waited for a core; and the
ratio is taken round by round, reported as its median with the lowest and highest round
(:class:`Spread`), so that a reader sees how much it moved.

CPU time is no clock for work spread over threads: a search with ``threads=2`` spends
about twice the CPU seconds of its wall time.  Those figures are read on the wall clock
(``clock="wall"``), and the tables say so.

>>> fake = lambda per_run: lambda: Rate(per_run, cpu_seconds=1.0, wall_seconds=1.0)
>>> rounds = interleaved({"a": fake(30), "b": fake(10)}, rounds=3, warmup=False)
>>> rounds.ratio("a", "b")
Spread(low=3.0, median=3.0, high=3.0)
>>> str(rounds.ratio("a", "b"))
'3.00x (3.00-3.00)'
"""

from __future__ import annotations

import resource
import statistics
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, TypeVar

__all__ = ["Clock", "Rate", "Rounds", "Spread", "alternate", "child_cpu_timed", "cpu_timed",
           "interleaved"]

T = TypeVar("T")

#: Which seconds a rate is per: CPU seconds of the working process, or wall seconds.
Clock = Literal["cpu", "wall"]


@dataclass(frozen=True)
class Rate:
    """``count`` things done in ``cpu_seconds`` of CPU time (of the process that did them)
    and ``wall_seconds`` of wall time."""

    count: int
    cpu_seconds: float
    wall_seconds: float

    @property
    def seconds(self) -> float:
        """The CPU seconds (the clock every figure is per unless it says otherwise)."""
        return self.cpu_seconds

    @property
    def per_second(self) -> float:
        """Things a CPU second."""
        return self.per("cpu")

    def per(self, clock: Clock) -> float:
        """Things a second of ``clock``."""
        seconds = self.cpu_seconds if clock == "cpu" else self.wall_seconds
        return self.count / seconds if seconds > 0 else 0.0


def cpu_timed(run: Callable[[], int]) -> Rate:
    """Run ``run()`` (which returns its count) in this process, timed on both clocks."""
    wall, cpu = time.perf_counter(), time.process_time()
    count = run()
    return Rate(count, time.process_time() - cpu, time.perf_counter() - wall)


def child_cpu_timed(run: Callable[[], int]) -> Rate:
    """Run ``run()``, which starts a child process, waits for it and returns its count;
    the CPU time is the child's (user and system, ``getrusage(RUSAGE_CHILDREN)``: the
    children this process waited for during the run), not this process's."""
    def children() -> float:
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime

    wall, cpu = time.perf_counter(), children()
    count = run()
    return Rate(count, children() - cpu, time.perf_counter() - wall)


@dataclass(frozen=True)
class Spread:
    """The median of a figure over the rounds, with its lowest and highest round."""

    low: float
    median: float
    high: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Spread:
        if not values:
            raise ValueError("no rounds to summarise")
        return cls(min(values), statistics.median(values), max(values))

    def __str__(self) -> str:
        return f"{self.median:.2f}x ({self.low:.2f}-{self.high:.2f})"

    def rate_text(self, digits: int = 0) -> str:
        """A rate's median and range, thousands separated: ``"1,234 (1,200-1,250)"``."""
        return (f"{self.median:,.{digits}f} ({self.low:,.{digits}f}-"
                f"{self.high:,.{digits}f})")


@dataclass
class Rounds:
    """Every side's timings, one a round, in the order they ran."""

    names: tuple[str, ...]
    timings: dict[str, list[Rate]] = field(default_factory=dict)

    def rates(self, name: str, clock: Clock = "cpu") -> list[float]:
        return [t.per(clock) for t in self.timings[name]]

    def rate(self, name: str, clock: Clock = "cpu") -> Spread:
        """A side's rate over the rounds."""
        return Spread.of(self.rates(name, clock))

    def ratio(self, top: str, bottom: str, clock: Clock = "cpu") -> Spread:
        """``top``'s rate over ``bottom``'s, round by round (each round's pair ran side by
        side), summarised over the rounds."""
        pairs = zip(self.rates(top, clock), self.rates(bottom, clock), strict=True)
        return Spread.of([a / b if b > 0 else float("inf") for a, b in pairs])

    def median_rate(self, name: str, clock: Clock = "cpu") -> float:
        return self.rate(name, clock).median


def alternate(sides: Mapping[str, Callable[[], T]], rounds: int, *, warmup: bool = True,
              progress: bool = False) -> dict[str, list[T]]:
    """Run every side once a round, in turn, for ``rounds`` rounds (A, B, A, B, ...): what
    each run returned, by side, in order.  ``warmup`` runs each once first, its result
    dropped (caches, lazily built tables, imports); ``progress`` prints a line a round on
    standard error.  :func:`interleaved` times in-process work with it; a script whose
    side is a whole worker process (``compare_versions.py``) uses it directly."""
    if rounds < 1:
        raise ValueError(f"rounds must be at least 1, not {rounds}")
    if not sides:
        raise ValueError("nothing to time")
    out: dict[str, list[T]] = {name: [] for name in sides}
    if warmup:
        for run in sides.values():
            run()
    for round_ in range(rounds):
        if progress:
            print(f"  round {round_ + 1}/{rounds}: {', '.join(sides)}", file=sys.stderr,
                  flush=True)
        for name, run in sides.items():
            out[name].append(run())
    return out


def interleaved(sides: Mapping[str, Callable[[], Rate]], rounds: int, *,
                warmup: bool = True, progress: bool = False) -> Rounds:
    """Time every side once a round, in turn, for ``rounds`` rounds (A, B, A, B, ...).

    Each side is a callable that does its work once and returns its :class:`Rate` (made
    with :func:`cpu_timed` or :func:`child_cpu_timed`); ``warmup`` runs each once, untimed,
    first.
    """
    timings = alternate(sides, rounds, warmup=warmup, progress=progress)
    return Rounds(tuple(sides), timings)
