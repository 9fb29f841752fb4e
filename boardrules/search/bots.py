"""Bots with one ``choose(state)`` method, for the demo and a user's own game loop.

A bot only ever uses what its player may know: the search bots call
:func:`~boardrules.search.suggest` with ``player`` set to the player to move, and
:class:`GreedyBot` scores moves on a determinized copy of the state.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, Protocol

from boardrules.api import MoveT, State, check_seed
from boardrules.errors import InvalidStateError
from boardrules.search.suggest import (
    Algorithm,
    Level,
    RolloutPolicy,
    RootSelection,
    SearchHandle,
    SearchOptions,
    Simultaneous,
    Suggestion,
    check_options,
    suggest,
)

PASS_PENALTY = 0.02
#: Worlds a greedy second commit is valued over (the first commit is hidden from it).
SIMULTANEOUS_WORLDS = 8


class Bot(Protocol):
    """Anything that picks a move for the player to move: given a state of any game, one
    of that game's own moves (``bot.choose(armadora_state)`` is an ``ArmadoraMove``)."""

    def choose(self, state: State[MoveT]) -> MoveT: ...


def _legal_or_raise(state: State[MoveT]) -> list[MoveT]:
    moves = state.legal_moves()
    if not moves and not state.is_terminal():
        raise InvalidStateError("no legal move although the game is not over: no play of "
                                "the rules reaches this state")
    if not moves:
        raise ValueError("no legal move: the game is over")
    return moves


class RandomBot:
    """Uniformly random legal moves (seeded)."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(check_seed(seed))

    def choose(self, state: State[MoveT]) -> MoveT:
        return self._rng.choice(_legal_or_raise(state))


class GreedyBot:
    """One-ply greedy: the move whose result the game's heuristic ``evaluate`` likes best
    for the player to move, on a determinization of what he may know (seeded; ties
    broken at random; ending the game for good only when everything else is worse).

    A secret commit (Rome & Carthage's battle cards) is not judged before the opponent's
    answer: a commit whose reply is the other side's simultaneous commit is valued as the
    mean over those replies, after the battle is fought; and the second commit, which
    cannot see the first, is valued over several worlds of what the first may be.
    Valued as it stands, a commit only spends cards, and the bot gave up every battle
    with ``play 0+0``."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(check_seed(seed))

    def choose(self, state: State[MoveT]) -> MoveT:
        player = state.current_player
        moves = _legal_or_raise(state)
        if player < 0:
            return self._rng.choice(moves)
        worlds = [state.determinize(player, self._rng.getrandbits(64))._core]
        if worlds[0].simultaneous():  # the first commit is hidden: a few guesses at it
            worlds += [state.determinize(player, self._rng.getrandbits(64))._core
                       for _ in range(SIMULTANEOUS_WORLDS - 1)]
        pass_action = state.game.pass_action
        best: list[MoveT] = []
        best_value = -2.0
        for move in moves:
            value = sum(_one_ply_value(w, move.action, player) for w in worlds) / len(worlds)
            if move.action == pass_action:
                value -= PASS_PENALTY
            if value > best_value + 1e-12:
                best, best_value = [move], value
            elif abs(value - best_value) <= 1e-12:
                best.append(move)
        return self._rng.choice(best)


def _one_ply_value(world: Any, action: int, player: int) -> float:
    """``player``'s heuristic value after ``action`` in ``world`` (a core state); when the
    next decision is another player's commit simultaneous with it, the mean over that
    player's commits (uniform: the greedy bot has no model of his choice).  A world
    that refuses the move or leaves the reply no move is no world of the rules: an
    InvalidStateError, as the search engines give."""
    if not world.is_legal(action):
        raise InvalidStateError(f"a world determinize({player}) drew refuses a move of "
                                f"the state (action {action}): no play of the rules "
                                f"reaches it")
    child = world.copy(False)
    child.apply(action)
    reply_by = child.current_player
    if reply_by < 0 or reply_by == player or not child.simultaneous():
        return float(child.evaluate()[player])
    total = 0.0
    replies = child.legal_actions()
    if not replies:
        raise InvalidStateError(f"after action {action}, player {reply_by} is to reply "
                                f"and has no legal move although the game is not over")
    for reply in replies:
        answered = child.copy(False)
        answered.apply(reply)
        total += answered.evaluate()[player]
    return total / len(replies)


class _SearchBot:
    algorithm: Algorithm = "auto"
    #: Options whose value is a word (a bot spec's ``level=strong``), not a number.
    word_options: ClassVar[frozenset[str]] = frozenset({
        "level", "simultaneous", "root_selection", "rollout_policy", "until_sure",
        "solver"})

    def __init__(self, options: SearchOptions, seed: int | None,
                 handle: SearchHandle | None = None) -> None:
        # checked as suggest() checks its seed: a bad one fails here, not at a move
        self._rng = random.Random(check_seed(seed))
        self._options = options.as_kwargs()
        self._handle = handle
        #: The last suggestion this bot followed (for logging or analysis).
        self.last: Suggestion[Any] | None = None

    def choose(self, state: State[MoveT]) -> MoveT:
        moves = _legal_or_raise(state)
        if len(moves) == 1:
            move = moves[0]
        else:
            suggestion = suggest(state, player=state.current_player,
                                 seed=self._rng.getrandbits(64), handle=self._handle,
                                 **self._options)
            self.last = suggestion
            # a secret commit searched by regret matching is played as the mixed
            # strategy it found, not as its most likely move
            move = suggestion.draw(self._rng)
        if self._handle is not None:
            self._handle.played(move)  # the next search walks its tree along it
        return move


class _MctsFamilyBot(_SearchBot):
    def __init__(self, *, iterations: int | None = None, time_limit: float | None = None,
                 threads: int = 1, seed: int | None = None, exploration: float | None = None,
                 rollout_limit: int | None = None, max_memory: int | None = None,
                 simultaneous: Simultaneous = "decoupled", level: Level | None = None,
                 reuse: bool = True, until_sure: bool | None = None,
                 cpu_limit: float | None = None, confidence: float | None = None,
                 root_selection: RootSelection | None = None,
                 rollout_policy: RolloutPolicy | None = None,
                 rollout_epsilon: float | None = None, solver: bool | None = None) -> None:
        # checked now, by the same function as suggest(): a bad option fails here, not
        # at the first move
        super().__init__(check_options(self.algorithm, iterations=iterations,
                                       time_limit=time_limit, threads=threads,
                                       exploration=exploration, rollout_limit=rollout_limit,
                                       max_memory=max_memory, simultaneous=simultaneous,
                                       level=level, until_sure=until_sure,
                                       cpu_limit=cpu_limit, confidence=confidence,
                                       root_selection=root_selection,
                                       rollout_policy=rollout_policy,
                                       rollout_epsilon=rollout_epsilon, solver=solver),
                         seed, SearchHandle() if _reuse(reuse) else None)


def _reuse(value: object) -> bool:
    """``reuse`` as a bool (a bot spec gives it as 1 or 0)."""
    if isinstance(value, bool):
        return value
    if type(value) is int and value in (0, 1):
        return bool(value)
    raise TypeError(f"reuse must be a bool (or 0 / 1 in a bot spec), not {value!r}")


class MCTSBot(_MctsFamilyBot):
    """UCT with random rollouts (on a hidden-information game: one determinized world of
    its player's knowledge per tree).  Options as for :func:`suggest` with
    ``algorithm="mcts"``; ``reuse`` (default true): keep the subtree of the position
    reached for the next move (a :class:`~boardrules.search.SearchHandle`; on a game
    without hidden information only)."""

    algorithm = "mcts"


class ISMCTSBot(_MctsFamilyBot):
    """Single-observer information-set MCTS: every iteration redraws what its player
    cannot see; a decision simultaneous with a hidden commit is searched decoupled
    (``simultaneous="regret"``: by regret matching, the commit then drawn from its
    average strategy; ``"sequential"``: as plain SO-ISMCTS).  Options as for :func:`suggest`
    with ``algorithm="ismcts"``; ``reuse`` (default true): keep the subtree of the
    position reached, as its player knows it, for the next move (a
    :class:`~boardrules.search.SearchHandle`)."""

    algorithm = "ismcts"


class AlphaBetaBot(_SearchBot):
    """Iterative-deepening alpha-beta (``depth``, ``max_nodes``, ``time_limit``: the
    default budget of :func:`suggest` when none is given), averaged over
    ``determinizations`` on a hidden-information game."""

    algorithm = "alphabeta"

    def __init__(self, *, depth: int | None = None, max_nodes: int | None = None,
                 time_limit: float | None = None, threads: int = 1, seed: int | None = None,
                 determinizations: int | None = None, max_memory: int | None = None,
                 level: Level | None = None) -> None:
        super().__init__(check_options("alphabeta", depth=depth, max_nodes=max_nodes,
                                       time_limit=time_limit, threads=threads,
                                       determinizations=determinizations,
                                       max_memory=max_memory, level=level), seed)
