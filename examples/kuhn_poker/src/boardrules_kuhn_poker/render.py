"""Pictures of Kuhn poker hands -- SVG and text -- drawn from a view (so a player's
picture shows exactly what his view shows: his own card, the other face down)."""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

INK = ("#c0392b", "#2e6fd1")   # player 0 red, player 1 blue


def status(view: Mapping[str, Any]) -> str:
    """Who is to move, or how the hand ended."""
    if view["winner"] is not None:
        how = "at the showdown" if view["showdown"] else "(the other folded)"
        return f"player {view['winner']} wins {how}"
    if view["current_player"] < 0:
        return "dealing"
    return f"player {view['current_player']} to move"


def render_svg(view: Mapping[str, Any], *, size: int = 60) -> str:
    """The two hands of ``view`` as an SVG document (cards ``size`` pixels wide): each
    player's card (face down when hidden, an empty slot before the deal), the chips he
    put in, then the betting and the status."""
    w, h = int(size * 0.7), size
    width, height = 4 * size + 40, h + 110
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
        f'<rect width="{width}" height="{height}" fill="#1f6f43"/>',
    ]
    for p, card in enumerate(view["cards"]):
        x, y = 20 + p * 2 * size, 30
        out.append(f'<text x="{x}" y="20" font-size="13" fill="#fff">player {p}</text>')
        if card is None:
            out.append(f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="5" fill="none" '
                       'stroke="#fff" stroke-dasharray="4 3"/>')
        elif card == "?":
            out.append(f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="5" '
                       f'fill="{INK[p]}" stroke="#fff" stroke-width="2"/>')
        else:
            out.append(f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="5" fill="#fff" '
                       'stroke="#333"/>')
            out.append(f'<text x="{x + w // 2}" y="{y + h // 2 + 9}" font-size="26" '
                       f'text-anchor="middle" fill="{INK[p]}">{escape(card)}</text>')
        chips = view["pot"][p]
        for k in range(chips):
            out.append(f'<circle cx="{x + w + 16}" cy="{y + h - 8 - 10 * k}" r="7" '
                       'fill="#f1c40f" stroke="#7d6608"/>')
    betting = " ".join(view["betting"]) or "-"
    out.append(f'<text x="20" y="{h + 58}" font-size="13" fill="#fff">betting: '
               f'{escape(betting)}</text>')
    out.append(f'<text x="20" y="{h + 82}" font-size="13" fill="#fff">'
               f'{escape(status(view))}</text>')
    out.append("</svg>")
    return "\n".join(out)


def render_text(view: Mapping[str, Any]) -> str:
    """The hands of ``view`` as text: each player's card (``?`` face down, ``-`` not
    dealt) and chips in, the betting, then the status."""
    lines = [f"player {p}: {card or '-'}  ({view['pot'][p]} in)"
             for p, card in enumerate(view["cards"])]
    lines.append("betting: " + (" ".join(view["betting"]) or "-"))
    lines.append(status(view))
    return "\n".join(lines)
