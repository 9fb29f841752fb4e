"""Keeping the tokens out of the server's log.

A seat token is the whole identity of a player, and the websocket, which a browser cannot
give headers, carries it in its URL (``/tables/{id}/ws?token=...``).  uvicorn writes that
URL at INFO (``"WebSocket /tables/ID/ws?token=..." [accepted]``, on ``uvicorn.error``,
whether the access log is on or not), the websockets protocol writes the request line and
headers at DEBUG, and the access log writes every HTTP request line.  :class:`RedactTokens`
rewrites any record whose text holds a token -- a ``token`` query parameter, a ``token=``
anywhere, an ``Authorization: Bearer`` value -- to ``[redacted]`` before a handler writes
it: ``create_app`` puts it on uvicorn's and websockets' loggers (whoever runs the app),
``serve.py`` on every handler as well (whatever logger a line comes from).
"""

from __future__ import annotations

import logging
import re
from urllib.parse import unquote_plus

REDACTED = "[redacted]"
#: The loggers that write request lines and URLs (uvicorn gives the websockets protocol
#: its ``uvicorn.error`` logger; the websockets ones serve other set-ups).
REQUEST_LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi",
                   "websockets", "websockets.server", "websockets.protocol")

_QUERY = re.compile(r"\?([^\s\"'<>#]+)")
_TOKEN_VALUE = re.compile(r"(token\s*=\s*)[^\s&\"'<>#,;]+", re.IGNORECASE)
_BEARER = re.compile(r"(bearer\s+)[^\s\"'<>,;]+", re.IGNORECASE)


def redact(text: str) -> str:
    """``text`` with every token in it replaced by ``[redacted]``."""
    text = _QUERY.sub(_redacted_query, text)
    text = _TOKEN_VALUE.sub(lambda match: match.group(1) + REDACTED, text)
    return _BEARER.sub(lambda match: match.group(1) + REDACTED, text)


def _redacted_query(match: re.Match[str]) -> str:
    # each parameter decoded as the server reads it: ``?tok%65n=...`` is a token too
    return "?" + "&".join(_redacted_pair(pair) for pair in match.group(1).split("&"))


def _redacted_pair(pair: str) -> str:
    if "token" not in unquote_plus(pair).lower():
        return pair
    key, equals, _ = pair.partition("=")
    return f"{key}={REDACTED}" if equals and "token" in unquote_plus(key).lower() else REDACTED


class RedactTokens(logging.Filter):
    """A logging filter that lets every record through with its tokens redacted: in its
    message and arguments (each argument kept in its place, since uvicorn's access
    formatter reads them one by one), its traceback and its stack."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_redacted_arg(arg) for arg in record.args)
        elif isinstance(record.args, dict):
            record.args = {key: _redacted_arg(arg) for key, arg in record.args.items()}
        message = record.getMessage()
        if redact(message) != message:  # a token in an argument that is no str
            record.msg, record.args = redact(message), None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


def _redacted_arg(arg: object) -> object:
    return redact(arg) if isinstance(arg, str) else arg


def install_redaction() -> RedactTokens:
    """Put one :class:`RedactTokens` on each of :data:`REQUEST_LOGGERS` (once, however
    often it is called) and return it."""
    for name in REQUEST_LOGGERS:
        logger = logging.getLogger(name)
        found = [f for f in logger.filters if isinstance(f, RedactTokens)]
        if not found:
            logger.addFilter(_FILTER)
    return _FILTER


_FILTER = RedactTokens()
