"""Run the reference game server: ``python examples/server/serve.py --db tables.sqlite``.

Binds to 127.0.0.1 unless told otherwise (``--host``); the tables live in the SQLite file
``--db`` (made on first start, with its signing key ``<db>.key`` beside it unless
``$BOARDRULES_SERVER_SECRET`` is set).  See ``examples/server/README.md``.
"""

from __future__ import annotations

import argparse
import copy
import logging
import sys
from pathlib import Path
from typing import Any

# Run as a script from a clone: the repository's root holds the ``examples`` package (put
# last, so that an installed boardrules is the one imported, not the clone's sources).
ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))  # after site-packages: an installed boardrules wins


#: The largest websocket frame uvicorn takes (a client message is a few hundred bytes).
WS_MAX_SIZE = 64 * 1024


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="serve.py", description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True, type=Path, help="the SQLite database file")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (8000)")
    parser.add_argument("--bot-workers", type=int, default=2,
                        help="threads running the bots' searches (2)")
    parser.add_argument("--max-iterations", type=int, default=20_000,
                        help="most MCTS/ISMCTS iterations a bot seat may ask per move")
    parser.add_argument("--max-time-limit", type=float, default=2.0,
                        help="most seconds a bot may search per move (also its default)")
    parser.add_argument("--max-tables", type=int, default=10_000,
                        help="most tables the server holds")
    parser.add_argument("--synchronous", choices=["full", "normal"], default="full",
                        help="SQLite sync: full survives a power cut, normal a crash (full)")
    parser.add_argument("--ws-compression", action="store_true",
                        help="offer permessage-deflate on the websockets (off: a push is "
                             "a few kB, and compressing each one costs more CPU than "
                             "the bytes it saves on a LAN or loopback)")
    parser.add_argument("--access-log", action="store_true",
                        help="log every request (off by default; tokens are redacted "
                             "from every log line either way)")
    parser.add_argument("--log-level", default="info",
                        choices=["critical", "error", "warning", "info", "debug"])
    args = parser.parse_args(argv)
    if args.bot_workers < 1:
        parser.error("--bot-workers must be at least 1")
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    import uvicorn

    from examples.server.app import create_app
    from examples.server.bots import BotBudget

    configure_logging(args.log_level)
    budget = BotBudget(max_iterations=args.max_iterations,
                       max_time_limit=args.max_time_limit)
    app = create_app(args.db, budget=budget, bot_workers=args.bot_workers,
                     synchronous="FULL" if args.synchronous == "full" else "NORMAL",
                     max_tables=args.max_tables)
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level,
                log_config=uvicorn_log_config(), access_log=args.access_log,
                ws="websockets-sansio", ws_max_size=WS_MAX_SIZE,
                ws_per_message_deflate=args.ws_compression)


def configure_logging(level: str) -> None:
    """The server's own lines (and any library's) through one handler that redacts
    tokens."""
    from examples.server.logs import RedactTokens

    logging.basicConfig(level=level.upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    for handler in logging.getLogger().handlers:
        handler.addFilter(RedactTokens())


def uvicorn_log_config() -> dict[str, Any]:
    """uvicorn's own logging set-up with a token-redacting filter on each of its handlers:
    no token reaches its log at any level, the access log (``--access-log``) included."""
    from uvicorn.config import LOGGING_CONFIG

    from examples.server.logs import RedactTokens

    config = copy.deepcopy(LOGGING_CONFIG)
    config["filters"] = {"redact_tokens": {"()": RedactTokens}}
    for handler in config["handlers"].values():
        handler["filters"] = [*handler.get("filters", []), "redact_tokens"]
    return config


if __name__ == "__main__":
    main()
