"""Armada events: what an action caused, from the core's export before and after it, and
each event as a viewer may see it (the redaction of ``view``: a card drawn is seen by the
player it went to only).  The kinds and their fields are listed on the docs page
(docs/armada.rst, "Events")."""

from __future__ import annotations

from typing import Any

from boardrules._events import Event
from boardrules._ext.armada import COLOURS, PHASES, ROUTE_KINDS
from boardrules.games.armada.moves import ArmadaMove

COMBAT_PHASES = frozenset({"roll", "attack_weapon", "defence_weapon"})
BROWN = 4


def events(move: ArmadaMove, before: dict[str, Any], after: dict[str, Any],
           territories: list[str], seas: list[str],
           routes: list[tuple[int, int, int]]) -> list[tuple[str, dict[str, Any]]]:
    """The whole-truth events of ``move`` (kind, fields)."""
    out: list[tuple[str, dict[str, Any]]] = []
    kind = move.kind
    if kind == "hits":
        out.append(("dice", {"die": "combat", "defenders_lost": move.first,
                             "attackers_lost": move.second}))
    elif kind == "find":
        t = before["explore_t"]
        out.append(("dice", {"die": "exploration", "gold": move.first,
                             "tribes": move.second}))
        out.append(("found", {"territory": territories[t],
                              "gold": after["gold"][t] - before["gold"][t],
                              "natives": after["natives"][t] - before["natives"][t]}))
    elif kind == "spears":
        out.append(("dice", {"die": "tribes", "tribes": move.count,
                             "to_place": after["place_amount"]
                             if PHASES[after["phase"]] == "place" else 0}))
    elif kind == "draw":
        out.append(("draw", {"player": before["drawer"], "card": move.card}))
    if kind == "play":
        out.append(("card", {"card": move.card}))
    elif kind == "coup":
        out.append(("card", {"card": "coup_de_main", "colour": move.colour}))
    elif kind == "explore" and move.special:
        out.append(("card", {"card": "discovery"}))
    if (PHASES[before["phase"]] in COMBAT_PHASES
            and PHASES[after["phase"]] not in COMBAT_PHASES):
        out.append(("combat", _combat(before, after, territories, seas, routes)))
    return out


def _combat(before: dict[str, Any], after: dict[str, Any], territories: list[str],
            seas: list[str], routes: list[tuple[int, int, int]]) -> dict[str, Any]:
    """An attack resolved: where from and to, who defended, the losses on each side."""
    kind, a, b = routes[before["route"]]
    name = ROUTE_KINDS[kind]
    from_land = name in ("land", "load")
    to_land = name in ("land", "unload")

    def stack(raw: dict[str, Any], place: int, land: bool) -> tuple[int, int]:
        if land:
            return raw["bands"][place], raw["natives"][place]
        ship = [i for i in range(8) if raw["ship_where"][i] == 2 and raw["ship_pos"][i] == place]
        return (raw["ship_bands"][ship[0]], 0) if ship else (0, 0)

    attackers = stack(before, a, from_land)[0] - stack(after, a, from_land)[0]
    d_before, d_after = stack(before, b, to_land), stack(after, b, to_land)
    target = before["target_colour"]
    return {
        "from": territories[a] if from_land else seas[a],
        "to": territories[b] if to_land else seas[b],
        "attacker": COLOURS[before["acting"]],
        "defender": "brown" if target == BROWN else COLOURS[target],
        "defenders_lost": (d_before[1] - d_after[1]) if target == BROWN
        else d_before[0] - d_after[0],
        "attackers_lost": attackers,
    }


def redact(event: Event, viewer: int | None) -> Event:
    """``event`` as ``viewer`` sees it: a card drawn for another player is ``None``."""
    if event.kind == "draw" and event.data["player"] != viewer:
        return Event(event.index, event.player, event.kind, {**event.data, "card": None})
    return event


def describe(event: Event) -> str:
    """One event as words for the text board's ``last:`` line (``draw raspberry ?``)."""
    fields = " ".join(f"{key} {'?' if value is None else value}"
                      for key, value in event.data.items())
    return f"{event.kind} {fields}"
