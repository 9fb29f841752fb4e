"""Pictures of pig positions -- SVG and text -- drawn from a view: the two scores, the
turn total and the last die."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from boardrules.games.checks import check_picture_size
from boardrules.games.overlay import check_overlays

INK = ("#c0392b", "#2e6fd1")        # player 0 red, player 1 blue
TURN_TINT = ("#eeb0a8", "#b3c9ef")  # the turn total at risk, lighter
#: Pips of each face on a 3 x 3 grid (column, row).
PIPS = {
    1: [(1, 1)],
    2: [(0, 0), (2, 2)],
    3: [(0, 0), (1, 1), (2, 2)],
    4: [(0, 0), (2, 0), (0, 2), (2, 2)],
    5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
    6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
}


#: ``render_svg``'s ``size``: the score bars' length in pixels, checked by
#: :func:`~boardrules.games.checks.check_picture_size` as every game's is.
SIZE_RANGE = (100, 10_000)


def render_svg(view: Mapping[str, Any], *, size: int = 300, highlight: Sequence[str] = (),
               marks: Sequence[tuple[str, str]] = (),
               arrows: Sequence[tuple[str, str]] = ()) -> str:
    """The position of ``view`` as an SVG document (score bars ``size`` pixels long: an
    integer from 100 to 10000, ``ValueError`` otherwise).
    Pig has no board: the overlays (:mod:`boardrules.games.overlay`) must be empty, any
    location raises ``ValueError``."""
    check_picture_size(size, *SIZE_RANGE, "the score bars' length")
    check_overlays("pig", {}, highlight, marks, arrows)
    target = view["target"]
    unit = size / target
    bar_h = 28
    label_w = 90
    die = 56
    w_px = label_w + size + die + 60
    h_px = 2 * (bar_h + 16) + 70
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w_px}" height="{h_px}" '
        f'viewBox="0 0 {w_px} {h_px}" font-family="sans-serif">',
        f'<rect width="{w_px}" height="{h_px}" fill="#fbf8f0"/>',
    ]
    for p in range(2):
        y = 20 + p * (bar_h + 16)
        score = view["scores"][p]
        out.append(f'<text x="10" y="{y + bar_h - 9}" font-size="14" fill="{INK[p]}">'
                   f'player {p}</text>')
        out.append(f'<rect x="{label_w}" y="{y}" width="{size}" height="{bar_h}" '
                   'fill="white" stroke="#333"/>')
        filled = min(score, target) * unit
        out.append(f'<rect x="{label_w}" y="{y}" width="{filled:.1f}" height="{bar_h}" '
                   f'fill="{INK[p]}"/>')
        if p == view["turn_player"] and view["turn_total"]:
            extra = min(view["turn_total"], target - score) * unit
            out.append(f'<rect x="{label_w + filled:.1f}" y="{y}" width="{extra:.1f}" '
                       f'height="{bar_h}" fill="{TURN_TINT[p]}"/>')
        out.append(f'<text x="{label_w + size + 8}" y="{y + bar_h - 9}" font-size="14">'
                   f'{score}</text>')
    x0 = label_w + size + 40
    out.extend(_die(view["last_die"], x0, 20, die))
    out.append(f'<text x="10" y="{h_px - 14}" font-size="14">{_status(view)}</text>')
    out.append("</svg>")
    return "\n".join(out)


def _die(face: int | None, x: float, y: float, size: int) -> list[str]:
    """A die showing ``face`` (an empty outline before the first roll)."""
    out = [f'<rect x="{x}" y="{y}" width="{size}" height="{size}" rx="8" fill="white" '
           'stroke="#333" stroke-width="2"/>']
    step = size / 4
    for col, row in PIPS.get(face or 0, []):
        out.append(f'<circle cx="{x + step * (col + 1):.1f}" cy="{y + step * (row + 1):.1f}" '
                   f'r="{size / 12:.1f}" fill="#222"/>')
    return out


def _status(view: Mapping[str, Any]) -> str:
    if view["phase"] == "over":
        if view["winner"] is None:
            return f"draw after {view['turns']} turns"
        return f"player {view['winner']} wins"
    who = f"player {view['turn_player']}"
    rolling = ", the die is rolling" if view["phase"] == "rolling" else ""
    return (f"turn {view['turns'] + 1} of {view['turn_limit']}: {who}, "
            f"turn total {view['turn_total']}{rolling}")


#: The text board's legend (``boardrules play``'s ``legend`` and ``help`` print it): each
#: mark as printed, with what it means; a number in a mark stands for any number.
TEXT_LEGEND: tuple[tuple[str, str], ...] = (
    ("10 of 20", "a player's score, of the score that wins"),
    ("+3", "the turn total at risk (lost on a 1)"),
    ("-", "no die rolled yet"),
)


def render_text(view: Mapping[str, Any]) -> str:
    """The position of ``view`` as text: each player's score (and the turn total at risk
    after the score of the player whose turn it is), the last die, then the status."""
    lines = []
    for p in range(2):
        line = f"player {p}: {view['scores'][p]:>2} of {view['target']}"
        if p == view["turn_player"] and view["turn_total"] and view["phase"] != "over":
            line += f" (+{view['turn_total']} this turn)"
        lines.append(line)
    die = view["last_die"]
    lines.append(f"last die: {die if die is not None else '-'}")
    lines.append(_status(view))
    return "\n".join(lines)
