"""Rome & Carthage battle commits searched at equilibrium (issue 20, item 3).

The battle positions and their exact solution (a linear program per stage) are those of
``benchmarks/battle_equilibria.py``, which ``benchmarks/run_exploitability.py`` measures
at length: two battles on the last round, both hands known, so that the only hidden
thing is the attacker's face-down commit and the value of every reply is exact.
"""

from __future__ import annotations

import functools
import random
import sys
from pathlib import Path

import numpy as np
import pytest

from boardrules.games.rome_and_carthage import RomeCarthageState
from boardrules.search import ISMCTSBot, suggest
from boardrules.search.suggest import Simultaneous

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
if str(BENCHMARKS) not in sys.path:
    sys.path.append(str(BENCHMARKS))

from battle_equilibria import (  # noqa: E402
    Solver,
    Stage,
    battle_position,
    exploitability,
    mixed_positions,
    played_mix,
    solve_matrix,
)


@functools.cache
def _mixed(count: int) -> list[tuple[RomeCarthageState, Stage]]:
    """Solved once for the module's tests (a few seconds of linear programs)."""
    positions: list[tuple[RomeCarthageState, Stage]] = mixed_positions(count, seed=1)
    return positions


def test_the_solver_finds_a_known_matrix_equilibrium() -> None:
    """Biased rock-paper-scissors: value 0, both players (0.2, 0.4, 0.4)."""
    payoff = np.array([[0.0, -1.0, 1.0], [1.0, 0.0, -0.5], [-1.0, 0.5, 0.0]])
    value, x, y = solve_matrix(payoff)
    assert value == pytest.approx(0.0, abs=1e-9)
    assert x == pytest.approx([0.2, 0.4, 0.4], abs=1e-6)
    assert y == pytest.approx([0.2, 0.4, 0.4], abs=1e-6)


def test_a_battle_position_is_a_simultaneous_stage_with_exact_values() -> None:
    state = battle_position([3, 5, 8, 10], [4, 6, 9, 15])
    assert state.phase == "commit" and state.current_player == 1
    stage = Solver(1).stage(state._core)
    assert stage.payoff.shape == (len(stage.commits), len(stage.replies))
    assert np.all(np.abs(stage.payoff) <= 1.0)
    # the equilibrium is one: each side's best response to the other's gains nothing
    commit = dict(zip(stage.commits, stage.commit_strategy, strict=True))
    reply = dict(zip(stage.replies, stage.reply_strategy, strict=True))
    assert exploitability(stage, commit, reply) == pytest.approx((0.0, 0.0), abs=1e-7)


def test_taking_the_commit_back_returns_the_cards_to_the_attackers_hand() -> None:
    """take_back_commit: the face-down cards back in the hand, the attacker to lay them
    again; laying the same ones gives the position back byte for byte, other ones not."""
    state = battle_position([3, 5, 8, 10], [4, 6, 9, 15])
    before = state._core.copy(False)
    state.apply("play 15+9")
    assert state._core.can_take_back_commit()
    taken = state._core.taken_back()
    assert taken.current_player == 1 and taken.legal_actions() == before.legal_actions()
    again = taken.copy(False)
    again.apply(state._core.actions[-1])
    assert again.state_bytes() == state._core.state_bytes()
    other = taken.copy(False)
    other.apply(state.game.parse_move("play 9+6").action)
    assert other.state_bytes() != state._core.state_bytes()


def test_the_defenders_answer_does_not_depend_on_the_hidden_commit() -> None:
    """The defender's search takes the attacker's commit back: the same seed gives the
    same answer whatever the attacker laid."""
    answers = []
    for commit in ("play 15+9", "play 6+4", "play 0+0"):
        state = battle_position([3, 5, 8, 10], [4, 6, 9, 15])
        state.apply(commit)
        hint = suggest(state, iterations=3000, seed=11)
        assert hint.stats["from_commit"]
        answers.append((hint.ranked, hint.pv))
    assert answers[0] == answers[1] == answers[2]


def _defender_exploitability(mode: Simultaneous, iterations: int) -> float:
    total = 0.0
    positions = _mixed(4)
    for state, stage in positions:
        answer = state.copy()
        answer.apply(answer.legal_moves()[0])  # any commit: the defender cannot see it
        hint = suggest(answer, iterations=iterations, simultaneous=mode, seed=3)
        reply = played_mix(hint)
        total += exploitability(stage, dict.fromkeys(stage.commits, 1.0), reply)[1]
    return total / len(positions)


@pytest.mark.parametrize("mode", ["decoupled", "regret"])
def test_the_defender_answers_the_attackers_strategy_not_a_random_commit(
        mode: Simultaneous) -> None:
    """Plain SO-ISMCTS answers a commit redrawn at random, a best response to a uniform
    attacker that a real one exploits; searched from the commit taken back, the defender's
    mix is far less exploitable (measured at length in run_exploitability.py)."""
    sequential = _defender_exploitability("sequential", 20_000)
    searched = _defender_exploitability(mode, 20_000)
    assert sequential > 0.2
    assert searched < sequential / 2, (searched, sequential)


def test_draw_follows_the_strategy_and_is_the_move_without_one() -> None:
    state, _ = _mixed(4)[0]
    mixed = suggest(state, iterations=20_000, simultaneous="regret", seed=1)
    assert mixed.strategy is not None
    weights = dict(mixed.strategy)
    drawn = [mixed.draw(random.Random(s)) for s in range(400)]
    most = max(weights, key=lambda m: weights[m])
    assert drawn.count(most) / len(drawn) == pytest.approx(weights[most], abs=0.08)
    assert set(drawn) <= set(weights)
    pure = suggest(state, iterations=2000, seed=1)
    assert pure.strategy is None and pure.draw(random.Random(0)) == pure.move
    with pytest.raises(TypeError):
        pure.draw(0)  # type: ignore[arg-type]


def test_the_attackers_regret_matching_commit_is_drawn_from_its_strategy() -> None:
    """A bot searching by regret matching plays its commit as the mixed strategy found:
    over seeds it lays more than one commit where the equilibrium is mixed."""
    state, stage = _mixed(4)[0]
    hint = suggest(state, iterations=20_000, simultaneous="regret", seed=1)
    assert hint.strategy is not None
    assert sum(p for _, p in hint.strategy) == pytest.approx(1.0)
    played = {ISMCTSBot(iterations=5000, simultaneous="regret", seed=s).choose(state)
              for s in range(12)}
    assert len(played) >= 2
    support = {a for a, p in zip(stage.commits, stage.commit_strategy, strict=True) if p > 1e-6}
    assert len(support) >= 2
