"""Persistence: one SQLite row per table (WAL mode), written by one thread.

A table's row holds its signed save (``state.to_json(key=...)``) and its version (the
number of actions in the save's history).  Every change is one ``UPDATE ... WHERE
version = ?`` (compare-and-set) committed before the server acknowledges it, so a crash
(``kill -9``) loses nothing acknowledged and a write from a stale copy of a table is
refused.  Writes queue to one writer thread, which commits whatever is waiting in one
transaction (group commit): a busy server pays one ``fsync`` per batch, not per move.

The key that signs the saves comes from the environment (``BOARDRULES_SERVER_SECRET``)
or from a key file beside the database, created on first start with mode 0600.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import math
import os
import queue
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeVar

#: The environment variable that holds the signing key (text, at least 16 bytes).
SECRET_ENV = "BOARDRULES_SERVER_SECRET"
MIN_SECRET_BYTES = 16
#: Writes committed in one transaction at most (a batch stays short under any load).
MAX_BATCH = 256

Synchronous = Literal["FULL", "NORMAL"]
T = TypeVar("T")

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id          TEXT PRIMARY KEY,
    created     REAL NOT NULL,
    updated     REAL NOT NULL,
    game        TEXT NOT NULL,
    options     TEXT NOT NULL,     -- JSON object: the game's validated options
    seats       TEXT NOT NULL,     -- JSON list: "human" or a bot spec, one per seat
    auto_chance INTEGER NOT NULL,
    seat_tokens TEXT NOT NULL,     -- JSON list: SHA-256 of each human seat's token, or null
    host_token  TEXT NOT NULL,     -- SHA-256 of the host's token
    version     INTEGER NOT NULL,  -- actions in the save's history
    save        TEXT NOT NULL      -- state.to_json(key=...): signed, the whole truth
)
"""


class StaleWrite(Exception):
    """The row's version was not the one the write started from (another process wrote
    the database, or the row is gone): nothing was written."""


class SecretError(Exception):
    """The signing key cannot be had (too short, unreadable key file)."""


@dataclass(frozen=True)
class TableRow:
    """One table as the database holds it."""

    id: str
    created: float
    game: str
    options: dict[str, Any]
    seats: list[str]
    auto_chance: bool
    seat_tokens: list[str | None]
    host_token: str
    version: int
    save: str


def key_file_of(db_path: Path) -> Path:
    return db_path.with_name(db_path.name + ".key")


def load_secret(db_path: Path) -> bytes:
    """The key that signs the saves: ``$BOARDRULES_SERVER_SECRET`` if set, else the key
    file beside the database (``tables.sqlite.key``), made on first use with mode 0600."""
    text = os.environ.get(SECRET_ENV)
    if text is not None:
        key = text.encode()
        if len(key) < MIN_SECRET_BYTES:
            raise SecretError(f"{SECRET_ENV} must hold at least {MIN_SECRET_BYTES} bytes")
        return key
    path = key_file_of(db_path)
    try:
        # O_EXCL: two servers starting at once never both write a key
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return _read_key_file(path)
    with os.fdopen(fd, "w") as out:
        out.write(secrets.token_hex(32) + "\n")
    return _read_key_file(path)


def _read_key_file(path: Path) -> bytes:
    try:
        key = path.read_text().strip().encode()
    except OSError as exc:
        raise SecretError(f"cannot read the key file {path}: {exc}") from None
    if len(key) < MIN_SECRET_BYTES:
        raise SecretError(f"the key file {path} must hold at least {MIN_SECRET_BYTES} bytes")
    return key


def connect(db_path: Path, synchronous: Synchronous = "FULL") -> sqlite3.Connection:
    """A connection in WAL mode, transactions managed by hand (``BEGIN`` / ``COMMIT``).

    ``synchronous=FULL`` syncs the log at every commit: an acknowledged move survives a
    power cut too; ``NORMAL`` survives a crash of the server process only."""
    conn = sqlite3.connect(db_path, isolation_level=None, check_same_thread=False,
                           timeout=30.0)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute(f"PRAGMA synchronous={synchronous}")
    conn.execute(SCHEMA)
    return conn


#: A table's row as SQLite gives it, not yet converted: each row is converted on its own
#: (:func:`table_row`), so that a column edited into junk refuses that table only.
RawRow = tuple[Any, ...]


def read_rows(db_path: Path) -> list[RawRow]:
    """Every table in the database, oldest first (at start-up, before the writer runs)."""
    conn = connect(db_path)
    try:
        rows = conn.execute(
            "SELECT id, created, game, options, seats, auto_chance, seat_tokens, host_token,"
            " version, save FROM tables ORDER BY created, id").fetchall()
    finally:
        conn.close()
    return [tuple(values) for values in rows]


class DamagedRow(ValueError):
    """A column of a table's row holds what no server wrote (edited by hand, or damaged)."""


def table_row(values: RawRow) -> TableRow:
    """A stored row, each column checked: :class:`DamagedRow` names the first column that
    holds a value of the wrong kind (``version = 'abc'``, ``created = 'x'``)."""
    (table_id, created, game, options, seats, auto_chance, seat_tokens, host_token,
     version, save) = values
    return TableRow(id=_text(table_id, "id"), created=_time(created),
                    game=_text(game, "game"), options=_json_value(options, dict),
                    seats=_json_value(seats, list), auto_chance=_flag(auto_chance),
                    seat_tokens=_json_value(seat_tokens, list),
                    host_token=_text(host_token, "host_token"), version=_version(version),
                    save=_text(save, "save"))


def damaged_row(values: RawRow) -> TableRow:
    """What can be read of a row :func:`table_row` refuses -- its id, game and seats -- so
    that its table can be listed as refused (nothing of it is ever played or written)."""
    table_id, created, game, options, seats, _, seat_tokens, _, version, _ = values
    return TableRow(id=str(table_id), created=_or_default(_time, created, 0.0),
                    game=str(game), options=_json_value(options, dict),
                    seats=_json_value(seats, list), auto_chance=False,
                    seat_tokens=_json_value(seat_tokens, list), host_token="",
                    version=_or_default(_version, version, 0), save="")


def _or_default(convert: Callable[[Any], T], value: object, default: T) -> T:
    try:
        return convert(value)
    except DamagedRow:
        return default


def _text(value: object, column: str) -> str:
    if not isinstance(value, str):
        raise DamagedRow(f"its {column} column holds {value!r}, not text")
    return value


def _time(value: object) -> float:
    # SQLite's REAL affinity stores a number as one; text that is no number stays text
    if isinstance(value, bool) or not isinstance(value, int | float) \
            or not math.isfinite(value):
        raise DamagedRow(f"its created column holds {value!r}, not a time")
    return float(value)


def _version(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise DamagedRow(f"its version column holds {value!r}, not a version")
    return value


def _flag(value: object) -> bool:
    if type(value) is not int or value not in (0, 1):
        raise DamagedRow(f"its auto_chance column holds {value!r}, not 0 or 1")
    return bool(value)


def _json_value(text: object, kind: type[Any]) -> Any:
    # a column edited into junk reads as an empty value: the save's check refuses the table
    try:
        value = json.loads(str(text))
    except (ValueError, RecursionError):  # RecursionError: JSON nested too deep
        return kind()
    return value if isinstance(value, kind) else kind()


@dataclass
class _Job:
    sql: str
    params: tuple[Any, ...]
    expect_one_row: bool
    done: concurrent.futures.Future[None]


class Store:
    """The database of one server: reads at start-up, then one writer thread.

    :meth:`insert` and :meth:`update` return when their transaction is committed (an
    awaitable for the event loop); the writer commits every write waiting at that moment
    in one transaction, each write still checked on its own."""

    def __init__(self, db_path: Path, synchronous: Synchronous = "FULL") -> None:
        self.path = db_path
        self._conn = connect(db_path, synchronous)
        self._jobs: queue.Queue[_Job | None] = queue.Queue()
        self._thread = threading.Thread(target=self._write_loop, name="table-store",
                                        daemon=True)
        self._thread.start()

    async def insert(self, row: TableRow) -> None:
        now = time.time()
        await self._submit(
            "INSERT INTO tables (id, created, updated, game, options, seats, auto_chance,"
            " seat_tokens, host_token, version, save) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            (row.id, row.created, now, row.game, json.dumps(row.options),
             json.dumps(row.seats), int(row.auto_chance), json.dumps(row.seat_tokens),
             row.host_token, row.version, row.save), expect_one_row=True)

    async def update(self, table_id: str, old_version: int, new_version: int,
                     save: str) -> None:
        """Write a table's new save if its stored version is still ``old_version``
        (:class:`StaleWrite` otherwise, nothing written)."""
        await self._submit(
            "UPDATE tables SET save = ?, version = ?, updated = ? WHERE id = ? AND version = ?",
            (save, new_version, time.time(), table_id, old_version), expect_one_row=True)

    async def _submit(self, sql: str, params: tuple[Any, ...], expect_one_row: bool) -> None:
        done: concurrent.futures.Future[None] = concurrent.futures.Future()
        self._jobs.put(_Job(sql, params, expect_one_row, done))
        await asyncio.wrap_future(done)

    def close(self) -> None:
        """Finish the writes already queued, then stop the writer and close."""
        self._jobs.put(None)
        self._thread.join()
        self._conn.close()

    def _write_loop(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            batch = [job]
            stop = False
            while len(batch) < MAX_BATCH:
                try:
                    more = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch.append(more)
            self._commit(batch)
            if stop:
                return

    def _commit(self, batch: list[_Job]) -> None:
        """One transaction for the batch; each job's own failure (a stale version, a
        duplicate id) fails that job only, and nothing is reported done before COMMIT."""
        failures: dict[int, BaseException] = {}
        try:
            self._conn.execute("BEGIN IMMEDIATE")
            for i, job in enumerate(batch):
                try:
                    cursor = self._conn.execute(job.sql, job.params)
                except sqlite3.IntegrityError as exc:
                    failures[i] = exc
                    continue
                if job.expect_one_row and cursor.rowcount != 1:
                    failures[i] = StaleWrite("the stored table is not at the version "
                                             "this write started from")
            self._conn.execute("COMMIT")
        except Exception as exc:  # the whole batch failed (disk full, I/O error...)
            if self._conn.in_transaction:
                self._conn.execute("ROLLBACK")
            for job in batch:
                job.done.set_exception(exc)
            return
        for i, job in enumerate(batch):
            if i in failures:
                job.done.set_exception(failures[i])
            else:
                job.done.set_result(None)
