"""Reuse between moves: a :class:`SearchHandle` keeps the last search's trees and the next
search goes on from the subtree of its position (the MCTS and ISMCTS bots keep one)."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import pytest

import boardrules
from boardrules import State, suggest
from boardrules._ext import search as _search
from boardrules.arena import parse_bot, play_match
from boardrules.search import ISMCTSBot, MCTSBot, SearchHandle, Suggestion


def connect_four(moves: str = "") -> State[Any]:
    state = boardrules.load("connect_four").new_game(seed=1)
    for move in moves.split():
        state.apply(move)
    return state


def ranked(s: Suggestion[Any]) -> list[tuple[str, float, int]]:
    return [(str(m), v, n) for m, v, n in s.ranked]


def test_the_same_position_again_keeps_the_whole_tree() -> None:
    handle = SearchHandle()
    state = connect_four("d d")
    first = suggest(state, iterations=2000, seed=1, handle=handle)
    assert first.stats["reused_visits"] == 0 and first.stats["reused_nodes"] == 0
    assert handle.kept_nodes == first.stats["nodes"]
    again = suggest(state, iterations=500, seed=2, handle=handle)
    assert again.stats["reused_visits"] == 2000
    assert again.stats["reused_nodes"] == first.stats["nodes"]
    assert again.stats["iterations"] == 500  # this call's simulations only
    assert sum(n for _, _, n in again.ranked) == 2500
    # every root move keeps its simulations and gains some of the new ones
    before = {str(m): n for m, _, n in first.ranked}
    assert all(n >= before.get(str(m), 0) for m, _, n in again.ranked)


def test_the_subtree_of_the_move_played_is_kept() -> None:
    handle = SearchHandle()
    state = connect_four("d")
    first = suggest(state, iterations=5000, seed=1, handle=handle)
    move, _, visits = first.ranked[0]
    handle.played(move)
    reply = first.pv[1]
    state.apply(move)
    second = suggest(state, iterations=100, seed=2, handle=handle)
    assert second.stats["reused_visits"] == visits  # the node of the move, whole
    assert second.ranked[0][2] > 0
    state.apply(reply)  # the opponent's most searched answer: a subtree of the kept tree
    third = suggest(state, iterations=100, seed=3, handle=handle)
    reply_visits = next(n for m, _, n in second.ranked if m == reply)
    assert third.stats["reused_visits"] == reply_visits > 0


def test_a_transposed_position_is_found_under_another_move_order() -> None:
    """Connect four reaches one position by two move orders: the walk finds it below the
    moves actually played or below the other order, whichever was searched more."""
    handle = SearchHandle()
    first = suggest(connect_four(), iterations=20000, seed=4, handle=handle)
    assert first.stats["reused_visits"] == 0
    later = suggest(connect_four("c d e"), iterations=10, seed=5, handle=handle)
    alone = suggest(connect_four("e d c"), iterations=10, seed=5, handle=SearchHandle())
    assert later.stats["reused_visits"] > 0
    assert alone.stats["reused_visits"] == 0


def test_a_position_not_in_the_tree_starts_afresh() -> None:
    handle = SearchHandle()
    suggest(connect_four("a a"), iterations=1000, seed=1, handle=handle)
    elsewhere = connect_four("g g g f f")
    with_handle = suggest(elsewhere, iterations=1000, seed=7, handle=handle)
    without = suggest(elsewhere, iterations=1000, seed=7)
    assert with_handle.stats["reused_nodes"] == 0
    assert ranked(with_handle) == ranked(without)


def test_reuse_is_deterministic_for_a_seed() -> None:
    def game() -> list[list[tuple[str, float, int]]]:
        handle = SearchHandle()
        state = boardrules.load("armadora", players=2).new_game(seed=3)
        out = []
        for turn in range(6):
            s = suggest(state, iterations=800, seed=turn, handle=handle)
            out.append(ranked(s))
            handle.played(s.move) if state.current_player == 0 else None
            state.apply(s.move)
        return out
    assert game() == game()


def test_a_kept_tree_larger_than_the_next_search_may_hold_is_dropped() -> None:
    handle = SearchHandle()
    state = connect_four("d")
    first = suggest(state, iterations=5000, seed=1, handle=handle)
    small = 100 * _search.tree_node_bytes(state._core, False, False)  # 100 nodes
    again = suggest(state, iterations=50, seed=2, max_memory=small, handle=handle)
    assert first.stats["nodes"] > 100
    assert again.stats["reused_nodes"] == 0
    assert again.stats["nodes"] <= again.stats["node_cap"] == 100
    # a tree that fits is kept under the new cap
    third = suggest(state, iterations=50, seed=3, max_memory=small, handle=handle)
    assert third.stats["reused_visits"] == 50
    assert third.stats["nodes"] <= 100
    assert handle.kept_bytes <= small


@pytest.mark.parametrize("change", [{"threads": 2}, {"simultaneous": "sequential"}])
def test_other_settings_start_afresh(change: dict[str, Any]) -> None:
    handle = SearchHandle()
    state = connect_four("d")
    suggest(state, iterations=1000, seed=1, handle=handle)
    again = suggest(state, iterations=1000, seed=1, handle=handle, **change)
    assert again.stats["reused_nodes"] == 0


def test_ismcts_trees_are_kept_per_player() -> None:
    handle = SearchHandle()
    state = boardrules.load("armadora", players=2).new_game(seed=3)
    suggest(state, iterations=500, seed=1, handle=handle)
    other = suggest(state, player=1, iterations=500, seed=1, handle=handle)
    assert other.stats["reused_nodes"] == 0
    same = suggest(state, player=1, iterations=500, seed=1, handle=handle)
    assert same.stats["reused_visits"] == 500


def test_mcts_on_hidden_information_keeps_nothing() -> None:
    """MCTS draws one world per tree: its tree is of no use in the next world."""
    handle = SearchHandle()
    state = boardrules.load("armadora", players=2).new_game(seed=3)
    suggest(state, algorithm="mcts", iterations=500, seed=1, handle=handle)
    assert handle.kept_nodes == 0
    again = suggest(state, algorithm="mcts", iterations=500, seed=1, handle=handle)
    assert again.stats["reused_nodes"] == 0


def to_players_turn(state: State[Any], player: int, rng: random.Random) -> None:
    """Random moves of the others (and chance) until ``player`` is to move."""
    while state.current_player != player:
        state.apply(rng.choice(state.legal_moves()))


@pytest.mark.parametrize("game_id,plies", [("armadora", 8), ("rome_and_carthage", 40)])
def test_ismcts_keeps_only_what_its_player_can_see(game_id: str, plies: int) -> None:
    """Two truths the player cannot tell apart keep the same subtree: the search after
    the opponents' hidden moves is the same in both, move for move and visit for visit."""
    rng = random.Random(5)
    state = boardrules.load(game_id, players=2).new_game(seed=11)
    for _ in range(plies):  # into the game: the opponent has hidden warriors or cards
        state.apply(rng.choice(state.legal_moves()))
    to_players_turn(state, 0, rng)
    handles = [SearchHandle(), SearchHandle()]
    firsts = [suggest(state, iterations=4000, seed=1, handle=h) for h in handles]
    assert ranked(firsts[0]) == ranked(firsts[1])
    for i, move in enumerate(firsts[0].pv):  # his move, then the answers expected
        if i > 0 and state.current_player == 0:
            break
        for h in handles:
            h.played(move) if state.current_player == 0 else None
        state.apply(move)
    to_players_turn(state, 0, rng)
    truth = state
    # a world he cannot tell from the truth, with another hidden part
    other_world = next(w for w in (state.determinize(0, seed) for seed in range(100))
                       if w._core.state_bytes() != truth._core.state_bytes())
    a = suggest(truth, iterations=500, seed=2, handle=handles[0])
    b = suggest(other_world, iterations=500, seed=2, handle=handles[1])
    assert a.stats["reused_visits"] > 0
    assert ranked(a) == ranked(b)
    assert a.stats["reused_visits"] == b.stats["reused_visits"]
    assert a.stats["reused_nodes"] == b.stats["reused_nodes"]


@pytest.mark.parametrize("game_id", ["armadora", "rome_and_carthage"])
def test_ismcts_keeps_the_subtree_of_its_own_move(game_id: str) -> None:
    state = boardrules.load(game_id, players=2).new_game(seed=11)
    player = state.current_player
    handle = SearchHandle()
    first = suggest(state, iterations=3000, seed=1, handle=handle)
    move, _, visits = first.ranked[0]
    handle.played(move)
    state.apply(move)
    second = suggest(state, player=player, iterations=100, seed=2, handle=handle)
    # his own move on the board he sees: one node, kept whole
    assert second.stats["reused_visits"] == visits


def battle_state(seed: int) -> State[Any]:
    """Rome & Carthage at the defender's battle commit (simultaneous with the attacker's
    face-down cards), reached by seeded random moves."""
    rng = random.Random(seed)
    state = boardrules.load("rome_and_carthage", players=2).new_game(seed=seed)
    while not state._core.simultaneous():
        moves = state.legal_moves()
        assert moves, "the game ended before a battle"
        state.apply(rng.choice(moves))
    return state


@pytest.mark.parametrize("mode", ["decoupled", "regret"])
def test_a_simultaneous_decision_searched_again_keeps_its_tree(mode: str) -> None:
    """Searched from the commit it answers, taken back, the kept root is that commit."""
    state = battle_state(3)
    handle = SearchHandle()
    first = suggest(state, iterations=1500, seed=1, simultaneous=mode, handle=handle)
    assert first.stats["from_commit"]
    again = suggest(state, iterations=500, seed=2, simultaneous=mode, handle=handle)
    assert again.stats["from_commit"]
    assert again.stats["reused_visits"] == 1500
    assert sum(n for _, _, n in again.ranked) > sum(n for _, _, n in first.ranked)
    if mode == "regret":
        assert again.strategy is not None
        assert sum(p for _, p in again.strategy) == pytest.approx(1.0)


def test_clear_frees_the_kept_trees() -> None:
    handle = SearchHandle()
    state = connect_four()
    suggest(state, iterations=1000, seed=1, handle=handle)
    assert handle.kept_nodes > 0 and handle.kept_bytes > 0
    handle.clear()
    assert handle.kept_nodes == 0 and handle.kept_bytes == 0
    assert suggest(state, iterations=10, seed=1, handle=handle).stats["reused_nodes"] == 0


def test_bad_handles_are_refused() -> None:
    state = connect_four()
    with pytest.raises(TypeError, match="SearchHandle"):
        suggest(state, iterations=10, handle=object())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="alphabeta"):
        suggest(state, algorithm="alphabeta", depth=2, handle=SearchHandle())
    with pytest.raises(TypeError, match="Move"):
        SearchHandle().played("d")  # type: ignore[arg-type]


def test_a_handle_serves_one_search_at_a_time() -> None:
    handle = SearchHandle()
    state = connect_four()
    nested: list[BaseException] = []

    def search_again() -> bool:
        try:
            suggest(state, iterations=10, handle=handle)
        except RuntimeError as exc:
            nested.append(exc)
        return True  # then stop the outer search

    outer = suggest(state, time_limit=5.0, handle=handle, should_stop=search_again)
    assert nested and "in use" in str(nested[0])
    assert outer.stats["stopped"] == "cancelled"
    assert handle.kept_nodes == outer.stats["nodes"]  # the outer search's trees are kept


@pytest.mark.parametrize("bot_class,game_id", [(MCTSBot, "connect_four"),
                                               (ISMCTSBot, "armadora")])
def test_search_bots_reuse_by_default(bot_class: type[Any], game_id: str) -> None:
    def play(bot: Any) -> list[int]:
        state = boardrules.load(game_id).new_game(seed=2)
        opponent = bot_class(iterations=2000, seed=2, reuse=False)
        reused = []
        for _ in range(12):
            if not state.legal_moves():
                break
            mover = state.current_player
            state.apply((bot if mover == 0 else opponent).choose(state))
            if mover == 0 and bot.last is not None:
                reused.append(bot.last.stats["reused_visits"])
        return reused
    assert sum(play(bot_class(iterations=2000, seed=1))) > 0
    assert sum(play(bot_class(iterations=2000, seed=1, reuse=False))) == 0


def test_reuse_in_bot_specs() -> None:
    assert parse_bot("ismcts:reuse=0").options == (("reuse", 0),)
    assert parse_bot("ismcts:reuse=0").build(1)._handle is None
    assert parse_bot("mcts:reuse=1").build(1)._handle is not None
    with pytest.raises(TypeError, match="reuse"):
        MCTSBot(reuse=2)  # type: ignore[arg-type]


def test_the_walk_goes_through_forced_steps_it_was_not_told_of() -> None:
    """A forced step the engine takes for the player (one legal action) is a node of the
    tree but never a move he notes: the walk follows it without using up his noted
    moves (Albion: a build's payment, taken when only one is possible)."""
    rng = random.Random(0)
    state = boardrules.load("albion", players=2).new_game(seed=0)
    for _ in range(400):
        player = state.current_player
        handle = SearchHandle()
        first = suggest(state, iterations=400, seed=1, handle=handle)
        move, _, visits = first.ranked[0]
        after = state._core.copy(False)
        after.apply(move.action, False, False)
        forced = 0  # the forced steps of his own that follow
        while after.current_player == player and after.is_forced():
            after.apply(after.legal_actions()[0], False, False)
            forced += 1
        if forced and visits > forced:
            break
        state.apply(rng.choice(state.legal_moves()))
    else:
        pytest.fail("no move leading to a forced step of the mover's own")
    handle.played(move)
    state.apply(move)  # the state takes the forced step too
    second = suggest(state, player=player, iterations=10, seed=2, handle=handle)
    # each node of the chain was visited once as a leaf, every later visit went on down
    # it: the last forced step's child is the new root
    assert second.stats["reused_visits"] == visits - forced > 0


@pytest.mark.parametrize("duplicate", [copy.deepcopy, lambda b: pickle.loads(pickle.dumps(b))])
def test_a_copied_or_pickled_bot_starts_with_an_empty_handle(duplicate: Any) -> None:
    """The arena copies a bot object for every game and pickles it for its worker
    processes: the copy plays, its handle keeps no tree of the original's."""
    bot = MCTSBot(iterations=500, seed=3)
    state = connect_four("d")
    bot.choose(state)
    assert bot._handle is not None and bot._handle.kept_nodes > 0
    twin = duplicate(bot)
    assert twin._handle is not bot._handle
    assert twin._handle.kept_nodes == 0
    move = twin.choose(state)
    assert move in state.legal_moves()
    assert twin.last.stats["reused_nodes"] == 0


def test_a_bot_object_plays_a_match_in_worker_processes() -> None:
    result = play_match("connect_four", [MCTSBot(iterations=200), "mcts:iterations=200,reuse=0"],
                        games=2, seed=1, processes=2)
    assert result.games == 2
    assert [b.forfeits for b in result.bots] == [0, 0]
    assert result.bots[0].moves > 0
