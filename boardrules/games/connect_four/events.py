"""What a Connect Four move caused (docs/connect_four.rst, "Events"): the disc and where
it fell, and the four it connected or the draw it made.  Nothing is hidden."""

from __future__ import annotations

from typing import Any

from boardrules._events import Event

COLUMNS = "abcdefg"


def cell_name(column: int, row: int) -> str:
    """``d1``: column letter, then the row counted from the bottom (1 to 6)."""
    return f"{COLUMNS[column]}{row + 1}"


def connect_four_events(before: dict[str, Any], action: int, mover: int,
                        after: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    row = before["height"][action]
    events: list[tuple[str, dict[str, Any]]] = [
        ("drop", {"player": mover, "column": COLUMNS[action], "row": row + 1})]
    if after["winner"] >= 0:
        events.append(("four", {"player": after["winner"],
                                "cells": [cell_name(c, r) for c, r in after["line"]]}))
    elif after["move_count"] == 42:
        events.append(("draw", {}))
    return events


def describe(event: Event) -> str:
    """A short line for the text board's ``last:`` line."""
    data = event.data
    if event.kind == "drop":
        return f"{'XO'[data['player']]} in {data['column']} (row {data['row']})"
    if event.kind == "four":
        return f"{'XO'[data['player']]} connects {'-'.join(data['cells'])}"
    return "a draw"
