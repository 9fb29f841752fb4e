"""Draw docs/_static/albion_board.svg: the reconstructed Albion board with a 3-player
position on it.  Run from the repository root: ``python docs/albion_picture.py [PATH]``.

The game facade does not exist yet, so :func:`example_view` builds the view by hand from
the board, in ``State.view`` format (see ``albion_spec.md``); :func:`picture` draws any
view, so this script can switch to a real state's ``state.view(None)`` later.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from boardrules.games.albion.board import RESOURCES, Board, load_board
from boardrules.games.albion.render import render_svg

PLAYERS = 3


def _building(player: int, kind: str, stage: int, face_down: bool = False) -> dict[str, Any]:
    return {"player": player, "type": kind, "stage": stage, "face_down": face_down}


def example_view(board: Board) -> dict[str, Any]:
    """A made-up round-6 position: the starting fortresses, plants in the fish and wood
    regions, a few settlements and ramparts, some Picts turned over, a build under way."""
    picts = board.picts_for(PLAYERS)
    start_a, start_b = (board.regions[i].key for i in board.starts)
    fish, wood = (board.regions[board.resource_region(r)].key for r in ("fish", "wood"))
    buildings: dict[str, list[dict[str, Any]]] = {
        start_a: [_building(0, "fortress", 2), _building(2, "fortress", 1)],
        start_b: [_building(1, "fortress", 1)],
        fish: [_building(p, "plant", 2 if p == 0 else 1) for p in range(PLAYERS)],
        wood: [_building(p, "plant", 1) for p in range(PLAYERS)],
        "dobunni": [_building(0, "settlement", 2), _building(1, "rampart", 1)],
        "coritani": [_building(1, "settlement", 1), _building(2, "rampart", 2)],
        "catuvellauni": [_building(2, "settlement", 2, face_down=True)],
    }
    settlers = {board.regions[board.launch].key: [2, 1, 2], "brigantes": [1, 0, 0],
                "catuvellauni": [0, 0, 1], "cornovii": [0, 1, 0]}
    legions = {"dobunni": [1, 0, 0], "catuvellauni": [0, 0, 1]}
    revealed = {"dobunni": 1}  # face-up assault Picts
    regions = []
    for i, r in enumerate(board.regions):
        face_down = picts[i] - revealed.get(r.key, 0)
        regions.append({
            "region": r.key, "kind": r.kind, "face_down": face_down,
            "assault": revealed.get(r.key, 0), "printed_assault": r.printed_assault,
            "laurel": r.laurel, "buildings": buildings.get(r.key, []),
            "settlers": settlers.get(r.key, [0] * PLAYERS),
            "legions": legions.get(r.key, [0] * PLAYERS)})
    players = [{
        "player": p, "resources": dict(zip(RESOURCES, ([2, 3, 1, 0], [1, 0, 2, 1],
                                                       [3, 1, 0, 0])[p], strict=True)),
        "movement": (3, 2, 2)[p], "settlers_in_supply": (1, 2, 1)[p],
        "legions_in_supply": (2, 3, 2)[p], "defence": (0, 1, 2)[p],
        "production": dict(zip(RESOURCES, ((2, 1, 0, 0), (1, 1, 0, 0), (1, 1, 0, 0))[p],
                               strict=True)),
        "stage4": 0, "start_player": p == 0} for p in range(PLAYERS)]
    return {
        "game": "albion", "options": {"players": PLAYERS}, "viewer": None,
        "phase": "building", "current_player": 2, "turn_player": 2, "start_player": 0,
        "round": 6, "max_rounds": 100, "regions": regions, "players": players,
        "supply": {"fish": 14, "wood": 13, "stone": 17, "gold": 17},
        "neutral_markers": 20,
        "picts": {"unrevealed": sum(reg["face_down"] for reg in regions),
                  "assault_unrevealed": 13, "peace_unrevealed": 13, "in_box": 2},
        "points_left": 0, "build": {"region": "catuvellauni", "type": "settlement",
                                    "stage": 2, "step": "pict"},
        "end_triggered": False, "winners": None, "end_reason": None, "legal_moves": [],
    }


def picture(view: dict[str, Any], board: Board) -> str:
    """The SVG of ``view`` on ``board``, as the docs show it."""
    return render_svg(view, board, size=900)


def main(path: str = "docs/_static/albion_board.svg") -> None:
    board = load_board("albion")
    Path(path).write_text(picture(example_view(board), board) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(*sys.argv[1:2])
