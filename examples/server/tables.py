"""Tables in play: who sits where, what each one may see, and every change made durable.

Every state lives on the event loop's thread and is read and changed only under its
table's lock; the only work done elsewhere is on *copies* (a bot's search in the bot
thread pool, an SVG picture in a worker thread), so one state never belongs to two
threads at once (docs/integration.rst, "Threads").

A change -- a seat's move, the host's chance outcome, a bot's move -- is: check the
version, apply (the library refuses a bad move and changes nothing), sign the save,
commit it with the new version (compare-and-set), and only then tell anyone.  If the
commit fails the table goes back to its last committed save.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
import functools
import hashlib
import hmac
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

import boardrules
from boardrules import CHANCE, TERMINAL, BoardRulesError
from boardrules.arena import BotSpec, derive_seed
from boardrules.games import as_game_id, check_saved_options
from boardrules.records import describe_event
from examples.server.bots import BotBudget, bounded_bot, choose_move
from examples.server.errors import ApiError, stale_version, unknown_table
from examples.server.store import RawRow, Store, TableRow, damaged_row, table_row

log = logging.getLogger("boardrules.server")

HUMAN = "human"
#: Messages a websocket may have waiting before the server drops it as too slow.
MAX_PENDING_MESSAGES = 1000

State = boardrules.State[Any]
T = TypeVar("T")


def token_hash(token: str) -> str:
    """What the database keeps of a token: its SHA-256 (a stolen database holds no token)."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class Viewer:
    """Who is asking: a seat (a player), the host (feeds chance at ``auto_chance=False``
    tables, sees what a spectator sees) or a spectator (no token)."""

    role: Literal["seat", "host", "spectator"]
    seat: int | None = None


SPECTATOR = Viewer("spectator")
HOST = Viewer("host")


@dataclass(frozen=True)
class Seat:
    """One seat: a human (with the hash of his token) or a bot (its bounded spec)."""

    kind: Literal["human", "bot"]
    spec_text: str
    bot: BotSpec | None = None
    token_hash: str | None = None

    def as_dict(self, index: int) -> dict[str, Any]:
        entry: dict[str, Any] = {"seat": index, "kind": self.kind}
        if self.kind == "bot":
            entry["bot"] = self.spec_text
        return entry


def to_text(message: dict[str, Any]) -> str:
    """A message as the websocket sends it: compact JSON, made once and shared by every
    listener it goes to."""
    return json.dumps(message, separators=(",", ":"))


class Listener:
    """One websocket's outbox of messages already serialised: they are queued, never
    awaited, so a slow client never holds a table; past :data:`MAX_PENDING_MESSAGES` it is
    dropped."""

    def __init__(self, viewer: Viewer) -> None:
        self.viewer = viewer
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.too_slow = False

    def push(self, text: str) -> None:
        if self.too_slow:
            return
        if self.outbox.qsize() >= MAX_PENDING_MESSAGES:
            self.too_slow = True
            self.outbox.put_nowait(None)
            return
        self.outbox.put_nowait(text)

    def close(self) -> None:
        self.outbox.put_nowait(None)


@dataclass(eq=False)
class Table:
    """A table: its seats, its state (None when its save was refused) and its listeners."""

    id: str
    game_id: str
    options: dict[str, Any]
    seats: list[Seat]
    auto_chance: bool
    created: float
    host_token_hash: str
    version: int
    save: str
    state: State | None = None
    refused: str | None = None
    bot_error: str | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    listeners: set[Listener] = field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None
    svg_cache: dict[int | None, tuple[int, str]] = field(default_factory=dict)
    #: What a summary shows of the state -- version, status, turn, outcome -- as of the
    #: last commit: a summary is read without the lock, so it must never show a change
    #: whose commit is still pending (:meth:`Lobby.remember_committed`).
    committed: dict[str, Any] = field(default_factory=dict)


def outcome_json(state: State) -> dict[str, Any] | None:
    outcome = state.outcome()
    if outcome is None:
        return None
    return {"winners": list(outcome.winners), "ranking": list(outcome.ranking),
            "scores": list(outcome.scores), "team_scores": list(outcome.team_scores),
            "returns": list(outcome.returns), "reason": outcome.reason.value}


def _events_json(name: str, events: Sequence[boardrules.Event], game: Any,
                 seat: int | None) -> dict[str, Any]:
    """``events`` (as ``seat`` sees them) as JSON (``Event.as_dict``) under ``name``, and
    the same events in words (:func:`~boardrules.records.describe_event`: ``?`` hidden
    from him, ``none`` not there), one for one, under ``name + "_text"`` (beside the
    JSON, not in it: an event's own field may be called anything)."""
    return {name: [event.as_dict() for event in events],
            f"{name}_text": [describe_event(event, game=game, viewer=seat)
                             for event in events]}


def _same_json(a: object, b: object) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


#: Applies a change to a table's state (raising ApiError, nothing changed, if it may not)
#: and returns the move as applied, in notation.
Change = Callable[[State], str]


class Lobby:
    """Every table of the server, and the only code that changes them."""

    def __init__(self, store: Store, key: bytes, budget: BotBudget,
                 bot_pool: concurrent.futures.Executor, max_tables: int = 10_000) -> None:
        self._store = store
        self._key = key
        self._budget = budget
        self._bot_pool = bot_pool
        self._max_tables = max_tables
        self._closing = False
        self._changes: set[asyncio.Task[Any]] = set()
        self.tables: dict[str, Table] = {}

    # --- start and stop ---

    def restore(self, rows: Sequence[RawRow]) -> None:
        """The tables of the database, each row converted and its save checked with the key
        on its own: a damaged row, or a forged or altered save, leaves its table refused
        (its error says why), the others play on."""
        for values in rows:
            table = self._restored_table(values)
            self.tables[table.id] = table

    def _restored_table(self, values: RawRow) -> Table:
        try:
            row = table_row(values)
        except Exception as exc:  # whatever a row holds, it closes that table only
            return self._refused(damaged_row(values), f"the stored row was refused: {exc}")
        table = _table_of(row)
        try:
            state = self._checked_state(row)
            table.seats = self._restored_seats(row, table, state.game)
            table.state = state
        except Exception as exc:  # whatever a row holds, it closes that table only
            return self._refused(row, f"the stored save was refused: {exc}")
        self.remember_committed(table)
        return table

    def _refused(self, row: TableRow, why: str) -> Table:
        table = _table_of(row)
        table.seats = _plain_seats(row)
        table.refused = why
        self.remember_committed(table)
        log.error("table %s: %s", row.id, why)
        return table

    def _checked_state(self, row: TableRow) -> State:
        state = boardrules.state_from_json(row.save, key=self._key)
        game = state.game
        if game.id != row.game or not _same_json(dict(game.options), row.options):
            raise ValueError("the save is of another game or other options than its table")
        if len(state.history) != row.version:
            raise ValueError(f"the save has {len(state.history)} actions, the table's "
                             f"version says {row.version}")
        if state.auto_chance != row.auto_chance:
            raise ValueError("the save's auto_chance is not its table's")
        return state

    def _restored_seats(self, row: TableRow, table: Table,
                        game: boardrules.Game[Any, Any]) -> list[Seat]:
        """The seats of a stored table, each bot checked against this server's budget (a
        bot over it does not play: the table says why)."""
        if len(row.seats) != game.num_players or len(row.seat_tokens) != game.num_players:
            raise ValueError("the table's seats do not match its game's players")
        seats = _plain_seats(row)
        for index, seat in enumerate(seats):
            if seat.kind == "human" and seat.token_hash is None:
                raise ValueError(f"human seat {index} has no token")
            if seat.kind == "bot":
                try:
                    seats[index] = self._bot_seat(seat.spec_text, game)
                except ApiError as exc:
                    table.bot_error = f"seat {index}: {exc.message}"
        return seats

    def start_bots(self) -> None:
        """Resume every table whose turn is a bot's (after a restart)."""
        for table in self.tables.values():
            self._kick_bot(table)

    async def close(self) -> None:
        """Stop the bots, let changes under way commit, close every websocket."""
        self._closing = True
        for table in self.tables.values():
            if table.bot_task is not None:
                table.bot_task.cancel()
            for listener in table.listeners:
                listener.close()
        if self._changes:
            await asyncio.gather(*self._changes, return_exceptions=True)

    # --- finding tables and who asks ---

    def table(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise unknown_table(table_id)
        return table

    def viewer(self, table: Table, token: str | None) -> Viewer:
        """The seat or role a token opens at ``table`` (none: a spectator)."""
        if token is None:
            return SPECTATOR
        digest = token_hash(token)
        for index, seat in enumerate(table.seats):
            if seat.token_hash is not None and hmac.compare_digest(digest, seat.token_hash):
                return Viewer("seat", index)
        if hmac.compare_digest(digest, table.host_token_hash):
            return HOST
        raise ApiError(403, "bad_token", f"this token opens no seat of table {table.id}")

    def _live(self, table: Table) -> State:
        if table.state is None:
            raise ApiError(409, "table_refused", table.refused or "the table is closed")
        return table.state

    # --- creating ---

    async def create(self, game_id: str, options: dict[str, Any], seats: list[str] | None,
                     auto_chance: bool, seed: int | None) -> dict[str, Any]:
        """A new table, stored before it is answered; its tokens are in the answer only."""
        if len(self.tables) >= self._max_tables:
            raise ApiError(503, "too_many_tables",
                           f"this server holds {self._max_tables} tables at most")
        game = load_game(game_id, options)
        texts = [HUMAN] * game.num_players if seats is None else seats
        if len(texts) != game.num_players:
            raise ApiError(422, "bad_seats", f"{game.name} with these options has "
                           f"{game.num_players} seats, not {len(texts)}")
        if seed is not None and not 0 <= seed < 2**64:
            raise ApiError(422, "bad_seed", "seed must be in [0, 2**64)")
        bots = [None if text == HUMAN else self._bot_seat(text, game) for text in texts]
        state = game.new_game(seed=seed, auto_chance=auto_chance)
        tokens = [secrets.token_urlsafe(24) if bot is None else None for bot in bots]
        host = secrets.token_urlsafe(24)
        seat_list = [bot or Seat("human", HUMAN, token_hash=token_hash(token or ""))
                     for bot, token in zip(bots, tokens, strict=True)]
        table = Table(id=secrets.token_hex(6), game_id=game.id, options=dict(game.options),
                      seats=seat_list, auto_chance=auto_chance, created=time.time(),
                      host_token_hash=token_hash(host), version=len(state.history),
                      save=state.to_json(key=self._key), state=state)
        self.remember_committed(table)
        row = TableRow(id=table.id, created=table.created, game=table.game_id,
                       options=table.options, seats=[s.spec_text for s in seat_list],
                       seat_tokens=[s.token_hash for s in seat_list],
                       host_token=table.host_token_hash, auto_chance=auto_chance,
                       version=table.version, save=table.save)
        await self._unstoppable(self._insert(table, row))
        return {"table": self.summary(table), "tokens": {"seats": tokens, "host": host}}

    async def _insert(self, table: Table, row: TableRow) -> None:
        await self._store.insert(row)
        self.tables[table.id] = table
        self._kick_bot(table)

    def _bot_seat(self, text: str, game: boardrules.Game[Any, Any]) -> Seat:
        spec = bounded_bot(text, game, self._budget)
        return Seat("bot", str(spec), bot=spec)

    # --- reading ---

    def summary(self, table: Table) -> dict[str, Any]:
        """What anyone may know of a table (the lobby's list), as of its last commit."""
        return {
            "id": table.id, "game": table.game_id, "options": table.options,
            "seats": [seat.as_dict(i) for i, seat in enumerate(table.seats)],
            "auto_chance": table.auto_chance, "created": table.created,
            **table.committed,
            "error": table.refused or table.bot_error,
        }

    def remember_committed(self, table: Table) -> None:
        """Take the summary's picture of the table's state (its version, status, turn and
        outcome): called when the state is the committed one -- loaded, created, or just
        stored -- never between a change and its commit."""
        state = table.state
        status = "refused" if state is None else "over" if state.is_terminal() else "playing"
        table.committed = {
            "version": table.version, "status": status,
            "turn": None if state is None else self._turn(table, state),
            "outcome": None if state is None else outcome_json(state),
        }

    def _turn(self, table: Table, state: State) -> dict[str, Any]:
        player = state.current_player
        if player == TERMINAL:
            return {"kind": "over", "seat": None}
        if player == CHANCE:
            return {"kind": "chance", "seat": None}
        return {"kind": table.seats[player].kind, "seat": player}

    async def snapshot(self, table: Table, viewer: Viewer, *, full: bool) -> dict[str, Any]:
        """What ``viewer`` sees now (under the lock: never a change still being stored)."""
        async with table.lock:
            return self._snapshot(table, viewer, full=full)

    def _snapshot(self, table: Table, viewer: Viewer, *, full: bool) -> dict[str, Any]:
        state = self._live(table)
        seat = viewer.seat
        player = state.current_player
        mine = (viewer.role == "seat" and player == seat) or (
            viewer.role == "host" and player == CHANCE)
        payload: dict[str, Any] = {
            "table": table.id, "version": table.version, "role": viewer.role, "seat": seat,
            "turn": self._turn(table, state), "your_turn": mine,
            "legal_moves": [str(move) for move in state.legal_moves()] if mine else [],
            # what the table waits for, told only to whom it asks (its move count is his)
            "decision": dataclasses.asdict(state.decision()) if mine else None,
            "view": state.view(seat),
            **_events_json("last_events", state.last_events(seat), state.game, seat),
            "outcome": outcome_json(state),
        }
        if full:
            payload.update(_events_json("events", state.events(seat), state.game, seat))
            payload["history"] = [[mover, text] for mover, text in state.history_view(seat)]
        return payload

    async def board_svg(self, table: Table, viewer: Viewer) -> str:
        """The board as ``viewer`` may see it, drawn in a worker thread from a copy (cached
        per version and seat: every spectator shares one picture)."""
        async with table.lock:
            state = self._live(table)
            version = table.version
            cached = table.svg_cache.get(viewer.seat)
            if cached is not None and cached[0] == version:
                return cached[1]
            copy = state.copy()
        svg = await asyncio.to_thread(copy.render_svg, viewer.seat)
        async with table.lock:
            if table.version == version:
                table.svg_cache[viewer.seat] = (version, svg)
        return svg

    async def subscribe(self, table: Table, listener: Listener) -> None:
        async with table.lock:
            self._live(table)
            table.listeners.add(listener)
            listener.push(to_text({"type": "state",
                                   **self._snapshot(table, listener.viewer, full=True)}))

    def unsubscribe(self, table: Table, listener: Listener) -> None:
        table.listeners.discard(listener)

    # --- changing ---

    async def play(self, table: Table, viewer: Viewer, text: str, expected_version: int,
                   claimed_seat: int | None = None, *, with_state: bool = True) -> dict[str, Any]:
        """A seat's move, at the version it was chosen at (the answer carries what the
        seat sees after it unless ``with_state`` is false: a websocket has it pushed)."""
        if viewer.role != "seat" or viewer.seat is None:
            raise ApiError(403, "not_a_player", "only a seat's token may move (the host "
                           "feeds chance outcomes; a spectator only watches)")
        seat = viewer.seat
        if claimed_seat is not None and claimed_seat != seat:
            raise ApiError(403, "wrong_seat", f"this token plays seat {seat}, not seat "
                           f"{claimed_seat}")

        def change(state: State) -> str:
            self._check_turn(table, state, seat)
            move = parse(state, text)
            try:
                state.apply(move, player=seat)
            except boardrules.IllegalMoveError as exc:
                raise ApiError(422, "illegal_move", str(exc), rule=exc.rule) from None
            return str(move)

        return await self._change(table, viewer if with_state else None, expected_version,
                                  change)

    async def feed_chance(self, table: Table, viewer: Viewer, text: str,
                          expected_version: int, *, with_state: bool = True) -> dict[str, Any]:
        """The host's outcome of a real die or card, one of ``state.chance_outcomes()``."""
        if viewer.role != "host":
            raise ApiError(403, "not_the_host", "only the table's host token feeds chance "
                           "outcomes")

        def change(state: State) -> str:
            if state.current_player != CHANCE:
                why = ("this table draws its own chance events (auto_chance)"
                       if table.auto_chance else "the table waits for no chance event")
                raise ApiError(409, "not_chance", why)
            move = parse(state, text)
            if move not in [outcome for outcome, _ in state.chance_outcomes()]:
                raise ApiError(422, "illegal_outcome", f"{move} is not a possible outcome "
                               "here; possible: "
                               + ", ".join(str(m) for m, _ in state.chance_outcomes()))
            state.apply(move)
            return str(move)

        return await self._change(table, viewer if with_state else None, expected_version,
                                  change)

    def _check_turn(self, table: Table, state: State, seat: int) -> None:
        player = state.current_player
        if player == seat:
            return
        if player == TERMINAL:
            raise ApiError(409, "game_over", "the game is over")
        who = "the host's chance event" if player == CHANCE else f"seat {player}"
        raise ApiError(409, "not_your_turn", f"it is {who}'s turn, not seat {seat}'s")

    async def _change(self, table: Table, viewer: Viewer | None, expected_version: int,
                      change: Change) -> dict[str, Any]:
        return await self._unstoppable(self._commit(table, expected_version, change, viewer))

    async def _unstoppable(self, work: Awaitable[T]) -> T:
        """Run ``work`` to its end even if the request that asked for it goes away (a
        client that disconnects mid-move never leaves a change half stored)."""
        task = asyncio.ensure_future(work)
        self._changes.add(task)
        task.add_done_callback(self._changes.discard)
        return await asyncio.shield(task)

    async def _commit(self, table: Table, expected_version: int, change: Change,
                      viewer: Viewer | None = None) -> dict[str, Any]:
        """Apply and store a change; the answer (stored before it returns): the move's
        index in the history, its notation, the new version and what ``viewer`` sees
        right after it."""
        async with table.lock:
            state = self._live(table)
            if expected_version != table.version:
                raise stale_version(expected_version, table.version)
            before = table.version
            text = change(state)
            save = state.to_json(key=self._key)
            version = len(state.history)
            try:
                await self._store.update(table.id, before, version, save)
            except BaseException:
                # not stored: back to the last committed save, as if never applied
                table.state = boardrules.state_from_json(table.save, key=self._key)
                log.exception("table %s: the change at version %d was not stored", table.id,
                              before)
                raise
            table.version, table.save = version, save
            self.remember_committed(table)
            pushed = self._broadcast(table)
            self._kick_bot(table)
            shown = None
            if viewer is not None:  # the same picture as its websockets got, if it has any
                shown = pushed.get(viewer) or self._snapshot(table, viewer, full=False)
            return {"move": text, "index": before, "version": version, "state": shown}

    def _broadcast(self, table: Table) -> dict[Viewer, dict[str, Any]]:
        """Every listener's new picture: one snapshot per seat (the library's view, events
        and, for the mover alone, legal moves and decision), serialised once and the same
        text pushed to every listener of that seat.  Returns the snapshots by viewer."""
        shown: dict[Viewer, dict[str, Any]] = {}
        texts: dict[Viewer, str] = {}
        for listener in list(table.listeners):
            text = texts.get(listener.viewer)
            if text is None:
                snapshot = self._snapshot(table, listener.viewer, full=False)
                shown[listener.viewer] = snapshot
                text = texts[listener.viewer] = to_text({"type": "state", **snapshot})
            listener.push(text)
        return shown

    # --- bots ---

    def _bot_to_move(self, table: Table) -> Seat | None:
        state = table.state
        if state is None or self._closing or table.bot_error is not None:
            return None
        player = state.current_player
        if player < 0:
            return None
        seat = table.seats[player]
        return seat if seat.bot is not None else None

    def _kick_bot(self, table: Table) -> None:
        if table.bot_task is None and self._bot_to_move(table) is not None:
            table.bot_task = asyncio.ensure_future(self._play_bots(table))

    async def _play_bots(self, table: Table) -> None:
        """Play the table's bot seats while it is a bot's turn: the search on a copy in the
        bot pool, its move then committed as any other (at the version it searched)."""
        loop = asyncio.get_running_loop()
        try:
            while True:
                async with table.lock:
                    seat = self._bot_to_move(table)
                    if seat is None or seat.bot is None or table.state is None:
                        table.bot_task = None
                        return
                    player, version = table.state.current_player, table.version
                    copy = table.state.copy()
                seed = derive_seed(0, "server", table.id, version)
                text = await loop.run_in_executor(self._bot_pool, choose_move, seat.bot,
                                                  copy, seed)
                await self._unstoppable(self._commit(
                    table, version, functools.partial(self._bot_move, player=player, text=text)))
        except asyncio.CancelledError:
            table.bot_task = None
            raise
        except Exception as exc:  # a bot that fails stops; the table says why
            table.bot_error = f"the bot stopped: {type(exc).__name__}: {exc}"
            table.bot_task = None
            log.exception("table %s: bot failed", table.id)

    @staticmethod
    def _bot_move(state: State, player: int, text: str) -> str:
        state.apply(text, player=player)
        return text


def _table_of(row: TableRow) -> Table:
    """A stored table as its row says, not playing yet (no state, no seats)."""
    return Table(id=row.id, game_id=row.game, options=row.options, seats=[],
                 auto_chance=row.auto_chance, created=row.created,
                 host_token_hash=row.host_token, version=row.version, save=row.save)


def _plain_seats(row: TableRow) -> list[Seat]:
    """A stored table's seats as the row says (bots not built yet)."""
    seats = []
    for text, token in zip(row.seats, row.seat_tokens, strict=False):
        if text == HUMAN:
            seats.append(Seat("human", HUMAN,
                              token_hash=token if isinstance(token, str) else None))
        else:
            seats.append(Seat("bot", str(text)))
    return seats


def load_game(game_id: str, options: dict[str, Any]) -> boardrules.Game[Any, Any]:
    """The game of a new table: a registered id, options the game takes -- and no option
    that names a file on the server's disk (a board path), which a client may not choose."""
    if game_id not in boardrules.available_games():
        raise ApiError(422, "unknown_game", f"no game {game_id!r}; games: "
                       + ", ".join(boardrules.available_games()))
    try:
        check_saved_options(game_id, dict(options))
        game = _built_game(game_id, json.dumps(options, sort_keys=True))
    except boardrules.InvalidStateError as exc:
        raise ApiError(422, "bad_options", f"{exc} (a table's options may name shipped "
                       "data files or carry their content, never a path)") from None
    except (BoardRulesError, ValueError, TypeError) as exc:
        raise ApiError(422, "bad_options", str(exc)) from None
    return game


@functools.lru_cache(maxsize=64)
def _built_game(game_id: str, options_json: str) -> boardrules.Game[Any, Any]:
    """The game of these options, built once: a game is immutable and shared freely
    (docs/integration.rst), and building one (its move tables) takes milliseconds, which
    every new table paid on the event loop."""
    game: boardrules.Game[Any, Any] = boardrules.load(as_game_id(game_id),
                                                      **json.loads(options_json))
    return game


def parse(state: State, text: str) -> boardrules.Move:
    try:
        move: boardrules.Move = state.game.parse_move(text)
    except boardrules.InvalidMoveError as exc:
        raise ApiError(400, "invalid_move", str(exc), rule=exc.rule) from None
    return move
