"""Armada's move values for informed rollouts (the contract's ``action_values``, issue
34): one finite value a legal action, the state untouched, the same values every time,
and the property they are for -- a playout that follows them explores, fights and ends
the game, where a uniformly random one shuffles until the round cap."""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable

import pytest
from armada_helpers import expedition, explore, new

import boardrules
from boardrules._ext.core import CoreState

CHANCE_PLAYER, TERMINAL_PLAYER = -1, -4
SEEDS = range(20)
RANDOM_CAP = 3000            # a random playout's moves, at most (it reaches no end)

Policy = Callable[[CoreState, random.Random], int]


def random_move(core: CoreState, rng: random.Random) -> int:
    return rng.choice(list(core.legal_actions()))


def greedy_move(core: CoreState, rng: random.Random) -> int:
    """Epsilon 0: the best-valued action, ties drawn at random (as search's rollouts)."""
    acts, values = list(core.legal_actions()), core.action_values()
    best = max(values)
    return rng.choice([a for a, v in zip(acts, values, strict=True) if v == best])


def playout(game: boardrules.Game, seed: int, policy: Policy, cap: int,
            visit: Callable[[CoreState], None] | None = None) -> tuple[int, int | None, bool]:
    """Plays from the start: (the players' moves made, the move count at the first
    exploration or combat roll or None, whether someone won)."""
    core = game.new_game(seed=seed)._core.copy()
    rng = random.Random(seed)
    moves, first_event = 0, None
    hits, spears = game._core.layout["hits"], game._core.layout["spears"]
    while moves < cap:
        player = core.current_player
        if player == TERMINAL_PLAYER:
            return moves, first_event, any(r > 0 for r in core.returns())
        if player == CHANCE_PLAYER:
            outcomes = core.chance_outcomes()
            if first_event is None and hits <= outcomes[0][0] < spears:
                first_event = moves       # the combat die, or the gold and tribes dice
            acts, weights = zip(*outcomes, strict=True)
            core.apply(rng.choices(acts, weights)[0])
            continue
        if visit is not None:
            visit(core)
        core.apply(policy(core, rng))
        moves += 1
    return moves, first_event, False


@pytest.fixture(scope="module")
def main_game() -> boardrules.Game:
    return boardrules.load("armada", players=2)


#: kinds of decision the values must have been asked about (blocks of action ids)
ASKED = {"ship", "deploy", "end", "move", "bands", "gold", "attack", "launch", "sail",
         "explore"}


def block_of(game: boardrules.Game, action: int) -> str:
    """The layout block of an action id (``move``, ``attack``, ``place`` ...)."""
    starts = sorted(game._core.layout.items(), key=lambda item: item[1])
    return [name for name, start in starts if start <= action][-1]


@pytest.mark.parametrize("options", [{"players": 2},
                                     {"players": 4, "cards": True, "recruitment": True},
                                     {"players": 3, "cards": True}])
def test_values_are_finite_one_a_legal_action_pure_and_repeatable(
        options: dict[str, object]) -> None:
    game = boardrules.load("armada", **options)
    asked: set[str] = set()

    def check(core: CoreState) -> None:
        before = core.state_bytes()
        values = core.action_values()
        assert len(values) == len(core.legal_actions())
        assert all(math.isfinite(v) for v in values)
        assert core.state_bytes() == before            # reads the state, writes nothing
        assert core.action_values() == values          # no hidden state, no randomness
        asked.update(block_of(game, a) for a in core.legal_actions())

    for seed in range(3):
        playout(game, seed, greedy_move, 400, check)
        playout(game, seed, random_move, 400, check)
    assert asked >= ASKED
    if options.get("cards"):
        assert asked >= {"play", "place"}


def test_informed_playouts_explore_fight_and_end_where_random_ones_do_not(
        main_game: boardrules.Game) -> None:
    informed = [playout(main_game, seed, greedy_move, RANDOM_CAP) for seed in SEEDS]
    uniform = [playout(main_game, seed, random_move, RANDOM_CAP) for seed in SEEDS]
    # the first exploration or battle: within a few turns, not thousands of moves
    first_informed = [event for _, event, _ in informed]
    first_random = [RANDOM_CAP if event is None else event for _, event, _ in uniform]
    assert all(event is not None and event < 150 for event in first_informed)
    assert statistics.median(first_random) > 5 * statistics.median(first_informed)
    # and the game itself: decided, in a fraction of the moves
    assert sum(won for _, _, won in informed) >= 10
    assert sum(won for _, _, won in informed) > sum(won for _, _, won in uniform) + 5
    assert (statistics.median(m for m, _, _ in informed)
            < statistics.median(m for m, _, _ in uniform) / 4)


def test_taking_a_trading_post_is_valued_above_everything_else_and_above_end() -> None:
    state = new(4)                                    # green to act, on the test board
    expedition(state, 8)                              # 8 bands on a ship beside the posts
    explore(state, "post_north")                      # explored, nothing found
    values = dict(zip((str(m) for m in state.legal_moves()), state._core.action_values(),
                      strict=True))
    best = max(values, key=values.__getitem__)
    assert best == "move s_e2-post_north"
    assert values[best] > values["end"]
    assert values["explore post_central"] > values["end"]   # progress over a pass too


def test_a_hopeless_attack_and_sailing_away_are_valued_below_end() -> None:
    state = new(4)
    expedition(state, 2)                              # a crew of 2 beside the posts
    explore(state, "post_central", tribes=3)          # doubled there: 6 natives
    values = dict(zip((str(m) for m in state.legal_moves()), state._core.action_values(),
                      strict=True))
    assert values["attack s_e2-post_central"] < values["end"]
    away = [v for m, v in values.items() if m.startswith("sail s_e2-")]
    assert away and max(away) <= values["end"]        # nothing nearer a post than HUB
