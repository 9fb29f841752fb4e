"""Albion board data: the shipped (reconstructed) map of Roman Britain, the loader's
checks on a user's board, and the SVG and text pictures drawn from a view."""

from __future__ import annotations

import copy
import json
import math
import os
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from boardrules.errors import BoardDataError
from boardrules.games.albion.board import (
    BOARDS_DIR,
    DEFAULT_BOARD,
    KINDS,
    MAX_BOARD_FILE_BYTES,
    MAX_REGIONS,
    PICT_TOTALS,
    RESERVED_KEYS,
    RESOURCES,
    Board,
    Region,
    load_board,
    parse_board,
    shipped_boards,
)
from boardrules.games.albion.render import render_svg, render_text

SHIPPED: dict[str, Any] = json.loads((BOARDS_DIR / "albion.json").read_text(encoding="utf-8"))
BOARD = load_board(DEFAULT_BOARD)
SVG = "{http://www.w3.org/2000/svg}"


def _region(key: str) -> Region:
    return BOARD.regions[BOARD.index(key)]


def _of_kind(kind: str) -> list[Region]:
    return [r for r in BOARD.regions if r.kind == kind]


# --------------------------------------------------------------------------------------
# The shipped board
# --------------------------------------------------------------------------------------

def test_the_shipped_board_is_listed_default_and_reconstructed() -> None:
    assert DEFAULT_BOARD == "albion"
    assert shipped_boards() == ["albion"]
    assert BOARD.name == "albion"
    assert BOARD.provenance == "reconstructed"
    text = " ".join(BOARD.sources)
    assert "No public source" in text and "24 / 28 / 33" in text


def test_region_order_is_file_order() -> None:
    assert [r.key for r in BOARD.regions] == [r["key"] for r in SHIPPED["regions"]]
    assert all(BOARD.index(r.key) == i for i, r in enumerate(BOARD.regions))


def test_kind_counts() -> None:
    """boards.md: one launching region, a second light-green region, two start regions,
    one region of each resource; the rest dark green."""
    assert KINDS == ("launch", "light", "start", "dark", "fish", "wood", "stone", "gold")
    assert RESOURCES == ("fish", "wood", "stone", "gold")
    counts = {kind: len(_of_kind(kind)) for kind in KINDS}
    assert counts == {"launch": 1, "light": 1, "start": 2, "dark": counts["dark"],
                      "fish": 1, "wood": 1, "stone": 1, "gold": 1}
    assert 24 <= len(BOARD.regions) <= 30 <= MAX_REGIONS
    assert BOARD.regions[BOARD.launch].kind == "launch"
    assert BOARD.regions[BOARD.light].kind == "light"
    assert [BOARD.regions[i].kind for i in BOARD.starts] == ["start", "start"]
    for kind in RESOURCES:
        assert BOARD.regions[BOARD.resource_region(kind)].kind == kind


def test_pict_sums_24_28_33_only_in_dark_regions() -> None:
    """35 Picts less those removed (2p 7+2, 3p 3+2) less the 2 left in the box."""
    assert PICT_TOTALS == {2: 24, 3: 28, 4: 33}
    for players, total in PICT_TOTALS.items():
        counts = BOARD.picts_for(players)
        assert sum(counts) == total
        assert all(n == 0 for n, r in zip(counts, BOARD.regions, strict=True)
                   if r.kind != "dark")
    for r in _of_kind("dark"):
        assert 1 <= r.picts[0] <= r.picts[1] <= r.picts[2]  # every dark region has Picts


def test_laurels_are_three_dark_regions_in_the_north() -> None:
    laurels = [BOARD.regions[i] for i in BOARD.laurels]
    assert len(laurels) == 3
    assert all(r.kind == "dark" for r in laurels)
    median_y = sorted(r.y for r in BOARD.regions)[len(BOARD.regions) // 2]
    assert all(r.y < median_y - 200 for r in laurels)


def test_printed_assault_picts_in_a_few_northern_or_western_dark_regions() -> None:
    printed = [r for r in BOARD.regions if r.printed_assault]
    assert 3 <= len(printed) <= 5
    assert all(r.kind == "dark" and 1 <= r.printed_assault <= 2 for r in printed)
    launch = BOARD.regions[BOARD.launch]
    assert all(r.y < launch.y - 100 and r.x < launch.x for r in printed)


def test_start_regions_just_north_of_the_launch_and_bordering_it() -> None:
    launch = BOARD.regions[BOARD.launch]
    for i in BOARD.starts:
        assert BOARD.launch in BOARD.neighbours(i)
        assert BOARD.regions[i].y < launch.y
        assert launch.y - BOARD.regions[i].y < 150
        assert BOARD.regions[i].printed_assault == 0 and BOARD.regions[i].picts == (0, 0, 0)


def test_resource_geography() -> None:
    """boards.md: launch southernmost; fish directly west of it; wood farther north-east;
    stone farther north; gold in the far north."""
    launch = BOARD.regions[BOARD.launch]
    assert all(r.y < launch.y for r in BOARD.regions if r is not launch)
    fish, wood, stone, gold = (BOARD.regions[BOARD.resource_region(k)] for k in RESOURCES)
    assert fish.x < launch.x and abs(fish.y - launch.y) < 40
    assert BOARD.launch in BOARD.neighbours(BOARD.resource_region("fish"))
    assert wood.x > launch.x and wood.y < launch.y
    assert stone.y < wood.y
    assert gold.y < stone.y
    assert gold.y == min(r.y for r in BOARD.regions)  # the far north
    light = BOARD.regions[BOARD.light]
    assert 350 < light.y < 800  # mid-island


def test_sea_pairs_face_across_water_not_borders() -> None:
    assert BOARD.sea
    borders = set(BOARD.borders)
    for pair in BOARD.sea:
        assert pair not in borders
        assert pair[0] < pair[1]
    forth = tuple(sorted((BOARD.index("venicones"), BOARD.index("votadini"))))
    assert forth in BOARD.sea


def test_borders_sorted_pairs_and_neighbours_agree() -> None:
    assert list(BOARD.borders) == sorted(set(BOARD.borders))
    assert all(i < j for i, j in BOARD.borders)
    for i in range(len(BOARD.regions)):
        for j in BOARD.neighbours(i):
            assert (min(i, j), max(i, j)) in BOARD.borders
    assert sum(len(BOARD.neighbours(i)) for i in range(len(BOARD.regions))) \
        == 2 * len(BOARD.borders)


def test_connected_and_distances() -> None:
    d = BOARD.distances()
    n = len(BOARD.regions)
    assert len(d) == n and all(len(row) == n for row in d)
    for i in range(n):
        assert d[i][i] == 0
        for j in range(n):
            assert 0 <= d[i][j] == d[j][i]
            if j in BOARD.neighbours(i):
                assert d[i][j] == 1
    assert all(d[BOARD.launch][s] == 1 for s in BOARD.starts)
    far = BOARD.resource_region("gold")
    assert d[BOARD.launch][far] == max(d[BOARD.launch])  # gold is the farthest
    d[0][0] = 99  # a fresh table each call
    assert BOARD.distances()[0][0] == 0


def test_every_region_has_an_outline_in_the_box() -> None:
    for r in BOARD.regions:
        assert r.outline is not None and len(r.outline) >= 3
        assert all(0 <= x <= 1000 and 0 <= y <= 1000 for x, y in r.outline)


def _edges(r: Region) -> set[frozenset[tuple[float, float]]]:
    assert r.outline is not None
    pts = list(r.outline)
    return {frozenset((a, b)) for a, b in zip(pts, pts[1:] + pts[:1], strict=True)}


def test_outlines_share_an_edge_exactly_where_regions_border() -> None:
    """The drawing agrees with the data: two regions' polygons share an edge iff they
    border (so the picture never shows a border that is not there)."""
    edges = [_edges(r) for r in BOARD.regions]
    for i in range(len(BOARD.regions)):
        for j in range(i + 1, len(BOARD.regions)):
            assert bool(edges[i] & edges[j]) == ((i, j) in BOARD.borders), (i, j)


def test_label_inside_its_outline() -> None:
    for r in BOARD.regions:
        assert r.outline is not None
        assert _inside(r.x, r.y, r.outline), r.key


def _inside(x: float, y: float, poly: tuple[tuple[float, float], ...]) -> bool:
    hit = False
    for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


def test_keys_names_and_reserved_words() -> None:
    assert "fortress" in RESERVED_KEYS and "carry" in RESERVED_KEYS
    keys = [r.key for r in BOARD.regions]
    assert len(set(keys)) == len(keys)
    assert not set(keys) & RESERVED_KEYS
    assert all(re.fullmatch(r"[a-z][a-z0-9_]{1,15}", k) for k in keys)
    assert len({r.name.casefold() for r in BOARD.regions}) == len(keys)


def test_board_lookups_reject_unknown_values() -> None:
    with pytest.raises(ValueError, match="no region"):
        BOARD.index("atlantis")
    with pytest.raises(ValueError, match="no region"):
        BOARD.index(3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="resource"):
        BOARD.resource_region("dark")
    for players in (1, 5, True, "3"):
        with pytest.raises(ValueError, match="players"):
            BOARD.picts_for(players)  # type: ignore[arg-type]


def test_to_json_round_trips_and_matches_the_file() -> None:
    doc = BOARD.to_json()
    assert doc == SHIPPED
    again = parse_board(doc, "<again>")
    assert again == BOARD
    assert json.loads(json.dumps(doc)) == doc


def test_round_trip_without_outlines() -> None:
    doc = copy.deepcopy(SHIPPED)
    for r in doc["regions"]:
        del r["outline"]
    board = load_board(doc)
    assert all(r.outline is None for r in board.regions)
    assert board.to_json() == doc
    assert load_board(board.to_json()) == board


# --------------------------------------------------------------------------------------
# Loading by name, path and mapping
# --------------------------------------------------------------------------------------

def test_load_by_path_string_pathlike_and_mapping(tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(SHIPPED), encoding="utf-8")
    assert load_board(str(path)) == BOARD
    assert load_board(path) == BOARD
    assert load_board(copy.deepcopy(SHIPPED)) == BOARD


def test_load_refuses_unknown_names_bad_types_and_non_json(tmp_path: Path) -> None:
    with pytest.raises(BoardDataError, match="'no_such_board': not a regular file"):
        load_board("no_such_board")
    for spec in (42, None, ["albion"]):
        with pytest.raises(BoardDataError, match="name, a path or a mapping"):
            load_board(spec)  # type: ignore[arg-type]
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(BoardDataError, match="not JSON"):
        load_board(bad)
    listed = tmp_path / "list.json"
    listed.write_text("[]", encoding="utf-8")
    with pytest.raises(BoardDataError, match="JSON object"):
        load_board(listed)
    with pytest.raises(BoardDataError, match="not a regular file"):
        load_board(tmp_path)


def test_too_large_file_refused(tmp_path: Path) -> None:
    doc = copy.deepcopy(SHIPPED)
    doc["sources"].append("x" * MAX_BOARD_FILE_BYTES)
    path = tmp_path / "big.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert os.path.getsize(path) > MAX_BOARD_FILE_BYTES
    with pytest.raises(BoardDataError, match="too large"):
        load_board(path)
    assert load_board(doc).sources[-1].startswith("xxx")  # a mapping has no file limit


def test_a_board_file_of_exactly_the_limit_loads(tmp_path: Path) -> None:
    doc = copy.deepcopy(SHIPPED)
    text = json.dumps(doc)
    pad = MAX_BOARD_FILE_BYTES - len(text.encode("utf-8"))
    path = tmp_path / "edge.json"
    path.write_text(text + " " * pad, encoding="utf-8")
    assert os.path.getsize(path) == MAX_BOARD_FILE_BYTES
    assert load_board(path) == BOARD


# --------------------------------------------------------------------------------------
# Validation: each broken variant names its field
# --------------------------------------------------------------------------------------

def _at(key: str) -> int:
    return BOARD.index(key)


def _set(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(doc: dict[str, Any]) -> None:
        target: Any = doc
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = value
    return edit


def _delete(path: tuple[Any, ...]) -> Callable[[dict[str, Any]], None]:
    def edit(doc: dict[str, Any]) -> None:
        target: Any = doc
        for step in path[:-1]:
            target = target[step]
        del target[path[-1]]
    return edit


def _rekind(key: str, kind: str) -> Callable[[dict[str, Any]], None]:
    """Region ``key`` becomes a ``kind`` region (its dark-only fields dropped)."""
    def edit(doc: dict[str, Any]) -> None:
        region = doc["regions"][_at(key)]
        region["kind"] = kind
        if kind != "dark":
            region.pop("picts", None)
            region["printed_assault"] = 0
            region["laurel"] = False
        else:
            region.setdefault("picts", [0, 0, 0])
    return edit


def _drop_border(a: str, b: str) -> Callable[[dict[str, Any]], None]:
    def edit(doc: dict[str, Any]) -> None:
        doc["borders"] = [p for p in doc["borders"] if set(p) != {a, b}]
    return edit


def _isolate(key: str) -> Callable[[dict[str, Any]], None]:
    def edit(doc: dict[str, Any]) -> None:
        doc["borders"] = [p for p in doc["borders"] if key not in p]
    return edit


def _picts(key: str, counts: Any) -> Callable[[dict[str, Any]], None]:
    return _set(("regions", _at(key), "picts"), counts)


def _no_printed_assault(doc: dict[str, Any]) -> None:
    for r in doc["regions"]:
        r["printed_assault"] = 0


def _too_many_regions(doc: dict[str, Any]) -> None:
    base = doc["regions"][_at("dumnonii")]
    for n in range(MAX_REGIONS + 1 - len(doc["regions"])):
        extra = dict(base, key=f"extra{n}", name=f"Extra {n}", picts=[0, 0, 0])
        doc["regions"].append(extra)


DARK = _at("dumnonii")  # a plain dark region
LAUNCH = BOARD.launch
LAUREL = BOARD.laurels[0]

BROKEN: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("format", _set(("format",), "other"), "format"),
    ("format_version", _set(("format_version",), 2), "format_version"),
    ("format_version bool", _set(("format_version",), True), "format_version"),
    ("game", _set(("game",), "rome_and_carthage"), "game"),
    ("unknown field", _set(("colour",), "green"), "unknown field(s) ['colour']"),
    ("empty name", _set(("name",), "  "), "name"),
    ("title type", _set(("title",), 3), "title"),
    ("provenance", _set(("provenance",), "guessed"), "provenance"),
    ("sources type", _set(("sources",), ["ok", 1]), "sources"),
    ("regions type", _set(("regions",), {}), "regions"),
    ("missing borders", _delete(("borders",)), "borders"),
    ("missing sea", _delete(("sea",)), "sea"),
    ("region not object", _set(("regions", 3), "cantium"), "regions[3]"),
    ("region unknown field", _set(("regions", 2, "colour"), "red"), "regions[2]"),
    ("key pattern", _set(("regions", 3, "key"), "Kent"), "regions[3].key"),
    ("key too short", _set(("regions", 3, "key"), "k"), "regions[3].key"),
    ("key too long", _set(("regions", 3, "key"), "k" * 17), "regions[3].key"),
    ("key reserved", _set(("regions", 3, "key"), "fortress"), "regions[3].key"),
    ("key type", _set(("regions", 3, "key"), 7), "regions[3].key"),
    ("key missing", _delete(("regions", 3, "key")), "regions[3].key"),
    ("key repeated", _set(("regions", 4, "key"), BOARD.regions[3].key), "regions[4].key"),
    ("name repeated", _set(("regions", 4, "name"), BOARD.regions[3].name.upper()),
     "regions[4].name"),
    ("name missing", _delete(("regions", 2, "name")), "regions[2].name"),
    ("name too long", _set(("regions", 2, "name"), "N" * 65), "regions[2].name"),
    ("kind unknown", _set(("regions", 3, "kind"), "forest"), "regions[3].kind"),
    ("picts on launch", _set(("regions", LAUNCH, "picts"), [0, 0, 0]),
     f"regions[{LAUNCH}].picts"),
    ("picts missing", _delete(("regions", DARK, "picts")), f"regions[{DARK}].picts"),
    ("picts length", _picts("dumnonii", [1, 1]), f"regions[{DARK}].picts"),
    ("picts type", _picts("dumnonii", "1,1,1"), f"regions[{DARK}].picts"),
    ("picts bool", _picts("dumnonii", [True, 1, 1]), f"regions[{DARK}].picts"),
    ("picts float", _picts("dumnonii", [1.0, 1, 1]), f"regions[{DARK}].picts"),
    ("picts negative", _picts("dumnonii", [-1, 1, 1]), f"regions[{DARK}].picts"),
    ("picts decreasing", _picts("dumnonii", [2, 1, 1]), f"regions[{DARK}].picts"),
    ("picts huge", _picts("dumnonii", [1, 1, 10**9]), f"regions[{DARK}].picts"),
    ("picts sum 4p", _picts("dumnonii", [1, 1, 2]), "for 4 players"),
    ("picts sum 2p", _picts("dumnonii", [0, 1, 1]), "for 2 players"),
    ("printed assault range", _set(("regions", DARK, "printed_assault"), 7),
     f"regions[{DARK}].printed_assault"),
    ("printed assault negative", _set(("regions", DARK, "printed_assault"), -1),
     f"regions[{DARK}].printed_assault"),
    ("printed assault bool", _set(("regions", DARK, "printed_assault"), True),
     f"regions[{DARK}].printed_assault"),
    ("printed assault missing", _delete(("regions", DARK, "printed_assault")),
     f"regions[{DARK}].printed_assault"),
    ("printed assault on launch", _set(("regions", LAUNCH, "printed_assault"), 1),
     f"regions[{LAUNCH}].printed_assault"),
    ("no printed assault", _no_printed_assault, "printed assault"),
    ("laurel type", _set(("regions", DARK, "laurel"), 1), f"regions[{DARK}].laurel"),
    ("laurel missing", _delete(("regions", DARK, "laurel")), f"regions[{DARK}].laurel"),
    ("laurel on launch", _set(("regions", LAUNCH, "laurel"), True),
     f"regions[{LAUNCH}].laurel"),
    ("four laurels", _set(("regions", DARK, "laurel"), True), "laurel region"),
    ("two laurels", _set(("regions", LAUREL, "laurel"), False), "laurel region"),
    ("x range", _set(("regions", 1, "x"), 1000.5), "regions[1].x"),
    ("y negative", _set(("regions", 1, "y"), -1), "regions[1].y"),
    ("x nan", _set(("regions", 1, "x"), math.nan), "regions[1].x"),
    ("y string", _set(("regions", 1, "y"), "5"), "regions[1].y"),
    ("x bool", _set(("regions", 1, "x"), False), "regions[1].x"),
    ("x missing", _delete(("regions", 1, "x")), "regions[1].x"),
    ("outline short", _set(("regions", 1, "outline"), [[0, 0], [1, 1]]),
     "regions[1].outline"),
    ("outline type", _set(("regions", 1, "outline"), "square"), "regions[1].outline"),
    ("outline point", _set(("regions", 1, "outline", 2), [1, 2, 3]),
     "regions[1].outline[2]"),
    ("outline range", _set(("regions", 1, "outline", 0), [0, 1001]),
     "regions[1].outline[0]"),
    ("outline inf", _set(("regions", 1, "outline", 0), [math.inf, 1]),
     "regions[1].outline[0]"),
    ("outline too long", _set(("regions", 1, "outline"), [[1, 1]] * 201),
     "regions[1].outline"),
    ("too many regions", _too_many_regions, "at most 40"),
    ("two launch regions", _rekind(BOARD.regions[BOARD.starts[0]].key, "launch"),
     "'launch'"),
    ("no light region", _rekind(BOARD.regions[BOARD.light].key, "start"), "'light'"),
    ("three start regions", _rekind("regni", "start"), "'start'"),
    ("gold region made a launch", _rekind("lugi", "launch"), "'launch'"),
    ("no fish region", _rekind("regni", "dark"), "'fish'"),
    ("border not a pair", _set(("borders", 0), ["cantium"]), "borders[0]"),
    ("border not keys", _set(("borders", 0), [1, 2]), "borders[0]"),
    ("border unknown", _set(("borders", 0), ["cantium", "atlantis"]), "borders[0]"),
    ("border to itself", _set(("borders", 0), ["cantium", "cantium"]), "borders[0]"),
    ("border repeated", _set(("borders", 1), list(reversed(SHIPPED["borders"][0]))),
     "borders[1]"),
    ("sea unknown", _set(("sea", 0), ["lugi", "orcades"]), "sea[0]"),
    ("sea repeated", _set(("sea", 1), SHIPPED["sea"][0]), "sea[1]"),
    ("sea also a border", _set(("sea", 0), SHIPPED["borders"][3]), "sea[0]"),
    ("start not bordering the launch", _drop_border("cantium", "atrebates"), "borders"),
    ("cut off region", _isolate("dumnonii"), "unreachable"),
]


@pytest.mark.parametrize(("what", "edit", "field"), BROKEN, ids=[b[0] for b in BROKEN])
def test_broken_board_names_its_field(what: str, edit: Callable[[dict[str, Any]], None],
                                      field: str) -> None:
    doc = copy.deepcopy(SHIPPED)
    edit(doc)
    with pytest.raises(BoardDataError, match=re.escape(field)):
        parse_board(doc, "<test>")
    assert json.dumps(doc) != json.dumps(SHIPPED), what  # the variant changed something


def test_broken_board_message_starts_with_where() -> None:
    doc = copy.deepcopy(SHIPPED)
    doc["regions"][3]["kind"] = "forest"
    with pytest.raises(BoardDataError, match=r"^<test>: regions\[3\]\.kind: 'forest'"):
        parse_board(doc, "<test>")


def test_parse_refuses_a_non_mapping() -> None:
    with pytest.raises(BoardDataError, match="JSON object"):
        parse_board([], "<test>")  # type: ignore[arg-type]


def test_a_variant_of_the_board_loads_and_differs() -> None:
    """Valid edits load: the validator is not just comparing with the shipped file."""
    doc = copy.deepcopy(SHIPPED)
    doc["regions"][DARK]["picts"] = [1, 1, 2]
    doc["regions"][_at("silures")]["picts"] = [1, 1, 1]  # 4p total back to 33
    doc["sea"] = []  # the validator does not demand a sea pair (a geography fact)
    board = load_board(doc)
    assert board != BOARD
    assert sum(board.picts_for(4)) == 33
    assert board.regions[DARK].picts == (1, 1, 2)


def test_board_is_frozen() -> None:
    with pytest.raises(AttributeError):
        BOARD.name = "other"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        BOARD.regions[0].kind = "dark"  # type: ignore[misc]
    assert isinstance(BOARD, Board)


# --------------------------------------------------------------------------------------
# Pictures
# --------------------------------------------------------------------------------------

def _view(board: Board = BOARD, **changes: Any) -> dict[str, Any]:
    """A hand-made 2-player view in the spec's format: fortresses on both start regions,
    player 0's settler in the launch region, a settlement being built face down."""
    picts = board.picts_for(2)
    regions = [{"region": r.key, "kind": r.kind, "face_down": picts[i], "assault": 0,
                "printed_assault": r.printed_assault, "laurel": r.laurel,
                "buildings": [], "settlers": [0, 0], "legions": [0, 0]}
               for i, r in enumerate(board.regions)]
    a, b = board.starts
    regions[a]["buildings"] = [{"player": 0, "type": "fortress", "stage": 1,
                                "face_down": False}]
    regions[b]["buildings"] = [{"player": 1, "type": "fortress", "stage": 2,
                                "face_down": False},
                               {"player": 0, "type": "rampart", "stage": 1,
                                "face_down": False}]
    dark = next(i for i, r in enumerate(board.regions) if r.kind == "dark")
    regions[dark]["buildings"] = [{"player": 1, "type": "settlement", "stage": 3,
                                   "face_down": True}]
    regions[dark]["assault"] = 2
    regions[dark]["settlers"] = [0, 1]
    regions[dark]["legions"] = [2, 0]
    regions[board.launch]["settlers"] = [3, 0]
    view: dict[str, Any] = {
        "game": "albion", "options": {"players": 2}, "viewer": None, "phase": "building",
        "current_player": 1, "turn_player": 1, "start_player": 0, "round": 7,
        "max_rounds": 100, "regions": regions,
        "players": [
            {"player": p, "resources": {"fish": 3, "wood": p + 1, "stone": 0, "gold": 2},
             "movement": 2 + p, "settlers_in_supply": 1, "legions_in_supply": 1 + p,
             "defence": 1 - p, "production": {"fish": 1, "wood": 1, "stone": 0, "gold": 0},
             "stage4": p, "start_player": p == 0} for p in range(2)],
        "supply": {"fish": 18, "wood": 19, "stone": 20, "gold": 14}, "neutral_markers": 21,
        "picts": {"unrevealed": 22, "assault_unrevealed": 12, "peace_unrevealed": 10,
                  "in_box": 2},
        "points_left": 3, "build": None, "end_triggered": False, "winners": None,
        "end_reason": None, "legal_moves": ["end"],
    }
    view.update(changes)
    return view


def _svg_texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]


def _titles(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return ["".join(t.itertext()) for t in root.iter(f"{SVG}title")]


def test_text_board_lists_every_region_and_the_players() -> None:
    text = render_text(_view(), BOARD)
    lines = text.splitlines()
    assert lines[0] == ("Albion - round 7 of 100, phase building, player 1 to move, "
                        "start player 0, 3 movement points left")
    assert len(lines) == 1 + len(BOARD.regions) + 2 + 1
    for line, r in zip(lines[1:], BOARD.regions, strict=False):
        assert line.split()[0] == r.key + ("@" if r.laurel else "")
        assert line.split()[1] == r.kind
    assert lines[-3].startswith("player 0 (start player) | fish 3 wood 1 stone 0 gold 2 | "
                                "movement 2 | defence 1 | produces fish 1 wood 1")
    assert lines[-3].endswith("supply 1 settlers 1 legionnaires | stage IV 0")
    assert lines[-2].endswith("stage IV 1 | to move")
    assert lines[-1] == ("supply fish 18 wood 19 stone 20 gold 14 | neutral markers 21 | "
                         "Picts unrevealed 22 (assault 12, peace 10; face down on the board "
                         "and 2 in the box), in the box 2")


def test_text_board_symbols() -> None:
    text = render_text(_view(), BOARD)
    by_key = {line.split()[0].rstrip("@"): line for line in text.splitlines()[1:]
              if line.split()[0].rstrip("@") in {r.key for r in BOARD.regions}}
    a, b = (BOARD.regions[i].key for i in BOARD.starts)
    assert re.search(r"\s0F1$", by_key[a])
    assert re.search(r"\s1F2 0R1$", by_key[b])
    dark = next(r for r in BOARD.regions if r.kind == "dark")
    n = BOARD.picts_for(2)[BOARD.index(dark.key)]
    assert re.search(rf"\?{n} !2\s.*1S3~\s+0:2l 1:1s$", by_key[dark.key])  # face down ~
    assert by_key[BOARD.regions[BOARD.launch].key].endswith("0:3s")
    printed = next(r for r in BOARD.regions if r.printed_assault)
    assert f"+{printed.printed_assault}" in by_key[printed.key]
    assert re.search(r"^lugi\s+gold\s+\.\s+-$", by_key["lugi"])
    laurel = BOARD.regions[BOARD.laurels[0]]
    assert by_key[laurel.key].startswith(laurel.key + "@")


def test_text_board_headers() -> None:
    chance = render_text(_view(current_player=-1), BOARD)
    assert "chance to act" in chance.splitlines()[0]
    over = render_text(_view(current_player=-4, phase="over", winners=[1],
                             end_reason="three stage IV settlements"), BOARD)
    assert "game over: player 1 won (three stage IV settlements)" in over.splitlines()[0]
    drawn = render_text(_view(current_player=-4, phase="over", end_reason="round cap"),
                        BOARD)
    assert "game over: a draw (round cap)" in drawn.splitlines()[0]
    other = render_text(_view(current_player=0, turn_player=1, end_triggered=True), BOARD)
    assert "player 0 to move (turn of player 1)" in other.splitlines()[0]
    assert other.splitlines()[0].endswith("last round")
    mine = render_text(_view(viewer=1), BOARD)
    assert mine.splitlines()[-2].endswith("| (you) | to move")
    building = render_text(_view(build={"region": "dumnonii", "stage": 1}), BOARD)
    assert "building: stage I in dumnonii" in building.splitlines()  # in words


def test_svg_is_valid_and_draws_every_region() -> None:
    svg = render_svg(_view(), BOARD)
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg" and root.get("width") == "900"
    texts = _svg_texts(svg)
    for r in BOARD.regions:
        assert r.name in texts
    assert len(list(root.iter(f"{SVG}polygon"))) == len(BOARD.regions)
    dashed = [ln for ln in root.iter(f"{SVG}line") if ln.get("stroke-dasharray")]
    assert len(dashed) == len(BOARD.sea)
    titles = _titles(svg)
    assert titles.count("laurel wreath") == 3
    assert "player 1 settlement stage 3 (face down, being built)" in titles
    assert "player 0 fortress stage 1" in titles
    assert "player 0: 2 legionnaires" in titles and "player 1: 1 settler" in titles
    assert "2 face-up assault Picts" in titles
    legend = " ".join(texts)
    assert "phase building" in legend and "neutral markers 21" in legend
    face_down = [r for r in root.iter(f"{SVG}rect") if r.get("stroke-dasharray")]
    assert len(face_down) == 1


def test_svg_size_and_no_outline_board() -> None:
    small = ET.fromstring(render_svg(_view(), BOARD, size=400))
    assert small.get("width") == "400"
    for size in (True, 10, 10**6, "900", 900.0):
        with pytest.raises(ValueError):
            render_svg(_view(), BOARD, size=size)  # type: ignore[arg-type]
    doc = copy.deepcopy(SHIPPED)
    for r in doc["regions"]:
        del r["outline"]
    bare = load_board(doc)
    root = ET.fromstring(render_svg(_view(bare), bare))
    assert not list(root.iter(f"{SVG}polygon"))
    solid = [ln for ln in root.iter(f"{SVG}line") if not ln.get("stroke-dasharray")]
    assert len(solid) == len(bare.borders)


def test_pictures_escape_hostile_strings() -> None:
    doc = copy.deepcopy(SHIPPED)
    doc["title"] = "A <map> & more"
    doc["regions"][DARK]["name"] = '<Dumnonii & "Co">'
    board = load_board(doc)
    view = _view(board, phase="<phase>&", end_reason="</svg>")
    view["regions"][DARK]["buildings"] = [{"player": "<p>", "type": "<script>",
                                           "stage": "&1", "face_down": False}]
    svg = render_svg(view, board)
    texts = _svg_texts(svg)  # parses: nothing unescaped
    assert '<Dumnonii & "Co">' in texts
    assert any("<phase>&" in t for t in texts)
    assert "A <map> & more" in _titles(svg)
    assert "?&1" in texts
    text = render_text(view, board)
    assert "<p>?&1" in text


def test_pictures_are_deterministic_and_ignore_order_and_extra_keys() -> None:
    view = _view()
    text, svg = render_text(view, BOARD), render_svg(view, BOARD)
    assert render_text(_view(), BOARD) == text
    assert render_svg(_view(), BOARD) == svg
    view["future_key"] = {"anything": [1, 2]}
    for entry in view["regions"]:
        entry["note"] = "extra"
    view["regions"].reverse()
    assert render_text(view, BOARD) == text
    assert render_svg(view, BOARD) == svg


def test_pictures_refuse_a_region_the_board_lacks() -> None:
    view = _view()
    view["regions"][0]["region"] = "atlantis"
    with pytest.raises(ValueError, match="atlantis"):
        render_text(view, BOARD)
    view["regions"][0]["region"] = None
    with pytest.raises(ValueError, match="names no region"):
        render_svg(view, BOARD)


def test_sparse_view_draws_blanks() -> None:
    """A view with only some keys still draws (missing counts as 0 / blank)."""
    view = {"regions": [{"region": "cantium"}], "players": [{"player": 0}]}
    text = render_text(view, BOARD)
    assert len(text.splitlines()) == 1 + len(BOARD.regions) + 2
    ET.fromstring(render_svg(view, BOARD))
