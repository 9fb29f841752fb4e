"""Pictures of Armadora positions -- SVG and text -- drawn from a view (so a player's
picture can never show what his view hides)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from xml.sax.saxutils import escape

from boardrules.games.checks import check_picture_size
from boardrules.games.overlay import Spot, check_overlays, overlay

# Race colours of the published game (one source): red Orc, black Goblin, blue Elf,
# white Mage.
RACE_COLOURS = {"orc": "#c0392b", "goblin": "#222222", "elf": "#2e6fd1", "mage": "#f4f4f4"}
SEAT_COLOURS = ("#c0392b", "#2e6fd1", "#222222", "#f4f4f4")
COLUMNS = "abcdefgh"
TERRITORY_TINTS = ("#e8f1dc", "#dcebf1", "#f1e8dc", "#ecdcf1", "#f1dcdc", "#dcf1e6",
                   "#f1f0dc", "#e3e3e3")


def _colour(view: Mapping[str, Any], player: int) -> str:
    race = view["players"][player]["race"]
    return RACE_COLOURS[race] if race else SEAT_COLOURS[player]


def _text_colour(fill: str) -> str:
    return "#000000" if fill in ("#f4f4f4",) else "#ffffff"


#: ``render_svg``'s ``size``: a square's width in pixels (a board of up to 8 columns is
#: at most 9,000 pixels wide), checked by
#: :func:`~boardrules.games.checks.check_picture_size` as every game's is.
SIZE_RANGE = (20, 1_000)


def render_svg(view: Mapping[str, Any], *, size: int = 56, highlight: Sequence[str] = (),
               marks: Sequence[tuple[str, str]] = (),
               arrows: Sequence[tuple[str, str]] = ()) -> str:
    """The board of ``view`` as an SVG document (squares ``size`` pixels wide: an integer
    from 20 to 1000, ``ValueError`` otherwise), with the overlays of
    :mod:`boardrules.games.overlay` on its squares (``c2``) and palisade gaps (``c2-d2``,
    the lower-numbered square first, as the notation and the view write them)."""
    check_picture_size(size, *SIZE_RANGE, "a square's width")
    width, height = view["width"], view["height"]
    margin = size // 2
    spots = _spots(width, height, size)
    shown = check_overlays("Armadora", spots, highlight, marks, arrows)
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
    out += overlay(spots, *shown, unit=size)
    out.append("</svg>")
    return "\n".join(out)


def _spots(width: int, height: int, size: int) -> dict[str, Spot]:
    """Every square, and every gap between two side-by-side squares (a palisade's place:
    the fence line between them)."""
    margin = size // 2
    spots: dict[str, Spot] = {}
    for y in range(height):
        for x in range(width):
            left, top = margin + x * size, margin + y * size
            name = f"{COLUMNS[x]}{y + 1}"
            spots[name] = Spot.rect(left, top, size, size, size * 0.06)
            if x + 1 < width:  # the gap on its east side
                spots[f"{name}-{COLUMNS[x + 1]}{y + 1}"] = Spot.segment(
                    left + size, top, left + size, top + size)
            if y + 1 < height:  # the gap on its south side
                spots[f"{name}-{COLUMNS[x]}{y + 2}"] = Spot.segment(
                    left, top + size, left + size, top + size)
    return spots


def _warrior(view: Mapping[str, Any], warrior: Mapping[str, Any], x: int, y: int,
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


# --- text ------------------------------------------------------------------------------

#: Characters per square in the text board (the longest label is ``0=5vv+``).
TEXT_CELL = 7


#: The text board's legend (``boardrules play``'s ``legend`` and ``help`` print it): each
#: mark as printed, with what it means; a number in a mark stands for any number.
TEXT_LEGEND: tuple[tuple[str, str], ...] = (
    (".", "an empty square"),
    ("$5", "a gold mine holding 5 gold ($ alone: its pile not yet placed)"),
    ("$", "a gold mine whose pile is not placed yet"),
    ("1:3", "a face-down warrior of player 1, strength 3"),
    ("1:?", "a face-down warrior whose strength you may not see (hidden)"),
    ("1=3", "a face-up (Goblin) warrior of player 1, strength 3"),
    ("v", "after a warrior: an elf arrow on it, one v an arrow"),
    ("+", "after a warrior: the reinforcement token; in the grid: palisades meeting"),
    ("|", "a palisade on the east side of a square (or the board's edge)"),
    ("---", "a palisade on the south side of a square (or the board's edge)"),
    ("-", "a palisade (part of ---)"),
)


def render_text(view: Mapping[str, Any]) -> str:
    """The board of ``view`` as text: a grid with the notation's coordinates (columns
    ``a``.., rows ``1``.. from the title edge), palisades as ``|`` and ``---``, then one
    line per player and the supply.  Drawn from a view, so it shows nothing the view
    hides.

    Squares: ``.`` empty; ``$5`` a gold mine holding 5 (``$`` before its pile is
    placed); ``1:3`` a face-down warrior of player 1, strength 3 (``1:?`` to a viewer who
    may not see it); ``1=3`` a face-up (Goblin) warrior; each ``v`` an elf arrow on it,
    ``+`` the reinforcement token.
    """
    width, height = view["width"], view["height"]
    labels = [_square_label(sq) for sq in view["squares"]]
    east, south = _palisade_sides(view["palisades"], width)
    cell = TEXT_CELL
    lines = ["    " + "".join(f" {'abcdefgh'[x]:<{cell}}" for x in range(width)).rstrip()]
    lines.append("   +" + "-" * ((cell + 1) * width - 1) + "+")
    for y in range(height):
        row = f"{y + 1:>2} |"
        for x in range(width):
            c = y * width + x
            wall = "|" if x == width - 1 or c in east else " "
            row += f" {labels[c]:<{cell - 1}}" + wall
        lines.append(row)
        if y < height - 1:
            lines.append("   |" + _between_rows(y, width, east, south) + "|")
    lines.append("   +" + "-" * ((cell + 1) * width - 1) + "+")
    lines.extend(_players_text(view))
    lines.append(f"palisades left: {view['palisades_left']}"
                 + (f"; gold not yet placed: {view['unplaced_gold']}"
                    if view["unplaced_gold"] else ""))
    return "\n".join(lines)


def _square_label(sq: dict[str, Any]) -> str:
    if sq["mine"]:
        return "$" + (str(sq["gold"]) if sq["gold"] is not None else "")
    warrior = sq["warrior"]
    if warrior is None:
        return "."
    strength = "?" if warrior["strength"] is None else str(warrior["strength"])
    marks = "v" * int(warrior["arrows"]) + ("+" if warrior["reinforced"] else "")
    return f"{warrior['owner']}{'=' if warrior['face_up'] else ':'}{strength}{marks}"


def _cell(name: str, width: int) -> int:
    return (int(name[1:]) - 1) * width + "abcdefgh".index(name[0])


def _palisade_sides(palisades: list[str], width: int) -> tuple[set[int], set[int]]:
    """Cells with a palisade on their east side, and on their south side."""
    east: set[int] = set()
    south: set[int] = set()
    for palisade in palisades:
        a, b = (_cell(name, width) for name in palisade.split("-"))
        (east if b == a + 1 else south).add(a)
    return east, south


def _between_rows(y: int, width: int, east: set[int], south: set[int]) -> str:
    """The line between rows y and y + 1: ``-`` under a palisade on a square's south
    side, and at each corner ``+`` where palisades of both directions meet."""
    out = ""
    for x in range(width):
        c = y * width + x
        out += ("-" * TEXT_CELL) if c in south else " " * TEXT_CELL
        if x == width - 1:
            break
        flat = c in south or c + 1 in south
        upright = c in east or c + width in east
        out += "+" if flat and upright else "-" if flat else "|" if upright else " "
    return out


def _players_text(view: Mapping[str, Any]) -> list[str]:
    lines = []
    for p in view["players"]:
        parts = [f"player {p['player']}"]
        if p["race"]:
            parts.append(p["race"])
        if len(view["players"]) == 4:
            parts.append(f"team {p['team']}")
        parts.append(_count(p["warriors_left"], "warrior") + " left")
        if p["race"]:
            parts.append(_count(p["power_tokens"], "ability token"))
            parts.append("reinforcement held" if p["reinforcement_left"]
                         else "reinforcement placed")
        if p["passed"]:
            parts.append("ended")
        if view["current_player"] == p["player"]:
            parts.append("to move" + (f" ({view['phase'].replace('_', ' ')})"
                                      if view["phase"] != "turn" else ""))
        lines.append(", ".join(parts))
        if p["pool"] is not None:
            screen = ", ".join(f"{n} of strength {k}" for k, n in enumerate(p["pool"], 1)
                               if n)
            lines.append(f"  behind the screen: {screen or 'nothing'}")
    if "peek" in view:
        lines.append(f"peeked: the warrior on {view['peek']['square']} is a "
                     f"{view['peek']['strength']}")
    return lines


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}" + ("" if n == 1 else "s")
