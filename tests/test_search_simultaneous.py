"""Search on decisions simultaneous with a hidden commit (decoupled selection).

The fixture is the compiled toy game ``boardrules._ext.toy_commit`` (not a registered
game): player 0 commits rock, paper or scissors face down, player 1 chooses without
seeing it (the contract's ``simultaneous()`` is 1 there), then both are revealed.
Rock-paper-scissors is worth 0 to both, its only equilibrium the uniform mix; a searcher
that lets player 1 see the commit values every move of player 0 at -1.
"""

from __future__ import annotations

from typing import Any

import pytest

import boardrules
from boardrules import suggest
from boardrules._ext.core import CoreState
from boardrules._ext.search import run_mcts
from boardrules._ext.toy_commit import ToyCommitCore
from boardrules.arena import BotSpec, parse_bot
from boardrules.games import as_game_id
from boardrules.search import ISMCTSBot, MCTSBot, check_options

ROCK, PAPER, SCISSORS = 0, 1, 2
# A skew-symmetric matrix (value 0) whose unique equilibrium is not uniform:
# (rock, paper, scissors) = (0.2, 0.4, 0.4); a player 1 who sees the commit holds player 0
# to -0.5 (paper, answered by scissors).
BIASED = (0.0, -1.0, 1.0,
          1.0, 0.0, -0.5,
          -1.0, 0.5, 0.0)


def search(st: CoreState, observer: int = 0, *, simultaneous: str = "decoupled",
           iterations: int = 3000, seed: int = 1, ismcts: bool = True, threads: int = 1,
           max_nodes: int = 1 << 20) -> dict[str, Any]:
    return run_mcts(st, iterations, 0.0, 1.0, -1, ismcts, not ismcts, observer, seed,
                    threads, max_nodes, None, simultaneous)


def values(result: dict[str, Any]) -> dict[int, float]:
    return {a: v for a, _, v in result["children"]}


def shares(rows: list[tuple[int, int, float]]) -> dict[int, float]:
    total = sum(n for _, n, _ in rows)
    return {a: n / total for a, n, _ in rows}


def rps(rounds: int = 1, payoff: tuple[float, ...] | None = None) -> CoreState:
    return CoreState(ToyCommitCore(payoff, rounds))


# --- the toy game itself -------------------------------------------------------------------


def test_toy_commit_rules_and_determinize() -> None:
    game = ToyCommitCore()
    st = CoreState(game)
    assert game.has_hidden_information and st.current_player == 0
    st.apply(SCISSORS)
    assert st.current_player == 1 and game.export(st)["commit"] == SCISSORS
    # player 1 cannot see the commit: his worlds redraw it; player 0's keep it
    assert {game.export(st.determinized(1, seed))["commit"] for seed in range(40)} == {0, 1, 2}
    assert {game.export(st.determinized(0, seed))["commit"] for seed in range(10)} == {SCISSORS}
    st.apply(ROCK)
    assert st.current_player < 0 and st.returns() == [-1.0, 1.0]
    assert game.export(st)["history"] == [(SCISSORS, ROCK)]


@pytest.mark.parametrize(("kwargs", "error"), [
    ({"payoff": [0.0] * 8}, ValueError), ({"payoff": [2.0] * 9}, ValueError),
    ({"payoff": [float("nan")] * 9}, ValueError), ({"payoff": ["x"] * 9}, TypeError),
    ({"rounds": 0}, ValueError), ({"rounds": 9}, ValueError), ({"rounds": 1.5}, TypeError),
])
def test_toy_commit_refuses_bad_tables(kwargs: dict[str, Any], error: type) -> None:
    with pytest.raises(error):
        ToyCommitCore(**kwargs)


# --- the defect and the fix ----------------------------------------------------------------


@pytest.mark.parametrize("ismcts", [True, False], ids=["ismcts", "mcts"])
def test_sequential_search_lets_the_second_committer_see_the_commit(ismcts: bool) -> None:
    """The defect, kept as the "sequential" setting: player 1's node hangs below player
    0's hidden commit, so every commit is valued as if it were answered perfectly."""
    result = search(rps(), simultaneous="sequential", ismcts=ismcts)
    assert max(values(result).values()) < -0.85
    assert result["pooled_nodes"] == 0 and result["replies"] == []


@pytest.mark.parametrize("ismcts", [True, False], ids=["ismcts", "mcts"])
def test_decoupled_search_values_the_first_commit_at_the_game_value(ismcts: bool) -> None:
    result = search(rps(), ismcts=ismcts)
    assert all(abs(v) < 0.15 for v in values(result).values()), result["children"]
    # the root mix and player 1's pooled replies are near the uniform equilibrium
    for mix in (shares(result["children"]), shares(result["replies"])):
        assert set(mix) == {ROCK, PAPER, SCISSORS}
        assert all(abs(p - 1 / 3) < 0.1 for p in mix.values()), mix
    # every iteration but the three that expanded the root decides through a pooled node
    assert result["pooled_nodes"] == 3 and result["simultaneous_decisions"] == 2997
    assert sum(n for _, n, _ in result["replies"]) == 2997
    assert result["select_failures"] == 0


def test_decoupled_search_on_a_biased_matrix_game() -> None:
    """Non-uniform equilibrium: decoupled values near 0; sequential plays the move that
    is safest against a clairvoyant (paper, -0.5)."""
    st = rps(payoff=BIASED)
    sequential = search(st, simultaneous="sequential", iterations=5000)
    assert sequential["children"][0][0] == PAPER
    assert values(sequential)[PAPER] == pytest.approx(-0.5, abs=0.05)
    decoupled = search(st, iterations=5000)
    assert all(abs(v) < 0.1 for v in values(decoupled).values()), decoupled["children"]
    # rock is the equilibrium's rare move (0.2)
    assert abs(shares(decoupled["children"])[ROCK] - 0.2) < 0.1


def test_pv_at_a_decoupled_decision_is_the_pooled_choice() -> None:
    result = search(rps())
    assert len(result["pv"]) == 2
    assert result["pv"][1] == result["replies"][0][0]


def test_deeper_simultaneous_decisions_are_pooled_per_parent() -> None:
    """Three rounds: a pooled list under every commit node of the tree, values near 0."""
    result = search(rps(rounds=3), iterations=6000)
    assert result["pooled_nodes"] > 3
    assert all(abs(v) < 0.2 for v in values(result).values()), result["children"]
    sequential = search(rps(rounds=3), iterations=6000, simultaneous="sequential")
    assert max(values(sequential).values()) < -0.5


def test_sequential_search_of_a_simultaneous_root_uses_its_own_statistics() -> None:
    """Plain SO-ISMCTS at a simultaneous root (player 1 to answer) pools nothing: ISMCTS
    redraws the commit every iteration, so each answer is worth 0 against the uniformly
    redrawn rock, paper or scissors, not +1 for the paper that would beat the real rock."""
    st = rps()
    st.apply(ROCK)
    sequential = search(st, observer=1, simultaneous="sequential")
    assert sequential["root_simultaneous"] and sequential["pooled_nodes"] == 0
    assert not sequential["from_commit"]
    assert all(abs(v) < 0.15 for v in values(sequential).values())


@pytest.mark.parametrize("mode", ["decoupled", "regret"])
def test_a_simultaneous_root_is_searched_from_the_commit_it_answers(mode: str) -> None:
    """Decoupled and regret-matching search take the hidden commit back (the contract's
    take_back_commit) and search player 1's answer as the pooled decision below player
    0's modelled choice: his moves are the pooled statistics, every one worth about 0."""
    st = rps()
    st.apply(ROCK)
    result = search(st, observer=1, simultaneous=mode)
    assert result["root_simultaneous"] and result["from_commit"]
    assert sorted(a for a, _, _ in result["children"]) == [ROCK, PAPER, SCISSORS]
    assert sum(n for _, n, _ in result["children"]) == result["iterations"]
    assert all(abs(v) < 0.2 for v in values(result).values())
    assert result["pv"][0] == result["children"][0][0] and result["replies"] == []


@pytest.mark.parametrize("mode", ["decoupled", "regret"])
def test_the_answer_to_a_hidden_commit_does_not_depend_on_it(mode: str) -> None:
    """Taking the commit back must not let its value through: the same seed gives the
    same search whatever player 0 committed."""
    results = []
    for commit in (ROCK, PAPER, SCISSORS):
        st = rps(payoff=BIASED)
        st.apply(commit)
        result = search(st, observer=1, simultaneous=mode, seed=5)
        results.append({k: result[k] for k in ("children", "pv", "strategy", "nodes")})
    assert results[0] == results[1] == results[2]


EQUILIBRIUM = {ROCK: 0.2, PAPER: 0.4, SCISSORS: 0.4}  # of BIASED, for both players


def mean_strategy(rows: list[list[tuple[int, float]]]) -> dict[int, float]:
    return {a: sum(dict(r)[a] for r in rows) / len(rows) for a in EQUILIBRIUM}


def distance(strategy: dict[int, float]) -> float:
    return max(abs(strategy[a] - p) for a, p in EQUILIBRIUM.items())


def test_regret_matching_answers_a_commit_with_the_equilibrium_mix() -> None:
    """Player 1, answering a hidden commit of the biased game, plays regret matching's
    average strategy from the commit taken back: near the equilibrium (0.2, 0.4, 0.4) in
    each of three seeded searches, where decoupled UCT's visit shares are far from it."""
    st = rps(payoff=BIASED)
    st.apply(PAPER)
    for seed in (1, 2, 3):
        strategy = dict(search(st, observer=1, simultaneous="regret", iterations=100_000,
                               seed=seed)["strategy"])
        assert distance(strategy) < 0.03, strategy
        decoupled = shares(search(st, observer=1, iterations=100_000, seed=seed)["children"])
        assert distance(decoupled) > 0.15, decoupled


def test_regret_matching_commits_with_the_equilibrium_mix() -> None:
    """The first committer's average strategy approaches the biased game's equilibrium
    too (over three seeds), and more slowly his tree's model of the reply."""
    results = [search(rps(payoff=BIASED), simultaneous="regret", iterations=100_000,
                      seed=seed) for seed in (1, 2, 3)]
    assert distance(mean_strategy([r["strategy"] for r in results])) < 0.03
    assert distance(mean_strategy([r["reply_strategy"] for r in results])) < 0.1


def test_only_regret_matching_gives_a_strategy() -> None:
    for mode in ("decoupled", "sequential"):
        result = search(rps(payoff=BIASED), simultaneous=mode)
        assert result["strategy"] == [] and result["reply_strategy"] == []


# --- bounds, determinism, games without the contract field ---------------------------------


@pytest.mark.parametrize("max_nodes", [2, 3, 5, 8, 40])
def test_pooled_nodes_count_against_max_nodes(max_nodes: int) -> None:
    result = search(rps(rounds=3), iterations=500, max_nodes=max_nodes)
    assert result["nodes"] <= max_nodes and result["tree_full"]
    assert result["iterations"] == 500 and result["select_failures"] == 0
    assert result["children"]


@pytest.mark.parametrize("max_nodes", [5, 8])
def test_full_tree_still_backs_up_the_pooled_choice(max_nodes: int) -> None:
    """With room for few pooled nodes and no joint children below them, the decisions
    still go through the pooled nodes there are, and every one is backed up."""
    result = search(rps(), iterations=3000, max_nodes=max_nodes)
    assert result["nodes"] == max_nodes and 1 <= result["pooled_nodes"] < 3
    assert sum(n for _, n, _ in result["replies"]) == result["simultaneous_decisions"] == 2997


def test_decoupled_search_is_deterministic_for_a_seed() -> None:
    st = rps(rounds=2, payoff=BIASED)
    for threads in (1, 2):
        first = search(st, iterations=2000, seed=7, threads=threads)
        again = search(st, iterations=2000, seed=7, threads=threads)
        for key in ("children", "pv", "replies", "nodes", "pooled_nodes"):
            assert first[key] == again[key]


@pytest.mark.parametrize(("game_id", "options", "algorithm"), [
    ("connect_four", {}, "mcts"),
    ("pig", {}, "mcts"),
    ("armadora", {"players": 2}, "ismcts"),
    ("armadora", {"players": 2}, "mcts"),
])
def test_game_without_simultaneous_field_searches_as_before(
        game_id: str, options: dict[str, Any], algorithm: str) -> None:
    """A NULL ``simultaneous`` never takes the decoupled path: both settings give the
    same search, bit for bit."""
    state = boardrules.load(as_game_id(game_id), **options).new_game(seed=3)
    a = suggest(state, algorithm=algorithm, iterations=400, seed=5)  # type: ignore[arg-type]
    b = suggest(state, algorithm=algorithm, iterations=400, seed=5,  # type: ignore[arg-type]
                simultaneous="sequential")
    assert a.ranked == b.ranked and a.pv == b.pv
    assert a.stats["simultaneous"] == "decoupled" and b.stats["simultaneous"] == "sequential"
    for s in (a, b):
        assert s.stats["simultaneous_decisions"] == 0 and s.stats["pooled_nodes"] == 0
        assert s.stats["replies"] == []


# --- the option ----------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "error"), [
    ("Decoupled", ValueError), ("", ValueError), ("mo-ismcts", ValueError),
    (1, TypeError), (True, TypeError), (None.__class__, TypeError),
])
def test_bad_simultaneous_value_is_refused(value: Any, error: type) -> None:
    state = boardrules.load("tic_tac_toe").new_game()
    with pytest.raises(error, match="simultaneous"):
        check_options("ismcts", simultaneous=value)
    with pytest.raises(error, match="simultaneous"):
        suggest(state, iterations=10, simultaneous=value)
    with pytest.raises(error, match="simultaneous"):
        ISMCTSBot(iterations=10, simultaneous=value)
    with pytest.raises(error, match="simultaneous"):
        search(rps(), simultaneous=value)


def test_alphabeta_refuses_the_simultaneous_option() -> None:
    state = boardrules.load("tic_tac_toe").new_game()
    with pytest.raises(ValueError, match="simultaneous does not apply"):
        suggest(state, algorithm="alphabeta", depth=2, simultaneous="sequential")
    with pytest.raises(ValueError, match="has no option 'simultaneous'"):
        parse_bot("alphabeta:depth=2,simultaneous=sequential")


def test_simultaneous_option_in_bots_and_arena_specs() -> None:
    spec = parse_bot("ismcts:iterations=2000,simultaneous=sequential")
    assert spec == BotSpec("ismcts", (("iterations", 2000), ("simultaneous", "sequential")))
    assert str(spec) == "ismcts:iterations=2000,simultaneous=sequential"
    assert parse_bot(str(spec)) == spec
    bot = spec.build(seed=1)
    assert isinstance(bot, ISMCTSBot) and bot._options["simultaneous"] == "sequential"
    assert MCTSBot(iterations=5)._options["simultaneous"] == "decoupled"
    # a value that is neither a number nor a word is still refused by the parser; a bad
    # word by the bot
    with pytest.raises(ValueError, match="is not a number"):
        parse_bot("ismcts:simultaneous=a-b")
    with pytest.raises(ValueError, match="simultaneous must be one of"):
        parse_bot("ismcts:simultaneous=both").build(seed=1)
