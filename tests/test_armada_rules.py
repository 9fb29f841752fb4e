"""Armada: tests named after the rules of the rule text (shared/rules/armada_1986.txt),
section by section, written from the text and the readings M1..M26 of the spec (their
test names are fixed); the Recruitment worked example is a golden test.

Positions are reached by playing moves on the test board of ``tests/armada_helpers.py``
(the archipelago with a few more coast links), the chance outcomes chosen by the test.
Unless a test says otherwise green puts 10 of its 18 bands on gn5 and its ships on gn3
and gn5; raspberry, blue and orange put all their bands on their first territory (rs1,
bl1, or1) and their ships on their first two cities.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest
from armada_helpers import (
    BLUE_PORT,
    COLOURS,
    HUB,
    PORT,
    RAID,
    TEST_BOARD,
    act,
    acting,
    actions_left,
    attack,
    bands_on_board,
    board_with,
    colour_row,
    decline_windows,
    expedition,
    explore,
    game,
    hand,
    hand_sizes,
    legal,
    move,
    new,
    next_turn,
    phase,
    play,
    setup,
    ship_at,
    ships_of,
    terr,
    to_turn,
    view,
)

import boardrules
from boardrules import CHANCE, IllegalMoveError, InvalidMoveError
from boardrules.games.armada import load_board, load_deck
from boardrules.games.armada.deck import DECKS_DIR
from boardrules.testing import assert_illegal

ARCHIPELAGO = load_board("archipelago")
DECK = {card.key: card.count for card in load_deck("third_edition").cards}

#: Raspberry ready to raid green's lair: its ships on rs5 and rs7, its bands on rs7
#: (next to RAID); green's gn1, gn2, gn4 and gn6 left empty.
RAIDER = {"raspberry": (("rs5", "rs7"), {"rs7": 18}),
          "green": (("gn3", "gn5"), {"gn3": 4, "gn5": 10, "gn7": 4})}


def lair_keys(colour: str) -> list[str]:
    return [ARCHIPELAGO.territories[i].key for i in ARCHIPELAGO.lair(colour)]


def option(state: Any, colour: str = "green") -> bool:
    return bool(colour_row(state, colour)["victory_option"])


def take_three_posts(state: Any, bands: int = 8) -> None:
    """Green, from its ship on HUB, explores and invades the north, central and west
    trading posts (8 actions): with its home lair, a victory situation."""
    expedition(state, bands)
    for post in ("post_north", "post_central", "post_west"):
        explore(state, post)
        move(state, HUB, post, 1)


def take_cities(state: Any, cities: tuple[str, ...] = ("rs3", "rs5", "rs7")) -> None:
    """Green launches its gn3 ship onto PORT, loads 5 bands from gn5 and puts one on each
    of ``cities`` (2 + len(cities) actions)."""
    state.apply(f"launch gn3-{PORT}")
    move(state, "gn5", PORT, 5)
    for city in cities:
        move(state, PORT, city, 1)


def raid_green_lair(state: Any, territories: tuple[str, ...]) -> None:
    """Raspberry (RAIDER plan, its turn) launches its rs7 ship onto RAID, loads 5 bands
    and puts one on each of ``territories`` of green's lair."""
    state.apply(f"launch rs7-{RAID}")
    move(state, "rs7", RAID, 5)
    for t in territories:
        move(state, RAID, t, 1)


# ================================================================== Start of the Game


def test_turn_order_green_raspberry_blue_orange() -> None:
    state = new()
    seen = []
    for _ in range(8):
        v = view(state)
        seen.append((v["turn_colour"], v["current_player"], v["round"]))
        state.apply("end")
    colours = [c for c, _p, _r in seen]
    assert colours == list(COLOURS) * 2
    assert [p for _c, p, _r in seen] == [0, 1, 2, 3] * 2
    assert seen[4][2] == seen[0][2] + 1


def test_four_player_seats_follow_the_colours() -> None:
    v = view(new())
    assert [(c["colour"], c["player"], c["in_play"], c["neutral"]) for c in v["colours"]] == [
        (c, p, True, False) for p, c in enumerate(COLOURS)]
    assert [p["colours"] for p in v["players"]] == [[c] for c in COLOURS]


def test_preliminary_turn_eighteen_bands_and_two_ships_on_cities() -> None:
    state = new()
    v = view(state)
    for colour in COLOURS:
        row = colour_row(state, colour)
        assert row["bands"] == 18 and row["pool"] == 32 and row["flags"] == 0
        in_lair = [terr(state, t) for t in lair_keys(colour)]
        assert sum(t["bands"] for t in in_lair) == 18
        assert all(t["colour"] in (colour, None) for t in in_lair)
        ships = ships_of(state, colour)
        assert len(ships) == 2 and all(s["where"] == "city" for s in ships)
        cities = {ARCHIPELAGO.territories[i].key for i in ARCHIPELAGO.cities(colour)}
        assert len({s["at"] for s in ships}) == 2 and {s["at"] for s in ships} <= cities
    assert v["phase"] == "turn" and v["acting_colour"] == "green"
    assert v["actions_left"] == 10


def test_preliminary_ships_one_per_city_of_own_lair() -> None:
    state = game().new_game(seed=1, auto_chance=False)
    assert phase(state).startswith("setup") and acting(state) == "green"
    # the second ship goes on a city later in board order: the last city cannot be first
    assert {m for m in legal(state) if m.startswith("ship")} == {"ship gn3", "ship gn5"}
    assert_illegal(state, "ship gn1")       # not a city
    assert_illegal(state, "ship rs3")       # not green's lair
    state.apply("ship gn3")
    assert legal(state) == {"ship gn5", "ship gn7"}
    assert_illegal(state, "ship gn3")       # one ship per city
    state.apply("ship gn7")
    assert {s["at"] for s in ships_of(state, "green")} == {"gn3", "gn7"}


def test_preliminary_bands_freely_distributed_last_territory_takes_the_rest() -> None:
    state = game().new_game(seed=1, auto_chance=False)
    play(state, "ship gn3", "ship gn5")
    pending = view(state)["pending"]
    assert pending["kind"] == "deploy" and pending["territory"] == "gn1"
    assert pending["left"] == 18
    assert legal(state) == {f"deploy {k}" for k in range(19)}
    state.apply("deploy 5")
    assert view(state)["pending"]["territory"] == "gn2"
    assert legal(state) == {f"deploy {k}" for k in range(14)}
    for _ in range(5):                       # gn2 .. gn6 get nothing
        state.apply("deploy 0")
    assert terr(state, "gn1")["bands"] == 5 and terr(state, "gn7")["bands"] == 13
    assert acting(state) != "green" or not phase(state).startswith("setup")


def test_home_lair_owned_from_start_without_flags() -> None:
    state = new()
    for colour in COLOURS:
        assert all(terr(state, t)["flag"] == colour for t in lair_keys(colour))
        assert colour_row(state, colour)["flags"] == 0
    central = [ARCHIPELAGO.territories[i].key for i in ARCHIPELAGO.central_group()]
    assert all(terr(state, t)["flag"] is None and not terr(state, t)["explored"]
               for t in central)


# ================================================================== Action Budget


def test_action_budget_ten_actions_each_costs_one() -> None:
    state = new()
    assert actions_left(state) == 10
    state.apply(f"launch gn5-{HUB}")
    assert actions_left(state) == 9
    move(state, "gn5", HUB, 8)
    assert actions_left(state) == 8
    state.apply(f"sail {HUB}-s_e3")
    assert actions_left(state) == 7
    explore(state, "nn3", 0, 0)
    assert actions_left(state) == 6


def test_budget_spent_leaves_only_end() -> None:
    state = new()
    expedition(state)
    for _ in range(4):
        play(state, f"sail {HUB}-s_e3", f"sail s_e3-{HUB}")
    assert actions_left(state) == 0
    assert legal(state) == {"end"}
    assert_illegal(state, f"sail {HUB}-s_e3")


def test_unspent_actions_not_carried_over() -> None:
    state = new()
    expedition(state)
    assert actions_left(state) == 8
    next_turn(state, "green")
    assert actions_left(state) == 10


# ================================================================== Pirate Bands


def test_band_pool_is_fifty_per_colour() -> None:
    state = new()
    for colour in COLOURS:
        row = colour_row(state, colour)
        assert row["pool"] + row["bands"] == 50
        assert bands_on_board(state, colour) == row["bands"]


def test_group_move_to_adjacent_territory_one_action() -> None:
    state = new()
    move(state, "gn5", "gn4", 6)
    assert terr(state, "gn5")["bands"] == 4 and terr(state, "gn4")["bands"] == 7
    assert actions_left(state) == 9
    assert not state.is_legal("move gn5-gn1")  # not adjacent: not even a route
    with pytest.raises(InvalidMoveError):
        state.apply("move gn5-gn1")


def test_move_refused_into_enemy_bands() -> None:
    state = new(plans={"raspberry": (("rs5", "rs7"), {"rs3": 18})})
    take_cities(state, ())
    assert_illegal(state, f"move {PORT}-rs3")
    move(state, PORT, "rs5", 1)              # an empty enemy territory may be invaded
    assert terr(state, "rs5")["colour"] == "green"


def test_group_move_carries_any_gold() -> None:
    state = new()
    expedition(state, 3)
    explore(state, "nn1", 3, 0)
    move(state, HUB, "nn1", 3)
    state.apply(f"move nn1-{HUB}")
    assert legal(state) == {f"bands {k}" for k in (1, 2, 3)}
    state.apply("bands 1")
    assert legal(state) == {f"gold {g}" for g in range(4)}
    state.apply("gold 3")
    assert ship_at(state, HUB)["gold"] == 3 and terr(state, "nn1")["gold"] == 0
    assert actions_left(state) == 5          # carrying gold costs nothing


def test_gold_moves_only_with_bands() -> None:
    state = new()
    expedition(state, 1)
    explore(state, "nn1", 3, 0)
    move(state, HUB, "nn1", 1)
    move(state, "nn1", HUB, 1, 3)            # the band brings the gold aboard
    state.apply(f"move {HUB}-gn5")
    if phase(state) == "bands":              # one band aboard: a single choice
        assert legal(state) == {"bands 1"}
        state.apply("bands 1")
    assert legal(state) == {f"gold {g}" for g in range(4)}
    state.apply("gold 0")                    # the band lands, the gold stays aboard
    ship = ship_at(state, HUB)
    assert ship["bands"] == 0 and ship["gold"] == 3 and ship["crew"] is None
    # gold alone never moves: no band aboard, no unloading
    assert not any(m.startswith(f"move {HUB}-") for m in legal(state))


def test_ship_capacity_ten_tokens() -> None:
    state = new(plans={"green": (("gn3", "gn5"), {"gn5": 14, "gn7": 4})})
    state.apply(f"launch gn5-{HUB}")
    state.apply(f"move gn5-{HUB}")
    assert legal(state) == {f"bands {k}" for k in range(1, 11)}
    state.apply("bands 5")
    explore(state, "post_central", 3, 0)     # 6 gold at the central trading post
    move(state, HUB, "post_central", 5)
    assert ship_at(state, HUB)["bands"] == 0
    move(state, "gn5", HUB, 5)               # 5 aboard again
    state.apply(f"move post_central-{HUB}")
    state.apply("bands 1")
    # 5 + 1 bands aboard leave room for 4 gold
    assert legal(state) == {f"gold {g}" for g in range(5)}
    state.apply("gold 4")
    assert ship_at(state, HUB)["bands"] + ship_at(state, HUB)["gold"] == 10
    assert not any(m.startswith(f"move gn5-{HUB}") for m in legal(state))


# ================================================================== Ships


def test_launch_onto_empty_coastal_space_next_to_city() -> None:
    state = new()
    assert {m for m in legal(state) if m.startswith("launch")} == {
        "launch gn3-s_c2", "launch gn3-s_b3", "launch gn5-s_c2", "launch gn5-s_e2",
        "launch gn5-s_d3"}
    state.apply("launch gn5-s_c2")           # no crew needed
    ship = ship_at(state, "s_c2")
    assert ship["owner"] == "green" and ship["where"] == "sea" and ship["bands"] == 0
    assert actions_left(state) == 9
    assert {m for m in legal(state) if m.startswith("launch")} == {"launch gn3-s_b3"}


def test_launch_only_by_the_ships_owner() -> None:
    state = new()
    state.apply("end")
    assert acting(state) == "raspberry"
    assert_illegal(state, "launch gn3-s_c2")


def test_ship_needs_crew() -> None:
    state = new()
    state.apply(f"launch gn5-{HUB}")
    assert not any(m.startswith("sail") for m in legal(state))
    move(state, "gn5", HUB, 1)
    assert f"sail {HUB}-s_e3" in legal(state) and f"sail {HUB}-s_e1" in legal(state)
    move(state, HUB, "gn5", 1)
    assert_illegal(state, f"sail {HUB}-s_e3")


def test_ship_cannot_enter_occupied_space() -> None:
    state = new()
    state.apply("launch gn5-s_d3")
    move(state, "gn5", "s_d3", 3)
    state.apply("launch gn3-s_c2")
    move(state, "gn3", "s_c2", 2)
    assert "sail s_c2-s_c3" in legal(state)
    state.apply("sail s_d3-s_c3")
    assert_illegal(state, "sail s_c2-s_c3")  # friendly or enemy, never onto it
    assert_illegal(state, "sail s_c3-s_c2")


def test_ship_moves_one_sea_space_per_action() -> None:
    state = new()
    expedition(state)
    assert not state.is_legal(f"sail {HUB}-s_e4")  # two spaces away: no such sail
    with pytest.raises(InvalidMoveError):
        state.apply(f"sail {HUB}-s_e4")
    state.apply(f"sail {HUB}-s_e3")
    assert ship_at(state, "s_e3")["bands"] == 8 and actions_left(state) == 7


def test_ship_holds_one_colour() -> None:
    state = new(plans={"raspberry": (("rs3", "rs5"), {"rs7": 18})})
    take_cities(state, ())
    next_turn(state, "raspberry")
    assert_illegal(state, f"move rs7-{PORT}")  # green's bands are aboard


def test_transhipment_between_adjacent_ships() -> None:
    state = new()
    state.apply("launch gn5-s_d3")
    move(state, "gn5", "s_d3", 6)
    state.apply("sail s_d3-s_c3")
    state.apply("launch gn3-s_c2")
    move(state, "s_c3", "s_c2", 4)
    assert ship_at(state, "s_c2")["bands"] == 4 and ship_at(state, "s_c3")["bands"] == 2
    assert actions_left(state) == 5


def test_unload_any_amount_in_one_action() -> None:
    state = new()
    expedition(state)
    state.apply(f"move {HUB}-gn5")
    assert legal(state) == {f"bands {k}" for k in range(1, 9)}
    state.apply("bands 8")
    assert terr(state, "gn5")["bands"] == 10 and actions_left(state) == 7


# ================================================================== Exploration


def test_explore_from_adjacent_ship_places_gold_natives_and_brown_flag() -> None:
    state = new()
    expedition(state)
    state.apply("explore nn1")
    assert state.current_player == CHANCE
    outcomes = dict((str(m), p) for m, p in state.chance_outcomes())
    assert sum(outcomes.values()) == pytest.approx(1.0)
    # the gold and tribes dice thrown together: one joint outcome (M19)
    assert outcomes["find 1 2"] == pytest.approx(2 / 6 * 2 / 6)
    assert outcomes["find 0 0"] == pytest.approx(1 / 36)
    state.apply("find 2 1")
    t = terr(state, "nn1")
    assert (t["gold"], t["natives"], t["flag"], t["explored"]) == (2, 1, "brown", True)
    assert view(state)["supply"] == {"gold": 48, "natives": 49}
    assert actions_left(state) == 7
    assert ship_at(state, HUB)["bands"] == 8  # exploring moves nobody


def test_brown_flag_even_when_nothing_found() -> None:
    state = new()
    expedition(state)
    explore(state, "nn1", 0, 0)
    t = terr(state, "nn1")
    assert t["flag"] == "brown" and t["explored"]
    assert_illegal(state, "explore nn1")     # explored for good


def test_exploration_needs_a_band_on_the_adjacent_ship() -> None:
    state = new()
    state.apply(f"launch gn5-{HUB}")
    assert_illegal(state, "explore nn1")     # an empty ship explores nothing
    move(state, "gn5", HUB, 1)
    assert "explore nn1" in legal(state)
    assert_illegal(state, "explore nn2")     # not adjacent to the ship


def test_explore_from_explored_occupied_central_territory() -> None:
    state = new()
    expedition(state)
    explore(state, "ci1")
    assert_illegal(state, "explore ci4")     # ci1 explored but not occupied
    move(state, HUB, "ci1", 2)
    assert "explore ci4" in legal(state)     # ci4 is landlocked
    explore(state, "ci4", 1, 0)
    assert terr(state, "ci4")["gold"] == 1 and terr(state, "ci1")["bands"] == 2


def test_lair_territories_are_not_explored() -> None:
    state = new()
    take_cities(state, ())
    for t in ("rs3", "gn5", "bl3"):
        assert not state.is_legal(f"explore {t}")


def test_neighbour_island_explored_from_ship_only() -> None:
    state = new()
    expedition(state)
    explore(state, "nn1")
    move(state, HUB, "nn1", 2)
    # nn2 borders nn1 by land, but a neighbouring island is explored from a ship
    assert_illegal(state, "explore nn2")
    play(state, f"sail {HUB}-s_e1", "sail s_e1-s_f1", "sail s_f1-s_g1")
    assert "explore nn2" in legal(state)


def test_central_trading_post_doubles_find() -> None:
    state = new()
    expedition(state)
    explore(state, "post_central", 2, 1)
    t = terr(state, "post_central")
    assert (t["gold"], t["natives"]) == (4, 2)
    explore(state, "post_north", 2, 1)       # elsewhere the find is as rolled
    assert (terr(state, "post_north")["gold"], terr(state, "post_north")["natives"]) == (2, 1)


# ================================================================== Invasion


def test_invasion_places_flag_that_stays_when_forces_leave() -> None:
    state = new()
    expedition(state)
    explore(state, "nn1")
    move(state, HUB, "nn1", 2)
    t = terr(state, "nn1")
    assert (t["flag"], t["colour"], t["bands"]) == ("green", "green", 2)
    assert colour_row(state, "green")["flags"] == 1
    move(state, "nn1", HUB, 2)
    t = terr(state, "nn1")
    assert (t["flag"], t["colour"], t["bands"]) == ("green", None, 0)
    assert actions_left(state) == 5


def test_flag_replaced_by_another_invader() -> None:
    state = new(plans=RAIDER)
    next_turn(state, "raspberry")
    raid_green_lair(state, ("gn1",))
    assert terr(state, "gn1")["flag"] == "raspberry"
    assert colour_row(state, "raspberry")["flags"] == 1


def test_unexplored_central_cannot_be_invaded() -> None:
    state = new()
    expedition(state)
    assert_illegal(state, f"move {HUB}-nn1")
    explore(state, "nn1")
    assert f"move {HUB}-nn1" in legal(state)


def test_natives_must_be_fought() -> None:
    state = new()
    expedition(state)
    explore(state, "nn1", 1, 2)
    assert_illegal(state, f"move {HUB}-nn1")
    attack(state, HUB, "nn1", 1, 0)
    assert_illegal(state, f"move {HUB}-nn1")   # won only when every defender is gone
    attack(state, HUB, "nn1", 1, 0)
    assert terr(state, "nn1")["natives"] == 0
    move(state, HUB, "nn1", 3)
    t = terr(state, "nn1")
    assert (t["flag"], t["bands"], t["gold"]) == ("green", 3, 1)


# ================================================================== Combat


def test_attack_needs_two_bands_from_one_place() -> None:
    state = new()
    expedition(state, 1)
    explore(state, "nn1", 0, 1)
    assert_illegal(state, f"attack {HUB}-nn1")
    move(state, "gn5", HUB, 1)
    assert f"attack {HUB}-nn1" in legal(state)


def test_combat_roll_is_a_chance_node_of_effects() -> None:
    state = new()
    expedition(state)
    explore(state, "nn1", 0, 3)
    state.apply(f"attack {HUB}-nn1")
    assert state.current_player == CHANCE
    outcomes = {str(m): p for m, p in state.chance_outcomes()}
    # the reconstructed die: 1, 1, 2, 2 defenders; 1 and 2 attackers
    assert outcomes == pytest.approx({"hits 1 0": 2 / 6, "hits 2 0": 2 / 6,
                                      "hits 0 1": 1 / 6, "hits 0 2": 1 / 6})


def test_combat_losses_from_committed_stack() -> None:
    state = new()
    expedition(state, 3)
    explore(state, "nn1", 0, 3)
    attack(state, HUB, "nn1", 0, 2)          # attackers lost come from the ship
    assert ship_at(state, HUB)["bands"] == 1 and terr(state, "gn5")["bands"] == 7
    assert_illegal(state, f"attack {HUB}-nn1")  # 1 band left: no more combat
    move(state, "gn5", HUB, 2)
    attack(state, HUB, "nn1", 2, 0)
    assert terr(state, "nn1")["natives"] == 1
    attack(state, HUB, "nn1", 2, 0)          # defenders lost capped at the defenders
    assert terr(state, "nn1")["natives"] == 0 and ship_at(state, HUB)["bands"] == 3
    assert actions_left(state) == 3          # one roll, one action
    assert_illegal(state, f"attack {HUB}-nn1")  # nobody left to fight


def test_attacker_losses_capped_at_stack() -> None:
    state = new()
    expedition(state, 2)
    explore(state, "nn1", 0, 3)
    attack(state, HUB, "nn1", 0, 2)
    ship = ship_at(state, HUB)
    assert ship["bands"] == 0 and ship["crew"] is None
    assert colour_row(state, "green")["bands"] == 16
    assert colour_row(state, "green")["pool"] == 34   # eliminated bands go back


def test_gold_stays_and_passes_to_the_invader() -> None:
    state = new()
    expedition(state)
    explore(state, "nn1", 2, 1)
    attack(state, HUB, "nn1", 1, 0)
    assert terr(state, "nn1")["gold"] == 2
    move(state, HUB, "nn1", 2)               # invading after the combat: one action
    move(state, "nn1", HUB, 1, 2)
    assert ship_at(state, HUB)["gold"] == 2 and actions_left(state) == 4


def test_sea_combat_then_crewless_ship_boarded() -> None:
    state = new(plans=RAIDER)
    next_turn(state, "raspberry")
    state.apply(f"launch rs7-{RAID}")
    move(state, "rs7", RAID, 2)
    to_turn(state, "green")
    state.apply(f"launch gn3-{PORT}")
    move(state, "gn5", PORT, 6)
    attack(state, PORT, RAID, 2, 0)
    raider = ship_at(state, RAID)
    assert raider["bands"] == 0 and raider["owner"] == "raspberry"
    move(state, PORT, RAID, 2)               # boarding the beaten ship
    raider = ship_at(state, RAID)
    assert (raider["owner"], raider["crew"], raider["bands"]) == ("green", "green", 2)


def test_empty_ship_boarded_changes_owner() -> None:
    state = new(plans={"raspberry": RAIDER["raspberry"]})
    next_turn(state, "raspberry")
    state.apply(f"launch rs7-{RAID}")        # launched, no crew
    to_turn(state, "green")
    move(state, "gn4", RAID, 1)
    ship = ship_at(state, RAID)
    assert (ship["owner"], ship["crew"], ship["bands"]) == ("green", "green", 1)
    assert len(ships_of(state, "green")) == 3 and len(ships_of(state, "raspberry")) == 1
    assert f"sail {RAID}-s_c2" in legal(state)


def test_unlaunched_ship_captured_with_city() -> None:
    state = new()                            # raspberry's ships stand on rs3 and rs5
    take_cities(state, ("rs5",))
    ship = ship_at(state, "rs5")
    assert (ship["owner"], ship["where"]) == ("green", "city")
    # a captured ship launches from the city it stands on (M8), by its new owner
    assert "launch rs5-s_k3" in legal(state) and "launch rs5-s_j4" in legal(state)
    assert_illegal(state, "destroy rs3")     # raspberry's ship, city not taken
    state.apply("destroy rs5")               # M23: 1 action
    assert actions_left(state) == 6
    assert all(s["at"] != "rs5" for s in view(state)["ships"])
    assert sum(s["where"] == "box" for s in view(state)["ships"]) == 1


def test_destroy_only_a_ship_captured_with_its_city() -> None:
    """M23: "If a ship (which has not been launched) is located in the invaded territory,
    it becomes the property of the attacker. It may also be destroyed" -- the captured
    ship, not a colour's own ship waiting on its city."""
    state = new()
    assert_illegal(state, "destroy gn3")     # green's own ship, never captured
    assert_illegal(state, "destroy gn5")
    take_cities(state, ("rs5",))
    assert_illegal(state, "destroy gn5")     # still its own, not captured
    assert ship_at(state, "rs5")["captured"] and not ship_at(state, "gn5")["captured"]
    assert "destroy rs5" in legal(state)
    state.apply("launch rs5-s_k3")           # launched: no longer the captured ship
    assert not ship_at(state, "s_k3")["captured"]
    assert not any(m.startswith("destroy") for m in legal(state))


def test_scuttle_empty_ship_from_adjacent_band() -> None:
    state = new(plans=RAIDER)
    next_turn(state, "raspberry")
    state.apply(f"launch rs7-{RAID}")
    to_turn(state, "green")
    assert_illegal(state, f"scuttle {RAID}")  # no green band next to it
    move(state, "gn3", "gn1", 1)
    state.apply(f"scuttle {RAID}")
    assert actions_left(state) == 8
    assert all(s["at"] != RAID for s in view(state)["ships"])


def test_scuttle_refused_for_crewed_ship() -> None:
    state = new()
    expedition(state, 1)
    assert_illegal(state, f"scuttle {HUB}")


def test_scuttled_ship_gold_returns_to_supply() -> None:
    state = new()
    expedition(state, 1)
    explore(state, "nn1", 3, 0)
    move(state, HUB, "nn1", 1)
    move(state, "nn1", HUB, 1, 3)
    move(state, HUB, "gn5", 1, 0)
    assert ship_at(state, HUB)["gold"] == 3
    state.apply(f"scuttle {HUB}")            # green's band on gn5 is next to it
    assert view(state)["supply"]["gold"] == 50
    assert [s["where"] for s in view(state)["ships"]].count("box") == 1


# ================================================================== Gold Conversion


def gold_to_gn5(state: Any) -> None:
    """Green fetches 3 gold from nn1 to its city gn5 (6 actions)."""
    expedition(state, 1)
    explore(state, "nn1", 3, 0)
    move(state, HUB, "nn1", 1)
    move(state, "nn1", HUB, 1, 3)
    move(state, HUB, "gn5", 1, 3)


def test_conversion_one_gold_four_bands_one_action() -> None:
    state = new()
    gold_to_gn5(state)
    assert_illegal(state, "convert gn3")     # no gold there
    before = terr(state, "gn5")["bands"]
    state.apply("convert gn5")
    assert terr(state, "gn5")["gold"] == 2 and terr(state, "gn5")["bands"] == before + 4
    assert colour_row(state, "green")["pool"] == 28
    assert view(state)["supply"]["gold"] == 48
    assert actions_left(state) == 3


def test_conversion_only_in_cities_and_trading_posts() -> None:
    state = new()
    expedition(state, 2)
    explore(state, "nn1", 3, 0)
    move(state, HUB, "nn1", 2)
    assert_illegal(state, "convert nn1")


def test_conversion_requires_two_cities_of_lair() -> None:
    state = new()
    gold_to_gn5(state)
    state.apply(f"launch gn3-{PORT}")
    move(state, "gn5", PORT, 2, 3)
    move(state, PORT, "rs3", 1, 3)
    assert actions_left(state) == 1
    assert_illegal(state, "convert rs3")     # one raspberry city owned
    move(state, PORT, "rs5", 1)
    next_turn(state, "green")
    assert "convert rs3" in legal(state)     # two of them
    state.apply("convert rs3")
    assert terr(state, "rs3")["bands"] == 5 and terr(state, "rs3")["gold"] == 2


def test_conversion_central_requires_three_posts() -> None:
    state = new()
    expedition(state)
    explore(state, "post_north", 2, 0)
    move(state, HUB, "post_north", 1)
    explore(state, "post_central")
    move(state, HUB, "post_central", 1)
    assert_illegal(state, "convert post_north")   # two posts
    explore(state, "post_west")
    move(state, HUB, "post_west", 1)
    state.apply("convert post_north")
    t = terr(state, "post_north")
    assert (t["bands"], t["gold"]) == (5, 1)


def test_conversion_needs_four_bands_in_reserve() -> None:
    """M25: "One gold may be converted into 4 pirate bands": with fewer than 4 bands of
    the colour in reserve the gold is not converted (no partial conversion wasting the
    gold)."""
    # three players, orange neutral: green (not the farthest) starts with 15 bands
    state = new(3, neutral="orange")
    assert colour_row(state, "green")["pool"] == 35
    expedition(state, 1)
    explore(state, "post_central", 3, 0)         # 6 gold
    move(state, HUB, "post_central", 1)
    move(state, "post_central", HUB, 1, 6)
    explore(state, "post_north", 3, 0)
    move(state, HUB, "post_north", 1)
    move(state, "post_north", HUB, 1, 3)
    move(state, HUB, "gn5", 1, 9)
    next_turn(state, "green")
    for _ in range(8):
        state.apply("convert gn5")
    assert colour_row(state, "green")["pool"] == 3
    assert terr(state, "gn5")["gold"] == 1
    assert_illegal(state, "convert gn5")         # 4 bands due, 3 in reserve
    assert state.game._explain(state._core, state.game._action_of("convert gn5"))[0] == (
        "convert_not_allowed")
    row = colour_row(state, "green")
    assert (row["pool"], row["bands"], terr(state, "gn5")["gold"]) == (3, 47, 1)


# ================================================================== Recruitment (optional)


def test_recruitment_off_unless_agreed() -> None:
    assert not new().is_legal("recruit")
    state = new(recruitment=True)
    assert "recruit" in legal(state)


def test_recruitment_once_per_turn_one_action() -> None:
    state = new(recruitment=True)
    state.apply("recruit")                   # the home lair: 1 band
    assert view(state)["pending"]["kind"] == "place"
    assert legal(state) == {f"place {t}" for t in lair_keys("green")}
    state.apply("place gn2")
    assert phase(state) == "turn"
    assert terr(state, "gn2")["bands"] == 2 and actions_left(state) == 9
    assert_illegal(state, "recruit")
    next_turn(state, "green")
    assert "recruit" in legal(state)


def test_recruitment_once_per_turn_no_second_in_a_coup_de_main() -> None:
    """M27: "Only one recruitment is possible per turn" -- a colour recruits once from
    the start of one of its own turns to the start of the next; a Coup de main in that
    time gives three actions, not a second recruitment."""
    state = new(cards=True, recruitment=True,
                hands={1: ["coup_de_main", "dope"], 2: ["coup_de_main", "dope"]})
    next_turn(state, "raspberry")
    play(state, "recruit", "place rs2")      # raspberry's recruitment of this turn
    state.apply("end")
    asked = []
    while phase(state) == "coup":            # blue's turn begins: orange, green, raspberry
        asked.append(state.current_player)
        if state.current_player == 1:
            break
        state.apply("decline")
    assert asked == [3, 0, 1]
    state.apply("play coup_de_main raspberry")
    assert acting(state) == "raspberry" and view(state)["turn_colour"] == "blue"
    assert_illegal(state, "recruit")         # already recruited since its turn began
    assert state.game._explain(state._core, state.game._action_of("recruit"))[0] == (
        "recruited")
    state.apply("end")
    decline_windows(state)
    assert acting(state) == "blue" and "recruit" in legal(state)   # blue's own
    next_turn(state, "raspberry")
    assert "recruit" in legal(state)         # its next own turn: a new recruitment


def test_recruitment_in_a_coup_de_main_is_the_turns_one() -> None:
    """M27: a colour that recruits in a Coup de main has used its recruitment until its
    own next turn begins; green's turn (blue's Coup de main in it) keeps its own."""
    state = new(cards=True, recruitment=True, hands={2: ["coup_de_main", "dope"]},
                first_turn=False)
    while state.current_player != 2:        # green's turn begins: raspberry, blue
        state.apply("decline")
    state.apply("play coup_de_main blue")
    play(state, "recruit", "place bl2")      # blue has not recruited before
    state.apply("end")
    decline_windows(state)
    assert acting(state) == "green" and "recruit" in legal(state)
    to_turn(state, "blue")
    assert "recruit" in legal(state)         # blue's own turn: a new allowance


def test_recruitment_worked_example() -> None:
    """Green owns 5 territories of its lair, 2 of the blue lair and 9 of the central
    island: 3 bands, 1 for its lair, none for blue's, 2 for the central island, in one
    action."""
    plans = {"raspberry": (("rs5", "rs7"), {"rs7": 18}),
             "green": (("gn3", "gn5"), {"gn3": 4, "gn4": 2, "gn5": 10, "gn6": 1,
                                        "gn7": 1})}
    state = new(plans=plans, recruitment=True)
    expedition(state, 10)
    central = ("nn1", "ci1", "ci2", "ci3", "ci5", "ci7", "ci9", "ci10", "ci11")
    for t in central[:4]:
        act(state, "green", f"explore {t}", f"move {HUB}-{t} 1")
    next_turn(state, "raspberry")
    raid_green_lair(state, ("gn1", "gn2"))
    to_turn(state, "green")
    for t in central[4:]:
        act(state, "green", f"explore {t}", f"move {HUB}-{t} 1")
    next_turn(state, "green")
    act(state, "green", f"launch gn3-{PORT}", f"move gn3-{PORT} 1", f"move {PORT}-bl3 1",
        "move bl3-bl2 1")
    owned = [t["territory"] for t in view(state)["territories"] if t["flag"] == "green"]
    assert sorted(owned) == sorted(["gn3", "gn4", "gn5", "gn6", "gn7", "bl2", "bl3",
                                    *central])
    left = actions_left(state)
    pool = colour_row(state, "green")["pool"]
    state.apply("recruit")
    assert actions_left(state) == left - 1
    # the lair's band first, on a territory of the lair green owns
    assert legal(state) == {f"place {t}" for t in ("gn3", "gn4", "gn5", "gn6", "gn7")}
    state.apply("place gn4")
    assert legal(state) == {f"place {t}" for t in central}
    state.apply("place ci3")
    # non-decreasing board order: ci1 and ci2 come before ci3
    assert legal(state) == {f"place {t}" for t in central if t not in ("ci1", "ci2")}
    state.apply("place nn1")
    assert phase(state) == "turn" and actions_left(state) == left - 1
    assert terr(state, "gn4")["bands"] == 3
    assert terr(state, "ci3")["bands"] == 2 and terr(state, "nn1")["bands"] == 2
    assert colour_row(state, "green")["pool"] == pool - 3


# ================================================================== Object of the Game (M1)


def test_victory_option_announced_at_end_of_turn() -> None:
    state = new()
    take_three_posts(state)
    assert not option(state)                 # announced at the end of the turn
    state.apply("end")
    assert option(state) and not state.is_terminal()


def test_victory_confirmed_at_end_of_next_own_turn() -> None:
    state = new()
    take_three_posts(state)
    next_turn(state, "green")
    assert option(state) and not state.is_terminal()
    state.apply("end")
    assert state.is_terminal()
    v = view(state)
    assert v["winners"] == [0] and v["end_reason"] == "victory" and v["phase"] == "over"
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,)
    returns = state.returns()
    assert returns[0] > 0 and all(r < returns[0] for r in returns[1:])


def test_victory_option_removed_when_no_longer_in_victory() -> None:
    state = new(plans=RAIDER)
    take_three_posts(state)
    next_turn(state, "raspberry")
    raid_green_lair(state, ("gn1", "gn2", "gn4", "gn6"))   # green keeps 3 of 7
    to_turn(state, "green")
    state.apply("end")
    assert not state.is_terminal() and not option(state)


def test_victory_confirmed_even_if_situation_changed() -> None:
    state = new()
    take_cities(state, ("rs3", "rs5", "rs7", "bl3"))
    next_turn(state, "raspberry")
    assert option(state)
    attack(state, "rs1", "rs3", 1, 0)        # raspberry takes rs3 back
    move(state, "rs1", "rs3", 2)
    to_turn(state, "green")
    take_three_posts(state, 3)                  # now the trading posts condition
    state.apply("end")
    assert state.is_terminal() and view(state)["winners"] == [0]


def test_surprise_attack_victory_note() -> None:
    state = new(cards=True, hands={0: ["coup_de_main", "dope"]})
    take_cities(state)                       # 3 opposing cities: no victory yet
    state.apply("end")
    assert not option(state)
    while phase(state) == "coup" and state.current_player != 0:
        state.apply("decline")
    state.apply("play coup_de_main green")
    assert acting(state) == "green" and view(state)["turn_colour"] == "raspberry"
    move(state, PORT, "bl3", 1)              # the fourth city
    state.apply("end")                       # ends the Coup de main
    assert option(state)
    to_turn(state, "green")
    state.apply("end")
    assert state.is_terminal() and view(state)["winners"] == [0]


def test_lair_owned_with_four_territories() -> None:
    for taken, wins in ((("gn1", "gn2", "gn4"), True), (("gn1", "gn2", "gn4", "gn6"), False)):
        state = new(plans=RAIDER)
        take_three_posts(state)
        next_turn(state, "raspberry")
        raid_green_lair(state, taken)
        to_turn(state, "green")
        state.apply("end")
        assert state.is_terminal() is wins, taken


def test_cities_in_opposing_lairs_count() -> None:
    state = new()
    take_cities(state, ("rs3", "rs5", "rs7"))
    state.apply("end")                       # 3 cities (its own do not count)
    assert not option(state)
    to_turn(state, "green")
    move(state, PORT, "bl3", 1)              # across two opposing lairs
    state.apply("end")
    assert option(state)


# ================================================================== 3rd-Edition Variant


def test_cards_two_dealt_to_each_player_rest_in_pile() -> None:
    state = new(cards=True, hands={1: ["strategist", "gold_mine"]})
    v = view(state)
    assert hand_sizes(state) == [2, 2, 2, 2]
    assert v["deck"] == sum(DECK.values()) - 8 == 47
    assert hand(state, 1) == {"strategist": 1, "gold_mine": 1}
    assert view(state, 0)["players"][1]["hand"] is None
    assert view(state, None)["players"][1]["hand"] is None


def test_no_cards_without_the_variant() -> None:
    state = new()
    assert hand_sizes(state) == [0, 0, 0, 0]
    assert not any(m.startswith(("play", "buy")) for m in legal(state))


def test_dope_gives_three_actions() -> None:
    state = new(cards=True, hands={0: ["dope", "dope"]})
    state.apply("play dope")                 # playing a card costs no action
    assert actions_left(state) == 13
    assert hand(state, 0) == {"dope": 1} and view(state)["played"].get("dope") == 1
    next_turn(state, "green")
    assert actions_left(state) == 10         # for this turn only


def test_cards_played_on_own_turn_only() -> None:
    state = new(cards=True, hands={1: ["dope", "gold_mine"]}, first_turn=False)
    assert phase(state) == "coup" and state.current_player == 1
    assert legal(state) == {"decline"}       # in green's turn: no dope, no gold mine
    to_turn(state, "raspberry")
    assert {"play dope", "play gold_mine"} <= legal(state)


def test_buy_card_costs_two_gold_and_two_actions() -> None:
    state = new(cards=True)
    expedition(state)
    explore(state, "nn1", 3, 0)
    move(state, HUB, "nn1", 2)
    assert_illegal(state, "buy gn5")         # no gold there
    deck = view(state)["deck"]
    state.apply("buy nn1")
    assert state.current_player == CHANCE
    outcomes = {str(m): p for m, p in state.chance_outcomes()}
    assert sum(outcomes.values()) == pytest.approx(1.0)
    assert outcomes["draw gold_mine"] == pytest.approx(DECK["gold_mine"] / deck)
    state.apply("draw gold_mine")
    assert actions_left(state) == 4
    assert terr(state, "nn1")["gold"] == 1 and view(state)["supply"]["gold"] == 49
    assert hand(state, 0).get("gold_mine", 0) >= 1 and hand_sizes(state)[0] == 3
    assert view(state)["deck"] == deck - 1
    assert_illegal(state, "buy nn1")         # 1 gold left


def test_buy_card_with_gold_on_own_ship() -> None:
    state = new(cards=True)
    expedition(state, 1)
    explore(state, "nn1", 3, 0)
    move(state, HUB, "nn1", 1)
    move(state, "nn1", HUB, 1, 3)
    state.apply(f"buy {HUB}")
    state.apply("draw shipyard")
    assert ship_at(state, HUB)["gold"] == 1 and actions_left(state) == 3


def test_drawn_card_hidden_from_others() -> None:
    state = new(cards=True)
    expedition(state)
    explore(state, "nn1", 3, 0)
    move(state, HUB, "nn1", 2)
    state.apply("buy nn1")
    state.apply("draw shipyard")
    assert hand(state, 0).get("shipyard") == 1
    for viewer in (1, 2, 3, None):
        v = view(state, viewer)
        assert v["players"][0]["hand"] is None and v["players"][0]["hand_size"] == 3
        log = state.history_view(viewer)
        assert log[-1][0] == CHANCE and "shipyard" not in log[-1][1]
    assert state.history_view(0)[-1][1] == "draw shipyard"
    world = state.determinize(1, seed=3)
    assert hand_sizes(world) == hand_sizes(state)


def test_special_discovery_doubles_find() -> None:
    state = new(cards=True, hands={0: ["discovery", "discovery"]})
    expedition(state)
    explore(state, "nn1", 1, 2, special=True)
    t = terr(state, "nn1")
    assert (t["gold"], t["natives"]) == (2, 4)
    assert hand(state, 0) == {"discovery": 1} and actions_left(state) == 7
    explore(state, "post_central", 2, 1, special=True)  # x4 at the central post
    t = terr(state, "post_central")
    assert (t["gold"], t["natives"]) == (8, 4)
    assert_illegal(state, "explore post_north special")   # no card left


def test_pirate_recruitment_card_one_roll_one_territory() -> None:
    state = new(cards=True, hands={0: ["recruitment", "dope"]})
    state.apply("play recruitment")
    assert state.current_player == CHANCE
    assert {str(m): p for m, p in state.chance_outcomes()} == pytest.approx(
        {"spears 0": 1 / 6, "spears 1": 2 / 6, "spears 2": 2 / 6, "spears 3": 1 / 6})
    state.apply("spears 3")
    assert legal(state) == {f"place {t}" for t in lair_keys("green")}
    state.apply("place gn1")
    assert terr(state, "gn1")["bands"] == 4 and phase(state) == "turn"
    assert actions_left(state) == 10


def test_big_recruitment_two_different_territories() -> None:
    """M13: "after each roll, add the corresponding number of pirate bands of your colour
    to two of your territories": each roll to one territory, the second roll's to another
    than the first's."""
    state = new(cards=True, hands={0: ["big_recruitment", "dope"]})
    state.apply("play big_recruitment")
    state.apply("spears 2")
    assert_illegal(state, "place rs1")       # one of YOUR territories
    state.apply("place gn4")
    assert terr(state, "gn4")["bands"] == 3
    assert state.current_player == CHANCE    # the second roll
    state.apply("spears 3")
    assert_illegal(state, "place gn4")       # not the first roll's territory again
    assert legal(state) == {f"place {t}" for t in lair_keys("green") if t != "gn4"}
    state.apply("place gn1")
    assert (terr(state, "gn4")["bands"], terr(state, "gn1")["bands"]) == (3, 4)
    assert phase(state) == "turn" and colour_row(state, "green")["bands"] == 23


def test_big_recruitment_blank_first_roll_places_nowhere() -> None:
    """M13: a blank first roll adds bands to no territory, so the second roll may go to
    any of the player's territories."""
    state = new(cards=True, hands={0: ["big_recruitment", "dope"]})
    state.apply("play big_recruitment")
    state.apply("spears 0")
    assert state.current_player == CHANCE
    state.apply("spears 2")
    assert legal(state) == {f"place {t}" for t in lair_keys("green")}


def test_gold_mine_on_own_territory() -> None:
    state = new(cards=True, hands={0: ["gold_mine", "dope"]})
    state.apply("play gold_mine")
    assert legal(state) == {f"place {t}" for t in lair_keys("green")}
    state.apply("place gn4")
    assert terr(state, "gn4")["gold"] == 3 and view(state)["supply"]["gold"] == 47
    assert actions_left(state) == 10


def test_mobilisation_on_explored_unoccupied() -> None:
    state = new(cards=True, hands={0: ["mobilisation", "dope"]})
    expedition(state)
    explore(state, "nn1")
    explore(state, "ci1")
    explore(state, "ci2")
    move(state, HUB, "ci1", 1)
    move(state, "ci1", HUB, 1)               # ci1: green's flag, nobody there
    move(state, HUB, "ci2", 1)               # ci2: occupied
    state.apply("play mobilisation")
    state.apply("spears 2")
    assert legal(state) == {"place nn1", "place ci1"}
    state.apply("place ci1")
    t = terr(state, "ci1")
    assert (t["natives"], t["flag"]) == (2, "green")     # M13: the flag stays
    assert view(state)["supply"]["natives"] == 48


def test_native_mobilisation_keeps_the_owners_flag() -> None:
    """M13: a flag "is removed only if it is replaced by the flag of another invader",
    and the card invades nothing: natives mobilised on green's empty trading post leave
    it green's, so a free card cannot take the post, nor green's victory, without a
    fight."""
    state = new(cards=True, hands={1: ["mobilisation", "dope"]})
    take_three_posts(state)
    move(state, "post_north", HUB, 1)        # the north post left empty, flag green
    state.apply("end")
    assert option(state)                     # green announces its victory
    to_turn(state, "raspberry")
    state.apply("play mobilisation")
    state.apply("spears 3")                  # the only explored, unoccupied territory
    t = terr(state, "post_north")
    assert (t["natives"], t["flag"], t["bands"]) == (3, "green", 0)
    assert state.in_victory("green")
    to_turn(state, "green")
    assert_illegal(state, f"move {HUB}-post_north")   # the natives must be fought
    state.apply("end")
    assert state.is_terminal() and view(state)["winners"] == [0]


def test_big_mobilisation_two_different_territories() -> None:
    """M13: "on two territories ... that have already been explored and are
    unoccupied": the card needs two such territories, and the second roll's natives go
    to the other one (the engine places them there, the only choice left)."""
    state = new(cards=True, hands={0: ["big_mobilisation", "mobilisation"]})
    expedition(state)
    explore(state, "nn1")
    assert "play mobilisation" in legal(state)
    assert_illegal(state, "play big_mobilisation")    # one territory only
    explore(state, "ci1")
    state.apply("play big_mobilisation")
    state.apply("spears 1")
    state.apply("place nn1")
    state.apply("spears 3")                  # nn1 refused: ci1 is the only place
    assert phase(state) == "turn"
    assert terr(state, "nn1")["natives"] == 1 and terr(state, "ci1")["natives"] == 3


def test_strategist_look_costs_action() -> None:
    state = new(cards=True, hands={0: ["strategist", "dope"]})
    deck = view(state)["deck"]
    state.apply("play strategist")
    assert state.current_player == CHANCE
    state.apply("draw gold_mine")
    assert actions_left(state) == 9 and phase(state) == "look"
    assert legal(state) == {"take", "look"}
    assert view(state, 1)["players"][0]["hand_size"] == 1
    state.apply("look")
    state.apply("draw shipyard")
    assert actions_left(state) == 8
    state.apply("take")                      # the card just looked at, free
    assert hand(state, 0) == {"dope": 1, "shipyard": 1}
    assert view(state)["deck"] == deck - 1   # the gold mine went back
    assert actions_left(state) == 8 and phase(state) == "turn"
    assert not any("gold_mine" in m or "shipyard" in m for _p, m in state.history_view(1))
    assert (CHANCE, "draw gold_mine") in state.history_view(0)


def test_strategist_takes_card_when_no_action_left() -> None:
    state = new(cards=True, hands={0: ["strategist", "dope"]})
    expedition(state)
    for _ in range(3):
        play(state, f"sail {HUB}-s_e3", f"sail s_e3-{HUB}")
    state.apply(f"sail {HUB}-s_e3")
    assert actions_left(state) == 1
    state.apply("play strategist")
    state.apply("draw discovery")
    assert actions_left(state) == 0 and phase(state) == "turn"
    assert hand(state, 0) == {"dope": 1, "discovery": 1}


def test_shipyard_new_ship_on_city_without_ship() -> None:
    state = new(cards=True, hands={0: ["shipyard", "dope"]})
    assert_illegal(state, "play shipyard")   # no ship in the box
    state.apply(f"launch gn3-{PORT}")
    state.apply(f"scuttle {PORT}")           # green's bands on gn3 are next to it
    state.apply("play shipyard")
    assert legal(state) == {"place gn3", "place gn7"}   # gn5 has its ship
    state.apply("place gn7")
    assert {s["at"] for s in ships_of(state, "green") if s["where"] == "city"} == {
        "gn5", "gn7"}


def test_attack_weapon_replaces_roll() -> None:
    state = new(cards=True, hands={0: ["attack_weapon", "dope"]})
    expedition(state)
    explore(state, "nn1", 0, 3)
    attack(state, HUB, "nn1", 0, 2, decline=False)
    assert phase(state) == "attack_weapon" and state.current_player == 0
    assert legal(state) == {"play attack_weapon", "decline"}
    state.apply("play attack_weapon")
    # natives are no player's: no defence weapon window
    assert phase(state) == "turn"
    assert terr(state, "nn1")["natives"] == 1 and ship_at(state, HUB)["bands"] == 8


def test_defence_weapon_last_played_stands() -> None:
    state = new(cards=True, hands={0: ["attack_weapon", "dope"], 1: ["defence_weapon", "dope"]},
                plans={"raspberry": (("rs5", "rs7"), {"rs3": 18})})
    take_cities(state, ())
    attack(state, PORT, "rs3", 1, 0, decline=False)
    state.apply("play attack_weapon")
    assert phase(state) == "defence_weapon" and state.current_player == 1
    assert legal(state) == {"play defence_weapon", "decline"}
    state.apply("play defence_weapon")
    assert terr(state, "rs3")["bands"] == 18     # neither the roll nor the attack weapon
    assert ship_at(state, PORT)["bands"] == 3    # two attackers eliminated
    played = view(state)["played"]
    assert played.get("attack_weapon") == 1 and played.get("defence_weapon") == 1


def test_weapon_windows_declined_keep_the_roll() -> None:
    state = new(cards=True, plans={"raspberry": (("rs5", "rs7"), {"rs3": 18})})
    take_cities(state, ())
    state.apply(f"attack {PORT}-rs3")
    state.apply("hits 2 0")
    assert phase(state) == "attack_weapon" and legal(state) == {"decline"}
    state.apply("decline")
    assert phase(state) == "defence_weapon" and state.current_player == 1
    assert legal(state) == {"decline"}
    state.apply("decline")
    assert terr(state, "rs3")["bands"] == 16 and ship_at(state, PORT)["bands"] == 5


def test_coup_window_opens_for_every_player_who_could_hold_it() -> None:
    state = new(cards=True, hands={2: ["coup_de_main", "dope"]}, first_turn=False,
                reaction_windows="turn_start")
    asked = []
    while phase(state) == "coup":
        asked.append((state.current_player, legal(state)))
        state.apply("decline")
    assert asked == [(1, {"decline"}), (2, {"decline", "play coup_de_main blue"}),
                     (3, {"decline"})]
    assert phase(state) == "turn" and state.current_player == 0
    # turn_start: no window after an action
    state.apply(f"launch gn5-{HUB}")
    assert phase(state) == "turn" and state.current_player == 0


def test_coup_de_main_window_by_default_after_every_action() -> None:
    """M4: "This card must be played during the turn of another player. You interrupt
    their turn and play three actions in a row": by default (``every_action``) the
    windows open before a turn's first action and again after each of its actions."""
    assert boardrules.load("armada", cards=True).options["reaction_windows"] == (
        "every_action")
    state = boardrules.load("armada", cards=True, board=TEST_BOARD).new_game(
        seed=1, auto_chance=False)
    setup(state, None, {2: ["coup_de_main", "dope"]})
    for _ in range(3):                       # before green's first action
        state.apply("decline")
    assert phase(state) == "turn" and state.current_player == 0
    state.apply(f"launch gn5-{HUB}")
    asked = []
    while phase(state) == "coup" and state.current_player != 2:
        asked.append(state.current_player)
        state.apply("decline")
    assert asked == [1] and legal(state) == {"decline", "play coup_de_main blue"}
    state.apply("play coup_de_main blue")    # blue interrupts green's turn
    assert (acting(state), view(state)["turn_colour"]) == ("blue", "green")
    state.apply("end")
    assert phase(state) == "coup" and state.current_player == 3   # the window goes on
    state.apply("decline")
    assert (acting(state), actions_left(state)) == ("green", 9)


def test_coup_windows_every_action_and_off() -> None:
    state = new(cards=True, reaction_windows="every_action")
    state.apply(f"launch gn5-{HUB}")
    assert phase(state) == "coup" and state.current_player == 1
    quiet = new(cards=True, hands={1: ["coup_de_main", "dope"]}, reaction_windows="off",
                first_turn=False)
    assert phase(quiet) == "turn" and quiet.current_player == 0
    quiet.apply("end")
    assert phase(quiet) == "turn" and quiet.current_player == 1


def test_coup_de_main_takes_three_actions() -> None:
    state = new(cards=True, hands={1: ["coup_de_main", "dope"]}, first_turn=False)
    assert state.current_player == 1 and phase(state) == "coup"
    state.apply("play coup_de_main raspberry")
    v = view(state)
    assert v["acting_colour"] == "raspberry" and v["turn_colour"] == "green"
    assert (v["coup"]["colour"], v["coup"]["actions_left"]) == ("raspberry", 3)
    assert state.current_player == 1
    move(state, "rs1", "rs2", 4)
    move(state, "rs1", "rs3", 4)
    move(state, "rs2", "rs3", 1)
    assert not any(m.startswith(("move", "launch", "attack", "explore", "sail"))
                   for m in legal(state))
    if acting(state) == "raspberry":
        state.apply("end")
    decline_windows(state)
    v = view(state)
    assert v["acting_colour"] == "green" and v["coup"] is None
    assert v["actions_left"] == 10 and state.current_player == 0
    assert terr(state, "rs3")["bands"] == 5


def test_no_coup_window_inside_coup() -> None:
    state = new(cards=True, hands={1: ["coup_de_main", "dope"], 2: ["coup_de_main", "dope"]},
                reaction_windows="every_action", first_turn=False)
    state.apply("play coup_de_main raspberry")
    move(state, "rs1", "rs2", 1)
    assert phase(state) == "turn" and state.current_player == 1   # no window for blue
    state.apply("end")
    decline_windows(state)
    assert acting(state) == "green"
    state.apply(f"launch gn5-{HUB}")          # outside the Coup de main: windows again
    assert phase(state) == "coup" and state.current_player == 1


# ================================================================== Two-Player Rule


def test_two_player_seats_two_colours_each() -> None:
    state = new(2)
    v = view(state)
    assert [p["colours"] for p in v["players"]] == [["green", "blue"], ["raspberry", "orange"]]
    seen = []
    for _ in range(4):
        seen.append((view(state)["turn_colour"], state.current_player))
        state.apply("end")
    assert seen == [("green", 0), ("raspberry", 1), ("blue", 0), ("orange", 1)]
    assert all(colour_row(state, c)["bands"] == 18 for c in COLOURS)


def test_two_player_colours_are_separate() -> None:
    state = new(2, plans={"blue": (("bl5", "bl7"), {"bl3": 18})})
    take_cities(state, ())
    assert_illegal(state, f"move {PORT}-bl3")    # never share a place
    assert_illegal(state, f"attack {PORT}-bl3")  # never attack each other
    to_turn(state, "blue")
    assert state.current_player == 0
    assert_illegal(state, f"move bl3-{PORT}")    # green's ship: not blue's


def test_two_player_either_colour_victory_wins() -> None:
    state = new(2, plans={"blue": (("bl3", "bl5"), {"bl3": 18})})
    to_turn(state, "blue")
    state.apply(f"launch bl3-{BLUE_PORT}")
    move(state, "bl3", BLUE_PORT, 5)
    for city in ("rs3", "rs5", "rs7", "or3"):
        move(state, BLUE_PORT, city, 1)
    next_turn(state, "blue")
    assert option(state, "blue")
    state.apply("end")
    assert state.is_terminal() and view(state)["winners"] == [0]
    assert state.returns()[0] > state.returns()[1]


def test_partner_lair_cities_do_not_count_in_two_player_game() -> None:
    # M10 (as changed by the lead): the lairs of colours OTHER players play count
    plans = {"blue": (("bl5", "bl7"), {"bl1": 18}), "orange": (("or5", "or7"), {"or1": 18})}
    state = new(2, plans=plans)
    take_cities(state, ("rs3", "rs5", "rs7", "bl3"))   # bl3: the partner colour's
    partner = state.copy()
    partner.apply("end")
    assert not option(partner)
    move(state, PORT, "or3", 1)              # or3: the other player's orange
    state.apply("end")
    assert option(state)


def test_neutral_lair_cities_count_in_three_player_game() -> None:
    state = new(3, neutral="orange", plans={"raspberry": (("rs3", "rs5"), {"rs1": 20})})
    take_cities(state, ("rs3", "rs5", "rs7"))
    assert_illegal(state, f"move {PORT}-or3")        # 3 neutral bands defend it
    attack(state, PORT, "or3", 2, 0)
    attack(state, PORT, "or3", 1, 0)
    move(state, PORT, "or3", 1)
    state.apply("end")
    assert option(state)


# ================================================================== Three-Player Rule


def test_three_player_neutral_lair() -> None:
    state = new(3, neutral="orange")
    v = view(state)
    orange = colour_row(state, "orange")
    assert (orange["neutral"], orange["in_play"], orange["player"]) == (True, False, None)
    assert [p["colours"] for p in v["players"]] == [["green"], ["raspberry"], ["blue"]]
    for key in lair_keys("orange"):
        t = terr(state, key)
        assert t["colour"] == "orange"
        assert t["bands"] == (3 if ARCHIPELAGO.territories[
            ARCHIPELAGO.territory_index(key)].city else 1)
    assert orange["bands"] == 13
    turns = []
    for _ in range(4):
        turns.append(view(state)["turn_colour"])
        state.apply("end")
    assert turns == ["green", "raspberry", "blue", "green"]


def test_neutral_bands_defend_like_natives() -> None:
    state = new(3, neutral="orange", cards=True, plans={"blue": (("bl3", "bl5"), {"bl3": 15})})
    to_turn(state, "blue")
    state.apply(f"launch bl3-{BLUE_PORT}")
    move(state, "bl3", BLUE_PORT, 5)
    assert_illegal(state, f"move {BLUE_PORT}-or3")    # 3 neutral bands hold it
    state.apply(f"attack {BLUE_PORT}-or3")
    state.apply("hits 2 0")
    if phase(state) == "attack_weapon":      # blue's own window
        state.apply("decline")
    assert phase(state) == "turn"                    # no defence weapon for the neutral
    attack(state, BLUE_PORT, "or3", 1, 0)
    move(state, BLUE_PORT, "or3", 2)
    assert terr(state, "or3")["flag"] == "blue"


@pytest.mark.parametrize("neutral", COLOURS)
def test_farthest_player_gets_five_more(neutral: str) -> None:
    state = new(3, neutral=neutral)
    far = ARCHIPELAGO.farthest(neutral)
    for colour in COLOURS:
        if colour != neutral:
            expected = 20 if colour == far else 15
            assert colour_row(state, colour)["bands"] == expected, colour
            assert len(ships_of(state, colour)) == 2


def test_three_player_seats_skip_the_neutral() -> None:
    state = new(3, neutral="green")
    assert [p["colours"] for p in view(state)["players"]] == [["raspberry"], ["blue"],
                                                              ["orange"]]
    assert view(state)["turn_colour"] == "raspberry" and state.current_player == 0


# ================================================================== End of play


def test_colour_with_nothing_left_can_end() -> None:
    state = new(plans={"raspberry": (("rs5", "rs7"), {"rs7": 18})})
    take_cities(state, ())
    move(state, "gn5", PORT, 3)              # 8 aboard
    for _ in range(7):
        attack(state, PORT, "rs7", 2, 0)
    next_turn(state, "green")
    attack(state, PORT, "rs7", 2, 0)
    attack(state, PORT, "rs7", 2, 0)
    assert colour_row(state, "raspberry")["bands"] == 0
    next_turn(state, "raspberry")
    moves = legal(state)
    assert "end" in moves
    assert not any(m.startswith(("move", "attack", "explore", "sail", "convert"))
                   for m in moves)
    state.apply("end")
    assert view(state)["turn_colour"] == "blue"
    to_turn(state, "raspberry")              # it keeps its place in the turn order


def test_round_cap_draw() -> None:
    state = new(max_rounds=2)
    for _ in range(7):
        state.apply("end")
    assert not state.is_terminal()
    state.apply("end")
    assert state.is_terminal()
    v = view(state)
    assert v["end_reason"] == "round_cap" and not v["winners"]
    assert state.returns() == (0.0, 0.0, 0.0, 0.0)
    outcome = state.outcome()
    assert outcome is not None and outcome.winners in ((), (0, 1, 2, 3))


def test_flags_exhausted_refuses_invasion() -> None:
    """Green plants all 30 of its flags (15 in the other lairs without a fourth city,
    15 on the central island and its neighbours without a trading post); then it can
    invade nothing more, though it may still move into its own places."""
    hub = "s_e2"
    extra = {hub: ("rs1", "rs4", "rs6", "bl1", "bl4", "bl6", "or1", "or4", "or6", "ci1",
                   "sn1", "sn2", "sn3", "sn4")}
    plans = {"green": (("gn3", "gn5"), {"gn3": 2, "gn5": 14, "gn7": 2}),
             "raspberry": (("rs3", "rs5"), {"rs5": 18}),
             "blue": (("bl3", "bl5"), {"bl5": 18}),
             "orange": (("or3", "or5"), {"or5": 18})}
    state = new(plans=plans, board=board_with(extra, "flags"))
    steps = [f"launch gn5-{hub}", f"move gn5-{hub} 10"]
    steps += [f"move {hub}-rs1 1", "move rs1-rs2 1", "move rs2-rs3 1", f"move {hub}-rs4 1",
              f"move {hub}-rs6 1", "move rs6-rs7 1",
              f"move {hub}-bl1 1", "move bl1-bl2 1", f"move {hub}-bl4 1",
              f"move {hub}-bl6 1", "move bl6-bl7 1",
              f"move {hub}-or1 1", "move or1-or2 1", f"move {hub}-or4 1",
              f"move {hub}-or6 1"]                       # 15 lair flags, 3 cities
    steps += ["explore ci1", f"move {hub}-ci1 1"]
    chain = ["ci1", "ci4", "ci5", "ci9", "ci10", "ci6", "ci7", "ci8", "ci11"]
    for a, b in itertools.pairwise(chain):
        steps += [f"explore {b}", f"move {a}-{b} 1"]     # 9 central flags
    steps += [f"move gn5-{hub} 4", "explore sn1", f"move {hub}-sn1 1"]
    sn_chain = ["sn1", "sn2", "sn4", "sn3"]
    for a, b in itertools.pairwise(sn_chain):
        steps += [f"explore {b}", f"move {a}-{b} 1"]     # 4 neighbour flags
    steps += ["explore nn1", f"move {hub}-nn1 1"]                       # the 29th
    steps += [f"sail {hub}-s_e3", "explore nn3", "move s_e3-nn3 1"]     # the 30th
    act(state, "green", *steps)
    assert colour_row(state, "green")["flags"] == 30
    assert not option(state)
    if actions_left(state) < 3:
        next_turn(state, "green")
    assert_illegal(state, "move or6-or7")     # an empty territory, but no flag left
    explore(state, "post_south")              # exploring needs no flag
    assert_illegal(state, "move ci11-post_south")
    move(state, "nn1", "nn3", 1)              # its own territory: no flag needed
    assert terr(state, "nn3")["bands"] == 2


# ================================================================== Persistence and bad input


def test_save_and_restore_mid_decision() -> None:
    state = new(cards=True, hands={0: ["strategist", "dope"]})
    expedition(state)
    explore(state, "nn1", 2, 1)
    state.apply(f"move {HUB}-gn5")           # waiting for the number of bands
    text = state.to_json()
    again = state.game.state_from_json(text)
    assert again.view(0) == state.view(0) and legal(again) == legal(state)


def test_unknown_move_text_refused() -> None:
    state = new()
    with pytest.raises(ValueError):
        state.apply("move gn5-nowhere")
    with pytest.raises(IllegalMoveError):
        state.apply(f"move {HUB}-gn5")       # a route, but no ship there


def test_bad_options_refused() -> None:
    for options in ({"players": 5}, {"players": 3, "neutral": "purple"},
                    {"reaction_windows": "sometimes"}, {"max_rounds": 0}):
        with pytest.raises((TypeError, ValueError)):
            boardrules.load("armada", **options)


# ================================================================== more rule tests


def test_attack_ship_from_adjacent_territory() -> None:
    state = new(plans={"raspberry": RAIDER["raspberry"],
                       "green": (("gn3", "gn5"), {"gn4": 6, "gn5": 12})})
    next_turn(state, "raspberry")
    state.apply(f"launch rs7-{RAID}")
    move(state, "rs7", RAID, 3)
    to_turn(state, "green")
    attack(state, "gn4", RAID, 2, 0)         # the stack on gn4 fights the ship next to it
    attack(state, "gn4", RAID, 0, 1)
    assert ship_at(state, RAID)["bands"] == 1 and terr(state, "gn4")["bands"] == 5


def test_attack_refused_against_own_colour_and_empty_places() -> None:
    state = new()
    expedition(state)
    assert not state.is_legal(f"attack {HUB}-gn5")   # green's own bands
    assert not state.is_legal(f"attack {HUB}-ci1")   # nobody there


def test_land_combat_between_territories() -> None:
    state = new(plans={"raspberry": (("rs3", "rs5"), {"rs1": 10, "rs2": 8})})
    take_cities(state, ("rs3",))
    move(state, PORT, "rs3", 2)              # 3 green bands on rs3
    next_turn(state, "raspberry")
    attack(state, "rs2", "rs3", 2, 0)
    attack(state, "rs2", "rs3", 0, 1)
    assert terr(state, "rs3")["bands"] == 1 and terr(state, "rs2")["bands"] == 7
    assert terr(state, "rs1")["bands"] == 10   # another stack is not committed
    attack(state, "rs1", "rs3", 1, 0)
    assert terr(state, "rs3")["bands"] == 0 and terr(state, "rs3")["flag"] == "green"
    move(state, "rs1", "rs3", 2)
    assert terr(state, "rs3")["flag"] == "raspberry"


def test_recruitment_band_per_controlled_enemy_lair() -> None:
    state = new(recruitment=True)
    take_cities(state, ("rs3", "rs5", "rs7"))
    move(state, "rs3", "rs2", 1)             # 4 raspberry territories: that lair too
    state.apply("recruit")
    placed = []
    while phase(state) == "place":
        options = sorted(m.split()[1] for m in legal(state))
        placed.append(options)
        state.apply(f"place {options[-1]}")
    assert len(placed) == 2                  # green's lair and raspberry's
    assert set(placed[0]) == set(lair_keys("green"))
    assert set(placed[1]) <= {"rs2", "rs3", "rs5", "rs7"}


def test_deal_hidden_from_other_players() -> None:
    state = new(cards=True, hands={0: ["strategist", "gold_mine"]})
    cards = {f"draw {k}" for k in DECK}
    for viewer in (1, 2, 3):
        shown = [m for p, m in state.history_view(viewer) if p == CHANCE and m in cards]
        assert len(shown) == 2               # his own two cards only
    assert view(state, None)["players"][0]["hand"] is None


def test_determinize_keeps_own_hand() -> None:
    state = new(cards=True, hands={0: ["strategist", "gold_mine"]})
    world = state.determinize(0, seed=4)
    assert hand(world, 0) == {"strategist": 1, "gold_mine": 1}
    assert hand_sizes(world) == [2, 2, 2, 2]
    assert world.view(0) == state.view(0)


def test_no_window_for_player_with_empty_hand() -> None:
    state = new(cards=True, hands={1: ["dope", "dope"]})
    state.apply("end")
    decline_windows(state)
    play(state, "play dope", "play dope")    # raspberry's hand is empty now
    assert hand_sizes(state)[1] == 0 and actions_left(state) == 16
    state.apply("end")
    asked = []
    while phase(state) == "coup":
        asked.append(state.current_player)
        state.apply("decline")
    assert asked == [3, 0]                   # blue's turn: orange, green; not raspberry


def test_buy_needs_the_buyers_bands_on_the_gold() -> None:
    state = new(cards=True)
    expedition(state)
    explore(state, "nn1", 3, 1)
    assert terr(state, "nn1")["flag"] == "brown"
    assert_illegal(state, "buy nn1")         # no green band there


def test_victory_with_another_lair_owned() -> None:
    """"Own a lair": any lair.  Green, its home lair raided down to 3 territories, owns
    raspberry's (4 territories) and 4 opposing cities: it wins."""
    plans = {"green": RAIDER["green"], "blue": (("bl5", "bl7"), {"bl7": 18})}
    state = new(plans=plans)
    take_cities(state, ("rs3", "rs5", "rs7", "bl3"))
    next_turn(state, "blue")
    state.apply(f"launch bl7-{RAID}")
    move(state, "bl7", RAID, 5)
    for t in ("gn1", "gn2", "gn4", "gn6"):
        move(state, RAID, t, 1)
    to_turn(state, "green")
    assert option(state)
    lost = state.copy()
    lost.apply("end")                        # no lair owned: the option goes
    assert not lost.is_terminal() and not option(lost)
    move(state, "rs3", "rs2", 1)             # raspberry's lair: rs2, rs3, rs5, rs7
    state.apply("end")
    assert state.is_terminal() and view(state)["winners"] == [0]


def test_two_player_coup_de_main_names_the_colour() -> None:
    state = new(2, cards=True, hands={1: ["coup_de_main", "dope"]}, first_turn=False)
    asked = []
    while phase(state) == "coup":
        asked.append((state.current_player, legal(state)))
        if state.current_player == 1:
            break
        state.apply("decline")
    # green's turn: only the other player is asked, and he names one of his colours
    assert asked == [(1, {"decline", "play coup_de_main raspberry",
                          "play coup_de_main orange"})]
    state.apply("play coup_de_main orange")
    assert acting(state) == "orange" and state.current_player == 1
    assert view(state)["turn_colour"] == "green"


def test_other_cards_playable_during_coup() -> None:
    state = new(cards=True, hands={1: ["coup_de_main", "gold_mine"]}, first_turn=False)
    state.apply("play coup_de_main raspberry")
    assert "play gold_mine" in legal(state)   # "You may play other special cards"
    state.apply("play gold_mine")
    state.apply("place rs2")
    assert terr(state, "rs2")["gold"] == 3
    assert view(state)["coup"]["actions_left"] == 3   # playing it cost no action


def test_view_lists_the_deciders_legal_moves() -> None:
    state = new(cards=True, first_turn=False)
    decider = state.current_player
    assert sorted(view(state, decider)["legal_moves"]) == sorted(legal(state))
    other = (decider + 1) % 4
    assert not view(state, other)["legal_moves"]


def test_sea_combat_ends_when_the_ship_has_no_crew() -> None:
    state = new(plans=RAIDER)
    next_turn(state, "raspberry")
    state.apply(f"launch rs7-{RAID}")
    move(state, "rs7", RAID, 2)
    to_turn(state, "green")
    state.apply(f"launch gn3-{PORT}")
    move(state, "gn5", PORT, 6)
    attack(state, PORT, RAID, 1, 0)
    attack(state, PORT, RAID, 1, 0)
    assert ship_at(state, RAID)["bands"] == 0 and ship_at(state, RAID)["crew"] is None
    assert not state.is_legal(f"attack {PORT}-{RAID}")   # nobody aboard to fight


def test_no_coup_window_once_every_copy_is_played() -> None:
    """Public information: with the deck's only Coup de main played face up, nobody can
    hold one, so no window opens any more."""
    doc = json.loads((DECKS_DIR / "third_edition.json").read_text(encoding="utf-8"))
    doc["name"], doc["provenance"] = "one_coup", "user"
    for card in doc["cards"]:
        if card["key"] == "coup_de_main":
            card["count"] = 1
    state = new(cards=True, deck=doc, hands={1: ["coup_de_main", "dope"]}, first_turn=False)
    state.apply("play coup_de_main raspberry")
    state.apply("end")
    decline_windows(state)
    assert acting(state) == "green"
    state.apply("end")
    assert phase(state) == "turn" and state.current_player == 1   # no window
