"""``suggest()``: ranked moves for the player to move, from the compiled search core.

Every algorithm searches only what the searching player may know: on a game with hidden
information each search starts from :meth:`~boardrules.State.determinize` worlds of his
view (ISMCTS redraws one per iteration; MCTS draws one world per tree; alpha-beta
averages several), never from the state itself.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Literal

from boardrules._ext import search as _search
from boardrules.api import Move, State, check_seed

Algorithm = Literal["auto", "mcts", "ismcts", "alphabeta"]
ALGORITHMS = ("auto", "mcts", "ismcts", "alphabeta")
DEFAULT_ITERATIONS = 1000
DEFAULT_DEPTH = 4
MAX_DEPTH = 100
DEFAULT_EXPLORATION = 1.0  # UCT constant for values in [-1, 1]
DEFAULT_DETERMINIZATIONS = 8
TT_BITS = 20  # the transposition table's size (2**20 entries) for deep searches


@dataclass(frozen=True)
class Suggestion:
    """The result of :func:`suggest`.

    * ``move`` -- the best move;
    * ``ranked`` -- ``(move, value, visits)`` for every move searched, best first;
      ``value`` is the expected result for the player to move (+1 a win, -1 a loss, 0 a
      draw in two-sided games); ``visits`` counts simulations (MCTS) or nodes
      (alpha-beta) below the move;
    * ``pv`` -- the principal variation, starting with ``move``;
    * ``stats`` -- algorithm, iterations or nodes, depth, seconds, threads, seed.
    """

    move: Move
    ranked: list[tuple[Move, float, int]]
    pv: list[Move]
    stats: dict[str, Any] = field(default_factory=dict)


def _positive_int(value: Any, name: str, maximum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int")
    if not 1 <= value <= maximum:
        raise ValueError(f"{name} must be 1 to {maximum}")
    return value


def _time_limit(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError("time_limit must be a number of seconds")
    if not (value > 0 and math.isfinite(value)):
        raise ValueError("time_limit must be a positive number of seconds")
    return float(value)


def suggest(state: State[Any], *, player: int | None = None, algorithm: Algorithm = "auto",
            iterations: int | None = None, time_limit: float | None = None,
            threads: int = 1, seed: int | None = None, depth: int | None = None,
            exploration: float = DEFAULT_EXPLORATION, rollout_limit: int | None = None,
            determinizations: int = DEFAULT_DETERMINIZATIONS) -> Suggestion:
    """Ranked moves for the player to move.

    * ``player`` -- whose knowledge the search may use (default: the player to move);
    * ``algorithm`` -- ``"ismcts"`` (the default for games with hidden information),
      ``"mcts"`` (the default otherwise) or ``"alphabeta"``;
    * ``iterations`` / ``time_limit`` -- the budget (MCTS simulations / seconds); with an
      iteration budget (and no time limit) the result is deterministic for a ``seed``;
      default 1,000 iterations.  Alpha-beta's budget is ``depth`` and ``time_limit``;
    * ``threads`` -- root parallelism without the GIL: independent MCTS trees merged, or
      alpha-beta's root moves shared out among the threads;
    * ``depth`` -- alpha-beta's depth in atomic moves (default 4; with only a time limit,
      iterative deepening until the time runs out);
    * ``exploration``, ``rollout_limit`` (random moves before the game's heuristic;
      default: to the end of the game) and ``determinizations`` (alpha-beta worlds) tune
      the search.
    """
    if not isinstance(state, State):
        raise TypeError(f"suggest needs a State, not {type(state).__name__}")
    mover = state.current_player
    if mover < 0:
        raise ValueError("no move to suggest: the game is over or a chance event is pending")
    game = state.game
    if player is None:
        player = mover
    elif isinstance(player, bool) or not isinstance(player, int):
        raise TypeError("player must be an int")
    elif not 0 <= player < game.num_players:
        raise ValueError(f"player must be 0 to {game.num_players - 1}")
    if algorithm not in ALGORITHMS:
        raise ValueError(f"algorithm must be one of {', '.join(ALGORITHMS)}")
    if algorithm == "auto":
        algorithm = "ismcts" if game.has_hidden_information else "mcts"
    if iterations is not None:
        iterations = _positive_int(iterations, "iterations", 10**9)
    if time_limit is not None:
        time_limit = _time_limit(time_limit)
    threads = _positive_int(threads, "threads", 64)
    seed = check_seed(seed)
    if isinstance(exploration, bool) or not isinstance(exploration, int | float) \
            or not (exploration >= 0 and math.isfinite(exploration)):
        raise ValueError("exploration must be a finite number >= 0")
    if rollout_limit is not None:
        rollout_limit = _positive_int(rollout_limit, "rollout_limit", 10**6)
    determinizations = _positive_int(determinizations, "determinizations", 10**4)
    hidden = game.has_hidden_information
    moves = game._moves
    if algorithm == "alphabeta":
        if depth is None:
            depth = MAX_DEPTH if time_limit is not None else DEFAULT_DEPTH
        depth = _positive_int(depth, "depth", MAX_DEPTH)
        # a shallow search needs a small table (clearing a large one would cost more)
        tt_bits = min(TT_BITS, 12 + depth)
        result = _search.run_alphabeta(state._core, depth, time_limit or 0.0, determinizations,
                                       hidden, player, seed, tt_bits, threads)
        if not result["children"]:
            raise TimeoutError("time_limit too short to finish even depth 1")
        ranked = [(moves[a], v, n) for a, n, v in result["children"]]
        pv = [moves[a] for a in result["pv"]]
        stats = {"algorithm": "alphabeta", "nodes": result["nodes"], "depth": result["depth"],
                 "seconds": result["seconds"], "worlds": result["worlds"],
                 "stopped_by_time": result["stopped"], "threads": threads, "seed": seed}
    else:
        if iterations is None and time_limit is None:
            iterations = DEFAULT_ITERATIONS
        ismcts = algorithm == "ismcts" and hidden
        rollout = -1 if rollout_limit is None else rollout_limit
        result = _search.run_mcts(state._core, iterations or 0, time_limit or 0.0,
                                  float(exploration), rollout, ismcts, hidden and not ismcts,
                                  player, seed, threads)
        ranked = [(moves[a], v, n) for a, n, v in result["children"]]
        pv = [moves[a] for a in result["pv"]]
        stats = {"algorithm": algorithm, "iterations": result["iterations"],
                 "nodes": result["nodes"], "depth": result["max_depth"],
                 "seconds": result["seconds"], "threads": threads, "seed": seed}
    return Suggestion(move=ranked[0][0], ranked=ranked, pv=pv, stats=stats)
