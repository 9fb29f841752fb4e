"""The one error the server answers with: an HTTP status, a stable code and a sentence.

Every refusal is a JSON body ``{"error": {"code": ..., "message": ...}}`` (plus fields of
the code's own, such as the ``rule`` an illegal move breaks), the same over HTTP and over
the websocket, so a client handles one shape."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """A request refused; nothing was changed.

    ``status`` is the HTTP status (400 malformed, 403 not allowed for this token, 404 no
    such table, 409 conflicts with the table as it is now, 422 refused by the rules or the
    game's options, 503 the server is full), ``code`` a short key a client can switch on.
    """

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra

    def body(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message, **self.extra}}


def bad_request(message: str) -> ApiError:
    return ApiError(400, "bad_request", message)


def unknown_table(table_id: str) -> ApiError:
    return ApiError(404, "unknown_table", f"no table {table_id!r}")


def stale_version(expected: int, version: int) -> ApiError:
    return ApiError(409, "stale_version",
                    f"expected_version {expected} is not the table's version {version}: the "
                    f"table moved on (or this request was already applied); read the table "
                    f"again", version=version)
