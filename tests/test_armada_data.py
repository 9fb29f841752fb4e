"""Armada data (the first increment, no rules yet): the shipped (reconstructed) board of
the archipelago, the three special dice and the third-edition deck, the loaders' checks
on a user's files, and loading by name, path and mapping."""

from __future__ import annotations

import copy
import json
import math
import os
import re
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import boardrules.games
import boardrules.games.armada as armada
import boardrules.games.armada.deck as deck_module
from boardrules.errors import BoardDataError
from boardrules.games.armada.board import (
    BOARDS_DIR,
    COLOURS,
    DEFAULT_BOARD,
    GROUPS,
    MAX_BOARD_FILE_BYTES,
    MAX_SEAS,
    MAX_TERRITORIES,
    RESERVED_KEYS,
    TRADING_POSTS,
    Board,
    load_board,
    parse_board,
    shipped_boards,
)
from boardrules.games.armada.deck import (
    DECKS_DIR,
    DEFAULT_DECK,
    MAX_DECK_CARDS,
    THIRD_EDITION_CARDS,
    Deck,
    load_deck,
    parse_deck,
    shipped_decks,
)
from boardrules.games.armada.dice import (
    DEFAULT_DICE,
    DICE_DIR,
    Dice,
    load_dice,
    parse_dice,
    shipped_dice,
)

SHIPPED: dict[str, Any] = json.loads((BOARDS_DIR / "archipelago.json").read_text("utf-8"))
DICE_FILE: dict[str, Any] = json.loads((DICE_DIR / "reconstructed.json").read_text("utf-8"))
DECK_FILE: dict[str, Any] = json.loads((DECKS_DIR / "third_edition.json").read_text("utf-8"))
BOARD = load_board(DEFAULT_BOARD)
DICE = load_dice(DEFAULT_DICE)
DECK = load_deck(DEFAULT_DECK)

Edit = Callable[[dict[str, Any]], None]


def _t(key: str) -> int:
    return BOARD.territory_index(key)


def _s(key: str) -> int:
    return BOARD.sea_index(key)


def _islands_of(group: str) -> list[int]:
    return [i for i, isl in enumerate(BOARD.islands) if isl.group == group]


def _on_island(island: int) -> list[int]:
    return [i for i, t in enumerate(BOARD.territories) if t.island == island]


def _centroid(territories: tuple[int, ...] | list[int]) -> tuple[float, float]:
    ts = [BOARD.territories[i] for i in territories]
    return sum(t.x for t in ts) / len(ts), sum(t.y for t in ts) / len(ts)


def _sea_distances(start: int, blocked: frozenset[int] = frozenset()) -> dict[int, int]:
    dist = {start: 0}
    todo = deque([start])
    while todo:
        here = todo.popleft()
        for nxt in BOARD.sea_neighbours(here):
            if nxt not in dist and nxt not in blocked:
                dist[nxt] = dist[here] + 1
                todo.append(nxt)
    return dist


# --------------------------------------------------------------------------------------
# The package: the game and its data loaders
# --------------------------------------------------------------------------------------

def test_package_exports_the_game_and_the_loaders_and_is_registered() -> None:
    assert sorted(armada.__all__) == ["ArmadaGame", "ArmadaMove", "ArmadaState", "ArmadaView",
                                      "Board",
                                      "Deck", "Dice", "load_board", "load_deck",
                                      "load_dice", "shipped_boards", "shipped_decks",
                                      "shipped_dice"]
    assert "armada" in boardrules.games.available_games()


# --------------------------------------------------------------------------------------
# The shipped board
# --------------------------------------------------------------------------------------

def test_the_shipped_board_is_listed_default_and_reconstructed() -> None:
    assert DEFAULT_BOARD == "archipelago"
    assert shipped_boards() == ["archipelago"]
    assert BOARD.name == "archipelago"
    assert BOARD.provenance == "reconstructed"
    text = " ".join(BOARD.sources)
    assert "No public source" in text and "narrows" in text and "bay" in text


def test_order_is_file_order() -> None:
    assert [t.key for t in BOARD.territories] == [t["key"] for t in SHIPPED["territories"]]
    assert [s.key for s in BOARD.seas] == [s["key"] for s in SHIPPED["seas"]]
    assert [i.key for i in BOARD.islands] == [i["key"] for i in SHIPPED["islands"]]
    assert all(BOARD.territory_index(t.key) == i for i, t in enumerate(BOARD.territories))
    assert all(BOARD.sea_index(s.key) == i for i, s in enumerate(BOARD.seas))
    assert all(BOARD.island_index(s.key) == i for i, s in enumerate(BOARD.islands))


def test_island_groups() -> None:
    """Game Board: the central island and its two neighbouring islands; 4 lairs, each
    spread over 3 islands."""
    assert COLOURS == ("green", "raspberry", "blue", "orange")  # the fixed turn order
    assert GROUPS == ("central", "neighbour", "green", "raspberry", "blue", "orange")
    assert len(_islands_of("central")) == 1
    assert len(_islands_of("neighbour")) == 2
    for colour in COLOURS:
        islands = _islands_of(colour)
        assert len(islands) == 3
        assert sorted({BOARD.territories[t].island for t in BOARD.lair(colour)}) == islands
        assert all(_on_island(i) for i in islands)


def test_central_group_24_territories_with_the_five_trading_posts() -> None:
    group = BOARD.central_group()
    assert len(group) == 24
    assert TRADING_POSTS == ("central", "north", "south", "east", "west")
    posts = BOARD.trading_posts()
    assert len(set(posts)) == 5
    central = _islands_of("central")[0]
    for name, t in zip(TRADING_POSTS, posts, strict=True):
        assert BOARD.territories[t].trading_post == name
        assert BOARD.territories[t].island == central  # on the central island itself
        assert BOARD.trading_post(name) == t
    assert sum(t.trading_post is not None for t in BOARD.territories) == 5
    assert all(BOARD.lair_of(t) is None for t in group)


def test_lairs_seven_territories_three_cities_and_52_in_all() -> None:
    assert len(BOARD.territories) == 24 + 4 * 7 == 52 <= MAX_TERRITORIES
    cities = []
    for colour in COLOURS:
        lair = BOARD.lair(colour)
        assert len(lair) == 7
        assert all(BOARD.lair_of(t) == colour for t in lair)
        assert len(BOARD.cities(colour)) == 3
        assert set(BOARD.cities(colour)) <= set(lair)
        cities += BOARD.cities(colour)
    assert sorted(cities) == [i for i, t in enumerate(BOARD.territories) if t.city]
    assert not any(BOARD.territories[t].city for t in BOARD.central_group())


def test_lairs_in_the_corners_and_the_central_group_in_the_middle() -> None:
    """Green north-west, raspberry north-east, blue south-east, orange south-west (y
    downwards): clockwise, in turn order."""
    corners = {"green": (False, False), "raspberry": (True, False), "blue": (True, True),
               "orange": (False, True)}
    for colour, (east, south) in corners.items():
        for t in BOARD.lair(colour):
            x, y = BOARD.territories[t].x, BOARD.territories[t].y
            assert (x > 650) == east and (x < 350) == (not east), (colour, t)
            assert (y > 650) == south and (y < 350) == (not south), (colour, t)
    central = _on_island(_islands_of("central")[0])
    cx, cy = _centroid(central)
    assert abs(cx - 500) < 50 and abs(cy - 500) < 50
    assert all(250 < BOARD.territories[t].x < 750 and 250 < BOARD.territories[t].y < 750
               for t in central)
    for isl in _islands_of("neighbour"):  # between the lairs, not in a corner
        assert all(350 < BOARD.territories[t].x < 650 for t in _on_island(isl))


def test_neighbouring_islands_are_separate_and_near_the_central_one() -> None:
    central = _islands_of("central")[0]
    on_central = set(_on_island(central))
    central_coast = {s for t in on_central for s in BOARD.coast_of(t)}
    for isl in _islands_of("neighbour"):
        mine = set(_on_island(isl))
        for t in mine:  # no land link to another island
            assert set(BOARD.land_neighbours(t)) <= mine
        my_coast = {s for t in mine for s in BOARD.coast_of(t)}
        near = min(_sea_distances(s).get(c, 99) for s in my_coast for c in central_coast)
        assert near <= 2  # two sea moves at most from a space on the central island


def test_sea_spaces_coastal_and_open_and_all_connected() -> None:
    assert 60 <= len(BOARD.seas) <= 90 <= MAX_SEAS
    coastal = [s for s in range(len(BOARD.seas)) if BOARD.coastal(s)]
    assert 0 < len(coastal) < len(BOARD.seas)  # both kinds exist
    for s in range(len(BOARD.seas)):
        assert BOARD.coastal(s) == bool(BOARD.shore(s))
    assert len(_sea_distances(0)) == len(BOARD.seas)


def test_every_city_and_trading_post_is_coastal_and_every_island_reachable() -> None:
    for colour in COLOURS:
        for city in BOARD.cities(colour):
            assert BOARD.coast_of(city)  # a space to launch a ship onto
    for post in BOARD.trading_posts():
        assert BOARD.coast_of(post)
    for isl in range(len(BOARD.islands)):
        assert any(BOARD.coast_of(t) for t in _on_island(isl))


def test_central_trading_post_reached_only_through_the_narrows_into_the_bay() -> None:
    """Exploring: 'The Central Trading Post is difficult to access.'  Its only coastal
    space is the bay, whose only sea neighbour is the narrows; closing the narrows cuts
    the bay off from the rest of the ocean."""
    post = BOARD.trading_post("central")
    bay, narrows = _s("bay"), _s("narrows")
    assert BOARD.coast_of(post) == (bay,)
    assert BOARD.sea_neighbours(bay) == (narrows,)
    assert len(BOARD.sea_neighbours(narrows)) == 2
    assert post in BOARD.shore(bay)
    assert set(_sea_distances(bay, frozenset({narrows}))) == {bay}
    others = [BOARD.trading_post(n) for n in TRADING_POSTS[1:]]
    for t in others:  # the four other posts face the open ocean, not the bay
        assert BOARD.coast_of(t) and not set(BOARD.coast_of(t)) & {bay, narrows}


def test_central_post_lies_inside_the_central_island() -> None:
    post = BOARD.trading_post("central")
    central = _islands_of("central")[0]
    assert BOARD.territories[post].island == central
    assert len(BOARD.land_neighbours(post)) >= 3


def test_land_links_stay_on_one_island_and_islands_are_connected() -> None:
    for a, b in BOARD.land:
        assert a < b
        assert BOARD.territories[a].island == BOARD.territories[b].island
    assert list(BOARD.land) == sorted(set(BOARD.land))
    for i in range(len(BOARD.territories)):
        for j in BOARD.land_neighbours(i):
            assert (min(i, j), max(i, j)) in BOARD.land
    for isl in range(len(BOARD.islands)):
        members = _on_island(isl)
        seen, todo = {members[0]}, [members[0]]
        while todo:
            for nxt in BOARD.land_neighbours(todo.pop()):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        assert seen == set(members)


def test_coast_pairs_agree_with_shore_and_coast_of() -> None:
    assert list(BOARD.coast) == sorted(set(BOARD.coast))
    for s, t in BOARD.coast:
        assert t in BOARD.shore(s) and s in BOARD.coast_of(t)
    assert sum(len(BOARD.shore(s)) for s in range(len(BOARD.seas))) == len(BOARD.coast)
    for a, b in BOARD.sea:
        assert a < b and b in BOARD.sea_neighbours(a) and a in BOARD.sea_neighbours(b)


def test_farthest_lair_is_the_opposite_corner() -> None:
    assert {c: BOARD.farthest(c) for c in COLOURS} == {
        "green": "blue", "blue": "green", "raspberry": "orange", "orange": "raspberry"}
    for colour in COLOURS:
        here = _centroid(BOARD.lair(colour))
        far = max((c for c in COLOURS if c != colour),
                  key=lambda c: math.dist(here, _centroid(BOARD.lair(c))))
        assert BOARD.farthest(colour) == far


def test_keys_unique_across_kinds_and_not_notation_words() -> None:
    keys = ([t.key for t in BOARD.territories] + [s.key for s in BOARD.seas]
            + [i.key for i in BOARD.islands])
    assert len(set(keys)) == len(keys)
    assert {"launch", "scuttle", "raspberry", "brown", "dice"} <= RESERVED_KEYS
    assert not set(keys) & RESERVED_KEYS
    assert all(re.fullmatch(r"[a-z][a-z0-9_]{1,15}", k) for k in keys)
    names = [t.name.casefold() for t in BOARD.territories]
    assert len(set(names)) == len(names)


def test_labels_inside_outlines_inside_the_box() -> None:
    for t in BOARD.territories:
        assert t.outline is not None
        xs, ys = [p[0] for p in t.outline], [p[1] for p in t.outline]
        assert all(0 <= v <= 1000 for v in xs + ys)
        assert min(xs) < t.x < max(xs) and min(ys) < t.y < max(ys)
    assert all(0 <= s.x <= 1000 and 0 <= s.y <= 1000 for s in BOARD.seas)


def test_board_lookups_reject_unknown_values() -> None:
    with pytest.raises(ValueError, match="no territory 'bay'"):
        BOARD.territory_index("bay")  # a sea space, not a territory
    with pytest.raises(ValueError, match="no sea 'post_central'"):
        BOARD.sea_index("post_central")
    with pytest.raises(ValueError, match="no island"):
        BOARD.island_index("atlantis")
    with pytest.raises(ValueError, match="no territory"):
        BOARD.territory_index(3)  # type: ignore[arg-type]
    for colour in ("brown", "Green", None):
        with pytest.raises(ValueError, match="colour"):
            BOARD.cities(colour)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="colour"):
            BOARD.farthest(colour)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="trading post"):
        BOARD.trading_post("centre")


def test_board_to_json_round_trips_and_matches_the_file() -> None:
    doc = BOARD.to_json()
    assert doc == SHIPPED
    assert parse_board(doc, "<again>") == BOARD
    assert json.loads(json.dumps(doc)) == doc


def test_board_round_trip_without_outlines() -> None:
    doc = copy.deepcopy(SHIPPED)
    for t in doc["territories"]:
        del t["outline"]
    board = load_board(doc)
    assert all(t.outline is None for t in board.territories)
    assert board.to_json() == doc
    assert load_board(board.to_json()) == board


def test_board_is_frozen() -> None:
    with pytest.raises(AttributeError):
        BOARD.name = "other"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        BOARD.territories[0].city = False  # type: ignore[misc]
    assert isinstance(BOARD, Board)


# --------------------------------------------------------------------------------------
# Loading by name, path and mapping (the three loaders share board_files.load_board_spec)
# --------------------------------------------------------------------------------------

LOADERS: list[tuple[str, Callable[[Any], Any], dict[str, Any], Any]] = [
    ("board", load_board, SHIPPED, BOARD),
    ("dice", load_dice, DICE_FILE, DICE),
    ("deck", load_deck, DECK_FILE, DECK),
]


@pytest.mark.parametrize(("what", "load", "content", "shipped"), LOADERS,
                         ids=[x[0] for x in LOADERS])
def test_load_by_path_string_pathlike_and_mapping(
        tmp_path: Path, what: str, load: Callable[[Any], Any], content: dict[str, Any],
        shipped: Any) -> None:
    path = tmp_path / f"my_{what}.json"
    path.write_text(json.dumps(content), encoding="utf-8")
    assert load(str(path)) == shipped
    assert load(path) == shipped
    assert load(copy.deepcopy(content)) == shipped
    assert load(content["name"]) == shipped


@pytest.mark.parametrize(("what", "load", "content", "shipped"), LOADERS,
                         ids=[x[0] for x in LOADERS])
def test_load_refuses_unknown_names_bad_types_and_non_json(
        tmp_path: Path, what: str, load: Callable[[Any], Any], content: dict[str, Any],
        shipped: Any) -> None:
    with pytest.raises(BoardDataError, match="not a regular file"):
        load("no_such_file")
    for spec in (42, None, [content["name"]], b"archipelago"):
        with pytest.raises(BoardDataError, match="name, a path or a mapping"):
            load(spec)
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(BoardDataError, match="not JSON"):
        load(bad)
    listed = tmp_path / "list.json"
    listed.write_text("[]", encoding="utf-8")
    with pytest.raises(BoardDataError, match="JSON object"):
        load(listed)
    with pytest.raises(BoardDataError, match="not a regular file"):
        load(tmp_path)
    other = copy.deepcopy(content)
    other["format"] = "boardrules-other"
    with pytest.raises(BoardDataError, match="format"):
        load(other)


@pytest.mark.parametrize(("what", "load", "content", "shipped"), LOADERS,
                         ids=[x[0] for x in LOADERS])
def test_too_large_file_refused_and_exactly_the_limit_loads(
        tmp_path: Path, what: str, load: Callable[[Any], Any], content: dict[str, Any],
        shipped: Any) -> None:
    text = json.dumps(content)
    edge = tmp_path / "edge.json"
    edge.write_text(text + " " * (MAX_BOARD_FILE_BYTES - len(text.encode("utf-8"))),
                    encoding="utf-8")
    assert os.path.getsize(edge) == MAX_BOARD_FILE_BYTES == 200_000
    assert load(edge) == shipped
    big = tmp_path / "big.json"
    big.write_text(text + " " * (MAX_BOARD_FILE_BYTES + 1 - len(text.encode("utf-8"))),
                   encoding="utf-8")
    with pytest.raises(BoardDataError, match="too large"):
        load(big)


def test_shipped_files_are_well_under_the_limit() -> None:
    for folder in (BOARDS_DIR, DICE_DIR, DECKS_DIR):
        for path in folder.glob("*.json"):
            assert path.stat().st_size < MAX_BOARD_FILE_BYTES // 4


# --------------------------------------------------------------------------------------
# Board validation: each broken variant names its field
# --------------------------------------------------------------------------------------

def _set(path: tuple[Any, ...], value: Any) -> Edit:
    def edit(doc: dict[str, Any]) -> None:
        target: Any = doc
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = value
    return edit


def _delete(path: tuple[Any, ...]) -> Edit:
    def edit(doc: dict[str, Any]) -> None:
        target: Any = doc
        for step in path[:-1]:
            target = target[step]
        del target[path[-1]]
    return edit


def _drop_pairs(kind: str, key: str) -> Edit:
    def edit(doc: dict[str, Any]) -> None:
        doc[kind] = [p for p in doc[kind] if key not in p]
    return edit


def _add_pair(kind: str, a: str, b: str) -> Edit:
    def edit(doc: dict[str, Any]) -> None:
        doc[kind].append([a, b])
    return edit


def _move_to_island(territory: str, island: str) -> Edit:
    """Territory ``territory`` moves to ``island`` (its land links dropped)."""
    def edit(doc: dict[str, Any]) -> None:
        doc["territories"][_t(territory)]["island"] = island
        doc["land"] = [p for p in doc["land"] if territory not in p]
    return edit


def _too_many(kind: str, limit: int) -> Edit:
    def edit(doc: dict[str, Any]) -> None:
        base = doc[kind][0]
        for n in range(limit + 1 - len(doc[kind])):
            doc[kind].append(dict(base, key=f"extra{n}", name=f"Extra {n}"))
    return edit


CENTRAL_ISLAND = _islands_of("central")[0]
GN_CITY = BOARD.territories[BOARD.cities("green")[0]].key
GN_PLAIN = next(BOARD.territories[t].key for t in BOARD.lair("green")
                if not BOARD.territories[t].city)
GN_ISLAND = BOARD.islands[BOARD.territories[_t(GN_PLAIN)].island].key
CI = next(BOARD.territories[t].key for t in _on_island(CENTRAL_ISLAND)
          if BOARD.territories[t].trading_post is None)
NEIGHBOUR = BOARD.territories[_on_island(_islands_of("neighbour")[0])[0]].key
T3 = 3
TI = f"territories[{T3}]"

BOARD_BROKEN: list[tuple[str, Edit, str]] = [
    ("format", _set(("format",), "boardrules-dice"), "format"),
    ("format_version", _set(("format_version",), 2), "format_version"),
    ("format_version bool", _set(("format_version",), True), "format_version"),
    ("game", _set(("game",), "albion"), "game"),
    ("unknown field", _set(("colour",), "green"), "board: unknown field(s) ['colour']"),
    ("empty name", _set(("name",), " "), "name"),
    ("title type", _set(("title",), 3), "title"),
    ("provenance", _set(("provenance",), "guessed"), "provenance"),
    ("sources type", _set(("sources",), ["ok", 1]), "sources"),
    ("islands type", _set(("islands",), {}), "islands"),
    ("missing coast", _delete(("coast",)), "coast"),
    ("missing farthest", _delete(("farthest",)), "farthest"),
    ("island not object", _set(("islands", 0), "gn_a"), "islands[0]"),
    ("island unknown field", _set(("islands", 0, "size"), 3), "islands[0]"),
    ("island group", _set(("islands", 0, "group"), "brown"), "islands[0].group"),
    ("island key reserved", _set(("islands", 0, "key"), "ship"), "islands[0].key"),
    ("three neighbour islands", _set(("islands", 1, "group"), "neighbour"),
     "has 3 island(s) of group 'neighbour'"),
    ("island without territory", lambda doc: doc["islands"].append(
        {"key": "rock", "name": "Rock", "group": "neighbour"}), "island(s) of group"),
    ("territory not object", _set(("territories", T3), "x"), TI),
    ("territory unknown field", _set(("territories", T3, "gold"), 2), TI),
    ("key pattern", _set(("territories", T3, "key"), "Tortuga"), f"{TI}.key"),
    ("key too short", _set(("territories", T3, "key"), "t"), f"{TI}.key"),
    ("key too long", _set(("territories", T3, "key"), "t" * 17), f"{TI}.key"),
    ("key reserved", _set(("territories", T3, "key"), "explore"), f"{TI}.key"),
    ("key type", _set(("territories", T3, "key"), 7), f"{TI}.key"),
    ("key missing", _delete(("territories", T3, "key")), f"{TI}.key"),
    ("key repeated", _set(("territories", 4, "key"), SHIPPED["territories"][T3]["key"]),
     "territories[4].key"),
    ("key repeats a sea", _set(("territories", T3, "key"), "bay"), "key: repeats 'bay'"),
    ("sea key repeats an island", _set(("seas", 0, "key"), "central"), "seas[0].key"),
    ("name repeated", _set(("territories", 4, "name"),
                           SHIPPED["territories"][T3]["name"].upper()), "territories[4].name"),
    ("name too long", _set(("territories", T3, "name"), "N" * 65), f"{TI}.name"),
    ("island unknown", _set(("territories", T3, "island"), "atlantis"), f"{TI}.island"),
    ("city type", _set(("territories", T3, "city"), 1), f"{TI}.city"),
    ("city missing", _delete(("territories", T3, "city")), f"{TI}.city"),
    ("post missing", _delete(("territories", T3, "trading_post")), f"{TI}.trading_post"),
    ("post unknown", _set(("territories", _t(CI), "trading_post"), "centre"),
     f"territories[{_t(CI)}].trading_post"),
    ("post on a city", _set(("territories", _t(GN_CITY), "trading_post"), "north"),
     f"territories[{_t(GN_CITY)}].trading_post"),
    ("post off the central island", _set(("territories", _t(NEIGHBOUR), "trading_post"),
                                         "north"), f"territories[{_t(NEIGHBOUR)}]"),
    ("two north posts", _set(("territories", _t(CI), "trading_post"), "north"),
     "'north' trading post"),
    ("no central post", _set(("territories", _t("post_central"), "trading_post"), None),
     "'central' trading post"),
    ("city on the central island", _set(("territories", _t(CI), "city"), True),
     f"territories[{_t(CI)}].city"),
    ("fourth city", _set(("territories", _t(GN_PLAIN), "city"), True), "has 4 cities"),
    ("x range", _set(("territories", 1, "x"), 1000.5), "territories[1].x"),
    ("y negative", _set(("territories", 1, "y"), -1), "territories[1].y"),
    ("x nan", _set(("territories", 1, "x"), math.nan), "territories[1].x"),
    ("x bool", _set(("territories", 1, "x"), True), "territories[1].x"),
    ("y missing", _delete(("territories", 1, "y")), "territories[1].y"),
    ("outline short", _set(("territories", 1, "outline"), [[0, 0], [1, 1]]),
     "territories[1].outline"),
    ("outline point", _set(("territories", 1, "outline", 2), [1, 2, 3]),
     "territories[1].outline[2]"),
    ("outline range", _set(("territories", 1, "outline", 0), [0, 1001]),
     "territories[1].outline[0]"),
    ("sea unknown field", _set(("seas", 2, "name"), "Bay"), "seas[2]"),
    ("sea key", _set(("seas", 2, "key"), "2b"), "seas[2].key"),
    ("sea x", _set(("seas", 2, "x"), "1"), "seas[2].x"),
    ("no seas", _set(("seas",), []), "seas"),
    ("too many territories", _too_many("territories", MAX_TERRITORIES), "at most 64"),
    ("too many seas", _too_many("seas", MAX_SEAS), "at most 128"),
    ("lair of 8", _move_to_island("rs1", GN_ISLAND), "the green lair has 8 territories"),
    ("lair of 6", _move_to_island(GN_PLAIN, "central"), "has 25 territories on the central"),
    ("land not a pair", _set(("land", 0), ["gn1"]), "land[0]"),
    ("land unknown", _set(("land", 0), ["gn1", "atlantis"]), "land[0]"),
    ("land to a sea", _set(("land", 0), ["gn1", "bay"]), "land[0]"),
    ("land to itself", _set(("land", 0), ["gn1", "gn1"]), "land[0]"),
    ("land repeated", _set(("land", 1), list(reversed(SHIPPED["land"][0]))), "land[1]"),
    ("land across islands", _add_pair("land", GN_PLAIN, CI), f"land[{len(SHIPPED['land'])}]"),
    ("island cut in two", _drop_pairs("land", "post_central"), "not connected"),
    ("sea repeated", _set(("sea", 1), SHIPPED["sea"][0]), "sea[1]"),
    ("sea to a territory", _set(("sea", 0), [SHIPPED["sea"][0][0], "gn1"]), "sea[0]"),
    ("ocean cut in two", _drop_pairs("sea", "narrows"), "cannot be reached"),
    ("coast reversed", _set(("coast", 0), list(reversed(SHIPPED["coast"][0]))), "coast[0]"),
    ("coast repeated", _set(("coast", 1), SHIPPED["coast"][0]), "coast[1]"),
    ("landlocked central post", _drop_pairs("coast", "post_central"),
     f"territories[{_t('post_central')}]"),
    ("landlocked city", _drop_pairs("coast", GN_CITY), f"territories[{_t(GN_CITY)}]"),
    ("island with no coast", lambda doc: [_drop_pairs("coast", BOARD.territories[t].key)(doc)
                                          for t in _on_island(_islands_of("neighbour")[0])],
     f"islands[{_islands_of('neighbour')[0]}]"),
    ("farthest unknown colour", _set(("farthest", "brown"), "green"), "farthest"),
    ("farthest missing colour", _delete(("farthest", "orange")), "farthest.orange"),
    ("farthest itself", _set(("farthest", "green"), "green"), "farthest.green"),
    ("farthest not a colour", _set(("farthest", "green"), "brown"), "farthest.green"),
    ("farthest type", _set(("farthest",), ["blue"]), "farthest"),
]


@pytest.mark.parametrize(("what", "edit", "field"), BOARD_BROKEN,
                         ids=[b[0] for b in BOARD_BROKEN])
def test_broken_board_names_its_field(what: str, edit: Edit, field: str) -> None:
    doc = copy.deepcopy(SHIPPED)
    edit(doc)
    assert json.dumps(doc) != json.dumps(SHIPPED), what  # the variant changed something
    with pytest.raises(BoardDataError, match=re.escape(field)):
        parse_board(doc, "<test>")


def test_broken_board_message_starts_with_where_and_field() -> None:
    doc = copy.deepcopy(SHIPPED)
    doc["territories"][3]["island"] = "atlantis"
    with pytest.raises(BoardDataError,
                       match=r"^<test>: territories\[3\]\.island: names unknown island"):
        parse_board(doc, "<test>")
    with pytest.raises(BoardDataError, match="JSON object"):
        parse_board([], "<test>")  # type: ignore[arg-type]


def test_a_variant_of_the_board_loads_and_differs() -> None:
    """Valid edits load: the validator is not just comparing with the shipped file (a
    user's central post may face the open sea; the farthest lair is the file's word)."""
    doc = copy.deepcopy(SHIPPED)
    doc["coast"].append(["narrows", "post_central"])
    doc["farthest"]["green"] = "orange"
    doc["provenance"] = "user"
    board = load_board(doc)
    assert board != BOARD
    assert board.coast_of(board.trading_post("central")) == (_s("bay"), _s("narrows"))
    assert board.farthest("green") == "orange"


# --------------------------------------------------------------------------------------
# Dice
# --------------------------------------------------------------------------------------

def test_the_shipped_dice_are_listed_default_and_reconstructed() -> None:
    assert DEFAULT_DICE == "reconstructed"
    assert shipped_dice() == ["reconstructed"]
    assert DICE.provenance == "reconstructed" and "No public source" in DICE.sources[0]
    assert isinstance(DICE, Dice)


def test_six_faces_each_values_zero_to_three() -> None:
    assert len(DICE.combat) == len(DICE.gold) == len(DICE.tribes) == 6
    values = [v for face in DICE.combat for v in face] + list(DICE.gold + DICE.tribes)
    assert all(isinstance(v, int) and 0 <= v <= 3 for v in values)


def test_gold_and_tribes_dice_have_exactly_one_blank_face() -> None:
    """'Each die has one blank face, indicating that no gold or no tribe is present.'"""
    for die in (DICE.gold, DICE.tribes):
        assert die.count(0) == 1
        assert all(1 <= v <= 3 for v in die if v)


def test_combat_die_favours_the_attacker() -> None:
    """Outside sources: the combat die strongly favours the attacker."""
    lost_defenders = sum(d for d, _ in DICE.combat) / 6
    lost_attackers = sum(a for _, a in DICE.combat) / 6
    assert lost_defenders > lost_attackers
    assert (lost_defenders, lost_attackers) == (1.0, 0.5)


def test_dice_to_json_round_trips_and_matches_the_file() -> None:
    doc = DICE.to_json()
    assert doc == DICE_FILE
    assert parse_dice(doc, "<again>") == DICE


def test_a_user_die_favouring_the_defender_loads() -> None:
    doc = copy.deepcopy(DICE_FILE)
    doc["combat"] = [{"defenders": 0, "attackers": 3}] * 6
    doc["gold"] = [3, 3, 3, 3, 3, 0]
    doc["provenance"] = "user"
    dice = load_dice(doc)
    assert dice.combat == ((0, 3),) * 6 and dice.gold[-1] == 0
    assert load_dice(dice.to_json()) == dice


DICE_BROKEN: list[tuple[str, Edit, str]] = [
    ("format", _set(("format",), "boardrules-board"), "format"),
    ("game", _set(("game",), "armadora"), "game"),
    ("unknown field", _set(("colour",), "white"), "dice: unknown field(s) ['colour']"),
    ("missing combat", _delete(("combat",)), "combat"),
    ("combat type", _set(("combat",), {}), "combat"),
    ("five faces", _set(("combat",), DICE_FILE["combat"][:5]), "combat"),
    ("seven gold faces", _set(("gold",), [0, 1, 1, 1, 1, 1, 1]), "gold"),
    ("face not object", _set(("combat", 2), [1, 0]), "combat[2]"),
    ("face unknown field", _set(("combat", 2, "ships"), 1), "combat[2]"),
    ("face missing attackers", _delete(("combat", 2, "attackers")), "combat[2].attackers"),
    ("defenders too many", _set(("combat", 2, "defenders"), 4), "combat[2].defenders"),
    ("attackers negative", _set(("combat", 2, "attackers"), -1), "combat[2].attackers"),
    ("defenders bool", _set(("combat", 2, "defenders"), True), "combat[2].defenders"),
    ("defenders float", _set(("combat", 2, "defenders"), 1.0), "combat[2].defenders"),
    ("gold value", _set(("gold", 3), 4), "gold[3]"),
    ("gold string", _set(("gold", 3), "2"), "gold[3]"),
    ("gold no blank", _set(("gold", 0), 1), "gold: has 0 blank faces"),
    ("tribes two blanks", _set(("tribes", 1), 0), "tribes: has 2 blank faces"),
    ("tribes type", _set(("tribes",), "012223"), "tribes"),
]


@pytest.mark.parametrize(("what", "edit", "field"), DICE_BROKEN,
                         ids=[b[0] for b in DICE_BROKEN])
def test_broken_dice_name_their_field(what: str, edit: Edit, field: str) -> None:
    doc = copy.deepcopy(DICE_FILE)
    edit(doc)
    assert json.dumps(doc) != json.dumps(DICE_FILE), what
    with pytest.raises(BoardDataError, match=re.escape(field)):
        parse_dice(doc, "<test>")


# --------------------------------------------------------------------------------------
# Deck
# --------------------------------------------------------------------------------------

DESCRIBED = {"attack_weapon": 5, "defence_weapon": 5, "shipyard": 3, "coup_de_main": 4,
             "discovery": 2, "recruitment": 1, "big_recruitment": 1, "mobilisation": 1,
             "big_mobilisation": 1, "strategist": 8, "gold_mine": 8}


def _card(key: str) -> Any:
    return DECK.cards[DECK.index(key)]


def test_the_shipped_deck_is_listed_default_and_55_cards() -> None:
    assert DEFAULT_DECK == "third_edition"
    assert shipped_decks() == ["third_edition"]
    assert THIRD_EDITION_CARDS == 55 == DECK.total == sum(c.count for c in DECK.cards)
    assert DECK.provenance == "reconstructed"
    assert isinstance(DECK, Deck)


def test_the_39_described_cards_and_their_counts() -> None:
    described = {c.key: c.count for c in DECK.cards if c.provenance == "described"}
    assert described == DESCRIBED
    assert sum(described.values()) == 39


def test_dope_is_only_named_and_fills_the_16_unknown_cards() -> None:
    dope = _card("dope")
    assert dope.provenance == "named" and dope.french == "Dopé"
    assert dope.count == 55 - 39 == 16
    assert "three extra actions" in dope.text.lower()
    assert [c.key for c in DECK.cards if c.provenance != "described"] == ["dope"]
    sources = " ".join(DECK.sources)
    assert "victory-option" in sources and "action-counter" in sources


def test_card_timing() -> None:
    """Cards are played on one's own turn unless stated: the defence weapon ('during the
    turn of the attacking opponent') and Coup de main ('during the turn of another
    player') state otherwise."""
    others = {c.key for c in DECK.cards if c.timing == "other_turn"}
    assert others == {"defence_weapon", "coup_de_main"}
    assert all(c.timing == "own_turn" for c in DECK.cards if c.key not in others)


def test_card_keys_and_names() -> None:
    keys = [c.key for c in DECK.cards]
    assert len(set(keys)) == len(keys)
    assert not set(keys) & RESERVED_KEYS
    assert all(re.fullmatch(r"[a-z][a-z0-9_]{1,15}", k) for k in keys)
    assert len({c.name.casefold() for c in DECK.cards}) == len(keys)
    assert all(c.text.strip() and c.french.strip() for c in DECK.cards)
    with pytest.raises(ValueError, match="no card"):
        DECK.index("joker")


def test_deck_to_json_round_trips_and_matches_the_file() -> None:
    doc = DECK.to_json()
    assert doc == DECK_FILE
    assert parse_deck(doc, "<again>") == DECK


def test_a_small_user_deck_loads() -> None:
    doc = copy.deepcopy(DECK_FILE)
    doc["cards"] = doc["cards"][:2]
    doc["cards"][0]["count"] = 1
    doc["cards"][1]["timing"] = "any"
    doc["cards"][1]["provenance"] = "reconstructed"
    deck = load_deck(doc)
    assert deck.total == 1 + 5
    assert load_deck(deck.to_json()) == deck


def _total(n: int) -> Edit:
    def edit(doc: dict[str, Any]) -> None:
        doc["cards"][-1]["count"] = n - sum(c["count"] for c in doc["cards"][:-1])
    return edit


DECK_BROKEN: list[tuple[str, Edit, str]] = [
    ("format", _set(("format",), "boardrules-dice"), "format"),
    ("version", _set(("format_version",), 0), "format_version"),
    ("unknown field", _set(("jokers",), 2), "deck: unknown field(s) ['jokers']"),
    ("cards type", _set(("cards",), {}), "cards"),
    ("no cards", _set(("cards",), []), "cards"),
    ("card not object", _set(("cards", 1), "shipyard"), "cards[1]"),
    ("card unknown field", _set(("cards", 1, "cost"), 2), "cards[1]"),
    ("key reserved", _set(("cards", 1, "key"), "card"), "cards[1].key"),
    ("key pattern", _set(("cards", 1, "key"), "Shipyard"), "cards[1].key"),
    ("key repeated", _set(("cards", 2, "key"), "attack_weapon"), "cards[2].key"),
    # a card the rules do not play (the fuzz target's finding: the file loaded, the game
    # on it did not)
    ("key unknown", _set(("cards", 1, "key"), "difence_weapon"),
     "cards[1].key: unknown card 'difence_weapon'"),
    ("name repeated", _set(("cards", 2, "name"), "ATTACK WEAPON"), "cards[2].name"),
    ("french empty", _set(("cards", 2, "french"), ""), "cards[2].french"),
    ("text missing", _delete(("cards", 2, "text")), "cards[2].text"),
    ("text too long", _set(("cards", 2, "text"), "x" * 1001), "cards[2].text"),
    ("count zero", _set(("cards", 2, "count"), 0), "cards[2].count"),
    ("count bool", _set(("cards", 2, "count"), True), "cards[2].count"),
    ("count float", _set(("cards", 2, "count"), 3.0), "cards[2].count"),
    ("timing", _set(("cards", 2, "timing"), "always"), "cards[2].timing"),
    ("provenance", _set(("cards", 2, "provenance"), "guessed"), "cards[2].provenance"),
    ("total too large", _total(MAX_DECK_CARDS + 1), "hold 201 cards"),
]


@pytest.mark.parametrize(("what", "edit", "field"), DECK_BROKEN,
                         ids=[b[0] for b in DECK_BROKEN])
def test_broken_deck_names_its_field(what: str, edit: Edit, field: str) -> None:
    doc = copy.deepcopy(DECK_FILE)
    edit(doc)
    assert json.dumps(doc) != json.dumps(DECK_FILE), what
    with pytest.raises(BoardDataError, match=re.escape(field)):
        parse_deck(doc, "<test>")


def test_a_shipped_deck_must_hold_55_cards(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The 55-card total is demanded of a deck loaded by its shipped name only."""
    doc = copy.deepcopy(DECK_FILE)
    doc["cards"][-1]["count"] -= 1
    (tmp_path / "third_edition.json").write_text(json.dumps(doc), encoding="utf-8")
    monkeypatch.setattr(deck_module, "DECKS_DIR", tmp_path)
    with pytest.raises(BoardDataError, match=r"third_edition\.json: cards: hold 54 cards"):
        load_deck("third_edition")
    assert load_deck(tmp_path / "third_edition.json").total == 54  # as a user's file


def test_a_deck_of_exactly_200_cards_loads() -> None:
    doc = copy.deepcopy(DECK_FILE)
    _total(MAX_DECK_CARDS)(doc)
    assert load_deck(doc).total == 200
