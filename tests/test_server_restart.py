"""The reference server survives ``kill -9``: a real ``serve.py`` process on a loopback
port plays bot and human tables, is killed mid-game, and restarted on the same database;
every acknowledged move is there, at the index it was acknowledged at, and every game
goes on to its end (the bots' tables by themselves).  docs/server.rst, "The restart
guarantee"."""

from __future__ import annotations

import random
import sqlite3
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))  # after site-packages: an installed boardrules wins

import httpx  # noqa: E402

import boardrules  # noqa: E402
from examples.server.process import ServerProcess  # noqa: E402
from examples.server.store import SECRET_ENV, key_file_of  # noqa: E402

ARMADORA = {"players": 2, "variant": "basic"}
#: (game, options, seats, auto_chance): bots alone, a human against a bot, humans alone,
#: and humans whose die the host throws by hand.
TABLES: list[tuple[str, dict[str, Any], list[str], bool]] = [
    ("armadora", ARMADORA, ["ismcts:time_limit=0.1", "ismcts:time_limit=0.1"], True),
    ("armadora", ARMADORA, ["mcts:time_limit=0.1", "ismcts:time_limit=0.1"], True),
    ("armadora", ARMADORA, ["human", "ismcts:iterations=200"], True),
    ("armadora", ARMADORA, ["human", "human"], True),
    ("pig", {}, ["human", "human"], False),
]


@dataclass
class Ack:
    table: str
    seat: int | None  # None: the host's chance outcome
    index: int
    move: str
    version: int


@dataclass
class Driver:
    """Plays a table's human seats (and its host) with random legal moves over HTTP,
    recording every acknowledged move, until the game ends, ``stop`` is set or the server
    stops answering."""

    url: str
    table: str
    tokens: list[str | None]
    host: str
    seed: int
    pause: float = 0.0  # seconds after each move (slow enough to be killed mid-game)
    acks: list[Ack] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        rng = random.Random(self.seed)
        players = [(seat, token) for seat, token in enumerate(self.tokens) if token]
        with httpx.Client(base_url=self.url, timeout=10.0) as client:
            while not self.stop.is_set():
                try:
                    if not self._step(client, rng, players):
                        return
                except httpx.HTTPError:
                    return  # the server was killed

    def _step(self, client: httpx.Client, rng: random.Random,
              players: list[tuple[int, str | None]]) -> bool:
        """One move if someone we play is to move; False once the game is over."""
        for seat, token in [*players, (None, self.host)]:
            shown = client.get(f"/tables/{self.table}/view",
                               headers={"Authorization": f"Bearer {token}"}).json()
            if shown["outcome"] is not None:
                return False
            if not shown["your_turn"]:
                continue
            choice = rng.choice(shown["legal_moves"])
            path, body = (("chance", {"outcome": choice}) if seat is None
                          else ("moves", {"move": choice}))
            response = client.post(f"/tables/{self.table}/{path}",
                                   headers={"Authorization": f"Bearer {token}"},
                                   json={**body, "expected_version": shown["version"]})
            assert response.status_code in (200, 409), response.text
            if response.status_code == 200:
                ack = response.json()
                self.acks.append(Ack(self.table, seat, ack["index"], ack["move"],
                                     ack["version"]))
            time.sleep(self.pause)
            return True
        time.sleep(0.01)  # a bot is thinking
        return True


def stored_states(db: Path, key: bytes) -> dict[str, boardrules.State[Any]]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT id, version, save FROM tables").fetchall()
    states = {}
    for table_id, version, save in rows:
        state = boardrules.state_from_json(save, key=key)  # signed and replayed
        assert len(state.history) == version
        states[table_id] = state
    return states


def check_acknowledged(acks: list[Ack], states: dict[str, boardrules.State[Any]]) -> None:
    for ack in acks:
        history = states[ack.table].history
        assert len(history) >= ack.version, ack
        assert str(history[ack.index]) == ack.move, ack
    # each index acknowledged once: no move was applied twice
    assert len({(a.table, a.index) for a in acks}) == len(acks)


def start_drivers(server: ServerProcess, created: list[dict[str, Any]], seed: int,
                  pause: float = 0.0) -> tuple[list[Driver], list[threading.Thread]]:
    drivers = [Driver(server.url, c["table"]["id"], c["tokens"]["seats"],
                      c["tokens"]["host"], seed + i, pause) for i, c in enumerate(created)]
    threads = [threading.Thread(target=d.run, daemon=True) for d in drivers]
    for thread in threads:
        thread.start()
    return drivers, threads


def summaries(server: ServerProcess) -> dict[str, dict[str, Any]]:
    tables = httpx.get(server.url + "/tables", timeout=10.0).json()["tables"]
    return {t["id"]: t for t in tables}


# both modes: ``normal`` skips the fsync at a commit, yet a crash of the process alone
# (the operating system still holds the log) must lose nothing acknowledged either
@pytest.mark.parametrize("synchronous", ["full", "normal"])
def test_kill_9_mid_game_loses_nothing_acknowledged(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     synchronous: str) -> None:
    monkeypatch.delenv(SECRET_ENV, raising=False)
    db = tmp_path / "tables.sqlite"
    server = ServerProcess(db, args=("--synchronous", synchronous))
    server.start()
    try:
        created = []
        for game, options, seats, auto_chance in TABLES:
            response = httpx.post(server.url + "/tables", timeout=10.0, json={
                "game": game, "options": options, "seats": seats,
                "auto_chance": auto_chance, "seed": len(created)})
            assert response.status_code == 201, response.text
            created.append(response.json())
        drivers, threads = start_drivers(server, created, seed=1, pause=0.2)
        bots_only = [c["table"]["id"] for c in created[:2]]
        deadline = time.monotonic() + 30
        start = {c["table"]["id"]: c["table"]["version"] for c in created}
        while sum(len(d.acks) for d in drivers) < 10 or any(
                summaries(server)[t]["version"] < start[t] + 4 for t in bots_only):
            assert time.monotonic() < deadline, "the games did not get going"
            time.sleep(0.05)
        playing = summaries(server)
        server.kill()  # mid-game, moves in flight, bots searching
    finally:
        server.kill()
    for thread in threads:
        thread.join(15)
    assert all(s["status"] == "playing" for s in playing.values()), playing
    acks = [ack for d in drivers for ack in d.acks]

    key = key_file_of(db).read_text().strip().encode()
    check_acknowledged(acks, stored_states(db, key))

    with ServerProcess(db, args=("--synchronous", synchronous)) as again:
        after = summaries(again)
        assert set(after) == set(playing) and all(s["error"] is None for s in after.values())
        for table_id, summary in after.items():
            assert summary["version"] >= playing[table_id]["version"]
        # what each seat is shown holds its own acknowledged moves
        for driver, made in zip(drivers, created, strict=True):
            for ack in driver.acks:
                token = made["tokens"]["host"] if ack.seat is None else \
                    made["tokens"]["seats"][ack.seat]
                shown = httpx.get(f"{again.url}/tables/{ack.table}/view", timeout=10.0,
                                  headers={"Authorization": f"Bearer {token}"}).json()
                assert shown["history"][ack.index] == [
                    boardrules.CHANCE if ack.seat is None else ack.seat, ack.move]
        # the games go on to their end: the bots resume by themselves
        more, threads = start_drivers(again, created, seed=2)
        deadline = time.monotonic() + 60
        while any(s["status"] != "over" for s in summaries(again).values()):
            assert time.monotonic() < deadline, summaries(again)
            time.sleep(0.1)
        for thread in threads:
            thread.join(15)
        final = summaries(again)
    states = stored_states(db, key)
    check_acknowledged(acks + [ack for d in more for ack in d.acks], states)
    for table_id, state in states.items():
        assert state.is_terminal()
        outcome = state.outcome()
        assert outcome is not None
        assert final[table_id]["outcome"]["winners"] == list(outcome.winners)
