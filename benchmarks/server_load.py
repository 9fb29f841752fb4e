"""Load on the reference game server (examples/server), on loopback only.

Starts ``serve.py`` on a free 127.0.0.1 port with a fresh database, creates ``--tables``
tables with two human seats each, and connects one websocket client per seat.  Each
client plays a random legal move whenever the server pushes a state where it is to move,
and times each move from sending it to its acknowledgement (which the server sends only
after the move is committed to SQLite).  At the end the server is stopped and the
database's histories are compared with the acknowledged moves: a move **lost** was
acknowledged but is not in the stored history at its index; a move **unacknowledged**
is a player's move in the history that no client was told of (a duplicate would be one).

    python benchmarks/server_load.py                      # 100 tables, 200 clients
    python benchmarks/server_load.py --tables 20 --games-per-table 3 --json load.json

Bounded: every game ends (the games have a bounded length) and the run stops after
``--timeout`` seconds whatever happens; no address but 127.0.0.1 is used.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))  # after site-packages: an installed boardrules wins

import httpx  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

import boardrules  # noqa: E402
from examples.server.process import ServerProcess  # noqa: E402
from examples.server.store import key_file_of  # noqa: E402


@dataclass
class Tally:
    """What every client saw, shared by all of them."""

    latencies: list[float] = field(default_factory=list)
    acks: dict[str, list[tuple[int, str]]] = field(default_factory=dict)  # table -> moves
    errors: Counter[str] = field(default_factory=Counter)
    games_over: int = 0


async def play_seat(url: str, table: str, token: str, seed: int, think: float,
                    tally: Tally) -> None:
    """One seat: a random legal move at each of its turns (after about ``think`` seconds,
    a player's thinking time), until the game is over."""
    rng = random.Random(seed)
    sent_at: dict[int, float] = {}
    pending: set[asyncio.Future[None]] = set()
    async with connect(f"{url}/tables/{table}/ws?token={token}", max_size=2**22) as socket:

        async def send_move(version: int, text: str) -> None:
            if think:  # people do not think in step: each move after 0.5 to 1.5 x think
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            move_id = rng.getrandbits(62)
            sent_at[move_id] = time.perf_counter()
            await socket.send(json.dumps({"type": "move", "move": text,
                                          "expected_version": version, "id": move_id}))

        asked_at = -1  # the version of the last move sent: one move per version
        over = False
        try:
            async for text in socket:
                message = json.loads(text)
                kind = message["type"]
                if kind == "ack":
                    tally.latencies.append(time.perf_counter() - sent_at.pop(message["id"]))
                    tally.acks.setdefault(table, []).append((message["index"],
                                                             message["move"]))
                elif kind == "error":
                    tally.errors[message["error"]["code"]] += 1
                    sent_at.pop(message.get("id"), None)
                    asked_at = -1  # ask again at the next state
                elif message["outcome"] is not None:
                    over = True  # the last move's ack follows its state push
                elif message["your_turn"] and message["version"] > asked_at:
                    asked_at = message["version"]
                    # off the reading loop: the ack of our last move may come meanwhile
                    pending.add(asyncio.ensure_future(send_move(
                        message["version"], rng.choice(message["legal_moves"]))))
                if over and not sent_at:
                    return
        finally:
            for task in pending:
                task.cancel()


async def play_table(server: ServerProcess, http: httpx.AsyncClient, game: str,
                     options: dict[str, Any], seed: int, think: float, tally: Tally,
                     ids: list[str]) -> None:
    response = await http.post("/tables", json={"game": game, "options": options,
                                                 "seed": seed})
    response.raise_for_status()
    created = response.json()
    table = created["table"]["id"]
    ids.append(table)
    await asyncio.gather(*(play_seat(server.ws_url, table, token, seed * 10 + seat, think,
                                     tally)
                           for seat, token in enumerate(created["tokens"]["seats"])))
    tally.games_over += 1


async def drive(server: ServerProcess, args: argparse.Namespace, tally: Tally,
                ids: list[str]) -> float:
    options = json.loads(args.options)
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(base_url=server.url, timeout=30.0, limits=limits) as http:

        async def table_games(index: int) -> None:
            for game_number in range(args.games_per_table):
                await play_table(server, http, args.game, options,
                                 args.seed + index * 1000 + game_number, args.think, tally,
                                 ids)

        started = time.perf_counter()
        await asyncio.wait_for(
            asyncio.gather(*(table_games(i) for i in range(args.tables))), args.timeout)
        return time.perf_counter() - started


def compare_with_database(db: Path, tally: Tally, ids: list[str]) -> tuple[int, int]:
    """(lost, unacknowledged): acknowledged moves missing from the stored histories, and
    players' moves in the stored histories that no client had acknowledged."""
    key = key_file_of(db).read_text().strip().encode()
    lost = unacknowledged = 0
    with sqlite3.connect(db) as conn:
        saves = dict(conn.execute("SELECT id, save FROM tables").fetchall())
    for table in ids:
        state = boardrules.state_from_json(saves[table], key=key)
        history = [str(move) for move in state.history]
        acked = dict(tally.acks.get(table, []))
        lost += sum(1 for index, text in acked.items()
                    if index >= len(history) or history[index] != text)
        forced = set(state.forced)
        players_moves = {i for i, (mover, _) in enumerate(state.history_view(None))
                         if mover >= 0 and i not in forced}
        unacknowledged += len(players_moves - set(acked))
    return lost, unacknowledged


def cpu_seconds(server: ServerProcess) -> float:
    """The server process's CPU time so far (user + system, from /proc on Linux)."""
    assert server.process is not None
    try:
        fields = Path(f"/proc/{server.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100, help="tables at once (100)")
    parser.add_argument("--games-per-table", type=int, default=1,
                        help="games played one after another at each table (1)")
    parser.add_argument("--game", default="armadora")
    parser.add_argument("--options", default='{"players": 2, "variant": "basic"}',
                        help="the game's options as JSON (two players)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--think", type=float, default=0.0,
                        help="seconds each client waits before its move (0: at once, the "
                             "server saturated)")
    parser.add_argument("--synchronous", choices=["full", "normal"], default="full")
    parser.add_argument("--timeout", type=float, default=600.0,
                        help="seconds before the run gives up (600)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)

    tally = Tally()
    ids: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "tables.sqlite"
        server = ServerProcess(db, args=("--synchronous", args.synchronous))
        server.start()
        try:
            seconds = asyncio.run(drive(server, args, tally, ids))
            server_cpu = cpu_seconds(server)
        finally:
            server.stop()
        lost, unacknowledged = compare_with_database(db, tally, ids)

    moves = len(tally.latencies)
    figures = {
        "game": args.game, "options": json.loads(args.options), "tables": args.tables,
        "clients": 2 * args.tables, "games": tally.games_over,
        "synchronous": args.synchronous, "think": args.think, "moves": moves,
        "seconds": round(seconds, 2),
        "moves_per_second": round(moves / seconds, 1),
        "latency_ms": {name: round(1000 * value, 1) for name, value in (
            ("p50", percentile(tally.latencies, 0.50)),
            ("p90", percentile(tally.latencies, 0.90)),
            ("p99", percentile(tally.latencies, 0.99)),
            ("max", max(tally.latencies)),
            ("mean", statistics.fmean(tally.latencies)))},
        "server_cpu_ms_per_move": round(1000 * server_cpu / max(moves, 1), 2),
        "errors": dict(tally.errors), "lost": lost, "unacknowledged": unacknowledged,
    }
    latency = figures["latency_ms"]
    print(f"{args.tables} tables, {2 * args.tables} websocket clients, {tally.games_over} "
          f"games of {args.game}: {moves} moves in {seconds:.1f} s "
          f"({figures['moves_per_second']} moves/s)")
    print(f"move latency (sent -> acknowledged, stored): p50 {latency['p50']} ms, "
          f"p90 {latency['p90']} ms, p99 {latency['p99']} ms, max {latency['max']} ms")
    print(f"server CPU: {figures['server_cpu_ms_per_move']} ms per move (start-up included)")
    print(f"errors: {sum(tally.errors.values())} {dict(tally.errors)}; lost: {lost}; "
          f"unacknowledged or duplicated: {unacknowledged}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0 if lost == unacknowledged == sum(tally.errors.values()) == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
