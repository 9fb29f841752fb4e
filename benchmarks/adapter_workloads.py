"""Observation-tensor and adapter workloads, shared by ``run_adapters.py`` and
``test_bench_adapters.py``.

* the C core's random-playout step rate beside the same playouts writing the mover's
  observation tensor before every decision (``random_playouts(..., observe=True)``): the
  target is at least half the plain rate;
* observations per second through the Python API into a preallocated buffer
  (``state.observation(p, out=buf)``), as an adapter calls it;
* one side by side on connect four: our tensor, PettingZoo's own classic
  ``connect_four_v3`` ``observe()``, OpenSpiel's C++ ``connect_four``
  ``observation_tensor()``, and our OpenSpiel bridge's ``observation_tensor()``;
* MCTS through the OpenSpiel bridge: OpenSpiel's Python ``MCTSBot`` on our game beside our
  own MCTS on the same game and budget.

Every workload is seeded.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from interleave import Rate, cpu_timed

import boardrules
from boardrules.games import as_game_id
from boardrules.search import suggest

SEED = 20_261_203
UCT_C = 2.0

#: One option set per game for the tables (the largest of each, where sizes vary).
GAMES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("tic_tac_toe", {}), ("connect_four", {}), ("pig", {}),
    ("armadora", {"players": 4, "variant": "advanced"}),
    ("rome_and_carthage", {"players": 4}),
    ("armada", {"players": 4, "cards": True, "recruitment": True}),
    ("albion", {"players": 4}),
)


def _timed(run: Callable[[], int]) -> Rate:
    return cpu_timed(run)


def load(game_id: str, options: dict[str, Any]) -> boardrules.Game[Any, Any]:
    return boardrules.load(as_game_id(game_id), **options)


def playout_steps(game_id: str, options: dict[str, Any], games: int, observe: bool) -> Rate:
    """Actions per CPU second of ``games`` random playouts in C, with or without the
    mover's observation written before each decision."""
    core = load(game_id, options).core
    return _timed(lambda: int(core.random_playouts(games, SEED, observe=observe)))


def observed_playouts(game_id: str, options: dict[str, Any], games: int) -> Rate:
    """Observation tensors written in C during the same seeded playouts as
    :func:`playout_steps`, the mover's tensor before each decision; the count is the
    tensors (``run_adapters.py`` takes the CPU time they added to the plain playouts)."""
    core = load(game_id, options).core
    return _timed(lambda: int(core.observed_playouts(games, SEED)[1]))


def python_observations(game_id: str, options: dict[str, Any], positions: int,
                        repeats: int) -> Rate:
    """``state.observation(p, out=buf)`` calls per CPU second over seeded random positions
    (every player's tensor at each)."""
    game = load(game_id, options)
    states = _positions(game, positions)
    buffer = game.observation_layout.zeros()

    def run() -> int:
        count = 0
        for _ in range(repeats):
            for state in states:
                for player in range(game.num_players):
                    state.observation(player, out=buffer)
                    count += 1
        return count
    return _timed(run)


def _positions(game: boardrules.Game[Any, Any], count: int) -> list[Any]:
    rng = np.random.default_rng(SEED)
    states = []
    while len(states) < count:
        state = game.new_game(seed=int(rng.integers(2**31)))
        for _ in range(int(rng.integers(1, 40))):
            if state.is_terminal():
                break
            moves = state.legal_moves()
            state.apply(moves[int(rng.integers(len(moves)))])
        states.append(state)
    return states


def pettingzoo_observe(which: str, steps: int) -> Rate:
    """``observe(agent)`` calls per CPU second along a seeded masked-random game, repeated:
    ``which`` is ``"classic"`` (PettingZoo's own ``connect_four_v3``) or ``"boardrules"``
    (``boardrules.pettingzoo.env("connect_four")``)."""
    if which == "classic":
        from pettingzoo.classic import connect_four_v3
        env = connect_four_v3.env()
    else:
        from boardrules.pettingzoo import env as make
        env = make("connect_four")
    rng = np.random.default_rng(SEED)

    def run() -> int:
        count = 0
        env.reset(seed=SEED)
        while count < steps:
            agent = env.agent_selection
            observation = env.observe(agent)
            count += 1
            if env.terminations[agent] or env.truncations[agent]:
                env.reset(seed=int(rng.integers(2**31)))
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        return count
    return _timed(run)


def openspiel_observation_tensor(which: str, steps: int) -> Rate:
    """``state.observation_tensor()`` calls per CPU second on connect four positions along
    seeded random games: ``which`` is ``"cpp"`` (OpenSpiel's own C++ game) or
    ``"bridge"`` (our game through :mod:`boardrules.openspiel`)."""
    import pyspiel
    if which == "bridge":
        import boardrules.openspiel  # noqa: F401 - registers the games
    game = pyspiel.load_game("connect_four" if which == "cpp" else "boardrules_connect_four")
    rng = np.random.default_rng(SEED)

    def run() -> int:
        count = 0
        state = game.new_initial_state()
        while count < steps:
            state.observation_tensor(state.current_player())
            count += 1
            state.apply_action(int(rng.choice(state.legal_actions())))
            if state.is_terminal():
                state = game.new_initial_state()
        return count
    return _timed(run)


def openspiel_mcts_through_bridge(game_id: str, options: dict[str, Any],
                                  simulations: int) -> Rate:
    """OpenSpiel's Python ``MCTSBot`` (one random rollout per simulation) deciding the
    first move of our game through the bridge: simulations per CPU second."""
    from open_spiel.python.algorithms import mcts

    from boardrules.openspiel import load_game
    game = load_game(game_id, **options)
    rng = np.random.RandomState(SEED % 2**32)
    bot = mcts.MCTSBot(game, UCT_C, simulations, mcts.RandomRolloutEvaluator(1, rng),
                       random_state=rng)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return _timed(lambda: (bot.step(state), simulations)[1])


def our_mcts(game_id: str, options: dict[str, Any], simulations: int) -> Rate:
    """Our MCTS (one thread, random rollouts to the end, as OpenSpiel's) on the same first
    decision."""
    game = load(game_id, options)
    state = game.new_game(seed=SEED)

    def run() -> int:
        result = suggest(state, algorithm="mcts", iterations=simulations, exploration=UCT_C,
                         rollout_limit=game.max_game_length, seed=SEED)
        return int(result.stats["iterations"])
    return _timed(run)
