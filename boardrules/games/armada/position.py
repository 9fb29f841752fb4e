"""Armada positions as text: :func:`write` (the core's export -> text) and :func:`parse`
(text -> the dict the core's ``load`` checks).  The format is described field by field on
the docs page (docs/armada.rst, "Position format").

One ``key: value`` line a field; the board first (a line a territory, a line a ship),
then the cards, then the turn's counters.  Only the items that are there are written
(a territory with nothing on it reads ``-``); a key left out of hand-written text takes
its idle value (an empty territory -- a lair's keeps its printed flag --, a ship in the
box, no cards, no pending step).  The reserves, supplies, flag tokens used and the pile
are not written: they follow from the board and the hands (the core computes them).
What :func:`write` gives is canonical: parsing it and writing again gives the same text.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from boardrules._ext.armada import (
    CARD_KINDS,
    COLOURS,
    END_REASONS,
    PHASES,
    PLACE_WHAT,
    ROUTE_KINDS,
)
from boardrules.errors import InvalidPositionError

HEADER = "armada position"
NONE = "-"
NOBODY = 255
BROWN = 4
SHIPS = 8
SHIP_PLACES = ("box", "city", "sea")
DRAW_REASONS = ("deal", "buy", "look")
LAIR_CITIES = ("first", "second", "third")


class Names:
    """The board's keys and the core's route list, for one game."""

    def __init__(self, territories: Sequence[str], seas: Sequence[str],
                 routes: Sequence[tuple[int, int, int]], players: int,
                 lairs: Sequence[int]) -> None:
        self.territories = list(territories)
        # the colour whose lair a territory is (-1: none): its printed flag when idle
        self.lairs = list(lairs)
        self.seas = list(seas)
        self.routes: list[tuple[int, int, int]] = [(r[0], r[1], r[2]) for r in routes]
        self.players = players

    def route_text(self, r: int) -> str:
        if r < 0:
            return NONE
        kind, a, b = self.routes[r]
        name = ROUTE_KINDS[kind]
        start = self.territories[a] if name in ("land", "load") else self.seas[a]
        end = self.territories[b] if name in ("land", "unload") else self.seas[b]
        return f"{name} {start}-{end}"

    def route_of(self, text: str) -> int:
        if text == NONE:
            return -1
        name, _, ends = text.partition(" ")
        start, _, end = ends.partition("-")
        if name not in ROUTE_KINDS:
            raise InvalidPositionError("route", f"{name!r} is not one of "
                                       f"{', '.join(ROUTE_KINDS)}")
        kind = ROUTE_KINDS.index(name)
        a = _index(self.territories if name in ("land", "load") else self.seas, start, "route")
        b = _index(self.territories if name in ("land", "unload") else self.seas, end, "route")
        try:
            return self.routes.index((kind, a, b))
        except ValueError:
            raise InvalidPositionError("route", f"no {name} link {start}-{end} on this "
                                       "board") from None


# ------------------------------------------------------------------ writing

def write(raw: dict[str, Any], names: Names) -> str:
    """The position text of a core export."""
    lines = [HEADER]
    for r, key in enumerate(names.territories):
        lines.append(f"territory {key}: {_territory_text(raw, r)}")
    for i in range(SHIPS):
        lines.append(f"ship {i}: {_ship_text(raw, i, names)}")
    for p in range(names.players):
        lines.append(f"hand {p}: {_cards_text(raw['hand'][p])}")
    lines.append(f"played: {_cards_text(raw['played'])}")
    lines.append(f"looked: {_cards_text(raw['looked'])}")
    for key, (to_text, _) in _COUNTERS.items():
        lines.append(f"{key}: {to_text(raw, names)}")
    return "\n".join(lines) + "\n"


def _territory_text(raw: dict[str, Any], r: int) -> str:
    items = []
    if raw["flag"][r] != NOBODY:
        items.append(f"flag={_flag_name(raw['flag'][r])}")
    if raw["bands"][r]:
        items.append(f"{COLOURS[raw['occ'][r]]}={raw['bands'][r]}")
    if raw["gold"][r]:
        items.append(f"gold={raw['gold'][r]}")
    if raw["natives"][r]:
        items.append(f"natives={raw['natives'][r]}")
    if raw["explored"][r]:
        items.append("explored")
    return " ".join(items) or NONE


def _ship_text(raw: dict[str, Any], i: int, names: Names) -> str:
    where = SHIP_PLACES[raw["ship_where"][i]]
    pos = raw["ship_pos"][i]
    items = [f"owner={COLOURS[raw['ship_owner'][i]]}"]
    if where == "city":
        items.append(f"city={names.territories[pos]}")
    elif where == "sea":
        items.append(f"sea={names.seas[pos]}")
    else:
        items.append("box" if pos == 0 else f"box={pos}")
    if raw["ship_bands"][i]:
        items.append(f"{COLOURS[raw['ship_crew'][i]]}={raw['ship_bands'][i]}")
    if raw["ship_gold"][i]:
        items.append(f"gold={raw['ship_gold'][i]}")
    if raw["captured"][i]:
        items.append("captured")
    return " ".join(items)


def _cards_text(counts: Sequence[int]) -> str:
    return " ".join(f"{kind}={n}" for kind, n in zip(CARD_KINDS, counts, strict=True)
                    if n) or NONE


def _flag_name(value: int) -> str:
    return "brown" if value == BROWN else COLOURS[value]


def _colours_text(flags: Sequence[bool]) -> str:
    return " ".join(c for c, on in zip(COLOURS, flags, strict=True) if on) or NONE


def _ints(values: Sequence[int]) -> str:
    return " ".join(str(v) for v in values)


# ------------------------------------------------------------------ parsing

def parse(text: str, names: Names) -> dict[str, Any]:
    """The export-form dict of position ``text`` (InvalidPositionError naming the field
    for what is not readable; the core checks the rest)."""
    lines = [line.strip() for line in text.splitlines()]
    lines = [line for line in lines if line and not line.startswith("#")]
    if not lines or lines[0] != HEADER:
        raise InvalidPositionError("header", f"a position starts with {HEADER!r}")
    fields: dict[str, str] = {}
    for line in lines[1:]:
        key, sep, value = line.partition(":")
        key = " ".join(key.split())
        if not sep:
            raise InvalidPositionError(key, "a line reads 'key: value'")
        if key in fields:
            raise InvalidPositionError(key, "given twice")
        fields[key] = " ".join(value.split())
    raw = _idle(names)
    for r, key in enumerate(names.territories):
        value = fields.pop(f"territory {key}", NONE)
        _read_territory(raw, r, value, f"territory {key}")
    for i in range(SHIPS):
        ship = fields.pop(f"ship {i}", None)
        if ship is not None:
            _read_ship(raw, i, ship, names, f"ship {i}")
    for p in range(names.players):
        raw["hand"][p] = _read_cards(fields.pop(f"hand {p}", NONE), f"hand {p}")
    raw["played"] = _read_cards(fields.pop("played", NONE), "played")
    raw["looked"] = _read_cards(fields.pop("looked", NONE), "looked")
    for key, (_, reader) in _COUNTERS.items():
        if key in fields:
            reader(raw, fields.pop(key), names)
    if fields:
        key = next(iter(fields))
        raise InvalidPositionError(key, "no such field in an Armada position (see the "
                                   "docs' Position format)")
    return raw


def _idle(names: Names) -> dict[str, Any]:
    """What a field left out reads as: nothing on the board, no cards, no pending step."""
    n = len(names.territories)
    return {
        "flag": [NOBODY if c < 0 else c for c in names.lairs], "occ": [NOBODY] * n,
        "bands": [0] * n, "gold": [0] * n, "natives": [0] * n, "explored": [False] * n,
        "ship_where": [0] * SHIPS, "ship_pos": [0] * SHIPS,
        "ship_owner": [i // 2 for i in range(SHIPS)], "ship_crew": [NOBODY] * SHIPS,
        "ship_bands": [0] * SHIPS, "ship_gold": [0] * SHIPS, "captured": [False] * SHIPS,
        "hand": [[0] * len(CARD_KINDS) for _ in range(names.players)],
        "played": [0] * len(CARD_KINDS), "looked": [0] * len(CARD_KINDS),
        "phase": PHASES.index("turn"), "round": 1, "current": 0, "turn_colour": 0,
        "acting": 0, "ap": 10, "saved_ap": 0, "in_coup": False,
        "recruited": [False] * len(COLOURS), "option": [False] * len(COLOURS),
        "window": [0, 0], "route": -1, "move_bands": 0, "roll": [0, 0],
        "target_colour": 0, "explore_t": 0, "multiplier": 0, "place_what": 0,
        "place_amount": 0, "place_queue": [0] * (len(COLOURS) + 1), "place_min": 0,
        "place_first": NOBODY, "rolls_left": 0, "draw_reason": 0, "drawer": 0,
        "last_looked": 0, "setup_index": 0, "setup_left": 0, "first_ship_city": NOBODY,
        "winners": [], "end_reason": 0, "move_count": 0, "last_action": -1,
    }


def _items(value: str, field: str) -> list[tuple[str, str | None]]:
    if value == NONE:
        return []
    out = []
    for item in value.split(" "):
        name, sep, amount = item.partition("=")
        out.append((name, amount if sep else None))
    return out


def _count(text: str | None, field: str, name: str) -> int:
    if text is None or not text.isdigit() or len(text) > 3:
        raise InvalidPositionError(field, f"{name}=<count>, a whole number, not {text!r}")
    return int(text)


def _int(text: str, field: str, lo: int, hi: int) -> int:
    body = text[1:] if text.startswith("-") else text
    if not body.isdigit() or len(body) > 10:
        raise InvalidPositionError(field, f"a whole number, not {text!r}")
    value = int(text)
    if not lo <= value <= hi:
        raise InvalidPositionError(field, f"{value} is not in {lo}..{hi}")
    return value


def _index(choices: Sequence[str], text: str | None, field: str) -> int:
    if text is None or text not in choices:
        shown = ", ".join(choices) if len(choices) <= 16 else "a key of the board"
        raise InvalidPositionError(field, f"{text!r} is not {shown}")
    return list(choices).index(text)


def _once(seen: set[str], name: str, field: str) -> None:
    if name in seen:
        raise InvalidPositionError(field, f"{name} given twice")
    seen.add(name)


def _read_territory(raw: dict[str, Any], r: int, value: str, field: str) -> None:
    seen: set[str] = set()
    for name, amount in _items(value, field):
        _once(seen, "bands" if name in COLOURS else name, field)
        if name == "flag":
            raw["flag"][r] = _index((*COLOURS, "brown"), amount, field)
        elif name in COLOURS:
            raw["occ"][r] = COLOURS.index(name)
            raw["bands"][r] = _count(amount, field, name)
        elif name in ("gold", "natives"):
            raw[name][r] = _count(amount, field, name)
        elif name == "explored" and amount is None:
            raw["explored"][r] = True
        else:
            raise InvalidPositionError(field, f"{name!r}: flag=<colour|brown>, "
                                       "<colour>=<bands>, gold=<n>, natives=<n>, explored")


def _read_ship(raw: dict[str, Any], i: int, value: str, names: Names, field: str) -> None:
    seen: set[str] = set()
    for name, amount in _items(value, field):
        _once(seen, "place" if name in SHIP_PLACES else "bands" if name in COLOURS
              else name, field)
        if name == "owner":
            raw["ship_owner"][i] = _index(COLOURS, amount, field)
        elif name == "city":
            raw["ship_where"][i] = 1
            raw["ship_pos"][i] = _index(names.territories, amount, field)
        elif name == "sea":
            raw["ship_where"][i] = 2
            raw["ship_pos"][i] = _index(names.seas, amount, field)
        elif name == "box":
            raw["ship_where"][i] = 0
            raw["ship_pos"][i] = 0 if amount is None else _int(amount, field, 0, 255)
        elif name in COLOURS:
            raw["ship_crew"][i] = COLOURS.index(name)
            raw["ship_bands"][i] = _count(amount, field, name)
        elif name == "gold":
            raw["ship_gold"][i] = _count(amount, field, name)
        elif name == "captured" and amount is None:
            raw["captured"][i] = True
        else:
            raise InvalidPositionError(field, f"{name!r}: owner=<colour>, city=<territory>, "
                                       "sea=<space> or box, <colour>=<bands>, gold=<n>, "
                                       "captured")
    if "owner" not in seen:
        raise InvalidPositionError(field, "owner=<colour> is required")


def _read_cards(value: str, field: str) -> list[int]:
    counts = [0] * len(CARD_KINDS)
    seen: set[str] = set()
    for name, amount in _items(value, field):
        _once(seen, name, field)
        counts[_index(CARD_KINDS, name, field)] = _count(amount, field, name)
    return counts


def _words(value: str, n: int, field: str) -> list[str]:
    words = value.split(" ")
    if len(words) != n:
        raise InvalidPositionError(field, f"{n} values, not {len(words)}")
    return words


def _colour_set(value: str, field: str) -> list[bool]:
    on = [False] * len(COLOURS)
    for word in ([] if value == NONE else value.split(" ")):
        k = _index(COLOURS, word, field)
        if on[k]:
            raise InvalidPositionError(field, f"{word} given twice")
        on[k] = True
    return on


def _or_none(value: int, to_text: Callable[[int], str]) -> str:
    return NONE if value == NOBODY else to_text(value)


Writer = Callable[[dict[str, Any], Names], str]
Reader = Callable[[dict[str, Any], str, Names], None]


def _set(key: str, parse_value: Callable[[str, Names], Any]) -> Reader:
    def read(raw: dict[str, Any], value: str, names: Names) -> None:
        raw[key] = parse_value(value, names)
    return read


def _set_many(keys: tuple[str, ...], parse_value: Callable[[str, Names], tuple[Any, ...]]
              ) -> Reader:
    def read(raw: dict[str, Any], value: str, names: Names) -> None:
        for key, part in zip(keys, parse_value(value, names), strict=True):
            raw[key] = part
    return read


def _place(value: str, names: Names) -> tuple[int, int]:
    what, amount = _words(value, 2, "place")
    return _index(PLACE_WHAT, what, "place"), _int(amount, "place", 0, 255)


def _draw(value: str, names: Names) -> tuple[int, int]:
    reason, drawer = _words(value, 2, "draw")
    return (_index(DRAW_REASONS, reason, "draw"),
            _int(drawer, "draw", 0, names.players - 1))


def _setup(value: str, names: Names) -> tuple[int, int, int]:
    index, left, first = _words(value, 3, "setup")
    return (_int(index, "setup", 0, 7), _int(left, "setup", 0, 50),
            NOBODY if first == NONE else _index(LAIR_CITIES, first, "setup"))


def _winners(value: str, names: Names) -> list[int]:
    if value == NONE:
        return []
    return sorted({_int(w, "winners", 0, names.players - 1) for w in value.split(" ")})


def _flag_or_none(value: str, field: str) -> int:
    return NOBODY if value == NONE else _index((*COLOURS, "brown"), value, field)


def _territory_or_none(value: str, names: Names, field: str) -> int:
    return NOBODY if value == NONE else _index(names.territories, value, field)


def _yes_no(value: str, field: str) -> bool:
    if value not in ("yes", "no"):
        raise InvalidPositionError(field, f"yes or no, not {value!r}")
    return value == "yes"


# The turn's counters: key -> (write, read), in the order written.
_COUNTERS: dict[str, tuple[Writer, Reader]] = {
    "phase": (lambda raw, n: PHASES[raw["phase"]],
              _set("phase", lambda v, n: _index(PHASES, v, "phase"))),
    "round": (lambda raw, n: str(raw["round"]),
              _set("round", lambda v, n: _int(v, "round", 1, 10_000))),
    "current": (lambda raw, n: str(raw["current"]),
                _set("current", lambda v, n: _int(v, "current", 0, n.players - 1))),
    "turn": (lambda raw, n: COLOURS[raw["turn_colour"]],
             _set("turn_colour", lambda v, n: _index(COLOURS, v, "turn"))),
    "acting": (lambda raw, n: COLOURS[raw["acting"]],
               _set("acting", lambda v, n: _index(COLOURS, v, "acting"))),
    "actions": (lambda raw, n: str(raw["ap"]),
                _set("ap", lambda v, n: _int(v, "actions", 0, 255))),
    "saved_actions": (lambda raw, n: str(raw["saved_ap"]),
                      _set("saved_ap", lambda v, n: _int(v, "saved_actions", 0, 255))),
    "coup": (lambda raw, n: "yes" if raw["in_coup"] else "no",
             _set("in_coup", lambda v, n: _yes_no(v, "coup"))),
    "recruited": (lambda raw, n: _colours_text(raw["recruited"]),
                  _set("recruited", lambda v, n: _colour_set(v, "recruited"))),
    "victory_options": (lambda raw, n: _colours_text(raw["option"]),
                        _set("option", lambda v, n: _colour_set(v, "victory_options"))),
    "window": (lambda raw, n: _ints(raw["window"]),
               _set("window", lambda v, n: [_int(w, "window", 0, 3)
                                            for w in _words(v, 2, "window")])),
    "route": (lambda raw, n: n.route_text(raw["route"]),
              _set("route", lambda v, n: n.route_of(v))),
    "move_bands": (lambda raw, n: str(raw["move_bands"]),
                   _set("move_bands", lambda v, n: _int(v, "move_bands", 0, 50))),
    "roll": (lambda raw, n: _ints(raw["roll"]),
             _set("roll", lambda v, n: [_int(w, "roll", 0, 3) for w in _words(v, 2, "roll")])),
    "target": (lambda raw, n: _or_none(raw["target_colour"], _flag_name),
               _set("target_colour", lambda v, n: _flag_or_none(v, "target"))),
    "explore": (lambda raw, n: n.territories[raw["explore_t"]],
                _set("explore_t", lambda v, n: _index(n.territories, v, "explore"))),
    "multiplier": (lambda raw, n: str(raw["multiplier"]),
                   _set("multiplier", lambda v, n: _int(v, "multiplier", 0, 4))),
    "place": (lambda raw, n: f"{PLACE_WHAT[raw['place_what']]} {raw['place_amount']}",
              _set_many(("place_what", "place_amount"), _place)),
    "place_queue": (lambda raw, n: _ints(raw["place_queue"]),
                    _set("place_queue", lambda v, n: [_int(w, "place_queue", 0, 50)
                                                      for w in _words(v, 5, "place_queue")])),
    "place_min": (lambda raw, n: str(raw["place_min"]),
                  _set("place_min", lambda v, n: _int(v, "place_min", 0, 255))),
    "place_first": (lambda raw, n: _or_none(raw["place_first"],
                                            lambda r: n.territories[r]),
                    _set("place_first", lambda v, n: _territory_or_none(v, n, "place_first"))),
    "rolls_left": (lambda raw, n: str(raw["rolls_left"]),
                   _set("rolls_left", lambda v, n: _int(v, "rolls_left", 0, 2))),
    "draw": (lambda raw, n: f"{DRAW_REASONS[raw['draw_reason']]} {raw['drawer']}",
             _set_many(("draw_reason", "drawer"), _draw)),
    "last_looked": (lambda raw, n: CARD_KINDS[raw["last_looked"]],
                    _set("last_looked", lambda v, n: _index(CARD_KINDS, v, "last_looked"))),
    "setup": (lambda raw, n: f"{raw['setup_index']} {raw['setup_left']} "
                             f"{_or_none(raw['first_ship_city'], LAIR_CITIES.__getitem__)}",
              _set_many(("setup_index", "setup_left", "first_ship_city"), _setup)),
    "winners": (lambda raw, n: _ints(raw["winners"]) or NONE,
                _set("winners", _winners)),
    "end": (lambda raw, n: END_REASONS[raw["end_reason"]] or NONE,
            _set("end_reason", lambda v, n: 0 if v == NONE else
                 _index(END_REASONS[1:], v, "end") + 1)),
    "move_count": (lambda raw, n: str(raw["move_count"]),
                   _set("move_count", lambda v, n: _int(v, "move_count", 0, 2**31 - 1))),
    "last_action": (lambda raw, n: str(raw["last_action"]),
                    _set("last_action", lambda v, n: _int(v, "last_action", -1, 2**31 - 1))),
}
