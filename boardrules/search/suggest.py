"""``suggest()``: ranked moves for the player to move, from the compiled search core.

Every algorithm searches only what the searching player may know: on a game with hidden
information each search starts from :meth:`~boardrules.State.determinize` worlds of his
view (ISMCTS redraws one per iteration; MCTS draws one world per tree; alpha-beta
averages several), never from the state itself.

Every search is bounded by default, can be interrupted (Ctrl-C) and cancelled from another
thread (``should_stop``), and an option that does not apply to the algorithm is an error.
"""

from __future__ import annotations

import math
import random
import statistics
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Generic, Literal

from boardrules._ext import search as _search
from boardrules.api import Move, MoveT, State, check_seed, exact_int

Algorithm = Literal["auto", "mcts", "ismcts", "alphabeta"]
ALGORITHMS = ("auto", "mcts", "ismcts", "alphabeta")
#: How MCTS / ISMCTS search a decision the game marks simultaneous with a hidden commit:
#: ``"decoupled"`` pools its statistics over the commits its mover cannot see (decoupled
#: UCT, the default); ``"regret"`` pools them alike and draws both sides of the stage --
#: the commit and the reply -- by regret matching, whose average strategy is the answer;
#: ``"sequential"`` searches it as if he saw them (plain SO-ISMCTS).
Simultaneous = Literal["decoupled", "sequential", "regret"]
SIMULTANEOUS_MODES = ("decoupled", "sequential", "regret")
DEFAULT_SIMULTANEOUS: Simultaneous = "decoupled"

#: A strength level: a fixed budget per game, so that a level means the same search on
#: any machine (reproducible for a seed) -- ``time_limit`` beside it bounds the clock.
Level = Literal["fast", "normal", "strong"]
LEVELS = ("fast", "normal", "strong")
#: The level of a search given no budget (no ``iterations``, ``time_limit``,
#: ``max_nodes`` or ``depth``).
DEFAULT_LEVEL: Level = "normal"
#: MCTS / ISMCTS at a level search until the answer is sure (``until_sure``) or this many
#: CPU seconds of each search thread are spent (``cpu_limit``), or the game's iteration
#: cap of the level (:attr:`Game.search_levels <boardrules.Game.search_levels>`) is
#: reached, whichever comes first.
LEVEL_CPU_SECONDS: Mapping[str, float] = {"fast": 0.1, "normal": 1.0, "strong": 10.0}
#: How MCTS / ISMCTS choose the root's move to simulate: ``"uct"`` as at every node, or
#: ``"lucb"``: the best move and its closest challenger, to tell them apart.
RootSelection = Literal["uct", "lucb"]
ROOT_SELECTIONS = ("uct", "lucb")
DEFAULT_ROOT_SELECTION: RootSelection = "uct"
#: How rollouts choose a player's move: uniformly at random, or ``"informed"``: the move
#: the game's ``action_values`` rate best, but for a random one with probability
#: ``rollout_epsilon`` (uniformly random on a game without action values).
RolloutPolicy = Literal["random", "informed"]
ROLLOUT_POLICIES = ("random", "informed")
#: MCTS-solver backups of proven wins and losses (MCTS on a game without hidden
#: information or simultaneous decisions; elsewhere the option does nothing).
DEFAULT_SOLVER = True
#: The confidence of a suggestion's intervals (two-sided, per move).
DEFAULT_CONFIDENCE = 0.95
#: Values closer than this (on the [-1, 1] scale of results) are equal for the answer:
#: a move proven within it of the best is *tied* with it.  On a game whose values differ
#: on a smaller scale (:attr:`Game.value_scale <boardrules.Game.value_scale>`) the
#: tolerance is this times the scale.
TIE_TOLERANCE = 0.01
#: The least standard deviation a move's results are counted with, on the results' scale
#: (times the game's value scale): a few equal results are not an exact value.
DEVIATION_FLOOR = 0.01
#: 0.5.0's budget when none was given (today the ``"fast"`` level of most games).
LEGACY_DEFAULT_ITERATIONS = 1000
#: Alpha-beta's node budget per level (iterative deepening until it is spent) and the
#: safety net in seconds beside it (only a slow machine meets that).
ALPHABETA_LEVELS: Mapping[str, tuple[int, float]] = {
    "fast": (30_000, 1.0), "normal": (300_000, 5.0), "strong": (3_000_000, 30.0)}
#: Alpha-beta node budget when none of ``depth``, ``max_nodes``, ``time_limit`` is given
#: (the ``"normal"`` level: about a second on Armadora).
DEFAULT_MAX_NODES, DEFAULT_SAFETY_SECONDS = ALPHABETA_LEVELS[DEFAULT_LEVEL]
#: Memory of one search (bytes, all threads together): the MCTS trees, or alpha-beta's
#: transposition tables and per-thread buffers.
DEFAULT_MAX_MEMORY = 256 * 2**20
DEFAULT_EXPLORATION = 1.0  # UCT constant for values in [-1, 1]
DEFAULT_DETERMINIZATIONS = 8
MAX_DEPTH = 100
MAX_TIME_LIMIT = 1e6  # seconds (11 days): beyond that a value is a mistake
MAX_EXPLORATION = 1e6
TT_BITS = 20  # the largest transposition table (2**20 entries) for deep searches

# Options each algorithm understands, besides player, algorithm, time_limit, threads, seed
# and should_stop, which all take.
_MCTS_OPTIONS = frozenset({"iterations", "exploration", "rollout_limit", "max_memory",
                           "simultaneous", "level", "until_sure", "cpu_limit",
                           "confidence", "root_selection", "rollout_policy",
                           "rollout_epsilon", "solver"})
_OPTIONS = {
    "auto": _MCTS_OPTIONS,  # auto is MCTS or ISMCTS, which take the same options
    "mcts": _MCTS_OPTIONS,
    "ismcts": _MCTS_OPTIONS,
    "alphabeta": frozenset({"depth", "max_nodes", "determinizations", "max_memory",
                            "level"}),
}


@dataclass(frozen=True)
class MoveEstimate(Generic[MoveT]):
    """What a search knows of one move: ``value`` (the mean result for the player to move,
    in [-1, 1]), ``visits`` (simulations, or alpha-beta's nodes), ``stderr`` (its
    standard error; ``inf`` when the move has too few simulations for an interval, 0.0
    for alpha-beta's minimax values) and ``low`` / ``high``, the confidence interval at
    the suggestion's :attr:`~Suggestion.confidence`, within the results' range [-1, 1]
    (``-1.0`` to ``1.0`` for a move without one)."""

    move: MoveT
    value: float
    visits: int
    stderr: float
    low: float
    high: float


@dataclass(frozen=True)
class Suggestion(Generic[MoveT]):
    """The result of :func:`suggest`.

    * ``move`` -- the best move;
    * ``ranked`` -- ``(move, value, visits)`` for every move searched, best first;
      ``value`` is the expected result for the player to move (+1 a win, -1 a loss, 0 a
      draw in two-sided games); ``visits`` counts simulations (MCTS) or nodes
      (alpha-beta) below the move;
    * ``pv`` -- the principal variation, starting with ``move``;
    * ``stats`` -- algorithm, iterations or nodes, depth, seconds, threads, seed, and
      ``stopped``: ``None`` when the budget was used up as asked, ``"time"`` (the time
      limit), ``"nodes"`` (alpha-beta's node budget), ``"memory"`` (alpha-beta's
      per-ply buffers under ``max_memory`` hold no deeper search) or ``"cancelled"``
      (``should_stop``).  Alpha-beta adds ``max_memory``, ``memory_bytes`` (what it
      allocated, never above ``max_memory``), ``table_bytes``, ``tables`` and
      ``depth_cap``.
      MCTS and ISMCTS add ``deadline_seconds`` (the time limit every tree keeps from
      the call's start; ``None`` with an iteration budget), ``tree_start_seconds`` and
      ``tree_deadline_seconds`` (when each tree began and the deadline it kept, from the
      call's start), ``simultaneous`` (the mode), ``simultaneous_decisions``
      (selection steps at decisions the game marks simultaneous), ``pooled_nodes`` (the
      decoupled statistics nodes, counted in ``nodes``) and ``replies``: when the move is
      a hidden commit answered by a simultaneous decision, that decision's pooled
      ``(move, value for its mover, visits)``, most visited first (else empty).
      With a ``handle``, ``reused_nodes`` and ``reused_visits``: the nodes and the
      simulations kept from the handle's last search (0 without one).
      Every search adds ``level``: the strength level whose budget it used (``None``
      when the call gave its own budget).
    * ``strategy`` -- ``None``, or with ``simultaneous="regret"`` when the move is one
      side of a simultaneous stage -- a secret commit answered by another player's
      simultaneous decision, or that decision (Rome & Carthage's battle cards): the mixed
      strategy to play, ``(move, probability)`` in move order -- regret matching's
      average strategy, an approximate equilibrium of the stage.  Playing ``move`` every
      time is predictable; :meth:`draw` draws from the strategy (the search bots do).
      ``stats["reply_strategy"]`` is the reply's, when the move is the commit.
    * ``estimates`` -- :class:`MoveEstimate` of every move in ``ranked``'s order: value,
      visits, standard error and the confidence interval;
    * ``separated`` -- true when the best move's interval lies above every other move's
      (MCTS and ISMCTS: the lower bound of the best above each other's upper bound at
      ``confidence``; alpha-beta: depth 2 or more completed and the best valued above
      every other); a position with one legal move is separated;
    * ``tied`` -- the moves proven equal in value to the best: the interval of their
      difference lies within :data:`TIE_TOLERANCE` (alpha-beta: valued exactly alike);
    * ``sure`` -- every other move is separated from the best or tied with it: the search
      knows its answer (``separated`` or a proven tie);
    * ``confidence`` -- the confidence of the intervals (0.95 unless asked);
    * ``warning`` -- ``None`` when the best move is separated, else what is unsure (or
      which moves tie with it), in words.

    The best move of MCTS and ISMCTS is the one of the highest lower bound (a move with
    too few simulations for an interval ranks below every move that has one, the most
    simulated first).  How the intervals are made, and what they do not say, is on the
    search page ("How sure a suggestion is").
    """

    move: MoveT
    ranked: list[tuple[MoveT, float, int]]
    pv: list[MoveT]
    stats: dict[str, Any] = field(default_factory=dict)
    warning: str | None = None
    strategy: list[tuple[MoveT, float]] | None = None
    estimates: list[MoveEstimate[MoveT]] = field(default_factory=list)
    separated: bool = False
    tied: list[MoveT] = field(default_factory=list)
    sure: bool = False
    confidence: float = DEFAULT_CONFIDENCE

    def draw(self, rng: random.Random) -> MoveT:
        """The move to play: drawn from :attr:`strategy` with ``rng`` when the search gave
        a mixed strategy, else :attr:`move`."""
        if not isinstance(rng, random.Random):
            raise TypeError(f"rng must be a random.Random, not {type(rng).__name__}")
        if not self.strategy:
            return self.move
        moves = [m for m, _ in self.strategy]
        return rng.choices(moves, weights=[p for _, p in self.strategy])[0]

    @property
    def best_visits(self) -> int:
        """Simulations (MCTS) or nodes (alpha-beta) below the best move."""
        return self.ranked[0][2]

    @property
    def margin(self) -> float:
        """The best move's value minus the second's (``inf`` when there is one move).  With
        MCTS the best is the most simulated, so the margin can be negative: a move tried
        less that looked better."""
        if len(self.ranked) < 2:
            return math.inf
        return self.ranked[0][1] - self.ranked[1][1]


class SearchHandle:
    """The trees of the last MCTS / ISMCTS search, kept for the next: give the same handle
    to :func:`suggest` move after move (``suggest(state, handle=h)``) and each search goes
    on from what the last one found below the position it is asked about, instead of
    starting from nothing.  The MCTS and ISMCTS bots keep one (``reuse=True``).

    The next search finds its position in the kept tree, at most 24 actions below the
    last root, as its ``player`` knows it: on a game without hidden information the same
    state (of two move orders reaching it, the more searched); with ISMCTS every node
    with his observation -- an opponent's face-down choice or a hidden draw reaches
    several, and their subtrees are merged, so nothing he cannot see decides what is
    kept.  The kept subtree counts in ``max_memory``: one larger than the next search may
    hold is dropped; ``stats["reused_nodes"]`` and ``stats["reused_visits"]`` say what
    was kept.  Nothing is kept across a change of game, algorithm, ``player``,
    ``simultaneous`` or ``threads``, nor for MCTS on a hidden-information game (one
    world per tree, drawn anew each search) or on a game without an observation tensor.

    :meth:`played` narrows the walk to the moves the searching player made since (the
    bots note theirs).  A handle serves one search at a time (another at once is a
    RuntimeError); it holds up to ``max_memory`` between searches (:meth:`clear` frees
    it).  Its trees are a cache: a copy or a pickle of a handle (or of a bot holding one,
    as the arena copies a bot object for each game) is an empty handle, and the next
    search with it starts from nothing.
    """

    def __init__(self) -> None:
        self._store = _search.TreeStore()
        self._busy = threading.Lock()

    def __reduce__(self) -> tuple[type[SearchHandle], tuple[()]]:
        return (SearchHandle, ())

    def __copy__(self) -> SearchHandle:
        return SearchHandle()

    def __deepcopy__(self, memo: dict[int, Any]) -> SearchHandle:
        return SearchHandle()

    def played(self, move: Move) -> None:
        """Note a move the searching player made since the last search (optional: the
        next search then follows only it at his own decisions, a shorter walk)."""
        if not isinstance(move, Move):
            raise TypeError(f"played needs a Move, not {type(move).__name__}")
        with self._in_use():
            self._store.played(move.action)

    def clear(self) -> None:
        """Forget the kept trees (their memory is freed) and the moves noted."""
        with self._in_use():
            self._store.clear()

    @property
    def kept_nodes(self) -> int:
        """Nodes of the kept trees (0 before a search, or after :meth:`clear`)."""
        return int(self._store.nodes)

    @property
    def kept_bytes(self) -> int:
        """Memory of the kept trees, in bytes."""
        return int(self._store.bytes)

    @contextmanager
    def _in_use(self) -> Iterator[None]:
        """Hold the handle for one search: a second one at once is an error, not a race
        over its trees."""
        if not self._busy.acquire(blocking=False):
            raise RuntimeError("this SearchHandle is in use by another search: give each "
                               "thread its own")
        try:
            yield
        finally:
            self._busy.release()


@dataclass(frozen=True)
class SearchOptions:
    """A checked set of search options (``None``: not given, the default applies)."""

    algorithm: Algorithm
    iterations: int | None = None
    time_limit: float | None = None
    threads: int = 1
    depth: int | None = None
    max_nodes: int | None = None
    exploration: float | None = None
    rollout_limit: int | None = None
    determinizations: int | None = None
    max_memory: int | None = None
    simultaneous: Simultaneous | None = None
    level: Level | None = None
    until_sure: bool | None = None
    cpu_limit: float | None = None
    confidence: float | None = None
    root_selection: RootSelection | None = None
    rollout_policy: RolloutPolicy | None = None
    rollout_epsilon: float | None = None
    solver: bool | None = None

    def as_kwargs(self) -> dict[str, Any]:
        """The options given, as keyword arguments of :func:`suggest`."""
        names = ("iterations", "time_limit", "depth", "max_nodes", "exploration",
                 "rollout_limit", "determinizations", "max_memory", "simultaneous",
                 "level", "until_sure", "cpu_limit", "confidence", "root_selection",
                 "rollout_policy", "rollout_epsilon", "solver")
        given = {n: getattr(self, n) for n in names if getattr(self, n) is not None}
        return {"algorithm": self.algorithm, "threads": self.threads, **given}


def _int(value: Any, name: str, minimum: int, maximum: int) -> int:
    number = exact_int(value, name)  # the true value, before a comparison that could lie
    if not minimum <= number <= maximum:
        raise ValueError(f"{name} must be {minimum} to {maximum}")
    return number


def _number(value: Any, name: str, minimum: float, maximum: float, *,
            positive: bool = False) -> float:
    """A finite int or float in range, compared before any conversion (``10**400`` is a
    ValueError, not an OverflowError)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{name} must be a number, not {type(value).__name__}")
    # the true value of a subclass, before comparisons it could override
    value = exact_int(value, name) if isinstance(value, int) else float.__float__(value)
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number")
    if not minimum <= value <= maximum or (positive and not value > 0):
        bound = "> 0" if positive else f">= {minimum}"
        raise ValueError(f"{name} must be {bound} and <= {maximum:g}")
    return float(value)


def _level(value: Any) -> Level:
    if not isinstance(value, str):
        raise TypeError(f"level must be a str, not {type(value).__name__}")
    if value == "fast":
        return "fast"
    if value == "normal":
        return "normal"
    if value == "strong":
        return "strong"
    raise ValueError(f"level must be one of {', '.join(LEVELS)}, not {value!r}")


def _word(value: Any, name: str, words: tuple[str, ...]) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, not {type(value).__name__}")
    if value not in words:
        raise ValueError(f"{name} must be one of {', '.join(words)}, not {value!r}")
    return value


def _root_selection(value: Any) -> RootSelection:
    return "lucb" if _word(value, "root_selection", ROOT_SELECTIONS) == "lucb" else "uct"


def _rollout_policy(value: Any) -> RolloutPolicy:
    word = _word(value, "rollout_policy", ROLLOUT_POLICIES)
    return "informed" if word == "informed" else "random"


def _bool(value: Any, name: str) -> bool:
    """A bool (a bot spec gives 1 / 0 or true / false)."""
    if isinstance(value, bool):
        return value
    if type(value) is int and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    raise TypeError(f"{name} must be a bool, not {value!r}")


def _simultaneous(value: Any) -> Simultaneous:
    if not isinstance(value, str):
        raise TypeError(f"simultaneous must be a str, not {type(value).__name__}")
    if value not in SIMULTANEOUS_MODES:
        raise ValueError(f"simultaneous must be one of {', '.join(SIMULTANEOUS_MODES)}, "
                         f"not {value!r}")
    mode: Simultaneous = ("decoupled" if value == "decoupled" else
                          "regret" if value == "regret" else "sequential")
    return mode


def check_options(algorithm: Algorithm = "auto", *, iterations: int | None = None,
                  time_limit: float | None = None, threads: int = 1,
                  depth: int | None = None, max_nodes: int | None = None,
                  exploration: float | None = None, rollout_limit: int | None = None,
                  determinizations: int | None = None,
                  max_memory: int | None = None,
                  simultaneous: Simultaneous | None = None,
                  level: Level | None = None, until_sure: bool | None = None,
                  cpu_limit: float | None = None, confidence: float | None = None,
                  root_selection: RootSelection | None = None,
                  rollout_policy: RolloutPolicy | None = None,
                  rollout_epsilon: float | None = None,
                  solver: bool | None = None) -> SearchOptions:
    """Check search options against the algorithm (the bots call it when built, and
    :func:`suggest` on every call): ValueError for an option the algorithm does not use,
    a value out of range or a ``level`` beside another budget than ``time_limit``,
    TypeError for a value of the wrong type."""
    if not isinstance(algorithm, str) or algorithm not in ALGORITHMS:
        raise ValueError(f"algorithm must be one of {', '.join(ALGORITHMS)}")
    given = {"iterations": iterations, "depth": depth, "max_nodes": max_nodes,
             "exploration": exploration, "rollout_limit": rollout_limit,
             "determinizations": determinizations, "max_memory": max_memory,
             "simultaneous": simultaneous, "level": level, "until_sure": until_sure,
             "cpu_limit": cpu_limit, "confidence": confidence,
             "root_selection": root_selection, "rollout_policy": rollout_policy,
             "rollout_epsilon": rollout_epsilon, "solver": solver}
    for name, value in given.items():
        if value is not None and name not in _OPTIONS[algorithm]:
            raise ValueError(f"option {name} does not apply to algorithm {algorithm!r} "
                             f"(it takes {', '.join(sorted(_OPTIONS[algorithm]))})")
    if level is not None:
        # a level is a budget: with another one the search would have to pick
        budgets = [n for n in ("iterations", "max_nodes", "depth") if given[n] is not None]
        if budgets:
            raise ValueError(f"level and {budgets[0]} are two budgets: give one "
                             "(time_limit may stand beside a level)")
    return SearchOptions(
        algorithm=algorithm,
        iterations=None if iterations is None else _int(iterations, "iterations", 1, 10**12),
        time_limit=None if time_limit is None else _number(
            time_limit, "time_limit", 0.0, MAX_TIME_LIMIT, positive=True),
        threads=_int(threads, "threads", 1, 64),
        depth=None if depth is None else _int(depth, "depth", 1, MAX_DEPTH),
        max_nodes=None if max_nodes is None else _int(max_nodes, "max_nodes", 1, 2**62),
        exploration=None if exploration is None else _number(
            exploration, "exploration", 0.0, MAX_EXPLORATION),
        rollout_limit=None if rollout_limit is None else _int(
            rollout_limit, "rollout_limit", 0, 10**6),
        determinizations=None if determinizations is None else _int(
            determinizations, "determinizations", 1, 10**4),
        max_memory=None if max_memory is None else _int(max_memory, "max_memory", 1, 2**50),
        simultaneous=None if simultaneous is None else _simultaneous(simultaneous),
        level=None if level is None else _level(level),
        until_sure=None if until_sure is None else _bool(until_sure, "until_sure"),
        cpu_limit=None if cpu_limit is None else _number(
            cpu_limit, "cpu_limit", 0.0, MAX_TIME_LIMIT, positive=True),
        confidence=None if confidence is None else _number(
            confidence, "confidence", 0.5, 0.999),
        root_selection=None if root_selection is None else _root_selection(root_selection),
        rollout_policy=None if rollout_policy is None else _rollout_policy(rollout_policy),
        rollout_epsilon=None if rollout_epsilon is None else _number(
            rollout_epsilon, "rollout_epsilon", 0.0, 1.0),
        solver=None if solver is None else _bool(solver, "solver"),
    )


def suggest(state: State[MoveT], *, player: int | None = None, algorithm: Algorithm = "auto",
            iterations: int | None = None, time_limit: float | None = None,
            threads: int = 1, seed: int | None = None, depth: int | None = None,
            max_nodes: int | None = None, exploration: float | None = None,
            rollout_limit: int | None = None, determinizations: int | None = None,
            max_memory: int | None = None, simultaneous: Simultaneous | None = None,
            level: Level | None = None, until_sure: bool | None = None,
            cpu_limit: float | None = None, confidence: float | None = None,
            root_selection: RootSelection | None = None,
            rollout_policy: RolloutPolicy | None = None,
            rollout_epsilon: float | None = None, solver: bool | None = None,
            should_stop: Callable[[], bool] | None = None,
            handle: SearchHandle | None = None) -> Suggestion[MoveT]:
    """Ranked moves for the player to move.

    * ``player`` -- whose knowledge the search may use (default: the player to move);
    * ``algorithm`` -- ``"ismcts"`` (the default for games with hidden information),
      ``"mcts"`` (the default otherwise) or ``"alphabeta"``;
    * ``level`` -- ``"fast"``, ``"normal"`` or ``"strong"``: MCTS and ISMCTS search
      until the answer is sure (``until_sure``), or 0.1, 1 or 10 seconds of CPU per
      search thread are spent (:data:`LEVEL_CPU_SECONDS`), or the game's iteration cap
      (:attr:`Game.search_levels <boardrules.Game.search_levels>`) is reached,
      whichever comes first (``stats["stopped"]``: ``"sure"``, ``"cpu"`` or ``None``);
      alpha-beta searches 30,000 / 300,000 / 3,000,000 nodes, reproducible for a seed on
      any machine.  A search given no budget at all searches at ``"normal"``; a level
      with ``iterations``, ``max_nodes`` or ``depth`` is a ValueError (two budgets);
    * ``time_limit`` -- seconds, for every algorithm (beside its other budget: whichever
      runs out first);
    * ``threads`` -- root parallelism without the GIL: independent MCTS trees merged, or
      alpha-beta's root moves shared out among the threads;
    * ``should_stop`` -- a callable polled every 20 ms from the calling thread (e.g. a
      ``threading.Event``'s ``is_set``): when it returns true the search stops and returns
      the best found so far (``stats["stopped"] == "cancelled"``);
    * ``handle`` -- a :class:`SearchHandle` (MCTS and ISMCTS): the search goes on from
      the subtree of this position in the trees the handle kept from its last search,
      and keeps its own trees for the next (``stats["reused_nodes"]``,
      ``stats["reused_visits"]``; ``iterations`` counts this call's simulations only).

    MCTS and ISMCTS take ``iterations`` (searched out, deterministic for a ``seed``;
    without a budget the ``"normal"`` level applies), ``until_sure`` (stop once every
    other move is separated from the best or tied with it, looked at every 64
    iterations, so still deterministic for a seed; default true at a level, else
    false), ``cpu_limit`` (CPU seconds of each search thread: the budget that does not
    count time the machine gave to other work), ``confidence`` (of the intervals,
    default 0.95), ``root_selection`` (``"uct"``, the default, or ``"lucb"``: each
    simulation goes to the best move or its closest challenger, whichever interval is
    wider), ``rollout_policy`` and ``rollout_epsilon`` (``"random"`` moves, or
    ``"informed"``: the move the game's C-level ``action_values`` rate best but for a
    random one with probability ``rollout_epsilon``; defaults the game's
    :attr:`~boardrules.Game.rollout_policy` and
    :attr:`~boardrules.Game.rollout_epsilon`), ``solver`` (MCTS-solver: a move that ends
    the game, or a position whose mover has a proven win or whose every move is proven,
    backs up its exact value; on a game without hidden information or simultaneous
    decisions, default true), ``exploration`` (UCT
    constant; default the game's :attr:`~boardrules.Game.exploration`, else 1.0),
    ``rollout_limit`` (random moves before the game's heuristic, 0: the heuristic at once;
    default the game's :attr:`~boardrules.Game.rollout_limit`, else to the end),
    ``max_memory`` (bytes for all trees, default 256 MiB: a full tree stops growing and the
    iterations go on) and ``simultaneous`` (``"decoupled"``, the default, ``"regret"`` or
    ``"sequential"``: how a decision the game marks simultaneous with another player's
    hidden commit is searched, see :ref:`simultaneous-choices`; outside
    ``"sequential"`` such a decision at the root is searched from the commit it answers,
    taken back, ``stats["from_commit"]``).  Alpha-beta takes
    ``depth`` (atomic moves; default: iterative deepening until the budget is spent),
    ``max_nodes`` (a node budget, reproducible for a ``seed``), ``determinizations``
    (worlds averaged on a hidden-information game, default 8; a ValueError on a game
    without hidden information) and ``max_memory`` (bytes for all threads' transposition
    tables and per-ply buffers together, default 256 MiB: with more threads each table is
    smaller; a depth the buffers cannot hold is not searched, ``stats["stopped"] ==
    "memory"``; a ValueError when even the smallest tables do not fit;
    ``stats["memory_bytes"]`` and ``stats["table_bytes"]`` say what was allocated); given
    none of ``depth``, ``max_nodes``, ``time_limit`` it searches the level's nodes (300,000
    at ``"normal"``) with a safety net of 1, 5 or 30 seconds.  An option the algorithm does not
    take is a ValueError.  On a game without hidden information ISMCTS is MCTS (one world, the
    state itself) and its ``stats["algorithm"]`` says ``"mcts"``.

    Every search does at least one MCTS iteration per tree, or alpha-beta depth 1, even
    when the time limit or ``should_stop`` asks it to stop sooner, so it always has a
    move to suggest.  An exception in the calling thread (KeyboardInterrupt, a signal
    handler's) stops the search threads, joins them and propagates.  No search trusts a
    state: a world (or a state below it) that is not over and gives the player to move
    no legal move, or a world with another player to move, stops it with
    :class:`~boardrules.InvalidStateError` (a game's ``determinize`` or rules core at
    fault), never a crash.
    """
    if not isinstance(state, State):
        raise TypeError(f"suggest needs a State, not {type(state).__name__}")
    mover = state.current_player
    if mover < 0:
        raise ValueError("no move to suggest: the game is over or a chance event is pending")
    game = state.game
    player = mover if player is None else _int(player, "player", 0, game.num_players - 1)
    options = check_options(algorithm, iterations=iterations, time_limit=time_limit,
                            threads=threads, depth=depth, max_nodes=max_nodes,
                            exploration=exploration, rollout_limit=rollout_limit,
                            determinizations=determinizations, max_memory=max_memory,
                            simultaneous=simultaneous, level=level, until_sure=until_sure,
                            cpu_limit=cpu_limit, confidence=confidence,
                            root_selection=root_selection, rollout_policy=rollout_policy,
                            rollout_epsilon=rollout_epsilon, solver=solver)
    seed = check_seed(seed)
    if should_stop is not None and not callable(should_stop):
        raise TypeError("should_stop must be a callable returning a bool")
    if handle is not None and not isinstance(handle, SearchHandle):
        raise TypeError(f"handle must be a SearchHandle, not {type(handle).__name__}")
    if options.algorithm == "alphabeta":
        if handle is not None:
            raise ValueError("handle keeps MCTS and ISMCTS trees: it does not apply to "
                             "algorithm 'alphabeta'")
        return _alphabeta(state, options, player, seed, should_stop)
    if handle is None:
        return _mcts(state, options, player, seed, should_stop, None)
    with handle._in_use():
        return _mcts(state, options, player, seed, should_stop, handle._store)


def _z(confidence: float) -> float:
    """The two-sided normal quantile of a confidence (1.96 for 0.95)."""
    return statistics.NormalDist().inv_cdf(0.5 + confidence / 2.0)


def _mcts_suggestion(state: State[MoveT], result: dict[str, Any], stats: dict[str, Any],
                     confidence: float) -> Suggestion[MoveT]:
    """A Suggestion from run_mcts's result: its ranking, intervals and verdict."""
    moves = state.game._moves
    z = result["z"]
    # within the results' range [-1, 1]; a move without an interval may score anything
    estimates = [MoveEstimate(moves[a], v, n, se, max(v - z * se, -1.0),
                              min(v + z * se, 1.0))
                 if se < _search.INF_STDERR else
                 MoveEstimate(moves[a], v, n, math.inf, -1.0, 1.0)
                 for a, n, v, se in result["estimates"]]
    tied = [moves[a] for a in result["tied"]]
    return _suggestion(state, result, stats, estimates=estimates,
                       separated=result["separated"], sure=result["sure"], tied=tied,
                       confidence=confidence,
                       warning=_mcts_warning(estimates, tied, result["separated"],
                                             result["sure"], stats["iterations"],
                                             confidence))


def _alphabeta_suggestion(state: State[MoveT], result: dict[str, Any],
                          stats: dict[str, Any]) -> Suggestion[MoveT]:
    """A Suggestion from run_alphabeta's result: minimax values have no sampling
    interval; moves valued exactly as the best are tied with it."""
    moves = state.game._moves
    estimates = [MoveEstimate(moves[a], v, n, 0.0, v, v) for a, n, v in result["children"]]
    best = estimates[0].value
    tied = [e.move for e in estimates[1:] if abs(e.value - best) <= 1e-9]
    deep = stats["depth"] >= 2 or len(estimates) < 2
    separated = deep and not tied
    return _suggestion(state, result, stats, estimates=estimates, separated=separated,
                       sure=deep, tied=tied, confidence=1.0,
                       warning=_alphabeta_warning(estimates, tied, stats["depth"]))


def _suggestion(state: State[MoveT], result: dict[str, Any], stats: dict[str, Any], *,
                estimates: list[MoveEstimate[MoveT]], separated: bool, sure: bool,
                tied: list[MoveT], confidence: float,
                warning: str | None) -> Suggestion[MoveT]:
    moves = state.game._moves
    ranked = [(e.move, e.value, e.visits) for e in estimates]
    pv = [moves[a] for a in result["pv"]]
    mixed = result.get("strategy")
    strategy = [(moves[a], p) for a, p in mixed] if mixed else None
    return Suggestion(move=ranked[0][0], ranked=ranked, pv=pv, stats=stats, warning=warning,
                      strategy=strategy, estimates=estimates, separated=separated,
                      tied=tied, sure=sure, confidence=confidence)


def _mcts_warning(estimates: list[MoveEstimate[Any]], tied: list[Any], separated: bool,
                  sure: bool, iterations: int, confidence: float) -> str | None:
    """What is unsure about the best move, in words (None when it is separated)."""
    if separated or len(estimates) < 2:
        return None
    best = estimates[0]
    percent = f"{confidence:.0%}"
    if sure:
        names = ", ".join(str(m) for m in tied)
        return (f"the best move {best.move} is tied with {names}: their values are equal "
                f"within the tie tolerance at {percent} confidence, so either is as good")
    if best.stderr == math.inf:
        return (f"the best move {best.move} rests on {best.visits} of {iterations} "
                f"simulations, too few for a confidence interval: give a higher level or "
                "more iterations")
    rival = next((e for e in estimates[1:] if e.high >= best.low and e.move not in tied),
                 estimates[1])
    if rival.stderr == math.inf:
        return (f"{rival.move} has {rival.visits} simulations, too few to tell it from the "
                f"best move {best.move} ({best.visits} simulations, value "
                f"{best.value:+.3f}): give a higher level or more iterations")
    return (f"the simulations did not separate the best move {best.move} (value "
            f"{best.value:+.3f} +- {best.high - best.value:.3f}, {best.visits} simulations) "
            f"from {rival.move} ({rival.value:+.3f} +- {rival.high - rival.value:.3f}, "
            f"{rival.visits}) at {percent} confidence: they may be equally good, or a "
            "higher level would tell them apart")


def _alphabeta_warning(estimates: list[MoveEstimate[Any]], tied: list[Any],
                       depth: int) -> str | None:
    """Why alpha-beta's best move is not separated from the second, or None."""
    if len(estimates) < 2:
        return None
    if depth <= 1:
        return ("the search completed only depth 1 (one move ahead): give a higher "
                "level, more max_nodes or more time")
    if tied:
        names = ", ".join(str(m) for m in tied)
        return (f"{estimates[0].move} and {names} are valued alike "
                f"({estimates[0].value:+.3f}) at depth {depth}: a deeper search may tell "
                "them apart")
    return None


def _mcts(state: State[MoveT], options: SearchOptions, player: int, seed: int,
          should_stop: Callable[[], bool] | None,
          store: _search.TreeStore | None) -> Suggestion[MoveT]:
    game = state.game
    hidden = game.has_hidden_information
    algorithm = options.algorithm
    if algorithm == "auto":
        algorithm = "ismcts" if hidden else "mcts"
    iterations, level, cpu_limit, until_sure = _mcts_budget(options, game.search_levels)
    trees = options.threads if iterations is None else min(options.threads, iterations)
    memory = DEFAULT_MAX_MEMORY if options.max_memory is None else options.max_memory
    mode = DEFAULT_SIMULTANEOUS if options.simultaneous is None else options.simultaneous
    ismcts = algorithm == "ismcts" and hidden
    node_bytes = _search.tree_node_bytes(state._core, ismcts, mode == "regret")
    node_cap = min(max(2, memory // (trees * node_bytes)), _search.MAX_TREE_NODES)
    if not hidden:
        algorithm = "mcts"  # with nothing hidden ISMCTS's one information set is MCTS's node
    exploration = options.exploration
    if exploration is None:
        game_default = state.game.exploration
        exploration = DEFAULT_EXPLORATION if game_default is None else game_default
    rollout = options.rollout_limit
    if rollout is None:
        rollout = -1 if state.game.rollout_limit is None else state.game.rollout_limit
    confidence = (DEFAULT_CONFIDENCE if options.confidence is None
                  else options.confidence)
    root_selection = (DEFAULT_ROOT_SELECTION if options.root_selection is None
                      else options.root_selection)
    policy = game.rollout_policy if options.rollout_policy is None else options.rollout_policy
    epsilon = (game.rollout_epsilon if options.rollout_epsilon is None
               else options.rollout_epsilon)
    solver = DEFAULT_SOLVER if options.solver is None else options.solver
    result = _search.run_mcts(state._core, iterations or 0, options.time_limit or 0.0,
                              exploration, rollout, ismcts, hidden and not ismcts,
                              player, seed, options.threads, node_cap, should_stop, mode,
                              store, game,  # equal games (same options): one tree
                              cpu_limit=cpu_limit or 0.0, until_sure=until_sure,
                              z=_z(confidence),
                              tie_tolerance=TIE_TOLERANCE * game.search_value_scale,
                              var_floor=(DEVIATION_FLOOR * game.search_value_scale) ** 2,
                              root_selection=root_selection, rollout_policy=policy,
                              rollout_epsilon=epsilon, solver=solver)
    moves = game._moves
    stats = {"algorithm": algorithm, "iterations": result["iterations"],
             "nodes": result["nodes"], "depth": result["max_depth"],
             "seconds": result["seconds"], "threads": options.threads,
             "trees": result["trees"], "node_cap": node_cap,
             "tree_full": result["tree_full"], "stopped": result["stopped"], "seed": seed,
             "simultaneous": mode, "level": level,
             "simultaneous_decisions": result["simultaneous_decisions"],
             "pooled_nodes": result["pooled_nodes"],
             # the time limit is one deadline from the call's start, kept by every tree
             "deadline_seconds": result["deadline_seconds"],
             "tree_deadline_seconds": result["tree_deadline_seconds"],
             "tree_start_seconds": result["tree_start_seconds"],
             "replies": [(moves[a], v, n) for a, n, v in result["replies"]],
             "reply_strategy": [(moves[a], p) for a, p in result["reply_strategy"]],
             "from_commit": result["from_commit"],
             "reused_nodes": result["reused_nodes"],
             "reused_visits": result["reused_visits"],
             "cpu_seconds": result["cpu_seconds"], "cpu_limit": cpu_limit,
             "until_sure": until_sure, "root_selection": root_selection,
             "rollout_policy": policy, "rollout_epsilon": epsilon, "solver": solver,
             "exploration": exploration, "rollout_limit": None if rollout < 0 else rollout}
    return _mcts_suggestion(state, result, stats, confidence)


def _mcts_budget(options: SearchOptions, levels: Mapping[str, int]
                 ) -> tuple[int | None, Level | None, float | None, bool]:
    """(iterations, level, cpu_limit, until_sure) of an MCTS / ISMCTS search: a level --
    asked, or the default when no budget is given -- caps the iterations at the game's
    count, the CPU time at LEVEL_CPU_SECONDS and stops once the answer is sure; an
    explicit budget searches it out unless ``until_sure`` is asked."""
    iterations, level = options.iterations, options.level
    if (iterations is None and level is None and options.time_limit is None
            and options.cpu_limit is None):
        level = DEFAULT_LEVEL
    cpu_limit = options.cpu_limit
    if level is not None:
        iterations = levels[level]
        if cpu_limit is None:
            cpu_limit = LEVEL_CPU_SECONDS[level]
    until_sure = options.until_sure
    if until_sure is None:
        until_sure = level is not None
    return iterations, level, cpu_limit, until_sure


def _alphabeta(state: State[MoveT], options: SearchOptions, player: int, seed: int,
               should_stop: Callable[[], bool] | None) -> Suggestion[MoveT]:
    hidden = state.game.has_hidden_information
    if options.determinizations is not None and not hidden:
        raise ValueError(f"option determinizations does not apply to {state.game.id}: it "
                         "has no hidden information to draw worlds of")
    max_nodes, time_limit, level = options.max_nodes, options.time_limit, options.level
    if options.depth is None and max_nodes is None and time_limit is None and level is None:
        level = DEFAULT_LEVEL
    if level is not None:
        max_nodes, safety = ALPHABETA_LEVELS[level]
        time_limit = safety if time_limit is None else min(time_limit, safety)
    depth = MAX_DEPTH if options.depth is None else options.depth
    determinizations = (DEFAULT_DETERMINIZATIONS if options.determinizations is None
                        else options.determinizations)
    # a shallow or small search needs a small table (the core shrinks it further to
    # keep within max_memory)
    tt_bits = min(TT_BITS, 12 + depth)
    if max_nodes is not None:
        share = max_nodes // ((determinizations if hidden else 1) * options.threads)
        tt_bits = min(tt_bits, max(12, share.bit_length()))
    memory = DEFAULT_MAX_MEMORY if options.max_memory is None else options.max_memory
    result = _search.run_alphabeta(state._core, depth, time_limit or 0.0, max_nodes or 0,
                                   determinizations, hidden, player, seed, tt_bits,
                                   options.threads, should_stop, memory)
    stats = {"algorithm": "alphabeta", "nodes": result["nodes"], "depth": result["depth"],
             "seconds": result["seconds"], "worlds": result["worlds"],
             "stopped": result["stopped"], "best_by_depth": result["best_by_depth"],
             "threads": options.threads, "seed": seed, "level": level,
             "max_memory": memory,
             "memory_bytes": result["memory_bytes"], "table_bytes": result["table_bytes"],
             "tables": result["tables"], "depth_cap": result["depth_cap"]}
    return _alphabeta_suggestion(state, result, stats)
