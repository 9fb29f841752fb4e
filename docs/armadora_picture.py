"""Draw docs/_static/armadora_position.svg: 30 moves of a 2-player advanced game (seed 3)
between greedy bots, drawn as the whole truth.  Run from the repository root:
``python docs/armadora_picture.py``."""

from pathlib import Path

import boardrules
from boardrules.search import GreedyBot

game = boardrules.load("armadora", players=2, variant="advanced")
state = game.new_game(seed=3)  # gold piles and races drawn from the seed
bots = [GreedyBot(seed=p) for p in range(game.num_players)]
for _ in range(30):  # 30 player moves (the setup's chance events are drawn automatically)
    if state.is_terminal():
        break
    player = state.current_player
    state.apply(bots[player].choose(state), player=player)

svg = state.render_svg_truth()  # every strength shown; render_svg(p) draws p's view
Path("docs/_static/armadora_position.svg").write_text(svg + "\n", encoding="utf-8")
print(" ".join(str(m) for m in state.history))
