"""Rome & Carthage maps as data: cities, the empire each belongs to, land and sea routes.

Map files live in ``boards/`` (``mediterranean`` is the project's reconstruction: no
public source gives the printed map).  A user may pass the name of a shipped map, the
path of a map file of his own, or the same content as a mapping; every field is checked
and a bad one raises :class:`~boardrules.errors.BoardDataError` naming it.

City order.  The file may list its cities in any order; the loader sorts them by
(empire in :data:`EMPIRES` order, capital first, then file order).  So city index 0 is
Rome's capital, each empire's cities are contiguous and begin with its capital, and
:attr:`Board.cities`, :meth:`Board.to_json` and the rules core all use that order.
Links are unordered pairs, stored as ``(i, j)`` with ``i < j``, sorted.

What a map must satisfy (besides the types of its fields): four empires, each with
exactly one capital and at least :data:`MIN_EMPIRE_CITIES` cities (seven armies, one a
city, at placement); at most :data:`MAX_CITIES` cities; unique keys (the move
notation's city names, so no reserved word of the notation) and unique names; a land
route only between two cities of the same island (or two mainland cities), a sea route
only between two ports; every port on at least one sea route; no route joining two
capitals; every city reachable from every other by land and sea routes together.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from boardrules.errors import BoardDataError
from boardrules.games.board_files import load_board_spec, shipped_names

BOARDS_DIR = Path(__file__).parent / "boards"
DEFAULT_BOARD = "mediterranean"
#: The empires, in their fixed index order (empire 0 is Rome).
EMPIRES: tuple[str, ...] = ("rome", "carthage", "byzantium", "alexandria")
MAX_CITIES = 64
#: An empire places its 7 armies on its own cities, one a city (setup, turns 1 and 2).
MIN_EMPIRE_CITIES = 7
#: The drawing box: ``x`` in 0 .. MAP_WIDTH, ``y`` in 0 .. MAP_HEIGHT (y downwards).
MAP_WIDTH = 1000
MAP_HEIGHT = 700
MAX_BOARD_FILE_BYTES = 200_000
MAX_NAME = 64
KEY_PATTERN = re.compile(r"[a-z][a-z0-9_]{1,15}")
#: Words of the move notation a city key may not be.
RESERVED_KEYS = frozenset({
    "pass", "done", "treason", "withdraw", "agree", "refuse", "ally", "pay", "give",
    "battle", "uprising", "draw", "place", "replay"})
FIELDS = ("format", "format_version", "game", "name", "title", "provenance", "sources",
          "cities", "land", "sea")
CITY_FIELDS = ("key", "name", "empire", "capital", "port", "island", "x", "y")
PROVENANCES = ("published", "reconstructed", "user")


@dataclass(frozen=True)
class City:
    """One city.  ``empire`` is an index into :data:`EMPIRES`; ``island`` is the name
    of its island, or ``None`` on the mainland; ``x``, ``y`` place it for drawing."""

    key: str
    name: str
    empire: int
    capital: bool
    port: bool
    island: str | None
    x: float
    y: float


@dataclass(frozen=True)
class Board:
    """A validated map.  Cities are in loading order (see the module docstring); links
    are pairs of city indices ``(i, j)``, ``i < j``, sorted."""

    name: str
    title: str
    provenance: str
    sources: tuple[str, ...]
    cities: tuple[City, ...]
    land: tuple[tuple[int, int], ...]
    sea: tuple[tuple[int, int], ...]
    _keys: dict[str, int] = field(init=False, repr=False, compare=False)
    _land_adj: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    _sea_adj: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Derived lookups, built once (the dataclass is frozen, hence object.__setattr__).
        object.__setattr__(self, "_keys", {c.key: i for i, c in enumerate(self.cities)})
        object.__setattr__(self, "_land_adj", _adjacency(len(self.cities), self.land))
        object.__setattr__(self, "_sea_adj", _adjacency(len(self.cities), self.sea))

    def capital(self, empire: int) -> int:
        """The index of ``empire``'s capital."""
        for i, city in enumerate(self.cities):
            if city.empire == empire and city.capital:
                return i
        raise ValueError(f"no empire {empire!r} on board {self.name!r} "
                         f"(empires are 0 .. {len(EMPIRES) - 1})")

    def cities_of(self, empire: int) -> tuple[int, ...]:
        """The indices of ``empire``'s cities, its capital first."""
        return tuple(i for i, c in enumerate(self.cities) if c.empire == empire)

    def index(self, key: str) -> int:
        """The index of the city called ``key``; ``KeyError`` if there is none."""
        try:
            return self._keys[key]
        except (KeyError, TypeError):
            raise KeyError(f"no city {key!r} on board {self.name!r}") from None

    def land_neighbours(self, city: int) -> tuple[int, ...]:
        """Cities one land route from ``city``, in index order."""
        return self._land_adj[city]

    def sea_neighbours(self, city: int) -> tuple[int, ...]:
        """Cities one sea route from ``city``, in index order (empty unless a port)."""
        return self._sea_adj[city]

    def to_json(self) -> dict[str, Any]:
        """The map as a file's content (cities in loading order); ``parse_board`` of it
        gives an equal board."""
        return {
            "format": "boardrules-board",
            "format_version": 1,
            "game": "rome_and_carthage",
            "name": self.name,
            "title": self.title,
            "provenance": self.provenance,
            "sources": list(self.sources),
            "cities": [{"key": c.key, "name": c.name, "empire": EMPIRES[c.empire],
                        "capital": c.capital, "port": c.port, "island": c.island,
                        "x": c.x, "y": c.y} for c in self.cities],
            "land": [[self.cities[i].key, self.cities[j].key] for i, j in self.land],
            "sea": [[self.cities[i].key, self.cities[j].key] for i, j in self.sea],
        }


def _adjacency(n: int, links: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], ...]:
    adj: list[list[int]] = [[] for _ in range(n)]
    for i, j in links:
        adj[i].append(j)
        adj[j].append(i)
    return tuple(tuple(sorted(a)) for a in adj)


def shipped_boards() -> list[str]:
    """Names of the maps that come with the library."""
    return shipped_names(BOARDS_DIR)


def load_board(spec: str | os.PathLike[str] | Mapping[str, Any]) -> Board:
    """A map by shipped name, file path, or as a mapping of the file's fields."""
    return load_board_spec(spec, BOARDS_DIR, MAX_BOARD_FILE_BYTES, parse_board)


# --- validation ------------------------------------------------------------------------

def _field(data: Mapping[str, Any], key: str, kind: type, where: str,
           label: str | None = None) -> Any:
    """``data[key]`` checked to be a ``kind`` (an int is never a bool)."""
    label = label or key
    if key not in data:
        raise BoardDataError(f"{where}: missing field {label!r}")
    value = data[key]
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise BoardDataError(f"{where}: field {label!r} must be an integer")
    if not isinstance(value, kind):
        raise BoardDataError(f"{where}: field {label!r} must be of type {kind.__name__}")
    return value


def _known_fields(data: Mapping[str, Any], allowed: tuple[str, ...], where: str,
                  prefix: str = "") -> None:
    unknown = [k for k in data if k not in allowed]
    if unknown:
        names = sorted(f"{prefix}{k}" if isinstance(k, str) else repr(k) for k in unknown)
        raise BoardDataError(f"{where}: unknown field(s) {names}")


def _text(data: Mapping[str, Any], key: str, where: str, label: str | None = None,
          *, empty: bool = False) -> str:
    value: str = _field(data, key, str, where, label)
    label = label or key
    if not empty and not value.strip():
        raise BoardDataError(f"{where}: field {label!r} must not be empty")
    if len(value) > MAX_NAME:
        raise BoardDataError(f"{where}: field {label!r} must be at most {MAX_NAME} "
                             "characters")
    return value


def parse_board(doc: Mapping[str, Any], where: str) -> Board:
    """Validate the fields of a map file (see the module docstring) and build the
    :class:`Board`, cities sorted into loading order."""
    if not isinstance(doc, Mapping):
        raise BoardDataError(f"{where}: a board is a JSON object")
    _known_fields(doc, FIELDS, where)
    if _field(doc, "format", str, where) != "boardrules-board":
        raise BoardDataError(f"{where}: field 'format' must be 'boardrules-board'")
    if _field(doc, "format_version", int, where) != 1:
        raise BoardDataError(f"{where}: field 'format_version' must be 1")
    if _field(doc, "game", str, where) != "rome_and_carthage":
        raise BoardDataError(f"{where}: field 'game' must be 'rome_and_carthage'")
    name = _text(doc, "name", where)
    title: str = _field(doc, "title", str, where)
    provenance = _field(doc, "provenance", str, where)
    if provenance not in PROVENANCES:
        raise BoardDataError(
            f"{where}: field 'provenance' must be 'published', 'reconstructed' or 'user'")
    sources = _field(doc, "sources", list, where)
    if not all(isinstance(s, str) for s in sources):
        raise BoardDataError(f"{where}: field 'sources' must be a list of strings")
    cities = _parse_cities(_field(doc, "cities", list, where), where)
    keys = {c.key: i for i, c in enumerate(cities)}
    land = _parse_links(_field(doc, "land", list, where), "land", keys, where)
    sea = _parse_links(_field(doc, "sea", list, where), "sea", keys, where)
    _check_routes(cities, land, sea, where)
    order = sorted(range(len(cities)),
                   key=lambda i: (cities[i].empire, not cities[i].capital, i))
    new_index = {old: new for new, old in enumerate(order)}

    def renumber(links: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
        pairs = (sorted((new_index[a], new_index[b])) for a, b in links)
        return tuple(sorted((p[0], p[1]) for p in pairs))

    return Board(name, title, provenance, tuple(sources),
                 tuple(cities[i] for i in order), renumber(land), renumber(sea))


def _parse_cities(raw: list[Any], where: str) -> list[City]:
    if len(raw) > MAX_CITIES:
        raise BoardDataError(
            f"{where}: field 'cities' lists {len(raw)} cities, at most {MAX_CITIES}")
    cities = [_parse_city(c, i, where) for i, c in enumerate(raw)]
    seen_keys: set[str] = set()
    seen_names: set[str] = set()
    for i, city in enumerate(cities):
        if city.key in seen_keys:
            raise BoardDataError(f"{where}: field 'cities[{i}].key' repeats {city.key!r}")
        folded = city.name.casefold()
        if folded in seen_names:
            raise BoardDataError(
                f"{where}: field 'cities[{i}].name' repeats {city.name!r}")
        seen_keys.add(city.key)
        seen_names.add(folded)
    for e, empire in enumerate(EMPIRES):
        own = [i for i, c in enumerate(cities) if c.empire == e]
        capitals = [i for i in own if cities[i].capital]
        if not capitals:
            raise BoardDataError(f"{where}: field 'cities' gives empire {empire!r} no "
                                 "capital (a city with 'capital': true)")
        if len(capitals) > 1:
            raise BoardDataError(
                f"{where}: field 'cities[{capitals[1]}].capital' gives empire {empire!r} "
                f"a second capital ({cities[capitals[0]].key!r} is one)")
        if len(own) < MIN_EMPIRE_CITIES:
            raise BoardDataError(
                f"{where}: field 'cities' gives empire {empire!r} {len(own)} cities, it "
                f"needs at least {MIN_EMPIRE_CITIES} (one for each of its armies)")
    return cities


def _parse_city(raw: Any, i: int, where: str) -> City:
    at = f"cities[{i}]"
    if not isinstance(raw, Mapping):
        raise BoardDataError(f"{where}: field {at!r} must be an object")
    _known_fields(raw, CITY_FIELDS, where, prefix=f"{at}.")
    key = _field(raw, "key", str, where, f"{at}.key")
    if not KEY_PATTERN.fullmatch(key):
        raise BoardDataError(
            f"{where}: field '{at}.key' = {key!r} must be 2 to 16 of a-z, 0-9 and _, "
            "starting with a letter")
    if key in RESERVED_KEYS:
        raise BoardDataError(f"{where}: field '{at}.key' = {key!r} is a word of the "
                             "move notation")
    name = _text(raw, "name", where, f"{at}.name")
    empire = _field(raw, "empire", str, where, f"{at}.empire")
    if empire not in EMPIRES:
        raise BoardDataError(
            f"{where}: field '{at}.empire' = {empire!r} must be one of {list(EMPIRES)}")
    capital = _field(raw, "capital", bool, where, f"{at}.capital")
    port = _field(raw, "port", bool, where, f"{at}.port")
    if "island" not in raw:
        raise BoardDataError(f"{where}: missing field '{at}.island'")
    island = raw["island"]
    if island is not None:
        island = _text(raw, "island", where, f"{at}.island")
    x = _coordinate(raw, "x", MAP_WIDTH, where, at)
    y = _coordinate(raw, "y", MAP_HEIGHT, where, at)
    return City(key, name, EMPIRES.index(empire), capital, port, island, x, y)


def _coordinate(raw: Mapping[str, Any], axis: str, limit: int, where: str,
                at: str) -> float:
    label = f"{at}.{axis}"
    if axis not in raw:
        raise BoardDataError(f"{where}: missing field {label!r}")
    value = raw[axis]
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise BoardDataError(f"{where}: field {label!r} must be a number")
    if not (math.isfinite(value) and 0 <= value <= limit):
        raise BoardDataError(f"{where}: field {label!r} = {value!r} must be 0 to {limit}")
    return value


def _parse_links(raw: list[Any], kind: str, keys: Mapping[str, int],
                 where: str) -> list[tuple[int, int]]:
    links: list[tuple[int, int]] = []
    seen: set[frozenset[int]] = set()
    for n, link in enumerate(raw):
        at = f"{kind}[{n}]"
        if (not isinstance(link, list) or len(link) != 2
                or not all(isinstance(k, str) for k in link)):
            raise BoardDataError(f"{where}: field {at!r} must be a pair of city keys")
        a, b = link
        for k in (a, b):
            if k not in keys:
                raise BoardDataError(f"{where}: field {at!r} names unknown city {k!r}")
        if a == b:
            raise BoardDataError(f"{where}: field {at!r} joins {a!r} to itself")
        pair = frozenset((keys[a], keys[b]))
        if pair in seen:  # bounds the work too: at most 64 * 63 / 2 distinct pairs
            raise BoardDataError(f"{where}: field {at!r} repeats the route {a}-{b}")
        seen.add(pair)
        links.append((keys[a], keys[b]))
    return links


def _check_routes(cities: list[City], land: list[tuple[int, int]],
                  sea: list[tuple[int, int]], where: str) -> None:
    """Route rules that involve the cities' properties (islands, ports, capitals)."""
    for n, (a, b) in enumerate(land):
        if cities[a].island != cities[b].island:
            raise BoardDataError(
                f"{where}: field 'land[{n}]' joins {cities[a].key!r} "
                f"({_place(cities[a])}) and {cities[b].key!r} ({_place(cities[b])}): a "
                "land route cannot leave an island")
    on_sea: set[int] = set()
    for n, (a, b) in enumerate(sea):
        for c in (a, b):
            if not cities[c].port:
                raise BoardDataError(f"{where}: field 'sea[{n}]' touches "
                                     f"{cities[c].key!r}, which is not a port")
        on_sea.update((a, b))
    for i, city in enumerate(cities):
        if city.port and i not in on_sea:
            raise BoardDataError(f"{where}: field 'sea' gives port {city.key!r} "
                                 f"(cities[{i}]) no sea route")
    for kind, links in (("land", land), ("sea", sea)):
        for n, (a, b) in enumerate(links):
            if cities[a].capital and cities[b].capital:
                raise BoardDataError(
                    f"{where}: field '{kind}[{n}]' joins two capitals, "
                    f"{cities[a].key!r} and {cities[b].key!r}")
    unreached = _unreached(len(cities), land + sea)
    if unreached:
        raise BoardDataError(
            f"{where}: fields 'land' and 'sea' leave {cities[unreached[0]].key!r} "
            f"unreachable from {cities[0].key!r} ({len(unreached)} cities cut off)")


def _place(city: City) -> str:
    return f"island {city.island}" if city.island is not None else "mainland"


def _unreached(n: int, links: list[tuple[int, int]]) -> list[int]:
    adj: list[list[int]] = [[] for _ in range(n)]
    for a, b in links:
        adj[a].append(b)
        adj[b].append(a)
    seen = {0}
    todo = [0]
    while todo:
        for nxt in adj[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return [i for i in range(n) if i not in seen]
