"""Armada's observation tensor: its legend and its reference from a view.

The core writes it (``am_observation`` in ``src_ext/boardrules/_ext/armada.pyx``);
:func:`observation_from_view` computes the same floats from ``view(player)`` (and the
board, a constant of the game) for the conformance suite.  docs/armada.rst, "Observation
tensor", has the table.

Conventions:

* **seats** are relative to the observer: a per-seat field lists him first, then the next
  players (player ``(observer + k) % players`` at index ``k``);
* **colour slots**: the four colours are listed by the seat of their player (the
  observer's colours first, then the next seat's, ...; the three-player game's neutral
  colour last), a player's two colours (two players) in turn order from his first one.
  Four players: slot ``k`` is colour ``(observer + k) % 4``; two players, to player 0:
  green, blue, raspberry, orange, to player 1: raspberry, orange, blue, green;
* **places**: territories in board order (``T`` of them), the cities among them in board
  order (``C``) and sea spaces in board order (``S``); a field over territories and seas
  (``pending_from`` / ``pending_to``) lists the territories first, then the seas;
* counts are plain counts; one-hot flags are 0.0 / 1.0; a view's ``None`` is all 0.

Only the cards are secret (Hidden information): the observer's own hand is here, the
other players' hands only as their sizes, the pile and the cards a Grand strategist sets
aside only as counts, the card being looked at only to the player looking.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from boardrules._ext.armada import (
    CARD_KINDS,
    COLOURS,
    END_REASONS,
    PHASES,
    PLACE_WHAT,
    ROUTE_KINDS,
    WINDOW_POLICIES,
)
from boardrules.games.armada.board import Board
from boardrules.observations import Observation, ObservationLayout, ObservationWriter

#: the view's ``pending`` kinds, in the order of the ``pending_kind`` one-hot
PENDING_KINDS = ("deploy", "move", "attack", "explore", "place", "draw", "look")
#: the ``pending_counts`` entries
PENDING_COUNTS = ("left", "bands", "amount", "rolls_left", "multiplier")
COLOUR_SLOTS = len(COLOURS)
#: The fields' highest values (their Gymnasium bounds), from the components: 50 bands of a
#: colour, 50 gold and 50 native tokens, 30 flags of a colour, 2 ships of a colour, at most
#: 10 tokens aboard a ship, the 55 cards of the deck; 10 actions a turn and 3 more for
#: each of the 16 "Dopé" cards; the largest round cap the game takes.
BANDS = GOLD = NATIVES = 50
FLAGS = 30
SHIPS_A_COLOUR = 2
SHIP_TOKENS = 10
CARDS = 55
ACTIONS = 10 + 3 * 16
MAX_ROUNDS = 10_000
FLAG_KINDS = COLOUR_SLOTS + 1        # the colour slots, then brown (the natives')
KINDS = len(CARD_KINDS)


@cache
def observation_layout(players: int, territories: int, seas: int,
                       cities: int) -> ObservationLayout:
    """The legend for ``players`` seats on a board of ``territories`` (``cities`` of them
    cities) and ``seas``."""
    n, t, s, c = players, territories, seas, COLOUR_SLOTS
    return ObservationLayout([
        ("flag", (FLAG_KINDS, t), "1.0 for the territory's owner: a colour slot, then brown "
                                  "(natives); all 0 with no flag"),
        ("explored", (t,), "1.0 for an explored territory"),
        ("bands", (c, t), "pirate bands on the territory, in the plane of their colour slot",
         BANDS),
        ("gold", (t,), "gold on the territory", GOLD),
        ("natives", (t,), "native tribes on the territory", NATIVES),
        ("city_ship", (c, cities), "1.0 for an unlaunched ship on the city (the cities in "
                                   "board order), in its owner's slot"),
        ("city_ship_captured", (cities,), "1.0 when that ship was captured with its city and "
                                          "not launched since (its owner may destroy it)"),
        ("sea_ship", (c, s), "1.0 for the ship on the sea space, in its owner's slot"),
        ("sea_crew", (c, s), "bands aboard the ship on the sea space, in their colour's slot",
         SHIP_TOKENS),
        ("sea_gold", (s,), "gold aboard the ship on the sea space", SHIP_TOKENS),
        ("box_ships", (c,), "ships in the box (sunk, scuttled, destroyed), by owner slot",
         SHIPS_A_COLOUR),
        ("colour", (c, c), "one-hot: the colour of the slot (COLOURS order: green, "
                           "raspberry, blue, orange), which says whose lair is where"),
        ("colour_owner", (c, n), "1.0 for the seat playing the colour slot (all 0: the "
                                 "three-player neutral colour)"),
        ("pool", (c,), "bands of the colour slot in reserve", BANDS),
        ("flags_used", (c,), "flag tokens of the colour slot on the board", FLAGS),
        ("victory_option", (c,), "1.0 when the colour slot has placed its victory option"),
        ("in_victory", (c,), "1.0 when the colour slot is in a victory situation now"),
        ("turn_colour", (c,), "one-hot: the colour slot whose turn it is"),
        ("acting_colour", (c,), "one-hot: the colour slot acting (a Coup de main's colour)"),
        ("hand_size", (n,), "cards in each seat's hand", CARDS),
        ("hand", (KINDS,), "the observer's own cards, by kind (CARD_KINDS order)", CARDS),
        ("played", (KINDS,), "cards played face up, by kind", CARDS),
        ("pile", (2,), "cards in the pile; cards a Grand strategist has set aside", CARDS),
        ("supply", (2,), "gold, then natives, in the supply", GOLD),
        ("rounds", (2,), "the round, then the round cap (max_rounds)", MAX_ROUNDS),
        ("actions_left", (1,), "the acting colour's actions left (0 in the deal and the "
                               "preliminary turn)", ACTIONS),
        ("coup", (2,), "1.0 during a Coup de main; the interrupted turn's actions left",
         ACTIONS),
        ("phase", (len(PHASES),), "one-hot: the phase (PHASES order)"),
        ("to_move", (n,), "1.0 for the seat to decide; all 0 at chance and at the end"),
        ("pending_kind", (len(PENDING_KINDS),), "one-hot: the pending sub-decision (deploy, "
                                                "move, attack, explore, place, draw, look)"),
        ("pending_route", (len(ROUTE_KINDS),), "one-hot: a pending move or attack's route "
                                               "(land, load, unload, tranship)"),
        ("pending_from", (t + s,), "one-hot: where the pending move or attack starts "
                                   "(territories, then seas)"),
        ("pending_to", (t + s,), "one-hot: where it goes; the territory deployed to or "
                                 "explored"),
        ("pending_defender", (FLAG_KINDS,), "one-hot: the defenders of the pending attack "
                                            "(a colour slot, then brown)"),
        ("pending_losses", (2,), "the combat roll: defenders, then attackers lost (0 before "
                                 "it is rolled)", BANDS),
        ("pending_place", (len(PLACE_WHAT),), "one-hot: what a pending placement places "
                                              "(PLACE_WHAT order)"),
        ("pending_player", (n,), "one-hot: the seat a pending draw or look is for"),
        ("pending_card", (KINDS,), "one-hot: the card a Grand strategist looks at, to the "
                                   "player looking only"),
        ("pending_counts", (len(PENDING_COUNTS),), "bands still to deploy, bands of the "
                                                   "move, amount to place, rolls left, the "
                                                   "exploration multiplier", BANDS),
        ("winners", (n,), "1.0 for each winning seat (at the end)"),
        ("end_reason", (len(END_REASONS) - 1,), "one-hot: victory, round cap"),
        ("options", (2 + len(WINDOW_POLICIES),), "recruitment, cards, then one-hot: the "
                                                 "reaction windows (off, turn_start, "
                                                 "every_action)"),
    ])


def colour_slots(owners: Sequence[int | None], player: int, players: int) -> list[int]:
    """The colours in slot order for ``player`` (``owners[c]``: colour ``c``'s player)."""
    first = min(c for c, p in enumerate(owners) if p == player)

    def key(c: int) -> tuple[int, int]:
        p = owners[c]
        return ((p - player) % players if p is not None else players, (c - first) % 4)

    return sorted(range(COLOUR_SLOTS), key=key)


def observation_from_view(view: Mapping[str, Any], player: int, board: Board) -> Observation:
    """``player``'s tensor from ``view(player)`` alone (the board gives the places' order:
    a constant of the game)."""
    n = len(view["players"])
    nterr, nseas = len(board.territories), len(board.seas)
    cities = [t.key for t in board.territories if t.city]
    city = {key: i for i, key in enumerate(cities)}
    out = ObservationWriter(observation_layout(n, nterr, nseas, len(cities)))
    owners = [entry["player"] for entry in view["colours"]]
    order = colour_slots(owners, player, n)
    slot = {COLOURS[c]: k for k, c in enumerate(order)}
    flag_index = {**slot, "brown": COLOUR_SLOTS}
    terr = {t.key: r for r, t in enumerate(board.territories)}
    sea = {x.key: i for i, x in enumerate(board.seas)}

    def seat(p: int) -> int:
        return (p - player) % n

    for r, entry in enumerate(view["territories"]):
        if entry["flag"] is not None:
            out["flag"][flag_index[entry["flag"]], r] = 1.0
        out["explored"][r] = entry["explored"]
        if entry["colour"] is not None:
            out["bands"][slot[entry["colour"]], r] = entry["bands"]
        out["gold"][r] = entry["gold"]
        out["natives"][r] = entry["natives"]
    for ship in view["ships"]:
        owner = slot[ship["owner"]]
        if ship["where"] == "city":
            r = city[ship["at"]]
            out["city_ship"][owner, r] = 1.0
            out["city_ship_captured"][r] = ship["captured"]
        elif ship["where"] == "sea":
            i = sea[ship["at"]]
            out["sea_ship"][owner, i] = 1.0
            if ship["crew"] is not None:
                out["sea_crew"][slot[ship["crew"]], i] = ship["bands"]
            out["sea_gold"][i] = ship["gold"]
        else:
            out["box_ships"][owner] += 1
    for entry in view["colours"]:
        k = slot[entry["colour"]]
        out.one_hot("colour", COLOURS.index(entry["colour"]), k)
        if entry["player"] is not None:
            out.one_hot("colour_owner", seat(entry["player"]), k)
        out["pool"][k] = entry["pool"]
        out["flags_used"][k] = entry["flags"]
        out["victory_option"][k] = entry["victory_option"]
        out["in_victory"][k] = entry["in_victory"]
    out.one_hot("turn_colour", slot[view["turn_colour"]])
    out.one_hot("acting_colour", slot[view["acting_colour"]])
    for entry in view["players"]:
        out["hand_size"][seat(entry["player"])] = entry["hand_size"]
        if entry["player"] == player and entry["hand"] is not None:
            out["hand"][:] = [entry["hand"][kind] for kind in CARD_KINDS]
    out["played"][:] = [view["played"][kind] for kind in CARD_KINDS]
    out["pile"][:] = [view["deck"], view["set_aside"]]
    out["supply"][:] = [view["supply"]["gold"], view["supply"]["natives"]]
    out["rounds"][:] = [view["round"], view["max_rounds"]]
    out["actions_left"][0] = view["actions_left"]
    if view["coup"] is not None:
        out["coup"][:] = [1.0, view["coup"]["interrupted_actions_left"]]
    out.one_hot("phase", PHASES.index(view["phase"]))
    if view["current_player"] >= 0:
        out.one_hot("to_move", seat(view["current_player"]))
    _pending(out, view["pending"], seat, flag_index, terr, sea, nterr)
    for p in view["winners"] or ():
        out["winners"][seat(p)] = 1.0
    if view["end_reason"] is not None:
        out.one_hot("end_reason", END_REASONS.index(view["end_reason"]) - 1)
    options = view["options"]
    out["options"][:2] = [options["recruitment"], options["cards"]]
    out["options"][2 + WINDOW_POLICIES.index(options["reaction_windows"])] = 1.0
    return out.array


def _pending(out: ObservationWriter, pending: Mapping[str, Any] | None, seat: Any,
             flag_index: Mapping[str, int], terr: Mapping[str, int], sea: Mapping[str, int],
             nterr: int) -> None:
    if pending is None:
        return
    kind = pending["kind"]
    out.one_hot("pending_kind", PENDING_KINDS.index(kind))
    counts = out["pending_counts"]
    if kind in ("deploy", "explore"):
        out.one_hot("pending_to", terr[pending["territory"]])
        if kind == "deploy":
            counts[0] = pending["left"]
        else:
            counts[4] = pending["multiplier"]
    elif kind in ("move", "attack"):
        route = pending["route"]
        out.one_hot("pending_route", ROUTE_KINDS.index(route))
        start = (terr[pending["from"]] if route in ("land", "load")
                 else nterr + sea[pending["from"]])
        end = terr[pending["to"]] if route in ("land", "unload") else nterr + sea[pending["to"]]
        out.one_hot("pending_from", start)
        out.one_hot("pending_to", end)
        if kind == "move":
            counts[1] = pending["bands"] or 0        # None until the bands are chosen
        else:
            if pending["defender"] is not None:
                out.one_hot("pending_defender", flag_index[pending["defender"]])
            out["pending_losses"][:] = [pending["defenders_lost"] or 0,
                                        pending["attackers_lost"] or 0]
    elif kind == "place":
        out.one_hot("pending_place", PLACE_WHAT.index(pending["what"]))
        counts[2] = pending["amount"] or 0            # None while the tribes die rolls
        counts[3] = pending["rolls_left"]
    elif kind == "draw":
        out.one_hot("pending_player", seat(pending["for"]))
    else:                                             # look
        out.one_hot("pending_player", seat(pending["player"]))
        if pending["card"] is not None:
            out.one_hot("pending_card", CARD_KINDS.index(pending["card"]))
