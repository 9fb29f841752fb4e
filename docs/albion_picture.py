"""Draw docs/_static/albion_position.svg: a 3-player Albion game between MCTS bots on the
reconstructed board, stopped in round 9 while a building is being paid for (its stage
lies face down).  Run from the repository root: ``python docs/albion_picture.py [PATH]``.

An iteration budget without a time limit makes the bots deterministic for their seeds,
so the picture is the same on every run.
"""

from __future__ import annotations

import sys
from pathlib import Path

import boardrules
from boardrules.games.albion import AlbionState
from boardrules.search import MCTSBot

PLAYERS = 3
ROUND = 9


def position() -> AlbionState:
    """The game, played by the bots until a payment is due in round ``ROUND``."""
    game = boardrules.load("albion", players=PLAYERS)
    state = game.new_game(seed=3)
    bots = [MCTSBot(iterations=500, seed=p) for p in range(PLAYERS)]
    while not state.is_terminal():
        if state.view(None)["round"] >= ROUND and state.phase in ("pay", "tribute"):
            break
        player = state.current_player
        state.apply(bots[player].choose(state), player=player)
    return state


def main(path: str = "docs/_static/albion_position.svg") -> None:
    state = position()
    Path(path).write_text(state.render_svg(None, size=900) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(*sys.argv[1:2])
