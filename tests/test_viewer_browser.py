"""The record viewer in a real browser (headless Chromium): for each of the four games the
page is opened from disk, stepped with its buttons, its keys and its move list, and what
it shows -- the step counter, the current move, the board's SVG, the outlined locations
-- is checked against the library's own states and pictures; switching the viewer shows
that player's view; a viewer's record shows his views only."""

from __future__ import annotations

import json
import random
import time
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

import boardrules
from boardrules.games import as_game_id
from boardrules.records import game_record, replay_states, replay_views
from boardrules.testing import random_play, random_playout
from boardrules.viewer import record_html

GAMES = ("armadora", "rome_and_carthage", "armada", "albion")
MOVES = 40


@cache
def short_game(game_id: str) -> boardrules.State[Any]:
    """A random game of ``game_id`` cut at ``MOVES`` moves (chance steps included)."""
    state = boardrules.load(as_game_id(game_id), players=3).new_game(seed=8)
    rng = random.Random(8)
    while len(state.history) < MOVES and not state.is_terminal():
        state.apply(rng.choice(state.legal_moves()))
    return state


@cache
def expected(game_id: str, eye: int | str | None) -> tuple[list[str], list[str]]:
    """What the page must show for ``eye`` ("all": the truth) at each step: the board's
    SVG and the move's text."""
    state = short_game(game_id)
    game = state.game
    record = game_record(state)
    if eye == "all":
        moves = [m["move"] for m in record["moves"]]
        return [step.render_svg_truth(highlight=_places(game, moves, i))
                for i, step in enumerate(replay_states(record))], moves
    assert eye is None or isinstance(eye, int)
    # each move as the eye's log read it at the step it was made (never a later reveal)
    moves = [step.history_view(eye)[-1][1] for step in list(replay_states(record))[1:]]
    return [game.render_view_svg(view, highlight=_places(game, moves, i))
            for i, view in enumerate(replay_views(record, eye))], moves


@cache
def whole_page(game_id: str) -> str:
    state = short_game(game_id)
    return record_html(game_record(state, players=[f"bot {p}" for p in range(3)]))


def _places(game: boardrules.Game[Any, Any], moves: list[str], step: int) -> tuple[str, ...]:
    return () if step == 0 else game.move_locations(moves[step - 1])


def open_page(browser: Any, path: Path, page: str) -> None:
    path.write_text(page, encoding="utf-8")
    browser.get(path.as_uri())
    WebDriverWait(browser, 10).until(
        lambda b: b.execute_script("return !!window.boardrulesViewer"))


def shown_step(browser: Any) -> int:
    return int(browser.execute_script("return document.body.dataset.step"))


def parsed(browser: Any, svg: str) -> str:
    """``svg`` as the page's HTML parser keeps it (the board's innerHTML is compared with
    it, not with the text the library wrote)."""
    markup: str = browser.execute_script(
        "const box = document.createElement('div'); box.innerHTML = arguments[0];"
        "return box.innerHTML;", svg)
    return markup


def check_step(browser: Any, game: boardrules.Game[Any, Any], step: int,
               pictures: list[str], moves: list[str]) -> None:
    last = len(moves)
    assert shown_step(browser) == step
    assert browser.find_element(By.ID, "step").text == f"{step} / {last}"
    current = browser.find_elements(By.CSS_SELECTOR, "#move-list li.current")
    assert len(current) == 1 and current[0].get_attribute("data-step") == str(step)
    shown_move = current[0].find_element(By.CLASS_NAME, "move").text
    assert shown_move == ("start" if step == 0 else moves[step - 1])
    board = browser.execute_script("return document.getElementById('board').innerHTML")
    assert board == parsed(browser, pictures[step])
    outlined = {e.get_attribute("data-location") for e in
                browser.find_elements(By.CSS_SELECTOR, "#board g.br-highlight")}
    assert outlined == set(_places(game, moves, step))


def press(browser: Any, key: str) -> None:
    ActionChains(browser).send_keys(key).perform()


@pytest.mark.parametrize("game_id", GAMES)
def test_stepping_through_a_whole_record(browser: Any, tmp_path: Path, game_id: str) -> None:
    game = short_game(game_id).game
    open_page(browser, tmp_path / "game.html", whole_page(game_id))
    truth, moves = expected(game_id, "all")
    check_step(browser, game, 0, truth, moves)
    for step in (1, 2, 3):
        browser.find_element(By.ID, "next").click()
        check_step(browser, game, step, truth, moves)
    browser.find_element(By.ID, "prev").click()
    check_step(browser, game, 2, truth, moves)
    press(browser, Keys.ARROW_RIGHT)
    press(browser, Keys.ARROW_RIGHT)
    check_step(browser, game, 4, truth, moves)
    press(browser, Keys.ARROW_LEFT)
    check_step(browser, game, 3, truth, moves)
    press(browser, Keys.END)
    check_step(browser, game, len(moves), truth, moves)
    assert browser.find_element(By.ID, "next").get_attribute("disabled") is not None
    press(browser, Keys.HOME)
    check_step(browser, game, 0, truth, moves)
    browser.find_element(By.ID, "last").click()
    check_step(browser, game, len(moves), truth, moves)
    browser.find_element(By.ID, "first").click()
    check_step(browser, game, 0, truth, moves)


@pytest.mark.parametrize("game_id", GAMES)
def test_switching_the_viewer_shows_that_players_view(browser: Any, tmp_path: Path,
                                                      game_id: str) -> None:
    game = short_game(game_id).game
    open_page(browser, tmp_path / "game.html", whole_page(game_id))
    truth, moves = expected(game_id, "all")
    mine, my_moves = expected(game_id, 1)
    differ = [i for i in range(len(truth)) if truth[i] != mine[i]]
    assert differ, "player 1 does not see everything"
    step = differ[len(differ) // 2]
    item = browser.find_element(By.CSS_SELECTOR, f'#move-list li[data-step="{step}"]')
    browser.execute_script("arguments[0].scrollIntoView()", item)
    item.click()
    check_step(browser, game, step, truth, moves)
    Select(browser.find_element(By.ID, "viewer-select")).select_by_value("1")
    assert browser.execute_script("return document.body.dataset.viewer") == "1"
    check_step(browser, game, step, mine, my_moves)
    press(browser, Keys.ARROW_RIGHT)  # the keys work again once the viewer is chosen
    check_step(browser, game, step + 1, mine, my_moves)
    watching, watched_moves = expected(game_id, None)
    Select(browser.find_element(By.ID, "viewer-select")).select_by_value("spectator")
    check_step(browser, game, step + 1, watching, watched_moves)
    keys = [o.get_attribute("value") for o in
            browser.find_elements(By.CSS_SELECTOR, "#viewer-select option")]
    assert keys == ["all", *map(str, range(game.num_players)), "spectator"]


@pytest.mark.parametrize("game_id", GAMES)
def test_a_viewers_record_shows_his_views_only(browser: Any, tmp_path: Path,
                                               game_id: str) -> None:
    state = short_game(game_id)
    game = state.game
    record = json.loads(json.dumps(game_record(state, viewer=2)))
    open_page(browser, tmp_path / "seen.html", record_html(record))
    moves = [m["move"] for m in record["moves"]]
    views = replay_views(record)
    pictures = [game.render_view_svg(view, highlight=_places(game, moves, i))
                for i, view in enumerate(views)]
    assert pictures == expected(game_id, 2)[0]
    selector = browser.find_element(By.ID, "viewer-select")
    assert selector.get_attribute("disabled") is not None
    assert [o.get_attribute("value") for o in selector.find_elements(By.TAG_NAME, "option")] \
        == ["2"]
    for key, step in ((Keys.END, len(moves)), (Keys.ARROW_LEFT, len(moves) - 1),
                      (Keys.HOME, 0), (Keys.ARROW_RIGHT, 1)):
        press(browser, key)
        check_step(browser, game, step, pictures, moves)


def shown_rows(browser: Any, upto: int) -> list[tuple[str, str]]:
    """The move list's first ``upto`` moves as the page shows them: (mover, move)."""
    items = browser.find_elements(By.CSS_SELECTOR, "#move-list li")[1:upto + 1]
    return [(item.find_element(By.CLASS_NAME, "mover").text,
             item.find_element(By.CLASS_NAME, "move").text) for item in items]


def _who(mover: int) -> str:
    return "chance" if mover < 0 else f"P{mover}"


def test_a_player_sees_a_face_down_commit_as_he_saw_it_at_its_step(
        browser: Any, tmp_path: Path) -> None:
    """U1: Rome & Carthage, player 1's eyes at player 0's face-down battle commit read
    ``play ?`` in the caption and the move list, as his log read at that step; the cards
    show from the step that reveals them on, and hide again when stepping back."""
    game = boardrules.load("rome_and_carthage", players=2, max_rounds=12)
    record = game_record(random_play(game, 1, 60, rng_seed=1), date=None)
    states = list(replay_states(record))
    final = states[-1].history_view(1)
    step = next(k for k in range(1, len(states)) if states[k].history_view(1)[-1][1]
                == "play ?" != final[k - 1][1])
    revealed = next(k for k in range(step + 1, len(states))
                    if states[k].history_view(1)[step - 1][1] != "play ?")
    open_page(browser, tmp_path / "rc.html", record_html(record))
    Select(browser.find_element(By.ID, "viewer-select")).select_by_value("1")
    for at in (step, revealed, step, revealed - 1, len(states) - 1):
        browser.execute_script("window.boardrulesViewer.show(arguments[0])", at)
        log = states[at].history_view(1)
        assert shown_rows(browser, at) == [(_who(mover), text) for mover, text in log]
        caption = browser.find_element(By.ID, "current-move").text
        assert caption.startswith(f"{at}. {_who(log[-1][0])}: {log[-1][1]}")
    browser.execute_script("window.boardrulesViewer.show(arguments[0])", step)
    assert browser.find_element(By.ID, "current-move").text.startswith(
        f"{step}. P0: play ?")
    assert final[step - 1][1] not in browser.find_element(By.ID, "move-list").text.split(
        "\n")[step]


def test_a_finished_game_plays_and_pauses(browser: Any, tmp_path: Path) -> None:
    state = random_playout(boardrules.load("armadora", players=2), seed=5)
    assert state.is_terminal()
    record = game_record(state, players=["alice", "bob"], comments={8: "the first warrior"})
    open_page(browser, tmp_path / "finished.html", record_html(record, hints=[
        [str(m) for m in s.legal_moves()[:3]] if s.current_player >= 0 else None
        for s in replay_states(record)]))
    rows = {r.get_attribute("data-header"): r.find_element(By.TAG_NAME, "td").text
            for r in browser.find_elements(By.CSS_SELECTOR, "#headers tr")}
    assert rows["result"] == record["headers"]["result"] != "*"
    assert rows["player0"] == "alice" and rows["termination"] == record["headers"][
        "termination"]
    comment = browser.find_element(By.CSS_SELECTOR, '#move-list li[data-step="9"] .comment')
    assert comment.text == "the first warrior"
    browser.find_element(By.ID, "play").click()
    WebDriverWait(browser, 10).until(lambda b: shown_step(b) >= 2)
    press(browser, " ")  # Space pauses (the focused play button must not also take it)
    paused = shown_step(browser)
    assert browser.execute_script("return document.body.dataset.playing") == "false"
    time.sleep(1.0)  # longer than a step of play
    assert shown_step(browser) == paused
    press(browser, Keys.END)
    last = len(record["moves"])
    assert shown_step(browser) == last
    truth_moves = [m["move"] for m in record["moves"]]
    shown_hints = browser.find_elements(By.CSS_SELECTOR, "#hint-list li")
    assert not shown_hints  # the game is over: nothing to suggest
    browser.get((tmp_path / "finished.html").as_uri() + f"#step={last - 1}")
    WebDriverWait(browser, 10).until(lambda b: shown_step(b) == last - 1)
    step = last - 1
    move = truth_moves[step - 1]
    assert browser.find_element(By.CSS_SELECTOR, "#move-list li.current .move").text == move
    hinted = [e.get_attribute("data-move") for e in
              browser.find_elements(By.CSS_SELECTOR, "#hint-list li")]
    marks = {e.get_attribute("data-location") for e in
             browser.find_elements(By.CSS_SELECTOR, "#board g.br-mark")}
    places = {state.game.move_locations(m)[-1] for m in hinted
              if state.game.move_locations(m)}
    assert hinted and marks == places
