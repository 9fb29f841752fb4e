"""Search benchmark workloads, shared by ``run_search.py`` and ``test_bench_search.py``.

* MCTS simulations/s (one uniformly random rollout per simulation) on connect_four from
  the empty board, beside OpenSpiel's C++ ``MCTSBot`` + ``RandomRolloutEvaluator`` with
  the same number of simulations and the same UCT constant when the optional
  ``open-spiel`` package is installed;
* alpha-beta nodes/s on connect_four from the empty board at a fixed depth;
* ISMCTS and MCTS simulations/s on Armadora (2 players basic, 4 players advanced), with
  one thread and with ``threads=2`` (root parallelism);
* strength on Armadora (2 players, basic): score rates with their game counts, from
  :func:`boardrules.arena.play_match`;
* reuse between moves: the nodes a :class:`~boardrules.search.SearchHandle` keeps per
  second of the next search's walk and compaction (connect four, Armadora).

Every workload is seeded; the MCTS and alpha-beta results are deterministic for a seed and
an iteration or depth budget (the times, of course, are not).  Each returns a
:class:`~interleave.Rate`: its count over the CPU seconds of this process (OpenSpiel's C++
bots run in this process too) and over the wall seconds; ``run_search.py`` times them
side by side in interleaved rounds (:mod:`interleave`).
"""

from __future__ import annotations

from interleave import Rate, cpu_timed

import boardrules
from boardrules.arena import MatchResult, play_match
from boardrules.search import SearchHandle, suggest

UCT_C = 2.0
SEED = 20_261_129


def mcts_connect_four(simulations: int, threads: int = 1, seed: int = SEED) -> Rate:
    state = boardrules.load("connect_four").new_game(seed=seed)
    return cpu_timed(lambda: int(suggest(
        state, algorithm="mcts", iterations=simulations, exploration=UCT_C, threads=threads,
        seed=seed).stats["iterations"]))


def openspiel_available() -> bool:
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return False
    return True


def openspiel_mcts_connect_four(simulations: int, seed: int = SEED) -> Rate:
    """OpenSpiel's C++ MCTSBot with one random rollout per simulation (no solver)."""
    import pyspiel

    game = pyspiel.load_game("connect_four")
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    bot = pyspiel.MCTSBot(game, evaluator, UCT_C, simulations, 1000, False, seed, False)
    state = game.new_initial_state()
    return cpu_timed(lambda: (bot.step(state), simulations)[1])


def ismcts_armadora_first_move(simulations: int, seed: int = SEED) -> Rate:
    """Our ISMCTS (one thread, random rollouts to the end) on Armadora's first decision
    (2 players, basic), the worlds redrawn every simulation."""
    game = boardrules.load("armadora", players=2)
    state = game.new_game(seed=seed)
    return cpu_timed(lambda: int(suggest(
        state, algorithm="ismcts", iterations=simulations, exploration=UCT_C,
        rollout_limit=game.max_game_length, seed=seed).stats["iterations"]))


def openspiel_ismcts_armadora_first_move(simulations: int, seed: int = SEED) -> Rate:
    """OpenSpiel's ISMCTSBot on the same decision through the bridge (boardrules.openspiel),
    one random rollout per simulation.  Its Python ISMCTS: the C++ ``pyspiel.ISMCTSBot``
    stops the interpreter with a segmentation fault on a Python game (its
    ``ResampleFromInfostate`` of a Python state), so it cannot be measured here."""
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    from boardrules.openspiel import load_game
    game = load_game("armadora", players=2)
    rng = np.random.RandomState(seed % 2**32)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), UCT_C, simulations,
                           random_state=rng)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return cpu_timed(lambda: (bot.step(state), simulations)[1])


def alphabeta_connect_four(depth: int, seed: int = SEED) -> Rate:
    state = boardrules.load("connect_four").new_game(seed=seed)
    return cpu_timed(lambda: int(suggest(state, algorithm="alphabeta", depth=depth,
                                         seed=seed).stats["nodes"]))


ARMADORA_CONFIGS: tuple[tuple[int, str], ...] = ((2, "basic"), (4, "advanced"))


def mcts_armadora(players: int, variant: str, algorithm: str, simulations: int,
                  threads: int = 1, seed: int = SEED) -> Rate:
    state = boardrules.load("armadora", players=players, variant=variant).new_game(seed=seed)
    return cpu_timed(lambda: int(suggest(
        state, algorithm=algorithm,  # type: ignore[arg-type]
        iterations=simulations, threads=threads, seed=seed).stats["iterations"]))


def armadora_match(strong: str, weak: str, games: int, seed: int = SEED,
                   processes: int | None = None) -> MatchResult:
    """``games`` games of 2-player basic Armadora between two bot specs
    (``"ismcts:iterations=2000"``, ``"random"``), played by :mod:`boardrules.arena`:
    seats alternate, a shared first place counts half, on every core by default."""
    return play_match("armadora", [strong, weak], games=games, seed=seed, processes=processes,
                      options={"players": 2, "variant": "basic"})


def ismcts_bot(iterations: int) -> str:
    """The arena spec of an ISMCTS bot with an iteration budget."""
    return f"ismcts:iterations={iterations}"


#: (game, options, the kept search's iterations) of the reuse workloads.
REUSE_CONFIGS = [("connect_four", {}, 200_000), ("armadora", {"players": 2}, 10_000)]


def kept_tree(game_id: str, options: dict[str, int], iterations: int,
              seed: int = SEED) -> tuple[SearchHandle, boardrules.State[boardrules.Move], int]:
    """A handle holding a search of ``iterations`` from four moves into a seeded game, and
    the position after the move it suggests and the reply it expects (the player to move
    again): what a bot meets at its next move.  The searching player is the third."""
    state = boardrules.load(game_id, **options).new_game(seed=seed)
    for k in range(4):
        state.apply(suggest(state, iterations=200, seed=k).move)
    player = state.current_player
    handle = SearchHandle()
    first = suggest(state, iterations=iterations, seed=seed, handle=handle)
    handle.played(first.move)
    for i, move in enumerate(first.pv):
        if i > 0 and state.current_player == player:
            break  # his next move: the position the next search is asked about
        state.apply(move)
    return handle, state, player


def reuse_walk(handle: SearchHandle, state: boardrules.State[boardrules.Move],
               player: int) -> Rate:
    """One iteration from the kept tree: the time is the walk and the compaction."""
    return cpu_timed(lambda: int(suggest(state, player=player, iterations=1, seed=SEED,
                                         handle=handle).stats["reused_nodes"]))
