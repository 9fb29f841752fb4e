"""Pictures of Albion positions -- SVG and text -- drawn from a view (so a picture shows
only what the view shows) and the board.

Both renderers take ``view`` (``State.view(player)``: ``regions`` one entry a board
region, matched by its ``region`` key; ``players``, ``supply``, ``picts``, ...; missing
keys draw as blanks, extra keys are ignored) and the
:class:`~boardrules.games.albion.board.Board` it is played on.

Text symbols (:func:`render_text`), one line a region, then one a player:

* the kind after the key: ``launch`` the launching region, ``light`` the second
  light-green region, ``start`` a start region, ``dark`` a dark-green region, and the
  resource regions ``fish``, ``wood``, ``stone``, ``gold``;
* ``@`` a laurel-wreath region;
* Picts: ``?3`` three face-down Picts, ``!2`` two face-up assault Picts, ``+1`` one
  printed assault Pict (each shown only when not zero); ``.`` no Picts;
* a building is its owner, its type's initial and its stage: ``0S2`` player 0's stage II
  settlement, ``1F1`` fortress, ``2R3`` rampart, ``3P1`` resource plant; a ``~`` after it
  marks a stage lying face down (being built this moment): ``0S3~``;
* figures: ``0:2s1l`` player 0 has 2 settlers and 1 legionnaire in the region.

SVG (:func:`render_svg`): the sea, each region's outline filled by its kind (light green
for the two light-green regions, dark green for the start and dark regions, a colour for
each resource), borders as the outlines' edges (a line between the labels where a region
has no outline), sea pairs as dashed blue lines, the name with a gold ring for a laurel;
Pict markers (grey ``?n`` face down, red ``!n`` face-up assault, red-ringed ``+n``
printed); buildings as small tokens in the owner's colour with type initial and stage (a
face-down stage faded, its edge dashed); settlers as discs and legionnaires as shields
with their count; a legend of the players and the supply.

Player colours: Albion's four colours are not known (the rulebook's examples name red,
black, blue and white players, not the printed shades), so red, near-black, blue and
white-with-an-outline are used.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from boardrules.api import CHANCE, TERMINAL
from boardrules.games.albion.board import MAP_HEIGHT, MAP_WIDTH, RESOURCES, Board, Region
from boardrules.games.checks import check_picture_size
from boardrules.games.overlay import Spot, check_overlays, overlay

#: Player colours (fill, text on it); the printed colours are not known.
PLAYER_COLOURS: tuple[tuple[str, str], ...] = (
    ("#c0392b", "#ffffff"), ("#2b2b2b", "#ffffff"), ("#2e6fd1", "#ffffff"),
    ("#f7f7f7", "#222222"))
UNKNOWN_COLOUR = ("#888888", "#ffffff")
#: Region fills by kind.
KIND_COLOURS = {"launch": "#b9dc8a", "light": "#b9dc8a", "start": "#4f8a45",
                "dark": "#3d7337", "fish": "#8ec3e6", "wood": "#a9794a",
                "stone": "#b5b2aa", "gold": "#e6c34a"}
#: Building types and their letters (text and SVG).
TYPE_LETTERS = {"settlement": "S", "fortress": "F", "rampart": "R", "plant": "P"}
SEA = "#bcd7ea"
COAST = "#1f3d1c"
SEA_LINE = "#1f5fa8"
LAUREL = "#d4a017"
ASSAULT = "#b02020"
#: Draws a token at (left, top) in a square of side box.
Token = Callable[[float, float, float], str]
Where = Callable[[float, float], tuple[float, float]]


# --- shared ----------------------------------------------------------------------------

def _int(value: Any) -> int:
    """A count from the view; anything else counts as 0."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _entries(view: Mapping[str, Any], board: Board) -> dict[int, Mapping[str, Any]]:
    """The view's region entries by board index (matched by key, so any order draws the
    same); ``ValueError`` for a region the board does not have."""
    out: dict[int, Mapping[str, Any]] = {}
    for entry in view.get("regions", ()):
        if isinstance(entry, Mapping):
            key = entry.get("region")
            if not isinstance(key, str):
                raise ValueError(f"a view region entry names no region: {key!r}")
            out[board.index(key)] = entry
    return out


def _who_moves(view: Mapping[str, Any]) -> str:
    current = view.get("current_player")
    if current == TERMINAL or view.get("phase") == "over":
        winners = view.get("winners")
        if winners:
            text = "game over: player " + ", ".join(str(w) for w in winners) + " won"
        else:
            text = "game over: a draw"
        reason = view.get("end_reason")
        return text + (f" ({reason})" if reason else "")
    if current == CHANCE:
        return "chance to act"
    text = f"player {current} to move"
    turn = view.get("turn_player")
    if turn is not None and turn != current:
        text += f" (turn of player {turn})"
    return text


def _header(view: Mapping[str, Any]) -> str:
    parts = [f"Albion - round {view.get('round')} of {view.get('max_rounds')}",
             f"phase {view.get('phase')}", _who_moves(view),
             f"start player {view.get('start_player')}",
             f"{view.get('points_left')} movement points left"]
    if view.get("end_triggered"):
        parts.append("last round")
    return ", ".join(parts)


def _resources(counts: Any) -> str:
    counts = counts if isinstance(counts, Mapping) else {}
    return " ".join(f"{kind} {_int(counts.get(kind))}" for kind in RESOURCES)


def _player_line(view: Mapping[str, Any], p: Mapping[str, Any]) -> str:
    who = f"player {p.get('player')}" + (" (start player)" if p.get("start_player") else "")
    parts = [who, _resources(p.get("resources")), f"movement {p.get('movement')}",
             f"defence {p.get('defence')}",
             "produces " + _resources(p.get("production")),
             f"supply {p.get('settlers_in_supply')} settlers "
             f"{p.get('legions_in_supply')} legionnaires",
             f"stage IV {p.get('stage4')}"]
    if view.get("viewer") is not None and view.get("viewer") == p.get("player"):
        parts.append("(you)")
    if view.get("current_player") == p.get("player"):
        parts.append("to move")
    return " | ".join(parts)


def _pool_line(view: Mapping[str, Any]) -> str:
    picts = view.get("picts")
    picts = picts if isinstance(picts, Mapping) else {}
    return (f"supply {_resources(view.get('supply'))} | neutral markers "
            f"{view.get('neutral_markers')} | Picts unrevealed "
            f"{_int(picts.get('unrevealed'))} (assault {_int(picts.get('assault_unrevealed'))},"
            f" peace {_int(picts.get('peace_unrevealed'))}; face down on the board and 2 in "
            f"the box), in the box {_int(picts.get('in_box'))}")


def _pict_label(entry: Mapping[str, Any], region: Region) -> str:
    """``?n`` face down, ``!n`` face-up assault, ``+n`` printed (the board's number when
    the view has none)."""
    printed = entry.get("printed_assault", region.printed_assault)
    parts = [f"{mark}{n}" for mark, n in (("?", _int(entry.get("face_down"))),
                                          ("!", _int(entry.get("assault"))),
                                          ("+", _int(printed))) if n]
    return " ".join(parts) or "."


def _buildings(entry: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [b for b in entry.get("buildings", ()) if isinstance(b, Mapping)]


def _building_label(b: Mapping[str, Any]) -> str:
    return (f"{b.get('player')}{TYPE_LETTERS.get(str(b.get('type')), '?')}"
            f"{b.get('stage')}" + ("~" if b.get("face_down") else ""))


def _counts(entry: Mapping[str, Any], key: str) -> list[int]:
    raw = entry.get(key, ())
    return [_int(n) for n in raw] if isinstance(raw, Sequence) else []


def _figures(entry: Mapping[str, Any]) -> list[tuple[int, int, int]]:
    """(player, settlers, legionnaires) of each player with a figure here."""
    settlers, legions = _counts(entry, "settlers"), _counts(entry, "legions")
    out = []
    for p in range(max(len(settlers), len(legions))):
        s = settlers[p] if p < len(settlers) else 0
        leg = legions[p] if p < len(legions) else 0
        if s or leg:
            out.append((p, s, leg))
    return out


def _figure_label(entry: Mapping[str, Any]) -> str:
    return " ".join(f"{p}:" + (f"{s}s" if s else "") + (f"{leg}l" if leg else "")
                    for p, s, leg in _figures(entry))


# --- text ------------------------------------------------------------------------------

TEXT_KEY = 14
TEXT_KIND = 7
TEXT_PICTS = 11
TEXT_BUILDINGS = 26


#: The text board's legend (``boardrules play``'s ``legend`` and ``help`` print it): each
#: mark as printed, with what it means; a number in a mark stands for any number.
TEXT_LEGEND: tuple[tuple[str, str], ...] = (
    ("@", "after a region: a laurel-wreath region"),
    ("launch light start dark", "the region's kind: the launching region, the second "
                                "light-green one, a start region, a dark-green region"),
    ("fish wood stone gold", "a resource region of that resource"),
    ("?2", "2 Picts lying face down (hidden: assault or peace)"),
    ("!1", "1 face-up assault Pict"),
    ("+1", "1 assault Pict printed on the board"),
    (".", "no Picts in the region"),
    ("0S2", "a building: its owner (player 0), its type, its stage (II)"),
    ("S F R P", "a building's type: settlement, fortress, rampart, resource plant"),
    ("~", "after a building: its new stage lies face down (being built now)"),
    ("-", "no building in the region"),
    ("0:2s", "player 0's figures in the region: 2 settlers (s)"),
    ("0:1l", "player 0's figures in the region: 1 legionnaire (l)"),
    ("0:2s1l", "player 0's figures in the region: 2 settlers and 1 legionnaire"),
    ("I II III IV", "a stage in Roman numerals (in a player's line, stage IV: his "
                    "settlements of stage IV)"),
    ("|", "separates the parts of a player's line"),
)


def render_text(view: Mapping[str, Any], board: Board) -> str:
    """The position as text (symbols in the module docstring): a header, one line a
    region in board order, the building in progress, one line a player, the supply."""
    entries = _entries(view, board)
    lines = [_header(view)]
    for i, region in enumerate(board.regions):
        entry = entries.get(i, {})
        laurel = "@" if entry.get("laurel", region.laurel) else ""
        buildings = " ".join(_building_label(b) for b in _buildings(entry)) or "-"
        line = (f"{region.key + laurel:<{TEXT_KEY}}{region.kind:<{TEXT_KIND}}"
                f"{_pict_label(entry, region):<{TEXT_PICTS}}{buildings:<{TEXT_BUILDINGS}}"
                f"{_figure_label(entry)}")
        lines.append(line.rstrip())
    build = view.get("build")
    if isinstance(build, Mapping):
        lines.append(_build_text(build))
    for p in view.get("players", ()):
        if isinstance(p, Mapping):
            lines.append(_player_line(view, p))
    lines.append(_pool_line(view))
    return "\n".join(lines)


ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV"}


def _build_text(build: Mapping[str, Any]) -> str:
    """The building action in progress in words (not a dump of the view's fields):
    ``building: rampart stage I in durotriges; paid, not yet taken as tribute: fish;
    to take tribute: player 1``."""
    stage = build.get("stage")
    what = " ".join(str(x) for x in (build.get("type"),
                                     f"stage {ROMAN.get(stage, stage)}" if stage else None)
                    if x)
    parts = [f"building: {what or 'a building'} in {build.get('region', '-')}"]
    if build.get("free"):
        parts.append("free (a settlement III's free development)")
    paid = build.get("paid_left") or []
    if paid:
        parts.append("paid, not yet taken as tribute: " + ", ".join(str(k) for k in paid))
    takers = build.get("tribute_takers") or []
    if takers:
        parts.append("to take tribute: " + ", ".join(f"player {p}" for p in takers))
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
    :mod:`boardrules.games.overlay` on its regions (by key: ``londinium``)."""
    check_picture_size(size, *SIZE_RANGE, "the picture's width")
    margin = 20
    scale = (size - 2 * margin) / MAP_WIDTH
    spots = _spots(board, margin, scale)
    shown = check_overlays("Albion", spots, highlight, marks, arrows)
    font = max(7.0, 13 * scale)
    map_h = MAP_HEIGHT * scale + 2 * margin
    players = [p for p in view.get("players", ()) if isinstance(p, Mapping)]
    # legend lines wrap at " | " to stay inside the picture (about 0.5 em a character)
    width_chars = max(20, int((size - 2 * margin - font - 6) / (font * 0.9 * 0.55)))
    legend = _legend_lines(view, players, width_chars)
    height = round(map_h + len(legend) * (font + 8) + margin)

    def at(x: float, y: float) -> tuple[float, float]:
        return round(margin + x * scale, 1), round(margin + y * scale, 1)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{height}" '
           f'viewBox="0 0 {size} {height}" font-family="sans-serif">',
           f"<title>{escape(board.title)}</title>",
           f'<rect width="{size}" height="{height}" fill="#fbf8f0"/>',
           f'<rect x="{margin / 2}" y="{margin / 2}" width="{size - margin}" '
           f'height="{map_h - margin}" fill="{SEA}" stroke="{COAST}"/>']
    out += _regions(board, at, scale)
    out += _links(board, at)
    entries = _entries(view, board)
    for i, region in enumerate(board.regions):
        out += _region_marks(region, entries.get(i, {}), *at(region.x, region.y),
                             scale, font)
    out += _legend(legend, margin, map_h + font, font)
    out += overlay(spots, *shown, unit=60 * scale)
    out.append("</svg>")
    return "\n".join(out)


def _spots(board: Board, margin: float, scale: float) -> dict[str, Spot]:
    """Each region's outline (or the disc drawn without one), arrows at its label."""
    def at(x: float, y: float) -> tuple[float, float]:
        return round(margin + x * scale, 1), round(margin + y * scale, 1)

    spots: dict[str, Spot] = {}
    for region in board.regions:
        label = at(region.x, region.y)
        if region.outline is not None:
            spots[region.key] = Spot.polygon([at(x, y) for x, y in region.outline], label)
        else:
            spots[region.key] = Spot.circle(*label, 30 * scale)
    return spots


def _regions(board: Board, at: Where, scale: float) -> list[str]:
    """Each region's area: its outline, or a disc at its label without one."""
    out = []
    for region in board.regions:
        fill = KIND_COLOURS.get(region.kind, "#cccccc")
        title = f"<title>{escape(f'{region.name} ({region.kind})')}</title>"
        if region.outline is not None:
            points = " ".join("{},{}".format(*at(x, y)) for x, y in region.outline)
            out.append(f'<polygon points="{points}" fill="{fill}" stroke="{COAST}" '
                       f'stroke-width="1.5" stroke-linejoin="round">{title}</polygon>')
        else:
            x, y = at(region.x, region.y)
            out.append(f'<circle cx="{x}" cy="{y}" r="{30 * scale:.1f}" fill="{fill}" '
                       f'stroke="{COAST}" stroke-width="1.5">{title}</circle>')
    return out


def _links(board: Board, at: Where) -> list[str]:
    """Borders a region without an outline cannot show (a line between the labels) and
    every sea pair (dashed blue: facing across the water, never crossed)."""
    out = []
    for a, b in board.borders:
        ra, rb = board.regions[a], board.regions[b]
        if ra.outline is None or rb.outline is None:
            (x1, y1), (x2, y2) = at(ra.x, ra.y), at(rb.x, rb.y)
            out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{COAST}" '
                       'stroke-width="2"/>')
    for a, b in board.sea:
        ra, rb = board.regions[a], board.regions[b]
        (x1, y1), (x2, y2) = at(ra.x, ra.y), at(rb.x, rb.y)
        out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{SEA_LINE}" '
                   'stroke-width="2" stroke-dasharray="6 4" opacity="0.8"/>')
    return out


def _colours(player: Any) -> tuple[str, str]:
    if isinstance(player, int) and not isinstance(player, bool) \
            and 0 <= player < len(PLAYER_COLOURS):
        return PLAYER_COLOURS[player]
    return UNKNOWN_COLOUR


def _region_marks(region: Region, entry: Mapping[str, Any], x: float, y: float,
                  scale: float, font: float) -> list[str]:
    """The name (a gold ring before it for a laurel), then rows of Picts, buildings and
    figures centred under it."""
    light = region.kind in ("launch", "light", "fish", "stone", "gold")
    ink = "#1a1a1a" if light else "#ffffff"
    out = [f'<text x="{x}" y="{y:.1f}" font-size="{font * 0.85:.1f}" text-anchor="middle" '
           f'font-weight="bold" fill="{ink}">{escape(region.name)}</text>']
    if entry.get("laurel", region.laurel):
        width = len(region.name) * font * 0.27 + font * 0.6
        out.append(f'<circle cx="{x - width:.1f}" cy="{y - font * 0.3:.1f}" '
                   f'r="{font * 0.35:.1f}" fill="none" stroke="{LAUREL}" '
                   'stroke-width="2"><title>laurel wreath</title></circle>')
    box = max(9.0, 17 * scale)
    rows = [_pict_tokens(entry, region), _building_tokens(entry), _figure_tokens(entry)]
    ry = y + font * 0.4
    for row in (r for r in rows if r):
        left = x - (len(row) * (box + 2) - 2) / 2
        for n, token in enumerate(row):
            out.append(token(left + n * (box + 2), ry, box))
        ry += box + 2
    return out




def _pict_tokens(entry: Mapping[str, Any], region: Region) -> list[Token]:
    printed = _int(entry.get("printed_assault", region.printed_assault))
    marks = ((_int(entry.get("face_down")), "#6b6b6b", "none", "?", "face-down Picts"),
             (_int(entry.get("assault")), ASSAULT, "none", "!", "face-up assault Picts"),
             (printed, "#ffffff", ASSAULT, "+", "printed assault Picts"))
    return [_square(f"{mark}{n}", fill, "#ffffff" if fill != "#ffffff" else ASSAULT,
                    ring, f"{n} {what}") for n, fill, ring, mark, what in marks if n]


def _square(label: str, fill: str, ink: str, ring: str, title: str,
            dashed: bool = False) -> Token:
    stroke = f'stroke="{ring}" stroke-width="2"' if ring != "none" else \
        'stroke="#222" stroke-width="0.8"'
    group = "<g>"
    if dashed:  # a face-down stage: faded, dashed edge
        stroke += ' stroke-dasharray="3 2"'
        group = '<g opacity="0.55">'

    def draw(left: float, top: float, box: float) -> str:
        return (f"{group}<title>{escape(title)}</title>"
                f'<rect x="{left:.1f}" y="{top:.1f}" width="{box:.1f}" height="{box:.1f}" '
                f'rx="2" fill={quoteattr(fill)} {stroke}/>'
                f'<text x="{left + box / 2:.1f}" y="{top + box * 0.72:.1f}" '
                f'font-size="{box * 0.55:.1f}" font-weight="bold" text-anchor="middle" '
                f"fill={quoteattr(ink)}>{escape(label)}</text></g>")
    return draw


def _building_tokens(entry: Mapping[str, Any]) -> list[Token]:
    tokens = []
    for b in _buildings(entry):
        fill, ink = _colours(b.get("player"))
        down = bool(b.get("face_down"))
        letter = TYPE_LETTERS.get(str(b.get("type")), "?")
        title = (f"player {b.get('player')} {b.get('type')} stage {b.get('stage')}"
                 + (" (face down, being built)" if down else ""))
        tokens.append(_square(f"{letter}{b.get('stage')}", fill, ink, "none", title,
                              dashed=down))
    return tokens


def _figure_tokens(entry: Mapping[str, Any]) -> list[Token]:
    tokens = []
    for p, settlers, legions in _figures(entry):
        fill, ink = _colours(p)
        if settlers:
            tokens.append(_figure(p, settlers, "settler", fill, ink))
        if legions:
            tokens.append(_figure(p, legions, "legionnaire", fill, ink))
    return tokens


def _figure(player: int, count: int, what: str, fill: str, ink: str) -> Token:
    title = f"player {player}: {count} {what}{'s' if count != 1 else ''}"

    def draw(left: float, top: float, box: float) -> str:
        cx, r = left + box / 2, box / 2
        if what == "settler":  # a disc
            shape = (f'<circle cx="{cx:.1f}" cy="{top + r:.1f}" r="{r:.1f}" '
                     f'fill="{fill}" stroke="#222" stroke-width="0.8"/>')
        else:  # a shield: flat top, pointed bottom
            shape = (f'<path d="M{left:.1f},{top:.1f} h{box:.1f} v{box * 0.55:.1f} '
                     f'L{cx:.1f},{top + box:.1f} L{left:.1f},{top + box * 0.55:.1f} Z" '
                     f'fill="{fill}" stroke="#222" stroke-width="0.8"/>')
        return (f"<g><title>{escape(title)}</title>{shape}"
                f'<text x="{cx:.1f}" y="{top + box * 0.68:.1f}" font-size="{box * 0.6:.1f}"'
                f' font-weight="bold" text-anchor="middle" fill="{ink}">{count}</text></g>')
    return draw


def _wrap(text: str, width: int) -> list[str]:
    """``text`` cut at its " | " separators into lines of at most ``width`` characters
    (a single longer part stays whole)."""
    lines: list[str] = []
    for part in text.split(" | "):
        if lines and len(lines[-1]) + 3 + len(part) <= width:
            lines[-1] += " | " + part
        else:
            lines.append(part)
    return lines


def _legend_lines(view: Mapping[str, Any], players: list[Mapping[str, Any]],
                  width: int) -> list[tuple[Any, str]]:
    """(player whose swatch starts the line, or None; text) for every legend line: the
    header, each player's line, the supply and Pict pool."""
    lines: list[tuple[Any, str]] = [(None, line) for line in _wrap(_header(view), width)]
    for p in players:
        for i, line in enumerate(_wrap(_player_line(view, p), width)):
            lines.append((p.get("player") if i == 0 else None, line))
    lines += [(None, line) for line in _wrap(_pool_line(view), width)]
    return lines


def _legend(lines: list[tuple[Any, str]], x: float, y: float, font: float) -> list[str]:
    out = []
    step = font + 8
    for i, (player, text) in enumerate(lines):
        if i:
            y += step
        indent = font + 6
        if player is not None:
            fill, _ = _colours(player)
            out.append(f'<rect x="{x:.1f}" y="{y - font:.1f}" width="{font:.1f}" '
                       f'height="{font:.1f}" fill="{fill}" stroke="#333"/>')
        weight = ' font-weight="bold"' if i == 0 else ""
        left = x if i == 0 else x + indent
        out.append(f'<text x="{left:.1f}" y="{y:.1f}" font-size="{font * 0.9:.1f}"{weight}>'
                   f"{escape(text)}</text>")
    return out
