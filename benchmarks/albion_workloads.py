"""Albion benchmark workloads, shared by ``run_albion.py`` and ``test_bench_albion.py``.

* **C core** -- :meth:`CoreGame.random_playouts`: whole random games in C through the
  game contract.  Its count is *atomic actions*: every player decision (a movement step,
  a build, a payment, a tribute pick, a loss decision, ``end``) and every Pict turned
  over (chance).
* **MCTS** -- ``suggest(...)`` with the game's defaults (leaves evaluated at once,
  ``Game.rollout_limit = 0``; ``Game.exploration``) from fixed mid-game positions: one
  simulation is one iteration (a selection down the tree, an expansion and the game's
  heuristic).
"""

from __future__ import annotations

from bench_tables import seeded_positions

import boardrules
from boardrules import Game, State
from boardrules.bench import POSITION_HISTORY
from boardrules.search import suggest

#: Player counts of every benchmarked configuration.
CONFIGS: tuple[int, ...] = (2, 3, 4)
#: The C core's target from the issue, in atomic actions per second.
C_CORE_TARGET = 1_000_000
C_CORE_SEED = 20_091_001
MCTS_ITERATIONS = 2_000


def load_game(players: int) -> Game:
    return boardrules.load("albion", players=players)


def playouts(game: Game, games: int) -> int:
    """Atomic actions of ``games`` seeded random games played in C."""
    return int(game.core.random_playouts(games, C_CORE_SEED))


def positions(game: Game, count: int = 4, seed: int = 7) -> list[State]:
    """Seeded mid-game positions (after some 40 random actions, at a player's decision
    with a choice)."""
    return seeded_positions(game, count, seed, POSITION_HISTORY["albion"])


def mcts(states: list[State], iterations: int = MCTS_ITERATIONS) -> int:
    """MCTS iterations run from each state (one thread, seeded, the game's defaults)."""
    done = 0
    for i, state in enumerate(states):
        result = suggest(state, iterations=iterations, seed=i, threads=1)
        done += int(result.stats["iterations"])
    return done
