"""Strength levels of ``suggest()`` and how sure a suggestion is: each level's budget per
game, the default search (the ``"normal"`` level), a level refused beside another budget,
``best_visits`` / ``margin``, and the warning when the budget did not separate the top
moves."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

import boardrules
from boardrules import State, suggest
from boardrules._ext.search import MIN_ANSWER_VISITS
from boardrules.arena import parse_bot
from boardrules.cli import main as cli_main
from boardrules.search import AlphaBetaBot, ISMCTSBot, MCTSBot
from boardrules.search.suggest import (
    ALPHABETA_LEVELS,
    DEFAULT_LEVEL,
    LEVEL_CPU_SECONDS,
    LEVELS,
    MoveEstimate,
    _alphabeta_warning,
)

FOUR_GAMES = ("armadora", "rome_and_carthage", "armada", "albion")


def connect_four_win_in_one() -> State:
    """X (player 0) to move and win by completing column a; every other move lets O win
    next by completing column b."""
    state = boardrules.load("connect_four").new_game(seed=0)
    for move in ("a", "b", "a", "b", "a", "b"):
        state.apply(move)
    return state


def test_the_default_search_is_the_normal_level() -> None:
    """The default searches at "normal": until sure, within the level's CPU limit and
    iteration cap.  Connect four's opening is sure long before either, so the search is
    the same simulation for simulation."""
    state = boardrules.load("connect_four").new_game(seed=3)
    default = suggest(state, seed=1)
    normal = suggest(state, seed=1, level="normal")
    assert DEFAULT_LEVEL == "normal"
    assert default.stats["level"] == "normal" and default.stats["until_sure"]
    assert default.stats["cpu_limit"] == LEVEL_CPU_SECONDS["normal"]
    assert default.stats["stopped"] == "sure"
    assert default.stats["iterations"] < state.game.search_levels["normal"]
    assert (default.move, default.ranked) == (normal.move, normal.ranked)


@pytest.mark.parametrize("game_id", FOUR_GAMES)
def test_levels_grow_and_the_search_spends_the_level_budget(game_id: str) -> None:
    game = boardrules.load(game_id, players=2)
    budgets = [game.search_levels[level] for level in LEVELS]
    assert budgets == sorted(budgets) and len(set(budgets)) == 3
    # the default's cap is well above 0.5.0's 1,000 iterations on each of the four games
    assert game.search_levels["normal"] >= 10_000
    s = suggest(game.new_game(seed=2), seed=4, level="fast")
    assert s.stats["level"] == "fast"
    # what ended it: sure, the CPU limit, or the cap (stopped None)
    assert s.stats["iterations"] <= game.search_levels["fast"]
    assert (s.stats["stopped"] is None) == (s.stats["iterations"] == game.search_levels["fast"])
    assert s.stats["stopped"] in ("sure", "cpu", None)
    assert sum(n for _, _, n in s.ranked) == s.stats["iterations"]


def test_a_level_that_ends_sure_is_reproducible_for_a_seed() -> None:
    """A level's stop once sure is looked at on fixed iterations: a search the CPU limit
    did not end is the same for a seed (only the CPU limit depends on the machine).  The
    strong level's 10 CPU seconds leave the answer time to be sure on any build (the
    debug build's bounds checks ran out the fast level's 0.1 s first)."""
    state = boardrules.load("connect_four").new_game(seed=5)
    state.apply("d")
    first = suggest(state, seed=9, level="strong")
    again = suggest(state.copy(), seed=9, level="strong")
    assert first.stats["stopped"] == "sure"
    assert (first.move, first.ranked, first.warning) == (again.move, again.ranked,
                                                         again.warning)


def test_alphabeta_levels_are_node_budgets() -> None:
    state = boardrules.load("connect_four").new_game(seed=0)
    s = suggest(state, algorithm="alphabeta", seed=1, level="fast")
    nodes, safety = ALPHABETA_LEVELS["fast"]
    assert s.stats["level"] == "fast"
    # the empty board is far from solved at 30,000 nodes: the budget is what stops it,
    # within the last node batch's overshoot
    assert s.stats["stopped"] == "nodes"
    assert nodes <= s.stats["nodes"] < ALPHABETA_LEVELS["normal"][0]
    assert s.stats["seconds"] < safety + 1.0
    default = suggest(state, algorithm="alphabeta", seed=1)
    assert default.stats["level"] == "normal"


def test_a_time_limit_may_stand_beside_a_level() -> None:
    state = boardrules.load("armadora", players=2).new_game(seed=1)
    s = suggest(state, seed=1, level="strong", time_limit=0.05)
    assert s.stats["level"] == "strong"
    # the clock ran out long before the strong level's budget
    assert s.stats["iterations"] < state.game.search_levels["strong"]
    assert s.stats["stopped"] == "time"


@pytest.mark.parametrize("budget", [{"iterations": 100}, {"max_nodes": 100},
                                    {"depth": 2}])
def test_a_level_beside_another_budget_is_refused(budget: dict[str, int]) -> None:
    algorithm = "mcts" if "iterations" in budget else "alphabeta"
    state = boardrules.load("connect_four").new_game(seed=0)
    with pytest.raises(ValueError, match="two budgets"):
        suggest(state, algorithm=algorithm, level="fast", **budget)  # type: ignore[arg-type]


@pytest.mark.parametrize(("level", "error"), [("huge", ValueError), ("", ValueError),
                                              ("Normal", ValueError), (1, TypeError),
                                              (b"fast", TypeError)])
def test_a_bad_level_is_refused(level: Any, error: type[Exception]) -> None:
    state = boardrules.load("connect_four").new_game(seed=0)
    before = state.state_bytes()
    with pytest.raises(error, match="level"):
        suggest(state, level=level)
    with pytest.raises(error, match="level"):
        ISMCTSBot(level=level)
    assert state.state_bytes() == before


def test_bots_and_specs_take_a_level() -> None:
    state = boardrules.load("connect_four").new_game(seed=0)
    for bot in (MCTSBot(level="fast", seed=1), AlphaBetaBot(level="fast", seed=1),
                parse_bot("mcts:level=fast").build(1)):
        assert bot.choose(state) in state.legal_moves()
        assert bot.last is not None and bot.last.stats["level"] == "fast"  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="two budgets"):
        parse_bot("ismcts:level=strong,iterations=10").build(1)
    with pytest.raises(ValueError, match="level"):
        parse_bot("ismcts:level=huge").build(1)


def test_best_visits_and_margin_describe_the_top_two() -> None:
    # without the solver, which would prove the win at its first visit and stop
    s = suggest(connect_four_win_in_one(), algorithm="mcts", seed=1, iterations=5000,
                solver=False)
    assert str(s.move) == "a"
    assert s.best_visits == s.ranked[0][2]
    assert s.margin == pytest.approx(s.ranked[0][1] - s.ranked[1][1])
    # the winning move is worth far more than any other, on plenty of simulations
    assert s.margin > 0.5 and s.best_visits > 100 * MIN_ANSWER_VISITS
    assert s.warning is None


def test_a_tiny_budget_warns_that_the_top_moves_are_not_separated() -> None:
    state = boardrules.load("armadora", players=2).new_game(seed=3)
    s = suggest(state, seed=1, iterations=200)
    assert s.best_visits < 10 * MIN_ANSWER_VISITS
    assert s.warning is not None and "simulations" in s.warning
    assert str(s.move) in s.warning


def test_the_alphabeta_warning_rule_on_the_top_two() -> None:
    """Alpha-beta: a warning after depth 1, or naming the moves valued alike."""
    alike = [MoveEstimate("b2", 0.5, 10, 0.0, 0.5, 0.5), MoveEstimate("a1", 0.5, 10, 0.0, 0.5, 0.5)]
    text = _alphabeta_warning(alike, ["a1"], 6)
    assert text is not None and "b2 and a1 are valued alike" in text
    apart = [alike[0], MoveEstimate("a1", 0.4, 10, 0.0, 0.4, 0.4)]
    assert _alphabeta_warning(apart, [], 6) is None
    assert "depth 1" in (_alphabeta_warning(apart, [], 1) or "")


def test_one_legal_move_has_no_warning() -> None:
    state = boardrules.load("tic_tac_toe").new_game(seed=0)
    for move in ("a1", "a2", "a3", "b2", "b1", "c1", "b3", "c3"):
        state.apply(move)
    assert len(state.legal_moves()) == 1
    for algorithm in ("mcts", "alphabeta"):
        s = suggest(state, algorithm=algorithm, seed=1, level="fast")  # type: ignore[arg-type]
        assert s.warning is None
        assert math.isinf(s.margin)


def test_alphabeta_warns_after_depth_one() -> None:
    state = boardrules.load("armadora", players=2).new_game(seed=3)
    shallow = suggest(state, algorithm="alphabeta", seed=1, depth=1)
    assert shallow.warning is not None and "depth 1" in shallow.warning
    win = suggest(connect_four_win_in_one(), algorithm="alphabeta", seed=1, depth=4)
    assert str(win.move) == "a" and win.warning is None


def test_the_cli_prints_the_level_and_the_warning(capsys: pytest.CaptureFixture[str]) -> None:
    position = boardrules.load("armadora", players=2).new_game(seed=3).position()
    args = ["suggest", "--game", "armadora", "--position", position, "--iterations", "200"]
    assert cli_main(args) == 0
    assert "warning: the best move" in capsys.readouterr().out
    assert cli_main(["suggest", "--game", "armadora", "--position", position,
                     "--level", "fast", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["stats"]["level"] == "fast"
    assert printed["best_visits"] == printed["ranked"][0]["visits"]
    assert isinstance(printed["margin"], float)
    assert "warning" in printed
    assert cli_main(["suggest", "--game", "armadora", "--position", position,
                     "--level", "fast", "--iterations", "10"]) == 2
    assert "two budgets" in capsys.readouterr().err
