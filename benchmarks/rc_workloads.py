"""Rome & Carthage benchmark workloads, shared by ``run_rome_and_carthage.py`` and
``test_bench_rome_and_carthage.py``.

* **C core** -- :meth:`CoreGame.random_playouts`: whole random games in C through the
  game contract.  Its count is *atomic actions*: every player decision (a placement, a
  move, a card laid down, ``pass``/``done``) and every card drawn (chance).
* **ISMCTS** -- ``suggest(..., algorithm="ismcts")`` from fixed mid-game positions: one
  simulation is one iteration (a determinization, a selection down the tree, a rollout
  of ``ROLLOUT_LIMIT`` random actions and the game's heuristic).
"""

from __future__ import annotations

from bench_tables import seeded_positions

import boardrules
from boardrules import Game, State
from boardrules.bench import POSITION_HISTORY
from boardrules.search import suggest

#: (players, variant) of every benchmarked configuration.
CONFIGS: tuple[tuple[int, str], ...] = ((2, "standard"), (4, "standard"), (4, "equal_arms"))
#: The C core's target from the issue, in atomic actions per second.
C_CORE_TARGET = 1_000_000
C_CORE_SEED = 19_540_101
ROLLOUT_LIMIT = 30
ISMCTS_ITERATIONS = 2_000


def load_game(players: int, variant: str) -> Game:
    return boardrules.load("rome_and_carthage", players=players, variant=variant)


def playouts(game: Game, games: int) -> int:
    """Atomic actions of ``games`` seeded random games played in C."""
    return int(game.core.random_playouts(games, C_CORE_SEED))


def positions(game: Game, count: int = 4, seed: int = 7) -> list[State]:
    """Seeded mid-game positions (after the placement, at a player's decision)."""
    return seeded_positions(game, count, seed, POSITION_HISTORY["rome_and_carthage"])


def ismcts(states: list[State], iterations: int = ISMCTS_ITERATIONS) -> int:
    """ISMCTS iterations run from each state (one thread, seeded)."""
    done = 0
    for i, state in enumerate(states):
        result = suggest(state, algorithm="ismcts", iterations=iterations,
                         rollout_limit=ROLLOUT_LIMIT, seed=i, threads=1)
        done += int(result.stats["iterations"])
    return done
