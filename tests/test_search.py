"""The search core through ``boardrules.suggest`` and the bots: legality, determinism,
root parallelism, budgets, bad arguments, and no cheating on hidden information."""

from __future__ import annotations

import random
from typing import Any

import pytest

import boardrules
from boardrules.games.armadora import ArmadoraState
from boardrules.search import (
    AlphaBetaBot,
    GreedyBot,
    ISMCTSBot,
    MCTSBot,
    RandomBot,
    Suggestion,
    suggest,
)

ALGORITHMS: list[dict[str, Any]] = [
    {"algorithm": "mcts", "iterations": 300},
    {"algorithm": "ismcts", "iterations": 300},
    {"algorithm": "alphabeta", "depth": 2, "determinizations": 2},
]


def armadora(players: int = 2, variant: str = "basic", seed: int = 3) -> ArmadoraState:
    state = boardrules.load("armadora", players=players, variant=variant).new_game(seed=seed)
    assert isinstance(state, ArmadoraState)
    return state


def summary(s: Suggestion) -> list[tuple[str, float, int]]:
    return [(str(m), round(v, 12), n) for m, v, n in s.ranked]


@pytest.mark.parametrize("kwargs", ALGORITHMS, ids=lambda k: k["algorithm"])
def test_suggestion_is_legal_and_ranked_best_first(kwargs: dict[str, Any]) -> None:
    state = armadora(4, "advanced")
    s = suggest(state, seed=1, **kwargs)
    legal = state.legal_moves()
    assert s.move in legal
    assert s.move == s.ranked[0][0] == s.pv[0]
    assert all(m in legal for m, _, _ in s.ranked)
    assert len({m for m, _, _ in s.ranked}) == len(s.ranked)
    assert all(-1.0 <= v <= 1.0 for _, v, _ in s.ranked)
    if kwargs["algorithm"] == "alphabeta":
        values = [v for _, v, _ in s.ranked]
        assert values == sorted(values, reverse=True)
        assert s.stats["depth"] == 2
    else:
        visits = [n for _, _, n in s.ranked]
        assert visits == sorted(visits, reverse=True)
        assert sum(visits) == kwargs["iterations"] == s.stats["iterations"]


@pytest.mark.parametrize("kwargs", ALGORITHMS, ids=lambda k: k["algorithm"])
def test_same_seed_and_budget_give_the_same_suggestion(kwargs: dict[str, Any]) -> None:
    state = armadora(2, "advanced")
    first = suggest(state, seed=11, **kwargs)
    second = suggest(state.copy(), seed=11, **kwargs)
    assert summary(first) == summary(second)
    assert [str(m) for m in first.pv] == [str(m) for m in second.pv]


def test_different_seeds_explore_differently() -> None:
    state = armadora()
    a = suggest(state, seed=1, iterations=300)
    b = suggest(state, seed=2, iterations=300)
    assert summary(a) != summary(b)


def test_root_parallel_threads_are_deterministic_and_share_the_budget() -> None:
    state = armadora(2, "basic")
    one = suggest(state, seed=5, iterations=1000, threads=2)
    two = suggest(state, seed=5, iterations=1000, threads=2)
    assert summary(one) == summary(two)
    assert sum(n for _, _, n in one.ranked) == 1000
    assert one.stats["threads"] == 2


def test_search_leaves_the_state_unchanged() -> None:
    state = armadora(4, "advanced")
    before, history = state.state_bytes(), [str(m) for m in state.history]
    for kwargs in ALGORITHMS:
        suggest(state, seed=3, **kwargs)
    assert state.state_bytes() == before
    assert [str(m) for m in state.history] == history


def _twins() -> tuple[ArmadoraState, ArmadoraState]:
    """Two positions that differ only in what player 0 cannot see: player 1's face-down
    values (and so what is behind his screen)."""
    game = boardrules.load("armadora", players=2, variant="advanced")
    states = []
    for hidden in ("4@g3", "1@g3"):
        state = game.new_game(seed=0, auto_chance=False)
        for move in ("gold 4", "gold 7", "gold 4", "gold 3", "gold 5", "gold 6", "gold 6",
                     "gold 5", "race mage", "race elf", "2@e3", "3@c1", "1@a2", hidden,
                     "c3-d3", "done", "5@b4", "b1-c1", "e4-f4", "1@h1"):
            state.apply(move)
        assert isinstance(state, ArmadoraState)
        states.append(state)
    assert states[0].state_bytes() != states[1].state_bytes()
    assert states[0].view(0) == states[1].view(0)
    assert states[0].current_player == 0
    return states[0], states[1]


@pytest.mark.parametrize("kwargs", [*ALGORITHMS, {"algorithm": "ismcts", "iterations": 400,
                                                  "threads": 2}],
                         ids=lambda k: f"{k['algorithm']}-{k.get('threads', 1)}")
def test_no_cheating_on_hidden_information(kwargs: dict[str, Any]) -> None:
    """Two states that differ only in what the searching player cannot see give the
    identical suggestion for the same seed and budget."""
    one, two = _twins()
    a = suggest(one, seed=9, **kwargs)
    b = suggest(two, seed=9, **kwargs)
    assert summary(a) == summary(b)
    assert [str(m) for m in a.pv] == [str(m) for m in b.pv]


def test_no_cheating_when_searching_for_another_player() -> None:
    """``player`` names whose knowledge is used: player 1's search may not depend on
    player 0's hidden values either."""
    one, two = _twins()
    one.apply("1@h3")
    two.apply("1@h3")
    # player 1 is to move; the twins differ in his hidden values, which player 0 cannot see
    assert one.current_player == 1
    a = suggest(one, player=0, seed=4, iterations=300)
    b = suggest(two, player=0, seed=4, iterations=300)
    assert summary(a) == summary(b)


def test_time_limit_budget_stops_the_search() -> None:
    state = armadora()
    s = suggest(state, time_limit=0.05, seed=1)
    assert s.move in state.legal_moves()
    assert s.stats["iterations"] > 0
    ab = suggest(state, algorithm="alphabeta", time_limit=0.05, seed=1)
    assert ab.move in state.legal_moves() and ab.stats["depth"] >= 1


def test_exploration_and_rollout_limit_options() -> None:
    state = armadora(2, "advanced")
    s = suggest(state, iterations=200, seed=1, exploration=0.0, rollout_limit=5)
    assert s.move in state.legal_moves()
    # rollout_limit=0: the heuristic at the leaf at once (Albion's default)
    s = suggest(state, iterations=200, seed=1, rollout_limit=0)
    assert s.move in state.legal_moves()


def test_a_game_sets_its_default_exploration() -> None:
    """Game.exploration is the UCT constant when the caller gives none; the caller's
    own value wins."""
    import boardrules

    game = boardrules.load("albion")
    assert game.exploration == 0.05
    state = game.new_game(seed=3)
    default = suggest(state, iterations=300, seed=1)
    explicit = suggest(state, iterations=300, seed=1, exploration=0.05)
    other = suggest(state, iterations=300, seed=1, exploration=1.0)
    def visits(result: Any) -> list[int]:
        return [n for _, _, n in result.ranked]

    assert visits(default) == visits(explicit)
    assert visits(default) != visits(other)


@pytest.mark.parametrize(("kwargs", "error"), [
    ({"iterations": 0}, ValueError),
    ({"iterations": -5}, ValueError),
    ({"iterations": 2.5}, TypeError),
    ({"iterations": True}, TypeError),
    ({"time_limit": 0}, ValueError),
    ({"time_limit": float("nan")}, ValueError),
    ({"time_limit": "1"}, TypeError),
    ({"threads": 0}, ValueError),
    ({"threads": 65}, ValueError),
    ({"seed": -1}, ValueError),
    ({"seed": "x"}, TypeError),
    ({"algorithm": "minimax"}, ValueError),
    ({"player": 2}, ValueError),
    ({"player": "0"}, TypeError),
    ({"algorithm": "alphabeta", "depth": 0}, ValueError),
    ({"algorithm": "alphabeta", "depth": 101}, ValueError),
    ({"exploration": -1.0}, ValueError),
    ({"rollout_limit": -1}, ValueError),
    ({"determinizations": 0}, ValueError),
])
def test_bad_arguments_are_refused(kwargs: dict[str, Any], error: type[Exception]) -> None:
    state = armadora()
    before = state.state_bytes()
    with pytest.raises(error):
        suggest(state, **kwargs)
    assert state.state_bytes() == before


def test_no_suggestion_at_terminal_or_chance_nodes() -> None:
    with pytest.raises(TypeError):
        suggest("not a state")  # type: ignore[arg-type]
    chance = boardrules.load("armadora").new_game(seed=1, auto_chance=False)
    with pytest.raises(ValueError):
        suggest(chance, iterations=10)
    over = armadora()
    over.apply("pass")
    over.apply("pass")
    with pytest.raises(ValueError):
        suggest(over, iterations=10)


@pytest.mark.parametrize("bot", [
    RandomBot(seed=1), GreedyBot(seed=1), MCTSBot(iterations=100, seed=1),
    ISMCTSBot(iterations=100, seed=1), AlphaBetaBot(depth=1, seed=1, determinizations=1),
], ids=lambda b: type(b).__name__)
def test_bots_play_full_games(bot: Any) -> None:
    state = armadora(3, "advanced", seed=2)
    steps = 0
    while not state.is_terminal():
        move = bot.choose(state)
        assert move in state.legal_moves()
        state.apply(move, player=state.current_player)
        steps += 1
        assert steps <= state.game.max_game_length
    assert state.outcome() is not None


def test_ismcts_beats_random_play() -> None:
    """A sanity check of strength (the measured win rates are in the benchmarks)."""
    wins = 0
    for seed in range(4):
        state = armadora(2, "basic", seed=seed)
        bots = [ISMCTSBot(iterations=300, seed=seed), RandomBot(seed=seed)]
        if seed % 2:
            bots.reverse()
        while not state.is_terminal():
            state.apply(bots[state.current_player].choose(state))
        outcome = state.outcome()
        assert outcome is not None
        searcher = 0 if seed % 2 == 0 else 1
        wins += outcome.ranking[searcher] == 1 and len(outcome.winners) == 1
    assert wins >= 3


def test_random_bot_is_seeded() -> None:
    state = armadora()
    a = [str(RandomBot(seed=3).choose(state)) for _ in range(3)]
    b = [str(RandomBot(seed=3).choose(state)) for _ in range(3)]
    assert a == b
    rng = random.Random(0)
    assert RandomBot(seed=rng.getrandbits(32)).choose(state) in state.legal_moves()


@pytest.mark.parametrize("kwargs", [
    {"threads": 0}, {"observer": 9}, {"observer": -1}, {"iterations": 0}, {"exploration": -1.0},
    {"max_nodes": 1}, {"max_nodes": 2**31},
])
def test_compiled_search_entry_points_refuse_bad_arguments(kwargs: dict[str, Any]) -> None:
    """The compiled entry points check what would otherwise index past a state or divide
    by zero in C (suggest checks first; this is for callers of the private module)."""
    from boardrules._ext.search import run_alphabeta, run_mcts

    core = armadora()._core
    args: dict[str, Any] = {"iterations": 100, "time_limit": 0.0, "exploration": 1.0,
                            "rollout_limit": -1, "ismcts": True, "determinize_once": False,
                            "observer": 0, "seed": 1, "threads": 1, "max_nodes": 1 << 20}
    args.update(kwargs)
    with pytest.raises(ValueError):
        run_mcts(core, *args.values())
    if "observer" in kwargs or "threads" in kwargs:
        with pytest.raises(ValueError):
            run_alphabeta(core, 2, 0.0, 0, 1, True, args["observer"], 1, 16, args["threads"])
