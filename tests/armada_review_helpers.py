"""Helpers of the Armada review (tests/test_armada_review.py): games without automatic
chance (so that a test chooses every die and card), a quick preliminary turn, ``edit``
(one field of the position changed, through the position format), and staging bands
anywhere by legal moves."""

from __future__ import annotations

import random
from typing import Any

from boardrules import CHANCE, TERMINAL
from boardrules.games.armada import ArmadaGame, ArmadaState
from boardrules.games.armada.board import COLOURS

W_BOX, W_CITY, W_SEA = 0, 1, 2
NOBODY = 255


def new(players: int = 4, **options: Any) -> ArmadaState:
    """A game at its first turn: cards dealt in seat order from the pile's order of kinds
    (``deal``: one card kind per dealt card, else the first kind left), each colour's
    ships on its first two cities and 3 bands a lair territory (the rest on the last)."""
    deal = list(options.pop("deal", []))
    game = ArmadaGame(players, **options)
    state = game.new_game(seed=1, auto_chance=False)
    while state.phase in ("deal", "setup_ship", "setup_bands"):
        if state.current_player == CHANCE:
            wanted = f"draw {deal.pop(0)}" if deal else None
            outcomes = [str(m) for m, _ in state.chance_outcomes()]
            state.apply(wanted if wanted in outcomes else outcomes[0])
        elif state.phase == "setup_ship":
            state.apply(state.legal_moves()[0])
        else:
            left = state.view(None)["pending"]["left"]
            state.apply(f"deploy {min(3, left)}")
    settle(state)
    return state


def settle(state: ArmadaState) -> None:
    """Declines the Coup de main windows open before the acting colour's next action."""
    while state.phase == "coup":
        state.apply("decline")


def raw(state: ArmadaState) -> dict[str, Any]:
    return state.game._core.export(state._core)


#: The fields ``edit`` sets: per territory, per ship, per player and kind, per kind,
#: per colour, and the two counters.
TERRITORY_FIELDS = ("flag", "occ", "bands", "gold", "natives", "explored")
SHIP_FIELDS = ("ship_where", "ship_pos", "ship_owner", "ship_crew", "ship_bands",
               "ship_gold")
BOOLEAN_FIELDS = ("explored", "option")
DERIVED = ("pool", "supply_gold", "supply_natives", "flags_used", "deck", "in_victory")


def edit(state: ArmadaState, field: str, value: int, i: int = 0, j: int = 0) -> None:
    """Set one field of ``state``'s position through the position format: the export
    with the field changed is written as position text and read back by
    ``game.position`` (which checks it and computes the reserves, supplies, flags and
    pile), and ``state`` takes the new position in place of its own (without history,
    so undo stops there).  A refused position raises InvalidPositionError and changes
    nothing.  A ship that leaves its city is no longer "captured"."""
    if state.phase != "turn":
        raise ValueError("positions are edited at a colour's turn only (phase turn)")
    r = raw(state)
    if field in TERRITORY_FIELDS or field in SHIP_FIELDS or field in ("played", "option"):
        if not 0 <= i < len(r[field]):
            raise ValueError(f"{field}: index {i} out of range")
        r[field][i] = bool(value) if field in BOOLEAN_FIELDS else value
    elif field == "hand":
        if not (0 <= i < len(r["hand"]) and 0 <= j < len(r["hand"][i])):
            raise ValueError("hand: index out of range")
        r["hand"][i][j] = value
    elif field in ("ap", "round"):
        r[field] = value
    else:
        raise ValueError(f"no editable field {field!r}")
    r["captured"] = [c and w == W_CITY for c, w in zip(r["captured"], r["ship_where"],
                                                       strict=True)]
    for key in DERIVED:
        del r[key]
    game = state.game
    try:
        text = game._position_text(r)
    except (IndexError, TypeError) as exc:   # a value the format has no word for
        raise ValueError(f"{field}: {value} out of range") from exc
    staged = game.position(text, auto_chance=state.auto_chance,
                           auto_forced=state.auto_forced)
    adopt(state, staged)


def adopt(state: ArmadaState, other: ArmadaState) -> None:
    """``state`` becomes ``other`` (a state made from a position) in place, so that a
    test's name for it stays valid."""
    state._core = other._core
    state._start = other._start
    state._log = None
    state._events_log = []


def T(state: ArmadaState, key: str) -> int:
    """A territory's index."""
    return [t.key for t in state.game.board.territories].index(key)


def S(state: ArmadaState, key: str) -> int:
    """A sea space's index."""
    return [s.key for s in state.game.board.seas].index(key)


def C(colour: str) -> int:
    return COLOURS.index(colour)


def legal(state: ArmadaState) -> list[str]:
    return [str(m) for m in state.legal_moves()]


def play(state: ArmadaState, *moves: str) -> None:
    for move in moves:
        state.apply(move)


def give(state: ArmadaState, player: int, card: str, count: int = 1) -> None:
    """Set ``player``'s copies of ``card`` (the pile gives or takes them)."""
    from boardrules._ext.armada import CARD_KINDS

    edit(state, "hand", count, player, CARD_KINDS.index(card))


def clear_hands(state: ArmadaState) -> None:
    from boardrules._ext.armada import CARD_KINDS

    for p in range(state.game.num_players):
        for k in range(len(CARD_KINDS)):
            edit(state, "hand", 0, p, k)


def free_ship(state: ArmadaState) -> int:
    """A ship not at sea, empty (in the box or on a city)."""
    r = raw(state)
    for i in range(8):
        if r["ship_where"][i] != W_SEA:
            return i
    raise AssertionError("every ship is at sea")


def coast_of(state: ArmadaState, terr: int, free: bool = True) -> int:
    """A sea space next to ``terr`` (free of ships unless ``free`` is False)."""
    at_sea = {p for w, p in zip(raw(state)["ship_where"], raw(state)["ship_pos"], strict=True)
              if w == W_SEA}
    for s, t in state.game.board.coast:
        if t == terr and (not free or s not in at_sea):
            return s
    raise AssertionError(f"no free coast next to territory {terr}")


def stage(state: ArmadaState, key: str, bands: int) -> None:
    """Put ``bands`` of the acting colour on territory ``key`` by legal moves: onto a ship
    next to a territory of its own (the ship placed there by edit), the ship moved next to
    ``key`` by edit, then unloaded (an invasion when the flag is another's; a central
    territory is marked explored first).  The actions it spends are given back; no
    Coup de main window may be open (use reaction_windows="off" or no cards)."""
    assert state.phase == "turn", state.phase
    r = raw(state)
    c = r["acting"]
    ap = r["ap"]
    src = max((t for t in range(len(r["occ"])) if r["occ"][t] == c),
              key=lambda t: r["bands"][t])
    assert r["bands"][src] >= bands, "not enough bands to stage"
    dst = T(state, key)
    i = free_ship(state)
    if r["ship_where"][i] == W_CITY:
        edit(state, "ship_where", W_BOX, i)
    edit(state, "ship_pos", coast_of(state, src), i)
    edit(state, "ship_where", W_SEA, i)
    sea_keys = [s.key for s in state.game.board.seas]
    here = raw(state)["ship_pos"][i]
    play(state, f"move {state.game.board.territories[src].key}-{sea_keys[here]}")
    if state.phase == "bands":
        play(state, f"bands {bands}")
    if state.phase == "gold":
        play(state, "gold 0")
    edit(state, "ship_pos", coast_of(state, dst), i)
    here = raw(state)["ship_pos"][i]
    if not raw(state)["explored"][dst]:
        edit(state, "explored", 1, dst)
    play(state, f"move {sea_keys[here]}-{key}")
    if state.phase == "bands":
        play(state, f"bands {bands}")
    if state.phase == "gold":
        play(state, "gold 0")
    edit(state, "ship_where", W_BOX, i)
    edit(state, "ap", ap)
    assert state.phase == "turn"


def random_game(state: ArmadaState, rng: random.Random, limit: int = 100_000,
                check: Any = None) -> int:
    """Plays random moves (chance by probability) to the end; returns the moves made."""
    n = 0
    while state.current_player != TERMINAL and n < limit:
        if check is not None:
            check(state)
        if state.current_player == CHANCE:
            moves, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply(rng.choices(moves, weights)[0])
        else:
            state.apply(rng.choice(state.legal_moves()))
        n += 1
    return n
