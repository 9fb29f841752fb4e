"""``boardrules play``: a person plays each of the four games against a bot from the
terminal, with hints, a bad move, undo, save and resume, to the end; the record written
reads back; hidden information stays hidden; two people pass the device."""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import boardrules
from boardrules.cli import build_parser, main
from boardrules.cli import play as cli_play
from boardrules.records import load_record, replay

GAMES = [("armadora", ["players=2"]), ("rome_and_carthage", ["players=2"]),
         # Armada with a round cap of 6 (the library's rule: the game ends, a draw, after
         # that round): random players seldom reach mastery, and the test stays quick
         ("armada", ["players=2", "max_rounds=6"]), ("albion", ["players=2"])]


class Person:
    """A person at the keyboard: answers the prompts from a script (``MOVE``: a random
    legal move, read off the game as he sees it), then plays random legal moves."""

    def __init__(self, script: list[str], seed: int = 0) -> None:
        self.script = list(script)
        self.rng = random.Random(seed)
        self.session: cli_play.PlaySession | None = None
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if prompt.startswith("pass the device"):
            return ""
        line = self.script.pop(0) if self.script else "MOVE"
        if line != "MOVE":
            return line
        assert self.session is not None
        return str(self.rng.choice(self.session.state.legal_moves()))


def _run(argv: list[str], person: Person, *,
         terminal: bool = False) -> tuple[int, str, cli_play.PlaySession]:
    out = io.StringIO()
    console = Console(file=out, width=200, color_system=None, force_terminal=terminal)
    session = cli_play.make_session(build_parser().parse_args(argv), console, person)
    person.session = session
    status = session.run()
    return status, out.getvalue(), session


@pytest.mark.parametrize(("game_id", "options"), GAMES, ids=[g for g, _ in GAMES])
def test_a_person_plays_against_a_bot_with_hint_undo_save_and_resume(
        tmp_path: Path, game_id: str, options: list[str], browser: Any) -> None:
    save, record = tmp_path / "game.json", tmp_path / "game.txt"
    argv = ["play", game_id, *[f"--option={o}" for o in options], "--seat", "1=random",
            "--seed", "5", "--hint-iterations", "40"]
    # a hint, the legal moves, two bad moves, a move; at his next turn undo, save, quit
    person = Person(["hint", "moves", "no such move", "@@@", "MOVE", "undo", f"save {save}",
                     "quit"])
    status, text, session = _run(argv, person)
    assert status == 0
    assert "hint: " in text and "legal: " in text
    assert text.count("type 'moves' for the legal moves") == 2  # each bad move re-prompted
    assert "undone back to your move" in text and "game left unfinished" in text
    saved = json.loads(save.read_text())
    assert saved["seats"] == ["human", "random"]
    paused = boardrules.state_from_json(saved["save"])
    assert paused == session.state and not paused.is_terminal()
    assert paused.current_player == 0  # undo went back to his own decision

    status, text, resumed = _run(["play", "--resume", str(save), "--record", str(record)],
                                 Person([], seed=1))
    assert status == 0 and resumed.state.is_terminal()
    assert list(resumed.state.history)[: len(paused.history)] == list(paused.history)
    outcome = resumed.state.outcome()
    assert outcome is not None
    assert f"result: {boardrules.records.result_text(outcome)}" in text
    written = load_record(record.read_text())
    assert written["headers"]["players"] == ["human", "random"]
    assert replay(written) == resumed.state
    _convert_and_step_through(tmp_path, record, written, browser)


def _convert_and_step_through(folder: Path, record: Path, written: dict[str, Any],
                              browser: Any) -> None:
    """The game's record converts to JSON, back to text and to HTML with the CLI, and
    the HTML page steps to the end in Chromium, showing the last move."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    as_json, as_text, page = folder / "r.json", folder / "r.txt", folder / "r.html"
    assert main(["record", "to-json", str(record), "-o", str(as_json)]) == 0
    assert main(["record", "to-text", str(as_json), "-o", str(as_text)]) == 0
    assert load_record(as_text.read_text()) == written
    assert main(["record", "to-html", str(as_text), "-o", str(page)]) == 0
    browser.get(page.as_uri())
    WebDriverWait(browser, 10).until(
        lambda b: b.execute_script("return !!window.boardrulesViewer"))
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
    last = len(written["moves"])
    WebDriverWait(browser, 10).until(
        lambda b: b.execute_script("return document.body.dataset.step") == str(last))
    shown = browser.find_element(By.CSS_SELECTOR, "#move-list li.current .move").text
    assert shown == written["moves"][-1]["move"]


def test_a_person_never_sees_what_the_bot_hid() -> None:
    """Armadora rule 三: warriors go face down -- the bot's show as ?@square on the
    person's screen, and his own with their strength."""
    person = Person([], seed=2)
    status, text, session = _run(["play", "armadora", "--option", "look_at_face_down=false",
                                  "--seat", "1=random", "--seed", "4", "--seat", "0=human"],
                                 person)
    assert status == 0 and session.state.is_terminal()
    bot_moves = [str(m) for m, mover in zip(session.state.history,
                                            session.state._core.movers(), strict=True)
                 if mover == 1 and "@" in str(m)]
    assert bot_moves, "the bot placed warriors"
    lines = text.splitlines()
    before_end = lines[: lines.index("final board:")]
    for move in bot_moves:
        square = move.split("@")[1]
        assert not any(line.endswith(f"random: {move}") for line in before_end)
        assert any(line.endswith(f"random: ?@{square}") for line in before_end)


def test_two_people_pass_the_device_between_turns() -> None:
    """Before each turn of the other person (and only then), a blank screen asks to pass
    the device (Armadora: face-down warriors are hidden information)."""
    person = Person(["MOVE"] * 8 + ["quit"], seed=3)
    status, _, _ = _run(["play", "armadora", "--seat", "1=human:bea", "--seed", "2"], person,
                        terminal=True)
    assert status == 0
    turns = [p for p in person.prompts if not p.startswith("pass the device")]
    assert {"player 0> ", "bea (player 1)> "} <= set(turns)
    expected, at = [], None
    for prompt in turns:
        if prompt != at:
            name = "player 0 (player 0)" if prompt == "player 0> " else "bea (player 1)"
            expected.append(f"pass the device to {name} and press Enter ")
            at = prompt
        expected.append(prompt)
    assert person.prompts == expected


def test_a_game_without_hidden_information_needs_no_passing() -> None:
    person = Person(["quit"])
    _run(["play", "tic_tac_toe", "--seat", "1=human"], person)
    assert person.prompts == ["player 0> "]


@pytest.mark.parametrize(("argv", "message"), [
    (["play", "chess"], "no game 'chess'"),
    (["play", "armadora", "--seat", "1=nosuchbot"], "seat 1"),
    (["play", "armadora", "--seat", "7=random"], "seats are 0 to 1"),
    (["play", "armadora", "--seat", "1"], "P=human"),
    (["play", "armadora", "--option", "players"], "key=value"),
    (["play"], "GAME or --resume"),
    (["play", "--resume", "/nonexistent/save.json"], "cannot read"),
])
def test_bad_arguments_are_refused_with_the_reason(argv: list[str], message: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_play.run(build_parser().parse_args(argv), ask=Person([])) == 2
    assert message in capsys.readouterr().err


def test_the_console_script_plays_from_a_pipe(tmp_path: Path) -> None:
    """The real command, moves piped in: plain text (no colour codes), the result."""
    moves = "a1\nb1\nc1\nzz\nb2\nquit\n"
    done = subprocess.run([sys.executable, "-m", "boardrules", "play", "tic_tac_toe",
                           "--seat", "1=human", "--record", str(tmp_path / "r.json")],
                          input=moves, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "\x1b[" not in done.stdout
    record = load_record((tmp_path / "r.json").read_text())
    assert [m["move"] for m in record["moves"]] == ["a1", "b1", "c1", "b2"]
    assert "game left unfinished" in done.stdout
    help_text = subprocess.run([sys.executable, "-m", "boardrules", "play", "--help"],
                               capture_output=True, text=True, timeout=60).stdout
    assert help_text.startswith("usage: python -m boardrules play")


# --- two people at one screen: the scrollback, a piped output, a save that holds it all ---

HOT_SEAT = ["play", "armadora", "--seat", "0=human:ann", "--seat", "1=human:bob", "--seed", "4"]


def test_the_pass_screen_clears_the_scrollback_too() -> None:
    """ED 2 alone leaves the other's turn in the terminal's scrollback (bob scrolls up to
    ann's face-down strength): before each pass screen, the screen, then the scrollback
    (ED 3), are erased, and the screen says so."""
    person = Person(["5@e3", "quit"], seed=1)
    _, text, _ = _run(HOT_SEAT, person, terminal=True)
    before_bob = text.rindex("\x1b[3J")
    assert "\x1b[H\x1b[2J\x1b[3J" in text
    assert text.count("\x1b[3J") == 1  # before bob's turn (the first keeps the seed)
    assert "Armadora, seed 4" in text[:before_bob]
    assert text.index("\x1b[2J") < text.index("\x1b[3J")  # ED 3 after ED 2, as clear does
    assert "scrollback were cleared: nothing of ann's turn" in text[before_bob:]
    # ann saw her warrior's strength; after the clearing, bob sees it face down
    assert "square e3, strength 5" in text[:before_bob]
    assert "e3, strength 5" not in text[before_bob:] and "0:?" in text[before_bob:]


def test_two_people_are_refused_an_output_that_cannot_be_cleared(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Piped, the output goes to a program or a file that keeps every turn: with two
    people and hidden information, play refuses to start rather than hand the next
    player the other's hidden pieces."""
    console = Console(file=io.StringIO(), width=100, color_system=None)
    assert cli_play.run(build_parser().parse_args(HOT_SEAT), console=console,
                        ask=Person([])) == 2
    assert "not a terminal that can be cleared" in capsys.readouterr().err
    dumb = Console(file=io.StringIO(), force_terminal=True, _environ={"TERM": "dumb"})
    assert cli_play.run(build_parser().parse_args(HOT_SEAT), console=dumb, ask=Person([])) == 2


@pytest.mark.parametrize("forced", [{}, {"FORCE_COLOR": "1"}, {"TTY_COMPATIBLE": "1"}],
                         ids=["plain", "FORCE_COLOR", "TTY_COMPATIBLE"])
def test_the_real_command_refuses_two_people_when_piped(forced: dict[str, str]) -> None:
    """Also when rich is told to treat the pipe as a terminal (colour in a log)."""
    done = subprocess.run([sys.executable, "-m", "boardrules", *HOT_SEAT],
                          input="5@e3\nquit\n", capture_output=True, text=True, timeout=120,
                          env={**os.environ, **forced})
    assert done.returncode == 2 and "0:5" not in done.stdout
    assert "not a terminal that can be cleared" in done.stderr


@pytest.fixture
def save_key_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A config folder of the test's own, no key in the environment."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv(cli_play.SAVE_KEY_ENV, raising=False)
    return tmp_path / "config"


def test_a_hot_seat_save_says_what_it_holds_and_is_signed(tmp_path: Path,
                                                          save_key_home: Path) -> None:
    save = tmp_path / "hs.json"
    _, text, session = _run(HOT_SEAT, Person(["5@e3", f"save {save}", "quit"]),
                            terminal=True)
    assert "warning: " + str(save) + " holds all of Armadora's hidden information" in text
    assert "signed with your save key" in text
    doc = json.loads(save.read_text())
    assert doc["hot_seat"] is True and len(doc["signature"]) == 64
    key_file = save_key_home / "boardrules" / "save.key"
    assert key_file.stat().st_mode & 0o777 == 0o600
    assert (save_key_home / "boardrules").stat().st_mode & 0o777 == 0o700
    _, _, resumed = _run(["play", "--resume", str(save)], Person(["quit"]), terminal=True)
    assert resumed.state == session.state


@pytest.mark.parametrize("change", ["seats", "state", "signature", "unsigned"])
def test_a_changed_hot_seat_save_is_refused_on_resume(
        tmp_path: Path, save_key_home: Path, change: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "hs.json"
    _run(HOT_SEAT, Person(["5@e3", f"save {save}", "quit"]), terminal=True)
    doc = json.loads(save.read_text())
    if change == "seats":     # bob gives ann's seat to a bot that plays badly
        doc["seats"][0] = "random"
    elif change == "state":   # ann's face-down 5 made a 1
        doc["save"] = doc["save"].replace('"5@e3"', '"1@e3"')
    elif change == "signature":
        doc["signature"] = "0" * 64
    else:
        del doc["signature"]
    save.write_text(json.dumps(doc))
    console = Console(file=io.StringIO(), force_terminal=True)
    assert cli_play.run(build_parser().parse_args(["play", "--resume", str(save)]),
                        console=console, ask=Person(["quit"])) == 2
    assert "signature" in capsys.readouterr().err


def test_a_hot_seat_save_is_refused_with_another_key(tmp_path: Path, save_key_home: Path,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "hs.json"
    monkeypatch.setenv(cli_play.SAVE_KEY_ENV, "a key of ann's, long enough")
    _run(HOT_SEAT, Person(["5@e3", f"save {save}", "quit"]), terminal=True)
    assert not (save_key_home / "boardrules" / "save.key").exists()  # the env's key used
    monkeypatch.setenv(cli_play.SAVE_KEY_ENV, "another key, just as long")
    console = Console(file=io.StringIO(), force_terminal=True)
    assert cli_play.run(build_parser().parse_args(["play", "--resume", str(save)]),
                        console=console, ask=Person(["quit"])) == 2
    assert "does not match" in capsys.readouterr().err
    monkeypatch.setenv(cli_play.SAVE_KEY_ENV, "short")
    assert cli_play.run(build_parser().parse_args(HOT_SEAT),
                        console=console, ask=Person([f"save {save}", "quit"])) == 0
    assert "at least 16 bytes" in console.file.getvalue()  # type: ignore[attr-defined]


def test_a_hot_seat_save_or_record_is_not_printed_on_the_shared_screen(
        save_key_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``save -`` and ``record -`` at a hot seat wrote the whole truth (ann's face-down
    5 included) to standard output, the screen bob sits at next; and ``save -`` said to
    resume with ``--resume -``, which play refuses."""
    _, text, _ = _run(HOT_SEAT, Person(["5@e3", "save -", "record -", "quit"]),
                      terminal=True)
    assert capsys.readouterr().out == ""
    assert "save -: give the save a file" in text and "record -: the record" in text
    assert "saved to -" not in text and "record written to -" not in text


def test_an_unsigned_save_resumed_by_two_people_is_flagged(tmp_path: Path,
                                                           save_key_home: Path) -> None:
    """A state save (no seats, no signature) given two people: play goes on, warned."""
    save = tmp_path / "state.json"
    save.write_text(boardrules.load("armadora").new_game(seed=1).to_json())
    _, text, _ = _run(["play", "--resume", str(save), "--seat", "1=human:bob"],
                      Person(["quit"]), terminal=True)
    assert f"warning: {save} is not signed" in text


def test_moves_wrap_between_moves() -> None:
    """No move's name is cut at the end of a line (Rome & Carthage: 'play 10+4')."""
    legal = ["infantry@roma", "play 10+4", "galley@alexandria"] * 9
    lines = cli_play.wrap_between(legal, 40, "legal: ")
    assert all(len(line) <= 40 for line in lines) and lines[0].startswith("legal: ")
    assert [m for line in lines for m in line[7:].split("  ")] == legal
    person = Person(["moves", "quit"])
    out = io.StringIO()
    console = Console(file=out, width=50, color_system=None)
    session = cli_play.make_session(build_parser().parse_args(
        ["play", "rome_and_carthage", "--seed", "11", "--seat", "1=random"]), console, person)
    person.session = session
    session.run()
    shown = out.getvalue().partition("legal: ")[2].partition("game left unfinished")[0]
    printed = [m for line in shown.splitlines() for m in line.strip().split("  ") if m]
    assert printed == [str(m) for m in session.state.legal_moves()]


def test_a_battle_without_advantage_is_not_told_as_hidden() -> None:
    """The news said a battle's "no special advantage" (None) as ``?``, the mark of what
    the player may not see: absent in the truth too, it is said ``none``; a card drawn by
    the other side stays ``?``."""
    truth = boardrules.Event(7, 1, "battle", {"advantages": [None, "elephant"],
                                              "cards": [[7, 6], None]})
    assert cli_play.event_words(truth, truth) == \
        "battle: advantages [none elephant], cards [[7 6] none]"
    drawn = boardrules.Event(8, boardrules.CHANCE, "draw", {"player": 1, "card": 9})
    hidden = boardrules.Event(8, boardrules.CHANCE, "draw", {"player": 1, "card": None})
    assert cli_play.event_words(hidden, drawn) == "draw: player 1, card ?"
    person = Person([], seed=4)
    _, text, _ = _run(["play", "rome_and_carthage", "--option", "max_rounds=30",
                      "--seat", "1=random", "--seed", "3"], person)
    battles = [line for line in text.splitlines() if line.strip().startswith("battle:")]
    assert battles, "the game had a battle"
    for line in battles:
        assert "?" not in line and "advantages [" in line
    assert any("draw: player 1, card ?" in line for line in text.splitlines())


def test_a_record_written_mid_game_warns_what_it_holds(tmp_path: Path) -> None:
    record = tmp_path / "r.json"
    _, text, _ = _run(["play", "armadora", "--seat", "1=random", "--seed", "4"],
                      Person(["5@e3", f"record {record}", "quit"]))
    assert f"warning: {record} holds all of Armadora's hidden information" in text
    _, text, _ = _run(["play", "tic_tac_toe", "--seat", "1=random", "--seed", "4"],
                      Person(["b2", f"record {record}", "quit"]))
    assert "warning" not in text


def test_help_and_legend_explain_the_boards_marks(capsys: pytest.CaptureFixture[str]) -> None:
    """U7: the codes of a text board (RE, *~#, 0R1, 0:1s, ?1 +1) had no legend on screen:
    ``legend`` prints the game's, ``help`` the commands and the legend, and the command's
    own --help points to both."""
    person = Person(["legend", "help", "quit"])
    _, text, _ = _run(["play", "albion", "--seat", "1=random", "--seed", "1"], person)
    legend = cli_play.legend_text(boardrules.load("albion"))
    assert text.count(legend) == 2 and "legend        what each mark" in text
    for mark in ("0S2", "?2", "+1", "0:2s", "@"):
        assert f"  {mark} " in legend
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "'legend'" in capsys.readouterr().out


def test_at_a_shared_screen_ones_own_move_is_in_ones_next_news() -> None:
    """The pass screen clears what a person's move caused as soon as he has made it (a
    battle's result, in Rome & Carthage): his next turn's news begins with his own move."""
    person = Person(["5@e3", "1@a1", "2@h5", "quit"], seed=1)
    _, text, _ = _run(HOT_SEAT, person, terminal=True)
    third_turn = text.split("\x1b[3J")[2]  # ann's second turn
    assert "ann: 5@e3" in third_turn  # his own move, which the clearing took away
    assert "bob: ?@a1" in third_turn  # and the other's, face down to him


def test_a_move_followed_by_chance_shows_what_the_move_caused() -> None:
    """Rome & Carthage: the defender's cards decide the battle, then a card is drawn at
    once: the echo showed only the draw's events, never the battle his cards decided."""
    game = boardrules.load("rome_and_carthage")
    state = game.new_game(seed=3)
    rng = random.Random(2)
    while not (state.phase == "commit" and state.current_player == 0
               and state.view(0)["battle"]["face_down"]):
        state.apply(rng.choice(state.legal_moves()))
    out = io.StringIO()
    session = cli_play.PlaySession(state, cli_play.parse_seats(["1=random"], 2, 0),
                                   console=Console(file=out, width=200, color_system=None),
                                   ask=Person([]))
    session.play(0, "play 1+0")
    echo = out.getvalue()
    assert "battle: city antiochia" in echo and "result " in echo
    assert state.history[-1].is_chance and "card " in echo  # and the draw after it


def test_a_signed_save_without_the_key_is_refused(tmp_path: Path, save_key_home: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Resumed by another user (no key file): refused, saying why."""
    save = tmp_path / "hs.json"
    _run(HOT_SEAT, Person(["5@e3", f"save {save}", "quit"]), terminal=True)
    (save_key_home / "boardrules" / "save.key").unlink()
    console = Console(file=io.StringIO(), force_terminal=True)
    assert cli_play.run(build_parser().parse_args(["play", "--resume", str(save)]),
                        console=console, ask=Person(["quit"])) == 2
    assert "has no key to check it" in capsys.readouterr().err
    assert not (save_key_home / "boardrules" / "save.key").exists()  # none made on resume


def test_a_signed_hot_seat_save_keeps_its_seats_on_resume(
        tmp_path: Path, save_key_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--seat would give ann's seat to a bot unseen, which the signature refuses when the
    file is edited: refused on the command line too."""
    save = tmp_path / "hs.json"
    _run(HOT_SEAT, Person(["5@e3", f"save {save}", "quit"]), terminal=True)
    console = Console(file=io.StringIO(), force_terminal=True)
    args = build_parser().parse_args(["play", "--resume", str(save), "--seat", "0=random"])
    assert cli_play.run(args, console=console, ask=Person(["quit"])) == 2
    assert "keeps the seats it was saved with" in capsys.readouterr().err


def test_a_save_key_others_can_read_is_refused(tmp_path: Path, save_key_home: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "hs.json"
    _run(HOT_SEAT, Person(["5@e3", f"save {save}", "quit"]), terminal=True)
    key_file = save_key_home / "boardrules" / "save.key"
    key_file.chmod(0o644)
    console = Console(file=io.StringIO(), force_terminal=True)
    assert cli_play.run(build_parser().parse_args(["play", "--resume", str(save)]),
                        console=console, ask=Person(["quit"])) == 2
    assert "readable or writable by others (mode 644)" in capsys.readouterr().err


def test_a_failed_key_write_leaves_no_empty_key(save_key_home: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(cli_play.os, "link", refuse)
    with pytest.raises(cli_play.CommandError, match="cannot make the save key"):
        cli_play.save_key(create=True)
    assert list((save_key_home / "boardrules").iterdir()) == []
    monkeypatch.undo()
    assert len(cli_play.save_key(create=True)) == 64


def test_a_save_holding_hidden_pieces_is_readable_by_its_owner_alone(
        tmp_path: Path, save_key_home: Path) -> None:
    save = tmp_path / "hs.json"
    save.write_text("an older file, readable by all\n")
    save.chmod(0o644)
    _run(HOT_SEAT, Person(["5@e3", f"save {save}", "quit"]), terminal=True)
    assert save.stat().st_mode & 0o777 == 0o600
    assert json.loads(save.read_text())["hot_seat"] is True
