"""Albion's move values for informed rollouts (the contract's ``action_values``,
``al_action_values`` in the core): well-formed on every kind of decision, pure, and
the property they are for -- greedy playouts that play the game to its victory."""

from __future__ import annotations

import math
import random

from albion_helpers import building, figures, give, new_game

import boardrules
from boardrules._ext.core import CHANCE, TERMINAL, CoreState
from boardrules.games.albion import AlbionState

SEEDS = range(20)


def _values(state: AlbionState) -> dict[str, float]:
    core = state._core
    values = core.action_values()
    assert values is not None
    return {str(state.game.move(a)): v for a, v in zip(core.legal_actions(), values, strict=True)}


def _step(core: CoreState, rng: random.Random, informed: bool) -> bool:
    """One action of a playout: chance by its odds, a player's move at random or (with
    ``informed``) among the best valued; whether it was a player's move."""
    if core.current_player == CHANCE:
        outcomes = core.chance_outcomes()
        core.apply(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        return False
    actions = core.legal_actions()
    if informed:
        values = core.action_values()
        assert values is not None
        best = max(values)
        actions = [a for a, v in zip(actions, values, strict=True) if v == best]
    core.apply(rng.choice(actions))
    return True


def _playout(seed: int, informed: bool) -> tuple[int, int]:
    """Player moves of a 2-player playout from the start, and how it ended (the core's
    end_reason: 1 three stage IV settlements, 2 the round cap)."""
    game = boardrules.load("albion", players=2)
    core = game._core.new_state()
    rng = random.Random(seed)
    moves = 0
    while core.current_player != TERMINAL:
        moves += _step(core, rng, informed)
    return moves, int(game._core.export(core)["end_reason"])


def test_values_are_finite_one_per_action_pure_and_deterministic() -> None:
    """Along random 2-player playouts, at every decision (moves, builds, payments,
    tributes, losses, figures, free developments): one finite value per legal action,
    the state byte for byte unchanged, the same values when asked again."""
    game = boardrules.load("albion", players=2)
    phases = set()
    for seed in range(3):
        core = game._core.new_state()
        rng = random.Random(seed)
        while core.current_player != TERMINAL:
            if core.current_player != CHANCE:
                before = core.state_bytes()
                values = core.action_values()
                assert values is not None
                assert len(values) == len(core.legal_actions())
                assert all(math.isfinite(v) for v in values)
                assert core.state_bytes() == before
                assert core.action_values() == values
                phases.add(game._core.export(core)["phase"])
            _step(core, rng, informed=False)
    assert phases >= {0, 1, 2, 3, 4, 6, 7}        # setup, turn, build, pay, tribute,
    #                                              loss, figure all met


def test_greedy_playouts_reach_the_victory_random_ones_never_do() -> None:
    """The heuristic's purpose: epsilon-0 informed playouts end by three stage IV
    settlements, in far fewer moves than random playouts, which run to the round cap
    (docs/albion.rst, "Search: informed rollouts")."""
    informed = [_playout(seed, informed=True) for seed in SEEDS]
    random_ = [_playout(seed, informed=False) for seed in SEEDS]
    assert all(reason == 1 for _, reason in informed)
    assert all(reason == 2 for _, reason in random_)
    assert sum(m for m, _ in informed) < 0.75 * sum(m for m, _ in random_)


def test_the_winning_development_is_valued_above_ending_the_turn() -> None:
    """Two stage IV settlements (one in a laurel region), a settler at a stage III
    settlement and one resource of each kind: its stage IV (the end triggered) is the
    best move, and ending the turn is below every build."""
    state = new_game()
    building(state, "peak", 0, "settlement", 4)
    building(state, "crag", 0, "settlement", 4)
    building(state, "glen", 0, "settlement", 3)
    figures(state, "port", 0, settlers=0)
    figures(state, "glen", 0, settlers=1)
    give(state, 0, fish=1, wood=1, stone=1, gold=1)
    values = _values(state)
    assert max(values, key=values.__getitem__) == "develop glen"
    assert values["end"] < min(v for m, v in values.items() if m.startswith("develop"))


def test_a_settler_walks_to_where_he_builds_a_settlement_stage() -> None:
    """A settler in the launching region, a stage I settlement in the moor and the
    resources for its stage II: the best moves are his steps to where a settlement
    stage waits (the moor's stage II, a new one in the empty hill), above taking
    resources (he has what he needs) and ending the turn; the step to his fishery (only
    a plant's later stage there) is below ending the turn."""
    state = new_game()
    building(state, "moor", 0, "settlement", 1)
    give(state, 0, fish=2, wood=2)
    values = _values(state)
    best = max(values.values())
    assert {m for m, v in values.items() if v == best} == {"settler port-moor",
                                                          "settler port-hill"}
    assert values["resources"] < best and values["end"] < values["resources"]
    assert values["settler port-fishery"] < values["end"]


def test_payment_keeps_the_scarce_kinds() -> None:
    """A stage II paid from five fish, one wood and one stone: the fish and a second
    kind, never the wood and stone together (each the last of its kind)."""
    state = new_game()
    building(state, "moor", 0, "settlement", 1)
    figures(state, "port", 0, settlers=0)
    figures(state, "moor", 0, settlers=1)
    give(state, 0, fish=5, wood=1, stone=1)
    state.apply("develop moor")
    values = _values(state)
    assert set(values) == {"pay fish+wood", "pay fish+stone", "pay wood+stone"}
    assert values["pay wood+stone"] < min(values["pay fish+wood"], values["pay fish+stone"])
