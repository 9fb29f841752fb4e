"""What a tic-tac-toe move caused (docs/tic_tac_toe.rst, "Events"): the mark, and the
line it completed or the draw it made.  Nothing is hidden: every viewer sees them all."""

from __future__ import annotations

from typing import Any

from boardrules._events import Event
from boardrules.games.tic_tac_toe.moves import square_name


def tic_tac_toe_events(before: dict[str, Any], action: int, mover: int,
                       after: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    events: list[tuple[str, dict[str, Any]]] = [
        ("mark", {"player": mover, "square": square_name(action)})]
    if after["winner"] >= 0:
        events.append(("line", {"player": after["winner"],
                                "squares": [square_name(c) for c in after["line"]]}))
    elif after["move_count"] == 9:
        events.append(("draw", {}))
    return events


def describe(event: Event) -> str:
    """A short line for the text board's ``last:`` line."""
    data = event.data
    if event.kind == "mark":
        return f"{'XO'[data['player']]} on {data['square']}"
    if event.kind == "line":
        return f"{'XO'[data['player']]} completes {'-'.join(data['squares'])}"
    return "a draw"
