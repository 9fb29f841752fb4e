"""Albion boards as data: the island's regions, their kinds and Picts, land borders and
the sea between regions that face each other across a firth.

Board files live in ``boards/`` (``albion`` is the project's reconstruction: no public
source gives the printed map).  A user may pass the name of a shipped board, the path of a
board file of his own, or the same content as a mapping; every field is checked and a bad
one raises :class:`~boardrules.errors.BoardDataError` naming it (``regions[3].picts: ...``).

Region order is file order: region index ``i`` is the ``i``-th entry of ``regions``, in
:attr:`Board.regions`, :meth:`Board.to_json` and the rules core alike.  Borders and sea
pairs are unordered, stored as ``(i, j)`` with ``i < j``, sorted.

Region kinds (:data:`KINDS`): ``launch`` the light-green launching region at the south end
(exactly one), ``light`` the second light-green region (exactly one), ``start`` the two
dark-green regions without printed Picts where the starting fortresses go (exactly two,
each bordering the launch region), ``dark`` the dark-green regions with Picts, and one
region of each resource (:data:`RESOURCES`).

What a board must satisfy (besides the types of its fields): only ``dark`` regions have
Pict counts (``picts``: three integers for 2, 3 and 4 players, non-decreasing), and their
sums are :data:`PICT_TOTALS` (35 Picts less those the rules remove, less the 2 left in the
box); only ``dark`` regions have printed assault Picts (0 to :data:`MAX_PRINTED_ASSAULT`)
and at least one has some; exactly :data:`LAUREL_REGIONS` laurel regions, all ``dark``; at
most :data:`MAX_REGIONS` regions; unique keys (the move notation's region names, so no
:data:`RESERVED_KEYS` word) and unique names; borders and sea pairs between two distinct
known regions, none repeated, no sea pair also a border; every region reachable from the
launch region over borders (figures never cross the sea).  The geography the rules
mention (launch southernmost, fish west of it, wood north-east, stone and gold farther
north, laurels in the north) is a property of the shipped board, not checked here.
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
    coordinate,
    fail,
    get_field,
    key_field,
    known_fields,
    load_board_spec,
    outline_field,
    shipped_names,
    text_field,
)

BOARDS_DIR = Path(__file__).parent / "boards"
DEFAULT_BOARD = "albion"
#: Region kinds.
KINDS: tuple[str, ...] = ("launch", "light", "start", "dark", "fish", "wood", "stone", "gold")
#: The resources, in their fixed index order (fish 0 .. gold 3); each names a region kind.
RESOURCES: tuple[str, ...] = ("fish", "wood", "stone", "gold")
#: Picts on the board by player count: 35 less those removed (2p: 7 peace + 2 assault,
#: 3p: 3 + 2, 4p: none) less the 2 always left face down in the box.
PICT_TOTALS: dict[int, int] = {2: 24, 3: 28, 4: 33}
#: How many regions of each kind a board has (``dark``: any number).
KIND_COUNTS: dict[str, int] = {"launch": 1, "light": 1, "start": 2, "fish": 1, "wood": 1,
                               "stone": 1, "gold": 1}
LAUREL_REGIONS = 3
MAX_PRINTED_ASSAULT = 6
MAX_REGIONS = 40
MAX_OUTLINE_POINTS = 200
#: The drawing box: ``x`` in 0 .. MAP_WIDTH, ``y`` in 0 .. MAP_HEIGHT (y downwards).
MAP_WIDTH = 1000
MAP_HEIGHT = 1000
#: Words of the move notation a region key may not be.
RESERVED_KEYS = frozenset({
    "resources", "end", "skip", "pay", "tribute", "build", "develop", "remove", "take",
    "return", "reduce", "launch", "settler", "legion", "carry", "fortress", "pict",
    "assault", "peace", "settlement", "rampart", "plant", "fish", "wood", "stone", "gold",
    "start"})
FIELDS = ("format", "format_version", "game", "name", "title", "provenance", "sources",
          "regions", "borders", "sea")
REGION_FIELDS = ("key", "name", "kind", "picts", "printed_assault", "laurel", "x", "y",
                 "outline")
PROVENANCES = ("published", "reconstructed", "user")


@dataclass(frozen=True)
class Region:
    """One region.  ``picts`` is the printed Pict count for 2, 3 and 4 players
    (``(0, 0, 0)`` unless ``dark``); ``x``, ``y`` place its label and ``outline`` (a
    polygon, or ``None``) its area for drawing."""

    key: str
    name: str
    kind: str
    picts: tuple[int, int, int]
    printed_assault: int
    laurel: bool
    x: float
    y: float
    outline: tuple[tuple[float, float], ...] | None


@dataclass(frozen=True)
class Board:
    """A validated board.  Regions are in file order; borders and sea pairs are pairs
    of region indices ``(i, j)``, ``i < j``, sorted."""

    name: str
    title: str
    provenance: str
    sources: tuple[str, ...]
    regions: tuple[Region, ...]
    borders: tuple[tuple[int, int], ...]
    sea: tuple[tuple[int, int], ...]
    _keys: dict[str, int] = field(init=False, repr=False, compare=False)
    _adj: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Derived lookups, built once (the dataclass is frozen, hence object.__setattr__).
        object.__setattr__(self, "_keys", {r.key: i for i, r in enumerate(self.regions)})
        object.__setattr__(self, "_adj", _adjacency(len(self.regions), self.borders))

    def index(self, key: str) -> int:
        """The index of the region called ``key``; ``ValueError`` if there is none."""
        try:
            return self._keys[key]
        except (KeyError, TypeError):
            raise ValueError(f"no region {key!r} on board {self.name!r}") from None

    def _only(self, kind: str) -> int:
        return next(i for i, r in enumerate(self.regions) if r.kind == kind)

    @property
    def launch(self) -> int:
        """The index of the launching region."""
        return self._only("launch")

    @property
    def light(self) -> int:
        """The index of the second light-green region."""
        return self._only("light")

    @property
    def starts(self) -> tuple[int, int]:
        """The indices of the two start regions, in index order."""
        a, b = (i for i, r in enumerate(self.regions) if r.kind == "start")
        return a, b

    def resource_region(self, kind: str) -> int:
        """The index of the region of resource ``kind`` (one of :data:`RESOURCES`)."""
        if kind not in RESOURCES:
            raise ValueError(f"resource must be one of {list(RESOURCES)}, not {kind!r}")
        return self._only(kind)

    @property
    def laurels(self) -> tuple[int, ...]:
        """The indices of the laurel regions, in index order."""
        return tuple(i for i, r in enumerate(self.regions) if r.laurel)

    def neighbours(self, i: int) -> tuple[int, ...]:
        """Regions one land border from region ``i``, in index order."""
        return self._adj[i]

    def distances(self) -> list[list[int]]:
        """Land distances (borders crossed) between every two regions: a fresh table,
        ``d[i][j]``; all finite, a board being connected."""
        return [_bfs(self._adj, i) for i in range(len(self.regions))]

    def picts_for(self, players: int) -> list[int]:
        """The printed Pict count of each region for ``players`` (2 to 4) players,
        0 outside the dark regions."""
        if isinstance(players, bool) or players not in PICT_TOTALS:
            raise ValueError(f"players must be 2, 3 or 4, not {players!r}")
        column = players - 2
        return [r.picts[column] for r in self.regions]

    def to_json(self) -> dict[str, Any]:
        """The board as a file's content; ``parse_board`` of it gives an equal board."""
        return {
            "format": "boardrules-board",
            "format_version": 1,
            "game": "albion",
            "name": self.name,
            "title": self.title,
            "provenance": self.provenance,
            "sources": list(self.sources),
            "regions": [_region_json(r) for r in self.regions],
            "borders": [[self.regions[i].key, self.regions[j].key] for i, j in self.borders],
            "sea": [[self.regions[i].key, self.regions[j].key] for i, j in self.sea],
        }


def _region_json(r: Region) -> dict[str, Any]:
    out: dict[str, Any] = {"key": r.key, "name": r.name, "kind": r.kind}
    if r.kind == "dark":  # only dark regions carry Pict counts (see parse_board)
        out["picts"] = list(r.picts)
    out.update(printed_assault=r.printed_assault, laurel=r.laurel, x=r.x, y=r.y)
    if r.outline is not None:
        out["outline"] = [[px, py] for px, py in r.outline]
    return out


def _adjacency(n: int, links: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], ...]:
    adj: list[list[int]] = [[] for _ in range(n)]
    for i, j in links:
        adj[i].append(j)
        adj[j].append(i)
    return tuple(tuple(sorted(a)) for a in adj)


def _bfs(adj: tuple[tuple[int, ...], ...], start: int) -> list[int]:
    """Borders crossed from ``start`` to each region (-1: unreachable)."""
    dist = [-1] * len(adj)
    dist[start] = 0
    todo = deque([start])
    while todo:
        here = todo.popleft()
        for nxt in adj[here]:
            if dist[nxt] < 0:
                dist[nxt] = dist[here] + 1
                todo.append(nxt)
    return dist


def shipped_boards() -> list[str]:
    """Names of the boards that come with the library."""
    return shipped_names(BOARDS_DIR)


def load_board(spec: str | os.PathLike[str] | Mapping[str, Any]) -> Board:
    """A board by shipped name, file path, or as a mapping of the file's fields."""
    return load_board_spec(spec, BOARDS_DIR, MAX_BOARD_FILE_BYTES, parse_board)


# --- validation ------------------------------------------------------------------------









def parse_board(doc: Mapping[str, Any], where: str) -> Board:
    """Validate the fields of a board file (see the module docstring) and build the
    :class:`Board`, regions in file order."""
    if not isinstance(doc, Mapping):
        raise BoardDataError(f"{where}: a board is a JSON object")
    known_fields(doc, FIELDS, where, "board")
    if get_field(doc, "format", str, where) != "boardrules-board":
        raise fail(where, "format", "must be 'boardrules-board'")
    if get_field(doc, "format_version", int, where) != 1:
        raise fail(where, "format_version", "must be 1")
    if get_field(doc, "game", str, where) != "albion":
        raise fail(where, "game", "must be 'albion'")
    name = text_field(doc, "name", where)
    title: str = get_field(doc, "title", str, where)
    provenance = get_field(doc, "provenance", str, where)
    if provenance not in PROVENANCES:
        raise fail(where, "provenance", "must be 'published', 'reconstructed' or 'user'")
    sources = get_field(doc, "sources", list, where)
    if not all(isinstance(s, str) for s in sources):
        raise fail(where, "sources", "must be a list of strings")
    regions = _parse_regions(get_field(doc, "regions", list, where), where)
    keys = {r.key: i for i, r in enumerate(regions)}
    borders = _parse_pairs(get_field(doc, "borders", list, where), "borders", keys, where)
    sea = _parse_pairs(get_field(doc, "sea", list, where), "sea", keys, where)
    _check_links(regions, borders, sea, where)
    return Board(name, title, provenance, tuple(sources), tuple(regions),
                 _normalised(borders), _normalised(sea))


def _normalised(pairs: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    return tuple(sorted((min(a, b), max(a, b)) for a, b in pairs))


def _parse_regions(raw: list[Any], where: str) -> list[Region]:
    if len(raw) > MAX_REGIONS:
        raise fail(where, "regions", f"lists {len(raw)} regions, at most {MAX_REGIONS}")
    regions = [_parse_region(r, i, where) for i, r in enumerate(raw)]
    seen_keys: set[str] = set()
    seen_names: set[str] = set()
    for i, region in enumerate(regions):
        if region.key in seen_keys:
            raise fail(where, f"regions[{i}].key", f"repeats {region.key!r}")
        folded = region.name.casefold()
        if folded in seen_names:
            raise fail(where, f"regions[{i}].name", f"repeats {region.name!r}")
        seen_keys.add(region.key)
        seen_names.add(folded)
    _check_counts(regions, where)
    return regions


def _check_counts(regions: list[Region], where: str) -> None:
    """The board-wide counts: kinds, laurels, Pict sums, printed assault Picts."""
    for kind, wanted in KIND_COUNTS.items():
        found = sum(r.kind == kind for r in regions)
        if found != wanted:
            raise fail(where, "regions", f"has {found} region(s) of kind {kind!r}, "
                        f"a board has exactly {wanted}")
    laurels = sum(r.laurel for r in regions)
    if laurels != LAUREL_REGIONS:
        raise fail(where, "regions", f"has {laurels} laurel region(s), a board has "
                    f"exactly {LAUREL_REGIONS}")
    for column, (players, total) in enumerate(PICT_TOTALS.items()):
        have = sum(r.picts[column] for r in regions)
        if have != total:
            raise fail(where, "regions", f"the dark regions hold {have} Picts for "
                        f"{players} players, they must hold {total}")
    if not any(r.printed_assault for r in regions):
        raise fail(where, "regions", "no region has printed assault Picts, a board "
                    "has at least one")


def _parse_region(raw: Any, i: int, where: str) -> Region:
    at = f"regions[{i}]"
    if not isinstance(raw, Mapping):
        raise fail(where, at, "must be an object")
    known_fields(raw, REGION_FIELDS, where, at)
    key = key_field(raw, where, f"{at}.key", RESERVED_KEYS)
    name = text_field(raw, "name", where, f"{at}.name")
    kind = get_field(raw, "kind", str, where, f"{at}.kind")
    if kind not in KINDS:
        raise fail(where, f"{at}.kind", f"{kind!r} must be one of {list(KINDS)}")
    dark = kind == "dark"
    picts = _picts(raw, dark, where, f"{at}.picts")
    assault = get_field(raw, "printed_assault", int, where, f"{at}.printed_assault")
    if not 0 <= assault <= MAX_PRINTED_ASSAULT:
        raise fail(where, f"{at}.printed_assault",
                    f"{assault} must be 0 to {MAX_PRINTED_ASSAULT}")
    if assault and not dark:
        raise fail(where, f"{at}.printed_assault",
                    f"only dark regions have printed assault Picts, not {kind!r}")
    laurel = get_field(raw, "laurel", bool, where, f"{at}.laurel")
    if laurel and not dark:
        raise fail(where, f"{at}.laurel", f"only dark regions have laurels, not {kind!r}")
    x = coordinate(raw, "x", MAP_WIDTH, where, f"{at}.x")
    y = coordinate(raw, "y", MAP_HEIGHT, where, f"{at}.y")
    outline = outline_field(raw, where, f"{at}.outline", MAX_OUTLINE_POINTS, MAP_WIDTH,
                            MAP_HEIGHT)
    return Region(key, name, kind, picts, assault, laurel, x, y, outline)


def _picts(raw: Mapping[str, Any], dark: bool, where: str,
           label: str) -> tuple[int, int, int]:
    """A dark region's Pict counts for 2, 3 and 4 players; other regions have none."""
    if not dark:
        if "picts" in raw:
            raise fail(where, label, "only dark regions have Picts")
        return (0, 0, 0)
    if "picts" not in raw:
        raise fail(where, label, "missing field (a dark region has Picts)")
    value = raw["picts"]
    if (not isinstance(value, list) or len(value) != 3
            or not all(isinstance(n, int) and not isinstance(n, bool) for n in value)):
        raise fail(where, label, "must be a list of three integers (2, 3, 4 players)")
    n2, n3, n4 = value
    if not 0 <= n2 <= n3 <= n4 <= PICT_TOTALS[4]:
        raise fail(where, label, f"{value} must be non-decreasing counts from 0 to "
                    f"{PICT_TOTALS[4]} (more players, more Picts)")
    return n2, n3, n4




def _parse_pairs(raw: list[Any], kind: str, keys: Mapping[str, int],
                 where: str) -> list[tuple[int, int]]:
    pairs: list[tuple[int, int]] = []
    seen: set[frozenset[int]] = set()
    for n, pair in enumerate(raw):
        at = f"{kind}[{n}]"
        if (not isinstance(pair, list) or len(pair) != 2
                or not all(isinstance(k, str) for k in pair)):
            raise fail(where, at, "must be a pair of region keys")
        a, b = pair
        for k in (a, b):
            if k not in keys:
                raise fail(where, at, f"names unknown region {k!r}")
        if a == b:
            raise fail(where, at, f"joins {a!r} to itself")
        both = frozenset((keys[a], keys[b]))
        if both in seen:  # bounds the work too: at most 40 * 39 / 2 distinct pairs
            raise fail(where, at, f"repeats the pair {a}-{b}")
        seen.add(both)
        pairs.append((keys[a], keys[b]))
    return pairs


def _check_links(regions: list[Region], borders: list[tuple[int, int]],
                 sea: list[tuple[int, int]], where: str) -> None:
    """Rules that involve both the regions and the pairs: sea pairs are not borders,
    the start regions border the launch region, the land is connected."""
    land = {frozenset(p) for p in borders}
    for n, (a, b) in enumerate(sea):
        if frozenset((a, b)) in land:
            raise fail(where, f"sea[{n}]", f"{regions[a].key!r} and {regions[b].key!r} "
                        "also share a border: a sea pair faces across water")
    launch = next(i for i, r in enumerate(regions) if r.kind == "launch")
    for i, region in enumerate(regions):
        if region.kind == "start" and frozenset((i, launch)) not in land:
            raise fail(where, "borders", f"start region {region.key!r} (regions[{i}]) "
                        f"must border the launch region {regions[launch].key!r}")
    dist = _bfs(_adjacency(len(regions), tuple(borders)), launch)
    cut = [i for i, d in enumerate(dist) if d < 0]
    if cut:
        raise fail(where, "borders", f"leave {regions[cut[0]].key!r} (regions[{cut[0]}]) "
                    f"unreachable from the launch region {regions[launch].key!r} "
                    f"({len(cut)} region(s) cut off)")
