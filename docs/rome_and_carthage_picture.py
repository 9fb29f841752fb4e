"""Draw docs/_static/rome_and_carthage_position.svg: a 4-player game (seed 3) between
ISMCTS bots (200 iterations), stopped at the first battle from round 5 on, while it waits
for the defender's cards, drawn as a spectator sees it.  Run from the repository root:
``python docs/rome_and_carthage_picture.py``."""

from pathlib import Path

import boardrules
from boardrules.search import ISMCTSBot

game = boardrules.load("rome_and_carthage", players=4)
state = game.new_game(seed=3)  # the draws come from the seed
bots = [ISMCTSBot(iterations=200, seed=p) for p in range(game.num_players)]
while not state.is_terminal():
    player = state.current_player
    state.apply(bots[player].choose(state), player=player)
    battle = state.view(None)["battle"]
    if state.view(None)["round"] >= 5 and battle and battle["to_play"] == "defender":
        break  # the attacker's two cards lie face down

svg = state.render_svg(None)  # a spectator's view: hands and face-down cards hidden
Path("docs/_static/rome_and_carthage_position.svg").write_text(svg + "\n", encoding="utf-8")
print(" ".join(text for _, text in state.history_view(None)))
