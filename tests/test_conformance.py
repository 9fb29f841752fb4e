"""The conformance suite every registered game gets for free (architecture.md).

Seeded random playouts of every game in the registry, with each of its
``example_options``, checking the contract's invariants at every step.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import boardrules
from boardrules import CHANCE, TERMINAL, Game, State

GAMES_PER_CONFIG = 3


def _configs(where: Any = lambda game: True) -> list[Any]:
    """Every registered game with each of its example options (those ``where`` accepts)."""
    params = []
    for game_id in boardrules.available_games():
        cls = type(boardrules.load(game_id))
        for options in cls.example_options:
            if not where(boardrules.load(game_id, **options)):
                continue
            label = "-".join([game_id, *(f"{k}={v}" for k, v in options.items())])
            params.append(pytest.param(game_id, options, id=label))
    return params


def _has_chance(game: Game) -> bool:
    """Whether the game reaches chance nodes (seen in a few random games)."""
    for seed in range(3):
        state = game.new_game(seed=seed, auto_chance=False)
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.current_player == CHANCE:
                return True
            state.apply(rng.choice(state.legal_moves()))
    return False


CONFIGS = _configs()
HIDDEN_INFORMATION_CONFIGS = _configs(lambda game: game.has_hidden_information)
CHANCE_CONFIGS = _configs(_has_chance)
NO_CHANCE_CONFIGS = _configs(lambda game: not _has_chance(game))


def _playout(game: Game, seed: int, check: Any) -> State:
    """A seeded random game; ``check(state, step)`` runs before every move."""
    state = game.new_game(seed=seed)
    rng = random.Random(seed)
    step = 0
    while not state.is_terminal():
        check(state, step)
        state.apply(rng.choice(state.legal_moves()))
        step += 1
        assert step <= game.max_game_length
    check(state, step)
    return state


@pytest.mark.parametrize(("game_id", "options"), CONFIGS)
def test_legal_moves_sorted_unique_and_empty_only_at_terminal(game_id: str,
                                                              options: dict[str, Any]) -> None:
    game = boardrules.load(game_id, **options)

    def check(state: State, step: int) -> None:
        moves = state.legal_moves()
        actions = [m.action for m in moves]
        assert actions == sorted(set(actions))
        assert moves == sorted(moves)
        assert bool(moves) == (state.current_player != TERMINAL)

    for seed in range(GAMES_PER_CONFIG):
        _playout(game, seed, check)


@pytest.mark.parametrize(("game_id", "options"), CONFIGS)
def test_every_legal_move_applies_and_undo_restores(game_id: str, options: dict[str, Any]) -> None:
    game = boardrules.load(game_id, **options)

    def check(state: State, step: int) -> None:
        before = state.state_bytes()
        history = state.history
        for move in state.legal_moves():
            assert state.is_legal(move)
            state.apply(move)
            assert state.history[: len(history) + 1] == [*history, move]
            assert state.undo() == move
            assert state.state_bytes() == before
            assert state.history == history

    for seed in range(GAMES_PER_CONFIG):
        _playout(game, seed, check)


@pytest.mark.parametrize(("game_id", "options"), CONFIGS)
def test_copy_and_child_are_independent(game_id: str, options: dict[str, Any]) -> None:
    game = boardrules.load(game_id, **options)

    def check(state: State, step: int) -> None:
        if state.is_terminal():
            return
        before = state.state_bytes()
        twin = state.copy()
        assert twin == state
        move = state.legal_moves()[-1]
        twin.apply(move)
        child = state.child(move)
        assert state.state_bytes() == before
        assert child == twin
        assert child.history[len(state.history)] == move

    for seed in range(GAMES_PER_CONFIG):
        _playout(game, seed, check)


@pytest.mark.parametrize(("game_id", "options"), CONFIGS)
def test_json_round_trip(game_id: str, options: dict[str, Any]) -> None:
    game = boardrules.load(game_id, **options)

    def check(state: State, step: int) -> None:
        if step % 7:
            return
        text = state.to_json()
        restored = game.state_from_json(text)
        assert restored == state
        assert restored.state_bytes() == state.state_bytes()
        assert restored.to_json() == text
        assert boardrules.state_from_json(text.encode()) == state

    for seed in range(GAMES_PER_CONFIG):
        _playout(game, seed, check)


@pytest.mark.parametrize(("game_id", "options"), CONFIGS)
def test_notation_round_trips_for_every_legal_move(game_id: str, options: dict[str, Any]) -> None:
    game = boardrules.load(game_id, **options)
    seen: set[str] = set()

    def check(state: State, step: int) -> None:
        for move in state.legal_moves():
            text = str(move)
            assert game.parse_move(text) == move
            assert game.move(move.action) is move
            seen.add(text)

    for seed in range(GAMES_PER_CONFIG):
        final = _playout(game, seed, check)
        for move in final.history:  # chance outcomes too (auto-drawn, never listed)
            assert game.parse_move(str(move)) == move
            seen.add(str(move))
    assert len(seen) >= min(50, game.num_distinct_actions)


@pytest.mark.parametrize(("game_id", "options"), CONFIGS)
def test_views_hide_what_the_viewer_cannot_see(game_id: str, options: dict[str, Any]) -> None:
    """A view is a function of what its player may know: resampling everything he
    cannot see (determinize) leaves his view unchanged, for several resamplings."""
    game = boardrules.load(game_id, **options)

    def check(state: State, step: int) -> None:
        if step % 3:
            return
        for player in range(game.num_players):
            view = state.view(player)
            json.dumps(view)
            for seed in range(3):
                world = state.determinize(player, seed=seed)
                assert world.view(player) == view
                if player == state.current_player:  # he knows his own options
                    assert world.legal_moves() == state.legal_moves()
        json.dumps(state.view(None))

    for seed in range(GAMES_PER_CONFIG):
        _playout(game, seed, check)


@pytest.mark.parametrize(("game_id", "options"), HIDDEN_INFORMATION_CONFIGS)
def test_determinize_actually_resamples_hidden_information(game_id: str,
                                                           options: dict[str, Any]) -> None:
    """The other side of the previous test: determinize changes the truth (else the
    view test would prove nothing) while keeping the invariants."""
    game = boardrules.load(game_id, **options)
    changed = 0

    def check(state: State, step: int) -> None:
        nonlocal changed
        if step % 5:
            return
        world = state.determinize(0, seed=step)
        assert all(a == b for a, b in world.invariants().values())
        changed += world.state_bytes() != state.state_bytes()

    for seed in range(GAMES_PER_CONFIG):
        _playout(game, seed, check)
    assert changed > 0


@pytest.mark.parametrize(("game_id", "options"), CONFIGS)
def test_invariants_hold_every_step(game_id: str, options: dict[str, Any]) -> None:
    game = boardrules.load(game_id, **options)

    def check(state: State, step: int) -> None:
        invariants = state.invariants()
        assert invariants
        for name, (counted, expected) in invariants.items():
            assert counted == expected, name

    for seed in range(GAMES_PER_CONFIG):
        _playout(game, seed, check)


@pytest.mark.parametrize(("game_id", "options"), CONFIGS)
def test_games_end_with_an_outcome_within_the_declared_length(game_id: str,
                                                               options: dict[str, Any]) -> None:
    game = boardrules.load(game_id, **options)
    for seed in range(10):
        state = _playout(game, seed, lambda s, i: None)
        assert len(state.history) <= game.max_game_length
        outcome = state.outcome()
        assert outcome is not None
        assert outcome.winners
        assert min(outcome.ranking) == 1
        assert len(outcome.scores) == game.num_players
        assert outcome.returns == state.returns()
        assert all(-1.0 <= r <= 1.0 for r in outcome.returns)
        for team in game.teams:  # partners share their team's result
            assert len({outcome.returns[p] for p in team}) == 1
            assert len({outcome.ranking[p] for p in team}) == 1
        assert abs(sum(outcome.returns[team[0]] for team in game.teams)) < 1e-9


@pytest.mark.parametrize(("game_id", "options"), CONFIGS)
def test_outcome_is_none_until_terminal(game_id: str, options: dict[str, Any]) -> None:
    game = boardrules.load(game_id, **options)

    def check(state: State, step: int) -> None:
        assert (state.outcome() is None) == (not state.is_terminal())
        assert len(state.score()) == game.num_players

    _playout(game, 0, check)


@pytest.mark.parametrize(("game_id", "options"), CONFIGS)
def test_same_seed_and_moves_give_identical_states(game_id: str, options: dict[str, Any]) -> None:
    game = boardrules.load(game_id, **options)
    first = _playout(game, 5, lambda s, i: None)
    second = game.new_game(seed=5)
    movers = [mover for mover, _ in first.history_view(None)]
    for move, mover in zip(first.history, movers, strict=True):
        if mover != CHANCE:  # the seeded RNG draws the same chance outcomes again
            second.apply(str(move))
    assert second.state_bytes() == first.state_bytes()
    assert second.to_json() == first.to_json()


@pytest.mark.parametrize(("game_id", "options"), CHANCE_CONFIGS)
def test_chance_nodes_without_auto_chance(game_id: str, options: dict[str, Any]) -> None:
    """Without auto_chance every chance node waits for an outcome: the legal moves are
    the outcomes, their probabilities sum to 1, and any of them applies;
    apply_random_chance draws one."""
    game = boardrules.load(game_id, **options)
    state = game.new_game(seed=1, auto_chance=False)
    rng = random.Random(1)
    chance_nodes = 0
    while not state.is_terminal():
        if state.current_player != CHANCE:
            assert state.chance_outcomes() == []
            state.apply(rng.choice(state.legal_moves()))
            continue
        outcomes = state.chance_outcomes()
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
        assert [m for m, _ in outcomes] == state.legal_moves()
        chance_nodes += 1
        if rng.random() < 0.5:
            state.apply(rng.choice(outcomes)[0])
        else:
            drawn = state.apply_random_chance()
            assert drawn in [m for m, _ in outcomes]
    assert chance_nodes > 0


@pytest.mark.parametrize(("game_id", "options"), NO_CHANCE_CONFIGS)
def test_games_without_chance_never_reach_a_chance_node(game_id: str,
                                                        options: dict[str, Any]) -> None:
    game = boardrules.load(game_id, **options)
    state = game.new_game(seed=1, auto_chance=False)
    rng = random.Random(1)
    while not state.is_terminal():
        assert state.current_player != CHANCE and state.chance_outcomes() == []
        state.apply(rng.choice(state.legal_moves()))


@pytest.mark.parametrize(("game_id", "options"), CONFIGS)
def test_compiled_random_playouts_run_in_c(game_id: str, options: dict[str, Any]) -> None:
    game = boardrules.load(game_id, **options)
    moves = game.core.random_playouts(50, 1)
    assert 50 <= moves <= 50 * game.max_game_length
    assert game.core.random_playouts(50, 1) == moves  # seeded: reproducible


def test_registry_lists_games_and_accepts_a_users_game() -> None:
    from boardrules.games import _REGISTRY, register

    assert {"armadora", "connect_four", "tic_tac_toe"} <= set(boardrules.available_games())
    register("my_tic_tac_toe", type(boardrules.load("tic_tac_toe")))
    try:
        assert "my_tic_tac_toe" in boardrules.available_games()
        assert boardrules.load("my_tic_tac_toe").new_game(seed=1).legal_moves()
    finally:
        del _REGISTRY["my_tic_tac_toe"]
