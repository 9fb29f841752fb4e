"""Helpers for Armada's rule tests: a test board, the preliminary turn played quickly, and
short ways to play the move notation of the spec (``move``, ``attack``, ``explore`` ...).

The test board is the shipped archipelago with a few more coast links (a board is data:
any valid board file may be passed as ``board=``), so that the positions the rules talk
about are a handful of actions away:

* ``HUB`` (``s_e2``, next to green's city gn5 and the north neighbouring island's nn1)
  also touches eight central territories without a post (ci1-ci3, ci5, ci7, ci9-ci11)
  and the north, central and west trading posts;
* ``PORT`` (``s_c2``, next to gn3 and gn5) also touches raspberry's three cities,
  blue's city bl3 and orange's city or3;
* ``RAID`` (``s_c1``, next to gn1 and gn4) also touches rs7, bl7, gn2 and gn6
  (raspberry's and blue's way into green's lair);
* ``BLUE_PORT`` (``s_k10``, next to bl3 and bl7) also touches raspberry's three cities and
  orange's city or3.

Every position is reached by playing moves, chance outcomes chosen by the test
(``auto_chance=False``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

import boardrules
from boardrules import CHANCE
from boardrules.games.armada import load_board

COLOURS = ("green", "raspberry", "blue", "orange")
HUB, PORT, RAID, BLUE_PORT = "s_e2", "s_c2", "s_c1", "s_k10"
EXTRA_COAST: dict[str, tuple[str, ...]] = {
    HUB: ("ci1", "ci2", "ci3", "ci5", "ci7", "ci9", "ci10", "ci11", "post_north",
          "post_central", "post_west"),
    PORT: ("rs3", "rs5", "rs7", "bl3", "or3"),
    RAID: ("rs7", "bl7", "gn2", "gn6"),
    BLUE_PORT: ("rs3", "rs5", "rs7", "or3"),
}


def board_with(extra: Mapping[str, Iterable[str]], name: str = "test") -> dict[str, Any]:
    """The archipelago as a board file's content, with the coast links ``extra`` added
    (sea key -> territory keys)."""
    doc = load_board("archipelago").to_json()
    doc["name"], doc["provenance"] = name, "user"
    have = {tuple(pair) for pair in doc["coast"]}
    for sea, territories in extra.items():
        for t in territories:
            if (sea, t) not in have:
                doc["coast"].append([sea, t])
                have.add((sea, t))
    return doc


TEST_BOARD = board_with(EXTRA_COAST)

#: The preliminary turn each colour plays unless a test says otherwise:
#: (its two cities, bands per lair territory; territories not named get none).
PLANS: dict[str, tuple[tuple[str, str], dict[str, int]]] = {
    "green": (("gn3", "gn5"), {"gn1": 1, "gn2": 1, "gn3": 2, "gn4": 1, "gn5": 10,
                               "gn6": 1, "gn7": 2}),
    "raspberry": (("rs3", "rs5"), {"rs1": 18}),
    "blue": (("bl3", "bl5"), {"bl1": 18}),
    "orange": (("or3", "or5"), {"or1": 18}),
}
#: A filler card dealt when a test does not care (16 copies, harmless).
FILLER = "dope"


_GAMES: dict[str, Any] = {}


def game(players: int = 4, **options: Any) -> Any:
    """An Armada game on the test board (unless ``board`` is given); a game is immutable,
    so one is built per set of options and shared (it keeps the suite fast).

    With cards, the Coup de main windows open at the start of each turn only
    (``reaction_windows="turn_start"``) unless a test names the policy: the rules tests
    play a turn's actions one after the other, and the tests of the windows themselves
    (M4) name the policy they test, the default ``every_action`` included."""
    options.setdefault("board", TEST_BOARD)
    if options.get("cards"):
        options.setdefault("reaction_windows", "turn_start")
    key = json.dumps([players, options], sort_keys=True)
    if key not in _GAMES:
        _GAMES[key] = boardrules.load("armada", players=players, **options)
    return _GAMES[key]


def new(players: int = 4, plans: Mapping[str, Any] | None = None,
        hands: Mapping[int, list[str]] | None = None, first_turn: bool = True,
        **options: Any) -> Any:
    """A new game (chance not automatic) with the preliminary turn played by
    ``plans`` (colour -> (cities, bands); :data:`PLANS` for the others) and, with
    cards, ``hands`` dealt (player -> its 2 cards; :data:`FILLER` for the rest); then,
    with ``first_turn``, the opening Coup de main windows declined (green to act)."""
    state = game(players, **options).new_game(seed=1, auto_chance=False)
    setup(state, plans, hands)
    if first_turn:
        to_turn(state, view(state)["turn_colour"])
    return state


def view(state: Any, player: int | None = None) -> dict[str, Any]:
    return state.view(player)  # type: ignore[no-any-return]


def phase(state: Any) -> str:
    return str(view(state)["phase"])


def legal(state: Any) -> set[str]:
    return {str(m) for m in state.legal_moves()}


def play(state: Any, *moves: str) -> None:
    for move in moves:
        state.apply(move)


# ------------------------------------------------------------------ setup and dealing


def setup(state: Any, plans: Mapping[str, Any] | None = None,
          hands: Mapping[int, list[str]] | None = None) -> None:
    """Play the preliminary turn (and the deal, if cards are used) to the first turn."""
    plan = dict(PLANS)
    plan.update(plans or {})
    while True:
        v = view(state)
        if state.current_player == CHANCE and v["phase"] in ("draw", "deal"):
            deal_one(state, hands or {})
            continue
        if not v["phase"].startswith("setup"):
            return
        colour = v["acting_colour"]
        cities, bands = plan[colour]
        moves = legal(state)
        if any(m.startswith("ship ") for m in moves):
            pick = next(f"ship {c}" for c in cities if f"ship {c}" in moves)
            state.apply(pick)
            continue
        pending = v["pending"]
        want = bands.get(pending["territory"], 0)
        options = sorted(int(m.split()[1]) for m in moves if m.startswith("deploy "))
        state.apply(f"deploy {max(k for k in options if k <= max(want, options[0]))}")


def hand_sizes(state: Any) -> list[int]:
    return [int(p["hand_size"]) for p in view(state)["players"]]


def deal_one(state: Any, hands: Mapping[int, list[str]]) -> None:
    """Apply one card of the deal: the card ``hands`` gives the player being dealt to
    (found by trying an outcome on a copy and seeing whose hand grew)."""
    outcomes = [str(m) for m, _p in state.chance_outcomes()]
    before = hand_sizes(state)
    after = hand_sizes(state.child(outcomes[0]))
    who = next(p for p, (b, a) in enumerate(zip(before, after, strict=True)) if a > b)
    cards = list(hands.get(who, []))
    card = cards[before[who]] if before[who] < len(cards) else FILLER
    state.apply(f"draw {card}")


# ------------------------------------------------------------------ turns


def acting(state: Any) -> str:
    return str(view(state)["acting_colour"])


def decline_windows(state: Any) -> None:
    """Decline every open Coup de main or weapon window."""
    while phase(state) in ("coup", "attack_weapon", "defence_weapon"):
        state.apply("decline")


def to_turn(state: Any, colour: str) -> None:
    """End turns (declining windows) until ``colour``'s own turn is at its main choice."""
    for _ in range(200):
        decline_windows(state)
        v = view(state)
        if v["phase"] == "turn" and v["turn_colour"] == colour and v["acting_colour"] == colour:
            return
        assert v["phase"] == "turn", f"cannot pass turns in phase {v['phase']}"
        state.apply("end")
    raise AssertionError(f"{colour}'s turn never came")


def next_turn(state: Any, colour: str) -> None:
    """End the current turn, then go on to ``colour``'s next turn."""
    decline_windows(state)
    state.apply("end")
    to_turn(state, colour)


def actions_left(state: Any) -> int:
    return int(view(state)["actions_left"])


def act(state: Any, colour: str, *steps: str) -> None:
    """Play ``colour``'s actions, going on to its next turn whenever its budget is
    spent.  A step is a move's text, ``move a-b k`` (a group move of k bands, no
    gold) or ``explore t`` (the dice finding nothing)."""
    for step in steps:
        if actions_left(state) == 0:
            next_turn(state, colour)
        words = step.split()
        if words[0] == "move":
            src, dst = words[1].split("-")
            move(state, src, dst, int(words[2]) if len(words) > 2 else None)
        elif words[0] == "explore" and len(words) == 2:
            explore(state, words[1])
        else:
            state.apply(step)


# ------------------------------------------------------------------ actions


def finish(state: Any, bands: int | None = None, gold: int | None = None) -> None:
    """Answer the ``bands`` / ``gold`` sub-decisions of a group move (a choice with one
    option is made by the engine, so it may be absent)."""
    if phase(state) == "bands":
        state.apply(f"bands {bands}")
    if phase(state) == "gold":
        state.apply(f"gold {gold or 0}")


def move(state: Any, src: str, dst: str, bands: int | None = None,
         gold: int | None = None) -> None:
    """``move src-dst`` with ``bands`` bands and ``gold`` gold."""
    state.apply(f"move {src}-{dst}")
    finish(state, bands, gold)


def explore(state: Any, territory: str, gold: int = 0, tribes: int = 0,
            special: bool = False) -> None:
    state.apply(f"explore {territory}" + (" special" if special else ""))
    state.apply(f"find {gold} {tribes}")


def attack(state: Any, src: str, dst: str, defenders: int, attackers: int,
           decline: bool = True) -> None:
    """``attack src-dst``, the roll eliminating ``defenders`` and ``attackers``; the
    weapon windows are declined unless ``decline`` is False."""
    state.apply(f"attack {src}-{dst}")
    state.apply(f"hits {defenders} {attackers}")
    if decline:
        while phase(state) in ("attack_weapon", "defence_weapon"):
            state.apply("decline")


def expedition(state: Any, bands: int = 8, city: str = "gn5", sea: str = HUB) -> None:
    """Green launches its ship from ``city`` onto ``sea`` and loads ``bands`` bands from
    ``city`` (2 actions)."""
    state.apply(f"launch {city}-{sea}")
    move(state, city, sea, bands)


# ------------------------------------------------------------------ reading the view


def terr(state: Any, key: str, player: int | None = None) -> dict[str, Any]:
    return next(t for t in view(state, player)["territories"] if t["territory"] == key)


def colour_row(state: Any, colour: str) -> dict[str, Any]:
    return next(c for c in view(state)["colours"] if c["colour"] == colour)


def ship_at(state: Any, where: str) -> dict[str, Any]:
    """The ship on sea space or city ``where``."""
    return next(s for s in view(state)["ships"] if s["at"] == where)


def ships_of(state: Any, owner: str) -> list[dict[str, Any]]:
    return [s for s in view(state)["ships"] if s["owner"] == owner]


def bands_on_board(state: Any, colour: str) -> int:
    v = view(state)
    return (sum(t["bands"] for t in v["territories"] if t["colour"] == colour)
            + sum(s["bands"] for s in v["ships"] if s["crew"] == colour))


def hand(state: Any, player: int) -> dict[str, int]:
    """``player``'s hand as he sees it (card -> count, the cards he holds)."""
    cards = view(state, player)["players"][player]["hand"]
    return {card: n for card, n in cards.items() if n}
