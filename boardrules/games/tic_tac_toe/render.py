"""Pictures of tic-tac-toe positions -- SVG and text -- drawn from a view."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from boardrules.games.checks import check_picture_size
from boardrules.games.overlay import Spot, check_overlays, overlay

COLUMNS = "abc"
INK = ("#c0392b", "#2e6fd1")   # X red, O blue
LINE_TINT = "#f7e08a"


#: ``render_svg``'s ``size``: a square's width in pixels, checked by
#: :func:`~boardrules.games.checks.check_picture_size` as every game's is.
SIZE_RANGE = (20, 1_000)


def render_svg(view: Mapping[str, Any], *, size: int = 80, highlight: Sequence[str] = (),
               marks: Sequence[tuple[str, str]] = (),
               arrows: Sequence[tuple[str, str]] = ()) -> str:
    """The board of ``view`` as an SVG document (squares ``size`` pixels wide: an integer
    from 20 to 1000, ``ValueError`` otherwise), with the overlays of
    :func:`boardrules.games.overlay.overlay` on its squares ``a1`` to ``c3``."""
    check_picture_size(size, *SIZE_RANGE, "a square's width")
    rows = view["rows"]
    n = len(rows)
    margin = size // 2
    spots = {f"{COLUMNS[c]}{r + 1}": Spot.rect(margin + c * size, margin + r * size, size,
                                               size, size * 0.06)
             for r in range(n) for c in range(n)}
    shown = check_overlays("tic-tac-toe", spots, highlight, marks, arrows)
    w_px = n * size + 2 * margin
    h_px = n * size + 2 * margin + 24
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w_px}" height="{h_px}" '
        f'viewBox="0 0 {w_px} {h_px}" font-family="sans-serif">',
        f'<rect width="{w_px}" height="{h_px}" fill="#fbf8f0"/>',
    ]
    for square in view["line"]:
        col, row = COLUMNS.index(square[0]), int(square[1:]) - 1
        out.append(f'<rect x="{margin + col * size}" y="{margin + row * size}" '
                   f'width="{size}" height="{size}" fill="{LINE_TINT}"/>')
    for i in range(n):
        centre = margin + i * size + size // 2
        out.append(f'<text x="{centre}" y="{margin - 8}" font-size="13" '
                   f'text-anchor="middle">{COLUMNS[i]}</text>')
        out.append(f'<text x="{margin - 12}" y="{centre + 5}" font-size="13" '
                   f'text-anchor="middle">{i + 1}</text>')
    for i in range(1, n):  # the grid
        pos = margin + i * size
        out.append(f'<line x1="{pos}" y1="{margin}" x2="{pos}" y2="{margin + n * size}" '
                   'stroke="#333" stroke-width="3"/>')
        out.append(f'<line x1="{margin}" y1="{pos}" x2="{margin + n * size}" y2="{pos}" '
                   'stroke="#333" stroke-width="3"/>')
    pad = size // 5
    for r, text in enumerate(rows):
        for c, mark in enumerate(text):
            x, y = margin + c * size, margin + r * size
            if mark == "X":
                for x1, x2 in ((x + pad, x + size - pad), (x + size - pad, x + pad)):
                    out.append(f'<line x1="{x1}" y1="{y + pad}" x2="{x2}" y2="{y + size - pad}" '
                               f'stroke="{INK[0]}" stroke-width="6" stroke-linecap="round"/>')
            elif mark == "O":
                out.append(f'<circle cx="{x + size // 2}" cy="{y + size // 2}" '
                           f'r="{size // 2 - pad}" fill="none" stroke="{INK[1]}" '
                           'stroke-width="6"/>')
    out.append(f'<text x="{margin}" y="{h_px - 12}" font-size="13">{_status(view)}</text>')
    out += overlay(spots, *shown, unit=size)
    out.append("</svg>")
    return "\n".join(out)


def _status(view: Mapping[str, Any]) -> str:
    symbols = view["symbols"]
    if view["winner"] is not None:
        return f"{symbols[view['winner']]} wins"
    if view["current_player"] < 0:
        return "draw"
    return f"{symbols[view['current_player']]} to move"


#: The text board's legend (``boardrules play``'s ``legend`` and ``help`` print it): each
#: mark as printed, with what it means.
TEXT_LEGEND: tuple[tuple[str, str], ...] = (
    ("X", "player 0's mark"),
    ("O", "player 1's mark"),
    (".", "an empty square"),
)


def render_text(view: Mapping[str, Any]) -> str:
    """The board of ``view`` as text: columns ``a``-``c``, rows ``1``-``3`` from the top
    (the notation's square names), ``X``, ``O`` or ``.`` per square, then the status."""
    rows = view["rows"]
    lines = ["  " + " ".join(COLUMNS[:len(rows)])]
    lines += [f"{r + 1} " + " ".join(text) for r, text in enumerate(rows)]
    lines.append(_status(view))
    return "\n".join(lines)
