"""Albion: tests named after the rules of the rule text (shared/rules/albion.txt), section
by section, written from the text; the readings A1..A16 of the docs page each have their
test, and the text's four worked examples are golden tests.

Positions are played on the small test board of ``tests/albion_helpers.py`` or staged by
editing the position (``stage_position``: the core's checked ``load``; kept consistent:
fortress stages I/II match the neutral markers held, face-up Picts come out of the
unrevealed pool).  Staging happens at player
0's first turn; ``end`` passes turns when a fresh turn (its movement points) is needed.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from albion_helpers import (
    TEST_BOARD,
    building,
    edit,
    figures,
    give,
    legal,
    new_game,
    play,
    raw,
)

from boardrules import CHANCE, IllegalMoveError, InvalidOptionError, Termination
from boardrules.games.albion import AlbionGame, AlbionState
from boardrules.games.albion.game import ILLEGAL_REASONS
from boardrules.testing import assert_illegal

NEUTRAL = 24


# ------------------------------------------------------------------ staging helpers


def neutral(state: AlbionState, player: int, held: int) -> None:
    """``player`` holds ``held`` neutral markers (the supply gives or takes them)."""
    r = raw(state)
    edit(state, "neutral", held, player)
    edit(state, "neutral_supply", r["neutral_supply"] + r["neutral"][player] - held)


def reveal(state: AlbionState, region: str, n: int) -> None:
    """``n`` face-down assault Picts of ``region`` already turned face up."""
    r = raw(state)
    i = key_index(region)
    edit(state, "face_down", r["face_down"][i] - n, region)
    edit(state, "face_up", r["face_up"][i] + n, region)
    edit(state, "pool_assault", r["pool_assault"] - n)


def move_picts(state: AlbionState, src: str, dst: str, n: int | None = None) -> None:
    """Move face-down Picts from ``src`` to ``dst`` (all of them by default)."""
    r = raw(state)
    a, b = key_index(src), key_index(dst)
    n = r["face_down"][a] if n is None else n
    edit(state, "face_down", r["face_down"][a] - n, src)
    edit(state, "face_down", r["face_down"][b] + n, dst)


def key_index(region: str) -> int:
    return [r["key"] for r in TEST_BOARD["regions"]].index(region)


def res(state: AlbionState, player: int) -> dict[str, int]:
    return dict(state.view(None)["players"][player]["resources"])


def stage(state: AlbionState, region: str, player: int) -> tuple[str, int]:
    r = raw(state)
    i = key_index(region)
    types = ("", "settlement", "fortress", "rampart", "plant")
    return types[r["btype"][i][player]], r["bstage"][i][player]


def settlers(state: AlbionState, region: str, player: int) -> int:
    return int(raw(state)["settlers"][key_index(region)][player])


def legions(state: AlbionState, region: str, player: int) -> int:
    return int(raw(state)["legions"][key_index(region)][player])


def face_down(state: AlbionState, region: str) -> int:
    return int(raw(state)["face_down"][key_index(region)])


def consistent(state: AlbionState) -> None:
    bad = {k: v for k, v in state.invariants().items() if v[0] != v[1]}
    assert not bad, bad


def fresh_turn(state: AlbionState, player: int) -> None:
    """End turns until ``player``'s turn starts (his movement points from his markers)."""
    state.apply("end")
    while raw(state)["turn_player"] != player:
        state.apply("end")
    assert state.current_player == player and state.phase == "move"


def game(players: int = 2, **options: Any) -> AlbionState:
    return AlbionGame(players, board=TEST_BOARD, **options).new_game(seed=1,
                                                                     auto_chance=False)


# ------------------------------------------------------------------ Contents


def test_contents_84_resources_24_fish_22_wood_20_stone_18_gold() -> None:
    for players in (2, 3, 4):
        state = new_game(players)
        r = raw(state)
        for k, total in enumerate((24, 22, 20, 18)):
            assert r["supply"][k] + sum(row[k] for row in r["res"]) == total
        consistent(state)


def test_contents_28_movement_markers_24_neutral() -> None:
    state = new_game(3)
    # one neutral marker each for the starting fortress I
    assert raw(state)["neutral_supply"] == NEUTRAL - 3
    assert [p["movement"] for p in state.view(None)["players"]] == [2, 2, 2]


def test_contents_two_ramparts_per_colour() -> None:
    state = new_game(2)
    figures(state, "moor", 0, settlers=1)
    building(state, "hill", 0, "rampart", 1)     # his second (the first is in port)
    assert "build rampart moor" not in legal(state)
    assert_illegal(state, "build rampart moor", "no_token_left")
    assert "build fortress moor" in legal(state)


def test_contents_three_settlements_and_three_fortresses_per_colour() -> None:
    state = new_game(2)
    figures(state, "crag", 0, settlers=1)
    for r in ("moor", "hill", "peak"):
        building(state, r, 0, "settlement", 1)
    building(state, "eastgate", 0, "fortress", 1)
    building(state, "glade", 0, "fortress", 1)   # with westgate's: three fortresses
    neutral(state, 0, 3)
    consistent(state)
    assert_illegal(state, "build settlement crag", "no_token_left")
    assert_illegal(state, "build fortress crag", "no_token_left")
    assert legal(state) >= {"build rampart crag"}


def test_contents_four_settlers_three_legionnaires() -> None:
    state = new_game(2)
    view = state.view(None)["players"][0]
    assert (view["settlers_in_supply"], view["legions_in_supply"]) == (3, 3)


# ------------------------------------------------------------------ Preparation


@pytest.mark.parametrize(("players", "assault", "peace", "sums"), [
    (2, 18 - 2, 17 - 7, {"moor": 6, "hill": 6, "crag": 4, "peak": 4, "glen": 4}),
    (3, 18 - 2, 17 - 3, {"moor": 7, "hill": 7, "crag": 5, "peak": 5, "glen": 4}),
    (4, 18, 17, {"moor": 8, "hill": 8, "crag": 6, "peak": 6, "glen": 5}),
])
def test_preparation_picts_removed_by_player_count_and_placed_by_stone_markers(
        players: int, assault: int, peace: int, sums: dict[str, int]) -> None:
    state = new_game(players)
    picts = state.view(None)["picts"]
    assert (picts["assault_unrevealed"], picts["peace_unrevealed"]) == (assault, peace)
    # "There will be 2 unused Picts, which the players return face-down to the box"
    assert picts["unrevealed"] == sum(sums.values()) + 2
    for region in state.view(None)["regions"]:
        assert region["face_down"] == sums.get(region["region"], 0), region["region"]
        assert region["assault"] == 0


def test_preparation_starting_plants_rampart_and_settler() -> None:
    state = new_game(3)
    for p in range(3):
        assert stage(state, "fishery", p) == ("plant", 1)
        assert stage(state, "forest", p) == ("plant", 1)
        assert stage(state, "port", p) == ("rampart", 1)
        assert settlers(state, "port", p) == 1
        assert state.production(p) == {"fish": 1, "wood": 1, "stone": 0, "gold": 0}


@pytest.mark.parametrize("first", [0, 1, 3])
def test_preparation_resources_by_seat_from_the_start_player(first: int) -> None:
    state = game(4, first_player=first)
    for seat in range(4):
        p = (first + seat) % 4
        assert res(state, p) == {"fish": 3, "wood": 1 + seat, "stone": 0, "gold": 0}
    assert state.view(None)["players"][first]["start_player"]


def test_preparation_fortresses_in_turn_order_in_the_start_regions_only() -> None:
    state = game(3, first_player=1)
    assert state.phase == "setup"
    order = []
    for region in ("eastgate", "westgate", "eastgate"):
        order.append(state.current_player)
        assert legal(state) == {"fortress westgate", "fortress eastgate"}
        assert_illegal(state, "fortress moor", "setup_fortress")
        assert_illegal(state, "fortress port", "setup_fortress")
        state.apply(f"fortress {region}")
    assert order == [1, 2, 0]
    assert stage(state, "eastgate", 1) == ("fortress", 1)
    assert stage(state, "westgate", 2) == ("fortress", 1)
    assert stage(state, "eastgate", 0) == ("fortress", 1)
    assert raw(state)["neutral"] == [1, 1, 1]          # "also takes a neutral marker"
    # "The start player begins"
    assert state.phase == "move" and state.current_player == 1
    assert_illegal(state, "fortress westgate", "setup_over")
    consistent(state)


# ------------------------------------------------------------------ Playing the Game


def test_turn_is_a_or_b_take_resources_is_the_whole_turn() -> None:
    state = new_game(2)
    assert {"resources", "end", "settler port-westgate"} <= legal(state)
    play(state, "resources")
    assert state.current_player == 1 and state.phase == "move"
    assert res(state, 0) == {"fish": 4, "wood": 2, "stone": 0, "gold": 0}


def test_turn_a_movement_excludes_take_resources() -> None:
    state = new_game(2)
    play(state, "settler port-westgate")
    assert_illegal(state, "resources", "resources_not_now")


def test_turns_follow_clockwise_from_the_start_player() -> None:
    state = new_game(3, fortresses=(), first_player=2)
    seen = []
    for _ in range(4):
        seen.append(state.current_player)
        state.apply("end")
    assert seen == [2, 0, 1, 2]
    assert state.view(None)["round"] == 2


# ------------------------------------------------------------------ Movement Rules


def test_movement_points_equal_movement_markers() -> None:
    state = new_game(2)
    assert state.view(0)["points_left"] == 2                 # "each player has two"
    assert "settler port-moor" in legal(state)               # 2 boundaries
    assert_illegal(state, "settler port-glade", "not_enough_points")   # 3 boundaries
    building(state, "eastgate", 1, "fortress", 2)
    neutral(state, 1, 3)
    fresh_turn(state, 1)
    assert state.view(1)["points_left"] == 4
    assert "settler port-crag" in legal(state)                # 4 boundaries


def test_movement_boundary_costs_shared_among_figures() -> None:
    state = new_game(2)
    edit(state, "points", 4)
    figures(state, "moor", 0, legions=1)
    play(state, "settler port-westgate")
    assert state.view(0)["points_left"] == 3
    play(state, "settler westgate-moor", "legion moor-hill")
    assert state.view(0)["points_left"] == 1
    play(state, "legion hill-eastgate")
    assert legions(state, "eastgate", 0) == 1 and settlers(state, "moor", 0) == 1


def test_movement_never_across_the_sea() -> None:
    """The fishery and the moor face each other across the sea: by land it is 3."""
    state = new_game(2)
    figures(state, "port", 0, settlers=0)
    figures(state, "fishery", 0, settlers=1)
    assert_illegal(state, "settler fishery-moor", "not_enough_points")
    edit(state, "points", 3)
    play(state, "settler fishery-moor")
    assert state.view(0)["points_left"] == 0


def test_movement_only_own_figures() -> None:
    state = new_game(2)
    figures(state, "moor", 1, settlers=1, legions=1)
    assert_illegal(state, "settler moor-westgate", "no_settler_there")
    assert_illegal(state, "legion moor-westgate", "no_legion_there")


def test_movement_need_not_use_all_points_and_regions_hold_any_number() -> None:
    state = new_game(2)
    figures(state, "port", 0, settlers=3)
    play(state, "settler port-westgate")
    assert state.view(0)["points_left"] == 1
    play(state, "end")
    assert state.current_player == 1
    figures(state, "port", 1, settlers=4)
    assert settlers(state, "port", 1) == 4 and settlers(state, "port", 0) == 2


def test_a_settler_that_does_not_build_stays_and_moves_later() -> None:
    state = new_game(2)
    play(state, "settler port-moor", "end")
    assert settlers(state, "moor", 0) == 1
    fresh_turn(state, 0)
    assert "settler moor-glade" in legal(state)
    play(state, "settler moor-glade")
    assert settlers(state, "glade", 0) == 1


def test_movement_comes_before_building() -> None:
    state = new_game(2)
    figures(state, "port", 0, settlers=2)
    figures(state, "westgate", 0, settlers=1)
    give(state, 0, fish=3, wood=2)
    play(state, "develop westgate")          # the one payment (fish+wood) is forced
    assert state.phase == "build" and stage(state, "westgate", 0) == ("fortress", 2)
    assert_illegal(state, "settler port-eastgate", "movement_over")


# ------------------------------------------------------------------ Legionnaires


def test_legionnaire_carries_a_face_down_pict_without_turning_it() -> None:
    state = new_game(2)
    figures(state, "moor", 0, legions=1)
    before = state.view(None)["picts"]
    play(state, "carry moor-hill")
    assert (face_down(state, "moor"), face_down(state, "hill")) == (5, 7)
    assert legions(state, "hill", 0) == 1
    assert state.view(None)["picts"] == before
    consistent(state)


def test_legionnaire_does_not_carry_face_up_picts() -> None:
    state = new_game(2)
    figures(state, "crag", 0, legions=1)
    reveal(state, "crag", 1)
    move_picts(state, "crag", "peak")
    consistent(state)
    assert_illegal(state, "carry crag-peak", "no_pict_to_carry")
    assert "legion crag-peak" in legal(state)


def test_a6_carry_drops_in_dark_regions_only() -> None:
    """Not into light-green or resource regions, but through them; into any dark-green
    region, a Pict-free starting region included; one Pict a carry, always dropped."""
    state = new_game(2)
    figures(state, "moor", 0, legions=1)
    assert_illegal(state, "carry moor-glade", "pict_drop_forbidden")
    assert_illegal(state, "carry moor-fishery", "pict_drop_forbidden")
    assert_illegal(state, "carry moor-port", "pict_drop_forbidden")
    assert "carry moor-westgate" in legal(state) and "carry moor-hill" in legal(state)
    # moor - glade - crag: only through the light-green glade
    play(state, "carry moor-crag")
    assert (face_down(state, "moor"), face_down(state, "crag")) == (5, 5)
    assert state.view(0)["points_left"] == 0
    state = new_game(2)
    figures(state, "moor", 0, legions=1)
    play(state, "carry moor-westgate")
    assert face_down(state, "westgate") == 1 and face_down(state, "moor") == 5
    assert legions(state, "westgate", 0) == 1
    # carrying again from the westgate (its Pict) back into the moor
    play(state, "carry westgate-moor")
    assert face_down(state, "westgate") == 0 and face_down(state, "moor") == 6
    consistent(state)


def test_example_1_legionnaire_carries_two_picts() -> None:
    """Christian (seat 1) has 4 movement points: his legionnaire carries Pict A over a
    boundary, moves alone over the next one to Pict B and carries it into the field where
    it put Pict A (3 points); his fourth moves a settler over one boundary."""
    state = new_game(2)
    building(state, "eastgate", 1, "fortress", 2)     # with westgate's I: 3 markers
    neutral(state, 1, 3)
    figures(state, "crag", 1, legions=1)
    consistent(state)
    fresh_turn(state, 1)
    assert state.view(1)["players"][1]["movement"] == 4
    assert state.view(1)["points_left"] == 4
    play(state, "carry crag-peak")                  # Pict A
    play(state, "legion peak-glen")                 # alone, to Pict B
    play(state, "carry glen-peak")                  # Pict B into Pict A's field
    assert state.view(1)["points_left"] == 1
    assert (face_down(state, "crag"), face_down(state, "peak"),
            face_down(state, "glen")) == (3, 6, 3)
    assert state.view(None)["picts"]["unrevealed"] == 26    # nothing turned over
    play(state, "settler port-westgate")
    assert state.view(1)["points_left"] == 0 and settlers(state, "westgate", 1) == 1
    assert legions(state, "peak", 1) == 1
    consistent(state)


# ------------------------------------------------------------------ Building


def test_building_needs_own_settler_in_the_region() -> None:
    state = new_game(2)
    figures(state, "moor", 1, settlers=1)               # the other player's settler
    assert_illegal(state, "build settlement moor", "no_free_settler")
    figures(state, "moor", 0, settlers=1)
    assert "build settlement moor" in legal(state)


def test_building_one_building_per_region() -> None:
    state = new_game(2)
    figures(state, "westgate", 0, settlers=1)
    assert_illegal(state, "build rampart westgate", "one_building_per_region")
    assert "develop westgate" in legal(state)
    # another player's building in the region does not stop his own
    figures(state, "eastgate", 0, settlers=1)
    building(state, "eastgate", 1, "fortress", 1)
    neutral(state, 1, 2)
    assert "build fortress eastgate" in legal(state)


def test_building_several_settlers_in_one_region_each_build() -> None:
    state = new_game(2)
    figures(state, "westgate", 0, settlers=2)
    give(state, 0, fish=3, wood=3, stone=3, gold=1)
    play(state, "develop westgate", "pay fish+wood")
    assert stage(state, "westgate", 0) == ("fortress", 2)
    assert state.current_player == 0 and "develop westgate" in legal(state)
    play(state, "develop westgate", "pay fish+wood+stone")
    assert stage(state, "westgate", 0) == ("fortress", 3)
    assert settlers(state, "westgate", 0) == 0 and settlers(state, "port", 0) == 3


def test_building_order_chosen_by_the_player() -> None:
    state = new_game(2)
    figures(state, "westgate", 0, settlers=1)
    figures(state, "eastgate", 0, settlers=1)
    give(state, 0, fish=3, wood=3)
    assert {"develop westgate", "build fortress eastgate"} <= legal(state)
    play(state, "build fortress eastgate", "pay wood")  # eastgate first
    assert stage(state, "eastgate", 0) == ("fortress", 1)
    assert "develop westgate" in legal(state)


def test_building_developing_puts_one_stage_on_top() -> None:
    state = new_game(2)
    figures(state, "westgate", 0, settlers=1)
    give(state, 0, fish=1, wood=1)
    play(state, "develop westgate")
    assert stage(state, "westgate", 0) == ("fortress", 2)
    building(state, "crag", 0, "fortress", 3)
    building(state, "peak", 0, "settlement", 4)
    figures(state, "crag", 0, settlers=1)
    figures(state, "peak", 0, settlers=1)
    give(state, 0, fish=1, wood=1, stone=1, gold=1)
    fresh_turn(state, 0)
    # fortresses go to stage III, settlements to IV, no further
    assert_illegal(state, "develop crag", "fully_developed")
    assert_illegal(state, "develop peak", "fully_developed")


@pytest.mark.parametrize(("stage_to", "held", "options"), [
    (1, {"fish": 1, "gold": 1}, {"pay fish", "pay gold"}),
    (2, {"fish": 1, "wood": 1, "stone": 1},
     {"pay fish+wood", "pay fish+stone", "pay wood+stone"}),
    (3, {"fish": 2, "wood": 1, "stone": 1, "gold": 1},
     {"pay fish+wood+stone", "pay fish+wood+gold", "pay fish+stone+gold",
      "pay wood+stone+gold"}),
])
def test_building_costs_by_stage_and_the_payment_choices(
        stage_to: int, held: dict[str, int], options: set[str]) -> None:
    state = new_game(2)
    figures(state, "glade", 0, settlers=1)
    if stage_to > 1:
        building(state, "glade", 0, "rampart", stage_to - 1)
    give(state, 0, **{k: held.get(k, 0) for k in ("fish", "wood", "stone", "gold")})
    state.apply("develop glade" if stage_to > 1 else "build settlement glade")
    assert state.phase == "pay" and legal(state) == options
    before = sum(raw(state)["supply"])
    choice = sorted(options)[0]
    state.apply(choice)
    # "The resources go back into the supply" (no tribute in a light-green region)
    assert sum(raw(state)["supply"]) == before + stage_to
    assert sum(res(state, 0).values()) == sum(held.values()) - stage_to
    consistent(state)


def test_building_stage_four_costs_one_of_each_kind() -> None:
    state = new_game(2)
    building(state, "glade", 0, "settlement", 3)
    figures(state, "glade", 0, settlers=1)
    give(state, 0, fish=3, wood=3, stone=3, gold=0)
    assert "develop glade" not in legal(state)
    assert_illegal(state, "develop glade", "cannot_pay")
    give(state, 0, fish=3, wood=3, stone=3, gold=1)
    play(state, "develop glade")             # the only payment: forced, not asked
    assert res(state, 0) == {"fish": 2, "wood": 2, "stone": 2, "gold": 0}
    assert stage(state, "glade", 0) == ("settlement", 4)


def test_building_stage_two_needs_two_different_resources() -> None:
    state = new_game(2)
    figures(state, "westgate", 0, settlers=1)
    figures(state, "moor", 0, settlers=1)
    give(state, 0, fish=3, wood=0)
    assert_illegal(state, "develop westgate", "cannot_pay")
    assert "build settlement moor" in legal(state)        # stage I: 1 of any
    give(state, 0, fish=0, wood=0)
    assert_illegal(state, "build settlement moor", "cannot_pay")


def test_building_a_payment_must_match_the_stage() -> None:
    state = new_game(2)
    figures(state, "glade", 0, settlers=1)
    give(state, 0, fish=2, wood=2)
    play(state, "build settlement glade")
    assert_illegal(state, "pay fish+wood", "payment_not_allowed")
    assert_illegal(state, "pay stone", "payment_not_allowed")
    assert_illegal(state, "end", "pay_pending")


def test_settler_returns_to_the_launching_field_and_rests_this_round() -> None:
    state = new_game(2)
    figures(state, "glade", 0, settlers=1)
    give(state, 0, fish=3, wood=3)
    play(state, "build settlement glade", "pay fish", "take legion")
    assert settlers(state, "glade", 0) == 0 and settlers(state, "port", 0) == 2
    # the port settler that did not build may still act; the returned one may not
    play(state, "develop port")              # fish+wood: the only payment left
    assert stage(state, "port", 0) == ("rampart", 2)
    assert state.current_player == 1       # no settler left to act: the turn is over
    fresh_turn(state, 0)
    # next round both settlers act again (one moves, the other could too)
    play(state, "settler port-westgate")
    assert "settler port-eastgate" in legal(state)


def test_plants_only_in_their_resource_region() -> None:
    state = new_game(2)
    figures(state, "quarry", 0, settlers=1)
    figures(state, "moor", 0, settlers=1)
    assert_illegal(state, "build plant moor", "wrong_region_for_building")
    assert_illegal(state, "build settlement quarry", "wrong_region_for_building")
    assert_illegal(state, "build rampart quarry", "wrong_region_for_building")
    assert "build plant quarry" in legal(state)
    play(state, "build plant quarry", "pay fish")
    assert stage(state, "quarry", 0) == ("plant", 1)
    assert state.production(0)["stone"] == 1


# ------------------------------------------------------------------ Tribute


def tribute_position(builder_stage: int, others: dict[int, int], players: int = 4,
                     region: str = "crag", **options: Any) -> AlbionState:
    """Player 0 builds stage ``builder_stage`` in ``region`` (ramparts); ``others``:
    player -> the stage of his settlement there.  The region's Picts are carried off
    first: it stays a tribute region ("the regions with Picts at the beginning of the
    game")."""
    state = new_game(players, **options)
    move_picts(state, region, "moor")
    figures(state, region, 0, settlers=1)
    if builder_stage > 1:
        building(state, region, 0, "rampart", builder_stage - 1)
    for p, s in others.items():
        building(state, region, p, "settlement", s)
    give(state, 0, fish=2, wood=2, stone=2, gold=2)
    state.apply("develop " + region if builder_stage > 1 else f"build fortress {region}")
    return state


def test_tribute_highest_stage_first_then_clockwise_at_most_one_each() -> None:
    state = tribute_position(2, {1: 2, 2: 4, 3: 3})
    start = {p: res(new_game(4), p) for p in range(4)}
    play(state, "pay wood+gold")
    assert state.phase == "tribute" and state.current_player == 2       # stage IV first
    assert legal(state) == {"tribute wood", "tribute gold"}
    play(state, "tribute gold")
    # player 3 (stage III) takes the wood left without being asked; player 1 gets none
    assert state.current_player == 0
    assert res(state, 2) == {**start[2], "gold": 1}
    assert res(state, 3) == {**start[3], "wood": start[3]["wood"] + 1}
    assert res(state, 1) == start[1]
    assert res(state, 0) == {"fish": 2, "wood": 1, "stone": 2, "gold": 1}
    consistent(state)


def test_tribute_equal_stages_clockwise_from_the_builder() -> None:
    state = game(4, first_player=2)
    for _ in range(4):
        state.apply("fortress westgate")
    move_picts(state, "crag", "moor")
    figures(state, "crag", 2, settlers=1)
    building(state, "crag", 2, "rampart", 1)
    for p in (0, 1, 3):
        building(state, "crag", p, "settlement", 2)
    give(state, 2, fish=1, wood=1)
    start = {p: res(state, p) for p in range(4)}
    play(state, "develop crag")             # pays fish+wood (forced)
    # seat 3 is next clockwise from the builder (seat 2): he picks, seat 0 gets the rest
    assert state.phase == "tribute" and state.current_player == 3
    play(state, "tribute wood")
    assert res(state, 3)["wood"] == start[3]["wood"] + 1
    assert res(state, 0)["fish"] == start[0]["fish"] + 1
    assert res(state, 1) == start[1]                     # none left for seat 1
    assert res(state, 2) == {"fish": 0, "wood": 0, "stone": 0, "gold": 0}
    consistent(state)


def test_tribute_none_left_for_later_takers() -> None:
    state = tribute_position(1, {1: 1, 2: 1, 3: 2})
    play(state, "pay fish")
    # one resource paid: the stage II owner takes it; the stage I owners get nothing
    assert state.current_player == 0
    assert res(state, 3)["fish"] == 4 and res(state, 1)["fish"] == 3
    assert res(state, 2)["fish"] == 3


def test_a5_tribute_to_stages_at_least_the_new_one() -> None:
    """Example 2's reading: a building of the same stage as the one being built takes
    (an existing stage I outranks a stage I being built), a lower one does not."""
    state = tribute_position(3, {1: 1, 2: 2, 3: 3})
    supply = raw(state)["supply"][:]
    play(state, "pay fish+wood+stone")
    # the stage III (equal to the new stage III) takes; stages I and II do not
    assert state.phase == "tribute" and state.current_player == 3
    play(state, "tribute stone")
    assert state.current_player == 0
    assert res(state, 3)["stone"] == 1
    assert res(state, 1) == res(new_game(4), 1) and res(state, 2) == res(new_game(4), 2)
    assert [a - b for a, b in zip(raw(state)["supply"], supply, strict=True)] == [1, 1, 0, 0]
    # an existing stage I outranks a stage I being built
    state = tribute_position(1, {1: 1})
    play(state, "pay gold")
    assert res(state, 1)["gold"] == 1


def test_example_2_tribute() -> None:
    """Sven (seat 0) develops his stage I rampart to II paying 1 fish and 1 wood;
    Christian (seat 1, settlement II) and Sebastian (seat 2, rampart III) take tribute,
    Sebastian first (the wood), Christian the fish; Klaus (seat 3, fortress I) none."""
    state = new_game(4)
    region = "hill"
    figures(state, region, 0, settlers=1)
    building(state, region, 0, "rampart", 1)
    building(state, region, 1, "settlement", 2)
    building(state, region, 2, "rampart", 3)
    building(state, region, 3, "fortress", 1)
    neutral(state, 3, 2)
    give(state, 0, fish=1, wood=1)
    start = {p: res(state, p) for p in range(4)}
    consistent(state)
    play(state, f"develop {region}")          # 1 fish + 1 wood, the only payment
    assert state.phase == "tribute" and state.current_player == 2
    assert legal(state) == {"tribute fish", "tribute wood"}
    assert_illegal(state, "tribute stone", "tribute_not_paid")
    assert_illegal(state, "end", "tribute_pending")
    play(state, "tribute wood")
    assert res(state, 2)["wood"] == start[2]["wood"] + 1
    assert res(state, 1)["fish"] == start[1]["fish"] + 1
    assert res(state, 3) == start[3]
    assert res(state, 0) == {"fish": 0, "wood": 0, "stone": 0, "gold": 0}
    # the Pict of the hill is turned over next; peace: the stage II is finished
    assert state.current_player == CHANCE
    play(state, "pict peace")
    assert stage(state, region, 0) == ("rampart", 2)
    consistent(state)


def test_no_tribute_in_the_launching_region() -> None:
    state = new_game(2)
    building(state, "port", 1, "rampart", 3)
    give(state, 0, fish=1, wood=1)
    play(state, "develop port")
    assert res(state, 1) == {"fish": 3, "wood": 2, "stone": 0, "gold": 0}
    assert stage(state, "port", 0) == ("rampart", 2)


def test_no_tribute_in_resource_regions() -> None:
    state = new_game(2)
    building(state, "quarry", 1, "plant", 3)
    figures(state, "quarry", 0, settlers=1)
    give(state, 0, fish=1, wood=0)
    play(state, "build plant quarry")
    assert res(state, 1) == {"fish": 3, "wood": 2, "stone": 0, "gold": 0}
    assert stage(state, "quarry", 0) == ("plant", 1)


def test_a1_no_tribute_in_the_starting_regions() -> None:
    """"Tribute must be paid only in the dark-green regions.  Those are the regions with
    Picts at the beginning of the game": the two starting regions have none, so nobody
    takes tribute there by default; ``start_region_tribute=True`` (a house reading) makes
    the starting fortress I of player 1 take its fish."""
    for options, paid in (({}, 0), ({"start_region_tribute": False}, 0),
                          ({"start_region_tribute": True}, 1)):
        state = new_game(2, fortresses=("eastgate", "westgate"), **options)
        assert state.game.options["start_region_tribute"] is bool(paid)
        assert stage(state, "westgate", 1) == ("fortress", 1)
        play(state, "settler port-westgate", "build rampart westgate")
        if state.phase == "pay":
            state.apply("pay fish")
        assert stage(state, "westgate", 0) == ("rampart", 1)
        assert res(state, 1)["fish"] == 3 + paid, options
        assert res(state, 0)["fish"] == 2
        consistent(state)
    # a dark-green region with Picts still pays it
    state = new_game(2)
    building(state, "hill", 1, "fortress", 1)
    neutral(state, 1, 2)
    figures(state, "hill", 0, settlers=1)
    give(state, 0, fish=1, wood=0)
    play(state, "build rampart hill")
    assert res(state, 1)["fish"] == 4
    consistent(state)


@pytest.mark.parametrize("value", [1, 0, "yes", None, 1.0])
def test_a1_start_region_tribute_must_be_a_bool(value: Any) -> None:
    with pytest.raises(InvalidOptionError, match="start_region_tribute must be a bool"):
        AlbionGame(2, board=TEST_BOARD, start_region_tribute=value)
    assert AlbionGame(2, board=TEST_BOARD).options["start_region_tribute"] is False


def test_a15_second_light_region_has_no_tribute_and_no_picts() -> None:
    for players in (2, 3, 4):
        assert face_down(new_game(players), "glade") == 0
    state = new_game(2)
    building(state, "glade", 1, "settlement", 3)
    figures(state, "glade", 0, settlers=1)
    figures(state, "moor", 0, legions=1)
    assert_illegal(state, "carry moor-glade", "pict_drop_forbidden")
    assert {"build settlement glade", "build fortress glade",
            "build rampart glade"} <= legal(state)
    play(state, "build settlement glade", "pay fish", "take settler")
    assert res(state, 1) == {"fish": 3, "wood": 2, "stone": 0, "gold": 0}
    assert stage(state, "glade", 0) == ("settlement", 1)


def test_a16_resource_regions_hold_only_their_plant() -> None:
    state = new_game(2)
    figures(state, "port", 0, settlers=0)
    for region in ("quarry", "mine", "moor", "glade"):      # his 4 settlers
        figures(state, region, 0, settlers=1)
    options = legal(state)
    assert {"build plant quarry", "build plant mine"} <= options
    for kind in ("settlement", "fortress", "rampart"):
        assert f"build {kind} quarry" not in options
        assert f"build {kind} mine" not in options
        assert f"build {kind} moor" in options and f"build {kind} glade" in options
    for region in ("moor", "glade"):
        assert f"build plant {region}" not in options
    state = new_game(2)
    building(state, "port", 0, "rampart", 0)                 # the port free to build on
    figures(state, "eastgate", 0, settlers=1)
    options = legal(state)
    for kind in ("settlement", "fortress", "rampart"):
        assert f"build {kind} eastgate" in options and f"build {kind} port" in options
    for region in ("eastgate", "port"):
        assert f"build plant {region}" not in options


def test_a16_a_settlement_in_the_launching_region_after_a_removal() -> None:
    """The launching region is a light-green region like the other: nothing in the text
    forbids a settlement there, but "Each player may have only one building in each
    region", so the starting rampart must go first (a removal); the settlement then pays
    no tribute ("not paid in the two light green ... regions"), turns no Pict over, and
    the settlers that come home after building develop it without moving."""
    state = new_game(2)
    assert_illegal(state, "build settlement port", "one_building_per_region")
    play(state, "remove port")
    assert stage(state, "port", 0) == ("", 0) and state.defence(0, "port") == 0
    assert state.current_player == 1                  # his one settler acted: turn over
    fresh_turn(state, 0)
    assert {"build settlement port", "build fortress port",
            "build rampart port"} <= legal(state)
    assert "build plant port" not in legal(state)
    before = res(state, 1)
    play(state, "build settlement port")
    if state.phase == "pay":
        state.apply("pay fish")
    assert stage(state, "port", 1) == ("rampart", 1)  # a building of the stage being built
    assert res(state, 1) == before                    # ... but no tribute here
    assert state.current_player != CHANCE             # no Pict in a light-green region
    assert state.phase == "figure"
    play(state, "take settler")
    assert stage(state, "port", 0) == ("settlement", 1)
    assert settlers(state, "port", 0) == 2
    # next round, the settlers at home develop it with no movement at all
    fresh_turn(state, 0)
    give(state, 0, fish=1, wood=1)
    assert state.view(0)["points_left"] == 2 and "develop port" in legal(state)
    play(state, "develop port")                       # fish+wood: the payment is forced
    assert state.phase == "figure"
    play(state, "take legion")
    assert stage(state, "port", 0) == ("settlement", 2)
    consistent(state)
    # a fortress III there launches nothing: its settlers are already there
    state = new_game(2)
    building(state, "port", 0, "fortress", 3)
    neutral(state, 0, 3)
    consistent(state)
    assert not any(m.startswith("launch") for m in legal(state))


# ------------------------------------------------------------------ 3) Turn Over a Pict


def reveal_position(region: str = "moor", players: int = 2) -> AlbionState:
    """Player 0 builds a settlement in ``region``, the Pict about to be turned over."""
    state = new_game(players)
    figures(state, region, 0, settlers=1)
    give(state, 0, fish=1, wood=0)
    play(state, f"build settlement {region}")
    assert state.current_player == CHANCE and state.phase == "reveal"
    return state


def odds(state: AlbionState) -> dict[str, float]:
    return {str(m): p for m, p in state.chance_outcomes()}


def test_pict_reveal_odds_from_the_unrevealed_pool_with_the_two_in_the_box() -> None:
    assert odds(reveal_position()) == pytest.approx(
        {"pict assault": 16 / 26, "pict peace": 10 / 26})
    assert odds(reveal_position(players=3)) == pytest.approx(
        {"pict assault": 16 / 30, "pict peace": 14 / 30})
    assert odds(reveal_position(players=4)) == pytest.approx(
        {"pict assault": 18 / 35, "pict peace": 17 / 35})
    # Picts already face up have left the pool; moving Picts does not change it
    state = new_game(2)
    reveal(state, "hill", 3)
    figures(state, "moor", 0, legions=1, settlers=1)
    play(state, "carry moor-westgate", "build settlement moor", "pay fish")
    assert odds(state) == pytest.approx({"pict assault": 13 / 23, "pict peace": 10 / 23})


def test_peace_pict_returns_to_the_box_and_the_building_is_finished() -> None:
    state = reveal_position()
    box = state.view(None)["picts"]["in_box"]
    play(state, "pict peace")
    view = state.view(None)
    assert view["picts"]["in_box"] == box + 1
    assert view["picts"]["peace_unrevealed"] == 9
    assert face_down(state, "moor") == 5 and raw(state)["face_up"][key_index("moor")] == 0
    assert stage(state, "moor", 0) == ("settlement", 1)
    consistent(state)


def test_assault_pict_stays_face_up_in_the_region() -> None:
    state = reveal_position("crag")
    play(state, "pict assault")
    region = state.view(None)["regions"][key_index("crag")]
    assert (region["face_down"], region["assault"]) == (3, 1)
    assert state.view(None)["picts"]["assault_unrevealed"] == 15
    # strength 1, defence 1 (the port rampart): repelled, the settlement is finished
    assert stage(state, "crag", 0) == ("settlement", 1)
    consistent(state)


def test_no_face_down_pict_no_assault() -> None:
    state = new_game(2)
    reveal(state, "crag", 3)
    move_picts(state, "crag", "peak")
    figures(state, "crag", 0, settlers=1)
    give(state, 0, fish=1, wood=0)
    play(state, "build settlement crag")
    # strength 3 face up against defence 1 -- but nothing is turned over
    assert state.current_player != CHANCE
    assert stage(state, "crag", 0) == ("settlement", 1)


def test_an_outcome_whose_pool_is_empty_is_illegal() -> None:
    state = new_game(2)
    for region, n in (("moor", 6), ("hill", 6), ("glen", 4)):
        reveal(state, region, n)
    consistent(state)
    assert raw(state)["pool_assault"] == 0
    figures(state, "crag", 0, settlers=1)
    give(state, 0, fish=1, wood=0)
    play(state, "build settlement crag")
    assert odds(state) == {"pict peace": 1.0}
    assert_illegal(state, "pict assault", "pict_pool_empty")
    assert_illegal(state, "end", "chance_expected")


def test_a_pict_outcome_is_not_a_players_move() -> None:
    state = new_game(2)
    assert_illegal(state, "pict peace", "not_chance")


# ------------------------------------------------------------------ Defending an Assault


def defence_position(region: str = "crag", picts_up: int = 2, players: int = 2
                     ) -> AlbionState:
    """Player 0 (port rampart raised to III: defence 3) will build a fortress I in
    ``region`` where ``picts_up`` assault Picts already lie face up; the next assault
    Pict makes the strength ``picts_up + 1`` (+ printed)."""
    state = new_game(players)
    reveal(state, region, picts_up)
    building(state, "port", 0, "rampart", 3)
    figures(state, region, 0, settlers=1)
    give(state, 0, fish=1, wood=0)
    return state


def build_and_assault(state: AlbionState, *moves: str) -> None:
    play(state, *moves)
    assert state.current_player == CHANCE, state.phase
    play(state, "pict assault")


@pytest.mark.parametrize(("here", "elsewhere", "rampart", "holds"), [
    (1, 0, 2, True),      # 1 legionnaire there + rampart II = 3
    (0, 2, 2, False),     # legionnaires elsewhere do not count: 2 < 3
    (0, 0, 3, True),      # a rampart III anywhere on the board
    (2, 1, 0, False),     # 2 < 3 (his rampart removed)
])
def test_defence_legionnaires_in_the_region_and_all_ramparts_on_the_board(
        here: int, elsewhere: int, rampart: int, holds: bool) -> None:
    state = defence_position()
    building(state, "crag", 1, "fortress", 2)
    neutral(state, 1, 3)
    figures(state, "crag", 1, legions=here)
    figures(state, "hill", 1, legions=elsewhere)
    building(state, "port", 1, "rampart", rampart)
    consistent(state)
    assert state.defence(1, "crag") == here + rampart
    build_and_assault(state, "build fortress crag")
    # "A player repels a Pict assault if ... equal to or higher than the attack strength"
    assert stage(state, "crag", 1) == ("fortress", 2 if holds else 1)
    assert raw(state)["neutral"][1] == (3 if holds else 2)   # fortress II's marker back
    assert stage(state, "crag", 0) == ("fortress", 1)        # 3 >= 3
    consistent(state)


def test_two_ramparts_fully_developed_defend_six() -> None:
    state = defence_position(picts_up=5, players=4)
    building(state, "glade", 0, "rampart", 3)
    assert state.view(None)["players"][0]["defence"] == 6
    build_and_assault(state, "build fortress crag")      # strength 6
    assert stage(state, "crag", 0) == ("fortress", 1)


def test_a12_printed_assault_picts_count_in_assaults() -> None:
    """The moor has 1 printed assault Pict: the first assault Pict turned there makes
    strength 2."""
    view = new_game(2).view(None)["regions"][key_index("moor")]
    assert view["printed_assault"] == 1
    state = defence_position("moor", picts_up=0)
    building(state, "port", 0, "rampart", 1)          # defence 1 < 1 + 1
    build_and_assault(state, "build fortress moor")
    assert stage(state, "moor", 0) == ("", 0)
    state = defence_position("moor", picts_up=0)
    building(state, "port", 0, "rampart", 2)          # defence 2 = 1 + 1
    build_and_assault(state, "build fortress moor")
    assert stage(state, "moor", 0) == ("fortress", 1)


def test_the_new_stage_does_not_defend_in_its_own_assault() -> None:
    """Example 3: "its new stage II is not valid yet": a new rampart I does not count."""
    state = defence_position(picts_up=1)
    building(state, "port", 0, "rampart", 1)          # defence 1 against strength 2
    build_and_assault(state, "build rampart crag")
    assert stage(state, "crag", 0) == ("", 0)
    assert raw(state)["count"][0][3] == 1             # the token back in his supply
    assert state.view(None)["players"][0]["defence"] == 1
    consistent(state)


def test_the_builder_loses_only_the_face_down_token() -> None:
    state = defence_position(picts_up=2)
    building(state, "port", 0, "rampart", 1)
    building(state, "crag", 0, "rampart", 2)          # defence 1 + 2 = 3 < 4
    reveal(state, "crag", 1)
    give(state, 0, fish=1, wood=1, stone=1)
    build_and_assault(state, "develop crag")
    assert stage(state, "crag", 0) == ("rampart", 2)
    assert res(state, 0) == {"fish": 0, "wood": 0, "stone": 0, "gold": 0}   # paid
    assert settlers(state, "port", 0) == 2 and settlers(state, "crag", 0) == 0
    consistent(state)


def test_a2_assault_reduces_the_building_in_the_region() -> None:
    """A loser's building IN the assaulted region loses its top stage, even when his
    highest-stage building stands elsewhere."""
    state = defence_position()
    building(state, "crag", 1, "rampart", 2)
    building(state, "port", 1, "rampart", 0)           # defence 2 < 3
    building(state, "hill", 1, "fortress", 3)          # higher, elsewhere
    neutral(state, 1, 3)
    consistent(state)
    build_and_assault(state, "build fortress crag")
    assert stage(state, "crag", 1) == ("rampart", 1)
    assert stage(state, "hill", 1) == ("fortress", 3)
    assert state.view(None)["players"][1]["defence"] == 1
    consistent(state)


def test_a_reduced_settlement_returns_a_figure_chosen_by_its_owner() -> None:
    state = defence_position()
    building(state, "crag", 1, "settlement", 2)
    building(state, "port", 1, "rampart", 0)
    figures(state, "hill", 1, legions=1)
    figures(state, "glen", 1, settlers=1)
    build_and_assault(state, "build fortress crag")
    assert state.phase == "loss" and state.current_player == 1
    assert legal(state) == {"return settler port", "return settler glen",
                            "return legion hill"}
    assert_illegal(state, "return legion glen", "no_figure_there")
    assert_illegal(state, "end", "loss_pending")
    play(state, "return legion hill")
    assert legions(state, "hill", 1) == 0 and stage(state, "crag", 1) == ("settlement", 1)
    assert state.view(None)["players"][1]["legions_in_supply"] == 3
    assert state.current_player == 0                  # the builder's turn goes on
    consistent(state)


def test_a_reduced_settlement_with_one_figure_returns_it_unasked() -> None:
    state = defence_position()
    building(state, "crag", 1, "settlement", 1)
    building(state, "port", 1, "rampart", 0)
    build_and_assault(state, "build fortress crag")
    assert stage(state, "crag", 1) == ("", 0)
    assert settlers(state, "port", 1) == 0            # his only figure
    assert state.current_player == 0


def test_a3_reduced_settlement_three_reduces_another_building() -> None:
    state = defence_position()
    building(state, "crag", 1, "settlement", 3)
    building(state, "port", 1, "rampart", 2)           # defence 2 < 3
    building(state, "eastgate", 1, "fortress", 2)      # II: a marker goes with it
    building(state, "hill", 1, "settlement", 2)        # a settlement: not eligible
    building(state, "quarry", 1, "plant", 1)           # stage I: not eligible
    neutral(state, 1, 3)
    consistent(state)
    build_and_assault(state, "build fortress crag")
    assert stage(state, "crag", 1) == ("settlement", 2)
    assert state.phase == "loss" and state.current_player == 1
    assert legal(state) == {"reduce port", "reduce eastgate"}
    assert_illegal(state, "reduce hill", "reduce_not_allowed")
    play(state, "reduce eastgate")
    assert stage(state, "eastgate", 1) == ("fortress", 1)
    assert raw(state)["neutral"][1] == 2
    assert stage(state, "port", 1) == ("rampart", 2)
    consistent(state)
    # one eligible building: reduced unasked; none: nothing more
    state = defence_position()
    building(state, "crag", 1, "settlement", 3)
    building(state, "port", 1, "rampart", 2)
    build_and_assault(state, "build fortress crag")
    assert stage(state, "port", 1) == ("rampart", 1) and state.current_player == 0
    state = defence_position()
    building(state, "crag", 1, "settlement", 3)
    building(state, "port", 1, "rampart", 1)
    build_and_assault(state, "build fortress crag")
    assert stage(state, "crag", 1) == ("settlement", 2)
    assert stage(state, "port", 1) == ("rampart", 1) and state.current_player == 0


def test_stage_four_settlement_is_protected_from_assaults() -> None:
    state = defence_position()
    building(state, "crag", 1, "settlement", 4)
    building(state, "port", 1, "rampart", 0)           # defence 0 < 3
    build_and_assault(state, "build fortress crag")
    assert stage(state, "crag", 1) == ("settlement", 4)
    assert state.score() == (0, 1)


def test_a4_face_down_stage_four_is_not_protected() -> None:
    state = defence_position(picts_up=3)             # strength 4 > defence 3
    building(state, "crag", 0, "settlement", 3)
    give(state, 0, fish=1, wood=1, stone=1, gold=1)
    build_and_assault(state, "develop crag")
    assert stage(state, "crag", 0) == ("settlement", 3)
    assert state.stage_four_settlements() == (0, 0)
    assert res(state, 0) == {"fish": 0, "wood": 0, "stone": 0, "gold": 0}


def test_example_3_assault_defence() -> None:
    """Sven (seat 0) develops his rampart to II in a region with 2 assault Picts face up;
    the third makes strength 3.  Sven: rampart I there + rampart I elsewhere = 2: loses
    the face-down II.  Sebastian (seat 2): rampart III there + I elsewhere = 4.
    Christian (seat 1): a legionnaire there + rampart II elsewhere = 3.  Klaus (seat 3):
    rampart II and a legionnaire elsewhere = 2: his fortress I goes, with its marker."""
    state = new_game(4)
    region = "peak"
    reveal(state, region, 2)
    figures(state, region, 0, settlers=1)
    building(state, region, 0, "rampart", 1)          # + his port rampart I
    building(state, region, 2, "rampart", 3)          # + his port rampart I
    building(state, region, 1, "settlement", 1)
    figures(state, region, 1, legions=1)              # the settlement's legionnaire
    building(state, "port", 1, "rampart", 2)
    building(state, region, 3, "fortress", 1)
    neutral(state, 3, 2)
    building(state, "port", 3, "rampart", 2)
    figures(state, "hill", 3, legions=1)
    give(state, 0, fish=1, wood=1)
    consistent(state)
    assert [state.defence(p, region) for p in range(4)] == [2, 3, 4, 2]
    neutral_supply = raw(state)["neutral_supply"]
    # Sebastian's rampart III outranks the new stage II: tribute first (one of the two)
    build_and_assault(state, f"develop {region}", "tribute wood")
    assert res(state, 2)["wood"] == 3 + 1
    view = state.view(None)["regions"][key_index(region)]
    assert view["assault"] + view["printed_assault"] == 3
    assert stage(state, region, 0) == ("rampart", 1)      # the face-down II taken back
    assert stage(state, region, 2) == ("rampart", 3)
    assert stage(state, region, 1) == ("settlement", 1)
    assert stage(state, region, 3) == ("", 0)             # fortress I removed
    assert raw(state)["neutral"][3] == 1 and raw(state)["neutral_supply"] == neutral_supply + 1
    assert settlers(state, "port", 0) == 2                # the settler went home anyway
    consistent(state)


# ------------------------------------------------------------------ 4) Abilities


def test_fortress_one_and_two_give_a_marker_used_from_the_next_turn() -> None:
    state = new_game(2)
    figures(state, "westgate", 0, settlers=2)
    give(state, 0, fish=2, wood=2, stone=1, gold=0)
    play(state, "develop westgate", "pay fish+wood")
    assert raw(state)["neutral"][0] == 2
    assert state.view(0)["players"][0]["movement"] == 3
    play(state, "develop westgate")                 # III: fish+wood+stone, no marker
    assert stage(state, "westgate", 0) == ("fortress", 3)
    assert raw(state)["neutral"][0] == 2
    fresh_turn(state, 0)
    assert state.view(0)["points_left"] == 3
    consistent(state)


def fortress_three_position() -> AlbionState:
    state = new_game(2)
    building(state, "crag", 0, "fortress", 3)
    neutral(state, 0, 3)
    figures(state, "port", 0, settlers=2)
    consistent(state)
    return state


def test_a7_fortress_three_launches_from_the_launching_region() -> None:
    state = fortress_three_position()
    assert "launch crag" in legal(state)
    assert_illegal(state, "launch westgate", "launch_not_allowed")   # only a fortress I
    play(state, "launch crag")
    assert settlers(state, "crag", 0) == 1 and settlers(state, "port", 0) == 1
    assert state.view(0)["points_left"] == 2           # placing costs no movement
    assert_illegal(state, "resources", "resources_not_now")   # it is action A
    # one settler on each stage III fortress
    assert_illegal(state, "launch crag", "launch_not_allowed")
    play(state, "settler crag-peak")                   # its movement begins there
    assert settlers(state, "peak", 0) == 1
    # "At the beginning of his movement": not after a movement step
    state = fortress_three_position()
    play(state, "settler port-westgate")
    assert_illegal(state, "launch crag", "launch_not_allowed")
    # only a settler in the launching region is placed
    state = fortress_three_position()
    figures(state, "port", 0, settlers=0)
    figures(state, "hill", 0, settlers=1)
    assert_illegal(state, "launch crag", "launch_not_allowed")
    # two stage III fortresses: two launches
    state = fortress_three_position()
    building(state, "glade", 0, "fortress", 3)
    neutral(state, 0, 5)
    play(state, "launch crag", "launch glade")
    assert settlers(state, "port", 0) == 0


def test_settlement_one_settler_goes_to_the_launching_field_and_rests() -> None:
    state = new_game(2)
    figures(state, "port", 0, settlers=0)
    figures(state, "glade", 0, settlers=1)
    give(state, 0, fish=1, wood=0)
    play(state, "build settlement glade")
    assert state.phase == "figure" and legal(state) == {"take settler", "take legion"}
    assert_illegal(state, "end", "figure_pending")
    play(state, "take settler")
    assert settlers(state, "port", 0) == 2
    # both the returned builder and the new settler rest this round: the turn is over
    assert state.current_player == 1
    fresh_turn(state, 0)
    play(state, "settler port-westgate", "settler port-eastgate")
    assert settlers(state, "port", 0) == 0


def test_settlement_one_legionnaire_defends_at_once() -> None:
    state = new_game(2)
    reveal(state, "crag", 1)
    figures(state, "crag", 0, settlers=2)
    give(state, 0, fish=2, wood=1)
    play(state, "build settlement crag", "pay fish", "pict peace", "take legion")
    assert legions(state, "crag", 0) == 1
    assert_illegal(state, "legion crag-peak", "movement_over")
    # the second settler develops: strength 2, defence rampart I + the new legionnaire
    build_and_assault(state, "develop crag")
    assert stage(state, "crag", 0) == ("settlement", 2)
    # a stage II settlement gives a figure too
    assert state.phase == "figure" and state.current_player == 0
    play(state, "take legion")
    assert legions(state, "crag", 0) == 2
    consistent(state)


def test_settlement_figures_only_from_the_play_area() -> None:
    state = new_game(2)
    move_picts(state, "crag", "peak")
    figures(state, "crag", 0, settlers=1)
    figures(state, "hill", 0, legions=3)                # all his legionnaires are out
    give(state, 0, fish=1, wood=0)
    play(state, "build settlement crag")                # a settler, without asking
    assert state.phase == "build" and settlers(state, "port", 0) == 3
    state = new_game(2)
    move_picts(state, "crag", "peak")
    figures(state, "crag", 0, settlers=1)
    figures(state, "port", 0, settlers=3)              # all four settlers are out
    figures(state, "hill", 0, legions=3)
    give(state, 0, fish=1, wood=0)
    play(state, "build settlement crag")
    assert stage(state, "crag", 0) == ("settlement", 1)
    assert sum(raw(state)["legions"][r][0] for r in range(13)) == 3
    assert sum(raw(state)["settlers"][r][0] for r in range(13)) == 4
    consistent(state)


def settlement_three_position() -> AlbionState:
    """Player 0 develops his settlement II in the (Pict-free) crag to III; a settler of
    his waits in the westgate (his fortress I), a rampart I of his in the hill."""
    state = new_game(2)
    move_picts(state, "crag", "peak")
    building(state, "crag", 0, "settlement", 2)
    building(state, "hill", 0, "rampart", 1)
    building(state, "glen", 0, "settlement", 1)
    figures(state, "crag", 0, settlers=1)
    figures(state, "westgate", 0, settlers=1)
    give(state, 0, fish=1, wood=1, stone=1, gold=0)
    play(state, "develop crag")
    return state


def test_settlement_three_free_development() -> None:
    state = settlement_three_position()
    assert state.phase == "free" and state.current_player == 0
    # not a settlement; any of his other buildings on the board
    assert legal(state) == {"skip", "develop westgate", "develop hill", "develop port",
                            "develop fishery", "develop forest"}
    assert_illegal(state, "develop glen", "free_development_not_allowed")
    assert_illegal(state, "end", "free_pending")
    before = res(state, 0)
    play(state, "develop westgate")
    assert stage(state, "westgate", 0) == ("fortress", 2)
    assert raw(state)["neutral"][0] == 2                 # with its marker
    assert res(state, 0) == before                       # no construction costs
    # the settler in the westgate stays there and may still act this round
    assert settlers(state, "westgate", 0) == 1 and state.current_player == 0
    assert "remove westgate" in legal(state)
    consistent(state)


def test_settlement_three_free_development_turns_a_pict_over() -> None:
    state = settlement_three_position()
    play(state, "develop hill")
    assert state.current_player == CHANCE
    play(state, "pict peace")
    assert stage(state, "hill", 0) == ("rampart", 2)
    state = settlement_three_position()
    play(state, "skip")
    assert stage(state, "hill", 0) == ("rampart", 1) and stage(state, "crag", 0)[1] == 3


def test_settlement_three_free_development_pays_no_tribute() -> None:
    state = settlement_three_position()
    move_picts(state, "westgate", "peak", 0)
    building(state, "westgate", 1, "fortress", 3)
    neutral(state, 1, 2)
    play(state, "develop westgate")
    assert res(state, 1) == {"fish": 3, "wood": 2, "stone": 0, "gold": 0}


def test_settlement_four_counts_for_victory() -> None:
    state = new_game(2)
    move_picts(state, "glade", "peak", 0)
    building(state, "glade", 0, "settlement", 3)
    figures(state, "glade", 0, settlers=1)
    give(state, 0, fish=1, wood=1, stone=1, gold=1)
    play(state, "develop glade")
    assert state.stage_four_settlements() == (1, 0) and state.score() == (1, 0)
    assert_illegal(state, "remove glade", "no_free_settler")


# ------------------------------------------------------------------ voluntary removal


def test_a9_voluntary_removal_undoes_each_stage() -> None:
    # a fortress II: both markers back; the settler goes home; no tribute, no Pict
    state = new_game(2)
    building(state, "hill", 0, "fortress", 2)
    building(state, "hill", 1, "fortress", 3)
    neutral(state, 0, 3)
    neutral(state, 1, 3)
    figures(state, "hill", 0, settlers=1)
    consistent(state)
    before = {p: res(state, p) for p in (0, 1)}
    play(state, "remove hill")
    assert stage(state, "hill", 0) == ("", 0) and stage(state, "hill", 1) == ("fortress", 3)
    assert raw(state)["neutral"][0] == 1
    assert settlers(state, "port", 0) == 2 and face_down(state, "hill") == 6
    assert {p: res(state, p) for p in (0, 1)} == before
    assert state.current_player != CHANCE
    consistent(state)
    # a settlement II: a figure for each stage
    state = new_game(2)
    building(state, "crag", 0, "settlement", 2)
    figures(state, "crag", 0, settlers=1)
    figures(state, "hill", 0, legions=1)
    figures(state, "glen", 0, legions=1)
    play(state, "remove crag")
    assert state.phase == "loss" and state.current_player == 0
    assert legal(state) == {"return settler port", "return legion hill",
                            "return legion glen"}
    play(state, "return legion hill", "return legion glen")
    assert stage(state, "crag", 0) == ("", 0)
    assert state.view(None)["players"][0]["legions_in_supply"] == 3
    consistent(state)


def test_a9_removing_a_settlement_three_costs_no_other_building() -> None:
    """"With a subsequent assault, the owner of a reduced stage III settlement must take
    another stage II or III building token from the board": a voluntary removal is no
    assault ("no Pict is turned over") and takes "all building tokens from the region",
    no other, so his fortress II elsewhere keeps its stage and its marker; the
    settlement's stages II and I still give back their two figures."""
    state = new_game(2)
    building(state, "crag", 0, "settlement", 3)
    building(state, "eastgate", 0, "fortress", 2)
    neutral(state, 0, 3)
    figures(state, "crag", 0, settlers=1)
    figures(state, "hill", 0, legions=1)
    figures(state, "glen", 0, legions=1)
    consistent(state)
    play(state, "remove crag")
    assert stage(state, "eastgate", 0) == ("fortress", 2)
    assert raw(state)["neutral"][0] == 3
    assert state.phase == "loss" and state.current_player == 0
    assert legal(state) == {"return settler port", "return legion hill",
                            "return legion glen"}
    play(state, "return legion hill", "return legion glen")
    assert stage(state, "crag", 0) == ("", 0)
    assert stage(state, "eastgate", 0) == ("fortress", 2)
    assert state.view(None)["players"][0]["legions_in_supply"] == 3
    assert state.phase == "build"
    consistent(state)


def test_voluntary_removal_only_own_buildings_never_stage_four() -> None:
    state = new_game(2)
    building(state, "moor", 1, "settlement", 1)
    building(state, "crag", 0, "settlement", 4)
    figures(state, "moor", 0, settlers=1)
    figures(state, "crag", 0, settlers=1)
    assert_illegal(state, "remove moor", "no_building_there")
    assert_illegal(state, "remove crag", "stage_four_permanent")


# ------------------------------------------------------------------ laurel


def test_a8_third_settlement_must_go_to_a_laurel_region() -> None:
    state = new_game(2)
    building(state, "moor", 0, "settlement", 1)
    building(state, "glade", 0, "settlement", 2)
    for region in ("hill", "crag", "westgate"):
        figures(state, region, 0, settlers=1)
    assert_illegal(state, "build settlement hill", "laurel_required")
    assert "build settlement crag" in legal(state)
    assert "build fortress hill" in legal(state)          # other buildings are free
    # one settlement already in a laurel region: the third may go anywhere
    building(state, "glade", 0, "settlement", 0)
    building(state, "peak", 0, "settlement", 2)
    assert "build settlement hill" in legal(state)


# ------------------------------------------------------------------ B - Take Resources


def test_example_4_take_resources() -> None:
    """Christian (seat 1): fishery II, lumber mill III, quarry II, gold mine I: takes 2
    fish, 3 wood, 2 stone and 1 gold; then his turn is over."""
    state = new_game(2)
    building(state, "fishery", 1, "plant", 2)
    building(state, "forest", 1, "plant", 3)
    building(state, "quarry", 1, "plant", 2)
    building(state, "mine", 1, "plant", 1)
    fresh_turn(state, 1)
    start = res(state, 1)
    supply = raw(state)["supply"][:]
    play(state, "resources")
    assert res(state, 1) == {"fish": start["fish"] + 2, "wood": start["wood"] + 3,
                             "stone": 2, "gold": 1}
    assert raw(state)["supply"] == [supply[0] - 2, supply[1] - 3, supply[2] - 2,
                                    supply[3] - 1]
    assert state.current_player == 0 and state.phase == "move"
    consistent(state)


def test_take_resources_at_the_start_one_fish_one_wood() -> None:
    state = new_game(2)
    play(state, "resources")
    assert res(state, 0) == {"fish": 4, "wood": 2, "stone": 0, "gold": 0}


def test_take_resources_shortage_everyone_returns_one_until_enough() -> None:
    state = new_game(3)
    building(state, "fishery", 0, "plant", 3)
    # fish: the taker 1, the others 20 and 3; supply 0 (24 in all)
    give(state, 0, fish=1)
    give(state, 1, fish=20)
    give(state, 2, fish=3)
    assert raw(state)["supply"][0] == 0
    play(state, "resources")
    # round 1: each returns one (supply 3 >= 3): then the taker takes 3
    assert [res(state, p)["fish"] for p in range(3)] == [3, 19, 2]
    assert raw(state)["supply"][0] == 0
    consistent(state)
    # the taker without any: the rounds go on until there are enough
    state = new_game(2)
    building(state, "fishery", 0, "plant", 3)
    give(state, 0, fish=0)
    give(state, 1, fish=24)
    play(state, "resources")
    assert [res(state, p)["fish"] for p in range(2)] == [3, 21]
    consistent(state)


# ------------------------------------------------------------------ Game End and Victory


def finale(players: int = 2) -> AlbionState:
    """Player 0 holds stage IV settlements in the crag and the peak (laurels) and
    develops his stage III in the Pict-free hill to IV."""
    state = new_game(players)
    move_picts(state, "hill", "moor")
    building(state, "crag", 0, "settlement", 4)
    building(state, "peak", 0, "settlement", 4)
    building(state, "hill", 0, "settlement", 3)
    figures(state, "port", 0, settlers=0)
    figures(state, "hill", 0, settlers=1)
    give(state, 0, fish=1, wood=1, stone=1, gold=1)
    return state


def test_game_end_the_round_is_played_to_the_end() -> None:
    state = finale(3)
    play(state, "develop hill")
    assert state.view(None)["end_triggered"]
    assert state.current_player == 1 and not state.is_terminal()
    play(state, "end")
    assert state.current_player == 2
    play(state, "end")
    assert state.is_terminal()
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,)
    assert outcome.reason == Termination.THREE_SETTLEMENTS
    assert state.returns() == (1.0, -1.0, -1.0)
    assert state.score() == (3, 0, 0)


def test_game_end_by_the_last_seat_ends_with_his_turn() -> None:
    state = new_game(2)
    move_picts(state, "hill", "moor")
    building(state, "crag", 1, "settlement", 4)
    building(state, "peak", 1, "settlement", 4)
    building(state, "hill", 1, "settlement", 3)
    figures(state, "port", 1, settlers=0)
    figures(state, "hill", 1, settlers=1)
    give(state, 1, fish=1, wood=1, stone=1, gold=1)
    fresh_turn(state, 1)
    play(state, "develop hill")
    # nothing left to do: the turn, the round and the game are over
    assert state.is_terminal() and state.view(None)["winners"] == [1]
    assert state.view(None)["round"] == 1
    assert state.returns() == (-1.0, 1.0)


def tie_finale(p0_up: int, p1_up: int, p0_res: dict[str, int], p1_res: dict[str, int],
               players: int = 2, shared_up: int = 0) -> AlbionState:
    """Player 1 already has three stage IV settlements (moor: 1 printed assault Pict,
    glade, peak); player 0 (crag, peak) completes his third in the hill; the round ends.
    Face up: ``p0_up`` in the crag, ``p1_up`` in the moor, ``shared_up`` in the peak."""
    state = finale(players)
    for region in ("moor", "glade", "peak"):
        building(state, region, 1, "settlement", 4)
    reveal(state, "crag", p0_up)
    reveal(state, "moor", p1_up)
    reveal(state, "peak", shared_up)
    play(state, "develop hill")
    give(state, 0, **p0_res)
    give(state, 1, **p1_res)
    while not state.is_terminal():
        state.apply("end")
    return state


NONE = {"fish": 0, "wood": 0, "stone": 0, "gold": 0}


def test_a13_tie_break_counts_picts_of_settlement_regions() -> None:
    # player 0: 2 face up in the crag; player 1: the moor's printed 1 (face-down Picts
    # never count); player 1 is richer, but the Picts come first
    state = tie_finale(2, 0, NONE, {**NONE, "gold": 5})
    assert state.view(None)["winners"] == [0]
    # player 1: printed 1 + 1 face up in the moor = 2 > 1 face up in the crag
    state = tie_finale(1, 1, {**NONE, "gold": 5}, NONE)
    assert state.view(None)["winners"] == [1]
    # the peak, a region of both players' settlements, counts for both: 1 + 2 = 1 + 2,
    # then the resources decide
    state = tie_finale(1, 0, {**NONE, "fish": 1}, NONE, shared_up=2)
    assert state.view(None)["winners"] == [0]
    state = tie_finale(1, 0, NONE, {**NONE, "fish": 1}, shared_up=2)
    assert state.view(None)["winners"] == [1]


@pytest.mark.parametrize(("p0", "p1", "winners"), [
    ({"gold": 2}, {"gold": 1, "stone": 9, "wood": 9, "fish": 9}, [0]),
    ({"gold": 1, "stone": 1}, {"gold": 1, "wood": 9, "fish": 9}, [0]),
    ({"wood": 1}, {"fish": 9}, [0]),
    ({"fish": 1, "wood": 2}, {"fish": 2, "wood": 2}, [1]),
    ({"fish": 1, "gold": 1}, {"fish": 1, "gold": 1}, [0, 1]),
])
def test_tie_break_resources_gold_then_stone_wood_fish_then_shared(
        p0: dict[str, int], p1: dict[str, int], winners: list[int]) -> None:
    state = tie_finale(1, 0, {**NONE, **p0}, {**NONE, **p1})     # Picts 1 : 1
    assert state.view(None)["winners"] == winners


def test_a14_returns_and_round_cap_draw() -> None:
    # two of three share the victory: +1 each, the third -1
    state = tie_finale(1, 0, NONE, NONE, players=3)
    assert state.view(None)["winners"] == [0, 1]
    assert state.returns() == (1.0, 1.0, -1.0)
    assert state.score() == (3, 3, 0)
    # a single winner +1, the other -1
    state = tie_finale(2, 0, NONE, NONE)
    assert state.returns() == (1.0, -1.0)
    # the round cap: a draw, 0 each
    state = game(2, max_rounds=1)
    play(state, "fortress westgate", "fortress eastgate", "end", "end")
    assert state.is_terminal() and state.returns() == (0.0, 0.0)


def test_round_cap_ends_in_a_draw() -> None:
    state = game(3, max_rounds=2, first_player=1)
    play(state, "fortress westgate", "fortress eastgate", "fortress westgate")
    for _ in range(5):
        play(state, "end")
        assert not state.is_terminal()
    play(state, "end")
    assert state.is_terminal()
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == Termination.ROUND_CAP
    assert outcome.returns == (0.0, 0.0, 0.0) and state.view(None)["end_reason"] == "round_cap"
    assert state.view(None)["winners"] == []
    assert_illegal(state, "end", "game_over")


# ------------------------------------------------------------------ A10, A11, engine


def test_a11_null_turn_is_legal() -> None:
    state = new_game(2)
    before = raw(state)
    play(state, "end")
    after = raw(state)
    assert state.current_player == 1
    for key in ("btype", "bstage", "settlers", "legions", "res", "supply", "face_down"):
        assert after[key] == before[key], key


def random_move(state: AlbionState, rng: random.Random) -> Any:
    """Mostly building (so that fortresses and markers come), often taking resources,
    seldom removing."""
    moves = state.legal_moves()
    builds = [m for m in moves if m.kind in ("build", "develop", "pay", "tribute", "take")]
    if builds and rng.random() < 0.9:
        return rng.choice(builds)
    take = [m for m in moves if m.kind == "resources"]
    if take and rng.random() < 0.5:
        return take[0]
    return rng.choice([m for m in moves if m.kind != "remove"] or moves)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a10_neutral_markers_never_run_out(players: int) -> None:
    """Random games, every invariant after every step; the neutral supply never goes
    below zero and nobody holds more than the 6 of three fortresses at stages I+II."""
    rng = random.Random(players)
    most = 0
    for g in range(3):
        state = AlbionGame(players, board=TEST_BOARD, max_rounds=25).new_game(
            seed=g, auto_chance=False)
        while not state.is_terminal():
            if state.current_player == CHANCE:
                state.apply_random_chance(rng.randrange(1 << 30))
            else:
                state.apply(random_move(state, rng))
            consistent(state)
            r = raw(state)
            assert r["neutral_supply"] >= 0
            assert all(0 <= n <= 6 for n in r["neutral"])
            most = max(most, *r["neutral"])
    assert most >= 4               # the games did build fortresses


def test_a10_all_twenty_four_markers_out_and_a_fortress_three_takes_none() -> None:
    state = new_game(4)
    for p in range(4):
        building(state, "eastgate", p, "fortress", 2)
        building(state, "glade", p, "fortress", 2)
        building(state, "westgate", p, "fortress", 2)
        neutral(state, p, 6)
    consistent(state)
    assert raw(state)["neutral_supply"] == 0
    figures(state, "glade", 0, settlers=1)
    give(state, 0, fish=1, wood=1, stone=1)
    play(state, "develop glade")
    assert stage(state, "glade", 0) == ("fortress", 3)
    assert raw(state)["neutral_supply"] == 0 and raw(state)["neutral"][0] == 6
    consistent(state)


# ------------------------------------------------------------------ engine conventions


def test_the_ability_only_after_peace_or_a_repelled_assault() -> None:
    """"Only after a defended assault or with "peace" may the building be finished and
    its abilities used": a lost fortress I gives no marker, a lost settlement I no
    figure."""
    state = defence_position(picts_up=3)             # strength 4 > 3
    build_and_assault(state, "build fortress crag")
    assert raw(state)["neutral"][0] == 1 and stage(state, "crag", 0) == ("", 0)
    consistent(state)
    state = defence_position(picts_up=3)
    build_and_assault(state, "build settlement crag")
    assert state.phase != "figure" and stage(state, "crag", 0) == ("", 0)
    assert state.view(None)["players"][0]["legions_in_supply"] == 3
    consistent(state)


def test_settlement_three_free_development_assault_hits_every_building_there() -> None:
    state = settlement_three_position()
    reveal(state, "hill", 2)                          # strength 3 after the flip
    building(state, "hill", 1, "fortress", 2)
    neutral(state, 1, 3)
    building(state, "port", 1, "rampart", 0)
    build_and_assault(state, "develop hill")
    assert stage(state, "hill", 0) == ("rampart", 1)  # the free stage is lost
    assert stage(state, "hill", 1) == ("fortress", 1)
    assert raw(state)["neutral"] == [1, 2]
    assert state.current_player == 0 and "remove westgate" in legal(state)
    consistent(state)


def test_forced_steps_are_taken_by_the_engine_and_recorded() -> None:
    # one payment: a forced step, taken by the engine and marked in the history
    state = new_game(2)
    figures(state, "glade", 0, settlers=1)
    give(state, 0, fish=1, wood=0)
    play(state, "build settlement glade")
    assert [str(m) for m in state.history] == ["build settlement glade", "pay fish"]
    assert state.forced == [1]
    assert state.phase == "figure"                    # both kinds of figure are left
    play(state, "take legion")
    assert legions(state, "glade", 0) == 1 and state.forced == [1]
    # a settlement III with nothing to develop freely: no question
    state = new_game(2)
    move_picts(state, "crag", "peak")
    for region in ("westgate", "fishery", "forest", "port"):
        building(state, region, 0, "settlement" if region == "westgate" else "plant", 0)
    building(state, "crag", 0, "settlement", 2)
    neutral(state, 0, 0)
    figures(state, "crag", 0, settlers=1)
    give(state, 0, fish=1, wood=1, stone=1)
    play(state, "develop crag")
    assert stage(state, "crag", 0) == ("settlement", 3) and state.phase != "free"
    consistent(state)


def test_illegal_moves_raise_and_change_nothing() -> None:
    state = new_game(2)
    before = state.state_bytes()
    for move, rule in (("settler moor-hill", "no_settler_there"),
                       ("develop crag", "no_free_settler"),
                       ("pay fish", "nothing_pending"),
                       ("tribute fish", "nothing_pending"),
                       ("take legion", "nothing_pending"),
                       ("launch crag", "launch_not_allowed"),
                       ("fortress westgate", "setup_over")):
        with pytest.raises(IllegalMoveError) as info:
            state.apply(move)
        assert info.value.rule == rule, move
        assert rule in ILLEGAL_REASONS
        assert state.state_bytes() == before
    assert_illegal(state, "settler port-port", "move_nowhere")


def test_a_returned_settler_is_a_rested_one_when_the_owner_has_one() -> None:
    """"The owner of a reduced settlement selects any of his legionnaires or settlers":
    after a removal, the settler just sent home (rested) may be the one returned; the
    engine merges the two port settlers into one move and must not take the one that
    may still act."""
    state = new_game(2)
    building(state, "crag", 0, "settlement", 1)
    figures(state, "crag", 0, settlers=1)            # + the free one in the port
    give(state, 0, fish=1, wood=1)
    play(state, "remove crag")
    assert settlers(state, "port", 0) == 1
    assert state.current_player == 0 and "develop port" in legal(state)


def test_a14_victory_shared_by_everyone_gives_each_winner_one() -> None:
    state = tie_finale(1, 0, NONE, NONE)
    assert state.view(None)["winners"] == [0, 1]
    assert state.returns() == (1.0, 1.0)


def test_a17_shortage_returns_go_round_by_round() -> None:
    """A17: "each player (including the one taking resources) must return one resource of
    that type (if he has one) to the supply.  This is continued until there are enough":
    a round of returns is completed before the supply is counted again, so a round may
    return more than the taker needs."""
    state = new_game(3)
    building(state, "fishery", 0, "plant", 2)       # the taker needs 2 fish
    give(state, 0, fish=1)
    give(state, 1, fish=20)
    give(state, 2, fish=3)
    assert raw(state)["supply"][0] == 0
    play(state, "resources")
    # one round: all three return one (supply 3), then the taker takes 2: 1 stays
    assert [res(state, p)["fish"] for p in range(3)] == [2, 19, 2]
    assert raw(state)["supply"][0] == 1
    consistent(state)
