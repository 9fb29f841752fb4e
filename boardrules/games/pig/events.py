"""What a Pig action caused (docs/pig.rst, "Events"): each die and what it did to the
turn, a turn lost on a 1, a turn total banked, the win at 20 and the end after the last
turn.  Nothing is hidden."""

from __future__ import annotations

from typing import Any

from boardrules._events import Event

ROLL, HOLD, DIE_1 = 0, 1, 2


def pig_events(before: dict[str, Any], action: int, mover: int,
               after: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    player = before["current"]
    events: list[tuple[str, dict[str, Any]]] = []
    if action == HOLD:
        events.append(("hold", {"player": player, "banked": before["turn_total"],
                                "score": after["scores"][player]}))
    elif action >= DIE_1:
        face = action - DIE_1 + 1
        if face == 1:
            events.append(("die", {"player": player, "face": 1, "turn_total": 0}))
            events.append(("lost turn", {"player": player, "lost": before["turn_total"]}))
        else:
            total = before["turn_total"] + face
            events.append(("die", {"player": player, "face": face, "turn_total": total}))
    if after["phase"] == "over" and before["phase"] != "over":
        winner = after["winner"]
        events.append(("end", {"scores": list(after["scores"]),
                               "winner": None if winner < 0 else winner,
                               "turns": after["turns"]}))
    return events


def describe(event: Event) -> str:
    """A short line for the text board's ``last:`` line."""
    data = event.data
    if event.kind == "hold":
        return f"player {data['player']} banks {data['banked']} ({data['score']})"
    if event.kind == "die":
        return f"player {data['player']} rolls {data['face']}"
    if event.kind == "lost turn":
        return f"player {data['player']} loses {data['lost']}"
    winner = data["winner"]
    return "a draw" if winner is None else f"player {winner} wins"
