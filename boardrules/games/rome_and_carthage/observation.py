"""Rome & Carthage's observation tensor: its legend and its reference from a view.

The core writes it (``rc_observation`` in ``src_ext/boardrules/_ext/rome_and_carthage.pyx``);
:func:`observation_from_view` computes the same floats from ``view(player)`` for the
conformance suite.  The conventions:

* **seats** are relative to the observer: a per-seat field lists him first, then the next
  players in turn order (seat ``(player + k) % players`` at index ``k``); **teams** too
  (his own team first), and so do the piles and spent cards of Equal Arms (one a team;
  the standard game's single pile is at index 0);
* **armies** are listed by empire *slot*: the empires of the observer's seat, then those
  of the next seats in turn order, each seat's in the board file's order (Rome, Carthage,
  Byzantium, Alexandria).  With 4 players a slot is a seat; ``slot_empire`` and
  ``slot_seat`` say which empire each slot is and who plays it.  Board planes are
  ``[slot or kind, city]``, cities in the board's order (``game.board.cities``); the map
  itself (each city's empire, the capitals, the routes) never changes and is not
  repeated in the tensor;
* **cards** are counted by value index ``0 .. 11`` = values 0 to 10, then 15;
* one-hot flags are 0.0 / 1.0, counts plain counts (not scaled).

It carries the view and nothing more: another player's hand is a size, the cards everyone
knows it holds and a count of those only his side has seen; the pile is a size; the
attacker's face-down battle cards are a count to the defender's side.  The view shows
neither where this turn's armies began their moves nor what a consent is asked for, so
neither does the tensor (the action mask says what may be done).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from boardrules._ext.rome_and_carthage import END_REASONS, KINDS, PHASES
from boardrules.games.rome_and_carthage.board import EMPIRES
from boardrules.games.rome_and_carthage.moves import CARD_VALUES
from boardrules.observations import Observation, ObservationLayout, ObservationWriter

SLOTS = len(EMPIRES)
VALUES = len(CARD_VALUES)
#: The fields' highest values (their Gymnasium bounds): the 52 resource cards ("Components";
#: Equal Arms splits the one deck), worth 280 points in all; 7 armies an empire, two
#: empires a player at most; rounds as the core counts them (16 bits).
CARDS = 52
POINTS = 4 * sum(range(1, 11)) + 4 * 15
ARMIES = 2 * 7
ROUNDS = 2**16 - 1
VARIANTS = ("standard", "equal_arms", "rapid_conquest")
ROUND_KINDS = ("full", "replay", "tie")
SIDES = ("attacker", "defender")


@cache
def observation_layout(num_players: int, num_cities: int) -> ObservationLayout:
    """The legend for ``num_players`` players on a map of ``num_cities`` cities."""
    seats, cities = num_players, num_cities
    return ObservationLayout([
        # the game as set up
        ("slot_empire", (SLOTS, len(EMPIRES)), "1.0 for the empire of each army slot "
         "(rome, carthage, byzantium, alexandria): the observer's empires first, then the "
         "next seats'"),
        ("slot_seat", (SLOTS, seats), "1.0 for the seat (relative) that plays each slot"),
        ("seat_ally", (seats,), "1.0 for the seats of the observer's team, himself too"),
        ("variant", (len(VARIANTS),), "one-hot: standard, equal_arms, rapid_conquest"),
        ("explicit_consent", (1,), "1.0 when Rapid Conquest asks the ally to agree"),
        ("limits", (2,), "max_rounds, no_progress_rounds (the draws of R17)", ROUNDS),
        # the armies
        ("army", (SLOTS, cities), "1.0 for the slot of the army standing on the city"),
        ("army_kind", (len(KINDS), cities), "its kind: infantry, galley, chariot, elephant"),
        ("attacker", (SLOTS, cities), "1.0 for the slot of an army that entered the city "
         "to fight it (a pending battle)"),
        ("attacker_kind", (len(KINDS), cities), "its kind"),
        ("passing", (cities,), "1.0 at the city an army passes through, a friend's, in "
         "its forced march (R22)"),
        ("passing_slot", (SLOTS,), "1.0 for that army's slot"),
        ("passing_kind", (len(KINDS),), "its kind"),
        # the turn
        ("phase", (len(PHASES),), "one-hot: " + ", ".join(PHASES)),
        ("round", (1,), "the round (1 and 2 place the armies)", ROUNDS),
        ("turn_player", (seats,), "1.0 for the seat whose turn it is"),
        ("to_move", (seats,), "1.0 for the seat that decides now; all 0 while a card is "
         "drawn and at the end"),
        # the players
        ("hand", (seats, VALUES), "the cards of each hand the observer may see (his own; "
         "his ally's except in Equal Arms), counted by value; 0 for the others", CARDS),
        ("hand_visible", (seats,), "1.0 where the hand is shown in 'hand'"),
        ("hand_size", (seats,), "cards in each hand, zeros included", CARDS),
        ("known", (seats, VALUES), "the non-zero cards everyone knows each hand holds", CARDS),
        ("unknown", (seats,), "cards of each hand only its side has seen (drawn ones)",
         CARDS),
        ("lost", (seats,), "cards of a lost hand that left the game face down (R8)", CARDS),
        ("lost_cards", (seats, VALUES), "their values, where the observer may see them",
         CARDS),
        ("armies", (seats,), "armies left: on the map, in a battle, or still to place",
         ARMIES),
        ("eliminated", (seats,), "1.0 for a player out of the game"),
        ("capital_occupied", (seats,), "1.0 when an enemy army holds one of his capitals"),
        ("treason", (seats,), "1.0 while he may play a General's Treason"),
        ("uprising", (seats,), "1.0 while he may play a Popular Uprising"),
        # the cards
        ("pile_size", (2,), "cards in the draw pile (Equal Arms: the observer's team's, "
         "then the other's; else the one pile, then 0)", CARDS),
        ("discard", (2, VALUES), "the spent cards by value, piles as in pile_size", CARDS),
        ("removed", (VALUES,), "cards out of the game in sight, by value", CARDS),
        ("fifteens", (2,), "15s out of the game, 15s set aside (R8)", CARDS),
        # the battle being fought (all 0 when none)
        ("battle_city", (cities,), "1.0 at the city of the battle"),
        ("battle_attacker", (seats,), "1.0 for the attacking seat"),
        ("battle_defender", (seats,), "1.0 for the defending seat"),
        ("battle_round", (len(ROUND_KINDS),), "one-hot: full, replay (a spy's), tie"),
        ("battle_to_play", (len(SIDES),), "1.0 for the side laying cards: attacker, "
         "defender"),
        ("face_down", (1,), "cards the attacker laid face down, the defender to play", CARDS),
        ("face_down_cards", (VALUES,), "their values, to the attacker's side only", CARDS),
        ("spy", (len(SIDES),), "1.0 for the side of a lone spy deciding (R1)"),
        ("battle_totals", (len(SIDES),), "the revealed totals (attacker, defender) while "
         "a spy decides", POINTS),
        # the rest of the turn and the end
        ("march_used", (1,), "1.0 once the turn's forced march is paid for"),
        ("march_paid", (1,), "points paid so far", POINTS),
        ("clock_running", (2, 2), "[clock, team]: the capitals clock (R4), then Rapid "
         "Conquest's weak-and-capital clock (R16), the observer's team first"),
        ("clock_turns", (2, 2), "complete turns each clock has counted", ROUNDS),
        ("pass_bonus", (1,), "1.0 when a pass draws one more card (Rapid Conquest)"),
        ("quiet_turns", (1,), "turns without progress (R17)", ROUNDS),
        ("winner", (2,), "1.0 for the winning team (observer's, other); 0 for a draw"),
        ("end_reason", (len(END_REASONS) - 1,), "one-hot: " + ", ".join(END_REASONS[1:])),
    ])


def empire_slots(view: Mapping[str, Any], player: int) -> list[int]:
    """The slot of each empire (by index into EMPIRES) in ``player``'s tensor."""
    players = view["players"]
    slot = [0] * len(EMPIRES)
    n = 0
    for k in range(len(players)):
        seat = players[(player + k) % len(players)]
        for e in sorted(EMPIRES.index(name) for name in seat["empires"]):
            slot[e] = n
            n += 1
    return slot


def _counts(values: list[int]) -> list[int]:
    counts = [0] * VALUES
    for value in values:
        counts[CARD_VALUES.index(value)] += 1
    return counts


def observation_from_view(view: Mapping[str, Any], player: int) -> Observation:
    """``player``'s tensor from his view alone (``view["viewer"] == player``)."""
    players = view["players"]
    seats = len(players)
    cities = [city["city"] for city in view["cities"]]
    out = ObservationWriter(observation_layout(seats, len(cities)))
    slot = empire_slots(view, player)
    options = view["options"]
    my_team = players[player]["team"]

    def rel(q: int) -> int:
        return (q - player) % seats

    def rel_team(team: int) -> int:
        return 0 if team == my_team else 1

    # the game as set up
    for q, entry in enumerate(players):
        for name in entry["empires"]:
            e = EMPIRES.index(name)
            out.one_hot("slot_empire", e, slot[e])
            out.one_hot("slot_seat", rel(q), slot[e])
        if entry["team"] == my_team:
            out["seat_ally"][rel(q)] = 1.0
    out.one_hot("variant", VARIANTS.index(options["variant"]))
    out["explicit_consent"][0] = options["consent"] == "explicit"
    out["limits"][:] = options["max_rounds"], options["no_progress_rounds"]
    # the armies
    for c, city_view in enumerate(view["cities"]):
        for role in ("army", "attacker"):
            army = city_view[role]
            if army is not None:
                out[role][slot[EMPIRES.index(army["empire"])], c] = 1.0
                out[role + "_kind"][KINDS.index(army["kind"]), c] = 1.0
        army = city_view["passing"]
        if army is not None:
            out["passing"][c] = 1.0
            out.one_hot("passing_slot", slot[EMPIRES.index(army["empire"])])
            out.one_hot("passing_kind", KINDS.index(army["kind"]))
    # the turn
    out.one_hot("phase", PHASES.index(view["phase"]))
    out["round"][0] = view["round"]
    out.one_hot("turn_player", rel(view["turn_player"]))
    if view["current_player"] >= 0:
        out.one_hot("to_move", rel(view["current_player"]))
    # the players
    for q, entry in enumerate(players):
        k = rel(q)
        if entry["hand"] is not None:
            out["hand"][k] = _counts(entry["hand"])
            out["hand_visible"][k] = 1.0
        out["hand_size"][k] = entry["hand_size"]
        out["known"][k] = _counts(entry["known"])
        out["unknown"][k] = entry["unknown"]
        out["lost"][k] = entry["lost"]
        if entry["lost_cards"] is not None:
            out["lost_cards"][k] = _counts(entry["lost_cards"])
        out["armies"][k] = entry["armies"]
        out["eliminated"][k] = entry["eliminated"]
        out["capital_occupied"][k] = entry["capital_occupied"]
    for specials in view["specials"]:
        out["treason"][rel(specials["player"])] = specials["treason"]
        out["uprising"][rel(specials["player"])] = specials["uprising"]
    # the cards
    if isinstance(view["pile_size"], list):       # Equal Arms: one pile a team
        for team, size in enumerate(view["pile_size"]):
            out["pile_size"][rel_team(team)] = size
            out["discard"][rel_team(team)] = _counts(view["discard"][team])
    else:
        out["pile_size"][0] = view["pile_size"]
        out["discard"][0] = _counts(view["discard"])
    out["removed"][:] = _counts(view["removed"])
    out["fifteens"][:] = view["fifteens_removed"], view["fifteens_aside"]
    # the battle
    battle = view["battle"]
    if battle is not None:
        out.one_hot("battle_city", cities.index(battle["city"]))
        out.one_hot("battle_attacker", rel(battle["attacker"]))
        out.one_hot("battle_defender", rel(battle["defender"]))
        out.one_hot("battle_round", ROUND_KINDS.index(battle["round"]))
        if battle["to_play"] is not None:
            out.one_hot("battle_to_play", SIDES.index(battle["to_play"]))
        out["face_down"][0] = battle["face_down"]
        if battle["face_down_cards"] is not None:
            out["face_down_cards"][:] = _counts(battle["face_down_cards"])
        if battle["spy"] is not None:
            out.one_hot("spy", SIDES.index(battle["spy"]))
        if battle["totals"] is not None:
            out["battle_totals"][:] = battle["totals"]
    # the rest of the turn and the end
    out["march_used"][0] = view["forced_march"]["used"]
    out["march_paid"][0] = view["forced_march"]["paid"]
    for row, key in enumerate(("capitals_clock", "weak_and_capital_clock")):
        for clock in view[key]:
            out["clock_running"][row, rel_team(clock["team"])] = clock["running"]
            out["clock_turns"][row, rel_team(clock["team"])] = clock["turns"]
    out["pass_bonus"][0] = view["pass_bonus"]
    out["quiet_turns"][0] = view["quiet_turns"]
    if view["winner_team"] is not None:
        out.one_hot("winner", rel_team(view["winner_team"]))
    if view["end_reason"] is not None:
        out.one_hot("end_reason", END_REASONS.index(view["end_reason"]) - 1)
    return out.array
