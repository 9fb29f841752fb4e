"""Where moves land and what a viewer draws over a board: ``Game.move_locations``,
``Game.render_view_svg`` / ``render_view_text`` and the ``highlight``, ``marks`` and
``arrows`` of ``State.render_svg``, for every game, on moves of real (random) games; and
board names that never overlap."""

from __future__ import annotations

import hashlib
import itertools
import random
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

import pytest

import boardrules
from boardrules.api import CHANCE, Game, State
from boardrules.errors import InvalidMoveError
from boardrules.games.armada.render import render_svg as armada_svg

SVG = "{http://www.w3.org/2000/svg}"
GAMES = ("armadora", "rome_and_carthage", "armada", "albion", "tic_tac_toe", "connect_four",
         "pig")
#: One option set a game, small enough for a fast game and with its hidden moves.
OPTIONS: dict[str, dict[str, Any]] = {
    "armadora": {"players": 3, "variant": "advanced"},
    "rome_and_carthage": {"players": 2, "max_rounds": 12},
    "armada": {"players": 3, "max_rounds": 3, "cards": True, "neutral": "green"},
    "albion": {"players": 2, "max_rounds": 6},
}
OVERLAY_CLASSES = ("br-highlight", "br-mark", "br-arrow")


def _game(game_id: str) -> Game[Any, Any]:
    return boardrules.load(game_id, **OPTIONS.get(game_id, {}))


def _playout(game: Game[Any, Any], seed: int, moves: int) -> State[Any]:
    """A random game of ``moves`` moves at most (fewer when it ends)."""
    state: State[Any] = game.new_game(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_moves()))
    return state


def _states(game: Game[Any, Any], seed: int, moves: int, every: int) -> Iterator[State[Any]]:
    """A random game's states every ``every`` moves (the last one too)."""
    state = game.new_game(seed=seed)
    rng = random.Random(seed)
    for n in range(moves):
        if state.is_terminal():
            break
        if n % every == 0:
            yield state.copy()
        state.apply(rng.choice(state.legal_moves()))
    yield state


def known_locations(game: Game[Any, Any], view: Any) -> set[str]:
    """The locations of a game, read from its views and boards (not from the renderer)."""
    gid = game.id
    if gid == "tic_tac_toe":
        return {f"{c}{r}" for c in "abc" for r in (1, 2, 3)}
    if gid == "connect_four":
        return set("abcdefg") | {f"{c}{r}" for c in "abcdefg" for r in range(1, 7)}
    if gid == "armadora":
        squares = [sq["square"] for sq in view["squares"]]
        width = view["width"]
        gaps = {f"{squares[i]}-{squares[i + 1]}" for i in range(len(squares) - 1)
                if (i + 1) % width}
        gaps |= {f"{squares[i]}-{squares[i + width]}" for i in range(len(squares) - width)}
        return set(squares) | gaps
    if gid == "rome_and_carthage":
        return {entry["city"] for entry in view["cities"]}
    if gid == "armada":
        return ({entry["territory"] for entry in view["territories"]}
                | {sea.key for sea in game.board.seas})  # type: ignore[attr-defined]
    if gid == "albion":
        return {entry["region"] for entry in view["regions"]}
    return set()


def _overlays(svg: str, kind: str) -> list[ET.Element]:
    """The overlay groups of class ``kind`` (each ``<g>``; its parts carry it too)."""
    return [e for e in ET.fromstring(svg).iter(f"{SVG}g") if e.get("class") == kind]


# --- move_locations on real games --------------------------------------------------------

@pytest.mark.parametrize("game_id", GAMES)
def test_locations_of_real_moves_are_board_locations_and_get_highlighted(game_id: str) -> None:
    game = _game(game_id)
    located = 0
    for seed in (1, 2):
        state = _playout(game, seed, 150)
        view = state.view(None)
        known = known_locations(game, view)
        for move in state.history:
            places = game.move_locations(move)
            assert places == game.move_locations(str(move))
            assert set(places) <= known, (str(move), places)
            located += bool(places)
        # the last located moves, drawn highlighted on the final position
        last = [game.move_locations(m) for m in state.history][-8:]
        wanted = sorted({p for places in last for p in places})
        svg = state.render_svg(None, highlight=wanted)
        assert sorted(g.get("data-location") or "" for g in _overlays(svg, "br-highlight")) \
            == wanted
    assert (located > 0) == (game_id != "pig")


def test_locations_of_each_kind_of_move() -> None:
    armadora = boardrules.load("armadora", variant="advanced")
    assert armadora.move_locations("3@c2") == ("c2",)
    assert armadora.move_locations("d2-c2") == ("c2-d2",)  # a gap as the view names it
    assert armadora.move_locations("orc c2-c3") == ("c2-c3",)
    assert armadora.move_locations("reinforce e4") == ("e4",)
    for no_place in ("pass", "done", "gold 5", "race elf"):
        assert armadora.move_locations(no_place) == ()
    rc = boardrules.load("rome_and_carthage")
    assert rc.move_locations("roma-capua") == ("roma", "capua")
    assert rc.move_locations("infantry@roma") == ("roma",)
    assert rc.move_locations("battle capua") == ("capua",)
    for no_place in ("pass", "play 10+4", "draw 7", "treason"):
        assert rc.move_locations(no_place) == ()
    armada = boardrules.load("armada")
    assert armada.move_locations("ship gn3") == ("gn3",)
    assert armada.move_locations("deploy 3") == ()
    albion = boardrules.load("albion")
    launch = albion.board.regions[albion.board.launch].key
    fortress = next(str(m) for m in albion.new_game(seed=1).legal_moves())
    region = fortress.split()[1]
    assert albion.move_locations(f"launch {region}") == (launch, region)
    assert albion.move_locations(f"settler {launch}-{region}") == (launch, region)
    assert albion.move_locations("end") == ()
    assert boardrules.load("connect_four").move_locations("D") == ("d",)
    assert boardrules.load("tic_tac_toe").move_locations(" B2 ") == ("b2",)
    assert all(boardrules.load("pig").move_locations(m) == () for m in ("roll", "die 3"))


def test_redacted_moves_have_the_locations_of_the_moves_they_hide() -> None:
    """Armadora: another player's warrior ``?@c2`` is where the warrior went."""
    game = boardrules.load("armadora", players=2)
    state = _playout(game, 3, 40)
    hidden = 0
    for (mover, seen), move in zip(state.history_view(1), state.history, strict=True):
        if seen.startswith("?@"):
            hidden += 1
            assert mover == 0
            assert game.move_locations(seen) == game.move_locations(move) == (move.square,)
    assert hidden > 3
    with pytest.raises(InvalidMoveError):
        game.move_locations("?@z9")  # no such square
    with pytest.raises(InvalidMoveError):
        game.move_locations("?@")


@pytest.mark.parametrize("game_id", ["rome_and_carthage", "armada"])
def test_cards_hidden_in_a_log_have_no_location(game_id: str) -> None:
    game = _game(game_id)
    state = _playout(game, 2, 300)
    seen = [text for p in range(game.num_players) for _, text in state.history_view(p)]
    hidden = [text for text in seen if text.endswith("?")]
    assert hidden, "the game drew no card hidden from a player"
    assert all(game.move_locations(text) == () for text in hidden)


def test_move_locations_refuses_what_is_no_move() -> None:
    game = boardrules.load("armadora")
    with pytest.raises(InvalidMoveError):
        game.move_locations("fly to c2")
    with pytest.raises(InvalidMoveError):  # a move of another game
        game.move_locations(boardrules.load("tic_tac_toe").parse_move("a1"))
    with pytest.raises(TypeError):
        game.move_locations(3)


# --- the overlays --------------------------------------------------------------------

@pytest.mark.parametrize("game_id", [g for g in GAMES if g != "pig"])
def test_marks_and_arrows_appear_where_asked(game_id: str) -> None:
    game = _game(game_id)
    state = _playout(game, 4, 60)
    known = sorted(known_locations(game, state.view(None)))
    a, b, c = known[0], known[len(known) // 2], known[-1]
    svg = state.render_svg(0, highlight=[a], marks=[(b, "1"), (c, "2"), (a, "3")],
                           arrows=[(a, c), (b, a)])
    badges = _overlays(svg, "br-mark")
    assert [(g.get("data-location"), "".join(g.itertext())) for g in badges] == [
        (b, f"{b}: 11"), (c, f"{c}: 22"), (a, f"{a}: 33")]  # the title, then the label
    labels = [t.text for g in badges for t in g.iter(f"{SVG}text")]
    assert labels == ["1", "2", "3"]
    lines = _overlays(svg, "br-arrow")
    assert [(g.get("data-location"), g.get("data-from"), g.get("data-to")) for g in lines] \
        == [(a, a, c), (b, b, a)]
    assert all(len(list(g.iter(f"{SVG}polygon"))) == 1 for g in lines)  # a head each
    assert [g.get("data-location") for g in _overlays(svg, "br-highlight")] == [a]
    # every element added carries its class and location, and comes after the board
    root = ET.fromstring(svg)
    added = [e for e in root.iter() if e.get("class") in OVERLAY_CLASSES]
    assert all(e.get("data-location") for e in added)
    board_part = svg[:svg.index('class="br-')]
    assert "br-" not in board_part and svg.endswith("</svg>")


@pytest.mark.parametrize("game_id", GAMES)
def test_unknown_locations_raise_naming_them(game_id: str) -> None:
    game = _game(game_id)
    state = game.new_game(seed=1)
    before = state.to_json()
    for bad in ({"highlight": ["nowhere", "z99"]}, {"marks": [("nowhere", "1")]},
                {"arrows": [("z99", "nowhere")]}):
        with pytest.raises(ValueError, match="'nowhere'"):
            state.render_svg(None, **bad)
        with pytest.raises(ValueError, match="'nowhere'"):
            game.render_view_svg(state.view(None), **bad)
    assert state.to_json() == before


def test_overlays_of_the_wrong_shape_are_refused() -> None:
    game = boardrules.load("tic_tac_toe")
    state: State[Any] = game.new_game()
    with pytest.raises(TypeError, match="sequence"):
        state.render_svg(highlight="a1")
    with pytest.raises(TypeError, match="pair"):
        state.render_svg(marks=[("a1", "1", "x")])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="str"):
        state.render_svg(marks=[("a1", 1)])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="str"):
        state.render_svg(highlight=[11])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="label"):
        state.render_svg(marks=[("a1", "")])
    with pytest.raises(ValueError, match="itself"):
        state.render_svg(arrows=[("a1", "a1")])
    with pytest.raises(TypeError, match="mapping"):
        game.render_view_svg(["not", "a", "view"])  # type: ignore[arg-type]
    other = boardrules.load("connect_four").new_game().view(None)
    with pytest.raises(ValueError, match="connect_four"):
        game.render_view_svg(other)
    with pytest.raises(ValueError, match="connect_four"):
        game.render_view_text(other)


def test_armadora_gaps_and_connect_four_cells_can_be_highlighted() -> None:
    state = boardrules.load("armadora").new_game(seed=1)
    svg = state.render_svg(highlight=["c2-d2", "c2-c3", "c2"])
    shapes = {g.get("data-location"): [e.tag for e in g if e.tag != f"{SVG}title"]
              for g in _overlays(svg, "br-highlight")}
    assert shapes == {"c2-d2": [f"{SVG}line"] * 2, "c2-c3": [f"{SVG}line"] * 2,
                      "c2": [f"{SVG}rect"] * 2}
    with pytest.raises(ValueError, match="'c2-e2'"):  # not side by side
        state.render_svg(highlight=["c2-e2"])
    with pytest.raises(ValueError, match="'d2-c2'"):  # a gap is named lower square first
        state.render_svg(highlight=["d2-c2"])
    four = boardrules.load("connect_four").new_game()
    assert len(_overlays(four.render_svg(highlight=["d", "d1", "g6"]), "br-highlight")) == 3
    with pytest.raises(ValueError, match="'d7'"):
        four.render_svg(highlight=["d7"])


# --- the plain picture stays what it was -----------------------------------------------

#: sha256 (first 16 hex digits) of the spectator's, player 0's and the truth picture of a
#: random game, drawn before the overlays existed (Rome & Carthage's names have moved
#: since: its pictures are compared below with its own keywords-free picture only).
GOLDEN = [
    ("armadora", {"players": 3, "variant": "advanced"}, 4, 40,
     ["7911091793bbfa1c", "9e5da3af66a1725d", "cbb2731b8d60a3dc"]),
    ("armada", {"players": 3, "cards": True, "neutral": "green"}, 2, 60,
     ["8596dc6f30ff7378", "b5008c540b7b0b75", "67fb0b6cb6d673a9"]),
    ("albion", {"players": 3}, 3, 80,
     ["71868f1c329eda11", "be2ba4033e8969c6", "71868f1c329eda11"]),
    ("tic_tac_toe", {}, 1, 5, ["566aa8d2eb6625e8"] * 3),
    ("connect_four", {}, 1, 15, ["33dbc76273aaf8ea"] * 3),
    ("pig", {}, 1, 12, ["1ea88ec76d4910b7"] * 3),
]


@pytest.mark.parametrize(("game_id", "options", "seed", "moves", "digests"), GOLDEN,
                         ids=[case[0] for case in GOLDEN])
def test_empty_overlays_give_the_old_picture_byte_for_byte(
        game_id: str, options: dict[str, Any], seed: int, moves: int,
        digests: list[str]) -> None:
    state = _playout(boardrules.load(game_id, **options), seed, moves)
    empty: dict[str, Any] = {"highlight": (), "marks": [], "arrows": ()}
    pictures = [state.render_svg(None, **empty), state.render_svg(0, **empty),
                state.render_svg_truth(**empty)]
    assert [hashlib.sha256(p.encode()).hexdigest()[:16] for p in pictures] == digests
    assert pictures[:2] == [state.render_svg(None), state.render_svg(0)]


@pytest.mark.parametrize("game_id", GAMES)
def test_a_stored_view_draws_as_the_state_does(game_id: str) -> None:
    game = _game(game_id)
    for state in _states(game, 5, 120, 40):
        for viewer in (None, *range(game.num_players)):
            view = state.view(viewer)
            assert game.render_view_svg(view) == state.render_svg(viewer)
            assert game.render_view_svg(view, size=None) == state.render_svg(viewer)
            text = game.render_view_text(view)
            assert state.render_text(viewer).startswith(text)
            assert "last:" not in text
        located = [game.move_locations(m) for m in state.history if game.move_locations(m)]
        if located:
            view = state.view(None)
            assert game.render_view_svg(view, highlight=located[-1]) == state.render_svg(
                None, highlight=located[-1])


def test_the_truth_picture_takes_the_overlays() -> None:
    state = _playout(boardrules.load("armadora", players=2), 1, 20)
    last = state.game.move_locations(state.history[-1])
    svg = state.render_svg_truth(highlight=last, marks=[("a1", "1")])
    assert [g.get("data-location") for g in _overlays(svg, "br-highlight")] == list(last)
    assert len(_overlays(svg, "br-mark")) == 1
    assert state.render_svg_truth(highlight=()) == state.render_svg_truth()


# --- names never overlap ---------------------------------------------------------------

def text_boxes(svg: str) -> list[tuple[str, float, float, float, float]]:
    """(text, left, top, right, bottom) of every ``<text>``: its width 0.6 em a
    character (0.65 bold), from 0.8 em above its baseline to 0.2 em under it, placed by
    its ``text-anchor``."""
    boxes = []
    for element in ET.fromstring(svg).iter(f"{SVG}text"):
        text = "".join(element.itertext())
        size = float(element.get("font-size") or 0)
        x, y = float(element.get("x") or 0), float(element.get("y") or 0)
        em = 0.65 if element.get("font-weight") == "bold" else 0.6
        width = len(text) * size * em
        anchor = element.get("text-anchor", "start")
        left = x - width / 2 if anchor == "middle" else x - width if anchor == "end" else x
        boxes.append((text, left, y - 0.8 * size, left + width, y + 0.2 * size))
    return boxes


def overlapping(svg: str) -> list[tuple[str, str]]:
    boxes = text_boxes(svg)
    return [(a[0], b[0]) for a, b in itertools.combinations(boxes, 2)
            if a[1] < b[3] and b[1] < a[3] and a[2] < b[4] and b[2] < a[4]]


@pytest.mark.parametrize("game_id", GAMES)
def test_no_two_labels_overlap_on_the_default_board(game_id: str) -> None:
    """At the start, and in the middle of a random game with armies, buildings, ships and
    tokens on the board, for a spectator and a player."""
    game = boardrules.load(game_id)
    for state in (game.new_game(seed=1), _playout(game, 6, 90), _playout(game, 7, 200)):
        for viewer in (None, 0):
            svg = state.render_svg(viewer)
            assert len(text_boxes(svg)) > 4
            assert overlapping(svg) == []


def test_the_check_finds_overlapping_labels() -> None:
    """The overlap check itself: two names written at one place overlap."""
    svg = ('<svg xmlns="http://www.w3.org/2000/svg"><text x="10" y="20" font-size="10">'
           'Sicilia</text><text x="40" y="24" font-size="10" text-anchor="middle">Levant'
           '</text><text x="10" y="60" font-size="10">apart</text></svg>')
    assert overlapping(svg) == [("Sicilia", "Levant")]


def test_rome_and_carthage_names_are_all_drawn_and_apart_at_other_sizes() -> None:
    game = boardrules.load("rome_and_carthage")
    state = _playout(game, 3, 120)
    for size in (700, 900, 1400):
        svg = game.render_view_svg(state.view(None), size=size)
        texts = [box[0] for box in text_boxes(svg)]
        assert {c.name for c in game.board.cities} <= set(texts)
        assert overlapping(svg) == []


def test_armada_names_picture_shows_no_keys_and_no_overlap() -> None:
    """``labels="names"`` (the docs' picture): names a reader understands, no key."""
    game = boardrules.load("armada")
    board = game.board
    state = _playout(game, 2, 80)
    svg = armada_svg(state.view(None), board, labels="names")
    texts = {box[0] for box in text_boxes(svg)}
    keys = {t.key for t in board.territories} | {s.key for s in board.seas}
    assert not texts & keys
    assert {"Central", "island 10", "Green", "lair 3", "North", "trading post"} <= texts
    assert overlapping(svg) == []
    with pytest.raises(ValueError, match="labels"):
        armada_svg(state.view(None), board, labels="ids")  # type: ignore[arg-type]


def test_chance_moves_have_no_location() -> None:
    for game_id in ("armadora", "rome_and_carthage", "armada", "albion", "pig"):
        game = _game(game_id)
        state = _playout(game, 8, 80)
        chance = [move for (mover, _), move in zip(state.history_view(None), state.history,
                                                   strict=True) if mover == CHANCE]
        assert chance, game_id
        assert all(game.move_locations(move) == () for move in chance), game_id


# --- in a real browser -----------------------------------------------------------------

#: Each ``<text>``'s box as Chromium lays it out with its own fonts (the board's own: an
#: overlay's badge sits on the board by design).
TEXT_BOXES_JS = """return Array.from(document.querySelectorAll('text'))
  .filter(t => !t.closest('g[data-location]')).map(t => {
  const b = t.getBBox(); return [t.textContent, b.x, b.y, b.x + b.width, b.y + b.height];});"""
OVERLAY_BOXES_JS = """return Array.from(document.querySelectorAll('g[data-location]')).map(g => {
  const b = g.getBBox(); return [g.getAttribute('class'), g.dataset.location, b.width,
  b.height];});"""


def test_names_apart_and_overlays_drawn_in_a_browser(browser: Any, tmp_path: Any) -> None:
    """Chromium's own text boxes (its fonts, not the 0.6 em estimate) overlap nowhere on
    the maps, and every overlay has an area on the page."""
    pictures = {}
    for game_id in ("rome_and_carthage", "albion", "armada", "armadora"):
        game = boardrules.load(game_id)
        state = _playout(game, 6, 90)
        last = next(game.move_locations(m) for m in reversed(state.history)
                    if game.move_locations(m))
        pictures[game_id] = state.render_svg(None, highlight=last, marks=[(last[0], "1")],
                                             arrows=[(last[0], sorted(known_locations(
                                                 game, state.view(None)) - {last[0]})[0])])
    armada = boardrules.load("armada")
    pictures["armada_names"] = armada_svg(_playout(armada, 6, 90).view(None), armada.board,
                                          labels="names")
    for name, svg in pictures.items():
        path = tmp_path / f"{name}.svg"
        path.write_text(svg, encoding="utf-8")
        browser.get(path.as_uri())
        boxes = browser.execute_script(TEXT_BOXES_JS)
        overlays = browser.execute_script(OVERLAY_BOXES_JS)
        assert len(boxes) > 20, name
        apart = [(a[0], b[0]) for a, b in itertools.combinations(boxes, 2)
                 if a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5
                 and a[2] < b[4] - 0.5 and b[2] < a[4] - 0.5]
        assert apart == [], name
        if name != "armada_names":
            assert sorted({kind for kind, *_ in overlays}) == sorted(OVERLAY_CLASSES), name
            assert all(w + h > 0 for *_, w, h in overlays), name  # a gap's line: w or h
