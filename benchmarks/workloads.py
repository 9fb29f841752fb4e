"""The Armadora benchmark workloads, shared by ``run.py`` and ``test_bench_armadora.py``.

Two paths play uniformly random games from the initial position:

* **C core** -- :meth:`CoreGame.random_playouts`: the whole game, chance included, runs in
  C through the game contract; Python is called once per batch of games.
* **Python API** -- the public loop a user writes::

      state = game.new_game(seed=i)
      while not state.is_terminal():
          state.apply(rng.choice(state.legal_moves()))

Both are deterministic: the C core from its seed, the Python loop from ``new_game(seed=i)``
and a seeded :class:`random.Random`, so a given workload always plays the same games.

**What a "move" is.**  Armadora's only chance events are in the setup (rule 二/(六): one
gold pile per mine; rule 七/(一)1, advanced game: one race per player), so every game
holds the same number of setup chance outcomes.  ``random_playouts`` counts every action
applied, chance included; the figures here count *moves* -- player decisions, the setup
chance outcomes subtracted -- on both paths, so the two are comparable.  The action counts
(chance included) are kept beside them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import boardrules
from boardrules import CHANCE, Game

# The Python API loop and its seed (``new_game(seed=i)``, i = 0, 1, ..., and
# ``random.Random(12_345)``), shared with ``boardrules bench``.
from boardrules.bench import PYTHON_RNG_SEED as PYTHON_RNG_SEED
from boardrules.bench import python_api_playouts as python_api_playouts

#: (players, variant) of every benchmarked configuration.
CONFIGS: tuple[tuple[int, str], ...] = (
    (2, "basic"),
    (2, "advanced"),
    (4, "basic"),
    (4, "advanced"),
)

C_CORE = "C core"
PYTHON_API = "Python API"
PATHS = (C_CORE, PYTHON_API)

#: The speed each path is expected to reach, in moves per second.
TARGETS: dict[str, int] = {C_CORE: 1_000_000, PYTHON_API: 100_000}

#: Seed of the C core's playout RNG.
C_CORE_SEED = 20_130_101


def load_game(players: int, variant: str) -> Game:
    return boardrules.load("armadora", players=players, variant=variant)


def setup_chance_actions(game: Game, check_games: int = 10) -> int:
    """The number of chance outcomes every game draws before the first player move.

    Checked, not assumed: ``check_games`` random games are played without auto chance and
    must meet chance nodes only before the first player move, always the same number.
    """
    rng = random.Random(0)
    counts = set()
    for i in range(check_games):
        state = game.new_game(seed=i, auto_chance=False)
        setup = 0
        while state.current_player == CHANCE:
            state.apply_random_chance()
            setup += 1
        while not state.is_terminal():
            if state.current_player == CHANCE:
                raise RuntimeError(f"{game!r}: a chance node after the setup (game {i})")
            state.apply(rng.choice(state.legal_moves()))
        counts.add(setup)
    if len(counts) != 1:
        raise RuntimeError(f"{game!r}: the setup draws {sorted(counts)} chance outcomes")
    return counts.pop()


def c_core_playouts(game: Game, games: int, seed: int = C_CORE_SEED) -> int:
    """Play ``games`` random games in C; the number of actions applied (chance included)."""
    return int(game.core.random_playouts(games, seed))


@dataclass(frozen=True)
class Measurement:
    """One timed workload: ``games`` games, ``moves`` player moves in ``seconds``."""

    path: str
    players: int
    variant: str
    games: int
    moves: int
    actions: int
    seconds: float

    @property
    def moves_per_s(self) -> float:
        return self.moves / self.seconds

    @property
    def actions_per_s(self) -> float:
        return self.actions / self.seconds

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds

    @property
    def mean_moves(self) -> float:
        return self.moves / self.games

    @property
    def target(self) -> int:
        return TARGETS[self.path]

    @property
    def met(self) -> bool:
        return self.moves_per_s >= self.target


def counts(path: str, result: int, games: int, setup: int) -> tuple[int, int]:
    """(player moves, actions) of a workload from its return value."""
    if path == C_CORE:
        return result - games * setup, result
    return result, result + games * setup


def run_workload(path: str, game: Game, games: int) -> int:
    if path == C_CORE:
        return c_core_playouts(game, games)
    return python_api_playouts(game, games)
