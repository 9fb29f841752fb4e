"""Rome & Carthage: tests named after the rules of the rulebook (sections as in
docs/rome_and_carthage.rst) and the readings R1.. of its unclear points, on positions
built from move sequences in the notation.

Most tests use a small map of the shipped schema (``TEST_MAP``), each empire ``xx`` with
cities xx0 (capital, port) .. xx8::

    xx0 - xx1 - xx3 - xx5(port)      land routes inside each empire
      \\          |
       xx2 - xx4 - xx6(port)         plus xx3-xx7, xx4-xx8, xx7-xx8
                  |
                 xx8

    frontiers (land): ro7-ca8, ro8-by7, al7-by8, al8-ca7
    sea: xx0-xx5 in every empire, ro5-ca5, ro6-al6, al5-by5, ca6-by6, ro6-ro9
    island "insula": ro9 (port) - ro10 (no port), Rome's

Teams by default: Rome + Alexandria (team 0) against Carthage + Byzantium (team 1).
Every test places all 28 armies (``LAYOUT``: xx0-xx2 infantry, xx3 chariot, xx4
elephant, xx5-xx6 galleys; overridable), so play starts in round 3.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from rome_and_carthage_helpers import BATTLE_AT_SALONA

from boardrules import CHANCE, IllegalMoveError, InvalidOptionError, Termination
from boardrules.games.rome_and_carthage import RomeCarthageGame, RomeCarthageState

PREFIX = {"rome": "ro", "carthage": "ca", "byzantium": "by", "alexandria": "al"}
LAND = [(0, 1), (0, 2), (1, 3), (2, 4), (3, 5), (4, 6), (3, 7), (4, 8), (7, 8)]


def _test_map() -> dict[str, Any]:
    cities: list[dict[str, Any]] = []
    land: list[list[str]] = []
    sea: list[list[str]] = []
    for n, (empire, p) in enumerate(PREFIX.items()):
        for i in range(9):
            cities.append({"key": f"{p}{i}", "name": f"{empire.title()} {i}",
                           "empire": empire, "capital": i == 0, "port": i in (0, 5, 6),
                           "island": None, "x": 100 + 200 * n + 20 * i, "y": 100 + 40 * i})
        land += [[f"{p}{a}", f"{p}{b}"] for a, b in LAND]
        sea.append([f"{p}0", f"{p}5"])
    cities.append({"key": "ro9", "name": "Insula Portus", "empire": "rome", "capital": False,
                   "port": True, "island": "insula", "x": 500, "y": 600})
    cities.append({"key": "ro10", "name": "Insula Interior", "empire": "rome",
                   "capital": False, "port": False, "island": "insula", "x": 540, "y": 640})
    land += [["ro7", "ca8"], ["ro8", "by7"], ["al7", "by8"], ["al8", "ca7"], ["ro9", "ro10"]]
    sea += [["ro5", "ca5"], ["ro6", "al6"], ["al5", "by5"], ["ca6", "by6"], ["ro6", "ro9"]]
    return {"format": "boardrules-board", "format_version": 1, "game": "rome_and_carthage",
            "name": "test", "title": "Test map", "provenance": "reconstructed",
            "sources": ["tests"], "cities": cities, "land": land, "sea": sea}


TEST_MAP = _test_map()
KIND_AT = {0: "infantry", 1: "infantry", 2: "infantry", 3: "chariot", 4: "elephant",
           5: "galley", 6: "galley"}
LAYOUT = {f"{p}{i}": kind for p in PREFIX.values() for i, kind in KIND_AT.items()}


def new_game(players: int = 2, layout: dict[str, str] | None = None,
             auto_forced: bool = True, **options: Any) -> RomeCarthageState:
    """A game on the test map with every army placed (round 3, chance not automatic;
    forced steps taken unless ``auto_forced`` is False)."""
    game = RomeCarthageGame(players, board=TEST_MAP, **options)
    state = game.new_game(seed=1, auto_chance=False, auto_forced=auto_forced)
    place(state, layout or LAYOUT)
    return state


def place(state: RomeCarthageState, layout: dict[str, str]) -> None:
    """Turns 1 and 2: each placement in ``layout`` order as soon as it is legal."""
    wanted = [f"{kind}@{city}" for city, kind in layout.items()]
    while state.phase == "place":
        legal = {str(m) for m in state.legal_moves()}
        state.apply(next(m for m in wanted if m in legal))


def arrange(placed: dict[str, str] | None = None, empty: tuple[str, ...] = ()
            ) -> dict[str, str]:
    """A layout with the armies ``placed`` where given, no army on the ``empty`` cities,
    and each empire's other armies where LAYOUT puts them (else on its spare cities)."""
    placed = placed or {}
    layout: dict[str, str] = {}
    for p in PREFIX.values():
        cities = [f"{p}{i}" for i in range(11 if p == "ro" else 9)]
        left = Counter({"infantry": 3, "galley": 2, "chariot": 1, "elephant": 1})
        for city, kind in placed.items():
            if city.startswith(p) and city[len(p):].isdigit():
                layout[city] = kind
                left[kind] -= 1
        free = [c for c in cities if c not in placed and c not in empty]
        for city in list(free):
            kind = LAYOUT.get(city)
            if kind is not None and left[kind] > 0:
                layout[city] = kind
                left[kind] -= 1
                free.remove(city)
        for kind, count in left.items():
            for _ in range(count):
                layout[free.pop(0)] = kind
    return layout


def play(state: RomeCarthageState, *moves: str) -> None:
    for move in moves:
        state.apply(move)


def attack(state: RomeCarthageState, draw: int, move: str) -> None:
    """A turn whose one move enters an enemy city, then ``done`` if more could follow:
    the battle is about to start."""
    turn(state, draw, move)
    if state.phase == "moved":
        play(state, "done")


def turn(state: RomeCarthageState, draw: int, *moves: str) -> None:
    """A turn: the draw (chance), then the moves."""
    assert state.current_player == CHANCE
    state.apply(f"draw {draw}")
    play(state, *moves)


def legal(state: RomeCarthageState) -> set[str]:
    return {str(m) for m in state.legal_moves()}


def simple_moves(state: RomeCarthageState) -> set[str]:
    """The legal moves that may end where they go: not the first legs of a forced march
    passing through a friend (R22), after which the march must be paid."""
    return {m for m in legal(state) if "-" in m and state.child(m).phase != "pay"}


def army(state: RomeCarthageState, city: str) -> str | None:
    entry = next(c for c in state.view(None)["cities"] if c["city"] == city)
    return None if entry["army"] is None else f"{entry['army']['empire']} {entry['army']['kind']}"


def hand(state: RomeCarthageState, player: int) -> list[int]:
    return list(state.view(player)["players"][player]["hand"])


# --------------------------------------------------------------------- setup


def test_setup_two_empire_hands_and_pile_of_twenty() -> None:
    """Distributing the resource cards: a two-empire player holds 0,0,1..10,15,15; the
    undealt zeros leave the game; the pile is the other 20 cards (1..10 twice)."""
    state = RomeCarthageGame(2).new_game(seed=0)
    raw = state._raw()
    for p in (0, 1):
        assert hand(state, p) == [0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 15]
    assert raw["removed"][0] == 4
    assert sum(raw["pile"][0]) == 20
    assert raw["pile"][0] == [0] + [2] * 10 + [0]


def test_setup_one_empire_hands_four_players() -> None:
    """4 players: 0,0,2,4,6,8,10,15 each; the pile is 1,3,5,7,9 of each colour."""
    state = RomeCarthageGame(4).new_game(seed=0)
    raw = state._raw()
    for p in range(4):
        assert hand(state, p) == [0, 0, 2, 4, 6, 8, 10, 15]
    assert raw["pile"][0] == [0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 0]
    assert raw["removed"][0] == 0


def test_setup_three_players_lone_player_two_empires() -> None:
    """3 players: the lone player plays two empires (14 cards), the team one each; all
    four 15s start in hands and the pile still holds 20 cards."""
    game = RomeCarthageGame(3)
    state = game.new_game(seed=0)
    raw = state._raw()
    assert [len(game.empires_of(p)) for p in range(3)] == [2, 1, 1]
    assert [sum(h) for h in raw["hand"]] == [14, 8, 8]
    assert sum(raw["pile"][0]) == 20 and raw["pile"][0][11] == 0
    assert game.teams == ((1, 2), (0,))


def test_lone_player_draws_two_cards() -> None:
    """1. Draw a card: "In a three-player game, the player who plays alone draws TWO"."""
    state = new_game(3)
    assert state.view(None)["turn_player"] == 0
    turn(state, 1)
    assert state.current_player == CHANCE
    play(state, "draw 3")
    assert state.current_player == 0
    assert state.view(0)["players"][0]["hand_size"] == 16


def test_special_cards_one_of_each_per_team() -> None:
    """Distributing the special cards: one Treason and one Uprising per team, shared by
    allies ("an allied player may use one ... without his partner's agreement")."""
    state = new_game(4)
    specials = state.view(None)["specials"]
    assert all(s["treason"] and s["uprising"] for s in specials)
    turn(state, 1, "treason")
    specials = state.view(None)["specials"]
    assert [s["treason"] for s in specials] == [False, True, False, True]


def test_forming_teams_options() -> None:
    """Forming teams: the empires option says who plays what; a player's two empires
    must be allies, and the counts follow the player count."""
    game = RomeCarthageGame(4, ally="carthage")
    assert game.teams == ((0, 2), (1, 3))
    assert game.empires_of(2) == ["carthage"]
    with pytest.raises(InvalidOptionError):
        RomeCarthageGame(2, empires=[["rome", "carthage"], ["byzantium", "alexandria"]])
    with pytest.raises(InvalidOptionError):
        RomeCarthageGame(3, empires=[["rome"], ["carthage"], ["byzantium", "alexandria"],])
    with pytest.raises(InvalidOptionError):
        RomeCarthageGame(2, ally="rome")
    seated = RomeCarthageGame(4, empires=[["rome"], ["alexandria"], ["carthage"],
                                          ["byzantium"]])
    assert seated.teams == ((0, 1), (2, 3))


def test_first_player_option() -> None:
    """Playing the Game: "Players decide who starts"."""
    state = RomeCarthageGame(2, first_player=1).new_game(seed=0)
    assert state.current_player == 1


# --------------------------------------------------------------------- placement


def test_placement_four_then_three_armies_per_empire() -> None:
    """Turns 1 and 2: 4 armies per empire in the first turn, the 3 others in the second."""
    game = RomeCarthageGame(2, board=TEST_MAP)
    state = game.new_game(seed=0)
    placed = Counter()
    while state.current_player == 0:
        move = next(iter(sorted(state.legal_moves())))
        placed[move.city[:2]] += 1
        state.apply(move)
    assert placed == {"ro": 4, "al": 4}
    assert state.view(None)["round"] == 1


def test_placement_own_colour_one_army_a_city() -> None:
    """Turns 1 and 2: "An army must be placed on a city of its own colour"; "Only one army
    may be placed on a city"."""
    state = RomeCarthageGame(2, board=TEST_MAP).new_game(seed=0)
    moves = legal(state)
    assert "infantry@ro1" in moves and "infantry@al1" in moves
    assert "infantry@ca1" not in moves
    play(state, "infantry@ro1")
    assert "galley@ro1" not in legal(state)
    with pytest.raises(IllegalMoveError):
        state.apply("infantry@ca1")


def test_galley_may_be_placed_on_a_city_without_port() -> None:
    """R11: nothing forbids it (the army just cannot move)."""
    state = RomeCarthageGame(2, board=TEST_MAP).new_game(seed=0)
    assert "galley@ro1" in legal(state)


# --------------------------------------------------------------------- moves


def test_draw_then_pass() -> None:
    """1. Draw a card: the player draws, then may pass his turn."""
    state = new_game()
    turn(state, 4)
    assert "pass" in legal(state)
    play(state, "pass")
    assert state.current_player == CHANCE and state.view(None)["turn_player"] == 1
    assert state.view(0)["players"][0]["hand_size"] == 15


def test_simple_moves_by_kind() -> None:
    """3. Move a piece: infantry and elephant one land city, galley one city by sea,
    chariot one or two land cities, never onto a friendly army."""
    state = new_game(layout=arrange(empty=("ro1", "ro2")))
    turn(state, 1)
    moves = simple_moves(state)
    assert "ro0-ro1" in moves and "ro0-ro2" in moves          # infantry (capital)
    assert "ro4-ro2" in moves and "ro4-ro8" not in moves        # elephant; ro8 holds one
    assert "ro3-ro1" in moves and "ro3-ro0" not in moves        # chariot: not onto friends
    assert "ro5-ca5" in moves and "ro5-ro3" not in moves        # galley: sea only
    assert "ro6-ro9" in moves and "ro6-ro4" not in moves        # to the island port


def test_chariot_two_cities_through_friendly_never_enemy() -> None:
    """3. Move a piece: "an army may pass through a city occupied by a friendly army (but
    not through a city occupied by an enemy army)"."""
    state = new_game(layout=arrange(empty=("ro1",)))
    turn(state, 1)
    moves = simple_moves(state)
    assert "ro3-ro1" in moves and "ro3-ro0" not in moves
    assert "ro3-ca8" in moves            # through the friendly infantry on ro7
    blocked = new_game(layout=arrange({"ca8": "infantry", "ro3": "chariot"},
                                      empty=("ro7", "ro8")))
    turn(blocked, 1)
    assert "ro3-ca8" in legal(blocked)   # one city into the enemy: a battle
    assert "ro3-ca7" not in legal(blocked) and "ro3-ro8" in legal(blocked)


def test_army_entering_enemy_city_stops_for_battle() -> None:
    """R9: an army that entered an enemy city stops there; the battle follows the moves."""
    state = new_game(layout=arrange({"ro7": "infantry", "ca8": "infantry"}))
    turn(state, 1, "ro7-ca8")
    view = state.view(None)
    entry = next(c for c in view["cities"] if c["city"] == "ca8")
    assert entry["attacker"]["empire"] == "rome"
    assert all(not m.startswith("ca8-") for m in legal(state))


def test_two_infantry_move() -> None:
    """3. Move a piece: "a single army ... (or two infantry of the same Empire, or of two
    different Empires)"."""
    state = new_game(layout=arrange(empty=("ro1", "al1")))
    turn(state, 1, "ro0-ro1")
    moves = legal(state)
    assert "al0-al1" in moves and "done" in moves
    assert "ro4-ro2" not in moves           # not an infantry
    assert not any(m.startswith("ro1-") for m in moves)   # not the same infantry again
    play(state, "al0-al1")
    assert army(state, "al1") == "alexandria infantry"


def test_forced_march_worked_example_1() -> None:
    """Forced march, example 1: two infantry by a simple move and the elephant by a forced
    march (paid with cards of at least 3 points)."""
    state = new_game(layout=arrange(empty=("ro1", "al1", "ro2")))
    turn(state, 1, "ro0-ro1", "al0-al1", "pay 3", "ro4-ro2")
    assert army(state, "ro2") == "rome elephant"
    assert state.view(None)["turn_player"] == 1


def test_forced_march_worked_example_2() -> None:
    """Example 2: two infantry by a simple move, then one of them again."""
    state = new_game(layout=arrange(empty=("ro1", "ro3", "al1")))
    turn(state, 1, "ro0-ro1", "al0-al1", "pay 3", "ro1-ro3")
    assert army(state, "ro3") == "rome infantry" and army(state, "ro1") is None


def test_forced_march_worked_example_3() -> None:
    """Example 3: the galley moves twice by a forced march."""
    state = new_game(layout=arrange({"ro0": "galley"}, empty=("ro5",)))
    turn(state, 1, "ro0-ro5", "pay 3", "ro5-ca5")
    assert state.phase == "commit"
    entry = next(c for c in state.view(None)["cities"] if c["city"] == "ca5")
    assert entry["attacker"] == {"empire": "rome", "kind": "galley", "player": 0}


def test_forced_march_payment() -> None:
    """Forced march: cards for at least 3 points; zeros pay nothing; the payment is
    public (R9) and goes to the spent cards; at most one forced march a turn."""
    state = new_game(layout=arrange(empty=("ro1", "ro2")))
    turn(state, 2, "ro0-ro1")
    assert "pay 0" not in legal(state)
    play(state, "pay 2")
    assert state.phase == "pay"
    assert "pay 2" in legal(state) and "pay 3" not in legal(state)  # non-increasing
    play(state, "pay 1")
    assert state.phase == "extra"
    assert sorted(state.view(1)["discard"]) == [1, 2]
    assert state.view(1)["forced_march"] == {"used": True, "paid": 3}
    play(state, "ro4-ro2")
    assert state.view(None)["turn_player"] == 1


def test_forced_march_needs_an_army_to_move_and_enough_points() -> None:
    """No payment is offered that could not be completed (every partial choice has a
    legal completion)."""
    state = new_game(layout=arrange(empty=("ro1",)))
    turn(state, 1, "ro0-ro1")
    assert any(m.startswith("pay") for m in legal(state))
    for m in [m for m in legal(state) if m.startswith("pay")]:
        child = state.child(m)
        while child.phase == "pay":
            child.apply(min(child.legal_moves()))
        assert child.phase == "extra" and child.legal_moves()


def test_r22_forced_march_passes_through_a_friend() -> None:
    """3. Move a piece: "In a move of 2 cities or more, an army may pass through a city
    occupied by a friendly army" -- the two legs of one army's forced march are one move
    of two cities (R22).  With a Roman infantry on Roma, the one on Ostia marches Ostia
    -> Roma -> Genua; it waits beside the friend while the march is paid, may not stop
    there, and its second leg is the only move left."""
    game = RomeCarthageGame(2)
    state = game.new_game(seed=4, auto_chance=False)
    while state.phase == "place":
        state.apply(state.legal_moves()[0])
    turn(state, 1)
    assert army(state, "roma") == army(state, "ostia") == "rome infantry"
    assert army(state, "genua") is None
    assert "ostia-roma" in legal(state)
    play(state, "ostia-roma")
    assert state.phase == "pay" and "done" not in legal(state)     # never stop on a friend
    roma = next(c for c in state.view(None)["cities"] if c["city"] == "roma")
    assert roma["passing"] == {"empire": "rome", "kind": "infantry", "player": 0}
    assert state.armies()[0] == 14 and all(n == m for n, m in state.invariants().values())
    with pytest.raises(IllegalMoveError):
        state.apply("roma-genua")                                  # pay first
    play(state, "pay 3")
    assert state.phase == "extra"
    assert legal(state) == {"roma-genua", "roma-ostia"}            # it moves on, alone
    with pytest.raises(IllegalMoveError) as refused:
        state.apply("ariminum-mediolanum")
    assert refused.value.rule == "passing_army_moves_on"
    play(state, "roma-genua")
    assert army(state, "genua") == army(state, "roma") == "rome infantry"
    assert army(state, "ostia") is None
    assert state.view(None)["turn_player"] == 1


def test_r22_passing_is_offered_only_with_a_completion() -> None:
    """Every first leg onto a friend offered has a completion: the payment can reach 3
    points and the army can then end its move somewhere (not on a friend)."""
    state = new_game(auto_forced=False)     # a second leg with one stop is asked here
    turn(state, 1)
    passing = {m for m in legal(state) if "-" in m} - simple_moves(state)
    assert passing and all(m.split("-")[0][:2] in ("ro", "al") for m in passing)
    for move in sorted(passing):
        child = state.child(move)
        while child.phase == "pay":
            child.apply(min(child.legal_moves()))
        assert child.phase == "extra"
        stops = legal(child)
        city = move.split("-")[1]
        assert stops and all(m.startswith(city + "-") for m in stops)
        friends = {c["city"] for c in child.view(None)["cities"]
                   if c["army"] and c["army"]["player"] == 0}
        assert not {m.split("-")[1] for m in stops} & friends


def test_r22_second_infantry_passes_through_a_friend() -> None:
    """Example 2's order: two infantry, the second of which goes on by the forced march
    -- through a friend, if its first leg ended on one."""
    state = new_game(layout=arrange(empty=("al1", "ro2")))
    turn(state, 1, "al0-al1", "ro1-ro0")
    assert state.phase == "pay" and "done" not in legal(state)
    play(state, "pay 3")
    assert legal(state) == {"ro0-ro1", "ro0-ro2"}
    play(state, "ro0-ro2")
    assert army(state, "ro0") == army(state, "ro2") == "rome infantry"
    assert army(state, "ro1") is None and army(state, "al1") == "alexandria infantry"


def test_r22_passing_army_that_retreats_goes_back_where_it_began() -> None:
    """R3 for a march through a friend: after two zero totals the attacker goes back to
    the city where it began its move, not to the friend's city it passed."""
    state = new_game(layout=arrange({"ro8": "infantry", "by7": "infantry"}))
    turn(state, 1, "ro4-ro8", "pay 3", "ro8-by7")
    assert state.phase == "commit"
    play(state, "play 0+0", "play 0+0")
    assert army(state, "ro4") == "rome elephant" and army(state, "ro8") == "rome infantry"
    assert army(state, "by7") == "byzantium infantry"


def test_r22_undo_of_a_passing_leg_restores_the_position() -> None:
    state = new_game()
    turn(state, 1)
    before = state.state_bytes()
    play(state, "ro1-ro0")
    state.undo()
    assert state.state_bytes() == before


def test_land_army_on_island_is_immobile() -> None:
    """Tips: "Avoid placing a land army on an island. The army would be immobilised"."""
    state = new_game(layout=arrange(empty=("ro1",)))
    turn(state, 1)
    assert not any(m.startswith(("ro9-", "ro10-")) for m in legal(state))


# --------------------------------------------------------------------- battles


def battle_state(att: str = "infantry", dfn: str = "infantry", **options: Any
                 ) -> RomeCarthageState:
    """Rome's ``att`` on ro7 attacks Carthage's ``dfn`` on ca8 (player 0 attacks)."""
    state = new_game(layout=arrange({"ro7": att, "ca8": dfn}), **options)
    attack(state, 1, "ro7-ca8")
    assert state.phase == "commit"
    return state


def test_battle_higher_total_wins_loser_eliminated() -> None:
    """4. Carry out a battle, general case: two cards each face down, revealed together;
    the higher total wins, the losing army is eliminated, the cards are lost."""
    state = battle_state()
    play(state, "play 10+9", "play 8+7")
    assert army(state, "ca8") == "rome infantry"
    assert 10 not in hand(state, 0) and 8 not in hand(state, 1)
    assert state.view(None)["discard"].count(10) == 1


def test_defender_wins_attacker_eliminated() -> None:
    state = battle_state()
    play(state, "play 3+2", "play 8+7")
    assert army(state, "ca8") == "carthage infantry"
    assert state.armies() == (13, 14)


def test_elephant_doubles_highest_card_against_land_armies() -> None:
    """Special advantages, worked example: elephant 4 + (2 x 10) = 24."""
    state = battle_state(att="elephant")
    play(state, "play 10+4", "play 15+8")     # 24 against 23
    assert army(state, "ca8") == "rome elephant"


def test_elephant_does_not_double_against_galleys() -> None:
    state = battle_state(att="elephant", dfn="galley")
    play(state, "play 10+4", "play 15+8")     # 14 against 23
    assert army(state, "ca8") == "carthage galley"


def test_chariot_doubles_lowest_card_against_all_armies() -> None:
    """Worked example: chariot (2 x 4) + 10 = 18 -- also when defending (R12)."""
    state = battle_state(dfn="chariot")
    play(state, "play 10+7", "play 10+4")     # 17 against 18
    assert army(state, "ca8") == "carthage chariot"


def test_tie_round_one_card_without_advantages() -> None:
    """Ties: the battle continues with one card each, no special advantages, no spies."""
    state = battle_state(att="elephant")
    play(state, "play 5+1", "play 10+1")      # elephant 11 against 11
    assert state.view(0)["battle"]["round"] == "tie"
    assert "play 7" in legal(state) and "play 7+1" not in legal(state)
    play(state, "play 7", "play 6")           # 7 against 6: no doubling needed to win
    assert army(state, "ca8") == "rome elephant"


def test_tie_round_elephant_not_doubled() -> None:
    state = battle_state(att="elephant")
    play(state, "play 5+1", "play 10+1", "play 4", "play 7")   # 4 (not 8) against 7
    assert army(state, "ca8") == "carthage infantry"


def test_both_zero_totals_attacker_returns() -> None:
    """Ties: "If both opponents play a total of Zero, the battle ceases and the attacker
    returns to his previous place" (R3: where it began this turn's move)."""
    state = battle_state()
    play(state, "play 0+0", "play 0+0")
    assert army(state, "ro7") == "rome infantry" and army(state, "ca8") == "carthage infantry"
    assert hand(state, 0).count(0) == 2 and hand(state, 1).count(0) == 2


def test_retreat_chain_army_in_previous_city_also_retreats() -> None:
    """Ties: "If the previous city is occupied by an army, that army also retreats"."""
    layout = arrange({"ro7": "infantry", "ca8": "infantry", "ro1": "infantry"},
                     empty=("ro3",))
    state = new_game(layout=layout)
    turn(state, 1, "ro7-ca8", "ro1-ro3", "pay 3", "ro3-ro7")
    play(state, "play 0+0", "play 0+0")
    assert army(state, "ro7") == "rome infantry" and army(state, "ro1") == "rome infantry"
    assert army(state, "ro3") is None


def test_zeros_return_to_their_owner_after_each_reveal() -> None:
    """R2: "the Zeros, which are always recovered" -- at once, after each reveal."""
    state = battle_state()
    play(state, "play 5+0", "play 5+0")
    assert state.view(0)["battle"]["round"] == "tie"
    assert hand(state, 0).count(0) == 2 and hand(state, 1).count(0) == 2
    assert 0 not in state.view(None)["discard"]


def test_spy_learns_points_and_replays() -> None:
    """Spies: "1 and 1" or "2 and 0" learn the opponent's points and may replay two new
    cards (R1: advantages apply) or withdraw."""
    state = battle_state()
    play(state, "play 2+0", "play 9+6")
    assert state.phase == "spy" and state.current_player == 0
    assert state.view(0)["battle"]["totals"] == [2, 15]
    assert "withdraw" in legal(state)
    play(state, "play 10+8")          # 18 against 15
    assert army(state, "ca8") == "rome infantry"
    assert 2 not in hand(state, 0) and 10 not in hand(state, 0)   # spy cards spent too


def test_spy_one_and_one() -> None:
    """Spies: "1 and 1" (the attacker drew a second 1) is a spy too; "0 and 1" is not."""
    state = battle_state()
    play(state, "play 1+1", "play 9+6")
    assert state.phase == "spy"
    state = battle_state()
    play(state, "play 1+0", "play 1+0")          # a tie at 1, no spy
    assert state.view(0)["battle"]["round"] == "tie"


def test_spy_attacker_withdraws_and_returns() -> None:
    """R1: a spy attacker who withdraws goes back as after two zero totals."""
    state = battle_state()
    play(state, "play 2+0", "play 9+6", "withdraw")
    assert army(state, "ro7") == "rome infantry" and army(state, "ca8") == "carthage infantry"


def test_spy_defender_withdraws_and_concedes() -> None:
    """R1: a defender who withdraws has nowhere to go: his army is eliminated."""
    state = battle_state()
    play(state, "play 9+6", "play 2+0")
    assert state.current_player == 1
    play(state, "withdraw")
    assert army(state, "ca8") == "rome infantry"


def test_spy_that_already_wins_needs_no_replay() -> None:
    """Spies: "They can sometimes be enough to beat the opponent" (R1: then it wins)."""
    state = battle_state()
    play(state, "play 2+0", "play 1+0")
    assert army(state, "ca8") == "rome infantry"


def test_elephant_zero_and_one_is_no_spy() -> None:
    """Spies: "with 0 and 1, an Elephant obtains a total of 2 ... but it cannot use this
    as a spy"."""
    state = battle_state(att="elephant")
    play(state, "play 1+0", "play 3+0")
    assert state.phase != "spy"
    assert army(state, "ca8") == "carthage infantry"   # 2 against 3


def test_both_spies_restart_the_battle() -> None:
    """Spies: "If both opponents simultaneously play a spy, the battle restarts"."""
    state = battle_state()
    play(state, "play 2+0", "play 2+0")
    assert state.phase == "commit" and state.view(0)["battle"]["round"] == "full"
    assert 2 not in hand(state, 0) and 2 not in hand(state, 1)


def test_no_spy_in_tie_rounds() -> None:
    """Ties: "In the case of a tie, the players may no longer play the spy"."""
    state = battle_state()
    play(state, "play 5+3", "play 6+2", "play 2", "play 1")
    assert army(state, "ca8") == "rome infantry"


def occupy_rome(layout: dict[str, str]) -> RomeCarthageState:
    """Carthage's chariot rides ca8 -> ro7 -> ro3, then ro3 -> ro1 -> ro0: an enemy army
    holds Rome's capital, and player 0 is to draw."""
    state = new_game(layout=layout)
    turn(state, 1, "pass")
    turn(state, 1, "ca8-ro3", "done")
    turn(state, 2, "pass")
    turn(state, 2, "ro3-ro0", "done")
    assert state.capital_occupied(0) and not state.capital_occupied(1)
    return state


OCCUPIED = ("ro0", "ro1", "ro3", "ro7")


def attack_occupied_rome(kind: str) -> RomeCarthageState:
    """Rome, his capital occupied by Carthage's chariot, attacks it from ro2 with ``kind``."""
    state = occupy_rome(arrange({"ca8": "chariot", "ro2": kind}, empty=OCCUPIED))
    attack(state, 3, "ro2-ro0")
    return state


def test_occupied_capital_plays_one_card_and_elephant_doubles_it() -> None:
    """Occupied capital: the player plays only one card in all his battles; the elephant
    still doubles it against land armies."""
    state = attack_occupied_rome("elephant")
    assert state.phase == "commit"
    assert "play 10" in legal(state) and not any("+" in m for m in legal(state))
    play(state, "play 10", "play 9+5")     # elephant 20 against chariot 9 + 2 x 5 = 19
    assert army(state, "ro0") == "rome elephant"


def test_occupied_capital_chariot_does_not_double() -> None:
    """Occupied capital: "the Chariot does not double it!"."""
    state = attack_occupied_rome("chariot")
    play(state, "play 10", "play 9+1")     # 10 (not 20) against 9 + 2 x 1 = 11
    assert army(state, "ro0") == "carthage chariot"


def test_occupied_capital_single_two_is_a_spy() -> None:
    """Occupied capital: "The 2 card counts as a SPY"; the spy replays one card (R1)."""
    state = attack_occupied_rome("infantry")
    play(state, "play 2", "play 6+5")      # chariot 6 + 10 = 16
    assert state.phase == "spy" and state.current_player == 0
    assert "play 15" in legal(state) and not any("+" in m for m in legal(state))
    play(state, "play 15")                 # 15 against 16: the spy loses
    assert army(state, "ro0") == "carthage chariot"


def test_attacker_chooses_order_of_simultaneous_battles() -> None:
    """4. Carry out a battle: "the attacker chooses which one is fought first"."""
    state = new_game(layout=arrange({"ro7": "infantry", "ro8": "infantry",
                                     "ca8": "infantry", "by7": "infantry"}))
    turn(state, 1, "ro7-ca8", "ro8-by7", "done")
    assert state.phase == "battle_order"
    assert legal(state) == {"battle ca8", "battle by7"}
    play(state, "battle by7")
    assert state.view(0)["battle"]["city"] == "by7"


# --------------------------------------------------------------------- special cards


def test_general_treason_moves_enemy_army() -> None:
    """General's Treason: move an army of the OPPONENT as if he were playing it, no
    forced march; then the player still moves."""
    state = new_game(layout=arrange(empty=("ca1", "ca2")))
    turn(state, 1, "treason")
    moves = legal(state)
    assert "ca0-ca1" in moves and not any(m.startswith("ro") for m in moves)
    play(state, "ca0-ca1")
    assert "al0-al1" in legal(state) or state.phase in ("treason_second", "main")
    if state.phase == "treason_second":
        assert "ca3-ca2" not in legal(state)      # a chariot is not a second infantry
        play(state, "done")
    assert state.phase == "main" and "treason" not in legal(state)
    assert not any(m.startswith("pay") for m in legal(state))


def test_general_treason_two_infantry_of_different_empires() -> None:
    """Note: "you may move two infantry of different Empires"."""
    state = new_game(layout=arrange(empty=("ca1", "by1")))
    turn(state, 1, "treason", "ca0-ca1")
    assert "by0-by1" in legal(state)
    play(state, "by0-by1")
    assert state.phase == "main"


def test_general_treason_battle_fought_at_once_by_the_owner() -> None:
    """R5: a Treason move into the player's own army is a battle, fought at once, the
    moved army's owner attacking with his own cards."""
    state = new_game(layout=arrange({"ro7": "infantry", "ca8": "infantry"}))
    turn(state, 1, "treason", "ca8-ro7", "done")
    assert state.phase == "commit" and state.current_player == 1
    play(state, "play 1+0", "play 9+8")
    assert army(state, "ro7") == "rome infantry"
    assert state.phase == "main" and state.current_player == 0


def test_popular_uprising_destroys_the_occupier() -> None:
    """Popular Uprising: "if his capital is occupied, a player may destroy the occupying
    army without a battle" (R6: his own capital)."""
    state = occupy_rome(arrange({"ca8": "chariot"}, empty=OCCUPIED))
    turn(state, 3)
    assert "uprising ro0" in legal(state)
    play(state, "uprising ro0")
    assert army(state, "ro0") is None and not state.capital_occupied(0)
    assert "uprising ro0" not in legal(state)


# --------------------------------------------------------------------- draw pile


def test_empty_pile_and_no_spent_cards_draw_nothing() -> None:
    """R14: with the pile drawn out and no spent card to reshuffle, a draw gives nothing."""
    state = new_game()
    values = [v for v in range(1, 11) for _ in range(2)]
    for v in values:
        turn(state, v, "pass")
    raw = state._raw()
    assert sum(raw["pile"][0]) == 0
    assert state.current_player != CHANCE   # R14: nothing to draw, nothing drawn
    play(state, "pass")


def test_first_two_fifteens_leave_the_game_last_two_wait() -> None:
    """Draw pile: the first two 15s played leave the game; the last two wait until the
    last 15 held by a player is played (R8: then they join the spent cards)."""
    state = battle_state()
    play(state, "play 15+9", "play 15+9", "play 15", "play 10")   # tie, then 15 v 10
    raw = state._raw()
    assert raw["removed"][11] == 2 and raw["fifteens_aside"] == 1
    assert raw["discard"][0][11] == 0 and raw["hand"][1][11] == 1


def test_last_two_fifteens_rejoin_once_none_is_held() -> None:
    state = battle_state()
    play(state, "play 15+15", "play 15+15")   # tie at 30: no hand holds a 15 any more
    raw = state._raw()
    assert raw["removed"][11] == 2 and raw["fifteens_aside"] == 0
    assert raw["discard"][0][11] == 2


def test_r8_a_fifteen_played_waits_for_the_fifteen_still_in_the_pile() -> None:
    """R8, "the last two 15s are added to the new draw pile after the last 15 held by a
    player has been played": the 15s set aside wait until every 15 still in the game has
    been played.  Here the other 15 lies in the pile -- no hand holds it, but nobody can
    know that -- so the 15 played waits (it used to rejoin the spent cards at once,
    telling everyone where the other one was)."""
    state = battle_state()
    play(state, "play 15+15", "play 15+15", "play 0", "play 0")   # all four 15s played
    raw = state._raw()
    assert raw["removed"][11] == 2 and raw["discard"][0][11] == 2
    pile = raw["pile"][0]
    for v, n in enumerate(pile):
        for _ in range(n):
            turn(state, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15][v], "pass")
    pile = state._raw()["pile"][0]           # the spent cards reshuffled: 15, 15
    assert pile[11] == 2 and sum(pile) == 2
    turn(state, 15)
    assert state.view(None)["pile_size"] == 1
    first = next(m for m in sorted(simple_moves(state))
                 if state.child(m).phase == "moved")
    play(state, first, "pay 15")
    raw = state._raw()
    assert raw["fifteens_aside"] == 1 and raw["discard"][0][11] == 0
    assert raw["pile"][0][11] == 1


# --------------------------------------------------------------------- victory


def test_elimination_of_all_enemy_armies_wins() -> None:
    """Victory: eliminating all enemy pieces (a position: the other team's last army
    loses its battle)."""
    state = RomeCarthageGame(2).position(BATTLE_AT_SALONA)
    play(state, "aquileia-salona", "play 10+5", "play 7+3")
    outcome = state.outcome()
    assert outcome is not None and outcome.reason is Termination.ELIMINATION
    assert outcome.winners == (0,) and state.armies() == (1, 0)


def test_no_progress_and_round_cap_are_draws() -> None:
    """R17: rounds without battle, elimination, Uprising or capital change end in a draw;
    so does the hard round cap."""
    state = new_game(no_progress_rounds=2)
    for _ in range(4):
        turn(state, 1 + _, "pass")
    outcome = state.outcome()
    assert outcome is not None and outcome.reason is Termination.NO_PROGRESS
    assert outcome.returns == (0.0, 0.0) and outcome.winners == (0, 1)
    state = new_game(max_rounds=3)
    turn(state, 1, "pass")
    turn(state, 2, "pass")
    outcome = state.outcome()
    assert outcome is not None and outcome.reason is Termination.ROUND_CAP


def test_max_game_length_is_a_true_bound() -> None:
    """The cap, the no-progress rule and the per-turn bound make max_game_length a true
    bound: random games end well within it."""
    game = RomeCarthageGame(4, max_rounds=30)
    for seed in range(10):
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        steps = 0
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_moves()))
            steps += 1
        assert steps <= game.max_game_length


# --------------------------------------------------------------------- Equal Arms


def test_equal_arms_two_equal_piles() -> None:
    """Equal Arms: the pile is split in two equal piles, one per team (R15: in the
    3-player game, where identical halves are impossible, the closest split)."""
    for players, expected in ((2, [[0] + [1] * 10 + [0]] * 2),
                              (4, [[0, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0, 0]] * 2)):
        raw = RomeCarthageGame(players, variant="equal_arms").new_game(seed=0)._raw()
        assert raw["pile"] == expected
    raw = RomeCarthageGame(3, variant="equal_arms").new_game(seed=0)._raw()
    sizes = [sum(p) for p in raw["pile"]]
    points = [sum(n * v for n, v in zip(p, (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15),
                                        strict=True)) for p in raw["pile"]]
    assert sizes == [10, 10] and abs(points[0] - points[1]) <= 1


def test_equal_arms_one_special_card_each_and_hidden_ally_hands() -> None:
    """Equal Arms: one special card per partner, each plays only his own; allies may NOT
    show each other their cards."""
    state = new_game(4, variant="equal_arms")
    specials = state.view(None)["specials"]
    assert [(s["treason"], s["uprising"]) for s in specials] == [
        (True, False), (True, False), (False, True), (False, True)]
    view = state.view(0)
    assert view["players"][0]["hand"] is not None and view["players"][2]["hand"] is None
    standard = new_game(4)
    assert standard.view(0)["players"][2]["hand"] is not None


def test_equal_arms_fifteens_leave_the_game() -> None:
    """Equal Arms: "The 15s used during the game are permanently removed"."""
    state = battle_state(variant="equal_arms")
    play(state, "play 15+10", "play 15+9")
    raw = state._raw()
    assert raw["removed"][11] == 2 and raw["fifteens_aside"] == 0


# --------------------------------------------------------------------- hidden information


def test_views_hide_enemy_hands_and_the_pile() -> None:
    """Hands are secret, allies see each other's (standard game); the pile shows only its
    size; every starting hand is public knowledge (``known``)."""
    state = new_game(4)
    turn(state, 5)
    view = state.view(1)
    assert view["players"][0]["hand"] is None and view["players"][0]["hand_size"] == 9
    assert view["players"][0]["known"] == [2, 4, 6, 8, 10, 15]
    assert view["players"][0]["unknown"] == 1
    assert view["pile_size"] == 19 and "pile" not in view
    assert state.view(2)["players"][0]["hand"] == [0, 0, 2, 4, 5, 6, 8, 10, 15]


def test_face_down_cards_hidden_until_the_reveal() -> None:
    """Battle: the cards are placed face down, then turned over at the same time."""
    state = battle_state()
    play(state, "play 10+9")
    assert state.view(1)["battle"]["face_down_cards"] is None
    assert state.view(0)["battle"]["face_down_cards"] == [10, 9]
    assert state.history_view(1)[-1][1] == "play ?"
    assert state.history_view(0)[-1][1] == "play 10+9"
    json.dumps(state.view(1))


def test_history_view_redacts_other_players_draws() -> None:
    state = new_game()
    turn(state, 7, "pass")
    log0 = state.history_view(0)
    log1 = state.history_view(1)
    assert (CHANCE, "draw 7") in log0 and (CHANCE, "draw ?") in log1


def test_determinize_keeps_known_cards_and_redraws_drawn_ones() -> None:
    """determinize(observer) keeps the cards everyone knows an opponent holds and redraws
    the ones he drew, from the pile plus those cards."""
    state = new_game()
    turn(state, 7, "pass")
    turn(state, 3)
    seen = set()
    for seed in range(30):
        world = state.determinize(1, seed=seed)
        h = world._raw()["hand"][0]
        assert [h[v] >= k for v, k in enumerate(state._raw()["known"][0])] == [True] * 12
        seen.add(tuple(h))
        assert world._raw()["hand"][1] == state._raw()["hand"][1]
    assert len(seen) > 1


def test_determinize_redraws_pending_commit() -> None:
    """determinize of the defender redraws the attacker's face-down cards."""
    state = battle_state()
    play(state, "play 10+9")
    commits = {tuple(state.determinize(1, seed=s)._raw()["commit"][0]) for s in range(20)}
    assert len(commits) > 1
    assert all(tuple(state.determinize(0, seed=s)._raw()["commit"][0]) ==
               tuple(state._raw()["commit"][0]) for s in range(5))


# --------------------------------------------------------------------- capitals, exclusion


def capitals_map() -> dict[str, Any]:
    """TEST_MAP with two more frontier routes, ro7-ca1 and ro8-by1, so that Rome's armies
    reach both enemy capitals in two turns."""
    doc = json.loads(json.dumps(TEST_MAP))
    doc["land"] += [["ro7", "ca1"], ["ro8", "by1"]]
    return doc


def capitals_taken() -> RomeCarthageState:
    """Player 0 takes Carthage's capital (chariot ro7 -> ca1 -> ca0) in one turn and
    Byzantium's (infantry ro8 -> by1, forced march by1 -> by0) in his next."""
    game = RomeCarthageGame(2, board=capitals_map())
    state = game.new_game(seed=1, auto_chance=False)
    place(state, arrange({"ro7": "chariot", "ro8": "infantry"},
                         empty=("ca0", "ca1", "by0", "by1")))
    turn(state, 1, "ro7-ca0", "done")
    turn(state, 1, "pass")
    turn(state, 2, "ro8-by1", "pay 3", "by1-by0")
    assert state.view(None)["capitals_clock"][0]["running"]
    return state


def test_both_enemy_capitals_held_for_a_complete_turn_wins() -> None:
    """Victory: a team occupying BOTH enemy capitals for a complete turn wins -- R4: at the
    end of the turn after which every player has played once after the capture (the
    capturer's next turn included)."""
    state = capitals_taken()
    turn(state, 2, "pass")           # player 1 frees nothing
    assert not state.is_terminal()
    turn(state, 3)
    assert not state.is_terminal()   # the capturer's own next turn is not over yet
    play(state, "pass")
    outcome = state.outcome()
    assert outcome is not None and outcome.reason is Termination.CAPITALS
    assert outcome.winners == (0,) and outcome.returns == (1.0, -1.0)


def test_freeing_a_capital_stops_the_clock() -> None:
    """Victory: "No opponent may have freed at least one of the two capitals"."""
    state = capitals_taken()
    turn(state, 2, "uprising ca0", "pass")
    assert not state.view(None)["capitals_clock"][0]["running"]
    turn(state, 3, "pass")
    turn(state, 3, "pass")
    assert not state.is_terminal()


def first_exclusion(game: RomeCarthageGame, seeds: range) -> RomeCarthageState:
    """The first position of a seeded random game where a player has just dropped out
    while his team plays on."""
    for seed in seeds:
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            before = [p["eliminated"] for p in state.view(None)["players"]]
            state.apply(rng.choice(state.legal_moves()))
            after = [p["eliminated"] for p in state.view(None)["players"]]
            if after != before and not state.is_terminal():
                return state
    pytest.fail("no random game saw a player drop out")


def test_eliminated_player_drops_out_hand_lost_team_plays_on() -> None:
    """Victory: "A player who has no army left is excluded from the game, but if he had an
    ally, the game continues. All the cards still in his hand are lost"."""
    game = RomeCarthageGame(4)
    state = first_exclusion(game, range(200))
    out = [p["player"] for p in state.view(None)["players"] if p["eliminated"]]
    q = out[0]
    assert state.view(None)["players"][q]["hand_size"] == 0
    rng = random.Random(0)
    for _ in range(400):
        if state.is_terminal():
            break
        assert state.current_player != q
        state.apply(rng.choice(state.legal_moves()))


def test_equal_arms_eliminated_player_special_card_removed() -> None:
    """Equal Arms: "The special card not used by an eliminated player is removed"."""
    game = RomeCarthageGame(4, variant="equal_arms")
    state = first_exclusion(game, range(200))
    for entry, player in zip(state.view(None)["specials"], state.view(None)["players"],
                             strict=True):
        if player["eliminated"]:
            assert not entry["treason"] and not entry["uprising"]


# --------------------------------------------------------------------- Rapid Conquest


def rapid(layout: dict[str, str] | None = None, **options: Any) -> RomeCarthageState:
    """A 4-player Rapid Conquest game on the test map (players: 0 Rome, 1 Carthage,
    2 Alexandria, 3 Byzantium; teams 0 + 2 against 1 + 3), armies placed."""
    return new_game(4, layout, variant="rapid_conquest", **options)


def test_rapid_conquest_is_for_four_players() -> None:
    """Conquête rapide: "4 players"."""
    with pytest.raises(InvalidOptionError):
        RomeCarthageGame(2, variant="rapid_conquest")
    with pytest.raises(InvalidOptionError):
        RomeCarthageGame(4, consent="explicit")


def test_rapid_conquest_draws_by_hand_size_and_pass_bonus() -> None:
    """Rapid Conquest, 1. Draw: 6 to 8 cards draw one; only the two zeros draw two, or
    three when passing; 9 or more draw none."""
    state = rapid(arrange({"ro7": "infantry", "ca8": "infantry"}))
    attack(state, 1, "ro7-ca8")
    # a long battle spends every non-zero card of both hands (8 cards + the draw)
    play(state, "play 15+10", "play 15+10", "play 8", "play 8", "play 6", "play 6",
         "play 4", "play 4", "play 2", "play 2", "play 1", "play 0")
    assert hand(state, 0) == [0, 0] and army(state, "ca8") == "rome infantry"
    assert hand(state, 1) == [0, 0]
    play(state, "draw 3", "draw 3", "pass", "draw 5")   # player 1: 2 draws, +1 passing
    assert hand(state, 1) == [0, 0, 3, 3, 5]
    turn(state, 3, "pass")                     # players 2 and 3 hold 8: one card
    turn(state, 3, "pass")
    assert state.current_player == CHANCE
    play(state, "draw 5", "draw 7")            # only his zeros: two cards
    assert state.current_player == 0 and hand(state, 0) == [0, 0, 5, 7]
    play(state, "pass")                        # 5 cards or fewer: a pass draws one more
    assert state.current_player == CHANCE
    play(state, "draw 9")
    assert hand(state, 0) == [0, 0, 5, 7, 9] and state.view(None)["turn_player"] == 1
    play(state, "draw 1")                      # player 1 holds 5 cards: one card
    assert state.current_player == 1 and state.view(None)["pass_bonus"]


def test_rapid_conquest_nine_cards_draw_nothing() -> None:
    state = rapid()
    turn(state, 1, "pass")                     # 9 cards now
    for _ in range(3):
        turn(state, 3, "pass")
    assert state.current_player == 0 and state.phase == "main"


def test_rapid_conquest_uprisings_removed_treason_with_agreement() -> None:
    """Rapid Conquest, 2.: the Popular Uprising cards are removed; the Treason needs "the
    agreement of the allied player" (R16: implicit by default; with ``consent="explicit"``
    the ally answers, and a refusal is final for the turn)."""
    state = rapid()
    assert not any(s["uprising"] for s in state.view(None)["specials"])
    turn(state, 1, "treason")
    assert state.phase == "treason"
    asked = rapid(consent="explicit")
    turn(asked, 1, "treason")
    assert asked.phase == "consent" and asked.current_player == 2
    assert legal(asked) == {"agree", "refuse"}
    play(asked, "refuse")
    assert asked.current_player == 0 and "treason" not in legal(asked)
    agreed = rapid(consent="explicit")
    turn(agreed, 1, "treason", "agree")
    assert agreed.phase == "treason" and agreed.current_player == 0


def test_rapid_conquest_move_ally_piece_paid_twice_for_a_forced_march() -> None:
    """Rapid Conquest, 3.: move a piece of the allied player for cards of at least 3
    points, and pay a second time to move it again (R16: the same piece)."""
    state = rapid()
    turn(state, 1, "ally", "pay 4")
    assert state.phase == "ally_move"
    assert all(m.startswith("al") for m in legal(state))
    play(state, "al3-al7")
    assert state.phase == "ally_moved" and "done" in legal(state)
    play(state, "pay 6")
    assert legal(state) <= {m for m in legal(state) if m.startswith("al7-")}
    play(state, "al7-by8")
    assert army(state, "by8") == "alexandria chariot"
    assert state.view(None)["turn_player"] == 1


def test_r22_rapid_conquest_ally_piece_passes_through_a_friend() -> None:
    """R22 in Rapid Conquest: the ally's piece moved by forced march (paid twice) may pass
    through a friend; its first leg ending on one must be paid again at once and moved
    on."""
    state = rapid(layout=arrange(empty=("al1",)))
    turn(state, 1, "ally", "pay 4", "al2-al0")
    assert state.phase == "pay" and "done" not in legal(state)
    play(state, "pay 6")
    assert state.phase == "ally_move" and legal(state) == {"al0-al1", "al0-al2"}
    play(state, "al0-al1")
    assert army(state, "al0") == army(state, "al1") == "alexandria infantry"
    assert army(state, "al2") is None and state.view(None)["turn_player"] == 1


def test_rapid_conquest_ally_piece_battle_fought_by_its_owner() -> None:
    """"If the move brings the piece into a city already occupied by an enemy piece, it
    is the allied player (the owner of the piece) who fights it"."""
    state = rapid(arrange({"by8": "infantry"}))
    turn(state, 1, "ally", "pay 4", "al3-by8")
    assert state.phase == "commit" and state.current_player == 2
    assert state.view(None)["battle"]["attacker"] == 2


def test_rapid_conquest_give_a_card_instead_of_moving() -> None:
    """Rapid Conquest, 3.: "give one of his cards to his ally. In this case the player
    makes no move" -- the opponents do not see which card (R21)."""
    state = rapid()
    turn(state, 1)
    assert "give 0" not in legal(state) and "give 10" in legal(state)
    play(state, "give 10")
    assert state.view(None)["turn_player"] == 1
    assert hand(state, 2).count(10) == 2 and 10 not in hand(state, 0)
    enemy = state.view(1)["players"][0]
    assert enemy["known"] == [] and enemy["unknown"] == 6   # 1 2 4 6 8 15, unseen
    assert (0, "give ?") in state.history_view(1)
    assert (0, "give 10") in state.history_view(2)


def rapid_ending(reason: Termination) -> RomeCarthageState:
    game = RomeCarthageGame(4, variant="rapid_conquest")
    for seed in range(100):
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_moves()))
        outcome = state.outcome()
        assert outcome is not None
        if outcome.reason is reason:
            return state
    pytest.fail(f"no random game ended by {reason}")


def test_rapid_conquest_opposing_team_reduced_to_five_armies() -> None:
    """Rapid Conquest, Object: "Reduce the army of the opposing team to 5 pieces"."""
    state = rapid_ending(Termination.ARMY_REDUCED)
    winner = state.view(None)["winner_team"]
    losers = state.game.teams[1 - winner]
    assert sum(state.armies()[p] for p in losers) <= 5


def test_rapid_conquest_weak_opponent_and_his_allys_capital() -> None:
    """Rapid Conquest, Object: "Reduce the army of one opponent to 3 pieces or fewer, and
    occupy the capital of his ally for one complete turn"."""
    state = rapid_ending(Termination.WEAK_AND_CAPITAL)
    view = state.view(None)
    winner = view["winner_team"]
    weak = [p for p in state.game.teams[1 - winner] if state.armies()[p] <= 3]
    assert weak
    ally = next(p for p in state.game.teams[1 - winner] if p != weak[0])
    assert view["players"][ally]["capital_occupied"]


# --------------------------------------------------------------------- options, search


@pytest.mark.parametrize("options", [
    {"max_rounds": 2}, {"max_rounds": True}, {"no_progress_rounds": 0},
    {"first_player": 2}, {"variant": "quick"}, {"consent": "always"},
    {"empires": "rome"}, {"empires": [["rome", "alexandria"], ["carthage", "persia"]]},
    {"ally": 3},
])
def test_bad_options_raise_invalid_option_error(options: dict[str, Any]) -> None:
    with pytest.raises(InvalidOptionError):
        RomeCarthageGame(2, **options)


def test_search_pools_the_defenders_reply_at_battle_commits() -> None:
    """The defender's cards are chosen without seeing the attacker's (the core marks the
    decision simultaneous): ISMCTS for the attacker pools the defender's replies."""
    from boardrules.search import suggest

    state = battle_state()
    result = suggest(state, algorithm="ismcts", iterations=300, seed=1)
    assert result.stats["pooled_nodes"] > 0 and result.stats["replies"]
    plain = suggest(state, algorithm="ismcts", iterations=300, seed=1,
                    simultaneous="sequential")
    assert plain.stats["pooled_nodes"] == 0
    play(state, str(result.move))
    assert state.phase == "commit" and state.current_player == 1
    # the defender's own search: his decision is the root, whose commit ISMCTS redraws
    # every iteration; no decision of another player answers his cards
    defender = suggest(state, algorithm="ismcts", iterations=300, seed=1)
    assert defender.stats["replies"] == []


def test_knowledge_follows_payments_and_revealed_battle_cards() -> None:
    """R21: a forced-march payment and the revealed battle cards are public, so everyone's
    knowledge of the hand loses them; a drawn card is unknown to the other team (and
    determinize redraws only such cards)."""
    state = new_game(layout=arrange({"ro7": "infantry", "ca8": "infantry"},
                                    empty=("ro1",)))
    turn(state, 9, "ro0-ro1", "pay 3")                 # a payment, and ro7 still to move
    enemy = state.view(1)["players"][0]
    assert enemy["known"] == [1, 2, 4, 5, 6, 7, 8, 9, 10, 15, 15]   # the 3 was seen paid
    assert enemy["unknown"] == 1                                    # the drawn 9 was not
    play(state, "ro7-ca8")
    play(state, "play 10+9", "play 8+7")
    enemy = state.view(1)["players"][0]
    assert enemy["known"] == [1, 2, 4, 5, 6, 7, 8, 15, 15] and enemy["unknown"] == 1
    worlds = {tuple(state.determinize(1, seed=seed)._raw()["hand"][0]) for seed in range(20)}
    assert len(worlds) > 1 and all(sum(w) == sum(state._raw()["hand"][0]) for w in worlds)


# --------------------------------------------------------------------- bad input


def test_forged_saves_are_refused() -> None:
    """A save whose position disagrees with its history (a peek at an enemy hand made
    into a forged hand), or that names a board file, is refused; nothing is read."""
    from boardrules import InvalidStateError, state_from_json

    state = battle_state()
    doc = json.loads(state.to_json())
    forged = json.loads(json.dumps(doc))
    forged["state"]["hands"][1] = [15, 15, 15, 15]
    with pytest.raises(InvalidStateError):
        state_from_json(json.dumps(forged))
    pathy = json.loads(json.dumps(doc))
    pathy["options"]["board"] = "/etc/passwd"
    with pytest.raises(InvalidStateError):
        state_from_json(json.dumps(pathy))
    assert state_from_json(state.to_json()) == state


@pytest.mark.parametrize("move", ["play 15+15+15", "play 16", "roma-", "-roma", "give -1",
                                  "pay", "battle", "infantry@", "@roma", "ro0-ro0",
                                  "uprising nowhere", "draw 11", "\x00", "play 10+4 " * 40])
def test_junk_moves_change_nothing(move: str) -> None:
    from boardrules import InvalidMoveError

    state = battle_state()
    before = state.state_bytes()
    with pytest.raises((InvalidMoveError, IllegalMoveError)):
        state.apply(move)
    assert state.state_bytes() == before


def test_moves_out_of_turn_are_refused() -> None:
    """The defender may not lay cards before the attacker; a player= that is not the
    player to move is refused (rule key ``wrong_player``)."""
    state = battle_state()
    before = state.state_bytes()
    with pytest.raises(IllegalMoveError) as caught:
        state.apply("play 10+9", player=1)
    assert caught.value.rule == "wrong_player" and state.state_bytes() == before


def test_exhausted_pile_is_reshuffled_from_the_spent_cards() -> None:
    """Draw pile: "When the draw pile is exhausted, they [the spent cards] are shuffled
    carefully and form a new draw pile" -- the next draw comes from exactly those cards."""
    state = battle_state()
    play(state, "play 10+9", "play 8+7")              # spent: 10, 9, 8, 7
    assert sum(state._raw()["pile"][0]) == 19
    for _ in range(19):                               # draw the pile out
        assert state.current_player == CHANCE
        play(state, str(state.chance_outcomes()[0][0]), "pass")
    assert state.current_player == CHANCE             # the next turn's draw: reshuffled
    outcomes = {str(move): p for move, p in state.chance_outcomes()}
    assert outcomes == {"draw 7": 0.25, "draw 8": 0.25, "draw 9": 0.25, "draw 10": 0.25}
    assert sum(state._raw()["discard"][0]) == 0
