"""Armada's pictures (boardrules.games.armada.render): the text board's symbols, the SVG's
elements, hidden hands, escaping, and partial views, all from views built by hand (the
rules core is not needed)."""

from __future__ import annotations

import copy
import json
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from boardrules.api import CHANCE, TERMINAL
from boardrules.games.armada.board import BOARDS_DIR, COLOURS, Board, load_board
from boardrules.games.armada.render import SHAPES, render_svg, render_text

BOARD = load_board("archipelago")
SHIPPED: dict[str, Any] = json.loads((BOARDS_DIR / "archipelago.json").read_text("utf-8"))
SVG = "{http://www.w3.org/2000/svg}"
CARDS = ("coup_de_main", "dope", "strategist", "attack_weapon")


def _view(board: Board = BOARD, **changes: Any) -> dict[str, Any]:
    """A full synthetic view of a 4-player game on ``board`` (keys as in the spec's
    view(player)): bands on every lair, a few explored central territories, ships at sea,
    in cities and in the box; ``changes`` replace top-level keys."""
    territories: list[dict[str, Any]] = []
    for i, t in enumerate(board.territories):
        lair = board.lair_of(i)
        territories.append({"territory": t.key, "flag": lair, "explored": lair is not None,
                            "colour": lair, "bands": 3 if t.city else (2 if lair else 0),
                            "gold": 0, "natives": 0})
    a, b, c = (territories[i] for i in _plain_central(board)[:3])
    a.update(explored=True, flag="brown", natives=4, gold=3)
    b.update(explored=True, flag="green", colour="green", bands=5, gold=2)
    c.update(explored=False)
    post = territories[board.trading_post("central")]
    post.update(explored=True, flag="raspberry", colour="raspberry", bands=1)
    seas = [s for s in range(len(board.seas)) if board.coastal(s)]
    open_sea = next(s for s in range(len(board.seas)) if not board.coastal(s))
    ships: list[dict[str, Any]] = []
    for n, colour in enumerate(COLOURS):
        city = board.cities(colour)[1]
        ships.append({"ship": 2 * n, "owner": colour, "where": "sea",
                      "at": board.seas[seas[n]].key, "crew": colour, "bands": 4, "gold": n})
        ships.append({"ship": 2 * n + 1, "owner": colour, "where": "city",
                      "at": board.territories[city].key, "crew": None, "bands": 0,
                      "gold": 0})
    ships[6].update(where="box", at=None, crew=None, bands=0, gold=0)  # scuttled
    ships[2].update(at=board.seas[open_sea].key, crew=None, bands=0, gold=0)  # empty at sea
    view: dict[str, Any] = {
        "game": "armada", "options": {"players": 4, "cards": True}, "viewer": None,
        "phase": "turn", "current_player": 1, "acting_colour": "raspberry",
        "turn_colour": "raspberry", "round": 3, "max_rounds": 60, "actions_left": 7,
        "coup": None,
        "colours": [{"colour": c, "player": n, "in_play": True, "neutral": False,
                     "pool": 30 + n, "bands": 20 - n, "flags": 7 + n,
                     "victory_option": c == "blue"} for n, c in enumerate(COLOURS)],
        "players": [{"player": p, "colours": [COLOURS[p]], "hand_size": 2 + p,
                     "hand": None} for p in range(4)],
        "territories": territories, "ships": ships,
        "supply": {"gold": 41, "natives": 46}, "deck": 38, "played": {"dope": 2},
        "pending": None, "winners": None, "end_reason": None, "legal_moves": ["end"],
    }
    view.update(changes)
    return view


def _plain_central(board: Board = BOARD) -> list[int]:
    """Central-group territories without a trading post, in board order."""
    return [i for i in board.central_group() if board.territories[i].trading_post is None]


def _lines(text: str) -> dict[str, str]:
    """Text lines by their first word (a territory, sea or other line)."""
    return {line.split()[0]: line for line in text.splitlines() if line.split()}


def _svg_texts(svg: str) -> list[str]:
    return ["".join(t.itertext()) for t in ET.fromstring(svg).iter(f"{SVG}text")]


def _titles(svg: str) -> list[str]:
    return ["".join(t.itertext()) for t in ET.fromstring(svg).iter(f"{SVG}title")]


def _of_class(svg: str, kind: str) -> list[ET.Element]:
    return [e for e in ET.fromstring(svg).iter() if e.get("class") == kind]


# --- text ------------------------------------------------------------------------------

def test_text_header_and_pending() -> None:
    text = render_text(_view(), BOARD)
    assert text.splitlines()[0] == ("Armada - round 3 of 60, phase turn, player 1 to act, "
                                    "turn raspberry, acting raspberry, 7 actions left")
    view = _view(pending={"to": "s_c1", "kind": "move", "from": "gn1"},
                 coup={"colour": "blue", "actions_left": 2}, acting_colour="blue")
    lines = render_text(view, BOARD).splitlines()
    assert lines[0].endswith("acting blue, 7 actions left, coup de main by blue "
                             "(2 actions left)")
    assert lines[1] == "pending: kind move, from gn1, to s_c1"
    assert "chance to act" in render_text(_view(current_player=CHANCE), BOARD)
    over = render_text(_view(current_player=TERMINAL, phase="over", winners=[2],
                             end_reason="victory"), BOARD)
    assert "game over: player 2 won (victory)" in over.splitlines()[0]
    draw = render_text(_view(current_player=TERMINAL, phase="over",
                             end_reason="round_cap"), BOARD)
    assert "game over: a draw (round_cap)" in draw.splitlines()[0]


def test_text_lists_every_territory_under_its_island() -> None:
    lines = render_text(_view(), BOARD).splitlines()
    islands = [n for n, line in enumerate(lines) if line.startswith("island ")]
    assert len(islands) == len(BOARD.islands)
    for n, island in zip(islands, BOARD.islands, strict=True):
        assert lines[n] == f"island {island.key} ({island.name}), {island.group}"
        keys = [t.key for t in BOARD.territories if BOARD.islands[t.island] == island]
        assert [line.split()[0] for line in lines[n + 1:n + 1 + len(keys)]] == keys


def test_text_territory_symbols() -> None:
    by_key = _lines(render_text(_view(), BOARD))
    a, b, c = (BOARD.territories[i].key for i in _plain_central()[:3])
    assert re.fullmatch(rf"\s*{a}\s+\^N\s+\*\s+\$3 n4", by_key[a])  # brown flag, natives
    assert re.fullmatch(rf"\s*{b}\s+\^G\s+\*\s+G5 \$2", by_key[b])
    assert re.fullmatch(rf"\s*{c}\s+\.\s+\?", by_key[c])  # unexplored central territory
    assert re.fullmatch(r"\s*post_central\s+post:central\s+\^R\s+\*\s+R1",
                        by_key["post_central"])
    assert re.fullmatch(r"\s*post_north\s+post:north\s+\.\s+\?", by_key["post_north"])
    city1, city2 = (BOARD.territories[i].key for i in BOARD.cities("green")[:2])
    assert re.fullmatch(rf"\s*{city1}\s+city\s+\^G\s+\*\s+G3", by_key[city1])
    assert re.fullmatch(rf"\s*{city2}\s+city\s+\^G\s+\*\s+G3 S1:G -", by_key[city2])
    for colour, initial in zip(COLOURS, "GRBO", strict=True):
        plain = next(BOARD.territories[i].key for i in BOARD.lair(colour)
                     if not BOARD.territories[i].city)
        assert re.fullmatch(rf"\s*{plain}\s+\^{initial}\s+\*\s+{initial}2", by_key[plain])


def test_text_columns_hold_the_longest_key() -> None:
    long_key = "gn1_long_key_abc"  # 16 characters, the longest a key may be
    assert len(long_key) == 16
    board = load_board(json.loads(json.dumps(SHIPPED).replace('"gn1"', f'"{long_key}"')))
    line = _lines(render_text(_view(board), board))[long_key]
    assert line.split() == [long_key, "^G", "*", "G2"]
    city = _lines(render_text(_view(board), board))["gn3"]
    assert line.index("^G") == city.index("^G")  # the flag column lines up


def test_text_lair_territory_not_explored_has_no_question_mark() -> None:
    view = _view()
    for entry in view["territories"]:
        entry["explored"] = False
    by_key = _lines(render_text(view, BOARD))
    assert "?" not in by_key["gn1"] and "*" not in by_key["gn1"]
    assert "?" in by_key[BOARD.territories[BOARD.central_group()[0]].key]


def test_text_seas_box_colours_players_deck_supply() -> None:
    view = _view()
    lines = render_text(view, BOARD).splitlines()
    seas = lines.index("seas")
    ships = {s["ship"]: s for s in view["ships"]}
    at_sea = lines[seas + 1:seas + 4]
    assert len(at_sea) == 3  # ships 0, 2 and 4 (4 is green, raspberry empty, blue)
    assert any(re.fullmatch(rf"\s*{ships[0]['at']}\s+coast\s+S0:G G4", x) for x in at_sea)
    assert any(re.fullmatch(rf"\s*{ships[2]['at']}\s+open\s+S2:R -", x) for x in at_sea)
    assert any(re.fullmatch(rf"\s*{ships[4]['at']}\s+coast\s+S4:B B4 \$2", x)
               for x in at_sea)
    assert lines[seas + 4] == "box S6:O -"
    assert lines[seas + 5] == "green | player 0 | pool 30 | bands 20 | flags 7"
    assert lines[seas + 6] == "raspberry | player 1 | pool 31 | bands 19 | flags 8 | to act"
    assert lines[seas + 7].endswith("flags 9 | victory option")
    assert lines[seas + 9] == "player 0 (green) | 2 cards | hand hidden"
    assert lines[-2] == "deck 38 | played dope 2"
    assert lines[-1] == "supply gold 41 natives 46"


def test_text_neutral_and_absent_colours_and_two_colour_player() -> None:
    view = _view()
    view["colours"][3].update(neutral=True, player=None)
    view["colours"][2].update(in_play=False)
    view["players"][0]["colours"] = ["green", "blue"]
    by_colour = _lines(render_text(view, BOARD))
    assert by_colour["orange"].startswith("orange | player - | neutral | pool")
    assert by_colour["blue"].startswith("blue | player 2 | not in play | pool")
    assert "player 0 (green, blue) | 2 cards" in render_text(view, BOARD)


def test_hidden_hand_shows_no_card_names() -> None:
    spectator = _view()
    spectator["players"][1]["hand"] = None
    text, svg = render_text(spectator, BOARD), render_svg(spectator, BOARD)
    for card in ("coup_de_main", "strategist", "attack_weapon"):
        assert card not in text and card not in svg
    mine = _view(viewer=1)
    mine["players"][1]["hand"] = {"coup_de_main": 1, "strategist": 2, "attack_weapon": 0}
    lines = render_text(mine, BOARD).splitlines()
    me = next(line for line in lines if line.startswith("player 1 "))
    assert me == "player 1 (raspberry) | 3 cards | hand coup_de_main 1, strategist 2 | (you)"
    assert "attack_weapon" not in me  # a zero count is not shown
    others = [line for line in lines if line.startswith("player ") and line != me]
    assert others and all(line.endswith("hand hidden") for line in others)
    svg_mine = " ".join(_svg_texts(render_svg(mine, BOARD)))
    assert "hand coup_de_main 1, strategist 2" in svg_mine


def test_empty_hand_shows_none() -> None:
    view = _view(viewer=0)
    view["players"][0]["hand"] = {}
    assert "player 0 (green) | 2 cards | hand none | (you)" in render_text(view, BOARD)


# --- SVG -------------------------------------------------------------------------------

def test_svg_is_well_formed_with_one_element_per_territory_sea_and_ship() -> None:
    view = _view()
    svg = render_svg(view, BOARD)
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg" and root.get("width") == "900"
    assert len(_of_class(svg, "territory")) == len(BOARD.territories)
    assert len(list(root.iter(f"{SVG}polygon"))) == len(BOARD.territories)
    assert len(_of_class(svg, "sea")) == len(BOARD.seas)
    on_board = [s for s in view["ships"] if s["where"] != "box"]
    assert len(_of_class(svg, "ship")) == len(on_board) == 7
    assert len(_of_class(svg, "city")) == 12
    assert len(_of_class(svg, "post")) == 5
    texts = _svg_texts(svg)
    for t in BOARD.territories:
        assert t.key in texts
    for s in BOARD.seas:
        assert s.key in texts


def test_svg_sea_cells_shaded_coastal_or_open() -> None:
    fills = [next(iter(g.iter(f"{SVG}rect"))).get("fill")
             for g in _of_class(render_svg(_view(), BOARD), "sea")]
    coastal = [BOARD.coastal(s) for s in range(len(BOARD.seas))]
    assert len(set(fills)) == 2
    assert {f for f, c in zip(fills, coastal, strict=True) if c}.isdisjoint(
        {f for f, c in zip(fills, coastal, strict=True) if not c})


def test_svg_territories_filled_by_group() -> None:
    fills: dict[str, set[str | None]] = {}
    for n, poly in enumerate(_of_class(render_svg(_view(), BOARD), "territory")):
        fills.setdefault(BOARD.group_of(n), set()).add(poly.get("fill"))
    assert all(len(f) == 1 for f in fills.values())
    assert len({next(iter(f)) for f in fills.values()}) == len(fills) == 6


def test_svg_tokens_flags_bands_gold_natives() -> None:
    svg = render_svg(_view(), BOARD)
    titles = _titles(svg)
    flags = _of_class(svg, "flag")
    assert len(flags) == 28 + 3  # every lair territory, the two flagged central, the post
    assert titles.count("natives' flag (brown)") == 1
    brown = [e for g in flags for e in g.iter(f"{SVG}path") if e.get("fill") == "#7b4a1e"]
    assert len(brown) == 1
    assert "flag: green" in titles
    bands = _of_class(svg, "bands")
    assert len(bands) == 28 + 2
    assert "5 green bands" in titles and "1 raspberry bands" in titles
    rasp = [g for g in bands if "raspberry" in "".join(g.itertext())]
    assert all(r.get("fill") == "#c2185b" for g in rasp for r in g.iter(f"{SVG}rect"))
    gold = _of_class(svg, "gold")
    assert len(gold) == 2 + 1  # two territories and ship 4 (the others carry none)
    assert "3 gold" in titles
    natives = _of_class(svg, "natives")
    assert len(natives) == 1 and "4 natives" in titles
    assert len(_of_class(svg, "unexplored")) == 24 - 3  # a, b and the central post explored


def test_svg_ships_on_sea_and_in_city() -> None:
    view = _view()
    titles = _titles(render_svg(view, BOARD))
    green_city = BOARD.territories[BOARD.cities("green")[1]].key
    assert f"ship 1 of green unlaunched in {green_city}: no crew, 0 gold" in titles
    assert f"ship 4 of blue at {view['ships'][4]['at']}: crew blue 4 bands, 2 gold" in titles
    assert not any(t.startswith("ship 6 ") for t in titles)  # in the box
    hulls = {"".join(g.itertext()): g for g in _of_class(render_svg(view, BOARD), "ship")}
    blue = next(g for t, g in hulls.items() if t.startswith("ship 4 "))
    assert "#1f5fbf" in [p.get("fill") for p in blue.iter(f"{SVG}path")]
    assert "4" in "".join(blue.itertext()) and "2" in "".join(blue.itertext())


def test_svg_legend_has_header_colours_players_supply_and_shapes() -> None:
    svg = render_svg(_view(), BOARD)
    legend = " ".join(_svg_texts(svg))
    assert "Armada - round 3 of 60" in legend and "7 actions left" in legend
    assert "victory option" in legend and "hand hidden" in legend
    assert "supply gold 41 natives 46" in legend and "deck 38" in legend
    assert "yellow disc: gold" in legend
    swatches = [r.get("fill") for r in ET.fromstring(svg).iter(f"{SVG}rect")
                if r.get("stroke") == "#333333"]
    assert swatches == ["#2e8b3a", "#c2185b", "#1f5fbf", "#f08a00"]


def test_svg_size_and_legend_lines_wrapped_to_fit() -> None:
    small = render_svg(_view(coup={"colour": "blue", "actions_left": 2}), BOARD, size=400)
    assert ET.fromstring(small).get("width") == "400"
    texts = _svg_texts(small)
    start = next(n for n, t in enumerate(texts) if t.startswith("Armada - round 3"))
    legend = texts[start:]
    header = render_text(_view(coup={"colour": "blue", "actions_left": 2}),
                         BOARD).splitlines()[0]
    assert ", ".join(legend[:2]) == header  # cut in two at a comma
    width = 100  # characters a legend line holds at 400 pixels (font 7, 0.55 em each)
    assert all(len(t) <= width for t in legend)
    assert len(SHAPES) > width and legend[-1] == "light cell: coastal sea | dark cell: open sea"
    for size in (True, 10, 10**6, "900", 900.0):
        with pytest.raises(ValueError, match="size"):
            render_svg(_view(), BOARD, size=size)  # type: ignore[arg-type]


def test_svg_board_without_outlines_draws_discs() -> None:
    doc = copy.deepcopy(SHIPPED)
    for t in doc["territories"]:
        del t["outline"]
    bare = load_board(doc)
    root = ET.fromstring(render_svg(_view(bare), bare))
    assert not list(root.iter(f"{SVG}polygon"))
    discs = [e for e in root.iter(f"{SVG}circle") if e.get("class") == "territory"]
    assert len(discs) == len(bare.territories)


# --- robustness ------------------------------------------------------------------------

def test_pictures_escape_names_with_xml_characters() -> None:
    doc = copy.deepcopy(SHIPPED)
    doc["title"] = "Isles <&> \"more\""
    doc["territories"][0]["name"] = "<Cove & 'Bay'>"
    doc["islands"][0]["name"] = "Rock & <Roll>"
    board = load_board(doc)
    view = _view(board, phase="<phase>&", end_reason="</svg>",
                 pending={"kind": "<b>", "what": "a&b"})
    view["players"][0]["colours"] = ["<g>&"]
    view["territories"][0]["colour"] = '"><x>'
    svg = render_svg(view, board)
    titles = _titles(svg)  # parses: nothing unescaped
    assert "Isles <&> \"more\"" in titles
    assert any("<Cove & 'Bay'>" in t and "Rock & <Roll>" in t for t in titles)
    legend = " ".join(_svg_texts(svg))
    assert "phase <phase>&" in legend and "pending: kind <b>, what a&b" in legend
    assert "player 0 (<g>&)" in legend
    assert '2 "><x> bands' in titles
    text = render_text(view, board)
    assert "island gn_a (Rock & <Roll>), green" in text
    assert "?2" in _lines(text)["gn1"]  # an unknown colour's initial


def test_pictures_are_deterministic_and_ignore_order_and_extra_keys() -> None:
    view = _view()
    text, svg = render_text(view, BOARD), render_svg(view, BOARD)
    assert render_text(_view(), BOARD) == text and render_svg(_view(), BOARD) == svg
    view["future_key"] = {"anything": [1, 2]}
    for entry in view["territories"]:
        entry["note"] = "extra"
    view["territories"].reverse()
    assert render_text(view, BOARD) == text
    assert render_svg(view, BOARD) == svg


def test_pictures_refuse_a_place_the_board_lacks() -> None:
    view = _view()
    view["territories"][0]["territory"] = "atlantis"
    with pytest.raises(ValueError, match="atlantis"):
        render_text(view, BOARD)
    view["territories"][0]["territory"] = None
    with pytest.raises(ValueError, match="names no territory"):
        render_svg(view, BOARD)
    view = _view()
    view["ships"][0]["at"] = "s_nowhere"
    with pytest.raises(ValueError, match="s_nowhere"):
        render_svg(view, BOARD)


def test_pictures_refuse_what_is_not_a_view_or_a_board() -> None:
    for render in (render_text, render_svg):
        with pytest.raises(TypeError, match="view must be a mapping"):
            render(None, BOARD)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="board must be"):
            render(_view(), SHIPPED)  # type: ignore[arg-type]


@pytest.mark.parametrize("view", [
    {},
    {"territories": [{"territory": "gn1"}], "players": [{"player": 0}], "colours": [{}]},
    {"territories": "junk", "ships": [None, 3, {"ship": 9}], "supply": 5, "played": [1],
     "coup": {}, "pending": {}, "winners": "x", "round": None},
    {"ships": [{"ship": 0, "where": "sea"}, {"ship": 1, "where": "city", "at": None}],
     "territories": [{"territory": "ci1", "bands": True, "gold": "3", "flag": 7}],
     "players": [{"player": 2, "hand": {"dope": "two"}, "colours": "green"}]},
])
def test_partial_views_render_without_error(view: dict[str, Any]) -> None:
    text = render_text(view, BOARD)
    assert text.splitlines()[0].startswith("Armada - round - of -, phase -")
    assert sum(line.startswith("island ") for line in text.splitlines()) == 15
    root = ET.fromstring(render_svg(view, BOARD))
    assert len([e for e in root.iter() if e.get("class") == "territory"]) == 52


def test_empty_view_draws_blanks() -> None:
    lines = render_text({}, BOARD).splitlines()
    assert lines[0] == ("Armada - round - of -, phase -, player - to act, turn -, acting -, "
                        "- actions left")
    assert lines[-2:] == ["deck - | played none", "supply gold - natives -"]
    assert _lines("\n".join(lines))["gn3"].split() == ["gn3", "city", "."]
    assert not _of_class(render_svg({}, BOARD), "ship")


def test_spectator_view_from_spec_shape_renders() -> None:
    """A view exactly shaped like the spec's (hands None, pending deploy, 3 players with a
    neutral colour) draws."""
    view = _view(viewer=None, phase="setup", pending={"kind": "deploy", "territory": "gn1",
                                                      "left": 12})
    view["colours"][3].update(neutral=True, player=None)
    view["players"] = view["players"][:3]
    text = render_text(view, BOARD)
    assert "pending: kind deploy, left 12, territory gn1" in text
    assert all(card not in text for card in CARDS if card != "dope")
    ET.fromstring(render_svg(view, BOARD))
