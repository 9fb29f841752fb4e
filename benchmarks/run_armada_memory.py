"""Armada: the memory of the undo history.

    python benchmarks/run_armada_memory.py [--games 50] [--seed 0]

Every applied action (chance outcomes included) keeps a snapshot in the core's undo
stack (``CoreState._push`` in ``src_ext/boardrules/_ext/core.pyx``): the state struct,
the RNG before the action (4 x 64 bits) and the action's bookkeeping (its id, an
``int``, and whether it was drawn from the RNG, one byte).  The stack starts at 64
entries and doubles when full.

Two tables, for every configuration (the round cap is the default, 60):

* the bound: ``Game.max_game_length`` (the longest game the core allows) times the bytes
  an action keeps, and what the doubling stack allocates for it;
* the measure: the longest of ``--games`` seeded random games played to their end
  through the Python API, replayed under :mod:`tracemalloc` (the core allocates with
  ``PyMem_Malloc`` / ``PyMem_Realloc``, which tracemalloc traces: the "traced / stack"
  column compares what it saw with the stack's size computed from the game's length).

MB are 10**6 bytes.
"""

from __future__ import annotations

import argparse
import random
import sys
import tracemalloc
from collections.abc import Sequence
from typing import Any

from armada_workloads import MEMORY_CONFIGS, load_game
from bench_tables import print_table

from boardrules import Game

#: The RNG snapshot (xoshiro256: 4 x uint64) and an action's bookkeeping (an int id and
#: a "drawn" byte), in bytes.
RNG_BYTES = 32
BOOKKEEPING_BYTES = 4 + 1
FIRST_CAPACITY = 64
MB = 1e6


def entry_bytes(game: Game[Any, Any]) -> int:
    """What one applied action keeps in the undo stack."""
    return int(game.core.state_size) + RNG_BYTES + BOOKKEEPING_BYTES


def capacity(actions: int) -> int:
    """The undo stack's capacity once ``actions`` were pushed (64, doubling)."""
    cap = FIRST_CAPACITY
    while cap < actions:
        cap *= 2
    return cap


def play(game: Game[Any, Any], seed: int) -> int:
    """A seeded random game to its end through the Python API; its length in actions
    (the undo history: player moves and chance outcomes)."""
    state = game.new_game(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_moves()))
    return len(state.history)


def traced_bytes(game: Game[Any, Any], seed: int) -> tuple[int, int]:
    """(actions, bytes tracemalloc sees held after the game) of a seeded random game
    replayed with its undo history (the state and the random generator alive)."""
    rng = random.Random(seed)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        state = game.new_game(seed=seed)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_moves()))
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    return len(state.history), held


def bound_row(label: str, game: Game[Any, Any]) -> tuple[str, ...]:
    length = game.max_game_length
    entry = entry_bytes(game)
    return (label, f"{length:,}", f"{game.core.state_size:,}", f"{entry:,}",
            f"{length * entry / MB:.1f}", f"{capacity(length) * entry / MB:.1f}")


def measured_row(label: str, game: Game[Any, Any], games: int,
                 seed: int) -> tuple[str, ...]:
    lengths = {s: play(game, s) for s in range(seed, seed + games)}
    longest = max(lengths, key=lambda s: (lengths[s], -s))
    actions, held = traced_bytes(game, longest)
    assert actions == lengths[longest], "the replayed game differs"
    stack = capacity(actions) * entry_bytes(game)
    return (label, f"{sum(lengths.values()) / games:,.0f}", f"{actions:,} (seed {longest})",
            f"{actions * entry_bytes(game) / MB:.2f}", f"{stack / MB:.2f}",
            f"{held / MB:.2f}", f"{held / stack:.2f}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    games = [(label, load_game(options)) for label, options in MEMORY_CONFIGS]
    print("Bound: Game.max_game_length actions, each keeping the state, the RNG "
          f"({RNG_BYTES} B) and its bookkeeping ({BOOKKEEPING_BYTES} B)")
    print_table(("configuration", "max game length", "state B", "B an action",
                 "worst case MB", "allocated MB"),
                [bound_row(label, game) for label, game in games])
    print(f"\nMeasured: the longest of {args.games} seeded random games (seeds "
          f"{args.seed}..{args.seed + args.games - 1}), replayed under tracemalloc")
    print_table(("configuration", "mean actions", "longest game", "history MB",
                 "stack MB", "traced MB", "traced / stack"),
                [measured_row(label, game, args.games, args.seed) for label, game in games])
    return 0


if __name__ == "__main__":
    sys.exit(main())
