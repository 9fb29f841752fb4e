"""Rome & Carthage battles: how well one side lays his cards, decoupled ISMCTS against
plain SO-ISMCTS, against the same opponent.

    python benchmarks/run_battles.py [--battles 300] [--iterations 2000] [--seed 1]
    python benchmarks/run_battles.py --side defender     # the defender's cards instead

A whole-game match (``run_simultaneous.py``) mixes a few battle decisions into hundreds of
moves; this isolates them.  Battle positions are collected from seeded random games (the
moment an attacker is to lay his first cards).  From each position the battle is fought
twice, to its end: once with the measured side (``--side``, the attacker by default)
searching ``simultaneous="decoupled"``, once ``"sequential"``; the other side searches
with decoupled ISMCTS in both, with the same seeds.  (A decoupled defender searches his
answer from the attacker's commit taken back; a sequential one answers commits redrawn at
random.)  A battle scores 1 for the attacker if he wins it, 0.5 if it ends in his retreat
(two zero totals, a withdrawal) and 0 if he loses it -- for the defender's side, lower is
better.  Printed: each mode's mean score, and the paired difference with a 95% interval
(normal approximation).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Sequence

import boardrules
from boardrules import CHANCE
from boardrules.games.rome_and_carthage import RomeCarthageState
from boardrules.search import suggest


def battle_positions(count: int, seed: int) -> list[RomeCarthageState]:
    """Positions where an attacker is about to lay his first cards, from random games."""
    game = boardrules.load("rome_and_carthage", players=2)
    rng = random.Random(seed)
    out: list[RomeCarthageState] = []
    while len(out) < count:
        state = game.new_game(seed=rng.randrange(2**32))
        while not state.is_terminal() and len(out) < count:
            battle = state.view(None)["battle"]
            if (state.phase == "commit" and battle["to_play"] == "attacker"
                    and battle["round"] == "full" and rng.random() < 0.3):
                out.append(state.copy())
            state.apply(rng.choice(state.legal_moves()))
    return out


def fight(state: RomeCarthageState, mode: str, iterations: int, seed: int,
          side: str = "attacker") -> float:
    """The battle of ``state`` fought to its end; the attacker's score."""
    state = state.copy()
    battle = state.view(None)["battle"]
    city, attacker, defender = battle["city"], battle["attacker"], battle["defender"]
    armies_before = state.armies()[attacker]
    step = 0
    while state.phase in ("commit", "spy") and state.view(None)["battle"]["city"] == city:
        player = state.current_player
        assert player != CHANCE
        own = mode if player == (attacker if side == "attacker" else defender) else "decoupled"
        move = suggest(state, algorithm="ismcts", iterations=iterations,
                       seed=seed * 1000 + step, simultaneous=own, threads=1).move
        state.apply(move)
        step += 1
    entry = next(c for c in state.view(None)["cities"] if c["city"] == city)
    if entry["army"] is not None and entry["army"]["player"] == attacker:
        return 1.0
    return 0.5 if state.armies()[attacker] == armies_before else 0.0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--battles", type=int, default=300)
    parser.add_argument("--iterations", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--side", choices=("attacker", "defender"), default="attacker",
                        help="whose search varies (the other searches decoupled)")
    args = parser.parse_args(argv)
    positions = battle_positions(args.battles, args.seed)
    scores = {mode: [fight(s, mode, args.iterations, i, args.side)
                     for i, s in enumerate(positions)]
              for mode in ("decoupled", "sequential")}
    diffs = [a - b for a, b in zip(scores["decoupled"], scores["sequential"], strict=True)]
    mean = sum(diffs) / len(diffs)
    var = sum((d - mean) ** 2 for d in diffs) / max(1, len(diffs) - 1)
    half = 1.96 * math.sqrt(var / len(diffs))
    for mode, values in scores.items():
        print(f"{args.side} {mode:10}: the attacker's mean battle score "
              f"{sum(values) / len(values):.3f} over {len(values)} battles")
    print(f"{args.side} decoupled - sequential: {mean:+.3f} (95% interval "
          f"{mean - half:+.3f} to {mean + half:+.3f}); {args.iterations} iterations a "
          "decision")
    return 0


if __name__ == "__main__":
    sys.exit(main())
