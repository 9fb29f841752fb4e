"""Connect Four's position format (docs/connect_four.rst, "Position format"): a header
line and the board, the top row first, ``X`` (player 0), ``O`` (player 1) or ``.`` per
cell, columns ``a`` to ``g`` left to right::

    Connect Four position
    .......
    .......
    .......
    .......
    ...O...
    ...X...

Everything else follows from the discs (the heights, the player to move, the move count,
the winner and his four); the core's ``load`` checks that play can reach them.
"""

from __future__ import annotations

from typing import Any

from boardrules.errors import InvalidPositionError
from boardrules.games.tic_tac_toe.position import board_lines

HEADER = "Connect Four position"
COLUMNS, ROWS, STRIDE = 7, 6, 7
SYMBOLS = {"x": 0, "o": 1, ".": -1}


def position_text(raw: dict[str, Any]) -> str:
    """The canonical text of the position ``raw`` (the core's export)."""
    rows = ["".join("XO"[o] if o >= 0 else "." for o in row) for row in reversed(raw["board"])]
    return "\n".join([HEADER, *rows]) + "\n"


def position_raw(text: str) -> dict[str, Any]:
    """Parse position text into the core's export form (InvalidPositionError naming the
    field); the counters are derived here and checked by the core (gravity, turn order,
    the winner's last disc)."""
    grid = board_lines(text, HEADER, ROWS)
    board: list[list[int]] = []
    for r, row in enumerate(reversed(grid)):
        if len(row) != COLUMNS or any(ch not in SYMBOLS for ch in row):
            raise InvalidPositionError(f"row {r + 1}", f"7 cells, each X, O or ., not "
                                       f"{row[:10]!r}")
        board.append([SYMBOLS[ch] for ch in row])
    discs = [sum(1 << (STRIDE * c + r) for r in range(ROWS) for c in range(COLUMNS)
                 if board[r][c] == p) for p in range(2)]
    height = [sum(1 for r in range(ROWS) if board[r][c] >= 0) for c in range(COLUMNS)]
    count = sum(height)
    winner, line = _four(board)
    return {"discs": discs, "height": height, "board": board, "current": count % 2,
            "move_count": count, "winner": winner, "line": line}


def _four(board: list[list[int]]) -> tuple[int, list[tuple[int, int]]]:
    """The player with four in a row and its cells (column, row), for the core to check."""
    cells: dict[int, set[tuple[int, int]]] = {0: set(), 1: set()}
    for c in range(COLUMNS):
        for r in range(ROWS):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                run = [(c + k * dc, r + k * dr) for k in range(4)]
                if all(0 <= x < COLUMNS and 0 <= y < ROWS for x, y in run):
                    owners = {board[y][x] for x, y in run}
                    if len(owners) == 1 and (p := owners.pop()) >= 0:
                        cells[p].update(run)
    winners = [p for p in range(2) if cells[p]]
    if len(winners) != 1:
        return -1, []
    return winners[0], sorted(cells[winners[0]])
