"""Self-play data, written and read back: what a training loop gets from it.

    python examples/read_selfplay.py [PATH]

Plays 20 games of tic-tac-toe with MCTS in both seats, writes them to PATH (default: a
temporary ``.npz``; a ``.parquet`` needs pyarrow) and reads the arrays back.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import numpy as np

import boardrules
from boardrules.selfplay import generate, read, read_meta


def show(path: Path) -> None:
    result = generate("tic_tac_toe", "mcts:iterations=100", games=20, path=path,
                      seed=0, processes=1)
    print(f"{result.games} games, {result.decisions} decisions in {path.name}")

    data = read(path)            # one row per decision, the same from .npz or .parquet
    for name, array in data.items():
        print(f"  {name:<12} {array.dtype!s:<8} {array.shape}")

    # the settings travel with the rows: the observation's fields, by name
    meta = read_meta(path)
    game = boardrules.load(meta["game"], **meta["options"])
    first = game.observation_layout.split(data["observation"][0])
    print(f"{meta['bot']} on {meta['game']}; the first row's to_move: "
          f"{first['to_move'].tolist()}")

    # the targets of a policy-value network: the search's visits and the final result
    x, pi, z = data["observation"], data["policy"], data["value"]
    legal = data["action_mask"].astype(bool)
    assert np.allclose(pi.sum(axis=1), 1.0) and not pi[~legal].any()
    game_0 = data["game"] == 0
    print("game 0:", [str(game.move(a)) for a in data["action"][game_0].tolist()],
          "returns", data["returns"][game_0][0].tolist())
    print(f"x {x.shape}, pi {pi.shape}, z {z.shape}; "
          f"mean z of the first mover {z[data['player'] == 0].mean():+.2f}")


def main(argv: list[str]) -> None:
    if len(argv) > 1:
        show(Path(argv[1]))
        return
    with tempfile.TemporaryDirectory() as folder:
        show(Path(folder) / "tic_tac_toe.npz")


if __name__ == "__main__":
    main(sys.argv)
