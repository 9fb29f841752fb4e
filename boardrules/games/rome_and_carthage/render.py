"""Pictures of Rome & Carthage positions -- SVG and text -- drawn from a view (so a
player's picture can never show what his view hides) and the map.

Both renderers take ``view`` (``State.view(player)``: ``cities`` one entry a map city,
``players``, ``pile_size``, ...; extra keys are ignored) and the
:class:`~boardrules.games.rome_and_carthage.board.Board` it is played on.

Text symbols (:func:`render_text`):

* after a city key: ``*`` capital, ``~`` port, ``#`` on an island;
* ``.`` an empty city;
* an army is two letters, its empire's initial and its kind: ``R`` Rome, ``C`` Carthage,
  ``B`` Byzantium, ``A`` Alexandria; ``I`` infantry, ``G`` galley, ``C`` chariot,
  ``E`` elephant (``RG`` a Roman galley, ``CE`` a Carthaginian elephant);
* ``CExRI``: a battle, the defender (left) attacked by the army after the ``x``;
* ``RI+RG``: an army (after the ``+``) passing through a friendly city in its forced
  march;
* a ``!`` after a city marks the city of the battle in progress.

SVG (:func:`render_svg`): land in pale sand joining the cities its land routes join
(islands outlined and named in italics), land routes solid, sea routes dashed; cities
as discs in their empire's colour, a capital larger with a star, a port ringed in blue;
an army a rounded square in its empire's colour lettered like the text board, an
attacker beside the defender with a red border (an army passing through a friend, a
dashed one); a legend with each player's empires,
cards, armies left, the pile and who is to move.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple
from xml.sax.saxutils import escape, quoteattr

from boardrules.games.checks import check_picture_size
from boardrules.games.overlay import Spot, check_overlays, overlay
from boardrules.games.rome_and_carthage.board import EMPIRES, MAP_HEIGHT, MAP_WIDTH, Board

#: Empire colours (the printed colours are not known: chosen to be told apart).
EMPIRE_COLOURS = {"rome": "#c0392b", "carthage": "#2e8b57", "byzantium": "#2e6fd1",
                  "alexandria": "#d4a017"}
UNKNOWN_COLOUR = "#888888"
#: Army kinds and their letters (text and SVG).
KIND_LETTERS = {"infantry": "I", "galley": "G", "chariot": "C", "elephant": "E"}
EMPIRE_LETTERS = {"rome": "R", "carthage": "C", "byzantium": "B", "alexandria": "A"}
CHANCE = -1
TERMINAL = -4
SEA = "#bcd7ea"
SAND = "#f1e7cc"
COAST = "#a99b73"
LAND_ROUTE = "#8b6b3d"
Where = Callable[[int], tuple[float, float]]
SEA_ROUTE = "#2b5d8a"


# --- shared ----------------------------------------------------------------------------

def _army_label(army: Mapping[str, Any] | None) -> str:
    if not army:
        return "."
    return (EMPIRE_LETTERS.get(str(army.get("empire")), "?")
            + KIND_LETTERS.get(str(army.get("kind")), "?"))


def _cell_label(entry: Mapping[str, Any]) -> str:
    label = _army_label(entry.get("army"))
    if entry.get("attacker"):
        label += "x" + _army_label(entry["attacker"])
    if entry.get("passing"):
        label += "+" + _army_label(entry["passing"])
    return label


def _entries(view: Mapping[str, Any], board: Board) -> list[tuple[int, Mapping[str, Any]]]:
    """The view's city entries with their board index, in board order (matched by key,
    not position, so a view with its cities in another order draws the same)."""
    return sorted(((board.index(e["city"]), e) for e in view.get("cities", ())),
                  key=lambda pair: pair[0])


def _battle_city(view: Mapping[str, Any]) -> str | None:
    battle = view.get("battle")
    if isinstance(battle, Mapping) and isinstance(battle.get("city"), str):
        return str(battle["city"])
    return None


def _who_moves(view: Mapping[str, Any]) -> str:
    current = view.get("current_player")
    if current == TERMINAL or view.get("phase") == "over":
        winner = view.get("winner_team")
        return "game over: " + ("a draw" if winner is None else f"team {winner} wins")
    if current == CHANCE:
        return "chance to act"
    text = f"player {current} to move"
    turn = view.get("turn_player")
    if turn is not None and turn != current:
        text += f" (turn of player {turn})"
    return text


def _header(view: Mapping[str, Any]) -> str:
    return (f"Rome & Carthage - phase {view.get('phase')}, round {view.get('round')}, "
            f"{_who_moves(view)}")


def _piles(view: Mapping[str, Any]) -> str:
    pile, discard = view.get("pile_size"), view.get("discard_size")
    if isinstance(pile, list):  # Equal Arms: one pile a team
        text = "piles " + "/".join(str(p) for p in pile)
        if isinstance(discard, list):
            text += ", discards " + "/".join(str(d) for d in discard)
        return text + " (one a team)"
    return f"pile {pile}, discard {discard}"


def _player_line(view: Mapping[str, Any], p: Mapping[str, Any]) -> str:
    parts = [f"player {p.get('player')}", f"team {p.get('team')}",
             ", ".join(str(e) for e in p.get("empires", ()))]
    hand = p.get("hand")
    if hand is not None:
        parts.append("hand " + (" ".join(str(c) for c in hand) or "empty"))
    else:
        parts.append(f"{p.get('hand_size')} cards")
    parts.append(f"{p.get('armies')} armies")
    if p.get("eliminated"):
        parts.append("eliminated")
    if view.get("viewer") is not None and view.get("viewer") == p.get("player"):
        parts.append("(you)")
    if view.get("current_player") == p.get("player"):
        parts.append("to move")
    return " | ".join(parts)


# --- text ------------------------------------------------------------------------------

#: Cities a row, and the width of a city key with its marks.
TEXT_COLUMNS = 3
TEXT_KEY = 20


#: The text board's legend (``boardrules play``'s ``legend`` and ``help`` print it): each
#: mark as printed, with what it means; a number in a mark stands for any number.
TEXT_LEGEND: tuple[tuple[str, str], ...] = (
    ("*", "after a city: its empire's capital"),
    ("~", "after a city: a port (galleys sail from it)"),
    ("#", "after a city: on an island"),
    ("!", "after a city: the battle being fought is there"),
    (".", "an empty city"),
    ("R C B A", "an army's first letter, its empire: Rome, Carthage, Byzantium, Alexandria"),
    ("I G C E", "an army's second letter, its kind: infantry, galley, chariot, elephant"),
    ("RI", "an army: a Roman infantry (CE a Carthaginian elephant)"),
    ("x", "CExRI: a battle, the defender (left) attacked by the army after the x"),
    ("+", "RI+RG: the army after the + passes through the city in its forced march"),
    ("|", "separates the cities of a line (and the parts of a player's line)"),
    ("10/8", "Equal Arms: the two teams' piles (or discards), team 0's first"),
    ("?", "what you may not see: the attacker's cards lying face down in a battle"),
)


def render_text(view: Mapping[str, Any], board: Board) -> str:
    """The position as text (symbols in the module docstring): a header, every city
    grouped by empire, the battle, then one line a player and the piles."""
    labels = {i: _cell_label(e) for i, e in _entries(view, board)}
    battle_city = _battle_city(view)
    lines = [_header(view)]
    for e, empire in enumerate(EMPIRES):
        owners = [str(p.get("player")) for p in view.get("players", ())
                  if empire in p.get("empires", ())]
        lines.append(f"{empire} (player {', '.join(owners) or '-'}):")
        cells = [_text_cell(board, i, labels.get(i, "."), battle_city)
                 for i in board.cities_of(e)]
        for row in range(0, len(cells), TEXT_COLUMNS):
            lines.append("  " + " | ".join(cells[row:row + TEXT_COLUMNS]).rstrip())
    battle = view.get("battle")
    if isinstance(battle, Mapping):
        lines.append(_battle_text(battle))
    for p in view.get("players", ()):
        lines.append(_player_line(view, p))
    lines.append(_piles(view))
    return "\n".join(lines)


def _text_cell(board: Board, i: int, label: str, battle_city: str | None) -> str:
    city = board.cities[i]
    marks = ("*" if city.capital else "") + ("~" if city.port else "") + (
        "#" if city.island is not None else "") + ("!" if city.key == battle_city else "")
    return f"{city.key + marks:<{TEXT_KEY}}{label:<5}"


ROUND_WORDS = {"full": "first round", "replay": "replay", "tie": "tie round"}


def _battle_text(battle: Mapping[str, Any]) -> str:
    """The battle in progress in words: where, who attacks whom, the round, then what
    is on the table and who is to act (cards face down shown only when the view holds
    them: ``?`` is kept for what is hidden)."""
    attacker, defender = battle.get("attacker"), battle.get("defender")
    head = f"battle at {battle.get('city')}"
    if attacker is not None and defender is not None:
        head += f": player {attacker} attacks player {defender}"
    parts = [head]
    kind = battle.get("round")
    if kind is not None:
        parts.append(ROUND_WORDS.get(str(kind), f"round {kind}"))
    face_down = battle.get("face_down") or 0
    if face_down:
        cards = battle.get("face_down_cards")
        shown = "+".join(str(v) for v in cards) if cards else "?"
        parts.append(f"the attacker's {face_down} card{'s' if face_down > 1 else ''} "
                     f"face down ({shown})")
    if battle.get("spy"):
        totals = battle.get("totals") or []
        parts.append(f"a lone spy: the {battle['spy']} replays or withdraws"
                     + (f" (totals {totals[0]}-{totals[1]})" if len(totals) == 2 else ""))
    elif battle.get("to_play"):
        parts.append(f"the {battle['to_play']} lays his cards")
    return "; ".join(parts)


# --- SVG -------------------------------------------------------------------------------

#: ``render_svg``'s ``size``: the picture's width in pixels, checked by
#: :func:`~boardrules.games.checks.check_picture_size` as every game's is.
SIZE_RANGE = (200, 10_000)


def render_svg(view: Mapping[str, Any], board: Board, *, size: int = 900,
               highlight: Sequence[str] = (), marks: Sequence[tuple[str, str]] = (),
               arrows: Sequence[tuple[str, str]] = ()) -> str:
    """The position as a standalone SVG document ``size`` pixels wide (an integer from
    200 to 10000, :data:`SIZE_RANGE`; ``ValueError`` otherwise), with the overlays of
    :mod:`boardrules.games.overlay` on its cities (by key: ``roma``)."""
    check_picture_size(size, *SIZE_RANGE, "the picture's width")
    margin = 24
    scale = (size - 2 * margin) / MAP_WIDTH
    font = max(8.0, 11 * scale)
    map_h = MAP_HEIGHT * scale + 2 * margin
    legend_lines = len(view.get("players", ())) + 2
    height = round(map_h + legend_lines * (font + 8) + margin)

    def at(i: int) -> tuple[float, float]:
        c = board.cities[i]
        return round(margin + c.x * scale, 1), round(margin + c.y * scale, 1)

    spots = {c.key: Spot.circle(*at(i), _disc_radius(board, i, scale) + 4 * scale + 3)
             for i, c in enumerate(board.cities)}
    shown = check_overlays("Rome & Carthage", spots, highlight, marks, arrows)
    labels = _place_labels(board, size, margin)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{height}" '
           f'viewBox="0 0 {size} {height}" font-family="sans-serif">',
           f'<title>{escape(board.title)}</title>',
           f'<rect width="{size}" height="{height}" fill="#fbf8f0"/>',
           f'<rect x="{margin / 2}" y="{margin / 2}" width="{size - margin}" '
           f'height="{map_h - margin}" fill="{SEA}" stroke="{COAST}"/>']
    out += _land(board, at, scale, labels.islands)
    out += _routes(board, at)
    battle_city = _battle_city(view)
    for i in range(len(board.cities)):
        out += _city(board, i, at, scale, font, battle_city, labels.cities[i])
    for i, entry in _entries(view, board):
        out += _armies(entry, *at(i), scale, font)
    out += _legend(view, margin, map_h + font, font)
    out += overlay(spots, *shown, unit=36 * scale + 8)
    out.append("</svg>")
    return "\n".join(out)


# --- where the names go ----------------------------------------------------------------

#: A label's width per character, in ems: a little more than a sans-serif font's
#: average, so that the box kept for a name holds it.
CHAR_EM = 0.6
#: (left, top, right, bottom) in pixels.
Box = tuple[float, float, float, float]


class Label(NamedTuple):
    """Where a name is written: its anchor point (``y`` the baseline) and
    ``text-anchor``."""

    x: float
    y: float
    anchor: str


class Labels(NamedTuple):
    """Every city's label (board order) and every island's (by name)."""

    cities: list[Label]
    islands: dict[str, Label]


def _text_box(label: Label, text: str, font_size: float) -> Box:
    """The box a name written at ``label`` covers (from the ascender to the descender)."""
    width = len(text) * font_size * CHAR_EM
    left = {"start": label.x, "middle": label.x - width / 2, "end": label.x - width}[
        label.anchor]
    return left, label.y - 0.8 * font_size, left + width, label.y + 0.2 * font_size


def _overlap(a: Box, b: Box) -> float:
    """The area two boxes share (0 when they do not meet)."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _disc_radius(board: Board, i: int, scale: float) -> float:
    """The radius of a city's disc (a capital's is larger)."""
    return (13 if board.cities[i].capital else 8) * scale + 2


@functools.lru_cache(maxsize=16)
def _place_labels(board: Board, width: int, margin: int) -> Labels:
    """Names that overlap no other name, no city and no army, on a picture ``width``
    pixels wide: each island's name under its cities when it fits there, then each
    city's in the first free place of a few round it (under it first, as far as it can),
    else farther out, else the least crowded place.  The boxes where armies stand -- up
    to three, right of a city and above it -- are kept free whether armies stand there
    or not, so names stay put as armies come and go (and a board's names are placed once
    a picture size)."""
    scale = (width - 2 * margin) / MAP_WIDTH
    font = max(8.0, 11 * scale)
    frame = (margin / 2, margin / 2, width - margin / 2, MAP_HEIGHT * scale + 1.5 * margin)

    def at(i: int) -> tuple[float, float]:
        c = board.cities[i]
        return round(margin + c.x * scale, 1), round(margin + c.y * scale, 1)

    size = font * 0.85
    taken: list[Box] = []
    for i in range(len(board.cities)):
        x, y = at(i)
        ring = _disc_radius(board, i, scale) + 4 * scale + 1
        taken.append((x - ring, y - ring, x + ring, y + ring))
        box = max(12.0, 18 * scale)
        left, top = x + 6 * scale, y - box - 6 * scale
        taken.append((left, top, left + 3 * (box + 2), top + box))

    def best(candidates: list[Label], text: str, font_size: float,
             farther: list[Label] | None = None) -> Label:
        def crowding(label: Label) -> float:
            box = _text_box(label, text, font_size)
            padded = (box[0] - 1, box[1] - 1, box[2] + 1, box[3] + 1)
            outside = 0.0 if (frame[0] <= box[0] and box[2] <= frame[2]
                              and frame[1] <= box[1] and box[3] <= frame[3]) else 1e9
            return outside + sum(_overlap(padded, other) for other in taken)
        scores = [crowding(c) for c in candidates]
        if min(scores) > 0 and farther:  # nowhere near is free: look farther out
            candidates = candidates + farther
            scores += [crowding(c) for c in farther]
        chosen = candidates[scores.index(min(scores))]
        taken.append(_text_box(chosen, text, font_size))
        return chosen

    islands: dict[str, list[int]] = {}
    for i, c in enumerate(board.cities):
        if c.island is not None:
            islands.setdefault(c.island, []).append(i)
    island_labels: dict[str, Label] = {}
    island_size = 9 * scale + 2
    for name in sorted(islands):
        spots = [at(i) for i in islands[name]]
        x = sum(p[0] for p in spots) / len(spots)
        low, high = max(p[1] for p in spots), min(p[1] for p in spots)
        island_labels[name] = best(
            [Label(x + dx * scale, y, "middle") for y in (low + 38 * scale, low + 52 * scale)
             for dx in (0, -25, 25, -50, 50)] + [Label(x, high - 30 * scale, "middle")],
            name, island_size)
    cities = []
    for i, c in enumerate(board.cities):
        x, y = at(i)
        r = _disc_radius(board, i, scale) + 4 * scale + 2
        cities.append(best(
            [Label(x, y + r + size * 0.8, "middle"),
             Label(x - r - 1, y + size * 0.35, "end"),
             Label(x + r + 1, y + size * 0.8, "start"),
             Label(x - r * 0.6, y + r + size * 0.8, "end"),
             Label(x + r * 0.6, y + r + size * 0.8, "start"),
             Label(x - r * 0.4, y - r, "end"),
             Label(x, y + r + size * 1.9, "middle"),
             Label(x - r - 1, y - r * 0.5, "end"),
             Label(x - r - 1, y + r + size * 0.5, "end"),
             Label(x + r + 1, y + r + size * 1.2, "start"),
             Label(x - r - 1, y + r + size * 1.2, "end")], c.name, size,
            _farther(x, y, r + size)))
    return Labels(cities, island_labels)


def _farther(x: float, y: float, step: float) -> list[Label]:
    """Places round (x, y) at one, one and a half and two ``step`` away, every 30
    degrees: where a crowded city's name goes when no place next to it is free."""
    return [Label(x + k * step * math.cos(math.radians(a)),
                  y + k * step * math.sin(math.radians(a)) + step * 0.3, "middle")
            for k in (1.0, 1.5, 2.0) for a in range(0, 360, 30)]


def _land(board: Board, at: Where, scale: float, names: Mapping[str, Label]) -> list[str]:
    """Land as blobs round the cities joined along land routes: a coast-coloured layer
    under a sand layer draws each landmass's outline; islands are named."""
    r, width = 24 * scale, 40 * scale
    out: list[str] = []
    for colour, grow in ((COAST, 2.0), (SAND, 0.0)):
        for a, b in board.land:
            (x1, y1), (x2, y2) = at(a), at(b)
            out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{colour}" '
                       f'stroke-width="{width + 2 * grow:.1f}" stroke-linecap="round"/>')
        for i in range(len(board.cities)):
            x, y = at(i)
            out.append(f'<circle cx="{x}" cy="{y}" r="{r + grow:.1f}" fill="{colour}"/>')
    # a ring of three or four cities joined by land encloses land, not a lake: fill it
    for ring in _land_rings(board):
        points = " ".join(f"{x},{y}" for x, y in map(at, ring))
        out.append(f'<polygon points="{points}" fill="{SAND}"/>')
    for name in sorted(names):
        x, y, anchor = names[name]
        out.append(f'<text x="{x:.1f}" y="{y:.1f}" font-size="{9 * scale + 2:.1f}" '
                   f'font-style="italic" fill="{SEA_ROUTE}" text-anchor="{anchor}">'
                   f'{escape(name)}</text>')
    return out


def _land_rings(board: Board) -> list[tuple[int, ...]]:
    """Cycles of three or four land routes, each once, in cycle order."""
    rings: dict[frozenset[int], tuple[int, ...]] = {}
    near = board.land_neighbours
    for a in range(len(board.cities)):
        for b in near(a):
            for c in near(b):
                if c == a:
                    continue
                if a in near(c):
                    rings.setdefault(frozenset((a, b, c)), (a, b, c))
                for d in near(c):
                    if d not in (a, b) and a in near(d):
                        rings.setdefault(frozenset((a, b, c, d)), (a, b, c, d))
    return [rings[k] for k in sorted(rings, key=sorted)]


def _routes(board: Board, at: Where) -> list[str]:
    out = []
    for links, style in ((board.land, f'stroke="{LAND_ROUTE}" stroke-width="2"'),
                         (board.sea, f'stroke="{SEA_ROUTE}" stroke-width="1.5" '
                                     'stroke-dasharray="6 4"')):
        for a, b in links:
            (x1, y1), (x2, y2) = at(a), at(b)
            out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" {style}/>')
    return out


def _star(x: float, y: float, r: float) -> str:
    points = []
    for k in range(10):
        radius = r if k % 2 == 0 else r * 0.45
        # a five-pointed star, point up: outer and inner vertices in turn
        angle = math.pi / 2 + k * math.pi / 5
        points.append(f"{x + radius * math.cos(angle):.1f},{y - radius * math.sin(angle):.1f}")
    return " ".join(points)


def _city(board: Board, i: int, at: Where, scale: float, font: float,
          battle_city: str | None, label: Label) -> list[str]:
    c = board.cities[i]
    x, y = at(i)
    fill = EMPIRE_COLOURS[EMPIRES[c.empire]]
    r = _disc_radius(board, i, scale)
    out = []
    if c.key == battle_city:
        out.append(f'<circle cx="{x}" cy="{y}" r="{r + 9 * scale + 3:.1f}" fill="none" '
                   'stroke="#d62020" stroke-width="3"/>')
    if c.port:
        out.append(f'<circle cx="{x}" cy="{y}" r="{r + 4 * scale + 1:.1f}" fill="none" '
                   f'stroke="{SEA_ROUTE}" stroke-width="2"/>')
    out.append(f'<circle cx="{x}" cy="{y}" r="{r:.1f}" fill="{fill}" stroke="#333" '
               'stroke-width="1"/>')
    if c.capital:
        out.append(f'<polygon points="{_star(x, y, r * 0.8)}" fill="#ffffff" '
                   'stroke="#333" stroke-width="0.5"/>')
    out.append(f'<text x="{label.x:.1f}" y="{label.y:.1f}" font-size="{font * 0.85:.1f}" '
               f'text-anchor="{label.anchor}" fill="#222">{escape(c.name)}</text>')
    return out


def _armies(entry: Mapping[str, Any], x: float, y: float, scale: float,
            font: float) -> list[str]:
    out = []
    box = max(12.0, 18 * scale)
    strokes = {"": 'stroke="#222" stroke-width="1"',
               " (attacking)": 'stroke="#d62020" stroke-width="2.5"',
               " (passing through)": 'stroke="#222" stroke-width="1.5" '
                                     'stroke-dasharray="3,2"'}
    for n, (army, role) in enumerate(((entry.get("army"), ""),
                                      (entry.get("attacker"), " (attacking)"),
                                      (entry.get("passing"), " (passing through)"))):
        if not army:
            continue
        bx = x + 6 * scale + n * (box + 2)
        by = y - box - 6 * scale
        fill = EMPIRE_COLOURS.get(str(army.get("empire")), UNKNOWN_COLOUR)
        stroke = strokes[role]
        title = escape(f"{army.get('empire')} {army.get('kind')}, player "
                       f"{army.get('player')}" + role)
        out.append(f'<g><title>{title}</title>'
                   f'<rect x="{bx:.1f}" y="{by:.1f}" width="{box:.1f}" height="{box:.1f}" '
                   f'rx="3" fill="{fill}" {stroke}/>'
                   f'<text x="{bx + box / 2:.1f}" y="{by + box * 0.75:.1f}" '
                   f'font-size="{box * 0.7:.1f}" font-weight="bold" text-anchor="middle" '
                   f'fill="#ffffff">{escape(KIND_LETTERS.get(str(army.get("kind")), "?"))}'
                   '</text></g>')
    return out


def _legend(view: Mapping[str, Any], x: float, y: float, font: float) -> list[str]:
    out = [f'<text x="{x}" y="{y:.1f}" font-size="{font:.1f}" font-weight="bold">'
           f'{escape(_header(view))}</text>']
    step = font + 8
    for p in view.get("players", ()):
        y += step
        sx = x
        for empire in p.get("empires", ()):
            fill = EMPIRE_COLOURS.get(str(empire), UNKNOWN_COLOUR)
            out.append(f'<rect x="{sx:.1f}" y="{y - font:.1f}" width="{font:.1f}" '
                       f'height="{font:.1f}" fill={quoteattr(fill)} stroke="#333"/>')
            sx += font + 3
        out.append(f'<text x="{x + 2 * (font + 3) + 4:.1f}" y="{y:.1f}" '
                   f'font-size="{font:.1f}">{escape(_player_line(view, p))}</text>')
    y += step
    out.append(f'<text x="{x}" y="{y:.1f}" font-size="{font:.1f}">'
               f'{escape(_piles(view))}</text>')
    return out
