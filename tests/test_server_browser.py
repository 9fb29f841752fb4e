"""The reference server's web page in a real browser (headless Chromium, the ``browser``
fixture) against a real server process: create a table against a ``random`` bot, play a
whole Armadora game by clicking legal moves (one typed in the notation box), and check
that the result the page shows is the library's outcome of the stored save; open a table
by a seat's link and by the form; two humans, each in his own window, play a move each;
what happened reads in words."""

from __future__ import annotations

import json
import random
import sqlite3
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))  # after site-packages: an installed boardrules wins

import httpx  # noqa: E402

import boardrules  # noqa: E402
from boardrules.records import describe_event  # noqa: E402
from examples.server.process import ServerProcess  # noqa: E402
from examples.server.store import SECRET_ENV, key_file_of  # noqa: E402

#: What the page shows, read in one script (no element goes stale between the reads).
PAGE_STATE = """
const moves = document.getElementById("moves");
const buttons = Array.from(moves.querySelectorAll("button.move"));
return {
  version: document.getElementById("version").textContent,
  movesVersion: moves.dataset.version || null,
  moves: buttons.filter((b) => !b.disabled).map((b) => b.dataset.move),
  turn: document.getElementById("turn").textContent,
  result: document.getElementById("result").textContent,
  outcome: document.getElementById("result").dataset.outcome || null,
  error: document.getElementById("error").textContent,
  board: document.querySelector("#board svg") !== null,
  boardVersion: document.getElementById("board").dataset.version || null,
  table: document.getElementById("table-id").textContent,
  game: document.getElementById("game-name").textContent,
  role: document.getElementById("my-seat").dataset.role || null,
  seat: document.getElementById("my-seat").dataset.seat || null,
  events: Array.from(document.querySelectorAll("#events li")).map((li) => li.textContent),
  address: location.href,
};
"""


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ServerProcess]:
    monkeypatch.delenv(SECRET_ENV, raising=False)
    # at its default log level, which logs each websocket it accepts
    with ServerProcess(tmp_path / "tables.sqlite", log_level=None) as running:
        yield running


def page_state(browser: Any) -> dict[str, Any]:
    shown: dict[str, Any] = browser.execute_script(PAGE_STATE)
    return shown


def wait_for_my_turn_or_the_end(browser: Any, timeout: float = 30.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        shown = page_state(browser)
        assert not shown["error"], shown["error"]
        if shown["outcome"]:
            return shown
        if (shown["moves"] and shown["turn"] == "your turn"
                and shown["movesVersion"] == shown["version"] == shown["boardVersion"]):
            return shown
        assert time.monotonic() < deadline, shown
        time.sleep(0.05)


def test_the_page_plays_a_whole_game_against_a_bot(browser: Any,
                                                   server: ServerProcess) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    browser.get(server.url + "/")
    WebDriverWait(browser, 20).until(
        lambda b: len(b.find_elements(By.CSS_SELECTOR, "#game option")) > 0)
    Select(browser.find_element(By.ID, "game")).select_by_value("armadora")
    options = browser.find_element(By.ID, "options")
    options.clear()
    options.send_keys(json.dumps({"players": 2, "variant": "basic"}))
    bot = browser.find_element(By.ID, "bot")
    bot.clear()
    bot.send_keys("random")
    browser.find_element(By.ID, "create-table").click()

    rng = random.Random(5)
    clicks = 0
    typed = False
    deadline = time.monotonic() + 90
    while True:
        assert time.monotonic() < deadline, "the game did not end"
        shown = wait_for_my_turn_or_the_end(browser)
        if shown["outcome"]:
            break
        assert shown["board"]
        # keep the game short: no passing while there are warriors to place
        choices = [m for m in shown["moves"] if m != "pass"] or shown["moves"]
        choice = rng.choice(choices)
        if not typed and "@" in choice:
            # once in the notation box, as a player who knows the notation would
            box = browser.find_element(By.ID, "move-text")
            box.send_keys(choice)
            browser.find_element(By.ID, "send-move").click()
            typed = True
        else:
            button = browser.find_element(
                By.CSS_SELECTOR, f'#moves button.move[data-move="{choice}"]')
            button.click()
        clicks += 1
        WebDriverWait(browser, 30).until(
            lambda b, v=shown["version"]: page_state(b)["version"] != v)

    table_id = shown["table"]
    key = key_file_of(server.db).read_text().strip().encode()
    with sqlite3.connect(server.db) as conn:
        save = conn.execute("SELECT save FROM tables WHERE id = ?", (table_id,)).fetchone()[0]
    state = boardrules.state_from_json(save, key=key)  # the save, replayed and checked
    outcome = state.outcome()
    assert outcome is not None and typed and clicks > 5
    shown_outcome = json.loads(shown["outcome"])
    assert shown_outcome["winners"] == list(outcome.winners)
    assert shown_outcome["scores"] == list(outcome.scores)
    assert shown_outcome["reason"] == outcome.reason.value
    assert shown["result"].startswith(f"Game over ({outcome.reason.value})")
    verdict = "you win" if outcome.winners == (0,) else (
        "a shared win" if 0 in outcome.winners else "you lose")
    assert verdict in shown["result"]
    assert " · ".join(str(s) for s in outcome.scores) in shown["result"]
    # the human's moves in the save are the ones the page sent, each once
    mine = [str(m) for m, (mover, _) in zip(state.history, state.history_view(None),
                                             strict=True) if mover == 0]
    assert len(mine) == clicks


# --- opening a table, and two humans ---

def stored_state(server: ServerProcess, table_id: str) -> boardrules.State[Any]:
    key = key_file_of(server.db).read_text().strip().encode()
    with sqlite3.connect(server.db) as conn:
        save = conn.execute("SELECT save FROM tables WHERE id = ?", (table_id,)).fetchone()[0]
    return boardrules.state_from_json(save, key=key)


def events_in_words(state: boardrules.State[Any], seat: int | None) -> list[str]:
    """The page's lines for ``seat``'s events: who, then the library's words."""
    return [f"#{e.index} {'chance' if e.player < 0 else f'seat {e.player}'}: "
            f"{describe_event(e, game=state.game, viewer=seat)}" for e in state.events(seat)]


def wait_for(browser: Any, check: Any, timeout: float = 30.0) -> dict[str, Any]:
    """The page's state once ``check(state)`` holds (no error shown meanwhile)."""
    deadline = time.monotonic() + timeout
    while True:
        shown = page_state(browser)
        assert not shown["error"], shown["error"]
        if check(shown):
            return shown
        assert time.monotonic() < deadline, shown
        time.sleep(0.05)


def two_humans(server: ServerProcess) -> dict[str, Any]:
    response = httpx.post(server.url + "/tables", json={"game": "connect_four"}, timeout=10)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def test_a_seats_link_opens_its_table_as_that_seat(browser: Any,
                                                   server: ServerProcess) -> None:
    created = two_humans(server)
    table_id, (first, second) = created["table"]["id"], created["tokens"]["seats"]
    browser.get(f"{server.url}/?table={table_id}#token={second}")
    shown = wait_for(browser, lambda s: s["role"] == "seat")
    assert shown["table"] == table_id and shown["game"] == "connect_four"
    assert shown["seat"] == "1" and shown["turn"] == "seat 0 to move" and not shown["moves"]
    httpx.post(f"{server.url}/tables/{table_id}/moves", timeout=10,
               headers={"Authorization": f"Bearer {first}"},
               json={"move": "d", "expected_version": 0})
    shown = wait_for(browser, lambda s: s["turn"] == "your turn" and s["moves"])
    assert shown["version"] == "1" and shown["movesVersion"] == "1"
    assert shown["events"] == events_in_words(stored_state(server, table_id), 1)
    # a link with the token in its query opens the same seat, the token moved out of it
    browser.get(f"{server.url}/?table={table_id}&token={second}")
    shown = wait_for(browser, lambda s: s["role"] == "seat" and s["version"] == "1")
    assert shown["seat"] == "1" and shown["address"].endswith(
        f"/?table={table_id}#token={second}")


def test_the_open_form_opens_a_table_to_watch_or_as_a_seat(browser: Any,
                                                            server: ServerProcess) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    created = two_humans(server)
    table_id, first = created["table"]["id"], created["tokens"]["seats"][0]
    browser.get(server.url + "/")
    for text, token, role in ((table_id, "", "spectator"), (table_id, first, "seat"),
                              (f"{server.url}/?table={table_id}#token={first}", "", "seat")):
        browser.find_element(By.ID, "open-id").clear()
        browser.find_element(By.ID, "open-id").send_keys(text)
        browser.find_element(By.ID, "open-token").clear()
        browser.find_element(By.ID, "open-token").send_keys(token)
        browser.find_element(By.ID, "open-table").click()
        shown = wait_for(browser, lambda s, r=role: s["role"] == r)
        assert shown["table"] == table_id and shown["version"] == "0"
        assert (shown["turn"] == "your turn") == (role == "seat")
    # an unknown table is named as such
    browser.find_element(By.ID, "open-id").clear()
    browser.find_element(By.ID, "open-id").send_keys("nosuchtable")
    browser.find_element(By.ID, "open-token").clear()
    browser.find_element(By.ID, "open-table").click()
    WebDriverWait(browser, 20).until(lambda b: "unknown_table" in page_state(b)["error"])


def test_two_humans_play_a_move_each_in_two_windows(browser: Any,
                                                    server: ServerProcess) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    browser.get(server.url + "/")
    WebDriverWait(browser, 20).until(
        lambda b: len(b.find_elements(By.CSS_SELECTOR, "#game option")) > 0)
    Select(browser.find_element(By.ID, "game")).select_by_value("connect_four")
    for field, text in (("options", "{}"), ("bot", "human"), ("seat", "0")):
        browser.find_element(By.ID, field).clear()
        browser.find_element(By.ID, field).send_keys(text)
    browser.find_element(By.ID, "create-table").click()
    first = browser.current_window_handle
    mine = wait_for(browser, lambda s: s["turn"] == "your turn" and s["moves"])
    assert mine["role"] == "seat" and mine["seat"] == "0"
    own_token = mine["address"].partition("#token=")[2]  # the page's own seat link
    link = browser.find_element(By.CSS_SELECTOR, '#seat-links a[data-seat="1"]')
    href = link.get_attribute("href")
    table_id = mine["table"]
    assert href.startswith(f"{server.url}/?table={table_id}#token=")
    browser.switch_to.new_window("tab")
    second = browser.current_window_handle
    try:
        browser.get(href)
        theirs = wait_for(browser, lambda s: s["role"] == "seat")
        assert theirs["seat"] == "1" and theirs["turn"] == "seat 0 to move"

        browser.switch_to.window(first)
        browser.find_element(By.CSS_SELECTOR, '#moves button.move[data-move="d"]').click()
        wait_for(browser, lambda s: s["version"] == "1" and s["turn"] == "seat 1 to move")

        browser.switch_to.window(second)
        wait_for(browser, lambda s: s["turn"] == "your turn" and s["movesVersion"] == "1")
        browser.find_element(By.CSS_SELECTOR, '#moves button.move[data-move="c"]').click()
        theirs = wait_for(browser, lambda s: s["version"] == "2")

        browser.switch_to.window(first)
        mine = wait_for(browser, lambda s: s["version"] == "2" and s["turn"] == "your turn")
    finally:
        browser.switch_to.window(second)
        browser.close()
        browser.switch_to.window(first)
    state = stored_state(server, table_id)
    assert [str(m) for m in state.history] == ["d", "c"]
    # what happened, in words, each window its own seat's events
    assert mine["events"] == events_in_words(state, 0) and len(mine["events"]) == 2
    assert theirs["events"] == events_in_words(state, 1)
    assert all("{" not in line for line in mine["events"])  # no raw JSON
    # the two websockets are in the server's log, their tokens are not
    log = server.log.read_text()
    assert log.count(f"/tables/{table_id}/ws?token=[redacted]") >= 2
    for token in (own_token, href.partition("#token=")[2]):
        assert len(token) > 20 and token not in log
