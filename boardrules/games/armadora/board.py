"""Armadora boards as data: a grid of squares and the gold-mine squares.

Board files live in ``boards/`` (``printed`` is the published 8 x 5 board, ``sheet-7x5``
the size the Chinese sheet gives, reconstructed).  A user may pass the name of a shipped
board, the path of a board file of his own, or the same content as a mapping; every
field is checked and a bad one raises :class:`~boardrules.errors.BoardDataError` naming
it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boardrules.errors import BoardDataError
from boardrules.games.board_files import load_board_spec, shipped_names

BOARDS_DIR = Path(__file__).parent / "boards"
DEFAULT_BOARD = "printed"
NUM_MINES = 8  # one per gold pile (rule 2.5, setup: 二/(五))
MAX_BOARD_FILE_BYTES = 100_000
FIELDS = {"format", "format_version", "game", "name", "title", "provenance", "sources",
          "width", "height", "mines"}


@dataclass(frozen=True)
class Board:
    """A validated Armadora board.  Squares are ``(x, y)``: x = 0 .. width-1 left to
    right (columns ``a``, ``b``, ...), y = 0 .. height-1 from the title edge (rows 1, 2,
    ...)."""

    name: str
    title: str
    provenance: str
    sources: tuple[str, ...]
    width: int
    height: int
    mines: tuple[tuple[int, int], ...]

    @property
    def mine_cells(self) -> tuple[int, ...]:
        """Cell numbers ``y * width + x`` of the mines, in the file's order."""
        return tuple(y * self.width + x for x, y in self.mines)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": "boardrules-board",
            "format_version": 1,
            "game": "armadora",
            "name": self.name,
            "title": self.title,
            "provenance": self.provenance,
            "sources": list(self.sources),
            "width": self.width,
            "height": self.height,
            "mines": [list(m) for m in self.mines],
        }


def shipped_boards() -> list[str]:
    """Names of the boards that come with the library."""
    return shipped_names(BOARDS_DIR)


def load_board(spec: str | os.PathLike[str] | Mapping[str, Any]) -> Board:
    """A board by shipped name, file path, or as a mapping of the file's fields."""
    return load_board_spec(spec, BOARDS_DIR, MAX_BOARD_FILE_BYTES, parse_board)


def _field(data: Mapping[str, Any], key: str, kind: type, where: str) -> Any:
    if key not in data:
        raise BoardDataError(f"{where}: missing field {key!r}")
    value = data[key]
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise BoardDataError(f"{where}: field {key!r} must be an integer")
    if not isinstance(value, kind):
        raise BoardDataError(f"{where}: field {key!r} must be of type {kind.__name__}")
    return value


def parse_board(data: Mapping[str, Any], where: str) -> Board:
    """Validate the fields of a board file (see ``docs/armadora.rst``, Boards)."""
    unknown = set(data) - FIELDS
    if unknown:
        raise BoardDataError(f"{where}: unknown field(s) {sorted(unknown)}")
    if _field(data, "format", str, where) != "boardrules-board":
        raise BoardDataError(f"{where}: field 'format' must be 'boardrules-board'")
    if _field(data, "format_version", int, where) != 1:
        raise BoardDataError(f"{where}: field 'format_version' must be 1")
    if _field(data, "game", str, where) != "armadora":
        raise BoardDataError(f"{where}: field 'game' must be 'armadora'")
    name = _field(data, "name", str, where)
    if not name or len(name) > 64:
        raise BoardDataError(f"{where}: field 'name' must be 1 to 64 characters")
    title = _field(data, "title", str, where)
    provenance = _field(data, "provenance", str, where)
    if provenance not in ("published", "reconstructed", "user"):
        raise BoardDataError(
            f"{where}: field 'provenance' must be 'published', 'reconstructed' or 'user'"
        )
    sources = _field(data, "sources", list, where)
    if not all(isinstance(s, str) for s in sources):
        raise BoardDataError(f"{where}: field 'sources' must be a list of strings")
    width = _field(data, "width", int, where)
    height = _field(data, "height", int, where)
    if not 2 <= width <= 8:
        raise BoardDataError(f"{where}: field 'width' must be 2 to 8 (columns a-h)")
    if not 2 <= height <= 8:
        raise BoardDataError(f"{where}: field 'height' must be 2 to 8")
    mines_raw = _field(data, "mines", list, where)
    if len(mines_raw) != NUM_MINES:
        raise BoardDataError(
            f"{where}: field 'mines' must list {NUM_MINES} squares, one per gold pile")
    mines: list[tuple[int, int]] = []
    for i, m in enumerate(mines_raw):
        if (not isinstance(m, list) or len(m) != 2
                or any(isinstance(v, bool) or not isinstance(v, int) for v in m)):
            raise BoardDataError(f"{where}: field 'mines[{i}]' must be [x, y] integers")
        x, y = m
        if not (0 <= x < width and 0 <= y < height):
            raise BoardDataError(
                f"{where}: field 'mines[{i}]' = {m} is off the {width}x{height} board")
        if (x, y) in mines:
            raise BoardDataError(f"{where}: field 'mines[{i}]' = {m} repeats a mine")
        mines.append((x, y))
    if width * height - NUM_MINES < 2:
        raise BoardDataError(f"{where}: the board needs squares besides its mines")
    return Board(name, title, provenance, tuple(sources), width, height, tuple(mines))
