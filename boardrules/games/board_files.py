"""Reading board files, shared by every game whose board is data.

A game's board is a shipped name, the path of a file of the user's own, or the same
content as a mapping.  Reading is defensive: only regular files (devices and pipes
report no size, so reads are bounded), UTF-8 JSON holding an object, and nothing larger
than the game's limit; any failure is a :class:`~boardrules.errors.BoardDataError`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from boardrules.errors import BoardDataError, InvalidStateError

BoardT = TypeVar("BoardT")


def shipped_names(boards_dir: Path) -> list[str]:
    """Names of the boards in a game's ``boards/`` folder."""
    return sorted(p.stem for p in boards_dir.glob("*.json"))


def load_board_spec(spec: object, boards_dir: Path, max_bytes: int,
                    parse: Callable[[Mapping[str, Any], str], BoardT]) -> BoardT:
    """The board ``spec`` names (a shipped name, a path or a mapping), checked by
    ``parse(data, where)``."""
    if isinstance(spec, Mapping):
        return parse(spec, "<mapping>")
    if not isinstance(spec, str | os.PathLike):
        raise BoardDataError(
            f"board must be a name, a path or a mapping, not {type(spec).__name__}")
    name = os.fspath(spec)
    if not isinstance(name, str):  # a PathLike of bytes
        raise BoardDataError("board path must be text, not bytes")
    shipped = shipped_names(boards_dir)
    path = boards_dir / f"{name}.json" if name in shipped else Path(name)
    try:
        if not path.is_file():
            raise BoardDataError(f"board {name!r}: not a regular file")
        with path.open("rb") as handle:  # devices and pipes report no size: read bounded
            raw = handle.read(max_bytes + 1)
        if len(raw) > max_bytes:
            raise BoardDataError(f"{path}: board file is too large")
        text = raw.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BoardDataError(
            f"board {name!r} is neither a shipped board ({', '.join(shipped)}) "
            f"nor a readable file: {exc}"
        ) from None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise BoardDataError(f"{path}: not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise BoardDataError(f"{path}: a board file is a JSON object")
    return parse(data, str(path))


def refuse_board_paths(options: Mapping[str, Any], default: str, shipped: list[str]) -> None:
    """A saved state names a shipped board or carries the board itself, never a path
    (``to_json`` writes nothing else): refuse anything that would read a file."""
    board = options.get("board", default)
    if isinstance(board, str) and board not in shipped:
        raise InvalidStateError("options.board must be a shipped board or a board object")
