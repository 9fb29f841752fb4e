"""Pictures of Armada positions -- SVG and text -- drawn from a view (so a picture shows
only what the view shows) and the board.

Both renderers take ``view`` (``State.view(player)``: ``territories`` one entry a board
territory, matched by its ``territory`` key; ``ships``, ``colours``, ``players``,
``supply``, ``deck``, ``played``, ``pending``, ...; missing keys draw as blanks ``-``,
extra keys are ignored) and the :class:`~boardrules.games.armada.board.Board` it is
played on.  A key the board does not have (a territory entry, or a ship standing at an
unknown place) raises ``ValueError``: the view is of another board; a view that is not a
mapping, or a board that is not an Armada :class:`Board`, raises ``TypeError``.

Colour initials (text): ``G`` green, ``R`` raspberry, ``B`` blue, ``O`` orange, ``N`` the
natives (brown); ``?`` a colour the renderer does not know.

Text symbols (:func:`render_text`): a header line (round, phase, who is to act, the turn
colour, the acting colour, actions left, ``coup de main by blue (2 actions left)`` while
one is played), the pending sub-decision when there is one (``pending: kind move, from
gn1, to s_c1``: its kind first, then its other fields by name), then the territories
island by island, each island under a line ``island <key> (<name>), <group>``:

* the key, then its mark: ``city`` a city, ``post:<name>`` a trading post (``post:central``
  ...), blank otherwise;
* the flag: ``^G`` a green flag (``^R``, ``^B``, ``^O``), ``^N`` a brown flag (natives,
  also on every explored territory), ``^?`` a flag of a colour not known; ``.`` no flag;
* the explored marker: ``*`` explored, ``?`` a central-group territory not yet explored
  (blank for a lair territory not marked explored);
* the bands: ``G5`` five green bands; gold ``$3``; natives ``n2`` (each shown only when not
  zero);
* an unlaunched ship standing in the city: ``S3:G`` ship 3, owned by green (its crew and
  gold after it as for a ship at sea).

Then ``seas`` and one line a sea space holding a ship: the key, ``coast`` or ``open``, and
the ship ``S0:G`` (index, owner's initial), its crew ``G3`` (``-`` for a ship without a
crew) and its gold ``$2``; then ``box`` listing the ships not on the board.  Then one line
a colour (``green | player 0 | pool 12 | bands 18 | flags 3``, ``neutral`` or ``not in
play`` when so, ``victory option`` when it holds one, ``to act`` for the acting colour), one
line a player (``player 0 (green) | 3 cards | hand dope 2, strategist 1``, or ``hand
hidden`` when the view hides it; ``(you)`` for the viewer), the deck and the cards played
(``deck 40 | played dope 2``) and the supply (``supply gold 30 natives 40``).

SVG (:func:`render_svg`): the sea; each sea space a small cell (``class="sea"``; coastal
spaces light, open sea dark) with its key; each territory its outline (``class="territory"``,
a disc at its label without one) filled by its group (sand for the central island, paler
sand for the two neighbouring islands, a tint of the lair's colour) with its key and, under
the key, a row of tokens: a city as a small tower (``class="city"``) or a trading post as a
diamond with the post's initial (``class="post"``), the flag as a pennant (``class="flag"``)
in its colour (brown for the natives' flag), the bands as a square in their colour with
their count (``class="bands"``), gold as a yellow disc with the count (``class="gold"``),
natives as a brown square with the count (``class="natives"``); a dashed ring round a
central-group territory not yet explored (``class="unexplored"``); each ship on the board
a hull under a white sail (``class="ship"``) in its owner's colour, on its sea space (or in
its city, under the tokens, while unlaunched), with its crew count on the hull and a gold
disc at the stern when it carries gold; a legend: the header, each colour with its swatch,
each player, the deck, the supply and what the shapes mean.  Every token has a
``<title>`` naming what it shows (a territory's: its name, key and island).

Colours: green, raspberry (``#c2185b``), blue and orange for the four colours, brown for
the natives; a colour the renderer does not know is grey.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal
from xml.sax.saxutils import escape, quoteattr

from boardrules.api import CHANCE, TERMINAL
from boardrules.games.armada.board import MAP_HEIGHT, MAP_WIDTH, Board, Territory
from boardrules.games.checks import check_picture_size
from boardrules.games.overlay import Spot, check_overlays, overlay

#: Fill of each colour's pieces, and the ink written on them.
COLOUR_FILLS: dict[str, tuple[str, str]] = {
    "green": ("#2e8b3a", "#ffffff"), "raspberry": ("#c2185b", "#ffffff"),
    "blue": ("#1f5fbf", "#ffffff"), "orange": ("#f08a00", "#1a1a1a"),
    "brown": ("#7b4a1e", "#ffffff")}
UNKNOWN_FILL = ("#888888", "#ffffff")
#: Text initials of the colours (``N`` the natives, whose flag is brown).
INITIALS = {"green": "G", "raspberry": "R", "blue": "B", "orange": "O", "brown": "N"}
#: Territory fills by island group (a lair: a tint of its colour).
GROUP_FILLS = {"central": "#e6d08e", "neighbour": "#efe3b8", "green": "#cfe8c8",
               "raspberry": "#f4c7da", "blue": "#c9d9f4", "orange": "#fbdcb4"}
NATIVES = "#7b4a1e"
GOLD = "#f2c200"
SEA = "#4f86b8"
COASTAL_SEA = "#a9cfea"
OPEN_SEA = "#6f9fcb"
COAST = "#3b2e1a"
PAPER = "#fbf8f0"
#: Draws a token at (left, top) in a square of side box.
Token = Callable[[float, float, float], str]
Where = Callable[[float, float], tuple[float, float]]


# --- shared ----------------------------------------------------------------------------

def _check(view: Any, board: Any) -> None:
    """``TypeError`` unless ``view`` is a mapping and ``board`` an Armada board."""
    if not isinstance(view, Mapping):
        raise TypeError(f"view must be a mapping (a view dict), not {type(view).__name__}")
    if not isinstance(board, Board):
        raise TypeError("board must be a boardrules.games.armada.board.Board, not "
                        f"{type(board).__name__}")


def _int(value: Any) -> int:
    """A count from the view; anything else counts as 0."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _show(value: Any) -> str:
    """A value from the view as text; a missing one as ``-``."""
    return "-" if value is None else str(value)


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _list(view: Mapping[str, Any], key: str) -> list[Mapping[str, Any]]:
    """The view's list ``key``, only its mapping entries (anything else is skipped)."""
    raw = view.get(key)
    if not isinstance(raw, (list, tuple)):
        return []
    return [x for x in raw if isinstance(x, Mapping)]


def _initial(colour: Any) -> str:
    return INITIALS.get(colour, "?") if isinstance(colour, str) else "?"


def _fill(colour: Any) -> tuple[str, str]:
    return COLOUR_FILLS.get(colour, UNKNOWN_FILL) if isinstance(colour, str) else UNKNOWN_FILL


def _territory_entries(view: Mapping[str, Any], board: Board) -> dict[int, Mapping[str, Any]]:
    """The view's territory entries by board index (matched by key, so any order draws
    the same); ``ValueError`` for a territory the board does not have."""
    out: dict[int, Mapping[str, Any]] = {}
    for entry in _list(view, "territories"):
        key = entry.get("territory")
        if not isinstance(key, str):
            raise ValueError(f"a view territory entry names no territory: {key!r}")
        out[board.territory_index(key)] = entry
    return out


def _ships(view: Mapping[str, Any], board: Board) -> tuple[
        dict[int, list[Mapping[str, Any]]], dict[int, list[Mapping[str, Any]]],
        list[Mapping[str, Any]]]:
    """The view's ships: (in a city by territory index, at sea by sea index, the rest:
    in the box or placed nowhere); ``ValueError`` for a place the board does not have."""
    cities: dict[int, list[Mapping[str, Any]]] = {}
    seas: dict[int, list[Mapping[str, Any]]] = {}
    rest: list[Mapping[str, Any]] = []
    for ship in _list(view, "ships"):
        where, at = ship.get("where"), ship.get("at")
        if where == "city" and isinstance(at, str):
            cities.setdefault(board.territory_index(at), []).append(ship)
        elif where == "sea" and isinstance(at, str):
            seas.setdefault(board.sea_index(at), []).append(ship)
        else:
            rest.append(ship)
    return cities, seas, rest


def _who_acts(view: Mapping[str, Any]) -> str:
    current = view.get("current_player")
    if current == TERMINAL or view.get("phase") == "over":
        winners = view.get("winners")
        if isinstance(winners, (list, tuple)) and winners:
            text = "game over: player " + ", ".join(str(w) for w in winners) + " won"
        else:
            text = "game over: a draw"
        reason = view.get("end_reason")
        return text + (f" ({reason})" if reason else "")
    if current == CHANCE:
        return "chance to act"
    return f"player {_show(current)} to act"


def _header(view: Mapping[str, Any]) -> str:
    parts = [f"Armada - round {_show(view.get('round'))} of {_show(view.get('max_rounds'))}",
             f"phase {_show(view.get('phase'))}", _who_acts(view),
             f"turn {_show(view.get('turn_colour'))}",
             f"acting {_show(view.get('acting_colour'))}",
             f"{_show(view.get('actions_left'))} actions left"]
    coup = view.get("coup")
    if isinstance(coup, Mapping):
        parts.append(f"coup de main by {_show(coup.get('colour'))} "
                     f"({_show(coup.get('actions_left'))} actions left)")
    return ", ".join(parts)


def _pending_line(view: Mapping[str, Any]) -> str | None:
    """``pending: kind move, from gn1, to s_c1`` (kind first, the rest by name)."""
    pending = view.get("pending")
    if not isinstance(pending, Mapping):
        return None
    keys = sorted(pending, key=lambda k: (k != "kind", str(k)))
    return "pending: " + ", ".join(f"{k} {pending[k]}" for k in keys)


def _cards(cards: Any) -> str:
    """``dope 2, strategist 1`` (by card key; zero counts left out), ``none`` if empty."""
    counts = _mapping(cards)
    shown = [f"{k} {_int(counts[k])}" for k in sorted(counts, key=str) if _int(counts[k])]
    return ", ".join(shown) or "none"


def _bands_label(colour: Any, bands: int) -> str:
    return f"{_initial(colour)}{bands}" if bands else ""


def _ship_label(ship: Mapping[str, Any]) -> str:
    """``S3:G G2 $1``: index and owner, crew (``-`` none), gold (when not zero)."""
    crew = _bands_label(ship.get("crew"), _int(ship.get("bands"))) or "-"
    gold = _int(ship.get("gold"))
    return (f"S{_show(ship.get('ship'))}:{_initial(ship.get('owner'))} {crew}"
            + (f" ${gold}" if gold else ""))


def _post_mark(territory: Territory) -> str:
    if territory.city:
        return "city"
    if territory.trading_post is not None:
        return f"post:{territory.trading_post}"
    return ""


def _explored_mark(entry: Mapping[str, Any], central: bool) -> str:
    explored = entry.get("explored")
    if explored is True:
        return "*"
    return "?" if explored is False and central else ""


def _colour_line(view: Mapping[str, Any], c: Mapping[str, Any]) -> str:
    parts = [_show(c.get("colour")), f"player {_show(c.get('player'))}"]
    if c.get("neutral"):
        parts.append("neutral")
    elif c.get("in_play") is False:
        parts.append("not in play")
    parts += [f"pool {_show(c.get('pool'))}", f"bands {_show(c.get('bands'))}",
              f"flags {_show(c.get('flags'))}"]
    if c.get("victory_option"):
        parts.append("victory option")
    if c.get("colour") is not None and c.get("colour") == view.get("acting_colour"):
        parts.append("to act")
    return " | ".join(parts)


def _player_line(view: Mapping[str, Any], p: Mapping[str, Any]) -> str:
    colours = p.get("colours")
    names = ", ".join(str(c) for c in colours) if isinstance(colours, (list, tuple)) else ""
    parts = [f"player {_show(p.get('player'))}" + (f" ({names})" if names else ""),
             f"{_show(p.get('hand_size'))} cards"]
    hand = p.get("hand")
    parts.append(f"hand {_cards(hand)}" if isinstance(hand, Mapping) else "hand hidden")
    if view.get("viewer") is not None and view.get("viewer") == p.get("player"):
        parts.append("(you)")
    return " | ".join(parts)


def _pool_lines(view: Mapping[str, Any]) -> list[str]:
    supply = _mapping(view.get("supply"))
    return [f"deck {_show(view.get('deck'))} | played {_cards(view.get('played'))}",
            f"supply gold {_show(supply.get('gold'))} natives {_show(supply.get('natives'))}"]


# --- text ------------------------------------------------------------------------------

#: Column widths: a key is at most 16 characters, a mark at most 12 (``post:central``).
TEXT_KEY = 17
TEXT_MARK = 13
TEXT_FLAG = 4
TEXT_EXPLORED = 3
TEXT_SEA_KIND = 7


#: The text board's legend (``boardrules play``'s ``legend`` and ``help`` print it): each
#: mark as printed, with what it means; a number in a mark stands for any number.
TEXT_LEGEND: tuple[tuple[str, str], ...] = (
    ("G R B O N", "colour initials: green, raspberry, blue, orange, the natives (brown)"),
    ("city", "after a territory: a city"),
    ("post:", "after a territory: a trading post and its name (post:central...)"),
    ("^G ^R ^B ^O ^N", "the territory's flag in that colour (^N: the natives')"),
    (".", "no flag"),
    ("*", "an explored territory"),
    ("?", "a central-group territory not yet explored (what it holds is hidden)"),
    ("G5 R5 B5 O5", "5 bands of that colour"),
    ("$3", "3 gold"),
    ("n2", "2 natives"),
    ("S3:G S3:R S3:B S3:O", "ship 3 and its owner's initial (its crew and gold after it)"),
    ("-", "a ship without crew; a field the view does not give"),
    ("|", "separates the parts of a line"),
    ("^?", "a flag of a colour the renderer does not know"),
)


def render_text(view: Mapping[str, Any], board: Board) -> str:
    """The position as text (symbols in the module docstring): a header, the pending
    sub-decision, one line a territory grouped by island, the sea spaces holding ships,
    the ships in the box, one line a colour and a player, the deck and the supply."""
    _check(view, board)
    entries = _territory_entries(view, board)
    in_city, at_sea, rest = _ships(view, board)
    lines = [_header(view)]
    pending = _pending_line(view)
    if pending is not None:
        lines.append(pending)
    for island_index, island in enumerate(board.islands):
        lines.append(f"island {island.key} ({island.name}), {island.group}")
        for i, territory in enumerate(board.territories):
            if territory.island == island_index:
                lines.append(_territory_line(board, i, entries.get(i, {}),
                                             in_city.get(i, [])))
    lines.append("seas")
    for s, sea in enumerate(board.seas):
        for ship in at_sea.get(s, []):
            kind = "coast" if board.coastal(s) else "open"
            lines.append(f"  {sea.key:<{TEXT_KEY}}{kind:<{TEXT_SEA_KIND}}{_ship_label(ship)}")
    if rest:
        lines.append("box " + " ".join(_ship_label(s) for s in rest))
    lines += [_colour_line(view, c) for c in _list(view, "colours")]
    lines += [_player_line(view, p) for p in _list(view, "players")]
    lines += _pool_lines(view)
    return "\n".join(lines)


def _territory_line(board: Board, i: int, entry: Mapping[str, Any],
                    ships: list[Mapping[str, Any]]) -> str:
    territory = board.territories[i]
    flag = entry.get("flag")
    central = board.lair_of(i) is None
    counts = [_bands_label(entry.get("colour"), _int(entry.get("bands"))),
              f"${_int(entry.get('gold'))}" if _int(entry.get("gold")) else "",
              f"n{_int(entry.get('natives'))}" if _int(entry.get("natives")) else ""]
    counts += [_ship_label(s) for s in ships]
    line = (f"  {territory.key:<{TEXT_KEY}}{_post_mark(territory):<{TEXT_MARK}}"
            f"{'^' + _initial(flag) if flag is not None else '.':<{TEXT_FLAG}}"
            f"{_explored_mark(entry, central):<{TEXT_EXPLORED}}"
            + " ".join(c for c in counts if c))
    return line.rstrip()


# --- SVG -------------------------------------------------------------------------------

#: ``render_svg``'s ``size``: the picture's width in pixels, checked by
#: :func:`~boardrules.games.checks.check_picture_size` as every game's is.
SIZE_RANGE = (200, 10_000)


def render_svg(view: Mapping[str, Any], board: Board, *, size: int = 900,
               highlight: Sequence[str] = (), marks: Sequence[tuple[str, str]] = (),
               arrows: Sequence[tuple[str, str]] = (),
               labels: Literal["keys", "names"] = "keys") -> str:
    """The position as a standalone SVG document ``size`` pixels wide (an integer from
    200 to 10000, :data:`SIZE_RANGE`; ``ValueError`` otherwise), with the overlays of
    :mod:`boardrules.games.overlay` on its territories and sea spaces (by key).

    ``labels="keys"`` (the default) writes each territory's and sea space's key, the
    names a player types in the notation; ``labels="names"`` the territory's name from
    the board file instead (without a ``(city)`` after it: the tower shows it), on two
    lines when long, and no sea-space keys (their cells' shade tells coastal from open
    sea) -- for a reader who does not play with the notation, as in the docs."""
    check_picture_size(size, *SIZE_RANGE, "the picture's width")
    if labels not in ("keys", "names"):
        raise ValueError(f"labels must be 'keys' or 'names', not {labels!r}")
    _check(view, board)
    entries = _territory_entries(view, board)
    in_city, at_sea, _ = _ships(view, board)
    margin = 20
    scale = (size - 2 * margin) / MAP_WIDTH
    spots = _spots(board, margin, scale)
    shown = check_overlays("Armada", spots, highlight, marks, arrows)
    font = max(7.0, 13 * scale)
    map_h = MAP_HEIGHT * scale + 2 * margin
    width_chars = max(20, int((size - 2 * margin - font - 6) / (font * 0.9 * 0.55)))
    legend = _legend_lines(view, width_chars)
    height = round(map_h + len(legend) * (font + 8) + margin)

    def at(x: float, y: float) -> tuple[float, float]:
        return round(margin + x * scale, 1), round(margin + y * scale, 1)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{height}" '
           f'viewBox="0 0 {size} {height}" font-family="sans-serif">',
           f"<title>{escape(board.title)}</title>",
           f'<rect width="{size}" height="{height}" fill="{PAPER}"/>',
           f'<rect x="{margin / 2}" y="{margin / 2}" width="{size - margin}" '
           f'height="{map_h - margin}" fill="{SEA}" stroke="{COAST}"/>']
    cell = _sea_cell(board) * scale
    out += _sea_cells(board, at, cell, font, labels == "keys")
    out += _territories(board, at, scale, font)
    box = max(8.0, 15 * scale)
    for i, territory in enumerate(board.territories):
        out += _territory_marks(board, i, entries.get(i, {}), at, box, font, labels)
        for ship in in_city.get(i, []):
            x, y = at(territory.x, territory.y)
            out.append(_ship(ship, x, y + box * 2.05, box))  # under the token row
    for s, sea in enumerate(board.seas):
        for n, ship in enumerate(at_sea.get(s, [])):  # one a space; more drawn stacked
            x, y = at(sea.x, sea.y)
            out.append(_ship(ship, x, y + font * 0.2 + n * box * 0.5, box))
    out += _legend(legend, margin, map_h + font, font)
    out += overlay(spots, *shown, unit=_sea_cell(board) * scale)
    out.append("</svg>")
    return "\n".join(out)


def _spots(board: Board, margin: float, scale: float) -> dict[str, Spot]:
    """Each territory's outline (or its disc) with arrows at its label, each sea space's
    cell (a ship there is named by the space)."""
    def at(x: float, y: float) -> tuple[float, float]:
        return round(margin + x * scale, 1), round(margin + y * scale, 1)

    spots: dict[str, Spot] = {}
    for territory in board.territories:
        x, y = at(territory.x, territory.y)
        if territory.outline is not None:
            spots[territory.key] = Spot.polygon(
                [at(px, py) for px, py in territory.outline], (x, y),
                (x - 26 * scale, y - 24 * scale))
        else:
            spots[territory.key] = Spot.circle(x, y, 36 * scale)
    cell = _sea_cell(board) * scale
    for sea in board.seas:
        x, y = at(sea.x, sea.y)
        spots[sea.key] = Spot.rect(x - cell / 2, y - cell / 2, cell, cell, 1.5)
    return spots


def _sea_cell(board: Board) -> float:
    """The side of a sea space's cell in board units: 92% of the smallest step between
    two adjoining spaces (so cells nearly touch on a grid board), 20 to 90."""
    steps = [max(abs(board.seas[a].x - board.seas[b].x), abs(board.seas[a].y - board.seas[b].y))
             for a, b in board.sea]
    step = min((s for s in steps if s > 0), default=80.0)
    return min(90.0, max(20.0, step * 0.92))


def _sea_cells(board: Board, at: Where, cell: float, font: float, keys: bool) -> list[str]:
    out = []
    for s, sea in enumerate(board.seas):
        coastal = board.coastal(s)
        fill, kind = (COASTAL_SEA, "coastal") if coastal else (OPEN_SEA, "open sea")
        x, y = at(sea.x, sea.y)
        out.append(f'<g class="sea"><title>{escape(f"{sea.key} ({kind})")}</title>'
                   f'<rect x="{x - cell / 2:.1f}" y="{y - cell / 2:.1f}" width="{cell:.1f}" '
                   f'height="{cell:.1f}" rx="{cell * 0.12:.1f}" fill="{fill}" '
                   f'stroke="#ffffff" stroke-opacity="0.5"/>'
                   + (f'<text x="{x:.1f}" y="{y - cell / 2 + font * 0.75:.1f}" '
                      f'font-size="{font * 0.6:.1f}" text-anchor="middle" fill="#1d3b5c">'
                      f"{escape(sea.key)}</text>" if keys else "") + "</g>")
    return out


def _territories(board: Board, at: Where, scale: float, font: float) -> list[str]:
    """Each territory's area (its outline, or a disc at its label without one) and key."""
    out = []
    for i, territory in enumerate(board.territories):
        group = board.group_of(i)
        fill = GROUP_FILLS.get(group, "#cccccc")
        island = board.islands[territory.island].name
        title = f"<title>{escape(f'{territory.name} ({territory.key}, {island})')}</title>"
        if territory.outline is not None:
            points = " ".join("{},{}".format(*at(x, y)) for x, y in territory.outline)
            out.append(f'<polygon class="territory" points="{points}" fill="{fill}" '
                       f'stroke="{COAST}" stroke-width="1.2" stroke-linejoin="round">'
                       f"{title}</polygon>")
        else:
            x, y = at(territory.x, territory.y)
            out.append(f'<circle class="territory" cx="{x}" cy="{y}" r="{36 * scale:.1f}" '
                       f'fill="{fill}" stroke="{COAST}" stroke-width="1.2">{title}</circle>')
    return out


def _territory_marks(board: Board, i: int, entry: Mapping[str, Any], at: Where,
                     box: float, font: float, labels: str) -> list[str]:
    """The key or name (a dashed ring round the territory's middle while a
    central-group one is unexplored), then a row of city or post mark, flag, bands, gold
    and natives centred under it."""
    territory = board.territories[i]
    x, y = at(territory.x, territory.y)
    lines = [territory.key] if labels == "keys" else _name_lines(territory.name)
    out = [f'<text x="{x}" y="{y - box * 0.55 - (len(lines) - 1 - n) * font * 0.9:.1f}" '
           f'font-size="{font * 0.8:.1f}" text-anchor="middle" font-weight="bold" '
           f'fill="#1a1a1a">{escape(line)}</text>' for n, line in enumerate(lines)]
    if entry.get("explored") is False and board.lair_of(i) is None:
        out.append(f'<circle class="unexplored" cx="{x}" cy="{y}" r="{box * 2:.1f}" '
                   'fill="none" stroke="#555555" stroke-dasharray="2 2" opacity="0.6">'
                   "<title>not yet explored</title></circle>")
    row = _tokens(territory, entry)
    left = x - (len(row) * (box + 2) - 2) / 2
    top = y - box * 0.3
    out += [token(left + n * (box + 2), top, box) for n, token in enumerate(row)]
    return out


def _name_lines(name: str) -> list[str]:
    """A territory's name as a picture writes it: without a last part in brackets
    (``Green lair 3 (city)``: the tower says it), cut at the space nearest its middle
    when longer than 10 characters (``Central`` / ``island 10``)."""
    if name.endswith(")") and " (" in name:
        name = name[:name.rindex(" (")]
    spaces = [i for i, ch in enumerate(name) if ch == " "]
    if len(name) <= 10 or not spaces:
        return [name]
    cut = min(spaces, key=lambda i: abs(2 * i - len(name)))
    return [name[:cut], name[cut + 1:]]


def _city(left: float, top: float, box: float) -> str:
    """A small tower: a body under a battlement of three merlons."""
    side, notch = box * 0.8, box * 0.2
    left, top = left + box * 0.1, top + box * 0.1
    d = (f"M{left:.1f},{top + side:.1f} v{-side:.1f} h{notch:.1f} v{notch:.1f} "
         f"h{notch:.1f} v{-notch:.1f} h{notch:.1f} v{notch:.1f} h{notch:.1f} v{-notch:.1f} "
         f"v{side:.1f} Z")
    return (f'<path class="city" d="{d}" fill="#5b4a3a" stroke="#1a1a1a" '
            'stroke-width="0.6"><title>city</title></path>')


def _post(name: str) -> Token:
    """A diamond with the post's initial."""
    def draw(left: float, top: float, box: float) -> str:
        cx, cy, r = left + box / 2, top + box / 2, box / 2
        return (f'<g class="post"><title>{escape(f"{name} trading post")}</title>'
                f'<path d="M{cx:.1f},{cy - r:.1f} L{cx + r:.1f},{cy:.1f} '
                f'L{cx:.1f},{cy + r:.1f} L{cx - r:.1f},{cy:.1f} Z" fill="#ffffff" '
                f'stroke="#8a5a00" stroke-width="1.2"/>'
                f'<text x="{cx:.1f}" y="{cy + r * 0.38:.1f}" font-size="{r * 1.05:.1f}" '
                f'text-anchor="middle" font-weight="bold" fill="#8a5a00">'
                f"{escape(name[:1].upper())}</text></g>")
    return draw


def _tokens(territory: Territory, entry: Mapping[str, Any]) -> list[Token]:
    """The city or trading-post mark, then the flag, bands, gold and natives of a
    territory (each only when there)."""
    row: list[Token] = []
    if territory.city:
        row.append(_city)
    elif territory.trading_post is not None:
        row.append(_post(territory.trading_post))
    flag = entry.get("flag")
    if flag is not None:
        row.append(_flag(flag))
    bands, colour = _int(entry.get("bands")), entry.get("colour")
    if bands:
        fill, ink = _fill(colour)
        row.append(_square("bands", str(bands), fill, ink, f"{bands} {_show(colour)} bands"))
    gold = _int(entry.get("gold"))
    if gold:
        row.append(_gold(gold))
    natives = _int(entry.get("natives"))
    if natives:
        row.append(_square("natives", str(natives), NATIVES, "#ffffff", f"{natives} natives"))
    return row


def _flag(colour: Any) -> Token:
    """A pennant on a pole in the flag's colour (brown: the natives')."""
    fill, _ = _fill(colour)
    title = "natives' flag (brown)" if colour == "brown" else f"flag: {colour}"

    def draw(left: float, top: float, box: float) -> str:
        pole = left + box * 0.2
        return (f'<g class="flag"><title>{escape(title)}</title>'
                f'<line x1="{pole:.1f}" y1="{top:.1f}" x2="{pole:.1f}" y2="{top + box:.1f}" '
                'stroke="#222222" stroke-width="1.2"/>'
                f'<path d="M{pole:.1f},{top:.1f} L{left + box:.1f},{top + box * 0.28:.1f} '
                f'L{pole:.1f},{top + box * 0.56:.1f} Z" fill={quoteattr(fill)} '
                'stroke="#222222" stroke-width="0.6"/></g>')
    return draw


def _square(kind: str, label: str, fill: str, ink: str, title: str) -> Token:
    def draw(left: float, top: float, box: float) -> str:
        return (f'<g class="{kind}"><title>{escape(title)}</title>'
                f'<rect x="{left:.1f}" y="{top:.1f}" width="{box:.1f}" height="{box:.1f}" '
                f'rx="2" fill={quoteattr(fill)} stroke="#222222" stroke-width="0.8"/>'
                f'<text x="{left + box / 2:.1f}" y="{top + box * 0.74:.1f}" '
                f'font-size="{box * 0.65:.1f}" font-weight="bold" text-anchor="middle" '
                f"fill={quoteattr(ink)}>{escape(label)}</text></g>")
    return draw


def _gold(count: int) -> Token:
    def draw(left: float, top: float, box: float) -> str:
        return _disc(left + box / 2, top + box / 2, box / 2, count)
    return draw


def _disc(cx: float, cy: float, r: float, count: int) -> str:
    return (f'<g class="gold"><title>{count} gold</title>'
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="{GOLD}" '
            'stroke="#7a5c00" stroke-width="0.8"/>'
            f'<text x="{cx:.1f}" y="{cy + r * 0.45:.1f}" font-size="{r * 1.3:.1f}" '
            f'font-weight="bold" text-anchor="middle" fill="#3a2a00">{count}</text></g>')


def _ship(ship: Mapping[str, Any], cx: float, cy: float, box: float) -> str:
    """A hull in the owner's colour (a white sail above it) centred at (cx, cy), the crew
    count on it, a gold disc at its stern when it carries gold."""
    fill, ink = _fill(ship.get("owner"))
    bands, gold = _int(ship.get("bands")), _int(ship.get("gold"))
    w, h = box * 1.9, box * 0.75
    left, top = cx - w / 2, cy - h / 2
    crew = f"crew {_show(ship.get('crew'))} {bands} bands" if bands else "no crew"
    where = "unlaunched in" if ship.get("where") == "city" else "at"
    title = (f"ship {_show(ship.get('ship'))} of {_show(ship.get('owner'))} {where} "
             f"{_show(ship.get('at'))}: {crew}, {gold} gold")
    out = [f'<g class="ship"><title>{escape(title)}</title>',
           f'<path d="M{cx:.1f},{top - box * 0.75:.1f} L{cx + w * 0.3:.1f},{top - 1:.1f} '
           f'L{cx:.1f},{top - 1:.1f} Z" fill="#ffffff" stroke="#222222" stroke-width="0.6"/>',
           f'<path d="M{left:.1f},{top:.1f} h{w:.1f} l{-w * 0.15:.1f},{h:.1f} '
           f'h{-w * 0.7:.1f} Z" fill={quoteattr(fill)} stroke="#111111" stroke-width="0.9"/>']
    if bands:  # the crew is the owner's colour (boarding an empty ship makes it his)
        out.append(f'<text x="{cx:.1f}" y="{top + h * 0.82:.1f}" font-size="{h * 0.95:.1f}" '
                   f'font-weight="bold" text-anchor="middle" fill={quoteattr(ink)}>'
                   f"{bands}</text>")
    if gold:
        out.append(_disc(left + w + box * 0.3, cy, box * 0.4, gold))
    out.append("</g>")
    return "".join(out)


def _wrap(text: str, width: int, sep: str = " | ") -> list[str]:
    """``text`` cut at its ``sep`` separators into lines of at most ``width`` characters
    (a single longer part stays whole)."""
    lines: list[str] = []
    for part in text.split(sep):
        if lines and len(lines[-1]) + len(sep) + len(part) <= width:
            lines[-1] += sep + part
        else:
            lines.append(part)
    return lines


SHAPES = ("pennant: flag (brown: natives') | square: bands (count) | brown square: natives "
          "| yellow disc: gold | hull: ship (crew count) | tower: city | diamond: trading "
          "post | dashed ring: not yet explored | light cell: coastal sea | dark cell: open "
          "sea")


def _legend_lines(view: Mapping[str, Any], width: int) -> list[tuple[Any, str]]:
    """(colour whose swatch starts the line, or None; text) for every legend line: the
    header, the pending sub-decision, each colour, each player, the deck and supply, the
    shapes."""
    lines: list[tuple[Any, str]] = [(None, line)
                                    for line in _wrap(_header(view), width, ", ")]
    pending = _pending_line(view)
    if pending is not None:
        lines += [(None, line) for line in _wrap(pending, width)]
    for c in _list(view, "colours"):
        for i, line in enumerate(_wrap(_colour_line(view, c), width)):
            lines.append((c.get("colour") if i == 0 else None, line))
    for p in _list(view, "players"):
        lines += [(None, line) for line in _wrap(_player_line(view, p), width)]
    for text in _pool_lines(view):
        lines += [(None, line) for line in _wrap(text, width)]
    lines += [(None, line) for line in _wrap(SHAPES, width)]
    return lines


def _legend(lines: list[tuple[Any, str]], x: float, y: float, font: float) -> list[str]:
    out = []
    step = font + 8
    for i, (colour, text) in enumerate(lines):
        if i:
            y += step
        if colour is not None:
            fill, _ = _fill(colour)
            out.append(f'<rect x="{x:.1f}" y="{y - font:.1f}" width="{font:.1f}" '
                       f'height="{font:.1f}" fill={quoteattr(fill)} stroke="#333333"/>')
        weight = ' font-weight="bold"' if i == 0 else ""
        left = x if i == 0 else x + font + 6
        out.append(f'<text x="{left:.1f}" y="{y:.1f}" font-size="{font * 0.9:.1f}"{weight}>'
                   f"{escape(text)}</text>")
    return out

