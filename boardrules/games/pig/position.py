"""Pig's position format (docs/pig.rst, "Position format"): a header line and one
``key: value`` line per field::

    Pig position
    scores: 12 7
    turns: 13
    to move: 1
    turn total: 8
    phase: decide
    last die: 4

The winner follows from the rest; the core's ``load`` checks that play can reach it all.
"""

from __future__ import annotations

from typing import Any

from boardrules.errors import InvalidPositionError

HEADER = "Pig position"
KEYS = ("scores", "turns", "to move", "turn total", "phase", "last die")
PHASES = ("decide", "rolling", "over")
TARGET, TURN_LIMIT = 20, 40


def position_text(raw: dict[str, Any]) -> str:
    """The canonical text of the position ``raw`` (the core's export)."""
    return "\n".join([
        HEADER,
        f"scores: {raw['scores'][0]} {raw['scores'][1]}",
        f"turns: {raw['turns']}",
        f"to move: {raw['current']}",
        f"turn total: {raw['turn_total']}",
        f"phase: {raw['phase']}",
        f"last die: {raw['last_die'] or '-'}",
    ]) + "\n"


def _number(key: str, text: str, hi: int) -> int:
    # ASCII digits only: str.isdigit() also takes '²', which int() refuses
    if not (text.isascii() and text.isdigit()) or len(text) > 4 or int(text) > hi:
        raise InvalidPositionError(key, f"a whole number from 0 to {hi}, not {text[:10]!r}")
    return int(text)


def position_raw(text: str) -> dict[str, Any]:
    """Parse position text into the core's export form (InvalidPositionError naming the
    field); the winner is derived here and checked by the core."""
    lines = [line.strip() for line in text.splitlines()]
    lines = [line for line in lines if line and not line.startswith("#")]
    if not lines or " ".join(lines[0].lower().split()) != HEADER.lower():
        raise InvalidPositionError("", f"a Pig position starts with the line {HEADER!r}")
    fields: dict[str, str] = {}
    for line in lines[1:]:
        key, colon, value = line.partition(":")
        key = " ".join(key.lower().split())
        if not colon or key not in KEYS:
            raise InvalidPositionError(key[:20], f"a line is 'key: value', the keys "
                                       f"{', '.join(KEYS)}")
        if key in fields:
            raise InvalidPositionError(key, "given twice")
        fields[key] = " ".join(value.lower().split())
    for key in KEYS:
        if key not in fields:
            raise InvalidPositionError(key, "missing")
    scores = fields["scores"].split()
    if len(scores) != 2:
        raise InvalidPositionError("scores", "the two players' scores, 'scores: 12 7'")
    raw: dict[str, Any] = {
        "scores": [_number("scores", v, 99) for v in scores],
        "turns": _number("turns", fields["turns"], 99),
        "current": _number("to move", fields["to move"], 1),
        "turn_total": _number("turn total", fields["turn total"], 99),
        "phase": fields["phase"],
        "last_die": 0 if fields["last die"] == "-" else _number("last die",
                                                                fields["last die"], 6),
    }
    if raw["phase"] not in PHASES:
        raise InvalidPositionError("phase", f"one of {', '.join(PHASES)}")
    raw["winner"] = _winner(raw)
    return raw


def _winner(raw: dict[str, Any]) -> int:
    """Who won, for the core to check: the one at 20 or more, else after the last turn
    the higher score (-1: nobody, or a draw)."""
    if raw["phase"] != "over":
        return -1
    scores = raw["scores"]
    for p in range(2):
        if scores[p] >= TARGET:
            return p
    if scores[0] == scores[1]:
        return -1
    return 0 if scores[0] > scores[1] else 1
