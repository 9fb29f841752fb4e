"""Pictures of Connect Four positions -- SVG and text -- drawn from a view."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from boardrules.games.checks import check_picture_size
from boardrules.games.overlay import Spot, check_overlays, overlay

COLUMNS = "abcdefg"
DISC = {"X": "#d62828", "O": "#f6c90e"}   # player 0 red, player 1 yellow
FRAME = "#1d4e9e"
HOLE = "#fbf8f0"


#: ``render_svg``'s ``size``: a cell's width in pixels, checked by
#: :func:`~boardrules.games.checks.check_picture_size` as every game's is.
SIZE_RANGE = (20, 1_000)


def render_svg(view: Mapping[str, Any], *, size: int = 56, highlight: Sequence[str] = (),
               marks: Sequence[tuple[str, str]] = (),
               arrows: Sequence[tuple[str, str]] = ()) -> str:
    """The board of ``view`` as an SVG document (cells ``size`` pixels wide: an integer
    from 20 to 1000, ``ValueError`` otherwise), with the overlays of
    :func:`boardrules.games.overlay.overlay` on its columns ``a`` to ``g`` (a move's
    locations) and its cells ``a1`` to ``g6`` (row 1 at the bottom)."""
    check_picture_size(size, *SIZE_RANGE, "a cell's width")
    rows = view["rows"]
    height, width = len(rows), len(rows[0])
    margin = size // 2
    spots = _spots(height, width, size)
    shown = check_overlays("Connect Four", spots, highlight, marks, arrows)
    w_px = width * size + 2 * margin
    h_px = height * size + 2 * margin + 24
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w_px}" height="{h_px}" '
        f'viewBox="0 0 {w_px} {h_px}" font-family="sans-serif">',
        f'<rect width="{w_px}" height="{h_px}" fill="{HOLE}"/>',
        f'<rect x="{margin}" y="{margin}" width="{width * size}" height="{height * size}" '
        f'rx="8" fill="{FRAME}"/>',
    ]
    line = {(c, r) for c, r in view["line"]}
    radius = size * 2 // 5
    for i, text in enumerate(rows):          # the top row first
        row = height - i                     # row numbers count from 1 at the bottom
        for c, mark in enumerate(text):
            cx, cy = margin + c * size + size // 2, margin + i * size + size // 2
            fill = DISC.get(mark, HOLE)
            out.append(f'<circle cx="{cx}" cy="{cy}" r="{radius}" fill="{fill}"/>')
            if (COLUMNS[c], row) in line:
                out.append(f'<circle cx="{cx}" cy="{cy}" r="{radius - 5}" fill="none" '
                           'stroke="#ffffff" stroke-width="4"/>')
    for c in range(width):
        out.append(f'<text x="{margin + c * size + size // 2}" y="{margin + height * size + 18}" '
                   f'font-size="13" text-anchor="middle">{COLUMNS[c]}</text>')
    out.append(f'<text x="{margin}" y="{h_px - 6}" font-size="13">{_status(view)}</text>')
    out += overlay(spots, *shown, unit=size)
    out.append("</svg>")
    return "\n".join(out)


def _spots(height: int, width: int, size: int) -> dict[str, Spot]:
    """Each column (its whole height; the badge on its top cell) and each cell."""
    margin = size // 2
    spots: dict[str, Spot] = {}
    for c in range(width):
        x = margin + c * size
        column = Spot.rect(x, margin, size, height * size, 2)
        spots[COLUMNS[c]] = Spot(column.shape, column.centre,
                                 Spot.rect(x, margin, size, size).badge)
        for i in range(height):
            spots[f"{COLUMNS[c]}{height - i}"] = Spot.rect(x, margin + i * size, size, size, 2)
    return spots


def _status(view: Mapping[str, Any]) -> str:
    names = ("red (X)", "yellow (O)")
    if view["winner"] is not None:
        return f"{names[view['winner']]} wins"
    if view["current_player"] < 0:
        return "draw"
    return f"{names[view['current_player']]} to move"


#: The text board's legend (``boardrules play``'s ``legend`` and ``help`` print it): each
#: mark as printed, with what it means.
TEXT_LEGEND: tuple[tuple[str, str], ...] = (
    ("X", "a red disc (player 0)"),
    ("O", "a yellow disc (player 1)"),
    (".", "an empty cell"),
)


def render_text(view: Mapping[str, Any]) -> str:
    """The board of ``view`` as text: the top row first, rows numbered from 1 at the
    bottom, columns ``a``-``g`` (the notation) under them; ``X`` red, ``O`` yellow, ``.``
    an empty cell; then the status."""
    rows = view["rows"]
    height = len(rows)
    lines = [f"{height - i} " + " ".join(text) for i, text in enumerate(rows)]
    lines.append("  " + " ".join(COLUMNS[:len(rows[0])]))
    lines.append(_status(view))
    return "\n".join(lines)
