"""What an Armadora action caused (docs/armadora.rst, section "Events"), from the core's
exports before and after it, and each event as a viewer may see it (the redaction of
``view``: a face-down strength only to those who may see it)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardrules._base import CHANCE
from boardrules._events import Event

if TYPE_CHECKING:
    from boardrules.games.armadora.game import ArmadoraGame

PH_OVER = 5
POWERS = {"goblin": "goblin", "orc": "orc", "peek": "mage", "arrow": "elf"}


def armadora_events(game: ArmadoraGame, before: dict[str, Any], action: int, mover: int,
                    after: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The whole truth of what ``action`` caused (kinds: gold, race, warrior, palisade,
    power, reinforce, pass, reveal, scoring)."""
    move = game._moves[action]
    square = game.square
    events: list[tuple[str, dict[str, Any]]] = []
    if move.kind == "gold":
        # rule 2.6 (setup): the pile goes onto the next mine in the board's order
        mine = game.board.mine_cells[before["mines_filled"]]
        events.append(("gold", {"square": square(mine), "gold": move.gold}))
    elif move.kind == "race":
        player = before["races_dealt"]
        events.append(("race", {"player": player, "race": move.race,
                                "tokens": after["power_tokens"][player]}))
    elif move.kind == "warrior":
        events.append(("warrior", {"player": mover, "square": move.square,
                                   "strength": move.strength}))
    elif move.kind == "palisade":
        events.append(("palisade", {"player": mover, "edge": str(move),
                                    "palisades_left": after["palisades_left"]}))
    elif move.kind in POWERS:
        data: dict[str, Any] = {"player": mover, "race": POWERS[move.kind],
                                "tokens_left": after["power_tokens"][mover]}
        if move.kind == "orc":
            data["edge"] = f"{move.edge[0]}-{move.edge[1]}" if move.edge else None
        else:
            data["square"] = move.square
            cell = game._square_cell(move.square)
            data["strength"] = move.strength if move.kind == "goblin" else (
                before["strength"][cell] if move.kind == "peek" else None)
            if move.kind == "arrow":
                data["arrows"] = after["arrows"][cell]
        events.append(("power", data))
    elif move.kind == "reinforce":
        events.append(("reinforce", {"player": mover, "square": move.square}))
    elif move.kind == "pass":
        events.append(("pass", {"player": mover}))
    if after["phase"] == PH_OVER and before["phase"] != PH_OVER:
        events.extend(_final(game, after))
    return events


def _final(game: ArmadoraGame, after: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """rule 5 (scoring): every face-down warrior turned over, then each territory's gold
    to the strongest (the scoring is the core's, on the final position)."""
    square = game.square
    revealed = [{"square": square(c), "player": owner, "strength": after["strength"][c]}
                for c, owner in enumerate(after["owner"])
                if owner >= 0 and not after["face_up"][c]]
    core = game._core.new_state()
    game._core.load(core, after)
    territories = []
    for cells, gold, strength, share in game._core.territory_results(core):
        if not gold:
            continue
        territories.append({"squares": [square(c) for c in cells], "gold": gold,
                            "strength": strength, "share": share,
                            "winners": [p for p, s in enumerate(share) if s]})
    gold_total, _ = game._core.scoring(core)
    return [("reveal", {"warriors": revealed}),
            ("scoring", {"territories": territories, "gold": gold_total})]


def redact_armadora_event(game: ArmadoraGame, event: Event, viewer: int | None) -> Event:
    """rule 3 (warriors): a face-down warrior's strength only to its owner (when he may
    look at his own warriors); rule 7.2.2 (Mage): the value peeked at only to the Mage.
    Every other event is public."""
    data = event.data
    hidden = False
    if event.kind == "warrior":
        hidden = not (viewer == event.player and game._options["look_at_face_down"])
    elif event.kind == "power" and data.get("race") == "mage":
        hidden = viewer != event.player
    if not hidden or event.player == CHANCE:
        return event
    return Event(event.index, event.player, event.kind, {**data, "strength": None})


def describe(event: Event) -> str:
    """A short line for the text board's ``last:`` line."""
    d = event.data
    who = f"player {d['player']}" if "player" in d else ""
    strength = "?" if d.get("strength") is None else d.get("strength")
    if event.kind == "gold":
        return f"{d['gold']} gold on {d['square']}"
    if event.kind == "race":
        return f"{who} is dealt the {d['race']}s"
    if event.kind == "warrior":
        return f"{who} places {strength}@{d['square']}"
    if event.kind == "palisade":
        return f"{who} places palisade {d['edge']}"
    if event.kind == "power":
        target = d.get("edge") or d.get("square")
        shown = f" ({strength})" if d["race"] in ("goblin", "mage") else ""
        return f"{who} uses the {d['race']} power on {target}{shown}"
    if event.kind == "reinforce":
        return f"{who} reinforces {d['square']}"
    if event.kind == "pass":
        return f"{who} passes"
    if event.kind == "scoring":
        return "scored: " + ", ".join(f"player {p} {g}" for p, g in enumerate(d["gold"]))
    return "every warrior turned over"


__all__ = ["armadora_events", "describe", "redact_armadora_event"]
