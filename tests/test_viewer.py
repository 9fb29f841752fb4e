"""The record viewer (boardrules.viewer) without a browser: the page parses, holds one entry
per step and every picture the library draws, links nowhere, shows a viewer only what he
saw; bad input is refused; and the ``boardrules record`` commands."""

from __future__ import annotations

import importlib
import io
import json
import random
import re
import sys
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

import boardrules
from boardrules import InvalidStateError
from boardrules.cli import main
from boardrules.games import as_game_id
from boardrules.records import (
    describe_event,
    game_record,
    load_record,
    record_to_text,
    replay_states,
    replay_views,
)
from boardrules.viewer import _check_token, record_as_seen, record_html

IDS = ("board", "step", "move-list", "viewer-select", "next", "prev", "play", "first",
       "last", "scrubber", "headers", "hints", "current-move", "viewer-data", "record-data")


def played(game_id: str = "armadora", seed: int = 3, moves: int = 30,
           **options: Any) -> boardrules.State[Any]:
    state = boardrules.load(as_game_id(game_id), **options).new_game(seed=seed)
    rng = random.Random(seed)
    while len(state.history) < moves and not state.is_terminal():
        state.apply(rng.choice(state.legal_moves()))
    return state


class Page(HTMLParser):
    """A page's elements (tag, attributes), its scripts' texts and its text."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: dict[str, str] = {}
        self.open: list[str] = []
        self._script: str | None = None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        self.elements.append((tag, attributes))
        if tag == "script":
            self._script = attributes.get("id") or f"inline{len(self.scripts)}"
            self.scripts[self._script] = ""

    def handle_endtag(self, tag: str) -> None:
        self._script = None

    def handle_data(self, data: str) -> None:
        if self._script is not None:
            self.scripts[self._script] += data

    def by_id(self, name: str) -> dict[str, str | None]:
        found = [attrs for _, attrs in self.elements if attrs.get("id") == name]
        assert len(found) == 1, f"#{name}: {len(found)} elements"
        return found[0]

    def data(self) -> dict[str, Any]:
        loaded: dict[str, Any] = json.loads(self.scripts["viewer-data"])
        return loaded

    def record(self) -> dict[str, Any]:
        loaded: dict[str, Any] = json.loads(self.scripts["record-data"])
        return loaded


def pictures(data: dict[str, Any], key: str) -> list[str]:
    """The SVG of each step of one eye, decoded as the page's script decodes them."""
    decoded: dict[int, list[int]] = {}

    def tokens(index: int) -> list[int]:
        if index not in decoded:
            code = data["pictures"][index]
            base = tokens(code[0]) if code[0] >= 0 else []
            out: list[int] = []
            k = 1
            while k < len(code):
                if code[k] < 0:
                    out.append(-1 - code[k])
                    k += 1
                else:
                    out += base[code[k]:code[k] + code[k + 1]]
                    k += 2
            decoded[index] = out
        return decoded[index]

    side = next(s for s in data["sides"] if s["key"] == key)
    return ["".join(data["tokens"][t] for t in tokens(b)) for b in side["boards"]]


def side_moves(data: dict[str, Any], key: str) -> list[list[Any]]:
    side = next(s for s in data["sides"] if s["key"] == key)
    return [data["entries"][i] for i in side["moves"]]


def highlight(game: boardrules.Game[Any, Any], moves: list[dict[str, Any]],
              step: int) -> tuple[str, ...]:
    return () if step == 0 else game.move_locations(moves[step - 1]["move"])


# --- the page ---

def test_the_page_parses_and_has_every_control_and_one_entry_per_step() -> None:
    state = played(players=3, variant="advanced")
    record = game_record(state, players=["alice", "bob", None], seed=3)
    page = Page(record_html(record))
    for name in IDS:
        page.by_id(name)
    data = page.data()
    steps = len(record["moves"]) + 1
    assert data["steps"] == steps
    keys = [s["key"] for s in data["sides"]]
    assert keys == ["all", "0", "1", "2", "spectator"]
    options = [attrs["value"] for tag, attrs in page.elements if tag == "option"]
    assert options == keys
    for side in data["sides"]:
        assert len(side["boards"]) == len(side["hints"]) == steps
        assert len(side["moves"]) == steps - 1
    assert page.record() == json.loads(json.dumps(record))
    body = next(attrs for tag, attrs in page.elements if tag == "body")
    assert body["data-step"] == "0" and body["data-steps"] == str(steps - 1)
    headers = {attrs["data-header"] for tag, attrs in page.elements if tag == "tr"}
    assert {"game", "options", "player0", "player1", "player2", "result", "termination",
            "date", "seed"} <= headers


def test_every_picture_is_the_librarys_own_and_the_last_move_is_outlined() -> None:
    state = played("armadora", players=2, variant="advanced", look_at_face_down=False,
                   moves=40)
    record = game_record(state)
    game = state.game
    data = Page(record_html(record)).data()
    states = list(replay_states(record))
    truth = pictures(data, "all")
    for step, picture in enumerate(truth):
        assert picture == states[step].render_svg_truth(
            highlight=highlight(game, record["moves"], step))
    for eye, key in ((0, "0"), (1, "1"), (None, "spectator")):
        seen = game_record(state, viewer=eye)
        views = replay_views(record, eye)
        drawn = pictures(data, key)
        for step, picture in enumerate(drawn):
            assert picture == game.render_view_svg(
                views[step], highlight=highlight(game, seen["moves"], step))
        assert [row[1] for row in side_moves(data, key)] == [m["move"] for m in seen["moves"]]
        assert [row[3] for row in side_moves(data, key)] == [
            [describe_event(e) for e in m["events"]] for m in seen["moves"]]
    placed = next(i for i, m in enumerate(record["moves"]) if "@" in m["move"])
    assert 'class="br-highlight"' in truth[placed + 1]
    assert 'class="br-highlight"' not in truth[0]


@pytest.mark.parametrize("game_id", ["rome_and_carthage", "armada", "albion"])
def test_the_big_games_pictures_are_their_own(game_id: str) -> None:
    state = played(game_id, moves=12)
    record = game_record(state)
    data = Page(record_html(record)).data()
    views = replay_views(record, 1)
    seen = game_record(state, viewer=1)["moves"]
    for step, picture in enumerate(pictures(data, "1")):
        assert picture == state.game.render_view_svg(
            views[step], highlight=highlight(state.game, seen, step))
    assert data["sides"][0]["key"] == "all"


def test_no_url_leads_out_of_the_page() -> None:
    state = played("armada", moves=20)
    page_text = record_html(game_record(state), hints=4)
    page = Page(page_text)
    for tag, attrs in page.elements:
        assert tag not in ("link", "iframe", "img", "object", "embed"), tag
        for name in ("src", "href", "action", "data"):
            assert attrs.get(name) is None, (tag, name)
    data = page.data()
    joined = "".join(data["tokens"])
    assert not re.search(r"(src|href)\s*=\s*['\"]?\s*(https?:)?//", joined + page_text)
    assert "@import" not in page_text and "url(http" not in page_text.replace(" ", "")
    assert sum(tag == "script" and "id" not in attrs for tag, attrs in page.elements) == 1


def test_text_from_the_record_cannot_break_out_of_the_page() -> None:
    state = played(moves=10)
    evil = "</script><script>alert(1)</script><b>"
    record = game_record(state, players=[evil, "bob"], comments={9: evil},
                         headers={"event": evil})
    text = record_html(record, title=evil)
    page = Page(text)
    assert sum(tag == "script" for tag, _ in page.elements) == 3
    assert not any(tag == "b" for tag, _ in page.elements)
    assert page.record()["headers"]["players"][0] == evil
    assert page.data()["comments"] == {"9": evil}
    assert "&lt;/script&gt;" in text


def test_a_viewers_record_embeds_his_views_and_nothing_more() -> None:
    state = played(players=2, variant="basic", look_at_face_down=False, moves=40)
    record = json.loads(json.dumps(game_record(state, viewer=1)))
    page = Page(record_html(record))
    data = page.data()
    assert [s["key"] for s in data["sides"]] == ["1"]
    assert "disabled" in page.by_id("viewer-select")
    embedded = page.record()
    assert embedded == record
    assert embedded["views"] == replay_views(record)
    for step, picture in enumerate(pictures(data, "1")):
        assert picture == state.game.render_view_svg(
            record["views"][step], highlight=highlight(state.game, record["moves"], step))
    hidden = [m for m in record["moves"] if m["move"].startswith("?@")]
    assert hidden, "player 0's warriors are face down to player 1"
    truth = [m["move"] for m in game_record(state)["moves"] if m["mover"] == 0
             and "@" in m["move"]]
    assert not set(truth) & {row[1] for row in data["entries"]}


def test_a_whole_record_shown_to_one_player_is_his_record() -> None:
    state = played(players=2, variant="advanced", look_at_face_down=False, moves=40)
    record = game_record(state, players=["alice", "bob"], seed=3,
                         comments={10: "a comment"}, headers={"event": "club"})
    page = Page(record_html(record, viewer=0))
    assert [s["key"] for s in page.data()["sides"]] == ["0"]
    seen = page.record()
    assert seen == record_as_seen(record, 0)
    mine = game_record(state, viewer=0, comments={10: "a comment"})
    assert seen["moves"] == mine["moves"] and seen["views"] == mine["views"]
    assert seen["headers"] == {**record["headers"], "viewer": 0}
    assert Page(record_html(record, viewer=None)).record()["views"] == replay_views(record, None)


def test_identical_pictures_are_stored_once_and_changes_as_deltas() -> None:
    state = played("armada", moves=40)
    record = game_record(state)
    page = record_html(record)
    data = Page(page).data()
    drawn = [p for side in data["sides"] for p in pictures(data, side["key"])]
    assert len(page) * 3 < sum(len(p) for p in drawn)
    assert len(data["pictures"]) <= len(set(drawn))
    depth: dict[int, int] = {}
    for index, code in enumerate(data["pictures"]):
        depth[index] = 0 if code[0] < 0 else depth[code[0]] + 1
        assert code[0] < index
    assert max(depth.values()) < 32


def test_suggestions_are_marked_for_the_player_they_are_for() -> None:
    state = played(players=2, moves=12)
    record = game_record(state)
    states = list(replay_states(record))
    step = next(i for i, s in enumerate(states) if s.current_player == 0
                and len(s.legal_moves()) > 2)
    given: list[Any] = [None] * len(states)
    moves = [str(m) for m in states[step].legal_moves() if "@" in str(m)][:3]
    given[step] = moves
    data = Page(record_html(record, hints=given)).data()
    marked = pictures(data, "0")[step]
    for rank, move in enumerate(moves, start=1):
        square = state.game.move_locations(move)[-1]
        assert re.search(f'class="br-mark"[^>]*data-location="{square}"', marked)
        assert str(rank) in marked
    shown = {s["key"]: s["hints"][step] for s in data["sides"]}
    assert shown["0"] >= 0 and shown["all"] >= 0
    assert shown["1"] == -1 and shown["spectator"] == -1
    assert [h[1] for h in data["hintLists"][shown["0"]]] == moves
    assert "br-mark" not in pictures(data, "1")[step]


def test_suggestions_searched_for_every_step() -> None:
    state = played(players=2, moves=14)
    record = game_record(state)
    data = Page(record_html(record, hints=20)).data()
    states = list(replay_states(record))
    truth = next(s for s in data["sides"] if s["key"] == "all")
    for step, s in enumerate(states):
        searched = s.current_player >= 0 and len(s.legal_moves()) > 1
        assert (truth["hints"][step] >= 0) == searched
        if searched:
            best = boardrules.suggest(s, iterations=20, seed=step).move
            assert data["hintLists"][truth["hints"][step]][0][1] == str(best)


def test_old_formats_and_the_text_form_show_too() -> None:
    state = played(moves=12)
    record = game_record(state)
    old = {"format": "boardrules-record", "format_version": 2, "game": "armadora",
           "rules_version": state.game.rules_version, "options": dict(state.game.options),
           "viewer": "all", "forced": [], "start": None, "outcome": None,
           "moves": [[m["mover"], m["move"]] for m in record["moves"]]}
    assert Page(record_html(old)).data()["steps"] == len(record["moves"]) + 1
    from_text = load_record(record_to_text(record))
    assert Page(record_html(from_text)).data()["steps"] == len(record["moves"]) + 1


# --- bad input ---

@pytest.mark.parametrize(("kwargs", "error", "message"), [
    ({"viewer": 5}, ValueError, "not a player"),
    ({"viewer": "x"}, TypeError, "viewer is"),
    ({"viewer": True}, TypeError, "viewer is"),
    ({"hints": 0}, ValueError, "at least 1"),
    ({"hints": "many"}, TypeError, "hints is"),
    ({"hints": [None]}, ValueError, "one item per step"),
    ({"title": 3}, TypeError, "title"),
])
def test_bad_arguments_are_refused(kwargs: dict[str, Any], error: type[Exception],
                                   message: str) -> None:
    record = game_record(played(moves=6))
    with pytest.raises(error, match=message):
        record_html(record, **kwargs)


def test_bad_hints_name_their_step() -> None:
    record = game_record(played(moves=6))
    hints: list[Any] = [None] * (len(record["moves"]) + 1)
    hints[3] = ["9@z9"]
    with pytest.raises(ValueError, match=r"hints\[3\]"):
        record_html(record, hints=hints)
    hints[3] = [3.5]
    with pytest.raises(TypeError, match=r"hints\[3\]"):
        record_html(record, hints=hints)


def test_a_bad_record_is_refused() -> None:
    state = played(moves=10)
    with pytest.raises(TypeError):
        record_html("not a record")  # type: ignore[arg-type]
    forged = game_record(state)
    forged["moves"][9]["move"] = "9@z9"
    with pytest.raises(InvalidStateError, match=r"moves\[9\]"):
        record_html(forged)
    seen = game_record(state, viewer=0)
    with pytest.raises(InvalidStateError, match="only what player 0 saw"):
        record_html(seen, viewer=1)
    with pytest.raises(InvalidStateError, match="only what player 0 saw"):
        record_html(seen, viewer="all")
    with pytest.raises(ValueError, match="whole record only"):
        record_html(seen, hints=10)
    broken = json.loads(json.dumps(seen))
    broken["views"][4] = {"game": "armadora"}
    with pytest.raises(InvalidStateError, match=r"views\[4\]"):
        record_html(broken)
    broken = json.loads(json.dumps(seen))
    broken["moves"][9]["move"] = "nonsense"
    with pytest.raises(InvalidStateError, match=r"moves\[9\]"):
        record_html(broken)
    broken["moves"][9] = {"mover": 0}
    with pytest.raises(InvalidStateError, match=r"moves\[9\]"):
        record_html(broken)


@pytest.mark.parametrize("markup", [
    '<script>alert(1)</script>', '<rect onload="alert(1)"/>', '<a href="https://x">x</a>',
    '<use href="https://example.org/x.svg#a"/>', '<rect style="fill: url(http://x/)"/>',
    '<foreignObject><div/></foreignObject>', '<!-- a comment -->',
])
def test_a_picture_with_anything_but_plain_svg_is_refused(
        markup: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Pictures are drawn from views, and a viewer's record's views are input: whatever a
    renderer let through, the page embeds plain SVG only."""
    record = game_record(played(moves=6), viewer=0)
    game_class = type(played().game)
    plain = game_class.render_view_svg

    def rigged(self: Any, view: Any, **kwargs: Any) -> str:
        return plain(self, view, **kwargs).replace("</svg>", markup + "</svg>")

    monkeypatch.setattr(game_class, "render_view_svg", rigged)
    with pytest.raises(InvalidStateError, match="picture"):
        record_html(record)
    monkeypatch.setattr(game_class, "render_view_svg", plain)
    assert record_html(record).startswith("<!DOCTYPE html>")



@pytest.mark.parametrize("markup", [
    '<rect style="background-image:u\\72l(http://127.0.0.1:9/x)"/>',
    '<svg style="fill:u\\72 l(http://127.0.0.1:9/x)"/>',
    '<rect style="background:\\75rl(http://127.0.0.1:9/x)"/>',
    '<rect fill="\\000075rl(http://127.0.0.1:9/x)"/>',
    '<rect style="b\\ackground:u\\r\\l(//127.0.0.1:9/x)"/>',
    '<rect style="fill:u&#x5c;72l(http://127.0.0.1:9/x)"/>',
    '<rect style="background-image:image-set(\'http://127.0.0.1:9/x\' 1x)"/>',
])
def test_a_css_escaped_url_in_an_attribute_is_refused(markup: str) -> None:
    """A browser reads CSS escapes in a style (and in a presentation attribute, parsed
    as CSS too): the filter reads them as it does before looking for ``url(``; a string
    a CSS function fetches (``image-set("...")``) is refused as well."""
    with pytest.raises(InvalidStateError, match="picture"):
        _check_token(markup)


def test_css_escapes_that_name_no_url_still_pass() -> None:
    _check_token('<rect fill="url(#gradient)" style="font-style:it\\61lic"/>')


# --- the record command ---

@pytest.fixture
def record_file(tmp_path: Path) -> tuple[Path, boardrules.State[Any], dict[str, Any]]:
    state = played(players=2, variant="advanced", moves=30)
    record = game_record(state, players=["alice", "bob"], seed=3, comments={8: "first"})
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    return path, state, record


def test_cli_to_html_writes_the_page(record_file: Any, tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    path, _, record = record_file
    out = tmp_path / "game.html"
    assert main(["record", "to-html", str(path), "-o", str(out)]) == 0
    assert "steps" in capsys.readouterr().out
    page = Page(out.read_text(encoding="utf-8"))
    assert page.record() == record and len(page.data()["sides"]) == 4
    assert main(["record", "to-html", str(path), "-o", str(out), "--viewer", "spectator",
                 "--hints", "10", "--title", "Club night"]) == 0
    page = Page(out.read_text(encoding="utf-8"))
    assert [s["key"] for s in page.data()["sides"]] == ["spectator"]
    assert page.record() == record_as_seen(record, None)
    assert "<title>Club night</title>" in out.read_text(encoding="utf-8")
    assert main(["record", "to-html", str(path), "--viewer", "1"]) == 0
    assert Page(capsys.readouterr().out).record()["headers"]["viewer"] == 1


def test_cli_to_text_and_to_json(record_file: Any, tmp_path: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    path, state, record = record_file
    assert main(["record", "to-text", str(path)]) == 0
    text = capsys.readouterr().out
    assert text == record_to_text(record)
    text_file = tmp_path / "game.txt"
    text_file.write_text(text)
    assert main(["record", "to-json", str(text_file)]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(json.dumps(record))
    seen = tmp_path / "seen.json"
    assert main(["record", "to-json", str(path), "--viewer", "0", "-o", str(seen)]) == 0
    mine = json.loads(seen.read_text())
    assert mine == record_as_seen(record, 0)
    assert mine["moves"] == game_record(state, viewer=0, comments={8: "first"})["moves"]
    assert mine["headers"]["players"] == ["alice", "bob"]
    assert main(["record", "to-json", str(seen), "--viewer", "0"]) == 0
    assert json.loads(capsys.readouterr().out) == mine


def test_cli_reads_standard_input(record_file: Any, monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    path, _, record = record_file
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(path.read_bytes())))
    assert main(["record", "to-text", "-"]) == 0
    assert capsys.readouterr().out == record_to_text(record)


def test_cli_validate(record_file: Any, tmp_path: Path,
                     capsys: pytest.CaptureFixture[str]) -> None:
    path, _, record = record_file
    assert main(["record", "validate", str(path)]) == 0
    assert "a valid record of armadora, 30 moves, the whole truth" in capsys.readouterr().out
    seen = tmp_path / "seen.txt"
    seen.write_text(record_to_text(game_record(played(moves=8), viewer=None)))
    assert main(["record", "validate", str(seen)]) == 0
    assert "as a spectator saw it" in capsys.readouterr().out
    changes: list[tuple[Callable[[dict[str, Any]], None], str]] = [
        (lambda r: r["moves"][20].update(move="9@z9"), r"moves\[20\]"),
        (lambda r: r["headers"].update(date=5), "headers/date: 5 is not of type"),
        (lambda r: r.update(format="x"), "not a boardrules-record"),
        (lambda r: r["moves"][3].update(mover=1), r"moves\[3\]: 1 is not who moves"),
    ]
    for change, reason in changes:
        broken = json.loads(json.dumps(record))
        change(broken)
        bad = tmp_path / "bad.json"
        bad.write_text(json.dumps(broken))
        status = main(["record", "validate", str(bad)])
        err = capsys.readouterr().err
        assert status == 1 and err.startswith("boardrules record: invalid record: ")
        assert re.search(reason, err), err
        assert "Traceback" not in err


def test_cli_show(record_file: Any, capsys: pytest.CaptureFixture[str]) -> None:
    path, _, record = record_file
    assert main(["record", "show", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("armadora (players=2, variant=advanced")
    assert "players: P0 alice, P1 bob" in out
    assert "seed: 3" in out
    moves = [line for line in out if re.match(r"\s*\d+\. ", line)]
    assert len(moves) == len(record["moves"])
    for line, entry in zip(moves, record["moves"], strict=True):
        mover = "chance" if entry["mover"] < 0 else f"P{entry['mover']}"
        assert line.split()[1] == mover and f"  {entry['move']}" in line
        assert all(describe_event(e) in line for e in entry["events"])
    assert "{first}" in out[out.index(moves[8]) + 1]


@pytest.mark.parametrize(("argv", "message"), [
    (["record", "show", "/no/such/file.json"], "no such file"),
    (["record", "validate", "/"], "a folder"),
    (["record", "to-html", "@bad", "--viewer", "x"], "--viewer is"),
    (["record", "to-html", "@good", "--viewer", "7"], "not a player"),
    (["record", "to-json", "@good", "--viewer", "all"], "--viewer is a player"),
    (["record", "to-html", "@seen", "--hints", "5"], "whole record only"),
    (["record", "to-json", "@seen", "--viewer", "1"], "only what player 0 saw"),
    (["record", "to-text", "@bad"], "not a record"),
    (["record", "to-text", "@good", "-o", "/no/such/dir/x.txt"], "No such file"),
])
def test_cli_errors_are_one_line(argv: list[str], message: str, tmp_path: Path,
                                 record_file: Any, capsys: pytest.CaptureFixture[str]) -> None:
    path, state, _ = record_file
    files = {"@good": path, "@bad": tmp_path / "bad.json", "@seen": tmp_path / "seen.json"}
    files["@bad"].write_text('{"format": "boardrules-record", "format_version": 3}')
    files["@seen"].write_text(json.dumps(game_record(state, viewer=0)))
    argv = [str(files.get(arg, arg)) for arg in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("boardrules record: error: ") and message in err, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_cli_validate_without_jsonschema_still_replays(
        record_file: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    record = record_file[2]

    real = importlib.import_module

    def no_jsonschema(name: str, *args: Any) -> Any:
        if name == "jsonschema":
            raise ImportError("no jsonschema here")
        return real(name, *args)

    monkeypatch.setattr(importlib, "import_module", no_jsonschema)
    odd = json.loads(json.dumps(record))
    odd["headers"]["date"] = 5  # only the schema sees this
    (tmp_path / "odd.json").write_text(json.dumps(odd))
    assert main(["record", "validate", str(tmp_path / "odd.json")]) == 0
    odd["moves"][20]["move"] = "9@z9"  # the replay sees this
    (tmp_path / "odd.json").write_text(json.dumps(odd))
    assert main(["record", "validate", str(tmp_path / "odd.json")]) == 1
    assert "moves[20]" in capsys.readouterr().err


def test_the_events_shown_are_the_rules_not_the_records() -> None:
    state = played(moves=12)
    record = game_record(state)
    record["moves"][9]["events"] = [{"kind": "warrior", "square": "h5", "strength": 9}]
    data = Page(record_html(record)).data()
    for side in data["sides"]:
        shown = data["entries"][side["moves"][9]][3]
        assert shown and "h5" not in " ".join(shown)
