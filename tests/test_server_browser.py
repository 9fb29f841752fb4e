"""The reference server's web page in a real browser (headless Chromium, the ``browser``
fixture) against a real server process: create a table against a ``random`` bot, play a
whole Armadora game by clicking legal moves (one typed in the notation box), and check
that the result the page shows is the library's outcome of the stored save."""

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

import boardrules  # noqa: E402
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
};
"""


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ServerProcess]:
    monkeypatch.delenv(SECRET_ENV, raising=False)
    with ServerProcess(tmp_path / "tables.sqlite") as running:
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
