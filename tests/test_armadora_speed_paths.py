"""Armadora: the core's fast paths checked against the rules they stand for.

* Palisade legality is kept incrementally (a flood capped at 4 squares, refreshed only
  near the palisade just placed, free 2 x 2 blocks legal at once): the palisades it lists
  must be exactly those that rule 3's restriction allows, computed here from scratch by
  flooding the whole board after each candidate palisade.
* The heuristic ``evaluate`` (alpha-beta's leaves, the greedy bot): in [-1, 1], the teams'
  values opposite and partners' equal, and it knows what rule 4 makes plain -- a player
  who has passed places nothing more.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import boardrules
from boardrules.games.armadora import ArmadoraState

#: d1=4, b2=7, f2=4, h2=3, a4=5, e4=6, c5=6, g5=5 (as in test_armadora_rules.py).
CORNER_GOLD = (4, 7, 4, 3, 5, 6, 6, 5)
MIN_TERRITORY = 4  # rule 3 (palisades): no territory of fewer than 4 squares


def new(players: int = 2, variant: str = "basic") -> ArmadoraState:
    """A two-player game after a chosen gold setup."""
    game = boardrules.load("armadora", players=players, variant=variant)
    state = game.new_game(seed=0, auto_chance=False)
    for v in CORNER_GOLD:
        state.apply(f"gold {v}")
    assert isinstance(state, ArmadoraState)
    return state


def edges(width: int, height: int) -> list[tuple[int, int]]:
    """Internal edges in the core's numbering: cell order, each cell's east edge first."""
    out = []
    for c in range(width * height):
        if c % width < width - 1:
            out.append((c, c + 1))
        if c // width < height - 1:
            out.append((c, c + width))
    return out


def territory_sizes(ncells: int, open_edges: list[tuple[int, int]]) -> list[int]:
    """The sizes of the territories the open edges leave (a plain union-find)."""
    parent = list(range(ncells))

    def root(c: int) -> int:
        while parent[c] != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    for a, b in open_edges:
        parent[root(a)] = root(b)
    sizes: dict[int, int] = {}
    for c in range(ncells):
        sizes[root(c)] = sizes.get(root(c), 0) + 1
    return list(sizes.values())


def allowed_palisades(state: ArmadoraState) -> set[int]:
    """Edge ids where rule 3 allows a palisade: free, and no territory under 4 after."""
    board = state.game.board
    all_edges = edges(board.width, board.height)
    raw: dict[str, Any] = state.game.core.export(state._core)
    taken = set(raw["palisades"])
    if raw["palisades_left"] == 0:
        return set()
    allowed = set()
    for e in range(len(all_edges)):
        if e in taken:
            continue
        still_open = [all_edges[f] for f in range(len(all_edges)) if f not in taken | {e}]
        if min(territory_sizes(board.width * board.height, still_open)) >= MIN_TERRITORY:
            allowed.add(e)
    return allowed


def listed_palisades(state: ArmadoraState) -> set[int]:
    """Edge ids of the plain palisade moves listed as legal (action ids 2 .. 2 + edges)."""
    nedges = len(edges(state.game.board.width, state.game.board.height))
    return {a - 2 for a in state._core.legal_actions() if 2 <= a < 2 + nedges}


@pytest.mark.parametrize("board", ["printed", "sheet-7x5"])
def test_listed_palisades_are_those_rule_3_allows(board: str) -> None:
    """Random games leaning to palisades (so that small territories near the limit are
    common) compared move by move with the rule computed from scratch."""
    game = boardrules.load("armadora", players=2, variant="basic", board=board)
    nedges = len(edges(game.board.width, game.board.height))
    checked = refused = 0
    for seed in range(25):
        rng = random.Random(seed)
        state = game.new_game(seed=seed)
        while not state.is_terminal():
            actions = state._core.legal_actions()
            if 2 in actions or any(2 <= a < 2 + nedges for a in actions):
                assert listed_palisades(state) == allowed_palisades(state)
                checked += 1
                refused += nedges - len(listed_palisades(state))
            palisades = [m for m in state.legal_moves() if 2 <= m.action < 2 + nedges]
            passing = [m for m in state.legal_moves() if str(m) == "pass"]
            moves = state.legal_moves()
            if palisades and rng.random() < 0.7:
                moves = palisades
            elif len(moves) > len(passing) and rng.random() < 0.95:
                moves = [m for m in moves if str(m) != "pass"]
            state.apply(rng.choice(moves))
    assert checked > 500 and refused > 0  # the test met positions where the limit bites


def test_evaluate_in_range_teams_opposite_partners_equal() -> None:
    for options in boardrules.load("armadora").example_options:
        game = boardrules.load("armadora", **options)
        team_of = game.core.team_of
        for seed in range(8):
            rng = random.Random(seed)
            state = game.new_game(seed=seed)
            while not state.is_terminal():
                values = state._core.evaluate()
                assert all(-1.0 <= v <= 1.0 for v in values)
                teams = {team_of[p]: values[p] for p in range(game.num_players)}
                assert all(values[p] == teams[team_of[p]] for p in range(game.num_players))
                assert sum(teams.values()) == pytest.approx(0.0, abs=1e-12)
                state.apply(rng.choice(state.legal_moves()))


def test_evaluate_passing_first_is_losing() -> None:
    """Rule 4: a player who passes places nothing more, while the other still has all
    his warriors to place -- the empty board's gold is then all the other's to take."""
    state = new()
    assert state._core.evaluate() == [0.0, 0.0]  # nothing placed, both to play on
    state.apply("pass")
    first, second = state._core.evaluate()
    assert first < -0.99 and second == -first


def test_evaluate_one_warrior_alone_controls_every_territory() -> None:
    """The other player passed with nothing on the board: the one warrior's player holds
    the only territory (the whole board, all 40 gold) and nobody can contest it."""
    state = new()
    state.apply("1@c3")
    assert state._core.evaluate()[0] < 0.99  # the other may still outnumber him
    state.apply("pass")
    first, second = state._core.evaluate()
    assert first > 0.99 and second == -first


def test_evaluate_a_pass_while_the_other_plays_on_costs() -> None:
    """Ahead on the board, passing hands the open territory to the other player, who still
    holds all his warriors: the heuristic of 0.6.0, blind to it, valued the pass as a
    lead and made alpha-beta pass after its first warrior."""
    state = new()
    state.apply("5@c3")
    state.apply("a1-b1")  # player 1: one palisade, no warrior yet
    state.apply("done")
    after_pass = state.child("pass")._core.evaluate()[0]
    after_warrior = state.child("4@f3")._core.evaluate()[0]
    assert after_pass < 0
    assert after_pass < after_warrior
