"""The HTTP and websocket API of the reference game server (FastAPI).

``create_app(db_path)`` builds the app; ``serve.py`` runs it under uvicorn.  The routes:

=======================================  ===============================================
``GET /``                                the web page (``static/index.html``)
``GET /games``                           the games and their example options
``POST /tables``                         a new table; its seat and host tokens, once
``GET /tables``                          every table's summary
``GET /tables/{id}``                     one table's summary
``GET /tables/{id}/view``                what the token's seat (or a spectator) sees
``GET /tables/{id}/board.svg``           the board as that seat may see it
``POST /tables/{id}/moves``              a seat's move at ``expected_version``
``POST /tables/{id}/chance``             the host's chance outcome (real dice and cards)
``WS /tables/{id}/ws?token=...``         every change pushed; moves and outcomes accepted
=======================================  ===============================================

A token goes in ``Authorization: Bearer <token>`` (the websocket: ``?token=``).  Every
refusal is ``{"error": {"code", "message", ...}}`` with its status (docs/server.rst).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, cast

from fastapi import FastAPI, Header, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

import boardrules
from boardrules.games import as_game_id
from examples.server.bots import BotBudget
from examples.server.errors import ApiError, bad_request
from examples.server.logs import install_redaction
from examples.server.protocol import (
    CLIENT_MESSAGE,
    ChanceMessage,
    ChanceRequest,
    CreateTable,
    MoveMessage,
    MoveRequest,
)
from examples.server.store import Store, Synchronous, load_secret, read_rows
from examples.server.tables import Listener, Lobby, Table, Viewer, to_text

log = logging.getLogger("boardrules.server")

STATIC = Path(__file__).with_name("static")
#: Websocket close codes: 4000 + the HTTP status of the refusal (4403, 4404, 4409).
WS_CLOSE_BASE = 4000
WS_TOO_SLOW = 4408
#: The largest websocket message a client may send (a move is a few bytes).
MAX_WS_MESSAGE = 4096

TokenHeader = Annotated[str | None, Header(alias="Authorization")]


def create_app(db_path: str | Path, *, secret: bytes | None = None,
               budget: BotBudget | None = None, bot_workers: int = 2,
               synchronous: Synchronous = "FULL", max_tables: int = 10_000) -> FastAPI:
    """The server's app on the SQLite database ``db_path`` (made if missing).

    ``secret`` signs the saves (default: ``$BOARDRULES_SERVER_SECRET`` or the key file
    beside the database); ``budget`` caps what a bot seat may ask; ``bot_workers`` threads
    run the bots' searches.  The tables are loaded when the app starts (its lifespan).

    It puts a filter on uvicorn's loggers that redacts every token from their lines (a
    websocket's URL holds one: examples/server/logs.py)."""
    path = Path(db_path)
    install_redaction()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        key = secret if secret is not None else load_secret(path)
        rows = read_rows(path)
        store = Store(path, synchronous)
        pool = concurrent.futures.ThreadPoolExecutor(bot_workers, thread_name_prefix="bot")
        lobby = Lobby(store, key, budget or BotBudget(), pool, max_tables)
        lobby.restore(rows)
        lobby.start_bots()
        app.state.lobby = lobby
        log.info("%d tables loaded from %s", len(rows), path)
        try:
            yield
        finally:
            await lobby.close()
            pool.shutdown(wait=True, cancel_futures=True)
            store.close()

    app = FastAPI(title="boardrules reference game server", lifespan=lifespan)
    _add_error_handlers(app)
    _add_routes(app)
    _add_socket(app)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


def lobby_of(request: Request | WebSocket) -> Lobby:
    return cast(Lobby, request.app.state.lobby)


def bearer(header: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header (None: no header)."""
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(403, "bad_token", "the Authorization header must be 'Bearer <token>'")
    return token.strip()


def _error(exc: ApiError) -> JSONResponse:
    return JSONResponse(exc.body(), status_code=exc.status)


def _add_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        return _error(exc)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        return _error(bad_request(_validation_message(exc.errors())))

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception) -> JSONResponse:
        log.exception("internal error on %s %s", request.method, request.url.path)
        return _error(ApiError(500, "internal_error", "the server failed to answer this "
                               "request; nothing acknowledged was lost (see its log)"))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return _error(ApiError(exc.status_code, code, str(exc.detail)))


def _validation_message(errors: Any) -> str:
    """One sentence for pydantic's errors: where, and what is wrong there."""
    parts = []
    for error in list(errors)[:3]:
        where = ".".join(str(part) for part in error.get("loc", ()) if part != "body")
        parts.append(f"{where or 'body'}: {error.get('msg', 'invalid')}")
    return "; ".join(parts) or "invalid request"


def _add_routes(app: FastAPI) -> None:
    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/games")
    async def games() -> dict[str, Any]:
        return {"games": [_game_entry(game_id) for game_id in boardrules.available_games()]}

    @app.post("/tables", status_code=201)
    async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
        return await lobby_of(request).create(body.game, body.options, body.seats,
                                              body.auto_chance, body.seed)

    @app.get("/tables")
    async def list_tables(request: Request) -> dict[str, Any]:
        lobby = lobby_of(request)
        return {"tables": [lobby.summary(table) for table in lobby.tables.values()]}

    @app.get("/tables/{table_id}")
    async def table_summary(table_id: str, request: Request) -> dict[str, Any]:
        lobby = lobby_of(request)
        return lobby.summary(lobby.table(table_id))

    @app.get("/tables/{table_id}/view")
    async def my_view(table_id: str, request: Request,
                      authorization: TokenHeader = None) -> dict[str, Any]:
        lobby, table, viewer = _who(request, table_id, authorization)
        return await lobby.snapshot(table, viewer, full=True)

    @app.get("/tables/{table_id}/board.svg")
    async def board(table_id: str, request: Request,
                    authorization: TokenHeader = None) -> Response:
        lobby, table, viewer = _who(request, table_id, authorization)
        svg = await lobby.board_svg(table, viewer)
        return Response(svg, media_type="image/svg+xml",
                        headers={"Cache-Control": "no-store"})

    @app.post("/tables/{table_id}/moves")
    async def move(table_id: str, body: MoveRequest, request: Request,
                   authorization: TokenHeader = None) -> dict[str, Any]:
        lobby, table, viewer = _who(request, table_id, authorization)
        return await lobby.play(table, viewer, body.move, body.expected_version, body.seat)

    @app.post("/tables/{table_id}/chance")
    async def chance(table_id: str, body: ChanceRequest, request: Request,
                     authorization: TokenHeader = None) -> dict[str, Any]:
        lobby, table, viewer = _who(request, table_id, authorization)
        return await lobby.feed_chance(table, viewer, body.outcome, body.expected_version)


def _who(request: Request, table_id: str,
         authorization: str | None) -> tuple[Lobby, Table, Viewer]:
    lobby = lobby_of(request)
    table = lobby.table(table_id)
    return lobby, table, lobby.viewer(table, bearer(authorization))


def _game_entry(game_id: str) -> dict[str, Any]:
    game = boardrules.load(as_game_id(game_id))
    return {"id": game_id, "name": game.name, "players": game.num_players,
            "example_options": [dict(options) for options in type(game).example_options]}


# --- the websocket ---

def _add_socket(app: FastAPI) -> None:
    @app.websocket("/tables/{table_id}/ws")
    async def table_socket(websocket: WebSocket, table_id: str,
                           token: str | None = None) -> None:
        await websocket.accept()
        lobby = lobby_of(websocket)
        try:
            table = lobby.table(table_id)
            listener = Listener(lobby.viewer(table, token))
            await lobby.subscribe(table, listener)
        except ApiError as exc:
            await websocket.send_text(to_text({"type": "error", "status": exc.status,
                                               **exc.body()}))
            await websocket.close(code=WS_CLOSE_BASE + exc.status)
            return
        sender = asyncio.ensure_future(_send_all(websocket, listener))
        receiver = asyncio.ensure_future(_receive_all(websocket, lobby, table, listener))
        try:
            await asyncio.wait({sender, receiver}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            lobby.unsubscribe(table, listener)
            sender.cancel()
            receiver.cancel()


async def _send_all(websocket: WebSocket, listener: Listener) -> None:
    """The listener's outbox, in order, until it is closed (the server stops, or the
    client is too slow to keep up)."""
    while True:
        message = await listener.outbox.get()
        if message is None:
            await websocket.close(code=WS_TOO_SLOW if listener.too_slow else 1001)
            return
        await websocket.send_text(message)


async def _receive_all(websocket: WebSocket, lobby: Lobby, table: Table,
                       listener: Listener) -> None:
    """Each client message answered in turn (its reply queued behind the pushes)."""
    try:
        while True:
            text = await websocket.receive_text()
            listener.push(to_text(await _answer(lobby, table, listener.viewer, text)))
    except WebSocketDisconnect:
        return


async def _answer(lobby: Lobby, table: Table, viewer: Viewer, text: str) -> dict[str, Any]:
    """The reply to one client message: an ``ack``, a ``state`` (for ``sync``) or an
    ``error`` (with the HTTP status the same request would get)."""
    message_id: Any = None
    try:
        if len(text) > MAX_WS_MESSAGE:
            raise bad_request(f"a message is at most {MAX_WS_MESSAGE} characters")
        try:
            message = CLIENT_MESSAGE.validate_json(text)
        except ValidationError as exc:
            raise bad_request(_validation_message(exc.errors())) from None
        message_id = message.id
        if isinstance(message, MoveMessage):
            ack = await lobby.play(table, viewer, message.move, message.expected_version,
                                   message.seat, with_state=False)
        elif isinstance(message, ChanceMessage):
            ack = await lobby.feed_chance(table, viewer, message.outcome,
                                          message.expected_version, with_state=False)
        else:
            return {"type": "state", "id": message_id,
                    **await lobby.snapshot(table, viewer, full=True)}
        del ack["state"]  # None here: the "state" push before the ack carries it
        return {"type": "ack", "id": message_id, **ack}
    except ApiError as exc:
        return {"type": "error", "id": message_id, "status": exc.status, **exc.body()}
