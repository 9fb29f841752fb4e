"""Reading board files, shared by every game whose board is data.

A game's board is a shipped name, the path of a file of the user's own, or the same
content as a mapping.  Reading is defensive: only regular files (devices and pipes
report no size, so reads are bounded), UTF-8 JSON holding an object, and nothing larger
than the game's limit; any failure is a :class:`~boardrules.errors.BoardDataError`.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from boardrules.errors import BoardDataError, InvalidStateError

BoardT = TypeVar("BoardT")


def shipped_names(boards_dir: Path) -> list[str]:
    """Names of the boards in a game's ``boards/`` folder."""
    return sorted(p.stem for p in boards_dir.glob("*.json"))


def load_board_spec(spec: object, boards_dir: Path, max_bytes: int,
                    parse: Callable[[Mapping[str, Any], str], BoardT],
                    kind: str = "board") -> BoardT:
    """The board ``spec`` names (a shipped name, a path or a mapping), checked by
    ``parse(data, where)``; ``kind`` names the file in errors (``"dice"``, ``"deck"``)."""
    if isinstance(spec, Mapping):
        return parse(spec, "<mapping>")
    if not isinstance(spec, str | os.PathLike):
        raise BoardDataError(
            f"{kind} must be a name, a path or a mapping, not {type(spec).__name__}")
    name = os.fspath(spec)
    if not isinstance(name, str):  # a PathLike of bytes
        raise BoardDataError(f"{kind} path must be text, not bytes")
    shipped = shipped_names(boards_dir)
    path = boards_dir / f"{name}.json" if name in shipped else Path(name)
    try:
        if not path.is_file():
            raise BoardDataError(f"{kind} {name!r}: not a regular file")
        with path.open("rb") as handle:  # devices and pipes report no size: read bounded
            raw = handle.read(max_bytes + 1)
        if len(raw) > max_bytes:
            raise BoardDataError(f"{path}: {kind} file is too large")
        text = raw.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BoardDataError(
            f"{kind} {name!r} is neither a shipped {kind} ({', '.join(shipped)}) "
            f"nor a readable file: {exc}"
        ) from None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise BoardDataError(f"{path}: not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise BoardDataError(f"{path}: a {kind} file is a JSON object")
    return parse(data, str(path))


def refuse_board_paths(options: Mapping[str, Any], default: str, shipped: list[str],
                       field: str = "board") -> None:
    """A saved state names a shipped board (or dice, deck: ``field``) or carries its
    content, never a path (``to_json`` writes nothing else): refuse anything that would
    read a file."""
    value = options.get(field, default)
    if isinstance(value, str) and value not in shipped:
        raise InvalidStateError(f"options.{field} must be a shipped {field} name or a "
                                f"{field} object")


# --- field checks shared by the board validators ---------------------------------------

#: The longest name or title a board file's text field may hold.
MAX_TEXT = 64
#: The largest board (or dice, deck) file read.
MAX_BOARD_FILE_BYTES = 200_000
#: A notation key: 2 to 16 of a-z, 0-9 and _, starting with a letter.
KEY_PATTERN = re.compile(r"[a-z][a-z0-9_]{1,15}")


def fail(where: str, label: str, message: str) -> BoardDataError:
    """The error for field ``label`` of the file at ``where``."""
    return BoardDataError(f"{where}: {label}: {message}")


def get_field(data: Mapping[str, Any], key: str, kind: type, where: str,
              label: str | None = None) -> Any:
    """``data[key]`` checked to be a ``kind`` (an int is never a bool)."""
    label = label or key
    if key not in data:
        raise fail(where, label, "missing field")
    value = data[key]
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise fail(where, label, "must be an integer")
    if not isinstance(value, kind):
        raise fail(where, label, f"must be of type {kind.__name__}")
    return value


def known_fields(data: Mapping[str, Any], allowed: tuple[str, ...], where: str,
                 label: str) -> None:
    """Refuse fields not in ``allowed`` (a misspelt optional field must not pass)."""
    unknown = [k for k in data if k not in allowed]
    if unknown:
        names = sorted(k if isinstance(k, str) else repr(k) for k in unknown)
        raise fail(where, label, f"unknown field(s) {names}")


def text_field(data: Mapping[str, Any], key: str, where: str, label: str | None = None,
               limit: int = MAX_TEXT) -> str:
    """A non-blank string of at most ``limit`` characters."""
    value: str = get_field(data, key, str, where, label)
    label = label or key
    if not value.strip():
        raise fail(where, label, "must not be empty")
    if len(value) > limit:
        raise fail(where, label, f"must be at most {limit} characters")
    return value


def number_field(value: Any, limit: float, where: str, label: str) -> float:
    """A finite number from 0 to ``limit`` (an int or a float, never a bool)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise fail(where, label, "must be a number")
    if not (math.isfinite(value) and 0 <= value <= limit):
        raise fail(where, label, f"{value!r} must be 0 to {limit}")
    return value


def coordinate(raw: Mapping[str, Any], axis: str, limit: float, where: str,
               label: str) -> float:
    """``raw[axis]``, a drawing coordinate from 0 to ``limit``."""
    if axis not in raw:
        raise fail(where, label, "missing field")
    return number_field(raw[axis], limit, where, label)


def outline_field(raw: Mapping[str, Any], where: str, label: str, max_points: int,
                  width: float, height: float) -> tuple[tuple[float, float], ...] | None:
    """The optional drawing polygon ``raw["outline"]``: 3 to ``max_points`` points in the
    ``width`` x ``height`` box (None when absent)."""
    if "outline" not in raw:
        return None
    value = raw["outline"]
    if not isinstance(value, list) or not 3 <= len(value) <= max_points:
        raise fail(where, label, f"must be a list of 3 to {max_points} points")
    points: list[tuple[float, float]] = []
    for n, point in enumerate(value):
        if not isinstance(point, list) or len(point) != 2:
            raise fail(where, f"{label}[{n}]", "must be a point [x, y]")
        points.append((number_field(point[0], width, where, f"{label}[{n}]"),
                       number_field(point[1], height, where, f"{label}[{n}]")))
    return tuple(points)


def key_field(data: Mapping[str, Any], where: str, label: str,
              reserved: frozenset[str]) -> str:
    """An entry's ``key``: its name in the move notation, so never a ``reserved`` word."""
    key: str = get_field(data, "key", str, where, label)
    if not KEY_PATTERN.fullmatch(key):
        raise fail(where, label, f"{key!r} must be 2 to 16 of a-z, 0-9 and _, "
                   "starting with a letter")
    if key in reserved:
        raise fail(where, label, f"{key!r} is a word of the move notation")
    return key
