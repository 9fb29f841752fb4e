"""The reference game server's HTTP and websocket API, end to end with FastAPI's TestClient
(examples/server; docs/server.rst).

Every refusal is checked to change nothing: the stored save and version are read from the
SQLite file before and after.  Views are checked against the library's own ``view(seat)``
of the stored state, so a seat never sees another seat's hidden pieces.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import sqlite3
import stat
import sys
import threading
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))  # after site-packages: an installed boardrules wins

import boardrules  # noqa: E402
from boardrules import CHANCE  # noqa: E402
from boardrules.records import describe_event  # noqa: E402
from boardrules.search.suggest import ALPHABETA_LEVELS  # noqa: E402

with warnings.catch_warnings():  # starlette's notice about httpx2 (its test client's httpx)
    warnings.filterwarnings("ignore", message=".*httpx2")
    from fastapi.testclient import TestClient

from examples.server.app import create_app  # noqa: E402
from examples.server.bots import BotBudget, bounded_bot  # noqa: E402
from examples.server.errors import ApiError  # noqa: E402
from examples.server.store import SECRET_ENV, StaleWrite, Store, key_file_of  # noqa: E402
from examples.server.tables import _events_json  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:.*httpx2")

SECRET = b"server-test-secret-0123456789"
ARMADORA = {"game": "armadora", "options": {"players": 2, "variant": "basic"}}
BUDGET = BotBudget(max_iterations=500, max_time_limit=1.0)


@contextmanager
def running(db: Path, secret: bytes | None = SECRET) -> Iterator[TestClient]:
    with TestClient(create_app(db, secret=secret, budget=BUDGET)) as client:
        yield client


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "tables.sqlite"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with running(db) as client:
        yield client


def auth(token: str | None) -> dict[str, str]:
    return {} if token is None else {"Authorization": f"Bearer {token}"}


def stored(db: Path, table_id: str) -> tuple[int, str]:
    """(version, save) as the database holds them."""
    with sqlite3.connect(db) as conn:
        row = conn.execute("SELECT version, save FROM tables WHERE id = ?",
                           (table_id,)).fetchone()
    assert row is not None, table_id
    return int(row[0]), str(row[1])


def stored_state(db: Path, table_id: str) -> boardrules.State[Any]:
    return boardrules.state_from_json(stored(db, table_id)[1], key=SECRET)


def table_count(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM tables").fetchone()[0])


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/tables", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def view(client: TestClient, table_id: str, token: str | None) -> dict[str, Any]:
    response = client.get(f"/tables/{table_id}/view", headers=auth(token))
    assert response.status_code == 200, response.text
    shown: dict[str, Any] = response.json()
    return shown


def move(client: TestClient, table_id: str, token: str | None, text: str,
         version: int, **extra: Any) -> Any:
    return client.post(f"/tables/{table_id}/moves", headers=auth(token),
                       json={"move": text, "expected_version": version, **extra})


def wait_until(predicate: Any, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def as_json(value: Any) -> Any:
    return json.loads(json.dumps(value))


# --- tables ---

def test_games_lists_every_registered_game(client: TestClient) -> None:
    games = client.get("/games").json()["games"]
    assert [g["id"] for g in games] == boardrules.available_games()
    armadora = next(g for g in games if g["id"] == "armadora")
    assert armadora["players"] == 2 and {"players": 2, "variant": "basic"} in \
        armadora["example_options"]


def test_a_new_table_is_stored_and_its_tokens_are_given_once(client: TestClient,
                                                             db: Path) -> None:
    created = create(client, **ARMADORA, seats=["human", "random"], seed=11)
    table, tokens = created["table"], created["tokens"]
    assert table["game"] == "armadora" and table["options"]["players"] == 2
    assert table["seats"] == [{"seat": 0, "kind": "human"},
                              {"seat": 1, "kind": "bot", "bot": "random"}]
    assert table["status"] == "playing" and table["turn"] == {"kind": "human", "seat": 0}
    assert isinstance(tokens["seats"][0], str) and tokens["seats"][1] is None
    assert isinstance(tokens["host"], str)
    # stored before it was answered, signed, at the version it was answered with
    version, save = stored(db, table["id"])
    state = boardrules.state_from_json(save, key=SECRET)
    assert version == table["version"] == len(state.history)
    assert state == boardrules.load("armadora", players=2, variant="basic").new_game(seed=11)
    # the tokens are nowhere to be read again: not in the summaries, not in the database
    listing = client.get("/tables").json()["tables"]
    assert [t["id"] for t in listing] == [table["id"]]
    again = client.get(f"/tables/{table['id']}").json()
    assert again == listing[0]
    with sqlite3.connect(db) as conn:
        dump = "\n".join(conn.iterdump())
    for token in (tokens["seats"][0], tokens["host"]):
        assert token not in dump and token not in json.dumps(listing)


def test_seats_default_to_humans(client: TestClient) -> None:
    created = create(client, game="tic_tac_toe")
    assert [s["kind"] for s in created["table"]["seats"]] == ["human", "human"]
    assert all(isinstance(t, str) for t in created["tokens"]["seats"])


@pytest.mark.parametrize(("body", "status", "code"), [
    ({"game": "chess"}, 422, "unknown_game"),
    ({"game": "armadora", "options": {"players": 9}}, 422, "bad_options"),
    ({"game": "armadora", "options": {"colour": "red"}}, 422, "bad_options"),
    ({"game": "armadora", "options": {"board": "/etc/passwd"}}, 422, "bad_options"),
    ({"game": "tic_tac_toe", "seats": ["human"]}, 422, "bad_seats"),
    ({"game": "tic_tac_toe", "seats": ["human", "wizard"]}, 422, "bad_bot"),
    ({"game": "tic_tac_toe", "seats": ["human", "mcts:iterations=0"]}, 422, "bad_bot"),
    ({"game": "tic_tac_toe", "seats": ["human", "mcts:iterations=501"]}, 422, "bad_bot"),
    ({"game": "tic_tac_toe", "seats": ["human", "mcts:time_limit=9"]}, 422, "bad_bot"),
    ({"game": "tic_tac_toe", "seats": ["human", "mcts:threads=2"]}, 422, "bad_bot"),
    ({"game": "tic_tac_toe", "seats": ["human", "alphabeta:determinizations=2"]}, 422,
     "bad_bot"),
    ({"game": "tic_tac_toe", "seed": -1}, 422, "bad_seed"),
    ({"game": "tic_tac_toe", "seed": 2**64}, 422, "bad_seed"),
    ({"game": "tic_tac_toe", "auto_chance": "yes"}, 400, "bad_request"),
    ({"game": "tic_tac_toe", "colour": "red"}, 400, "bad_request"),
    ({"options": {}}, 400, "bad_request"),
    ({"game": 3}, 400, "bad_request"),
])
def test_a_bad_table_is_refused_and_nothing_stored(client: TestClient, db: Path,
                                                    body: dict[str, Any], status: int,
                                                    code: str) -> None:
    response = client.post("/tables", json=body)
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert error["code"] == code and error["message"]
    assert table_count(db) == 0 and client.get("/tables").json()["tables"] == []


def test_a_body_that_is_not_json_is_a_bad_request(client: TestClient) -> None:
    response = client.post("/tables", content=b"{not json",
                           headers={"Content-Type": "application/json"})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad_request"


def test_unknown_tables_and_routes_answer_404(client: TestClient) -> None:
    for path in ("/tables/nope", "/tables/nope/view", "/tables/nope/board.svg", "/nowhere"):
        response = client.get(path)
        assert response.status_code == 404, path
        assert response.json()["error"]["code"] in ("unknown_table", "not_found")
    response = move(client, "nope", None, "a1", 0)
    assert response.status_code == 404 and response.json()["error"]["code"] == "unknown_table"


# --- moves ---

def test_a_move_is_stored_before_it_is_acknowledged_and_a_retry_is_refused(
        client: TestClient, db: Path) -> None:
    created = create(client, game="connect_four")
    table_id, (first, second) = created["table"]["id"], created["tokens"]["seats"]
    mine = view(client, table_id, first)
    assert mine["your_turn"] and mine["legal_moves"] and mine["version"] == 0
    response = move(client, table_id, first, mine["legal_moves"][0], 0)
    assert response.status_code == 200, response.text
    ack = response.json()
    assert ack["move"] == mine["legal_moves"][0] and ack["index"] == 0 and ack["version"] == 1
    assert ack["state"]["version"] == 1 and not ack["state"]["your_turn"]
    version, save = stored(db, table_id)
    assert version == 1
    assert [str(m) for m in stored_state(db, table_id).history] == [ack["move"]]
    # the same request again (a client retrying after a lost answer) is never applied twice
    retry = move(client, table_id, first, mine["legal_moves"][0], 0)
    assert retry.status_code == 409 and retry.json()["error"]["code"] == "stale_version"
    assert retry.json()["error"]["version"] == 1
    assert stored(db, table_id) == (version, save)
    # and the other seat, at the new version, may move
    theirs = view(client, table_id, second)
    assert theirs["your_turn"] and move(client, table_id, second, theirs["legal_moves"][0],
                                        1).status_code == 200


def _illegal_armadora_move(state: boardrules.State[Any]) -> str:
    legal = {str(m) for m in state.legal_moves()}
    for square in ("a1", "b2", "c3", "d4", "e5"):
        text = f"1@{square}"
        if text not in legal:
            return text
    raise AssertionError("every probe is legal")


def test_bad_moves_are_refused_and_change_nothing(client: TestClient, db: Path) -> None:
    created = create(client, **ARMADORA, seed=5)
    table_id = created["table"]["id"]
    first, second = created["tokens"]["seats"]
    host = created["tokens"]["host"]
    # one warrior on the board, so that an occupied square makes an illegal move
    start = view(client, table_id, first)
    warrior = next(m for m in start["legal_moves"] if "@" in m)
    assert move(client, table_id, first, warrior, start["version"]).status_code == 200
    version, save = stored(db, table_id)
    state = stored_state(db, table_id)
    to_move = [first, second][state.current_player]
    other = [first, second][1 - state.current_player]
    occupied = f"1@{warrior.split('@')[1]}"
    assert not state.is_legal(occupied)
    cases: list[tuple[str, Any, int, str]] = [
        ("junk notation", lambda: move(client, table_id, to_move, "fly away", version),
         400, "invalid_move"),
        ("an illegal move", lambda: move(client, table_id, to_move, occupied, version),
         422, "illegal_move"),
        ("not his turn", lambda: move(client, table_id, other, occupied, version),
         409, "not_your_turn"),
        ("for another seat", lambda: move(client, table_id, to_move, occupied, version,
                                          seat=1 - state.current_player), 403, "wrong_seat"),
        ("a wrong token", lambda: move(client, table_id, "not-a-token", occupied, version),
         403, "bad_token"),
        ("another scheme", lambda: client.post(
            f"/tables/{table_id}/moves", headers={"Authorization": f"Basic {to_move}"},
            json={"move": occupied, "expected_version": version}), 403, "bad_token"),
        ("no token", lambda: move(client, table_id, None, occupied, version),
         403, "not_a_player"),
        ("the host's token", lambda: move(client, table_id, host, occupied, version),
         403, "not_a_player"),
        ("a stale version", lambda: move(client, table_id, to_move, occupied, version - 1),
         409, "stale_version"),
        ("a version to come", lambda: move(client, table_id, to_move, occupied, version + 1),
         409, "stale_version"),
        ("a negative version", lambda: move(client, table_id, to_move, occupied, -1),
         400, "bad_request"),
        ("a version as text", lambda: move(client, table_id, to_move, occupied, str(version)),
         400, "bad_request"),
        ("an unknown field", lambda: move(client, table_id, to_move, occupied, version,
                                          player=0), 400, "bad_request"),
        ("a huge move", lambda: move(client, table_id, to_move, "x" * 10_000, version),
         400, "bad_request"),
        ("chance at an auto_chance table", lambda: client.post(
            f"/tables/{table_id}/chance", headers=auth(host),
            json={"outcome": "gold 3", "expected_version": version}), 409, "not_chance"),
        ("chance from a seat", lambda: client.post(
            f"/tables/{table_id}/chance", headers=auth(to_move),
            json={"outcome": "gold 3", "expected_version": version}), 403, "not_the_host"),
    ]
    before_views = [view(client, table_id, token) for token in (first, second, None)]
    for name, request, status, code in cases:
        response = request()
        assert response.status_code == status, (name, response.text)
        error = response.json()["error"]
        assert error["code"] == code and error["message"], name
        assert stored(db, table_id) == (version, save), name
    assert [view(client, table_id, token) for token in (first, second, None)] == before_views
    illegal = move(client, table_id, to_move, occupied, version).json()["error"]
    assert illegal["rule"]  # names the rule broken


# --- hidden information ---

def test_each_seat_sees_its_own_view_and_never_another(client: TestClient, db: Path) -> None:
    created = create(client, **ARMADORA, seed=3)
    table_id, tokens = created["table"]["id"], created["tokens"]["seats"]
    rng = random.Random(3)
    for _ in range(6):  # warriors of both seats, face down
        state = stored_state(db, table_id)
        seat = state.current_player
        shown = view(client, table_id, tokens[seat])
        warriors = [m for m in shown["legal_moves"] if "@" in m]
        assert move(client, table_id, tokens[seat], rng.choice(warriors),
                    shown["version"]).status_code == 200
    state = stored_state(db, table_id)
    seen = {}
    for seat, token in ((0, tokens[0]), (1, tokens[1]), (None, None)):
        shown = view(client, table_id, token)
        seen[seat] = shown["view"]
        assert shown["seat"] == seat and shown["version"] == len(state.history)
        assert shown["view"] == as_json(state.view(seat))
        assert shown["events"] == [e.as_dict() for e in state.events(seat)]
        assert shown["last_events"] == [e.as_dict() for e in state.last_events(seat)]
        assert shown["history"] == [list(pair) for pair in state.history_view(seat)]
        assert shown["your_turn"] == (seat == state.current_player)
        assert shown["legal_moves"] == ([str(m) for m in state.legal_moves()]
                                        if seat == state.current_player else [])
        assert (shown["decision"] is None) == (seat != state.current_player)
        svg = client.get(f"/tables/{table_id}/board.svg", headers=auth(token))
        assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg")
        assert svg.text == state.render_svg(seat)
    # the three views differ: each seat sees its own warriors' strengths only
    assert seen[0] != seen[1] and seen[0] != seen[None] and seen[1] != seen[None]
    assert view(client, table_id, None)["role"] == "spectator"


def test_events_come_in_words_beside_their_json(client: TestClient, db: Path) -> None:
    created = create(client, **ARMADORA, seed=3)
    table_id, tokens = created["table"]["id"], created["tokens"]["seats"]
    path = f"/tables/{table_id}/ws"
    with client.websocket_connect(f"{path}?token={tokens[1]}") as other:
        hello = other.receive_json()
        state = stored_state(db, table_id)
        assert hello["events_text"] == [describe_event(e, game=state.game, viewer=1)
                                        for e in state.events(1)]
        shown = view(client, table_id, tokens[0])
        warrior = next(m for m in shown["legal_moves"] if "@" in m)
        assert move(client, table_id, tokens[0], warrior, shown["version"]).status_code == 200
        pushed = other.receive_json()
    state = stored_state(db, table_id)
    # the other seat reads the face-down warrior in words, its strength hidden ("?")
    words = [describe_event(e, game=state.game, viewer=1) for e in state.last_events(1)]
    assert pushed["last_events_text"] == words and words and "?" in words[0]
    for seat, token in ((0, tokens[0]), (1, tokens[1]), (None, None)):
        shown = view(client, table_id, token)
        assert shown["events_text"] == [describe_event(e, game=state.game, viewer=seat)
                                        for e in state.events(seat)]
        assert shown["last_events_text"] == [describe_event(e, game=state.game, viewer=seat)
                                             for e in state.last_events(seat)]
        assert len(shown["events_text"]) == len(shown["events"]) > 0


def test_a_spectator_watches_and_cannot_move(client: TestClient, db: Path) -> None:
    created = create(client, game="tic_tac_toe")
    table_id = created["table"]["id"]
    shown = view(client, table_id, None)
    assert shown["role"] == "spectator" and shown["seat"] is None
    assert not shown["your_turn"] and shown["legal_moves"] == [] and shown["decision"] is None
    response = move(client, table_id, None, "b2", 0)
    assert response.status_code == 403 and stored(db, table_id)[0] == 0


# --- bots ---

def test_a_bot_table_plays_to_the_end_by_itself(client: TestClient, db: Path) -> None:
    created = create(client, game="connect_four", seats=["mcts:iterations=60", "greedy"],
                     seed=2)
    table_id = created["table"]["id"]
    assert created["table"]["seats"][0]["bot"].startswith("mcts:iterations=60")
    wait_until(lambda: client.get(f"/tables/{table_id}").json()["status"] == "over")
    summary = client.get(f"/tables/{table_id}").json()
    state = stored_state(db, table_id)
    assert state.is_terminal() and summary["version"] == len(state.history)
    assert summary["outcome"]["winners"] == list(state.outcome().winners)  # type: ignore[union-attr]
    assert summary["error"] is None


def test_a_human_plays_a_bot_to_the_end(client: TestClient, db: Path) -> None:
    created = create(client, **ARMADORA, seats=["ismcts:iterations=30", "human"], seed=9)
    table_id, token = created["table"]["id"], created["tokens"]["seats"][1]
    rng = random.Random(9)
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline
        shown = view(client, table_id, token)
        if shown["outcome"] is not None:
            break
        if not shown["your_turn"]:
            time.sleep(0.01)
            continue
        response = move(client, table_id, token, rng.choice(shown["legal_moves"]),
                        shown["version"])
        assert response.status_code == 200, response.text
    state = stored_state(db, table_id)
    assert state.is_terminal()
    outcome = state.outcome()
    assert outcome is not None and shown["outcome"]["scores"] == list(outcome.scores)
    assert shown["outcome"]["reason"] == outcome.reason.value


def test_the_server_bounds_every_search_bot(client: TestClient) -> None:
    created = create(client, game="connect_four", seats=["human", "ismcts"])
    bot = created["table"]["seats"][1]["bot"]
    assert "time_limit=1.0" in bot and f"max_memory={BUDGET.max_memory}" in bot


@pytest.mark.parametrize("name", ["mcts", "ismcts"])
def test_a_bot_level_over_the_iteration_budget_is_refused(name: str) -> None:
    game = boardrules.load("connect_four")
    levels = game.search_levels
    budget = BotBudget(max_iterations=levels["normal"])  # strong searches more
    for level in ("fast", "normal"):
        spec = bounded_bot(f"{name}:level={level}", game, budget)
        assert ("level", level) in spec.options
    with pytest.raises(ApiError) as refused:
        bounded_bot(f"{name}:level=strong", game, budget)
    assert refused.value.status == 422 and refused.value.code == "bad_bot"
    assert f"{levels['strong']:,} iterations" in refused.value.message


def test_an_alphabeta_level_over_the_node_budget_is_refused() -> None:
    game = boardrules.load("connect_four")
    budget = BotBudget(max_nodes=ALPHABETA_LEVELS["normal"][0])
    assert ("level", "normal") in bounded_bot("alphabeta:level=normal", game,
                                              budget).options
    with pytest.raises(ApiError) as refused:
        bounded_bot("alphabeta:level=strong", game, budget)
    assert refused.value.code == "bad_bot" and "nodes" in refused.value.message


@pytest.mark.parametrize("spec", ["mcts:level=strong", "ismcts:level=normal",
                                  "alphabeta:level=strong"])
def test_a_table_with_a_bot_level_over_the_budget_is_refused(client: TestClient, db: Path,
                                                               spec: str) -> None:
    response = client.post("/tables", json={"game": "connect_four",
                                            "seats": ["human", spec]})
    assert response.status_code == 422 and response.json()["error"]["code"] == "bad_bot"
    assert table_count(db) == 0


@pytest.mark.parametrize("text", ["mcts", "ismcts", "mcts:time_limit=0.5"])
def test_a_search_bot_without_an_iteration_budget_searches_the_servers_cap(
        text: str) -> None:
    game = boardrules.load("connect_four")
    spec = bounded_bot(text, game, BUDGET)
    assert dict(spec.options)["iterations"] == BUDGET.max_iterations
    searched = boardrules.suggest(game.new_game(seed=1), seed=1, **dict(spec.options))
    assert searched.stats["iterations"] <= BUDGET.max_iterations


# --- physical dice and cards ---

def test_the_host_feeds_real_dice_to_the_end(client: TestClient, db: Path) -> None:
    created = create(client, game="pig", auto_chance=False, seed=4)
    table_id = created["table"]["id"]
    tokens, host = created["tokens"]["seats"], created["tokens"]["host"]
    rng = random.Random(4)
    fed = 0
    for _ in range(2000):
        state = stored_state(db, table_id)
        if state.is_terminal():
            break
        version = len(state.history)
        if state.current_player == CHANCE:
            hosted = view(client, table_id, host)
            assert hosted["role"] == "host" and hosted["your_turn"]
            assert hosted["legal_moves"] == [str(m) for m, _ in state.chance_outcomes()]
            # a seat cannot throw the die, nor the host throw a 7
            assert move(client, table_id, tokens[0], "roll", version).status_code == 409
            bad = client.post(f"/tables/{table_id}/chance", headers=auth(host),
                              json={"outcome": "die 7", "expected_version": version})
            assert bad.status_code in (400, 422) and stored(db, table_id)[0] == version
            face = rng.choice(hosted["legal_moves"])
            response = client.post(f"/tables/{table_id}/chance", headers=auth(host),
                                   json={"outcome": face, "expected_version": version})
            assert response.status_code == 200, response.text
            assert response.json()["move"] == face and response.json()["index"] == version
            assert str(stored_state(db, table_id).history[version]) == face
            fed += 1
        else:
            seat = state.current_player
            text = "hold" if state.is_legal("hold") and rng.random() < 0.3 else "roll"
            assert move(client, table_id, tokens[seat], text, version).status_code == 200
    final = stored_state(db, table_id)
    assert final.is_terminal() and fed > 0
    # every die in the history is one the host fed: the server drew none
    assert final.to_json().count('"drawn":[]') == 1
    assert client.get(f"/tables/{table_id}").json()["status"] == "over"


def test_the_host_places_armadora_gold_at_setup(client: TestClient, db: Path) -> None:
    created = create(client, **ARMADORA, auto_chance=False)
    table_id, host = created["table"]["id"], created["tokens"]["host"]
    assert created["table"]["turn"] == {"kind": "chance", "seat": None}
    seat_view = view(client, table_id, created["tokens"]["seats"][0])
    assert not seat_view["your_turn"] and seat_view["turn"]["kind"] == "chance"
    while (shown := view(client, table_id, host))["your_turn"]:
        response = client.post(f"/tables/{table_id}/chance", headers=auth(host),
                               json={"outcome": shown["legal_moves"][-1],
                                     "expected_version": shown["version"]})
        assert response.status_code == 200, response.text
    assert view(client, table_id, created["tokens"]["seats"][0])["your_turn"]


# --- the websocket ---

def test_the_websocket_pushes_every_change_to_each_seat_as_it_may_see_it(
        client: TestClient, db: Path) -> None:
    created = create(client, **ARMADORA, seed=8)
    table_id, (first, second) = created["table"]["id"], created["tokens"]["seats"]
    path = f"/tables/{table_id}/ws"
    with client.websocket_connect(f"{path}?token={first}") as one, \
            client.websocket_connect(f"{path}?token={second}") as two, \
            client.websocket_connect(path) as watcher:
        hello = [one.receive_json(), two.receive_json(), watcher.receive_json()]
        assert [m["type"] for m in hello] == ["state"] * 3
        assert [m["seat"] for m in hello] == [0, 1, None]
        assert hello[0]["your_turn"] and hello[0]["events"] is not None
        version = hello[0]["version"]
        warrior = next(m for m in hello[0]["legal_moves"] if "@" in m)
        one.send_text(json.dumps({"type": "move", "move": warrior,
                                  "expected_version": version, "id": "m1"}))
        pushed = [one.receive_json(), two.receive_json(), watcher.receive_json()]
        ack = one.receive_json()
        assert ack == {"type": "ack", "id": "m1", "move": warrior, "index": version,
                       "version": version + 1}
        state = stored_state(db, table_id)
        for message, seat in zip(pushed, (0, 1, None), strict=True):
            assert message["type"] == "state" and message["version"] == version + 1
            assert message["view"] == as_json(state.view(seat))
            assert message["last_events"] == [e.as_dict() for e in state.last_events(seat)]
            assert message["your_turn"] == (seat == 1)
        assert pushed[1]["legal_moves"] == [str(m) for m in state.legal_moves()]
        assert pushed[0]["legal_moves"] == [] and pushed[2]["legal_moves"] == []
        assert pushed[1]["last_events"][0]["strength"] is None  # face down, not his
        # the same move again, junk and a move out of turn: errors, nothing changed
        saved = stored(db, table_id)
        for text, status, code in [
                (json.dumps({"type": "move", "move": warrior, "expected_version": version,
                             "id": 2}), 409, "stale_version"),
                ("not json", 400, "bad_request"),
                (json.dumps({"type": "dance"}), 400, "bad_request"),
                (json.dumps({"type": "move", "move": warrior,
                             "expected_version": version + 1, "id": 3}), 409,
                 "not_your_turn")]:
            one.send_text(text)
            error = one.receive_json()
            assert error["type"] == "error" and error["status"] == status, text
            assert error["error"]["code"] == code, text
        assert stored(db, table_id) == saved
        # the spectator may not move; a sync gives the whole picture again
        watcher.send_text(json.dumps({"type": "move", "move": "pass",
                                      "expected_version": version + 1}))
        assert watcher.receive_json()["error"]["code"] == "not_a_player"
        two.send_text(json.dumps({"type": "sync", "id": 9}))
        sync = two.receive_json()
        assert sync["type"] == "state" and sync["id"] == 9
        assert sync["events"] == [e.as_dict() for e in state.events(1)]


def test_the_listeners_of_one_seat_share_its_push_and_no_other_seats(
        client: TestClient, db: Path) -> None:
    """Each seat's push is made once and sent to all its sockets as the same text; a
    socket of another seat, or a spectator's, gets its own."""
    created = create(client, **ARMADORA, seed=11)
    table_id, (first, second) = created["table"]["id"], created["tokens"]["seats"]
    path = f"/tables/{table_id}/ws"
    with client.websocket_connect(f"{path}?token={first}") as one, \
            client.websocket_connect(f"{path}?token={first}") as one_again, \
            client.websocket_connect(f"{path}?token={second}") as two, \
            client.websocket_connect(path) as watcher, \
            client.websocket_connect(path) as other_watcher:
        sockets = (one, one_again, two, watcher, other_watcher)
        hello = [socket.receive_json() for socket in sockets]
        version = hello[0]["version"]
        warrior = next(m for m in hello[0]["legal_moves"] if "@" in m)
        one.send_text(json.dumps({"type": "move", "move": warrior,
                                  "expected_version": version, "id": 1}))
        texts = [socket.receive_text() for socket in sockets]
        assert one.receive_json()["type"] == "ack"
        assert texts[0] == texts[1] and texts[3] == texts[4]
        assert len({texts[0], texts[2], texts[3]}) == 3
        state = stored_state(db, table_id)
        for text, seat in zip(texts, (0, 0, 1, None, None), strict=True):
            message = json.loads(text)
            assert message["seat"] == seat and message["view"] == as_json(state.view(seat))
            assert message["your_turn"] == (seat == 1)
            assert (message["decision"] is not None) == (seat == 1)


def test_the_websocket_refuses_unknown_tables_and_wrong_tokens(client: TestClient) -> None:
    created = create(client, game="tic_tac_toe")
    table_id = created["table"]["id"]
    for path, status in ((f"/tables/{table_id}/ws?token=forged", 403),
                         ("/tables/nope/ws", 404)):
        with client.websocket_connect(path) as socket:
            error = socket.receive_json()
            assert error["type"] == "error" and error["status"] == status
            with pytest.raises(Exception) as closed:
                socket.receive_json()
            assert getattr(closed.value, "code", None) == 4000 + status


def test_a_bot_move_is_pushed_to_the_human(client: TestClient) -> None:
    created = create(client, game="tic_tac_toe", seats=["human", "random"])
    table_id, token = created["table"]["id"], created["tokens"]["seats"][0]
    with client.websocket_connect(f"/tables/{table_id}/ws?token={token}") as socket:
        hello = socket.receive_json()
        socket.send_text(json.dumps({"type": "move", "move": "b2", "expected_version": 0}))
        messages = [socket.receive_json() for _ in range(3)]
        kinds = [m["type"] for m in messages]
        assert kinds.count("ack") == 1 and kinds.count("state") == 2
        states = [m for m in messages if m["type"] == "state"]
        assert [m["version"] for m in states] == [1, 2]
        assert states[1]["turn"] == {"kind": "human", "seat": 0} and states[1]["your_turn"]
        assert states[1]["last_events"] or hello["version"] == 0


# --- persistence ---

def test_tables_come_back_after_a_restart(db: Path) -> None:
    with running(db) as client:
        created = create(client, game="connect_four")
        table_id, (first, _) = created["table"]["id"], created["tokens"]["seats"]
        assert move(client, table_id, first, "d", 0).status_code == 200
        before = view(client, table_id, first)
    with running(db) as client:
        assert view(client, table_id, first) == before
        assert move(client, table_id, first, "d", 1).status_code == 409  # not his turn


def test_a_forged_save_is_refused_for_its_table_only(db: Path) -> None:
    with running(db) as client:
        ids, tokens = [], []
        for _ in range(5):
            created = create(client, game="connect_four")
            ids.append(created["table"]["id"])
            tokens.append(created["tokens"]["seats"][0])
            assert move(client, ids[-1], tokens[-1], "d", 0).status_code == 200
    honest = boardrules.load("connect_four").new_game()
    honest.apply("a")
    forgeries = {
        # the move changed by hand, the signature left as it was
        ids[0]: stored(db, ids[0])[1].replace('"history":["d"]', '"history":["a"]'),
        # a consistent save, signed with another key
        ids[1]: honest.to_json(key=b"someone-else's-key-0123"),
        # a version that is not the save's
        ids[2]: None,
        # not a save at all
        ids[3]: '{"format": [[[[',
    }
    with sqlite3.connect(db) as conn:
        for table_id, save in forgeries.items():
            if save is None:
                conn.execute("UPDATE tables SET version = 7 WHERE id = ?", (table_id,))
            else:
                conn.execute("UPDATE tables SET save = ? WHERE id = ?", (save, table_id))
    with running(db) as client:
        for table_id, token in zip(ids[:4], tokens[:4], strict=True):
            summary = client.get(f"/tables/{table_id}").json()
            assert summary["status"] == "refused"
            assert "stored save was refused" in summary["error"]
            for response in (client.get(f"/tables/{table_id}/view", headers=auth(token)),
                             move(client, table_id, token, "a", 1)):
                assert response.status_code == 409
                assert response.json()["error"]["code"] == "table_refused"
        assert "signature" in client.get(f"/tables/{ids[0]}").json()["error"]
        assert "signature" in client.get(f"/tables/{ids[1]}").json()["error"]
        # the honest table plays on
        assert client.get(f"/tables/{ids[4]}").json()["status"] == "playing"
        refused = move(client, ids[4], tokens[4], "a", 1).json()["error"]["code"]
        assert refused == "not_your_turn" and view(client, ids[4], tokens[4])["version"] == 1
        second = create(client, game="tic_tac_toe")["table"]["id"]
        assert client.get(f"/tables/{second}").status_code == 200


@pytest.mark.parametrize(("column", "junk", "why"), [
    ("version", "abc", "version column holds 'abc'"),
    ("version", -1, "version column holds -1"),
    ("created", "x", "created column holds 'x'"),
    ("auto_chance", "yes", "auto_chance column holds 'yes'"),
    ("version", 1.5, "version column holds 1.5"),
])
def test_a_damaged_row_refuses_its_table_only(db: Path, column: str, junk: Any,
                                              why: str) -> None:
    with running(db) as client:
        made = [create(client, game="connect_four") for _ in range(2)]
    damaged, honest = (m["table"]["id"] for m in made)
    with sqlite3.connect(db) as conn:
        conn.execute(f"UPDATE tables SET {column} = ? WHERE id = ?", (junk, damaged))
    with running(db) as client:  # the server starts: one row stops nothing else
        summary = client.get(f"/tables/{damaged}").json()
        assert summary["status"] == "refused" and why in summary["error"]
        assert summary["game"] == "connect_four" and len(summary["seats"]) == 2
        token = made[0]["tokens"]["seats"][0]
        for response in (client.get(f"/tables/{damaged}/view", headers=auth(token)),
                         move(client, damaged, token, "d", 0)):
            assert response.status_code == 409
            assert response.json()["error"]["code"] == "table_refused"
        assert client.get(f"/tables/{honest}").json()["status"] == "playing"
        assert move(client, honest, made[1]["tokens"]["seats"][0], "d", 0).status_code == 200
        assert len(client.get("/tables").json()["tables"]) == 2


@pytest.mark.parametrize("column", ["seats", "seat_tokens"])
def test_a_row_with_json_nested_too_deep_refuses_its_table_only(db: Path,
                                                                column: str) -> None:
    """A JSON column nested past the recursion limit raised RecursionError out of
    reading the refused row again (store.damaged_row): the server did not start."""
    with running(db) as client:
        made = [create(client, game="connect_four") for _ in range(2)]
    damaged, honest = (m["table"]["id"] for m in made)
    with sqlite3.connect(db) as conn:
        conn.execute(f"UPDATE tables SET {column} = ? WHERE id = ?", ("[" * 100_000, damaged))
    with running(db) as client:
        assert client.get(f"/tables/{damaged}").json()["status"] == "refused"
        assert client.get(f"/tables/{honest}").json()["status"] == "playing"
        assert move(client, honest, made[1]["tokens"]["seats"][0], "d", 0).status_code == 200


def test_the_key_file_is_made_beside_the_database_readable_by_its_owner_only(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(SECRET_ENV, raising=False)
    with running(db, secret=None) as client:
        table_id = create(client, game="tic_tac_toe")["table"]["id"]
    key_file = key_file_of(db)
    assert stat.S_IMODE(os.stat(key_file).st_mode) == 0o600
    key = key_file.read_text().strip().encode()
    boardrules.state_from_json(stored(db, table_id)[1], key=key)  # signed with it
    with running(db, secret=None) as client:  # the same key on the next start
        assert client.get(f"/tables/{table_id}").json()["status"] == "playing"


def test_the_environment_key_is_used_when_set(db: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SECRET_ENV, "environment-secret-0123456789")
    with running(db, secret=None) as client:
        table_id = create(client, game="tic_tac_toe")["table"]["id"]
    assert not key_file_of(db).exists()
    boardrules.state_from_json(stored(db, table_id)[1], key=b"environment-secret-0123456789")


def test_a_write_from_a_stale_version_is_refused_by_the_database(db: Path) -> None:
    from examples.server.store import TableRow

    async def scenario() -> None:
        store = Store(db)
        try:
            row = TableRow(id="t1", created=0.0, game="pig", options={}, seats=["human"] * 2,
                           auto_chance=True, seat_tokens=["a", "b"], host_token="h",
                           version=0, save="{}")
            await store.insert(row)
            await store.update("t1", 0, 3, "three")
            with pytest.raises(StaleWrite):
                await store.update("t1", 0, 5, "five")  # started from version 0 too
            with pytest.raises(StaleWrite):
                await store.update("missing", 0, 1, "x")
        finally:
            store.close()

    asyncio.run(scenario())
    assert stored(db, "t1") == (3, "three")


@pytest.mark.parametrize("game_id", boardrules.available_games())
def test_every_game_is_served_and_each_seat_sees_its_view(client: TestClient, db: Path,
                                                          game_id: str) -> None:
    options = dict(type(boardrules.load(game_id)).example_options[0])
    created = create(client, game=game_id, options=options, seed=1)
    table_id, tokens = created["table"]["id"], created["tokens"]["seats"]
    assert len(tokens) == boardrules.load(game_id, **options).num_players
    rng = random.Random(1)
    for _ in range(4):
        state = stored_state(db, table_id)
        if state.is_terminal():
            break
        token = tokens[state.current_player]
        shown = view(client, table_id, token)
        assert shown["view"] == as_json(state.view(state.current_player))
        assert shown["legal_moves"] == [str(m) for m in state.legal_moves()]
        response = move(client, table_id, token, rng.choice(shown["legal_moves"]),
                        shown["version"])
        assert response.status_code == 200, response.text
    state = stored_state(db, table_id)
    for seat, token in enumerate(tokens):
        assert view(client, table_id, token)["view"] == as_json(state.view(seat))
    assert client.get(f"/tables/{table_id}/board.svg").text == state.render_svg(None)


@pytest.mark.parametrize("spec", ["alphabeta:depth=2", "ismcts:iterations=50", "greedy"])
def test_search_bots_move_within_the_servers_budget(client: TestClient, db: Path,
                                                    spec: str) -> None:
    created = create(client, **ARMADORA, seats=["human", spec], seed=6)
    table_id, token = created["table"]["id"], created["tokens"]["seats"][0]
    shown = view(client, table_id, token)
    warrior = next(m for m in shown["legal_moves"] if "@" in m)
    assert move(client, table_id, token, warrior, shown["version"]).status_code == 200
    wait_until(lambda: view(client, table_id, token)["your_turn"], timeout=30)
    summary = client.get(f"/tables/{table_id}").json()
    assert summary["error"] is None and summary["version"] >= shown["version"] + 2
    history = stored_state(db, table_id).history_view(None)
    assert history[shown["version"] + 1][0] == 1  # the bot's move, stored


def test_a_move_the_database_cannot_store_is_not_applied(db: Path) -> None:
    app = create_app(db, secret=SECRET, budget=BUDGET)
    with TestClient(app, raise_server_exceptions=False) as client:
        created = create(client, game="connect_four")
        table_id, token = created["table"]["id"], created["tokens"]["seats"][0]
        before = view(client, table_id, token)
        store = app.state.lobby._store

        async def full_disk(*args: Any) -> None:
            raise OSError("database or disk is full")

        store.update, real_update = full_disk, store.update
        response = move(client, table_id, token, "d", 0)
        assert response.status_code == 500
        assert response.json()["error"]["code"] == "internal_error"
        assert view(client, table_id, token) == before  # back to the committed save
        assert stored(db, table_id)[0] == 0
        store.update = real_update
        assert move(client, table_id, token, "d", 0).status_code == 200


def test_a_summary_never_shows_a_move_whose_commit_is_pending(db: Path) -> None:
    app = create_app(db, secret=SECRET, budget=BUDGET)
    with TestClient(app) as client:
        created = create(client, game="connect_four")
        table_id, token = created["table"]["id"], created["tokens"]["seats"][0]
        before = client.get(f"/tables/{table_id}").json()
        store = app.state.lobby._store
        entered, release = threading.Event(), threading.Event()

        async def held_update(*args: Any) -> None:  # the commit, held until released
            entered.set()
            await asyncio.to_thread(release.wait, 30)
            await real_update(*args)

        store.update, real_update = held_update, store.update
        answers: list[Any] = []
        mover = threading.Thread(
            target=lambda: answers.append(move(client, table_id, token, "d", 0)))
        mover.start()
        try:
            assert entered.wait(30)  # the move is applied, its commit pending
            pending = client.get(f"/tables/{table_id}").json()
            listed = client.get("/tables").json()["tables"]
        finally:
            release.set()
            mover.join(30)
        assert pending == before and listed == [before]
        assert before["version"] == 0 and before["turn"] == {"kind": "human", "seat": 0}
        assert answers[0].status_code == 200, answers[0].text
        after = client.get(f"/tables/{table_id}").json()
        assert after["version"] == 1 and after["turn"] == {"kind": "human", "seat": 1}


def test_the_host_feeds_a_die_over_the_websocket(client: TestClient, db: Path) -> None:
    created = create(client, game="pig", auto_chance=False, seed=2)
    table_id, host = created["table"]["id"], created["tokens"]["host"]
    with client.websocket_connect(f"/tables/{table_id}/ws?token={host}") as socket:
        hello = socket.receive_json()
        assert hello["role"] == "host" and not hello["your_turn"] and hello["seat"] is None
        assert hello["view"] == as_json(stored_state(db, table_id).view(None))
        assert move(client, table_id, created["tokens"]["seats"][0], "roll",
                    0).status_code == 200
        pushed = socket.receive_json()
        assert pushed["your_turn"] and pushed["turn"] == {"kind": "chance", "seat": None}
        assert pushed["legal_moves"] == [f"die {face}" for face in range(1, 7)]
        socket.send_text(json.dumps({"type": "chance", "outcome": "die 4",
                                     "expected_version": 1, "id": "d"}))
        assert socket.receive_json()["version"] == 2  # the push, then the ack
        assert socket.receive_json() == {"type": "ack", "id": "d", "move": "die 4",
                                         "index": 1, "version": 2}
    assert [str(m) for m in stored_state(db, table_id).history] == ["roll", "die 4"]


def test_the_server_says_a_missing_advantage_is_none_and_a_hidden_card_is_hidden() -> None:
    """The words the server sends beside a seat's events: Rome & Carthage's battle with
    no special advantage reads ``none`` (not the hidden mark ``?``) to everyone; a card
    player 1 drew is ``?`` to player 0 and to a spectator, its value to player 1."""
    game = boardrules.load("rome_and_carthage")
    battle = boardrules.Event(61, 0, "battle", {"city": "tyrus", "advantages": [None, None]})
    drawn = boardrules.Event(62, CHANCE, "draw", {"player": 1, "card": 9})
    for seat in (None, 0, 1):
        seen = [e for e in (game._redact_event(battle, seat), game._redact_event(drawn, seat))
                if e is not None]
        words = _events_json("events", seen, game, seat)["events_text"]
        assert words == ["battle: city tyrus, advantages [none none]",
                         f"draw: player 1, card {9 if seat == 1 else '?'}"]
