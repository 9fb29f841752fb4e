"""Rome & Carthage: a refused placement names the rule it really breaks ("Turns 1 and 2"):
the city of another's empire, a city already held, a kind with none left, or the turn's
quota of four -- the core says only ``place_not_allowed`` for all four."""

from __future__ import annotations

import random

import pytest

import boardrules
from boardrules.errors import IllegalMoveError
from boardrules.games.rome_and_carthage import RomeCarthageState


def _placing(moves: list[str], seed: int = 11) -> RomeCarthageState:
    """Player 0 (Rome and Alexandria) places ``moves``; whenever it is player 1's turn,
    he places on the first city he may."""
    state = boardrules.load("rome_and_carthage").new_game(seed=seed)
    assert isinstance(state, RomeCarthageState)
    for move in moves:
        state.apply(move, player=0)
        while state.current_player == 1:
            state.apply(state.legal_moves()[0], player=1)
    assert state.current_player == 0
    return state


def _refusal(state: RomeCarthageState, move: str) -> IllegalMoveError:
    before = state.to_json()
    with pytest.raises(IllegalMoveError) as refused:
        state.apply(move, player=0)
    assert state.to_json() == before  # refused, nothing changed
    return refused.value


def test_a_fourth_infantry_is_refused_for_none_left_not_for_the_city() -> None:
    """U7, seed 11: with Alexandria's three infantry placed, infantry@gaza was refused
    as if gaza were not Alexandria's empty city."""
    state = _placing(["infantry@alexandria", "infantry@pelusium", "infantry@memphis"])
    error = _refusal(state, "infantry@gaza")
    assert error.rule == "place_none_left"
    assert "Alexandria has no infantry left to place: its 3 infantry are on the board" \
        in str(error)
    state.apply("galley@gaza", player=0)  # the city was free all along


def test_a_placement_on_another_empire_names_its_owner() -> None:
    error = _refusal(_placing([]), "infantry@carthago")
    assert error.rule == "place_not_own_city"
    assert "carthago is a city of Carthage, which player 1 plays" in str(error)
    assert "player 0: Rome and Alexandria" in str(error)


def test_a_placement_on_a_held_city_names_what_holds_it() -> None:
    error = _refusal(_placing(["galley@roma"]), "infantry@roma")
    assert error.rule == "place_city_taken"
    assert "roma already holds Rome's galley" in str(error)


def test_a_fifth_army_in_turn_one_is_refused_for_the_quota() -> None:
    state = _placing(["infantry@alexandria", "infantry@pelusium", "galley@memphis",
                      "chariot@gaza"])
    error = _refusal(state, "elephant@tyrus")
    assert error.rule == "place_quota_done"
    assert "Alexandria has placed its 4 armies of turn 1" in str(error)
    state.apply("elephant@capua", player=0)  # Rome still places


def test_the_single_armies_say_is_on_the_board() -> None:
    state = _placing(["elephant@roma"])
    error = _refusal(state, "elephant@capua")
    assert "Rome has no elephant left to place: its 1 elephant is on the board" in str(error)


def test_every_placement_refusal_key_is_a_listed_reason() -> None:
    game = boardrules.load("rome_and_carthage")
    for key in ("place_not_own_city", "place_city_taken", "place_none_left",
                "place_quota_done"):
        assert key in game.illegal_reasons


# --- moves: "3. Move a piece" (the core says only "unreachable") ---

MOVE_CAUSES = ("move_out_of_reach", "move_through_enemy", "move_into_battle",
               "move_onto_friend")


def _refused_moves(seed: int, options: dict[str, object]) -> list[tuple[
        RomeCarthageState, str, IllegalMoveError]]:
    """Through a random game: at every eighth step, each army's move to every city that
    the rules refuse for where it goes (not for whose army it is or the phase)."""
    game = boardrules.load("rome_and_carthage", **options)
    keys = [c.key for c in game.board.cities]
    state = game.new_game(seed=seed)
    assert isinstance(state, RomeCarthageState)
    rng = random.Random(seed)
    found = []
    for step in range(400):
        if state.is_terminal():
            break
        if step % 8 == 0 and state.current_player >= 0:
            legal = {str(m) for m in state.legal_moves()}
            raw = state._raw()
            for src, code in enumerate(raw["army"]):
                passing = raw["transit"] >= 0 and raw["transit_city"] == src
                if code < 0 and not passing:
                    continue
                for dst in keys:
                    text = f"{keys[src]}-{dst}"
                    if dst == keys[src] or text in legal:
                        continue
                    try:
                        state.apply(text)
                    except IllegalMoveError as error:
                        if error.rule in (*MOVE_CAUSES, "unreachable"):
                            found.append((state.copy(), text, error))
        state.apply(rng.choice(state.legal_moves()))
    return found


@pytest.mark.parametrize("options", [{}, {"players": 4, "variant": "rapid_conquest"}],
                         ids=["standard", "rapid_conquest"])
def test_every_refused_move_names_its_cause(options: dict[str, object]) -> None:
    """Each move the core refused as "unreachable" is told apart: nothing is left to the
    catch-all, and what each message claims holds on the board."""
    refused = _refused_moves(1, options)
    rules = {error.rule for _, _, error in refused}
    assert "unreachable" not in rules
    assert {"move_out_of_reach", "move_onto_friend"} <= rules
    for state, text, error in refused:
        src, dst = text.split("-")
        game = state.game
        land = {frozenset((game.city_key(a), game.city_key(b))) for a, b in game.board.land}
        sea = {frozenset((game.city_key(a), game.city_key(b))) for a, b in game.board.sea}
        view = {e["city"]: e for e in state.view(None)["cities"]}
        kind = str(error).split(" on ")[0].split()[-1]  # "the Rome galley on ..."
        if error.rule == "move_out_of_reach":
            assert frozenset((src, dst)) not in (sea if kind == "galley" else land)
            assert f"{kind} on {src} moves " in str(error)
            assert f"{dst} is out of its reach" in str(error)
        elif error.rule == "move_into_battle":
            assert view[dst]["attacker"] is not None
        elif error.rule == "move_onto_friend":
            assert view[dst]["army"] is not None and "a friend" in str(error)
        elif error.rule == "move_through_enemy":
            assert kind == "chariot" and "held by the enemy" in str(error)
