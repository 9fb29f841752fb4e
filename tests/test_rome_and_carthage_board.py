"""Rome & Carthage map data: the shipped (reconstructed) Mediterranean map, the loader's
checks on a user's map, and the SVG and text pictures drawn from a view."""

from __future__ import annotations

import copy
import json
import os
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

from boardrules.errors import BoardDataError
from boardrules.games.rome_and_carthage.board import (
    BOARDS_DIR,
    CITY_FIELDS,
    DEFAULT_BOARD,
    EMPIRES,
    FIELDS,
    MAX_BOARD_FILE_BYTES,
    MAX_CITIES,
    RESERVED_KEYS,
    Board,
    load_board,
    parse_board,
    shipped_boards,
)
from boardrules.games.rome_and_carthage.render import render_svg, render_text

SHIPPED: dict[str, Any] = json.loads(
    (BOARDS_DIR / "mediterranean.json").read_text(encoding="utf-8"))
BOARD = load_board(DEFAULT_BOARD)
SVG = "{http://www.w3.org/2000/svg}"
CAPITALS = ["roma", "carthago", "byzantium", "alexandria"]


def _reach(board: Board, start: int, step: Callable[[int], Iterable[int]],
           allowed: Callable[[int], bool] = lambda i: True) -> set[int]:
    seen = {start}
    todo = [start]
    while todo:
        for nxt in step(todo.pop()):
            if nxt not in seen and allowed(nxt):
                seen.add(nxt)
                todo.append(nxt)
    return seen


def _both(board: Board) -> Callable[[int], tuple[int, ...]]:
    return lambda i: board.land_neighbours(i) + board.sea_neighbours(i)


# --------------------------------------------------------------------------------------
# The shipped map
# --------------------------------------------------------------------------------------

def test_the_shipped_map_is_listed_and_default() -> None:
    assert DEFAULT_BOARD == "mediterranean"
    assert shipped_boards() == ["mediterranean"]
    assert BOARD.name == "mediterranean"
    assert BOARD.provenance == "reconstructed"
    assert BOARD.sources


def test_56_cities_14_an_empire_one_capital_each() -> None:
    """boards.md: four empires, each its capital plus 13 cities -> 56 cities."""
    assert EMPIRES == ("rome", "carthage", "byzantium", "alexandria")
    assert len(BOARD.cities) == 56
    for e in range(4):
        own = [c for c in BOARD.cities if c.empire == e]
        assert len(own) == 14
        assert sum(c.capital for c in own) == 1
    assert [BOARD.cities[BOARD.capital(e)].key for e in range(4)] == CAPITALS


def test_loading_order_capital_first_empires_contiguous() -> None:
    """The loader sorts cities by (empire, capital first, file order)."""
    assert BOARD.capital(0) == 0
    for e in range(4):
        own = BOARD.cities_of(e)
        assert own == tuple(range(14 * e, 14 * e + 14))
        assert own[0] == BOARD.capital(e)
    for e, empire in enumerate(EMPIRES):
        in_file = [c["key"] for c in SHIPPED["cities"]
                   if c["empire"] == empire and not c["capital"]]
        loaded = [BOARD.cities[i].key for i in BOARD.cities_of(e)]
        assert loaded == [CAPITALS[e], *in_file]


def test_ports_islands_and_the_stuck_land_army() -> None:
    """Some ports, and an island with a port city and a non-port city: a land army on it
    can never reach the mainland (the rulebook's tip), and no galley can enter the
    non-port city."""
    ports = [c for c in BOARD.cities if c.port]
    assert 0 < len(ports) < len(BOARD.cities)
    islands: dict[str, list[int]] = {}
    for i, c in enumerate(BOARD.cities):
        if c.island is not None:
            islands.setdefault(c.island, []).append(i)
    mixed = [name for name, cities in islands.items()
             if any(BOARD.cities[i].port for i in cities)
             and any(not BOARD.cities[i].port for i in cities)]
    assert mixed, "no island has both a port and a non-port city"
    for name in mixed:
        for i in islands[name]:
            by_land = _reach(BOARD, i, BOARD.land_neighbours)
            assert {BOARD.cities[j].island for j in by_land} == {name}
            if not BOARD.cities[i].port:
                assert BOARD.sea_neighbours(i) == ()
    enna = BOARD.index("enna")
    assert BOARD.cities[enna].island == "Sicilia" and not BOARD.cities[enna].port
    assert BOARD.land_neighbours(enna)


def test_capitals_not_adjacent() -> None:
    capitals = {BOARD.capital(e) for e in range(4)}
    for c in capitals:
        assert not capitals & set(BOARD.land_neighbours(c) + BOARD.sea_neighbours(c))


def test_connected_by_land_and_sea() -> None:
    assert _reach(BOARD, 0, _both(BOARD)) == set(range(56))


def test_every_port_on_a_sea_route_and_only_ports_at_sea() -> None:
    for i, c in enumerate(BOARD.cities):
        assert bool(BOARD.sea_neighbours(i)) == c.port, c.key
    for a, b in BOARD.sea:
        assert BOARD.cities[a].port and BOARD.cities[b].port


def test_links_symmetric_and_sorted_after_loading() -> None:
    for links, near in ((BOARD.land, BOARD.land_neighbours),
                        (BOARD.sea, BOARD.sea_neighbours)):
        assert list(links) == sorted(links)
        assert all(a < b for a, b in links)
        assert len(set(links)) == len(links)
        for i in range(56):
            for j in near(i):
                assert i in near(j)
                assert (min(i, j), max(i, j)) in links


def test_each_empire_hangs_together_through_its_own_cities() -> None:
    for e in range(4):
        own = set(BOARD.cities_of(e))
        assert _reach(BOARD, BOARD.capital(e), _both(BOARD), own.__contains__) == own


def test_mainland_frontiers_by_land_and_every_capital_within_reach() -> None:
    """Armies can meet: the mainland is one land network crossing every empire's
    border, and every capital is reachable by land or sea from every empire."""
    mainland = {i for i, c in enumerate(BOARD.cities) if c.island is None}
    by_land = _reach(BOARD, 0, BOARD.land_neighbours, mainland.__contains__)
    assert by_land == mainland
    frontiers = {frozenset((BOARD.cities[a].empire, BOARD.cities[b].empire))
                 for a, b in BOARD.land if BOARD.cities[a].empire != BOARD.cities[b].empire}
    assert len(frontiers) >= 3
    sea_frontiers = {frozenset((BOARD.cities[a].empire, BOARD.cities[b].empire))
                     for a, b in BOARD.sea if BOARD.cities[a].empire != BOARD.cities[b].empire}
    assert len(sea_frontiers) >= 4
    for e in range(4):
        reached = _reach(BOARD, BOARD.capital(e), _both(BOARD))
        assert {BOARD.capital(f) for f in range(4)} <= reached


def test_degrees_moderate_keys_and_drawing_box() -> None:
    for i, c in enumerate(BOARD.cities):
        assert len(BOARD.land_neighbours(i)) + len(BOARD.sea_neighbours(i)) >= 1
        assert len(BOARD.land_neighbours(i)) <= 6
        assert len(BOARD.sea_neighbours(i)) <= 6
        assert re.fullmatch(r"[a-z][a-z0-9_]{1,15}", c.key) and c.key not in RESERVED_KEYS
        assert 0 <= c.x <= 1000 and 0 <= c.y <= 700
    assert len({c.name for c in BOARD.cities}) == 56


def test_index_and_capital_lookups() -> None:
    assert BOARD.index("roma") == 0
    assert BOARD.index("carthago") == BOARD.capital(1)
    with pytest.raises(KeyError, match="atlantis"):
        BOARD.index("atlantis")
    with pytest.raises(KeyError):
        BOARD.index(3)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        BOARD.capital(4)


def test_to_json_round_trip() -> None:
    doc = BOARD.to_json()
    assert parse_board(json.loads(json.dumps(doc)), "<copy>") == BOARD
    assert load_board(doc).to_json() == doc
    assert sorted(doc) == sorted(FIELDS)


def test_file_order_and_link_order_do_not_matter() -> None:
    """Cities listed in reverse and every link written the other way round load to
    the same cities in each empire and the same routes."""
    doc = copy.deepcopy(SHIPPED)
    doc["cities"].reverse()
    doc["land"] = [[b, a] for a, b in reversed(doc["land"])]
    doc["sea"] = [[b, a] for a, b in doc["sea"]]
    board = load_board(doc)
    for e in range(4):
        assert board.cities[board.capital(e)] == BOARD.cities[BOARD.capital(e)]
        assert sorted(board.cities_of(e)) == list(board.cities_of(e))
        assert ({board.cities[i].key for i in board.cities_of(e)}
                == {BOARD.cities[i].key for i in BOARD.cities_of(e)})

    def named(b: Board, links: Iterable[tuple[int, int]]) -> set[frozenset[str]]:
        return {frozenset((b.cities[i].key, b.cities[j].key)) for i, j in links}

    assert named(board, board.land) == named(BOARD, BOARD.land)
    assert named(board, board.sea) == named(BOARD, BOARD.sea)


def test_64_cities_is_allowed() -> None:
    board = load_board(_with_extra_cities(MAX_CITIES - 56))
    assert len(board.cities) == MAX_CITIES
    assert board.cities[board.index("extra7")].empire == 0


# --------------------------------------------------------------------------------------
# A user's map: every check, on a mutated copy of the shipped map
# --------------------------------------------------------------------------------------

def _doc(**changes: Any) -> dict[str, Any]:
    doc = copy.deepcopy(SHIPPED)
    doc["provenance"] = "user"
    doc.update(changes)
    return doc


def _without(field: str) -> dict[str, Any]:
    doc = _doc()
    del doc[field]
    return doc


def _city(which: str, /, **changes: Any) -> dict[str, Any]:
    """The shipped map with city ``which``'s fields changed (``DELETE`` removes one)."""
    doc = _doc()
    city = next(c for c in doc["cities"] if c["key"] == which)
    for name, value in changes.items():
        if value is DELETE:
            del city[name]
        else:
            city[name] = value
    return doc


DELETE = object()


def _links(kind: str, *extra: Any, drop: Iterable[list[str]] = ()) -> dict[str, Any]:
    doc = _doc()
    dropped = [sorted(d) for d in drop]
    doc[kind] = [link for link in doc[kind] if sorted(link) not in dropped] + list(extra)
    return doc


def _with_extra_cities(n: int) -> dict[str, Any]:
    """``n`` more Roman inland cities in a chain off Capua (valid but for their count)."""
    doc = _doc()
    previous = "capua"
    for k in range(n):
        key = f"extra{k}"
        doc["cities"].append({"key": key, "name": f"Extra {k}", "empire": "rome",
                              "capital": False, "port": False, "island": None,
                              "x": 500, "y": 10 + k})
        doc["land"].append([previous, key])
        previous = key
    return doc


def _empire_shrunk_to(n: int) -> dict[str, Any]:
    """Rome keeps ``n`` cities (its capital among them); the rest turn Carthaginian."""
    doc = _doc()
    roman = [c for c in doc["cities"] if c["empire"] == "rome" and not c["capital"]]
    for c in roman[n - 1:]:
        c["empire"] = "carthage"
    return doc


def _second_capital() -> dict[str, Any]:
    return _city("mediolanum", capital=True)  # not adjacent to another capital


BAD_MAPS: list[tuple[str, dict[str, Any], str]] = [
    *[(f"missing-{f}", _without(f), f) for f in FIELDS],
    ("unknown-field", _doc(colour="purple"), "colour"),
    ("format-other", _doc(format="boardrules-state"), "format"),
    ("format_version-str", _doc(format_version="1"), "format_version"),
    ("format_version-true", _doc(format_version=True), "format_version"),
    ("format_version-float", _doc(format_version=1.0), "format_version"),
    ("format_version-2", _doc(format_version=2), "format_version"),
    ("game-armadora", _doc(game="armadora"), "game"),
    ("name-empty", _doc(name=""), "name"),
    ("name-int", _doc(name=3), "name"),
    ("name-long", _doc(name="m" * 65), "name"),
    ("title-none", _doc(title=None), "title"),
    ("provenance-fake", _doc(provenance="fake"), "provenance"),
    ("sources-str", _doc(sources="a book"), "sources"),
    ("sources-ints", _doc(sources=[1]), "sources"),
    ("cities-str", _doc(cities="roma"), "cities"),
    ("cities-dict", _doc(cities={}), "cities"),
    ("cities-65", _with_extra_cities(MAX_CITIES - 56 + 1), "cities"),
    ("city-null", _doc(cities=[None, *SHIPPED["cities"][1:]]), "cities"),
    *[(f"city-missing-{f}", _city("capua", **{f: DELETE}), f) for f in CITY_FIELDS],
    ("city-unknown-field", _city("capua", population=10), "population"),
    ("key-capital-letter", _city("capua", key="Capua"), "key"),
    ("key-one-letter", _city("capua", key="c"), "key"),
    ("key-digit-first", _city("capua", key="1capua"), "key"),
    ("key-dash", _city("capua", key="ca-pua"), "key"),
    ("key-17", _city("capua", key="c" * 17), "key"),
    ("key-int", _city("capua", key=7), "key"),
    *[(f"key-reserved-{w}", _city("capua", key=w), "key") for w in sorted(RESERVED_KEYS)],
    ("key-duplicate", _city("capua", key="neapolis"), "key"),
    ("name-duplicate", _city("capua", name="Neapolis"), "name"),
    ("name-duplicate-case", _city("capua", name="NEAPOLIS"), "name"),
    ("city-name-empty", _city("capua", name=" "), "name"),
    ("city-name-int", _city("capua", name=5), "name"),
    ("empire-gaul", _city("capua", empire="gaul"), "empire"),
    ("empire-int", _city("capua", empire=0), "empire"),
    ("capital-str", _city("capua", capital="yes"), "capital"),
    ("capital-int", _city("capua", capital=1), "capital"),
    ("port-none", _city("capua", port=None), "port"),
    ("port-int", _city("ostia", port=1), "port"),
    ("island-int", _city("enna", island=5), "island"),
    ("island-empty", _city("enna", island=""), "island"),
    ("island-false", _city("capua", island=False), "island"),
    ("x-str", _city("capua", x="1"), "x"),
    ("x-true", _city("capua", x=True), "x"),
    ("x-negative", _city("capua", x=-1), "x"),
    ("x-1001", _city("capua", x=1001), "x"),
    ("x-nan", _city("capua", x=float("nan")), "x"),
    ("x-inf", _city("capua", x=float("inf")), "x"),
    ("y-701", _city("capua", y=701), "y"),
    ("y-none", _city("capua", y=None), "y"),
    ("no-capital", _city("roma", capital=False), "capital"),
    ("two-capitals", _second_capital(), "capital"),
    ("empire-6-cities", _empire_shrunk_to(6), "cities"),
    ("land-str", _doc(land="roma-capua"), "land"),
    ("land-link-str", _links("land", "roma-capua"), "land"),
    ("land-link-1", _links("land", ["roma"]), "land"),
    ("land-link-3", _links("land", ["roma", "capua", "ostia"]), "land"),
    ("land-link-ints", _links("land", [0, 1]), "land"),
    ("land-unknown-city", _links("land", ["roma", "veii"]), "land"),
    ("land-self", _links("land", ["capua", "capua"]), "land"),
    ("land-duplicate", _links("land", ["roma", "capua"]), "land"),
    ("land-duplicate-reversed", _links("land", ["capua", "roma"]), "land"),
    ("land-island-to-mainland", _links("land", ["messana", "rhegium"]), "land"),
    ("land-island-to-island", _links("land", ["cnossus", "rhodus"]), "land"),
    ("land-two-capitals", _links("land", ["roma", "carthago"]), "land"),
    ("sea-dict", _doc(sea={}), "sea"),
    ("sea-unknown-city", _links("sea", ["ostia", "atlantis"]), "sea"),
    ("sea-self", _links("sea", ["ostia", "ostia"]), "sea"),
    ("sea-duplicate-reversed", _links("sea", ["ostia", "roma"]), "sea"),
    ("sea-non-port", _links("sea", ["capua", "ostia"]), "sea"),
    ("sea-two-capitals", _links("sea", ["carthago", "alexandria"]), "sea"),
    ("port-without-sea-route", _city("capua", port=True), "sea"),
    ("not-connected", _links("land", drop=[["cnossus", "gortyn"]]), "land"),
]


def _names_field(message: str, field: str) -> bool:
    """The message names ``field`` as a word (``format`` is not named by
    ``format_version``)."""
    return re.search(rf"(?<![\w-]){re.escape(field)}(?!\w)", message) is not None


@pytest.mark.parametrize("content,field", [(c, f) for _, c, f in BAD_MAPS],
                         ids=[i for i, _, _ in BAD_MAPS])
def test_bad_map_mapping(content: dict[str, Any], field: str) -> None:
    with pytest.raises(BoardDataError) as info:
        load_board(content)
    assert _names_field(str(info.value), field), \
        f"message does not name {field!r}: {info.value}"


@pytest.mark.parametrize("content,field", [(c, f) for _, c, f in BAD_MAPS[::7]],
                         ids=[i for i, _, _ in BAD_MAPS[::7]])
def test_bad_map_file(tmp_path: Path, content: dict[str, Any], field: str) -> None:
    path = tmp_path / "map.json"
    path.write_text(json.dumps(content), encoding="utf-8")
    for spec in (str(path), path):
        with pytest.raises(BoardDataError) as info:
            load_board(spec)
        message = str(info.value).replace(str(path), "<path>")
        assert _names_field(message, field), f"message does not name {field!r}: {message}"


def test_the_unmutated_copy_loads_and_bad_map_ids_are_unique() -> None:
    """The bad maps start from a copy that loads (so each fails by its mutation), and
    their ids are unique (a typo would silently test the same thing twice)."""
    assert load_board(_doc(provenance="reconstructed")) == BOARD
    ids = [i for i, _, _ in BAD_MAPS]
    assert len(ids) == len(set(ids))


def test_map_from_a_path(tmp_path: Path) -> None:
    path = tmp_path / "my_map.json"
    doc = _doc(name="my-map")
    path.write_text(json.dumps(doc), encoding="utf-8")
    for spec in (str(path), path):
        board = load_board(spec)
        assert board.name == "my-map" and board.provenance == "user"
        assert board.cities == BOARD.cities and board.land == BOARD.land


def test_map_not_a_regular_file(tmp_path: Path) -> None:
    with pytest.raises(BoardDataError, match="regular file"):
        load_board(tmp_path)
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)  # reading it would block: the loader must refuse without opening it
    with pytest.raises(BoardDataError, match="regular file"):
        load_board(fifo)
    if Path("/dev/null").exists():
        with pytest.raises(BoardDataError, match="regular file"):
            load_board("/dev/null")


def test_map_file_too_large(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_text(json.dumps(_doc(title="x" * MAX_BOARD_FILE_BYTES)), encoding="utf-8")
    with pytest.raises(BoardDataError, match="too large"):
        load_board(path)


@pytest.mark.parametrize("text", ["not json", "", "[]", '"mediterranean"', "null",
                                  "[" * 100_000], ids=lambda t: repr(t[:10]))
def test_map_file_not_a_json_object(tmp_path: Path, text: str) -> None:
    path = tmp_path / "map.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BoardDataError) as info:
        load_board(path)
    assert str(path) in str(info.value)


def test_map_file_not_utf8_or_missing(tmp_path: Path) -> None:
    path = tmp_path / "map.json"
    path.write_bytes(b"\xff\xfe{\x00}\x00\x80")
    with pytest.raises(BoardDataError):
        load_board(path)
    with pytest.raises(BoardDataError, match="no-such-map"):
        load_board(tmp_path / "no-such-map.json")
    with pytest.raises(BoardDataError, match="mediterranean"):
        load_board("mediterranean.json")  # neither a shipped name nor a file here


@pytest.mark.parametrize("spec", [3, None, b"mediterranean", ["mediterranean"]])
def test_map_spec_of_the_wrong_type(spec: Any) -> None:
    with pytest.raises(BoardDataError):
        load_board(spec)


# --------------------------------------------------------------------------------------
# Pictures, drawn from synthetic views
# --------------------------------------------------------------------------------------

def _army(empire: str, kind: str, player: int) -> dict[str, Any]:
    return {"empire": empire, "kind": kind, "player": player}


def _view(board: Board = BOARD, armies: dict[str, dict[str, Any]] | None = None,
          **changes: Any) -> dict[str, Any]:
    armies = armies or {}
    view: dict[str, Any] = {
        "game": "rome_and_carthage", "viewer": 0, "phase": "main", "current_player": 1,
        "turn_player": 1, "round": 4,
        "cities": [{"city": c.key, "army": armies.get(c.key), "attacker": None}
                   for c in board.cities],
        "players": [
            {"player": 0, "team": 0, "empires": ["rome", "alexandria"], "hand_size": 8,
             "hand": [0, 0, 2, 4, 6, 8, 10, 15], "armies": 14, "eliminated": False},
            {"player": 1, "team": 1, "empires": ["carthage", "byzantium"], "hand_size": 9,
             "hand": None, "armies": 12, "eliminated": False}],
        "pile_size": 20, "discard_size": 0, "battle": None, "winner_team": None,
    }
    view.update(changes)
    return view


ARMIES = {"roma": _army("rome", "infantry", 0), "ostia": _army("rome", "galley", 0),
          "carthago": _army("carthage", "elephant", 1),
          "byzantium": _army("byzantium", "chariot", 1),
          "lilybaeum": _army("carthage", "galley", 1)}


def _battle_view() -> dict[str, Any]:
    view = _view(armies=ARMIES, phase="battle", current_player=0,
                 battle={"city": "lilybaeum", "round": 1})
    view["cities"][BOARD.index("lilybaeum")]["attacker"] = _army("rome", "galley", 0)
    return view


def _svg_texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]


def test_svg_is_valid_and_draws_every_city_and_route() -> None:
    svg = render_svg(_view(), BOARD)
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    texts = _svg_texts(svg)
    for c in BOARD.cities:
        assert c.name in texts
    dashed = [ln for ln in root.iter(f"{SVG}line") if ln.get("stroke-dasharray")]
    assert len(dashed) == len(BOARD.sea)
    stars = list(root.iter(f"{SVG}polygon"))
    assert sum(1 for p in stars if p.get("fill") == "#ffffff") == 4  # the capitals
    assert {"Sicilia", "Creta", "Cyprus"} <= set(texts)  # islands are named


def test_svg_draws_armies_the_attacker_and_the_legend() -> None:
    svg = render_svg(_battle_view(), BOARD, size=700)
    root = ET.fromstring(svg)
    assert root.get("width") == "700"
    titles = ["".join(t.itertext()) for g in root.iter(f"{SVG}g")
              for t in g.iter(f"{SVG}title")]
    assert "rome infantry, player 0" in titles
    assert "carthage elephant, player 1" in titles
    assert "rome galley, player 0 (attacking)" in titles
    letters = [t for t in _svg_texts(svg) if len(t) == 1]
    assert sorted(letters) == sorted("IGECGG")
    attackers = [r for r in root.iter(f"{SVG}rect") if r.get("stroke") == "#d62020"]
    assert len(attackers) == 1
    legend = " ".join(_svg_texts(svg))
    assert "hand 0 0 2 4 6 8 10 15" in legend and "9 cards" in legend
    assert "14 armies" in legend and "pile 20" in legend and "phase battle" in legend
    quiet = ET.fromstring(render_svg(_view(armies=ARMIES), BOARD))
    assert not [r for r in quiet.iter(f"{SVG}rect") if r.get("stroke") == "#d62020"]


def test_svg_escapes_names() -> None:
    doc = _city("capua", name='<Capua & "Co">')
    doc["title"] = "A <map> & more"
    board = load_board(doc)
    view = _view(board, phase="<phase>&")
    svg = render_svg(view, board)
    texts = _svg_texts(svg)
    assert '<Capua & "Co">' in texts
    assert any("<phase>&" in t for t in texts)


@pytest.mark.parametrize("size", [True, 10, 10**6, "900", 900.0])
def test_svg_size_checked(size: Any) -> None:
    with pytest.raises(ValueError):
        render_svg(_view(), BOARD, size=size)


def test_text_board_shows_every_city_army_and_the_battle() -> None:
    text = render_text(_battle_view(), BOARD)
    lines = text.splitlines()
    assert lines[0].startswith("Rome & Carthage - phase battle, round 4, player 0 to move")
    assert "(turn of player 1)" in lines[0]
    for c in BOARD.cities:
        assert re.search(rf"(?<!\w){c.key}[*~#!]*\s", text), c.key
    assert re.search(r"roma\*~\s+RI\b", text)
    assert re.search(r"ostia~\s+RG\b", text)
    assert re.search(r"carthago\*~\s+CE\b", text)
    assert re.search(r"byzantium\*~\s+BC\b", text)
    assert re.search(r"lilybaeum~#!\s+CGxRG\b", text)
    assert re.search(r"enna#\s+\.", text)
    assert "battle at lilybaeum; round 1" in lines  # a partial view: what it gives
    assert ("player 0 | team 0 | rome, alexandria | hand 0 0 2 4 6 8 10 15 | 14 armies"
            " | (you) | to move") in lines
    assert "player 1 | team 1 | carthage, byzantium | 9 cards | 12 armies" in lines
    assert lines[-1] == "pile 20, discard 0"
    assert render_text(_battle_view(), BOARD) == text  # deterministic


def test_text_board_headers_and_equal_arms_piles() -> None:
    chance = render_text(_view(current_player=-1), BOARD)
    assert "chance to act" in chance.splitlines()[0]
    over = render_text(_view(current_player=-4, phase="over", winner_team=1), BOARD)
    assert "game over: team 1 wins" in over.splitlines()[0]
    drawn = render_text(_view(current_player=-4, phase="over"), BOARD)
    assert "game over: a draw" in drawn.splitlines()[0]
    equal = render_text(_view(pile_size=[10, 9], discard_size=[0, 1]), BOARD)
    assert equal.splitlines()[-1] == "piles 10/9, discards 0/1 (one a team)"
    out = render_text(_view(players=[{"player": 0, "team": 0, "empires": ["rome"],
                                      "hand_size": 0, "hand": None, "armies": 0,
                                      "eliminated": True}]), BOARD)
    assert "player 0 | team 0 | rome | 0 cards | 0 armies | eliminated | (you)" in out


def test_pictures_tolerate_extra_keys_and_any_city_order() -> None:
    view = _battle_view()
    plain_text, plain_svg = render_text(view, BOARD), render_svg(view, BOARD)
    view["future_key"] = {"anything": [1, 2]}
    for entry in view["cities"]:
        entry["note"] = "extra"
    view["cities"].reverse()
    assert render_text(view, BOARD) == plain_text
    assert render_svg(view, BOARD) == plain_svg
