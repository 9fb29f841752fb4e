"""What a replay viewer or a client draws over a board picture, shared by every game's
``render_svg``: highlighted locations (the last move), small labelled badges (suggestion
ranks) and arrows (an army's move).

A game's renderer says where each of its locations is drawn -- a :class:`Spot` a location
id (a square ``"c2"``, a city ``"roma"``, a territory, a sea space...) -- and
:func:`overlay` draws the three layers on top of the picture.  Every element it adds
carries a class (``br-highlight``, ``br-mark``, ``br-arrow``) and a ``data-location``
attribute (an arrow's also ``data-from`` and ``data-to``), for tests and browser code to
find them.  Nothing is drawn, and the picture stays byte for byte what it was, when all
three are empty.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

#: The ink of every overlay (a magenta no board uses), and the halo under it.
INK = "#d4157a"
HALO = "#ffffff"
#: A badge's label is short: a rank, a score.
MAX_LABEL = 8

Highlight = tuple[str, ...]
Marks = tuple[tuple[str, str], ...]
Arrows = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Spot:
    """Where a location is drawn: ``shape`` its outline (an SVG element's tag and its
    geometry attributes, drawn unfilled to highlight it), ``centre`` where arrows start
    and end, ``badge`` the centre of its badge."""

    shape: str
    centre: tuple[float, float]
    badge: tuple[float, float]

    @classmethod
    def rect(cls, x: float, y: float, width: float, height: float,
             inset: float = 0.0) -> Spot:
        """A rectangle (a square of a grid, a sea space's cell), its outline ``inset``
        pixels inside it; the badge at its top-left corner."""
        return cls(f'rect x="{x + inset:.1f}" y="{y + inset:.1f}" '
                   f'width="{width - 2 * inset:.1f}" height="{height - 2 * inset:.1f}"',
                   (x + width / 2, y + height / 2), (x + width * 0.16, y + height * 0.16))

    @classmethod
    def circle(cls, cx: float, cy: float, r: float) -> Spot:
        """A disc (a city, a region drawn without an outline); the badge up-left of it."""
        d = r * 0.75
        return cls(f'circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}"', (cx, cy),
                   (cx - d, cy - d))

    @classmethod
    def polygon(cls, points: Iterable[tuple[float, float]], label: tuple[float, float],
                badge: tuple[float, float] | None = None) -> Spot:
        """A polygon (a territory's outline), arrows at its label point ``label``, the
        badge at ``badge`` (``None``: just above the label)."""
        text = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        return cls(f'polygon points="{text}"', label,
                   badge if badge is not None else (label[0], label[1] - 18))

    @classmethod
    def segment(cls, x1: float, y1: float, x2: float, y2: float) -> Spot:
        """A line (a palisade's gap between two squares); badge and arrows at its middle."""
        middle = ((x1 + x2) / 2, (y1 + y2) / 2)
        return cls(f'line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"',
                   middle, middle)


def check_overlays(game: str, spots: Mapping[str, Spot], highlight: object, marks: object,
                   arrows: object) -> tuple[Highlight, Marks, Arrows]:
    """The three overlays as tuples, checked: ``TypeError`` for a value of the wrong
    shape, ``ValueError`` naming every location ``spots`` does not have (and for a badge
    label that is empty or too long, or an arrow from a location to itself)."""
    shown = tuple(_location(x, "highlight") for x in _items(highlight, "highlight"))
    badges = tuple((_location(a, "marks"), _label(b))
                   for a, b in (_pair(x, "marks") for x in _items(marks, "marks")))
    lines = tuple((_location(a, "arrows"), _location(b, "arrows"))
                  for a, b in (_pair(x, "arrows") for x in _items(arrows, "arrows")))
    named = [*shown, *(loc for loc, _ in badges), *(loc for pair in lines for loc in pair)]
    unknown = sorted({loc for loc in named if loc not in spots})
    if unknown:
        raise ValueError(f"unknown {game} location{'s' if len(unknown) > 1 else ''}: "
                         + ", ".join(repr(loc) for loc in unknown))
    for a, b in lines:
        if a == b:
            raise ValueError(f"an arrow joins two locations, not {a!r} with itself")
    return shown, badges, lines


def _items(value: object, what: str) -> tuple[object, ...]:
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise TypeError(f"{what} must be a sequence, not {type(value).__name__}")
    return tuple(value)


def _location(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"a location of {what} is a str, not {type(value).__name__}")
    return str.__str__(value)


def _pair(value: object, what: str) -> tuple[object, object]:
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise TypeError(f"each of {what} is a pair, not {type(value).__name__}")
    pair = tuple(value)
    if len(pair) != 2:
        raise TypeError(f"each of {what} is a pair, not {len(pair)} values")
    return pair[0], pair[1]


def _label(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"a mark's label is a str, not {type(value).__name__}")
    label = str.__str__(value)
    if not 1 <= len(label) <= MAX_LABEL:
        raise ValueError(f"a mark's label has 1 to {MAX_LABEL} characters: {label!r}")
    return label


def overlay(spots: Mapping[str, Spot], highlight: Highlight, marks: Marks, arrows: Arrows,
            unit: float) -> list[str]:
    """The SVG elements of the three overlays (checked by :func:`check_overlays`), to go
    just before ``</svg>``: highlights first, then arrows, then badges on top.  ``unit``
    sets their size (about a square's or a city's size in pixels)."""
    out: list[str] = []
    width = max(2.0, unit * 0.07)
    for loc in highlight:
        out.append(_highlight(loc, spots[loc], width))
    for a, b in arrows:
        out.append(_arrow(a, b, spots[a].centre, spots[b].centre, width, unit))
    for loc, label in marks:
        out.append(_badge(loc, label, spots[loc].badge, unit))
    return out


def _tagged(kind: str, loc: str) -> str:
    return f'class="{kind}" data-location={quoteattr(loc)}'


def _highlight(loc: str, spot: Spot, width: float) -> str:
    tag = _tagged("br-highlight", loc)
    common = 'fill="none" stroke-linejoin="round" stroke-linecap="round"'
    return (f"<g {tag}><title {tag}>{escape(loc)}</title>"
            f'<{spot.shape} {tag} {common} stroke="{HALO}" stroke-width="{width * 2.2:.1f}"/>'
            f'<{spot.shape} {tag} {common} stroke="{INK}" stroke-width="{width:.1f}"/></g>')


def _arrow(a: str, b: str, start: tuple[float, float], end: tuple[float, float],
           width: float, unit: float) -> str:
    """A shaft from ``a`` to ``b`` stopping short of both centres, and a head at ``b``."""
    (x1, y1), (x2, y2) = start, end
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    gap = min(unit * 0.3, length * 0.25)
    head = min(unit * 0.35, length * 0.4)
    sx, sy = x1 + ux * gap, y1 + uy * gap
    tx, ty = x2 - ux * gap, y2 - uy * gap       # the head's tip
    bx, by = tx - ux * head, ty - uy * head     # the middle of the head's base
    px, py = -uy * head * 0.5, ux * head * 0.5  # half the base, across the shaft
    tag = (f'{_tagged("br-arrow", a)} data-from={quoteattr(a)} data-to={quoteattr(b)}')
    shaft = f'x1="{sx:.1f}" y1="{sy:.1f}" x2="{bx:.1f}" y2="{by:.1f}"'
    points = f"{tx:.1f},{ty:.1f} {bx + px:.1f},{by + py:.1f} {bx - px:.1f},{by - py:.1f}"
    return (f"<g {tag}><title {tag}>{escape(f'{a} to {b}')}</title>"
            f'<line {tag} {shaft} stroke="{HALO}" stroke-width="{width * 2.6:.1f}" '
            'stroke-linecap="round"/>'
            f'<line {tag} {shaft} stroke="{INK}" stroke-width="{width * 1.3:.1f}" '
            'stroke-linecap="round"/>'
            f'<polygon {tag} points="{points}" fill="{INK}" stroke="{HALO}" '
            'stroke-width="1" stroke-linejoin="round"/></g>')


def _badge(loc: str, label: str, at: tuple[float, float], unit: float) -> str:
    """A rounded badge centred at ``at``, as wide as its label needs."""
    r = max(6.0, unit * 0.14)
    font = r * 1.25
    width = max(2 * r, len(label) * font * 0.62 + r)
    x, y = at
    tag = _tagged("br-mark", loc)
    return (f"<g {tag}><title {tag}>{escape(f'{loc}: {label}')}</title>"
            f'<rect {tag} x="{x - width / 2:.1f}" y="{y - r:.1f}" width="{width:.1f}" '
            f'height="{2 * r:.1f}" rx="{r:.1f}" fill="{INK}" stroke="{HALO}" '
            'stroke-width="1.5"/>'
            f'<text {tag} x="{x:.1f}" y="{y + font * 0.36:.1f}" font-size="{font:.1f}" '
            f'font-weight="bold" text-anchor="middle" fill="{HALO}">{escape(label)}</text>'
            "</g>")
