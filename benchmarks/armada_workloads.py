"""Armada benchmark workloads, shared by ``run_armada.py``, ``test_bench_armada.py`` and
``run_armada_memory.py``.

* **C core** -- :meth:`CoreGame.random_playouts`: whole random games in C through the
  game contract.  Its count is *atomic actions*: every player decision (a ship or band
  placed in the preliminary turn, a move, its bands and gold, an attack, a weapon or Coup
  de main window, a placement, ``end``) and every chance outcome (a combat roll, the
  exploration dice, a card drawn).
* **MCTS / ISMCTS** -- ``suggest(...)`` with the game's defaults (leaves evaluated at
  once, ``Game.rollout_limit = 0``) from fixed mid-game positions: MCTS on the games
  without cards, ISMCTS with ``cards=True`` (the hands are hidden).  One simulation is
  one iteration (a determinization with ISMCTS, a selection down the tree, an expansion
  and the game's heuristic).
"""

from __future__ import annotations

from typing import Any, Literal

from bench_tables import seeded_positions

import boardrules
from boardrules import Game, State, bench
from boardrules.search import suggest

#: (label, options) of every benchmarked configuration (the other options default).
CONFIGS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("2 players", {"players": 2}),
    ("3 players", {"players": 3}),
    ("4 players", {"players": 4}),
    ("4 players, cards, recruitment", {"players": 4, "cards": True, "recruitment": True}),
)
#: The configurations of the memory figures: the above (with cards, the default Coup de
#: main windows after every action, which lengthen the longest game the core allows),
#: and windows at the start of a turn only.
MEMORY_CONFIGS: tuple[tuple[str, dict[str, Any]], ...] = (
    *CONFIGS,
    ("4 players, cards, recruitment, turn_start",
     {"players": 4, "cards": True, "recruitment": True, "reaction_windows": "turn_start"}),
)
#: Short pytest ids of ``CONFIGS``.
IDS: tuple[str, ...] = ("2p", "3p", "4p", "4p-cards-recruitment")
#: The C core's target from the issue, in atomic actions per second.
C_CORE_TARGET = 1_000_000
C_CORE_SEED = 19_860_101
SEARCH_ITERATIONS = 2_000
#: Random actions before a benchmarked position: past the preliminary turn (ships and
#: bands of every colour), a few rounds into the game.
POSITION_HISTORY = bench.POSITION_HISTORY["armada"]  # 120, shared with boardrules bench


def load_game(options: dict[str, Any]) -> Game[Any, Any]:
    return boardrules.load("armada", **options)


def algorithm(game: Game[Any, Any]) -> Literal["mcts", "ismcts"]:
    """The search the game defaults to: ISMCTS when it hides something (the cards)."""
    return "ismcts" if game.has_hidden_information else "mcts"


def playouts(game: Game[Any, Any], games: int) -> int:
    """Atomic actions of ``games`` seeded random games played in C."""
    return int(game.core.random_playouts(games, C_CORE_SEED))


def positions(game: Game[Any, Any], count: int = 4, seed: int = 7) -> list[State[Any]]:
    """Seeded mid-game positions (after ``POSITION_HISTORY`` random actions, at a
    player's decision with a choice)."""
    return seeded_positions(game, count, seed, POSITION_HISTORY)


def search(states: list[State[Any]], iterations: int = SEARCH_ITERATIONS) -> int:
    """MCTS or ISMCTS iterations (the game's default) run from each state: one thread,
    seeded, the game's other defaults."""
    done = 0
    for i, state in enumerate(states):
        result = suggest(state, iterations=iterations, seed=i, threads=1,
                         algorithm=algorithm(state.game))
        done += int(result.stats["iterations"])
    return done
