"""No token reaches the reference server's log: a real ``serve.py`` process, a seat that
connects its websocket with its token in the URL and plays a move, at the default log
level, at debug, and with the access log on (docs/server.rst, "Starting it")."""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))  # after site-packages: an installed boardrules wins

import httpx  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

from examples.server.app import create_app  # noqa: E402
from examples.server.logs import redact  # noqa: E402
from examples.server.process import ServerProcess  # noqa: E402
from examples.server.store import SECRET_ENV  # noqa: E402


@pytest.mark.parametrize(("log_level", "flags"), [
    (None, ()),  # the default: info, no access log
    ("debug", ()),  # the websockets protocol logs the request line and headers
    ("debug", ("--access-log",)),
])
def test_no_token_reaches_the_servers_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          log_level: str | None,
                                          flags: tuple[str, ...]) -> None:
    monkeypatch.delenv(SECRET_ENV, raising=False)
    server = ServerProcess(tmp_path / "tables.sqlite", log_level=log_level, args=flags)
    with server:
        created = httpx.post(server.url + "/tables", json={"game": "connect_four"},
                             timeout=10.0).json()
        table_id = created["table"]["id"]
        first, second = created["tokens"]["seats"]
        with connect(f"{server.ws_url}/tables/{table_id}/ws?token={first}") as socket:
            assert json.loads(socket.recv())["seat"] == 0
            socket.send(json.dumps({"type": "move", "move": "d", "expected_version": 0,
                                    "id": 1}))
            assert json.loads(socket.recv())["version"] == 1  # the push, then the ack
            assert json.loads(socket.recv())["type"] == "ack"
        # the API's header, a header the websocket does not read, a token put in a URL
        view = f"{server.url}/tables/{table_id}/view"
        assert httpx.get(view, headers={"Authorization": f"Bearer {second}"},
                         timeout=10.0).json()["your_turn"]
        with connect(f"{server.ws_url}/tables/{table_id}/ws",
                     additional_headers={"Authorization": f"Bearer {second}"}) as socket:
            socket.recv()
        httpx.get(f"{view}?tok%65n={second}", timeout=10.0)
    text = server.log.read_text()
    # the line is there, redacted: this test reads the log the websocket is logged in
    assert f'"WebSocket /tables/{table_id}/ws?token=[redacted]" [accepted]' in text
    if log_level == "debug":
        assert f"GET /tables/{table_id}/ws?token=[redacted] HTTP/1.1" in text
        assert "Bearer [redacted]" in text
    for secret in (first, second, created["tokens"]["host"]):
        assert secret not in text


def test_the_app_redacts_tokens_on_uvicorns_loggers_whoever_runs_it(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    create_app(tmp_path / "tables.sqlite", secret=b"server-test-secret-0123456789")
    secret = "Zq0-seat_token_of_24_bytes_x"
    with caplog.at_level(logging.DEBUG):
        # uvicorn's own line for an accepted websocket, and its access log's
        logging.getLogger("uvicorn.error").info('%s - "WebSocket %s" [accepted]',
                                                "127.0.0.1:5000",
                                                f"/tables/ab/ws?token={secret}")
        logging.getLogger("uvicorn.access").info('%s - "%s %s HTTP/%s" %d', "127.0.0.1:5000",
                                                 "GET", f"/tables/ab/view?token={secret}",
                                                 "1.1", 200)
    assert "/tables/ab/ws?token=[redacted]" in caplog.text
    assert "/tables/ab/view?token=[redacted]" in caplog.text
    assert secret not in caplog.text


@pytest.mark.parametrize(("line", "shown"), [
    ("GET /tables/ab/ws?token=T0k-en_9 HTTP/1.1", "GET /tables/ab/ws?token=[redacted] HTTP/1.1"),
    ("/ws?a=1&tok%65n=T0k&b=2", "/ws?a=1&tok%65n=[redacted]&b=2"),
    ("< authorization: Bearer T0k", "< authorization: Bearer [redacted]"),
    ("/?table=ab#token=T0k", "/?table=ab#token=[redacted]"),
    ("GET /?table=ab HTTP/1.1", "GET /?table=ab HTTP/1.1"),
])
def test_redact_hides_each_spelling_of_a_token(line: str, shown: str) -> None:
    assert redact(line) == shown
