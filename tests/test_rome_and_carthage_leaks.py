"""Rome & Carthage: what a player may not see never reaches him (the outside review of
0.5.0: ``probe_determinize_last_action.py``, ``probe_fifteens_twin.py``).

The tests build *twins*: two games that differ only in something an observer cannot see
-- the card another player drew (``draw ?`` to him), an attacker's face-down cards
(``play ?``), the card given to an ally in Rapid Conquest (``give ?``) -- and then play
the same moves in both.  For that observer the twins must stay indistinguishable:

* ``determinize(observer, seed)`` gives byte-identical worlds (``state_bytes``): a world
  holds nothing he cannot know, not even in ``last_action``;
* his views stay equal move after move: no rule may decide something public from a
  hidden card (R8: the last two 15s; R9: the forced march's decision; R8: lost hands).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from boardrules import CHANCE
from boardrules.games.rome_and_carthage import RomeCarthageGame, RomeCarthageState

CONFIGS: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 4, "variant": "equal_arms"},
    {"players": 3, "variant": "equal_arms"},
    {"players": 4, "variant": "rapid_conquest"},
]


def blind_observers(a: RomeCarthageState, b: RomeCarthageState) -> list[int]:
    """The players for whom twins ``a`` and ``b`` look the same (view and log)."""
    return [p for p in range(a.game.num_players)
            if a.view(p) == b.view(p) and a.history_view(p) == b.history_view(p)]


def twin_moves(state: RomeCarthageState) -> list[tuple[str, str]]:
    """Pairs of different hidden choices at this point: two cards the player to draw
    may draw, two commits of an attacker laying his cards face down, two gifts."""
    if state.current_player == CHANCE:
        outs = [str(m) for m, _ in state.chance_outcomes()]
        return [(outs[0], outs[-1])] if len(outs) > 1 else []
    raw = state._raw()
    moves = [str(m) for m in state.legal_moves()]
    if state.phase == "commit" and raw["commit_side"] == 0:
        plays = [m for m in moves if m.startswith("play")]
        return [(plays[0], plays[-1])] if len(plays) > 1 else []
    gifts = [m for m in moves if m.startswith("give")]
    return [(gifts[0], gifts[-1])] if len(gifts) > 1 else []


def twins(options: dict[str, Any], seeds: range, every: int = 12
          ) -> Iterator[tuple[RomeCarthageState, RomeCarthageState, int, random.Random]]:
    """Twins met along random games (every hidden commit, one in ``every`` draws and
    gifts), with an observer who cannot tell them apart."""
    game = RomeCarthageGame(max_rounds=60, **options)
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_game(seed=seed, auto_chance=False)
        met = 0
        while not state.is_terminal():
            for a_move, b_move in twin_moves(state):
                if not a_move.startswith("play"):
                    met += 1
                    if met % every:
                        continue
                a, b = state.copy(), state.copy()
                a.apply(a_move)
                b.apply(b_move)
                for p in blind_observers(a, b):
                    yield a.copy(), b.copy(), p, rng
            if state.current_player == CHANCE:
                state.apply_random_chance(rng.getrandbits(64))
            else:
                state.apply(rng.choice(state.legal_moves()))


def common_move(a: RomeCarthageState, b: RomeCarthageState, rng: random.Random
                ) -> str | None:
    if a.is_terminal() or b.is_terminal():
        return None
    if a.current_player == CHANCE:
        outs = sorted({str(m) for m, _ in a.chance_outcomes()}
                      & {str(m) for m, _ in b.chance_outcomes()})
    else:
        outs = sorted({str(m) for m in a.legal_moves()} & {str(m) for m in b.legal_moves()})
    return rng.choice(outs) if outs else None


def assert_same_worlds(a: RomeCarthageState, b: RomeCarthageState, p: int) -> None:
    for seed in (0, 7, 2**63 + 5):
        wa, wb = a.determinize(p, seed=seed), b.determinize(p, seed=seed)
        assert wa.state_bytes() == wb.state_bytes(), (p, seed, a.history[-3:])
        assert wa.view(p) == a.view(p)


@pytest.mark.parametrize("options", CONFIGS, ids=lambda o: "-".join(map(str, o.values())))
def test_determinize_worlds_of_indistinguishable_truths_are_identical(
        options: dict[str, Any]) -> None:
    """determinize leaked the last action: a world kept the real ``last_action`` (an
    enemy's drawn card, an attacker's face-down ``play 10+4``), so two truths the
    observer cannot tell apart gave different worlds.  Now they give the same bytes, at
    the split and after further moves both twins share (while they look the same)."""
    kinds: set[str] = set()
    for a, b, p, rng in twins(options, range(3)):
        kinds.add(str(a.history[-1]).split()[0])
        for _ in range(6):
            assert_same_worlds(a, b, p)
            move = common_move(a, b, rng)
            if move is None:
                break
            a.apply(move)
            b.apply(move)
            if p not in blind_observers(a, b):
                break
    wanted = {"draw", "play"} | ({"give"} if options.get("variant") == "rapid_conquest"
                                 else set())
    assert kinds >= wanted


def test_determinize_names_a_redrawn_card_as_the_last_draw() -> None:
    """The rewritten last action agrees with the world: the card it says the opponent
    drew is in his redrawn hand, among the cards only his side has seen."""
    game = RomeCarthageGame(2)
    state = game.new_game(seed=3)
    while state.phase == "place":
        state.apply(state.legal_moves()[0])
    state.apply("pass")        # player 1 has drawn: "draw ?" to player 0
    assert state.history_view(0)[-1] == (CHANCE, "draw ?")
    drawn = set()
    for seed in range(40):
        world = state.determinize(0, seed=seed)
        raw = world._raw()
        last = str(game.move(raw["last_action"]))
        value = int(last.split()[1])
        index = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15].index(value)
        assert raw["hand"][1][index] > raw["known"][1][index]
        drawn.add(value)
    assert len(drawn) > 1       # not the truth every time


def fifteen_twins(seeds: range) -> Iterator[tuple[RomeCarthageState, RomeCarthageState,
                                                  int, random.Random]]:
    """probe_fifteens_twin.py's construction: once the first two 15s have left the game,
    at a draw that may give a 15, twin A draws the 15 and twin B another card; the
    observer sees ``draw ?`` in both."""
    game = RomeCarthageGame(2)
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_game(seed=seed, auto_chance=False)
        while not state.is_terminal():
            if state.current_player == CHANCE:
                outs = [str(m) for m, _ in state.chance_outcomes()]
                others = [m for m in outs if m != "draw 15"]
                if state.view(None)["fifteens_removed"] == 2 and "draw 15" in outs and others:
                    a, b = state.copy(), state.copy()
                    a.apply("draw 15")
                    b.apply(others[0])
                    observers = blind_observers(a, b)
                    assert len(observers) == 1
                    yield a, b, observers[0], rng
                    break
                state.apply_random_chance(rng.getrandbits(64))
            else:
                state.apply(rng.choice(state.legal_moves()))


def test_r8_last_two_fifteens_return_on_public_grounds() -> None:
    """The last two 15s revealed a hand: R8 set a played 15 aside "while any hand still
    holds a 15", so ``fifteens_aside`` and the discard told an observer whether a card he
    saw drawn as ``draw ?`` was a 15.  Now they wait until every 15 still in the game has
    been played -- public knowledge -- and the twins' views stay equal through the same
    moves (so do those of every other rule that looked at a hand)."""
    cases = fifteens_played = 0
    for a, b, p, rng in fifteen_twins(range(40)):
        cases += 1
        for _ in range(400):
            move = common_move(a, b, rng)
            if move is None:
                break
            a.apply(move)
            b.apply(move)
            fifteens_played += "15" in move.replace("+", " ").split()[1:]
            assert a.view(p) == b.view(p), (move, a.history[-5:])
            assert a.history_view(p) == b.history_view(p)
            assert_same_worlds(a, b, p)
    assert cases >= 5 and fifteens_played > 0


VALUES = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15)


def points(state: RomeCarthageState, p: int) -> int:
    return sum(n * VALUES[v] for v, n in enumerate(state._raw()["hand"][p]))


def poor_hand_with_unseen_cards() -> RomeCarthageState:
    """A random 2-player game at the ``main`` decision of a player whose hand is worth
    less than 3 points, one of its cards drawn (so the opponent cannot know that), and
    whose elephant, chariot or galley can move."""
    game = RomeCarthageGame(2)
    for seed in range(100):
        rng = random.Random(seed)
        state = game.new_game(seed=seed)
        while not state.is_terminal():
            raw = state._raw()
            p = raw["turn_player"]
            if (state.phase == "main" and raw["unknown"][p] and points(state, p) < 3
                    and heavy_moves(state)):
                return state
            state.apply(rng.choice(state.legal_moves()))
    pytest.fail("no such position in 100 random games")


def heavy_moves(state: RomeCarthageState) -> list[str]:
    """Moves of an army that is not an infantry (no second move can follow)."""
    view = state.view(None)
    kind = {c["city"]: c["army"]["kind"] for c in view["cities"] if c["army"]}
    return [str(m) for m in state.legal_moves()
            if "-" in str(m) and kind.get(str(m).split("-")[0]) != "infantry"]


def test_r9_forced_march_decision_is_offered_on_public_grounds() -> None:
    """The forced march's decision told the opponent about a hidden hand: after a move
    the turn went on at once when the hand could not pay 3 points, and waited for
    ``pay``/``done`` when it could.  Now the decision is offered whenever the others
    cannot rule a payment out (the hand holds a card only its side has seen), even if
    only ``done`` is legal."""
    state = poor_hand_with_unseen_cards()
    p = state.current_player
    state.apply(heavy_moves(state)[0])
    assert state.phase == "moved" and state.current_player == p
    assert [str(m) for m in state.legal_moves()] == ["done"]


def test_r8_a_lost_hand_leaves_the_game_face_down() -> None:
    """Victory: "All the cards still in his hand are lost".  Losing them used to put them
    all in the public ``removed``, revealing the cards the player had drawn.  Now his
    zeros and the cards everyone knew he held go to ``removed``; the others leave face
    down (``lost``: a count to all, the cards to his side only)."""
    game = RomeCarthageGame(4)
    for seed in range(200):
        rng = random.Random(seed)
        state = game.new_game(seed=seed)
        while not state.is_terminal():
            before = state.copy()
            state.apply(rng.choice(state.legal_moves()))
            out = [q for q in range(4) if state.view(None)["players"][q]["eliminated"]
                   and not before.view(None)["players"][q]["eliminated"]]
            if out and not state.is_terminal() and before._raw()["unknown"][out[0]]:
                q = out[0]
                raw, old = state._raw(), before._raw()
                gone = [a - b for a, b in zip(raw["removed"], old["removed"], strict=True)]
                assert gone[0] == 2                               # his zeros
                assert all(gone[v] <= old["known"][q][v] for v in range(1, 11))
                ally = next(r for r in range(4)
                            if r != q and game._core.team_of[r] == game._core.team_of[q])
                enemy = (q + 1) % 4
                lost = state.view(enemy)["players"][q]["lost"]
                assert lost > 0 and state.view(enemy)["players"][q]["lost_cards"] is None
                assert len(state.view(ally)["players"][q]["lost_cards"]) == lost
                assert all(n == m for n, m in state.invariants().values())
                worlds = {tuple(map(tuple, state.determinize(enemy, seed=s)._raw()["lost"]))
                          for s in range(20)}
                assert len(worlds) > 1       # redrawn for the enemy
                return
    pytest.fail("no player dropped out holding drawn cards")
