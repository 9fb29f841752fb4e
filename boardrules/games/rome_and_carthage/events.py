"""What a Rome & Carthage move caused (the docs page's "Events"), from the core's
``export`` before and after it, and each event as a viewer may see it.

Kinds: ``draw`` (a card drawn), ``pay`` (a forced-march card), ``give`` (Rapid Conquest:
a card given to the ally), ``battle`` (a reveal: the cards, advantages, totals and what
came of it), ``retreat`` (an army going back where it began its move), ``uprising`` (an
occupier destroyed), ``excluded`` (a player without armies drops out, his hand lost) and
``over`` (the result).  A card only its side has seen -- a draw, a gift -- is ``None`` to
the others, exactly as the view hides it; everything else is public.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardrules._events import Event
from boardrules._ext.rome_and_carthage import END_REASONS, KINDS, PHASES
from boardrules.games.rome_and_carthage.board import EMPIRES
from boardrules.games.rome_and_carthage.moves import CARD_VALUES

if TYPE_CHECKING:
    from boardrules.games.rome_and_carthage.game import RomeCarthageGame

Events = list[tuple[str, dict[str, Any]]]
_COMMIT = PHASES.index("commit")
_SPY = PHASES.index("spy")
_TIE = 2
SIDES = ("attacker", "defender")


def sees_hand(game: RomeCarthageGame, viewer: int | None, q: int) -> bool:
    """Allies show each other their cards, except in Equal Arms; a spectator sees none."""
    if viewer is None:
        return False
    team_of = game._core.team_of
    return viewer == q or (not game.equal_arms and team_of[viewer] == team_of[q])


def _army(code: int) -> str | None:
    return None if code < 0 else f"{EMPIRES[code // 4]} {KINDS[code % 4]}"


def _is_spy(values: list[int]) -> bool:
    """"Spies": "1 and 1" or "2 and 0"; a single 2 for a player whose capital is held."""
    return sorted(values) in ([1, 1], [0, 2]) or values == [2]


def _advantage(kind: str, other: str, values: list[int], advantages: bool) -> str | None:
    """"Special advantages" (R12: the defender's too): which one counted."""
    if not advantages:
        return None
    if kind == "elephant" and other != "galley":
        return "elephant"
    if kind == "chariot" and len(values) == 2:
        return "chariot"
    return None


def rc_events(game: RomeCarthageGame, before: dict[str, Any], action: int, mover: int,
              after: dict[str, Any]) -> Events:
    """The events of ``action``, whole truth (see the module docs)."""
    move = game._moves[action]
    keys = [c.key for c in game.board.cities]
    turn = before["turn_player"]
    events: Events = []
    if move.kind == "draw":
        events.append(("draw", {"player": turn, "card": move.value}))
    elif move.kind == "pay":
        events.append(("pay", {"player": turn, "card": move.value}))
    elif move.kind == "give":
        ally = next(q for q in range(game.num_players)
                    if sees_hand(game, turn, q) and q != turn)
        events.append(("give", {"player": turn, "to": ally, "card": move.value}))
    elif move.kind == "uprising":
        c = keys.index(str(move.city))
        events.append(("uprising", {"player": turn, "city": move.city,
                                    "destroyed": _army(before["army"][c])}))
    elif move.kind in ("play", "withdraw"):
        events += _battle(game, before, move, after)
    for q in range(game.num_players):
        if after["excluded"][q] and not before["excluded"][q]:
            events.append(("excluded", {"player": q,
                                        "cards_lost": sum(before["hand"][q])}))
    if after["end_reason"] and not before["end_reason"]:
        events.append(("over", {"winner_team": after["winner"] if after["winner"] >= 0
                                else None, "reason": END_REASONS[after["end_reason"]]}))
    return events


def _battle(game: RomeCarthageGame, before: dict[str, Any], move: Any,
            after: dict[str, Any]) -> Events:
    """A reveal (the defender's commit), a lone spy's replay, or his withdrawal."""
    c = before["bcity"]
    key = game.board.cities[c].key
    phase = before["phase"]
    if phase == _COMMIT and before["commit_side"] == 0:
        return []       # the attacker's cards go face down: nothing is shown yet
    codes = (before["attacker"][c], before["army"][c])
    kinds = [KINDS[code % 4] for code in codes]
    head = {"city": key, "attacker": before["attacker_player"],
            "defender": before["defender_player"],
            "armies": [_army(code) for code in codes]}
    if move.kind == "withdraw":
        side = before["spy_side"]
        events: Events = [("withdraw", {**head, "side": SIDES[side]})]
        return events + _retreats(game, before, after, c, side == 0)
    round_kind = ("full", "replay", "tie")[before["round_kind"]]
    if phase == _SPY:
        side = before["spy_side"]
        cards: list[list[int] | None] = [None, None]
        cards[side] = list(move.cards)
        round_kind = "replay"
    else:
        attacker_cards = sorted((CARD_VALUES[v] for v in before["commit"][0]), reverse=True)
        cards = [attacker_cards, list(move.cards)]
    advantages = [_advantage(kinds[s], kinds[1 - s], cards[s] or [],
                             before["round_kind"] != _TIE) if cards[s] is not None else None
                  for s in (0, 1)]
    totals = list(after["total"])
    spies = [before["round_kind"] == 0 and phase == _COMMIT and cards[s] is not None
             and _is_spy(cards[s] or []) for s in (0, 1)]
    result = _result(spies, totals, after, c)
    events = [("battle", {**head, "round": round_kind, "cards": cards,
                          "advantages": advantages, "totals": totals, "spies": spies,
                          "result": result})]
    if result == "retreat":
        events += _retreats(game, before, after, c, True)
    return events


def _result(spies: list[bool], totals: list[int], after: dict[str, Any], c: int) -> str:
    """What the reveal decided: ``attacker`` / ``defender`` (the winner), ``retreat`` (two
    zero totals), ``tie`` (a tie round follows), ``spy`` (a lone spy decides), ``restart``
    (two spies)."""
    if all(spies):
        return "restart"
    if any(spies):
        side = spies.index(True)
        if after["phase"] == _SPY:
            return "spy"
        if totals[side] > totals[1 - side]:
            return SIDES[side]
    if totals[0] > totals[1]:
        return "attacker"
    if totals[1] > totals[0]:
        return "defender"
    return "retreat" if totals[0] == 0 else "tie"


def _retreats(game: RomeCarthageGame, before: dict[str, Any], after: dict[str, Any],
              c: int, attacker_goes: bool) -> Events:
    """R3: the attacker goes back where it began its move, and an army standing there
    that moved this turn goes back the same way first."""
    if not attacker_goes:
        return []
    keys = [city.key for city in game.board.cities]
    code, home = before["attacker"][c], before["att_origin"][c]
    events: Events = []
    while home >= 0 and code >= 0:
        events.append(("retreat", {"army": _army(code), "from": keys[c], "to": keys[home]}))
        c, code, home = home, before["army"][home], before["origin"][home]
        if code < 0 or after["army"][c] == code:
            break
    return events


def redact(game: RomeCarthageGame, event: Event, viewer: int | None) -> Event:
    """``event`` as ``viewer`` may see it: a drawn or given card only to those who see
    the hand it went to (the view's rule); the rest is public."""
    data = dict(event.data)
    hidden_card = event.kind in ("draw", "give")
    if not hidden_card or sees_hand(game, viewer, data["player"]):
        return event
    data["card"] = None
    return Event(event.index, event.player, event.kind, data)


def describe(event: Event) -> str:
    """A few words for the text board's ``last:`` line."""
    d = event.data
    if event.kind in ("draw", "pay", "give"):
        card = "?" if d["card"] is None else d["card"]
        return f"player {d['player']} {event.kind}s {card}"
    if event.kind == "battle":
        shown = ["+".join(str(v) for v in side) if side is not None else "-"
                 for side in d["cards"]]
        # "no advantage" (None) is said by saying nothing: "?" is for what is hidden
        counted = [f"the {SIDES[s]}'s {adv} counts" for s, adv in enumerate(d["advantages"])
                   if adv is not None]
        return (f"battle at {d['city']}: {shown[0]} vs {shown[1]}"
                + "".join(f", {words}" for words in counted)
                + f", totals {d['totals'][0]}-{d['totals'][1]}: {d['result']}")
    if event.kind == "retreat":
        return f"{d['army']} retreats {d['from']}->{d['to']}"
    if event.kind == "withdraw":
        return f"the {d['side']}'s spy withdraws at {d['city']}"
    if event.kind == "uprising":
        return f"uprising at {d['city']}: {d['destroyed']} destroyed"
    if event.kind == "excluded":
        return f"player {d['player']} is out"
    return f"game over: {d['reason']}"
