"""Armada boards as data: the archipelago's islands, territories, sea spaces and the links
between them.

Board files live in ``boards/`` (``archipelago`` is the project's reconstruction: no
public source gives the printed board).  A user may pass the name of a shipped board, the
path of a board file of his own, or the same content as a mapping; every field is checked
and a bad one raises :class:`~boardrules.errors.BoardDataError` naming it
(``territories[3].city: ...``).

Order is file order: territory index ``i`` is the ``i``-th entry of ``territories``, and
likewise for ``seas`` and ``islands``, in the :class:`Board`, :meth:`Board.to_json` and
the rules core alike.  ``land`` pairs (two territories) and ``sea`` pairs (two sea
spaces) are unordered, stored as ``(i, j)`` with ``i < j``, sorted; ``coast`` pairs are
``(sea, territory)``, sorted.

Islands belong to a group (:data:`GROUPS`): the ``central`` island, the two ``neighbour``
islands next to it (together "the central island and its two neighbouring islands" of the
rules, where gold and natives are found) and each colour's lair (:data:`COLOURS`).

What a board must satisfy (besides the types of its fields), from the rulebook's "Game
Board" section: exactly one central island and two neighbouring islands, carrying
:data:`CENTRAL_TERRITORIES` territories; three islands per colour, carrying
:data:`LAIR_TERRITORIES` territories of which :data:`LAIR_CITIES` are cities; cities only
in lairs; the five trading posts (:data:`TRADING_POSTS`), one of each, all on the central
island; every island's territories connected by land; land pairs only within one island;
every sea space reachable from every other; every island with a coastal territory (one a
sea space adjoins); every city and trading post coastal; ``farthest`` naming, for each
colour, another colour.  At most :data:`MAX_TERRITORIES` territories and
:data:`MAX_SEAS` sea spaces; unique keys across islands, territories and seas (the move
notation's names, so no :data:`RESERVED_KEYS` word).  The geography (lairs in the
corners, the central trading post reached only through a narrow bay) is a property of
the shipped board, not checked here.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from boardrules.errors import BoardDataError
from boardrules.games.board_files import (
    MAX_BOARD_FILE_BYTES,
    MAX_TEXT,
    coordinate,
    fail,
    get_field,
    known_fields,
    load_board_spec,
    outline_field,
    shipped_names,
    text_field,
)
from boardrules.games.board_files import key_field as shared_key_field

BOARDS_DIR = Path(__file__).parent / "boards"
DEFAULT_BOARD = "archipelago"
#: The colours, in their fixed turn order (rulebook, "Allocation and Turn Order").
COLOURS: tuple[str, ...] = ("green", "raspberry", "blue", "orange")
#: Island groups: the central island, its two neighbours, or a colour's lair.
GROUPS: tuple[str, ...] = ("central", "neighbour", *COLOURS)
#: The trading posts, in their fixed index order (the central one first).
TRADING_POSTS: tuple[str, ...] = ("central", "north", "south", "east", "west")
CENTRAL_TERRITORIES = 24
LAIR_ISLANDS = 3
LAIR_TERRITORIES = 7
LAIR_CITIES = 3
NEIGHBOUR_ISLANDS = 2
MAX_TERRITORIES = 64
MAX_SEAS = 128
MAX_OUTLINE_POINTS = 200
#: The drawing box: ``x`` in 0 .. MAP_WIDTH, ``y`` in 0 .. MAP_HEIGHT (y downwards).
MAP_WIDTH = 1000
MAP_HEIGHT = 1000
#: Board, dice and deck files alike.
MAX_FILE_BYTES = MAX_BOARD_FILE_BYTES
MAX_NAME = MAX_TEXT
MAX_SOURCES = 64
MAX_SOURCE_CHARS = 2000
#: Words of the move notation a key (island, territory, sea space, card) may not be.
RESERVED_KEYS = frozenset({
    "launch", "load", "unload", "move", "ship", "explore", "attack", "fight", "scuttle",
    "convert", "recruit", "buy", "play", "pass", "end", "done", "gold", "band", "bands",
    "natives", "flag", "card", "die", "dice", "green", "raspberry", "blue", "orange",
    "brown", "sail", "deploy", "destroy", "place", "take", "look", "decline", "hits",
    "find", "spears", "draw", "special"})
HEADER_FIELDS = ("format", "format_version", "game", "name", "title", "provenance",
                 "sources")
FIELDS = (*HEADER_FIELDS, "islands", "territories", "seas", "land", "sea", "coast",
          "farthest")
ISLAND_FIELDS = ("key", "name", "group")
TERRITORY_FIELDS = ("key", "name", "island", "city", "trading_post", "x", "y", "outline")
SEA_FIELDS = ("key", "x", "y")
PROVENANCES = ("published", "reconstructed", "user")


@dataclass(frozen=True)
class Island:
    """One island: ``group`` is ``"central"``, ``"neighbour"`` or the colour whose lair
    it is part of."""

    key: str
    name: str
    group: str


@dataclass(frozen=True)
class Territory:
    """One territory.  ``island`` is an island index; ``trading_post`` is one of
    :data:`TRADING_POSTS` or ``None``; ``x``, ``y`` place its label and ``outline`` (a
    polygon, or ``None``) its area for drawing."""

    key: str
    name: str
    island: int
    city: bool
    trading_post: str | None
    x: float
    y: float
    outline: tuple[tuple[float, float], ...] | None


@dataclass(frozen=True)
class Sea:
    """One sea space, placed at ``x``, ``y`` for drawing."""

    key: str
    x: float
    y: float


@dataclass(frozen=True)
class Board:
    """A validated board.  Islands, territories and seas are in file order; ``land`` and
    ``sea`` are index pairs ``(i, j)``, ``i < j``, sorted; ``coast`` is ``(sea,
    territory)`` pairs, sorted; ``farthest_lairs`` is ``(colour, farthest colour)`` in
    :data:`COLOURS` order."""

    name: str
    title: str
    provenance: str
    sources: tuple[str, ...]
    islands: tuple[Island, ...]
    territories: tuple[Territory, ...]
    seas: tuple[Sea, ...]
    land: tuple[tuple[int, int], ...]
    sea: tuple[tuple[int, int], ...]
    coast: tuple[tuple[int, int], ...]
    farthest_lairs: tuple[tuple[str, str], ...]
    _keys: dict[str, tuple[str, int]] = field(init=False, repr=False, compare=False)
    _land_adj: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    _sea_adj: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    _shore: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    _coast_of: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Derived lookups, built once (the dataclass is frozen, hence object.__setattr__).
        keys: dict[str, tuple[str, int]] = {}
        for kind, names in (("island", [x.key for x in self.islands]),
                            ("territory", [x.key for x in self.territories]),
                            ("sea", [x.key for x in self.seas])):
            keys.update({key: (kind, i) for i, key in enumerate(names)})
        object.__setattr__(self, "_keys", keys)
        object.__setattr__(self, "_land_adj", _adjacency(len(self.territories), self.land))
        object.__setattr__(self, "_sea_adj", _adjacency(len(self.seas), self.sea))
        shore: list[list[int]] = [[] for _ in self.seas]
        coast_of: list[list[int]] = [[] for _ in self.territories]
        for s, t in self.coast:
            shore[s].append(t)
            coast_of[t].append(s)
        object.__setattr__(self, "_shore", tuple(tuple(sorted(a)) for a in shore))
        object.__setattr__(self, "_coast_of", tuple(tuple(sorted(a)) for a in coast_of))

    # --- lookups by key ------------------------------------------------------------------

    def _index(self, kind: str, key: str) -> int:
        try:
            found_kind, i = self._keys[key]
        except (KeyError, TypeError):
            found_kind, i = "", -1
        if found_kind != kind:
            raise ValueError(f"no {kind} {key!r} on board {self.name!r}")
        return i

    def territory_index(self, key: str) -> int:
        """The index of the territory called ``key``; ``ValueError`` if there is none."""
        return self._index("territory", key)

    def sea_index(self, key: str) -> int:
        """The index of the sea space called ``key``; ``ValueError`` if there is none."""
        return self._index("sea", key)

    def island_index(self, key: str) -> int:
        """The index of the island called ``key``; ``ValueError`` if there is none."""
        return self._index("island", key)

    # --- groups, lairs, cities, trading posts --------------------------------------------

    def group_of(self, territory: int) -> str:
        """The group (one of :data:`GROUPS`) of the island ``territory`` is on."""
        return self.islands[self.territories[territory].island].group

    def lair_of(self, territory: int) -> str | None:
        """The colour whose lair ``territory`` is part of, or ``None`` (central group)."""
        group = self.group_of(territory)
        return group if group in COLOURS else None

    def lair(self, colour: str) -> tuple[int, ...]:
        """The territories of ``colour``'s lair, in index order."""
        _check_colour(colour)
        return tuple(i for i in range(len(self.territories)) if self.group_of(i) == colour)

    def central_group(self) -> tuple[int, ...]:
        """The territories of the central island and its two neighbouring islands (where
        gold and natives are found), in index order."""
        return tuple(i for i in range(len(self.territories))
                     if self.group_of(i) in ("central", "neighbour"))

    def cities(self, colour: str) -> tuple[int, ...]:
        """The city territories of ``colour``'s lair, in index order."""
        return tuple(i for i in self.lair(colour) if self.territories[i].city)

    def trading_posts(self) -> tuple[int, ...]:
        """The trading-post territories, in :data:`TRADING_POSTS` order (central first)."""
        return tuple(self.trading_post(name) for name in TRADING_POSTS)

    def trading_post(self, name: str) -> int:
        """The territory holding trading post ``name`` (one of :data:`TRADING_POSTS`)."""
        if name not in TRADING_POSTS:
            raise ValueError(f"trading post must be one of {list(TRADING_POSTS)}, "
                             f"not {name!r}")
        return next(i for i, t in enumerate(self.territories) if t.trading_post == name)

    def farthest(self, colour: str) -> str:
        """The colour whose lair is farthest from ``colour``'s (three-player rule)."""
        _check_colour(colour)
        return dict(self.farthest_lairs)[colour]

    # --- adjacency -----------------------------------------------------------------------

    def land_neighbours(self, territory: int) -> tuple[int, ...]:
        """Territories one land border from ``territory``, in index order."""
        return self._land_adj[territory]

    def sea_neighbours(self, sea: int) -> tuple[int, ...]:
        """Sea spaces adjoining sea space ``sea``, in index order."""
        return self._sea_adj[sea]

    def shore(self, sea: int) -> tuple[int, ...]:
        """Territories sea space ``sea`` adjoins (empty for an open-sea space)."""
        return self._shore[sea]

    def coast_of(self, territory: int) -> tuple[int, ...]:
        """Sea spaces adjoining ``territory`` (empty for a landlocked territory)."""
        return self._coast_of[territory]

    def coastal(self, sea: int) -> bool:
        """Whether sea space ``sea`` adjoins land (a coastal space, not open sea)."""
        return bool(self._shore[sea])

    def to_json(self) -> dict[str, Any]:
        """The board as a file's content; ``parse_board`` of it gives an equal board."""
        t, s = self.territories, self.seas
        return {
            "format": "boardrules-board",
            "format_version": 1,
            "game": "armada",
            "name": self.name,
            "title": self.title,
            "provenance": self.provenance,
            "sources": list(self.sources),
            "islands": [{"key": i.key, "name": i.name, "group": i.group}
                        for i in self.islands],
            "territories": [self._territory_json(x) for x in t],
            "seas": [{"key": x.key, "x": x.x, "y": x.y} for x in s],
            "land": [[t[i].key, t[j].key] for i, j in self.land],
            "sea": [[s[i].key, s[j].key] for i, j in self.sea],
            "coast": [[s[i].key, t[j].key] for i, j in self.coast],
            "farthest": dict(self.farthest_lairs),
        }

    def _territory_json(self, t: Territory) -> dict[str, Any]:
        out: dict[str, Any] = {"key": t.key, "name": t.name,
                               "island": self.islands[t.island].key, "city": t.city,
                               "trading_post": t.trading_post, "x": t.x, "y": t.y}
        if t.outline is not None:
            out["outline"] = [[px, py] for px, py in t.outline]
        return out


def _check_colour(colour: str) -> None:
    if colour not in COLOURS:
        raise ValueError(f"colour must be one of {list(COLOURS)}, not {colour!r}")


def _adjacency(n: int, links: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], ...]:
    adj: list[list[int]] = [[] for _ in range(n)]
    for i, j in links:
        adj[i].append(j)
        adj[j].append(i)
    return tuple(tuple(sorted(a)) for a in adj)


def _reached(adj: tuple[tuple[int, ...], ...], start: int,
             allowed: frozenset[int] | None = None) -> set[int]:
    """The nodes reachable from ``start`` (through ``allowed`` nodes only, if given)."""
    seen = {start}
    todo = deque([start])
    while todo:
        here = todo.popleft()
        for nxt in adj[here]:
            if nxt not in seen and (allowed is None or nxt in allowed):
                seen.add(nxt)
                todo.append(nxt)
    return seen


def shipped_boards() -> list[str]:
    """Names of the boards that come with the library."""
    return shipped_names(BOARDS_DIR)


def load_board(spec: str | os.PathLike[str] | Mapping[str, Any]) -> Board:
    """A board by shipped name, file path, or as a mapping of the file's fields."""
    return load_board_spec(spec, BOARDS_DIR, MAX_BOARD_FILE_BYTES, parse_board)


# --- validation helpers, shared with dice.py and deck.py (the field checks are
#     board_files.py's) -------------------------------------------------------------------









def key_field(data: Mapping[str, Any], where: str, label: str) -> str:
    """An entry's ``key``: the notation's name for it (never a word of the notation)."""
    return shared_key_field(data, where, label, RESERVED_KEYS)


@dataclass(frozen=True)
class Header:
    """The fields every Armada data file (board, dice, deck) begins with."""

    name: str
    title: str
    provenance: str
    sources: tuple[str, ...]


def parse_header(doc: Mapping[str, Any], where: str, fmt: str,
                 fields: tuple[str, ...]) -> Header:
    """Check ``doc`` is a ``fmt`` file of Armada holding only ``fields``; its header."""
    if not isinstance(doc, Mapping):
        raise BoardDataError(f"{where}: a {fmt} file is a JSON object")
    known_fields(doc, fields, where, fmt.removeprefix("boardrules-"))
    if get_field(doc, "format", str, where) != fmt:
        raise fail(where, "format", f"must be {fmt!r}")
    if get_field(doc, "format_version", int, where) != 1:
        raise fail(where, "format_version", "must be 1")
    if get_field(doc, "game", str, where) != "armada":
        raise fail(where, "game", "must be 'armada'")
    name = text_field(doc, "name", where)
    title: str = get_field(doc, "title", str, where)
    if len(title) > MAX_NAME:
        raise fail(where, "title", f"must be at most {MAX_NAME} characters")
    provenance = get_field(doc, "provenance", str, where)
    if provenance not in PROVENANCES:
        raise fail(where, "provenance", "must be 'published', 'reconstructed' or 'user'")
    sources = get_field(doc, "sources", list, where)
    if len(sources) > MAX_SOURCES or not all(isinstance(s, str) for s in sources):
        raise fail(where, "sources", f"must be a list of at most {MAX_SOURCES} strings")
    if any(len(s) > MAX_SOURCE_CHARS for s in sources):
        raise fail(where, "sources", f"each must be at most {MAX_SOURCE_CHARS} characters")
    return Header(name, title, provenance, tuple(sources))


# --- board validation ------------------------------------------------------------------

def parse_board(doc: Mapping[str, Any], where: str) -> Board:
    """Validate the fields of a board file (see the module docstring) and build the
    :class:`Board`, entries in file order."""
    head = parse_header(doc, where, "boardrules-board", FIELDS)
    islands = _parse_islands(get_field(doc, "islands", list, where), where)
    island_keys = {isl.key: i for i, isl in enumerate(islands)}
    territories = _parse_territories(get_field(doc, "territories", list, where),
                                     island_keys, where)
    seas = _parse_seas(get_field(doc, "seas", list, where), where)
    _check_unique_keys(islands, territories, seas, where)
    t_keys = {t.key: i for i, t in enumerate(territories)}
    s_keys = {s.key: i for i, s in enumerate(seas)}
    land = _parse_pairs(get_field(doc, "land", list, where), "land",
                        (t_keys, t_keys), ("territory", "territory"), where)
    sea = _parse_pairs(get_field(doc, "sea", list, where), "sea",
                       (s_keys, s_keys), ("sea space", "sea space"), where)
    coast = _parse_pairs(get_field(doc, "coast", list, where), "coast",
                         (s_keys, t_keys), ("sea space", "territory"), where)
    _check_counts(islands, territories, where)
    _check_land(islands, territories, land, where)
    _check_sea(seas, sea, where)
    _check_coast(islands, territories, coast, where)
    farthest = _parse_farthest(get_field(doc, "farthest", dict, where), where)
    return Board(head.name, head.title, head.provenance, head.sources, tuple(islands),
                 tuple(territories), tuple(seas), _sorted_pairs(land, True),
                 _sorted_pairs(sea, True), _sorted_pairs(coast, False), farthest)


def _sorted_pairs(pairs: list[tuple[int, int]],
                  unordered: bool) -> tuple[tuple[int, int], ...]:
    if unordered:
        return tuple(sorted((min(a, b), max(a, b)) for a, b in pairs))
    return tuple(sorted(pairs))


def _entry(raw: Any, at: str, allowed: tuple[str, ...], where: str) -> Mapping[str, Any]:
    if not isinstance(raw, Mapping):
        raise fail(where, at, "must be an object")
    known_fields(raw, allowed, where, at)
    return raw


def _parse_islands(raw: list[Any], where: str) -> list[Island]:
    if len(raw) > MAX_TERRITORIES:
        raise fail(where, "islands", f"lists {len(raw)} islands, at most {MAX_TERRITORIES}")
    islands = []
    for i, item in enumerate(raw):
        at = f"islands[{i}]"
        entry = _entry(item, at, ISLAND_FIELDS, where)
        key = key_field(entry, where, f"{at}.key")
        name = text_field(entry, "name", where, f"{at}.name")
        group = get_field(entry, "group", str, where, f"{at}.group")
        if group not in GROUPS:
            raise fail(where, f"{at}.group", f"{group!r} must be one of {list(GROUPS)}")
        islands.append(Island(key, name, group))
    return islands


def _parse_territories(raw: list[Any], island_keys: Mapping[str, int],
                       where: str) -> list[Territory]:
    if len(raw) > MAX_TERRITORIES:
        raise fail(where, "territories",
                   f"lists {len(raw)} territories, at most {MAX_TERRITORIES}")
    return [_parse_territory(item, i, island_keys, where) for i, item in enumerate(raw)]


def _parse_territory(raw: Any, i: int, island_keys: Mapping[str, int],
                     where: str) -> Territory:
    at = f"territories[{i}]"
    entry = _entry(raw, at, TERRITORY_FIELDS, where)
    key = key_field(entry, where, f"{at}.key")
    name = text_field(entry, "name", where, f"{at}.name")
    island = get_field(entry, "island", str, where, f"{at}.island")
    if island not in island_keys:
        raise fail(where, f"{at}.island", f"names unknown island {island!r}")
    city = get_field(entry, "city", bool, where, f"{at}.city")
    if "trading_post" not in entry:
        raise fail(where, f"{at}.trading_post", "missing field (null if none)")
    post = entry["trading_post"]
    if post is not None and post not in TRADING_POSTS:
        raise fail(where, f"{at}.trading_post",
                   f"{post!r} must be null or one of {list(TRADING_POSTS)}")
    if post is not None and city:
        raise fail(where, f"{at}.trading_post", "a city is not a trading post")
    x = coordinate(entry, "x", MAP_WIDTH, where, f"{at}.x")
    y = coordinate(entry, "y", MAP_HEIGHT, where, f"{at}.y")
    outline = outline_field(entry, where, f"{at}.outline", MAX_OUTLINE_POINTS, MAP_WIDTH,
                            MAP_HEIGHT)
    return Territory(key, name, island_keys[island], city, post, x, y, outline)


def _parse_seas(raw: list[Any], where: str) -> list[Sea]:
    if len(raw) > MAX_SEAS:
        raise fail(where, "seas", f"lists {len(raw)} sea spaces, at most {MAX_SEAS}")
    if not raw:
        raise fail(where, "seas", "a board has at least one sea space")
    seas = []
    for i, item in enumerate(raw):
        at = f"seas[{i}]"
        entry = _entry(item, at, SEA_FIELDS, where)
        key = key_field(entry, where, f"{at}.key")
        seas.append(Sea(key, coordinate(entry, "x", MAP_WIDTH, where, f"{at}.x"),
                        coordinate(entry, "y", MAP_HEIGHT, where, f"{at}.y")))
    return seas


def _check_unique_keys(islands: list[Island], territories: list[Territory],
                       seas: list[Sea], where: str) -> None:
    """Keys are unique across the three lists (one notation names them all); territory
    names are unique too (case-blind), so a picture never shows two alike."""
    seen: set[str] = set()
    for kind, keys in (("islands", [x.key for x in islands]),
                       ("territories", [x.key for x in territories]),
                       ("seas", [x.key for x in seas])):
        for i, key in enumerate(keys):
            if key in seen:
                raise fail(where, f"{kind}[{i}].key", f"repeats {key!r}")
            seen.add(key)
    folded: set[str] = set()
    for kind, names in (("islands", [x.name for x in islands]),
                        ("territories", [x.name for x in territories])):
        for i, name in enumerate(names):
            if name.casefold() in folded:
                raise fail(where, f"{kind}[{i}].name", f"repeats {name!r}")
            folded.add(name.casefold())




def _parse_pairs(raw: list[Any], kind: str, keys: tuple[Mapping[str, int], Mapping[str, int]],
                 names: tuple[str, str], where: str) -> list[tuple[int, int]]:
    """Pairs of keys (``keys[0]`` then ``keys[1]``): known, not a self-link, not
    repeated (in either order when both ends are of one kind)."""
    same_kind = names[0] == names[1]
    pairs: list[tuple[int, int]] = []
    seen: set[tuple[int, int]] = set()
    for n, pair in enumerate(raw):
        at = f"{kind}[{n}]"
        if (not isinstance(pair, list) or len(pair) != 2
                or not all(isinstance(k, str) for k in pair)):
            raise fail(where, at, f"must be a pair of keys ({names[0]}, {names[1]})")
        for k, known, name in zip(pair, keys, names, strict=True):
            if k not in known:
                raise fail(where, at, f"names unknown {name} {k!r}")
        a, b = keys[0][pair[0]], keys[1][pair[1]]
        if same_kind and a == b:
            raise fail(where, at, f"joins {pair[0]!r} to itself")
        norm = (min(a, b), max(a, b)) if same_kind else (a, b)
        if norm in seen:  # bounds the work too: at most one entry per distinct pair
            raise fail(where, at, f"repeats the pair {pair[0]}-{pair[1]}")
        seen.add(norm)
        pairs.append((a, b))
    return pairs


def _check_counts(islands: list[Island], territories: list[Territory], where: str) -> None:
    """The rulebook's "Game Board" counts: islands per group, territories, cities, posts."""
    def islands_of(group: str) -> list[int]:
        return [i for i, isl in enumerate(islands) if isl.group == group]

    wanted = {"central": 1, "neighbour": NEIGHBOUR_ISLANDS,
              **dict.fromkeys(COLOURS, LAIR_ISLANDS)}
    for group, count in wanted.items():
        found = len(islands_of(group))
        if found != count:
            raise fail(where, "islands", f"has {found} island(s) of group {group!r}, "
                       f"a board has exactly {count}")
    on = [islands[t.island].group for t in territories]
    central = sum(g in ("central", "neighbour") for g in on)
    if central != CENTRAL_TERRITORIES:
        raise fail(where, "territories", f"has {central} territories on the central island "
                   f"and its neighbours, a board has exactly {CENTRAL_TERRITORIES}")
    for colour in COLOURS:
        lair = [t for t, g in zip(territories, on, strict=True) if g == colour]
        if len(lair) != LAIR_TERRITORIES:
            raise fail(where, "territories", f"the {colour} lair has {len(lair)} "
                       f"territories, a lair has exactly {LAIR_TERRITORIES}")
        cities = sum(t.city for t in lair)
        if cities != LAIR_CITIES:
            raise fail(where, "territories", f"the {colour} lair has {cities} cities, "
                       f"a lair has exactly {LAIR_CITIES}")
    for i, (t, g) in enumerate(zip(territories, on, strict=True)):
        if t.city and g not in COLOURS:
            raise fail(where, f"territories[{i}].city", "cities are only in lairs")
        if t.trading_post is not None and g != "central":
            raise fail(where, f"territories[{i}].trading_post",
                       "trading posts are only on the central island")
    for post in TRADING_POSTS:
        found = sum(t.trading_post == post for t in territories)
        if found != 1:
            raise fail(where, "territories", f"has {found} {post!r} trading post(s), "
                       "a board has exactly one")


def _check_land(islands: list[Island], territories: list[Territory],
                land: list[tuple[int, int]], where: str) -> None:
    """Land pairs join two territories of one island; each island is connected."""
    for n, (a, b) in enumerate(land):
        if territories[a].island != territories[b].island:
            raise fail(where, f"land[{n}]", f"{territories[a].key!r} and "
                       f"{territories[b].key!r} are on different islands")
    adj = _adjacency(len(territories), tuple(land))
    for i, isl in enumerate(islands):
        members = [t for t, terr in enumerate(territories) if terr.island == i]
        if not members:
            raise fail(where, f"islands[{i}]", f"island {isl.key!r} has no territory")
        reached = _reached(adj, members[0], frozenset(members))
        if len(reached) != len(members):
            cut = next(t for t in members if t not in reached)
            raise fail(where, "land", f"island {isl.key!r} is not connected: "
                       f"{territories[cut].key!r} (territories[{cut}]) is cut off")


def _check_sea(seas: list[Sea], sea: list[tuple[int, int]], where: str) -> None:
    """Every sea space reachable from every other (ships sail anywhere)."""
    reached = _reached(_adjacency(len(seas), tuple(sea)), 0)
    if len(reached) != len(seas):
        cut = next(s for s in range(len(seas)) if s not in reached)
        raise fail(where, "sea", f"sea space {seas[cut].key!r} (seas[{cut}]) cannot be "
                   f"reached from {seas[0].key!r}")


def _check_coast(islands: list[Island], territories: list[Territory],
                 coast: list[tuple[int, int]], where: str) -> None:
    """Cities (ships launch from them) and trading posts are coastal; so is at least one
    territory of every island (each island can be reached by ship)."""
    coastal = {t for _, t in coast}
    for i, t in enumerate(territories):
        if (t.city or t.trading_post is not None) and i not in coastal:
            what = "city" if t.city else "trading post"
            raise fail(where, f"territories[{i}]", f"{what} {t.key!r} adjoins no sea "
                       "space (it must be coastal)")
    for i, isl in enumerate(islands):
        if not any(territories[t].island == i for t in coastal):
            raise fail(where, f"islands[{i}]", f"island {isl.key!r} has no coastal "
                       "territory")


def _parse_farthest(raw: Mapping[str, Any], where: str) -> tuple[tuple[str, str], ...]:
    """For each colour, another colour: the lair farthest from its own."""
    known_fields(raw, COLOURS, where, "farthest")
    out = []
    for colour in COLOURS:
        label = f"farthest.{colour}"
        other = get_field(raw, colour, str, where, label)
        if other not in COLOURS:
            raise fail(where, label, f"{other!r} must be one of {list(COLOURS)}")
        if other == colour:
            raise fail(where, label, "must be another colour")
        out.append((colour, other))
    return tuple(out)
