"""SVG pictures of Armadora positions, drawn from a view (so a player's picture can
never show what his view hides)."""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

# Race colours (shared/rules/boards.md): red Orc, black Goblin, blue Elf, white Mage.
RACE_COLOURS = {"orc": "#c0392b", "goblin": "#222222", "elf": "#2e6fd1", "mage": "#f4f4f4"}
SEAT_COLOURS = ("#c0392b", "#2e6fd1", "#222222", "#f4f4f4")
TERRITORY_TINTS = ("#e8f1dc", "#dcebf1", "#f1e8dc", "#ecdcf1", "#f1dcdc", "#dcf1e6",
                   "#f1f0dc", "#e3e3e3")


def _colour(view: dict[str, Any], player: int) -> str:
    race = view["players"][player]["race"]
    return RACE_COLOURS[race] if race else SEAT_COLOURS[player]


def _text_colour(fill: str) -> str:
    return "#000000" if fill in ("#f4f4f4",) else "#ffffff"


def render_svg(view: dict[str, Any], *, size: int = 56) -> str:
    """The board of ``view`` as an SVG document (squares ``size`` pixels wide)."""
    width, height = view["width"], view["height"]
    margin = size // 2
    legend = 22 * len(view["players"]) + 10
    w_px = width * size + 2 * margin
    h_px = height * size + 2 * margin + legend
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w_px}" height="{h_px}" '
        f'viewBox="0 0 {w_px} {h_px}" font-family="sans-serif">',
        f'<rect width="{w_px}" height="{h_px}" fill="#fbf8f0"/>',
    ]
    index = {sq["square"]: i for i, sq in enumerate(view["squares"])}

    def xy(square: str) -> tuple[int, int]:
        i = index[square]
        return margin + (i % width) * size, margin + (i // width) * size

    for t, territory in enumerate(view["territories"]):
        tint = TERRITORY_TINTS[t % len(TERRITORY_TINTS)]
        for square in territory:
            x, y = xy(square)
            out.append(f'<rect x="{x}" y="{y}" width="{size}" height="{size}" fill="{tint}" '
                       'stroke="#b9b2a0" stroke-width="1"/>')
    for col in range(width):
        out.append(f'<text x="{margin + col * size + size // 2}" y="{margin - 8}" '
                   f'font-size="12" text-anchor="middle">{"abcdefgh"[col]}</text>')
    for row in range(height):
        out.append(f'<text x="{margin - 10}" y="{margin + row * size + size // 2 + 4}" '
                   f'font-size="12" text-anchor="middle">{row + 1}</text>')
    for sq in view["squares"]:
        x, y = xy(sq["square"])
        if sq["mine"]:
            gold = sq["gold"]
            out.append(f'<circle cx="{x + size // 2}" cy="{y + size // 2}" r="{size // 3}" '
                       'fill="#e2b007" stroke="#8a6d00" stroke-width="2"/>')
            out.append(f'<text x="{x + size // 2}" y="{y + size // 2 + 5}" font-size="15" '
                       f'font-weight="bold" text-anchor="middle">{gold if gold else ""}</text>')
        warrior = sq["warrior"]
        if warrior is not None:
            out.extend(_warrior(view, warrior, x, y, size))
    out.append(f'<rect x="{margin}" y="{margin}" width="{width * size}" '
               f'height="{height * size}" fill="none" stroke="#5b4a2f" stroke-width="3"/>')
    for palisade in view["palisades"]:
        a, b = palisade.split("-")
        (xa, ya), (xb, yb) = xy(a), xy(b)
        if ya == yb:  # side by side: a vertical fence on a's east side
            x1, y1, x2, y2 = xb, ya, xb, ya + size
        else:
            x1, y1, x2, y2 = xa, yb, xa + size, yb
        out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#6b3e12" '
                   'stroke-width="7" stroke-linecap="round"/>')
    ly = margin + height * size + 22
    for p in view["players"]:
        fill = _colour(view, p["player"])
        race = p["race"] or f"player {p['player']}"
        status = " (ended)" if p["passed"] else ""
        turn = " - to move" if view["current_player"] == p["player"] else ""
        out.append(f'<rect x="{margin}" y="{ly - 12}" width="14" height="14" fill="{fill}" '
                   'stroke="#333"/>')
        out.append(f'<text x="{margin + 22}" y="{ly}" font-size="13">'
                   f'{escape(str(p["player"]))}: {escape(race)}, team {p["team"]}, '
                   f'{p["warriors_left"]} warriors left{status}{turn}</text>')
        ly += 22
    out.append("</svg>")
    return "\n".join(out)


def _warrior(view: dict[str, Any], warrior: dict[str, Any], x: int, y: int,
             size: int) -> list[str]:
    fill = _colour(view, warrior["owner"])
    pad = size // 7
    parts = [f'<rect x="{x + pad}" y="{y + pad}" width="{size - 2 * pad}" '
             f'height="{size - 2 * pad}" rx="6" fill="{fill}" stroke="#333" '
             f'stroke-width="{3 if warrior["face_up"] else 1}"/>']
    strength = warrior["strength"]
    label = "?" if strength is None else str(strength)
    parts.append(f'<text x="{x + size // 2}" y="{y + size // 2 + 6}" font-size="18" '
                 f'font-weight="bold" text-anchor="middle" fill="{_text_colour(fill)}">'
                 f'{label}</text>')
    for i in range(warrior["arrows"]):
        parts.append(f'<text x="{x + pad + 2 + 9 * i}" y="{y + size - pad - 2}" font-size="11" '
                     f'fill="#2e6fd1" font-weight="bold">&#8595;</text>')
    if warrior["reinforced"]:
        parts.append(f'<text x="{x + size - pad - 8}" y="{y + pad + 11}" font-size="13" '
                     'fill="#e2b007" font-weight="bold">+</text>')
    return parts
