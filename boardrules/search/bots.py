"""Simple bots with one ``choose(state)`` method, for demos and a user's own game loop.

A bot only ever looks at what its player may know: :class:`GreedyBot` scores moves on a
determinized copy of the state (everything its player cannot see redrawn), never on the
state itself.
"""

from __future__ import annotations

import random
from typing import Protocol

from boardrules.api import Move, State

PASS_PENALTY = 0.02


class Bot(Protocol):
    """Anything that picks a move for the player to move."""

    def choose(self, state: State) -> Move: ...


class RandomBot:
    """Uniformly random legal moves (seeded)."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, state: State) -> Move:
        moves = state.legal_moves()
        if not moves:
            raise ValueError("no legal move: the game is over")
        return self._rng.choice(moves)


class GreedyBot:
    """One-ply greedy: the move whose result the game's heuristic ``evaluate`` likes best
    for the player to move, on a determinization of what he may know (seeded; ties
    broken at random)."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, state: State) -> Move:
        player = state.current_player
        moves = state.legal_moves()
        if not moves:
            raise ValueError("no legal move: the game is over")
        if player < 0:
            return self._rng.choice(moves)
        world = state._core.determinized(player, self._rng.getrandbits(64))
        pass_action = state.game.pass_action
        best: list[Move] = []
        best_value = -2.0
        for move in moves:
            child = world.copy(False)
            child.apply(move.action)
            value = child.evaluate()[player]
            if move.action == pass_action:  # ending for good: only when all else is worse
                value -= PASS_PENALTY
            if value > best_value + 1e-12:
                best, best_value = [move], value
            elif abs(value - best_value) <= 1e-12:
                best.append(move)
        return self._rng.choice(best)
