"""``boardrules suggest``, ``replay`` and ``render``: from records (JSON and text, whole
and a viewer's), saves, play saves and positions; bad input exits 2 with the reason."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

import boardrules
from boardrules.cli import build_parser, main
from boardrules.cli import replay as cli_replay
from boardrules.cli.play import legend_text
from boardrules.records import game_record, record_to_text, replay_states
from boardrules.testing import random_play


@pytest.fixture
def game_files(tmp_path: Path) -> dict[str, Any]:
    game = boardrules.load("armadora", players=2)
    state = random_play(game, seed=4, moves=30)
    files = {"state": state, "dir": tmp_path}
    for name, text in (
        ("whole.json", json.dumps(game_record(state))),
        ("whole.txt", record_to_text(game_record(state, comments={5: "a fine move"}))),
        ("seen.txt", record_to_text(game_record(state, viewer=1))),
        ("save.json", state.to_json()),
    ):
        (tmp_path / name).write_text(text)
        files[name] = str(tmp_path / name)
    return files


def test_suggest_reads_a_record_at_any_step_and_a_save(
        game_files: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    state = game_files["state"]
    for source in (["whole.txt", "--step", "12"], ["save.json"]):
        argv = ["suggest", game_files[source[0]], *source[1:], "--iterations", "200",
                "--json"]
        assert main(argv) == 0
        doc = json.loads(capsys.readouterr().out)
        at = list(replay_states(game_record(state)))[12] if len(source) > 1 else state
        legal = {str(m) for m in at.legal_moves()}
        assert doc["player"] == at.current_player and doc["move"] in legal
        assert {entry["move"] for entry in doc["ranked"]} <= legal
        again = boardrules.suggest(at, iterations=200, seed=0)
        assert doc["move"] == str(again.move)  # the same search, seeded
    assert main(["suggest", game_files["save.json"], "--iterations", "50"]) == 0
    assert capsys.readouterr().out.startswith(f"player {state.current_player}: ")


@pytest.mark.parametrize(("argv", "message"), [
    (["suggest", "seen.txt"], "holds only what he saw"),
    (["suggest"], "give a FILE"),
    (["suggest", "whole.txt", "--step", "999"], "steps 0 to"),
    (["suggest", "--game", "armadora", "--position", "junk"], "--position"),
    (["suggest", "nosuchfile"], "cannot read"),
    (["replay", "save.json"], "not a record"),
    (["replay", "seen.txt", "--viewer", "0"], "no --viewer"),
    (["replay", "whole.txt", "--viewer", "5"], "players are 0 to 1"),
    (["render", "whole.txt", "--viewer", "truth", "--format", "text"], "SVG only"),
    (["render", "seen.txt", "--viewer", "0"], "only what 1"),
])
def test_bad_input_exits_2_with_the_reason(game_files: dict[str, Any], argv: list[str],
                                           message: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    argv = [game_files.get(a, a) for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_replay_prints_every_step_as_the_viewer_saw_it(
        game_files: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    state = game_files["state"]
    assert main(["replay", game_files["whole.txt"], "--viewer", "1", "--all"]) == 0
    out = capsys.readouterr().out
    steps = list(replay_states(game_record(state)))
    assert out.count("-- step ") == len(steps)
    # the board drawn from the view (the move that led there is printed above it)
    assert state.game.render_view_text(steps[-1].view(1)) in out
    assert "        {a fine move}" in out  # the record's comments, for any viewer
    assert main(["replay", game_files["seen.txt"], "--all"]) == 0
    assert capsys.readouterr().out == out.replace("        {a fine move}\n", "")


def test_replay_steps_back_and_forth_at_the_terminal(
        game_files: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    answers = iter(["", "n", "p", "7", "zz", "q"])
    args = build_parser().parse_args(["replay", game_files["whole.json"], "--step", "3"])
    assert cli_replay.run(args, ask=lambda prompt: next(answers)) == 0
    shown = [line.split()[2] for line in capsys.readouterr().out.splitlines()
             if line.startswith("-- step ")]
    assert shown == ["3", "4", "5", "4", "7", "7"]


def test_render_draws_any_step_as_svg_or_text(game_files: dict[str, Any]) -> None:
    state, folder = game_files["state"], game_files["dir"]
    steps = list(replay_states(game_record(state)))
    svg = folder / "step.svg"
    assert main(["render", game_files["whole.txt"], "--step", "15", "--viewer", "0",
                 "-o", str(svg)]) == 0
    last = state.game.move_locations(str(steps[15].history[-1]))
    assert svg.read_text() == steps[15].render_svg(0, highlight=last)
    ET.fromstring(svg.read_text())  # well-formed
    text = folder / "board.txt"
    assert main(["render", game_files["save.json"], "-o", str(text)]) == 0
    assert text.read_text() == state.render_text(None) + "\n"
    seen = folder / "seen.svg"
    assert main(["render", game_files["seen.txt"], "-o", str(seen)]) == 0
    assert seen.read_text() == state.render_svg(1, highlight=state.game.move_locations(
        state.history_view(1)[-1][1]))
    truth = folder / "truth.svg"
    assert main(["render", game_files["save.json"], "--viewer", "truth", "-o",
                 str(truth)]) == 0
    assert truth.read_text() == state.render_svg_truth()


def test_render_reads_a_position(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = random_play(boardrules.load("connect_four"), seed=1, moves=9)
    assert main(["render", "--game", "connect_four", "--position", state.position()]) == 0
    at = state.game.position(state.position())  # a position has no history: no last move
    assert capsys.readouterr().out == at.render_text(None) + "\n"
    assert at.state_bytes() == state.state_bytes()


# --- records cannot lie; every command reads a game file the same bounded way ---

def _won_record() -> dict[str, Any]:
    state = boardrules.testing.random_playout(boardrules.load("connect_four"), seed=1)
    assert state.outcome() is not None and len(state.outcome().winners) == 1  # type: ignore[union-attr]
    return game_record(state, date=None)


def test_the_record_commands_refuse_a_forged_winner(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = _won_record()
    loser = 1 - record["headers"]["outcome"]["winners"][0]
    forged = json.loads(json.dumps(record))
    forged["headers"]["result"] = f"player {loser} wins"
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(forged))
    assert main(["record", "validate", str(path)]) == 1
    assert "result header" in capsys.readouterr().err
    page = tmp_path / "forged.html"
    for argv in (["record", "to-html", str(path), "-o", str(page)],
                 ["record", "show", str(path)], ["replay", str(path), "--all"],
                 ["render", str(path)]):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert "result header" in err and "Traceback" not in err, argv
    assert not page.exists()


def _deep_json() -> str:
    return ('{"format":"boardrules-record","format_version":3,"headers":'
            + '{"a":' * 100_000 + "1" + "}" * 100_000 + "}")


@pytest.mark.parametrize("argv", [["replay", "@", "--all"], ["render", "@"],
                                  ["suggest", "@", "--iterations", "10"]])
def test_a_deeply_nested_json_file_is_a_one_line_error(
        argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deep.json"
    path.write_text(_deep_json())
    assert main([str(path) if arg == "@" else arg for arg in argv]) == 2
    err = capsys.readouterr().err
    assert "not JSON" in err and len(err.strip().splitlines()) == 1


def test_load_any_turns_deep_json_into_a_command_error(tmp_path: Path) -> None:
    """What `play --resume FILE` reads with (cli/_inputs.load_any)."""
    from boardrules.cli._inputs import CommandError, load_any

    path = tmp_path / "deep.json"
    path.write_text(_deep_json())
    with pytest.raises(CommandError, match="not JSON"):
        load_any(str(path))


@pytest.mark.needs_address_limit
@pytest.mark.parametrize("command", [["replay", "@", "--all"], ["render", "@"],
                                     ["suggest", "@"], ["record", "show", "@"]])
def test_a_device_is_refused_not_read(command: list[str]) -> None:
    """/dev/zero has no end: it is refused, not read until memory runs out (in a child
    with 1 GiB of address space, so that a regression cannot take the machine's)."""
    import subprocess
    import sys
    import textwrap

    argv = ["/dev/zero" if arg == "@" else arg for arg in command]
    code = textwrap.dedent(f"""
        import resource, sys
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
        from boardrules.cli import main
        sys.exit(main({argv!r}))
    """)
    try:
        child = subprocess.run([sys.executable, "-c", code], capture_output=True,
                               text=True, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail("still reading /dev/zero after 60 s")
    assert child.returncode == 2 and "not a regular file" in child.stderr, child.stderr[-500:]


def test_a_game_file_past_the_size_bound_is_refused_unread(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    import io

    from boardrules.cli import _inputs

    text = json.dumps(_won_record())
    (tmp_path / "game.json").write_text(text)
    monkeypatch.setattr(_inputs, "MAX_INPUT_BYTES", len(text.encode()) - 1)
    for argv in (["replay", str(tmp_path / "game.json"), "--all"],
                 ["record", "validate", str(tmp_path / "game.json")]):
        assert main(argv) == 2
        assert "larger than" in capsys.readouterr().err
    asked: list[int] = []

    class Counted(io.BytesIO):  # standard input, read to the bound and one byte more
        def read(self, size: int | None = -1, /) -> bytes:
            asked.append(-1 if size is None else size)
            return super().read(size)

    class Stdin:
        buffer = Counted(text.encode() * 3)

    monkeypatch.setattr("sys.stdin", Stdin())
    assert main(["render", "-"]) == 2
    assert "standard input: larger than" in capsys.readouterr().err
    assert asked == [len(text.encode())]
    monkeypatch.setattr(_inputs, "MAX_INPUT_BYTES", len(text.encode()))
    assert main(["record", "validate", str(tmp_path / "game.json")]) == 0


def test_replay_legend_says_what_the_text_boards_marks_mean(
        game_files: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    """``replay --legend``: the game's legend (play's ``legend`` command) before the
    steps, the steps as without it."""
    assert main(["replay", game_files["whole.json"], "--all"]) == 0
    plain = capsys.readouterr().out
    assert main(["replay", game_files["whole.json"], "--all", "--legend"]) == 0
    legend = legend_text(game_files["state"].game)
    assert "the board's marks:" in legend
    assert capsys.readouterr().out == legend + "\n\n" + plain


def test_render_legend_follows_the_text_board_and_is_refused_for_svg(
        game_files: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    """``render --legend``: the text board, a blank line, the game's legend (a whole
    record, a save and a viewer's record alike); an SVG has no marks to explain."""
    legend = legend_text(game_files["state"].game)
    for source in ("whole.json", "save.json", "seen.txt"):
        assert main(["render", game_files[source]]) == 0
        board = capsys.readouterr().out
        assert main(["render", game_files[source], "--legend"]) == 0
        assert capsys.readouterr().out == board + "\n" + legend + "\n"
    assert main(["render", game_files["save.json"], "--legend", "--format", "svg"]) == 2
    assert "--legend is for the text board" in capsys.readouterr().err


def test_replay_says_a_missing_advantage_is_none_and_a_hidden_card_is_hidden(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Rome & Carthage's ``replay`` as player 0 (a whole record and his own record): a
    battle without advantage reads ``advantages [none none]``, not the hidden mark ``?``;
    a card player 1 drew stays ``card ?``."""
    state = random_play(boardrules.load("rome_and_carthage"), seed=0, moves=150)
    whole, seen = tmp_path / "whole.json", tmp_path / "seen.json"
    whole.write_text(json.dumps(game_record(state)))
    seen.write_text(json.dumps(game_record(state, viewer=0)))
    for argv in (["replay", str(whole), "--viewer", "0", "--all"],
                 ["replay", str(seen), "--all"]):
        assert main(argv) == 0
        out = capsys.readouterr().out
        assert "advantages [none none]" in out and "advantages [?" not in out
        assert "draw: player 1, card ?" in out


def test_record_show_says_a_missing_advantage_is_none_and_a_hidden_card_is_hidden(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``record show`` of Rome & Carthage, whole and as player 0 saw it: no advantage is
    ``none``; in his record, a card player 1 drew is ``?``."""
    state = random_play(boardrules.load("rome_and_carthage"), seed=0, moves=150)
    for viewer, hidden in (("all", False), (0, True)):
        path = tmp_path / f"{viewer}.json"
        path.write_text(json.dumps(game_record(state, viewer=viewer)))
        assert main(["record", "show", str(path)]) == 0
        out = capsys.readouterr().out
        assert "advantages [none none]" in out and "advantages [?" not in out
        assert ("draw: player 1, card ?" in out) == hidden


def test_record_show_reads_a_viewers_record_whose_draw_lost_its_player(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A player's record (its events are as the file says) with a draw event missing
    its ``player``: ``record show`` says the card ``?`` instead of a KeyError trace."""
    state = random_play(boardrules.load("rome_and_carthage"), seed=0, moves=150)
    record = game_record(state, viewer=0)
    draw = next(e for m in record["moves"] for e in m["events"] if e["kind"] == "draw")
    del draw["player"]
    path = tmp_path / "damaged.json"
    path.write_text(json.dumps(record))
    assert main(["record", "show", str(path)]) == 0
    assert "draw: card " in capsys.readouterr().out


def test_the_viewer_page_says_a_missing_advantage_is_none_and_a_hidden_card_is_hidden(
        tmp_path: Path) -> None:
    """``record to-html`` of Rome & Carthage: every eye's events in words read a battle
    without advantage as ``none``; a card player 1 drew stays ``?`` to player 0 (his
    side of a whole record's page, and his own record's page)."""
    state = random_play(boardrules.load("rome_and_carthage"), seed=0, moves=150)
    for viewer in ("all", 0):
        source, page = tmp_path / f"{viewer}.json", tmp_path / f"{viewer}.html"
        source.write_text(json.dumps(game_record(state, viewer=viewer)))
        assert main(["record", "to-html", str(source), "-o", str(page)]) == 0
        html = page.read_text()
        assert "advantages [none none]" in html and "advantages [?" not in html
        assert "draw: player 1, card ?" in html
