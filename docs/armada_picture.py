"""Draw docs/_static/armada_position.svg: a 4-player Armada game between greedy bots,
stopped at the start of a turn in round 8, drawn as a spectator sees it, the
territories named as the board file names them (not by their keys).  Run from the
repository root: ``python docs/armada_picture.py [PATH]``.

The bots are seeded, so the picture is the same on every run.
"""

from __future__ import annotations

import sys
from pathlib import Path

import boardrules
from boardrules.games.armada import ArmadaState
from boardrules.games.armada.render import render_svg
from boardrules.search import GreedyBot

PLAYERS = 4
ROUND = 8


def position() -> ArmadaState:
    """The game, played by the bots until a turn starts in round ``ROUND`` (no
    sub-decision under way: the legend names none)."""
    game = boardrules.load("armada", players=PLAYERS)
    state = game.new_game(seed=5)
    bots = [GreedyBot(seed=p) for p in range(PLAYERS)]
    while not state.is_terminal():
        view = state.view(None)
        if view["round"] >= ROUND and view["phase"] == "turn" and view["pending"] is None \
                and view["actions_left"] == 3:
            break
        player = state.current_player
        state.apply(bots[player].choose(state), player=player)
    return state


def main(path: str = "docs/_static/armada_position.svg") -> None:
    state = position()
    # labels="names": what a reader understands; state.render_svg(None) writes the keys
    # the notation uses (gn1, s_c1) instead
    svg = render_svg(state.view(None), state.game.board, size=900, labels="names")
    Path(path).write_text(svg + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(*sys.argv[1:2])
