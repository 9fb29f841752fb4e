"""How sure a suggestion is (issue 34): every ranked move carries visits, a mean, a
standard error and a confidence interval from the search's own statistics; ``separated``
holds only when the best move's interval lies above every other's; moves proven equal are
``tied``; ``until_sure`` stops a search once its answer is sure, ``cpu_limit`` on its
thread's CPU time.  Pinned on positions whose answer is known: a forced win, symmetric
moves, a matrix game whose payoffs fix the variance."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

import boardrules
from boardrules import State, suggest
from boardrules._ext.core import CoreState
from boardrules._ext.search import MIN_ANSWER_VISITS, MIN_SURE_VISITS, run_mcts
from boardrules._ext.toy_commit import ToyCommitCore
from boardrules.arena import parse_bot
from boardrules.search import ISMCTSBot, MCTSBot
from boardrules.search.suggest import (
    LEVEL_CPU_SECONDS,
    MoveEstimate,
    _mcts_warning,
)

Z95 = 1.959963984540054
Z99 = 2.5758293035489004
ROCK = 0


def connect_four_win_in_one() -> State:
    """X to move and win in column a; any other move lets O win in column b."""
    state = boardrules.load("connect_four").new_game(seed=0)
    for move in ("a", "b", "a", "b", "a", "b"):
        state.apply(move)
    return state


def tic_tac_toe_four_equal_edges() -> State:
    """O to move after X a1, O b2, X c3: a corner loses to a fork, and the four edges are
    one move under the board's symmetries (the a1-c3 diagonal and the half turn)."""
    state = boardrules.load("tic_tac_toe").new_game(seed=0)
    for move in ("a1", "b2", "c3"):
        state.apply(move)
    return state


def test_a_forced_win_is_exact_and_separated() -> None:
    s = suggest(connect_four_win_in_one(), algorithm="mcts", seed=1, iterations=5000)
    best = s.estimates[0]
    assert str(s.move) == "a" and best.move == s.move
    # the move ends the game: its value is the game's result, with no sampling error
    assert (best.value, best.stderr, best.low, best.high) == (1.0, 0.0, 1.0, 1.0)
    assert s.separated and s.sure and s.tied == [] and s.warning is None


def test_a_forced_win_stops_a_search_until_sure_early() -> None:
    """Without the solver (which proves the win at its first visit), the search stops
    once the win rests on the simulations until_sure asks for."""
    s = suggest(connect_four_win_in_one(), seed=1, solver=False)
    assert s.stats["until_sure"] and s.stats["stopped"] == "sure"
    assert MIN_SURE_VISITS <= s.best_visits < s.stats["iterations"] < 10_000
    assert str(s.move) == "a" and s.separated


def test_symmetric_moves_are_reported_tied_not_split() -> None:
    s = suggest(tic_tac_toe_four_equal_edges(), seed=1)
    edges = {"a2", "b1", "b3", "c2"}
    assert s.stats["stopped"] == "sure"
    assert str(s.move) in edges
    assert {str(m) for m in s.tied} == edges - {str(s.move)}
    assert s.sure and not s.separated
    assert s.warning is not None and "tied" in s.warning
    # the corners are separated below the edges
    for estimate in s.estimates:
        if str(estimate.move) in ("a3", "c1"):
            assert estimate.high < s.estimates[0].low


def test_the_interval_is_the_mean_plus_minus_z_standard_errors() -> None:
    state = boardrules.load("connect_four").new_game(seed=0)
    at95 = suggest(state, algorithm="mcts", seed=4, iterations=4000)
    at99 = suggest(state, algorithm="mcts", seed=4, iterations=4000, confidence=0.99)
    assert at95.confidence == 0.95 and at99.confidence == 0.99
    # the same simulations (one seed, the same budget): only the width differs
    assert [(e.move, e.visits, e.stderr) for e in at95.estimates] == [
        (e.move, e.visits, e.stderr) for e in at99.estimates]
    for e95, e99 in zip(at95.estimates, at99.estimates, strict=True):
        if math.isinf(e95.stderr):
            assert (e95.low, e95.high) == (-1.0, 1.0)
            continue
        assert e95.low == pytest.approx(max(e95.value - Z95 * e95.stderr, -1.0))
        assert e95.high == pytest.approx(min(e95.value + Z95 * e95.stderr, 1.0))
        assert e99.high == pytest.approx(min(e99.value + Z99 * e99.stderr, 1.0))
    # the ranking is by the lower bound of the interval
    lows = [e.low for e in at95.estimates if not math.isinf(e.stderr)]
    assert lows == sorted(lows, reverse=True)
    assert [(e.move, e.value, e.visits) for e in at95.estimates] == at95.ranked


def test_too_few_visits_give_no_interval() -> None:
    state = boardrules.load("armadora", players=2).new_game(seed=3)
    s = suggest(state, seed=1, iterations=200)
    thin = [e for e in s.estimates if e.visits < MIN_ANSWER_VISITS]
    assert thin and all(math.isinf(e.stderr) for e in thin)
    assert not s.separated and not s.sure
    assert s.warning is not None and "too few" in s.warning


def test_the_standard_error_comes_from_the_returns_of_the_move() -> None:
    """Rock-paper-scissors from the commit taken back: a reply scores +1, 0 or -1, and a
    draw is common, so the returns' variance is well below the bound 1 - mean**2 that a
    search without their squares would have to assume (and above zero)."""
    st = CoreState(ToyCommitCore(None, 1))
    st.apply(ROCK)
    result = run_mcts(st, 20_000, 0.0, 1.0, -1, True, False, 1, 3, 1, 1 << 20, None,
                      "decoupled")
    assert result["from_commit"]
    for _, visits, mean, stderr in result["estimates"]:
        deviation = stderr * math.sqrt(visits)
        assert 0.3 < deviation < 0.8 * math.sqrt(1.0 - mean * mean)


def test_until_sure_stops_and_is_reproducible_for_a_seed() -> None:
    state = boardrules.load("connect_four").new_game(seed=0)
    first = suggest(state, seed=2, iterations=1_000_000, until_sure=True)
    again = suggest(state.copy(), seed=2, iterations=1_000_000, until_sure=True)
    assert first.stats["stopped"] == "sure" and first.stats["iterations"] < 1_000_000
    assert first.ranked == again.ranked and first.stats["iterations"] == again.stats[
        "iterations"]
    assert first.sure


def test_an_iteration_budget_is_searched_out_unless_until_sure_is_asked() -> None:
    state = boardrules.load("connect_four").new_game(seed=0)
    s = suggest(state, seed=2, iterations=30_000)
    assert s.stats["stopped"] is None and s.stats["iterations"] == 30_000
    assert not s.stats["until_sure"]
    assert sum(e.visits for e in s.estimates) == 30_000


def test_the_cpu_limit_ends_an_unsure_search() -> None:
    """Armadora's opening is not sure within 0.05 s of CPU: the CPU limit ends it, after
    at least that much of the thread's CPU time (a consequence, not a speed target)."""
    state = boardrules.load("armadora", players=2).new_game(seed=3)
    s = suggest(state, seed=1, cpu_limit=0.05, until_sure=True)
    assert s.stats["stopped"] == "cpu" and s.stats["cpu_limit"] == 0.05
    assert s.stats["cpu_seconds"] >= 0.05
    assert s.warning is not None


def test_the_levels_are_cpu_budgets_searching_until_sure() -> None:
    assert list(LEVEL_CPU_SECONDS.values()) == sorted(LEVEL_CPU_SECONDS.values())
    state = boardrules.load("armadora", players=2).new_game(seed=3)
    s = suggest(state, seed=1, level="fast")
    assert s.stats["level"] == "fast" and s.stats["until_sure"]
    assert s.stats["cpu_limit"] == LEVEL_CPU_SECONDS["fast"]
    assert s.stats["stopped"] in ("sure", "cpu", None)
    if s.stats["stopped"] == "cpu":
        assert s.stats["cpu_seconds"] >= LEVEL_CPU_SECONDS["fast"]


@pytest.mark.parametrize("threads", [1, 2])
def test_lucb_at_the_root_finds_the_forced_win(threads: int) -> None:
    s = suggest(connect_four_win_in_one(), algorithm="mcts", seed=1, iterations=3000,
                root_selection="lucb", threads=threads, solver=False)
    assert s.stats["root_selection"] == "lucb"
    assert str(s.move) == "a" and s.separated
    # every move had the visits of an interval before the challenger rule took over
    assert all(e.visits >= MIN_ANSWER_VISITS for e in s.estimates)
    assert sum(e.visits for e in s.estimates) == s.stats["iterations"]


def test_a_search_until_sure_gives_every_root_move_an_interval() -> None:
    """UCT with Armada's low exploration constant left root moves at a handful of visits;
    until sure, every root move gets the visits of an interval first."""
    state = boardrules.load("connect_four").new_game(seed=0)
    s = suggest(state, algorithm="mcts", seed=3, iterations=3000, exploration=0.001,
                until_sure=True)
    assert all(e.visits >= MIN_ANSWER_VISITS for e in s.estimates)
    plain = suggest(state, algorithm="mcts", seed=3, iterations=3000, exploration=0.001)
    assert min(e.visits for e in plain.estimates) < MIN_ANSWER_VISITS


def test_informed_rollouts_without_action_values_are_random_ones() -> None:
    """A game without the contract's action_values plays its informed rollouts uniformly
    at random: the same search as random rollouts, simulation for simulation."""
    state = boardrules.load("tic_tac_toe").new_game(seed=0)
    assert state._core.action_values() is None
    informed = suggest(state, algorithm="mcts", seed=5, iterations=2000,
                       rollout_policy="informed", rollout_epsilon=0.0)
    plain = suggest(state, algorithm="mcts", seed=5, iterations=2000,
                    rollout_policy="random")
    assert informed.ranked == plain.ranked


def test_alphabeta_reports_equal_values_as_tied() -> None:
    s = suggest(tic_tac_toe_four_equal_edges(), algorithm="alphabeta", seed=1, depth=9)
    # solved: every edge draws, every corner loses
    assert {str(m) for m in [s.move, *s.tied]} == {"a2", "b1", "b3", "c2"}
    assert s.sure and not s.separated and all(e.stderr == 0.0 for e in s.estimates)


def estimate(move: str, value: float, visits: int, stderr: float) -> MoveEstimate[str]:
    if math.isinf(stderr):
        return MoveEstimate(move, value, visits, stderr, -1.0, 1.0)
    return MoveEstimate(move, value, visits, stderr, value - Z95 * stderr,
                        value + Z95 * stderr)


def test_the_warning_says_what_is_unsure() -> None:
    overlapping = [estimate("b2", 0.10, 5000, 0.01), estimate("a1", 0.09, 4800, 0.01)]
    text = _mcts_warning(overlapping, [], False, False, 10_000, 0.95)
    assert text is not None and "did not separate" in text and "a1" in text
    assert "95%" in text
    thin = [estimate("b2", 0.30, 3000, 0.01), estimate("a1", 0.9, 4, math.inf)]
    text = _mcts_warning(thin, [], False, False, 3004, 0.95)
    assert text is not None and "a1 has 4 simulations" in text
    tied = [estimate("b2", 0.10, 5000, 0.001), estimate("a1", 0.10, 5000, 0.001)]
    text = _mcts_warning(tied, ["a1"], False, True, 10_000, 0.95)
    assert text is not None and "tied with a1" in text and "tie tolerance" in text
    assert _mcts_warning(overlapping, [], True, True, 10_000, 0.95) is None


BAD_OPTIONS: list[tuple[str, Any, type[Exception]]] = [
    ("confidence", 0.3, ValueError), ("confidence", 1.0, ValueError),
    ("confidence", "high", TypeError), ("confidence", math.nan, ValueError),
    ("cpu_limit", 0, ValueError), ("cpu_limit", -1.0, ValueError),
    ("cpu_limit", math.inf, ValueError), ("cpu_limit", "1s", TypeError),
    ("until_sure", "maybe", TypeError), ("until_sure", 2, TypeError),
    ("root_selection", "ucb", ValueError), ("root_selection", 1, TypeError),
    ("rollout_policy", "smart", ValueError), ("rollout_policy", 3, TypeError),
    ("rollout_epsilon", 1.5, ValueError), ("rollout_epsilon", -0.1, ValueError),
]


@pytest.mark.parametrize(("name", "value", "error"), BAD_OPTIONS)
def test_a_bad_confidence_option_is_refused_and_the_state_kept(
        name: str, value: Any, error: type[Exception]) -> None:
    state = boardrules.load("connect_four").new_game(seed=0)
    before = state.state_bytes()
    with pytest.raises(error, match=name):
        suggest(state, seed=1, iterations=10, **{name: value})
    with pytest.raises(error, match=name):
        ISMCTSBot(**{name: value})
    assert state.state_bytes() == before


@pytest.mark.parametrize("option", ["until_sure=true", "cpu_limit=0.5", "confidence=0.9",
                                    "root_selection=lucb", "rollout_policy=informed",
                                    "rollout_epsilon=0.2"])
def test_alphabeta_refuses_the_mcts_confidence_options(option: str) -> None:
    name, value = option.split("=")
    state = boardrules.load("connect_four").new_game(seed=0)
    with pytest.raises(ValueError, match=f"option {name} does not apply"):
        suggest(state, algorithm="alphabeta", **{name: value})  # type: ignore[arg-type]


def test_bot_specs_take_the_confidence_options() -> None:
    spec = parse_bot("mcts:iterations=500,until_sure=false,root_selection=lucb,"
                     "rollout_policy=informed,rollout_epsilon=0.2,confidence=0.9")
    bot = spec.build(1)
    assert isinstance(bot, MCTSBot)
    state = boardrules.load("connect_four").new_game(seed=0)
    assert bot.choose(state) in state.legal_moves()
    last = bot.last
    assert last is not None and last.confidence == 0.9
    assert last.stats["root_selection"] == "lucb" and not last.stats["until_sure"]
    assert last.stats["rollout_policy"] == "informed" and last.stats["rollout_epsilon"] == 0.2


# --- MCTS-solver ---------------------------------------------------------------------------


def test_a_solved_root_ends_the_search_with_the_win() -> None:
    s = suggest(connect_four_win_in_one(), algorithm="mcts", seed=1, iterations=50_000)
    assert s.stats["solver"] and s.stats["stopped"] == "sure"
    assert s.stats["iterations"] < 50_000
    assert str(s.move) == "a" and s.estimates[0].stderr == 0.0 and s.separated


def test_the_solver_proves_the_moves_that_lose_at_once() -> None:
    """O to move must block column a: every other move lets X connect four next, and the
    solver proves each of them lost (exact -1) once X's win below it is seen."""
    state = boardrules.load("connect_four").new_game(seed=0)
    for move in ("a", "b", "a", "b", "a"):
        state.apply(move)
    s = suggest(state, algorithm="mcts", seed=2, iterations=20_000)
    assert str(s.move) == "a"
    lost = [e for e in s.estimates if str(e.move) != "a"]
    assert lost and all((e.value, e.stderr) == (-1.0, 0.0) for e in lost)
    plain = suggest(state, algorithm="mcts", seed=2, iterations=20_000, solver=False)
    assert all(e.stderr > 0.0 for e in plain.estimates if str(e.move) != "a")


def test_the_solver_leaves_a_game_with_hidden_information_alone() -> None:
    """A proof in a drawn world proves nothing about the real game: on Armadora the
    solver option changes no simulation."""
    state = boardrules.load("armadora", players=2).new_game(seed=3)
    on = suggest(state, seed=5, iterations=1500, solver=True)
    off = suggest(state, seed=5, iterations=1500, solver=False)
    assert on.ranked == off.ranked


# --- informed rollouts: connect four's action values ---------------------------------------


def _wins_after(state: State, *columns: str) -> bool:
    """Whether playing ``columns`` in turn ends the game with the last mover's win."""
    line = state.copy()
    for column in columns:
        if line.is_terminal() or column not in [str(m) for m in line.legal_moves()]:
            return False
        mover = line.current_player
        line.apply(column)
    return line.is_terminal() and line.returns()[mover] == 1.0


def test_connect_four_action_values_follow_their_definition() -> None:
    """On positions of seeded random games, each legal column's value is, by the rules
    played out with the public API: 3 when it wins now, else 2 when the opponent would win
    there next if it were left, else -1 when the opponent wins on the cell it opens
    above, else 0."""
    game = boardrules.load("connect_four")
    seen = set()
    for seed in range(40):
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(6, 30)):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_moves()))
        if state.is_terminal():
            continue
        columns = [str(m) for m in state.legal_moves()]
        values = state._core.action_values()
        assert values is not None and len(values) == len(columns)
        for column, value in zip(columns, values, strict=True):
            others = [d for d in columns if d != column and not _wins_after(state, d)]
            if _wins_after(state, column):
                expected = 3.0
            elif others and _wins_after(state, others[0], column):
                expected = 2.0
            elif _wins_after(state, column, column):
                expected = -1.0
            else:
                expected = 0.0
            assert value == expected, (state.position(), column)
            seen.add(expected)
    assert seen == {3.0, 2.0, 0.0, -1.0}  # the positions exercised every case




# --- the conformance check of action_values, planted failures ------------------------------


class _FlawedCore:
    """A core state whose action values break one promise of the contract."""

    def __init__(self, flaw: str) -> None:
        self.flaw, self.data, self.calls = flaw, b"\x00" * 8, 0

    def state_bytes(self) -> bytes:
        return self.data

    def legal_actions(self) -> list[int]:
        return [0, 1, 2]

    def action_values(self) -> list[float]:
        self.calls += 1
        if self.flaw == "writes":
            self.data = b"\x01" * 8
        if self.flaw == "short":
            return [0.0, 1.0]
        if self.flaw == "nan":
            return [0.0, math.nan, 1.0]
        if self.flaw == "moody":
            return [float(self.calls), 0.0, 0.0]
        return [0.0, 1.0, 2.0]


@pytest.mark.parametrize(("flaw", "message"), [
    ("writes", "changed the state"), ("short", "2 action values for 3"),
    ("nan", "not a finite"), ("moody", "differ on a second call")])
def test_the_action_values_check_fails_on_a_planted_flaw(flaw: str, message: str) -> None:
    from boardrules.testing import action_values_hold
    with pytest.raises(AssertionError, match=message):
        action_values_hold(_FlawedCore(flaw), lambda: "planted")
    action_values_hold(_FlawedCore("none"), lambda: "sound")  # the sound one passes


def test_every_game_passes_the_action_values_check() -> None:
    from boardrules.testing import check_action_values, example_configs
    for game_id, options in example_configs():
        check_action_values(boardrules.load(game_id, **options), games=1)
