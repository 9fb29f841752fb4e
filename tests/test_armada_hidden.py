"""Armada: what a player cannot see stays unseen -- in the worlds ``determinize`` builds
(M28) and in who is asked in the reaction windows (M4).

*Twin truths* are two states a player cannot tell apart: the same moves, but for a card
drawn for another player (dealt, bought, or looked at with a Grand stratège), after
which both go on with the same moves.  A world built for that player with one seed must
then be the same, byte for byte, from either twin; and the windows must ask the same
players, in the same order, whoever holds a Coup de main.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from armada_review_helpers import edit, new, raw

from boardrules import CHANCE, TERMINAL
from boardrules.games.armada import ArmadaGame, ArmadaState

#: Moves a random player prefers, so that buys and Grand stratège looks happen often.
CARD_MOVES = ("play strategist", "look", "buy ", "play dope")


def pick(rng: random.Random, moves: list[Any]) -> Any:
    """A random move, a card move half of the time when one is there."""
    cards = [m for m in moves if str(m).startswith(CARD_MOVES)]
    if cards and rng.random() < 0.5:
        return rng.choice(cards)
    return rng.choice(moves)


def step(state: ArmadaState, rng: random.Random) -> None:
    if state.current_player == CHANCE:
        moves, weights = zip(*state.chance_outcomes(), strict=True)
        state.apply(rng.choices(moves, weights)[0])
    else:
        state.apply(pick(rng, state.legal_moves()))


def common_step(a: ArmadaState, b: ArmadaState, rng: random.Random) -> bool:
    """Apply to both twins one move (or chance outcome) legal in both; False if none."""
    if a.current_player == CHANCE:
        mine = {str(m) for m, _ in b.chance_outcomes()}
        both = [str(m) for m, _ in a.chance_outcomes() if str(m) in mine]
    else:
        mine = {str(m) for m in b.legal_moves()}
        both = [str(m) for m in a.legal_moves() if str(m) in mine]
    if not both:
        return False
    move = pick(rng, both)
    a.apply(move)
    b.apply(move)
    return True


def blind(a: ArmadaState, b: ArmadaState, p: int) -> bool:
    """Whether ``p`` cannot tell the twins apart."""
    return a.view(p) == b.view(p) and a.history_view(p) == b.history_view(p)


def twin_draws(state: ArmadaState) -> tuple[ArmadaState, ArmadaState, list[int]] | None:
    """At a draw: the twins (the pile's first and last kinds drawn) and the players who
    do not see the card."""
    outcomes = [str(m) for m, _ in state.chance_outcomes()]
    if len(outcomes) < 2:
        return None
    a, b = state.copy(), state.copy()
    a.apply(outcomes[0])
    b.apply(outcomes[-1])
    unseen = [p for p in range(state.game.num_players)
              if a.history_view(p)[-1][1] == "draw ?"]
    return a, b, unseen


def seed_gold(state: ArmadaState) -> None:
    """4 gold on each of the first 12 territories where bands stand (the edit hook), so
    that random play buys cards."""
    r = raw(state)
    stacks = [t for t in range(len(r["bands"])) if r["bands"][t]][:12]
    for t in stacks:
        edit(state, "gold", 4, t)


def check_worlds(a: ArmadaState, b: ArmadaState, p: int, seeds: tuple[int, ...]) -> None:
    for seed in seeds:
        wa, wb = a.determinize(p, seed), b.determinize(p, seed)
        assert wa.view(p) == a.view(p)
        assert wa.state_bytes() == wb.state_bytes(), (
            p, seed, a.history_view(p)[-3:], a.phase)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_m28_twin_truths_give_byte_identical_worlds(players: int) -> None:
    """M28: for twin truths -- a card dealt, bought or looked at by another player, then
    the same moves -- ``determinize(p, seed)`` gives the same bytes: no field (the last
    action, the card a Grand stratège looks at or took, the hands, the pile) keeps the
    truth p has not seen.  Over random positions, with cards and recruitment."""
    kinds = {"deal": 0, "buy": 0, "look": 0}
    games = [ArmadaGame(players, cards=True, recruitment=True, max_rounds=4,
                        reaction_windows=policy) for policy in ("every_action", "turn_start")]
    for game_seed in range(6):
        rng = random.Random(1000 * players + game_seed)
        state = games[game_seed % 2].new_game(seed=game_seed, auto_chance=False)
        branches = 0
        seeded = False
        while state.current_player != TERMINAL and branches < 10:
            if state.phase == "turn" and not seeded:
                seed_gold(state)
                seeded = True
            if state.current_player == CHANCE and state.phase in ("deal", "draw"):
                last = state.history_view(None)[-1][1] if state.phase == "draw" else ""
                reason = ("deal" if state.phase == "deal" else
                          "look" if last in ("play strategist", "look") else "buy")
                twins = twin_draws(state)
                if (twins is not None and twins[2] and rng.random() < 0.5
                        and (reason != "deal" or kinds["deal"] < 2 * (game_seed + 1))):
                    branches += 1
                    kinds[reason] += 1
                    a, b, unseen = twins
                    for _ in range(25):
                        for p in unseen:
                            if blind(a, b, p):
                                check_worlds(a, b, p, (branches, 7))
                        if a.current_player == TERMINAL or not common_step(a, b, rng):
                            break
            step(state, rng)
    assert all(kinds.values()), kinds        # every kind of hidden draw was tried


def test_m28_world_of_a_grand_strategist_look_hides_the_card() -> None:
    """M28: while another player looks at a card with a Grand stratège, and after he
    takes it, the world neither names the card in its last action nor keeps it as the
    card looked at."""
    state = new(4, cards=True, reaction_windows="off", deal=["strategist"] + ["dope"] * 7)
    state.apply("play strategist")
    a, b = state.copy(), state.copy()
    a.apply("draw attack_weapon")
    b.apply("draw gold_mine")
    assert a.phase == b.phase == "look"
    for p in (1, 2, 3):
        assert blind(a, b, p)
        check_worlds(a, b, p, (1, 2, 3))
    a.apply("take")
    b.apply("take")
    for p in (1, 2, 3):
        assert blind(a, b, p)
        check_worlds(a, b, p, (4, 5))
    # the player who looked keeps what he saw
    world = a.determinize(0, 9)
    assert world.view(0)["players"][0]["hand"] == a.view(0)["players"][0]["hand"]


@pytest.mark.parametrize("policy", ["every_action", "turn_start"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_m4_windows_ask_the_same_players_whoever_holds_a_coup_de_main(
        players: int, policy: str) -> None:
    """M4: who is asked, when and in what order depends on public information only: two
    games dealt differently (one player holding Coup de main cards or not, the hand
    sizes the same) ask the same players at every step when the same moves are played
    and every window declined."""
    n = 2 * players
    for seed in range(3):
        rng = random.Random(seed)
        holder = rng.randrange(players)
        deal_a = ["dope"] * n
        deal_b = ["dope"] * n
        deal_a[2 * holder] = deal_a[2 * holder + 1] = "coup_de_main"
        a = new(players, cards=True, max_rounds=3, reaction_windows=policy, deal=deal_a)
        b = new(players, cards=True, max_rounds=3, reaction_windows=policy, deal=deal_b)
        asked = 0
        for _ in range(600):
            assert (a.current_player, a.phase) == (b.current_player, b.phase)
            if a.current_player == TERMINAL:
                break
            watcher = (holder + 1) % players
            assert a.view(watcher) == b.view(watcher)
            asked += a.phase == "coup"
            if a.phase == "coup":
                a.apply("decline")
                b.apply("decline")
                continue
            moves = [m for m in a.legal_moves()
                     if not str(m).startswith(("play", "buy"))] if a.current_player != CHANCE \
                else None
            if moves is None:
                common_step(a, b, rng)
            else:
                move = rng.choice(moves)
                a.apply(move)
                b.apply(move)
        assert asked > 0


def _at_a_draw(seed: int) -> ArmadaState:
    """A two-player card game at a card green buys (chance), both hands dealt."""
    game = ArmadaGame(players=2, cards=True)
    text = """armada position
territory gn1: flag=green green=5 gold=2
territory rs1: flag=raspberry raspberry=3
territory bl1: flag=blue blue=3
territory or1: flag=orange orange=3
hand 0: attack_weapon=1 dope=1
hand 1: shipyard=1 gold_mine=1
phase: draw
draw: buy 0
actions: 8
"""
    return game.position(text, seed=seed, auto_chance=False)


def test_odds_of_a_draw_as_a_player_sees_them_count_his_unseen_cards() -> None:
    from boardrules._ext.armada import CARD_KINDS

    state = _at_a_draw(2)
    r = raw(state)
    for viewer in (0, 1):
        other = r["hand"][1 - viewer]
        unseen = [d + h for d, h in zip(r["deck"], other, strict=True)]
        odds = {str(m): p for m, p in state.chance_outcomes(viewer=viewer)}
        assert odds == {f"draw {CARD_KINDS[k]}": n / sum(unseen)
                        for k, n in enumerate(unseen) if n}
    truth = {str(m): p for m, p in state.chance_outcomes()}
    assert truth == {f"draw {CARD_KINDS[k]}": n / sum(r["deck"])
                     for k, n in enumerate(r["deck"]) if n}


def test_odds_of_a_draw_are_equal_for_twins_the_viewer_cannot_tell_apart() -> None:
    state = _at_a_draw(5)
    r = raw(state)
    opponent = 1 - state.game._core.export(state._core)["drawer"]
    viewer = 1 - opponent
    held = next(k for k, n in enumerate(r["hand"][opponent]) if n)
    other = next(k for k, n in enumerate(r["deck"]) if n and k != held)
    twin_raw = {key: value for key, value in r.items()
                if key not in ("pool", "supply_gold", "supply_natives", "flags_used", "deck",
                               "in_victory")}
    twin_raw["hand"] = [list(h) for h in r["hand"]]
    twin_raw["hand"][opponent][held] -= 1
    twin_raw["hand"][opponent][other] += 1
    game = state.game
    twin = game.position(game._position_text(twin_raw), auto_chance=False)
    assert twin.view(viewer)["players"] == state.view(viewer)["players"]
    assert twin.chance_outcomes(viewer=viewer) == state.chance_outcomes(viewer=viewer)
    assert twin.chance_outcomes() != state.chance_outcomes()
