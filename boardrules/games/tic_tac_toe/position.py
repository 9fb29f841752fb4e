"""Tic-tac-toe's position format (docs/tic_tac_toe.rst, "Position format"): a header line
and the board, row 1 (the top) first, ``X``, ``O`` or ``.`` per square::

    Tic-tac-toe position
    X.O
    .X.
    ...

Everything else follows from the marks (the player to move, the move count, the winner
and his line); the core's ``load`` checks that play can reach them.
"""

from __future__ import annotations

from typing import Any

from boardrules.errors import InvalidPositionError

HEADER = "Tic-tac-toe position"
SIZE = 3
SYMBOLS = {"x": 0, "o": 1, ".": -1}


def position_text(raw: dict[str, Any]) -> str:
    """The canonical text of the position ``raw`` (the core's export)."""
    board = raw["board"]
    rows = ["".join("XO"[o] if o >= 0 else "." for o in board[r * SIZE:(r + 1) * SIZE])
            for r in range(SIZE)]
    return "\n".join([HEADER, *rows]) + "\n"


def board_lines(text: str, header: str, rows: int) -> list[str]:
    """The board's lines of a grid position: the header first, then ``rows`` lines with
    the spaces removed (blank lines and ``#`` comments ignored)."""
    lines = [line.strip() for line in text.splitlines()]
    lines = [line for line in lines if line and not line.startswith("#")]
    if not lines or " ".join(lines[0].lower().split()) != header.lower():
        raise InvalidPositionError("", f"a position starts with the line {header!r}")
    grid = ["".join(line.split()).lower() for line in lines[1:]]
    if len(grid) != rows:
        raise InvalidPositionError("board", f"{rows} rows, not {len(grid)}")
    return grid


def position_raw(text: str) -> dict[str, Any]:
    """Parse position text into the core's export form (InvalidPositionError naming the
    field); the counters are derived here and checked by the core."""
    grid = board_lines(text, HEADER, SIZE)
    board: list[int] = []
    for r, row in enumerate(grid):
        if len(row) != SIZE or any(ch not in SYMBOLS for ch in row):
            raise InvalidPositionError(f"row {r + 1}", f"3 squares, each X, O or ., not "
                                       f"{row[:10]!r}")
        board.extend(SYMBOLS[ch] for ch in row)
    marks = [sum(1 << c for c, o in enumerate(board) if o == p) for p in range(2)]
    count = sum(1 for o in board if o >= 0)
    return {"marks": marks, "board": board, "current": count % 2, "move_count": count,
            "winner": _winner(board), "line": _line(board)}


LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8),
         (2, 4, 6))


def _winner(board: list[int]) -> int:
    """The player with a line, for the core to check (-1: none; both: the core says)."""
    owners = {board[a] for a, b, c in LINES if board[a] >= 0 and board[a] == board[b] == board[c]}
    return owners.pop() if len(owners) == 1 else -1


def _line(board: list[int]) -> list[int]:
    winner = _winner(board)
    return sorted({c for line in LINES for c in line
                   if winner >= 0 and all(board[k] == winner for k in line)})
