"""What the observation tensor costs a game's random playouts, per example option set;
prints the reStructuredText table of the game's page ("Observation tensor", "Cost").

    python benchmarks/run_observation_cost.py armada
    python benchmarks/run_observation_cost.py rome_and_carthage --seconds 0.5 --rounds 3

For each of the game's ``example_options``: ``core.random_playouts(n, seed)`` beside
``core.observed_playouts(n, seed)`` (the same games, the mover's tensor written before
each decision), ``n`` chosen from a first timing for about ``--seconds`` CPU seconds of
plain play.  Rates are per CPU second of this process (``time.process_time``; the
playouts run on one thread), the two sides timed in interleaved rounds (``--rounds``;
:mod:`interleave`): each figure is the median over the rounds with the lowest and highest
round; the ratio and the microseconds a tensor (the CPU time observing added, over the
tensors written) are taken round by round.
"""

from __future__ import annotations

import argparse
import os
import sys
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from bench_tables import machine_summary, print_table
from interleave import Rate, Spread, cpu_timed, interleaved

import boardrules
from boardrules.games import as_game_id

SEED = 20_261_203


def _label(options: dict[str, Any]) -> str:
    return ", ".join(f"{key}={value}" for key, value in options.items())


def _games_for(core: Any, seconds: float) -> int:
    """The number of games whose plain playouts take about ``seconds`` CPU seconds."""
    games = 100
    while True:
        rate = _plain(core, games)
        if rate.cpu_seconds >= 0.1:
            return max(1, round(games * seconds / rate.cpu_seconds))
        games *= 4


def _plain(core: Any, games: int) -> Rate:
    return cpu_timed(lambda: int(core.random_playouts(games, SEED)))


def _observed(core: Any, games: int) -> Rate:
    """The actions of the observed playouts (their tensors are counted apart)."""
    return cpu_timed(lambda: int(core.observed_playouts(games, SEED)[0]))


def option_set_row(game_id: str, options: dict[str, Any], seconds: float,
                   rounds: int) -> list[str]:
    game = boardrules.load(as_game_id(game_id), **options)
    core = game.core
    games = _games_for(core, seconds)
    tensors = int(core.observed_playouts(games, SEED)[1])
    r = interleaved({
        "plain": partial(_plain, core, games),
        "observed": partial(_observed, core, games),
    }, rounds, progress=True)
    pairs: list[tuple[Rate, Rate]] = list(zip(r.timings["plain"], r.timings["observed"],
                                              strict=True))
    micros = Spread.of([(o.cpu_seconds - p.cpu_seconds) / tensors * 1e6 for p, o in pairs])
    million = 1e-6
    plain, observed = r.rate("plain"), r.rate("observed")
    ratio = r.ratio("observed", "plain")
    return [_label(options), f"{game.observation_layout.size:,}", f"{games:,}",
            f"{plain.median * million:.2f} ({plain.low * million:.2f}-"
            f"{plain.high * million:.2f})",
            f"{observed.median * million:.2f} ({observed.low * million:.2f}-"
            f"{observed.high * million:.2f})",
            f"{ratio.median:.2f} ({ratio.low:.2f}-{ratio.high:.2f})",
            f"{micros.median:.2f} ({micros.low:.2f}-{micros.high:.2f})"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--seconds", type=float, default=0.5,
                        help="CPU seconds of plain play a run (default 0.5)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    example_options = boardrules.load(as_game_id(args.game)).example_options
    rows = []
    for options in example_options:
        print(f"{args.game}: {_label(options)}", file=sys.stderr, flush=True)
        rows.append(option_set_row(args.game, options, args.seconds, args.rounds))
    print_table(["example options", "floats", "games", "plain M actions/CPU s",
                 "observed M actions/CPU s", "ratio", "CPU us a tensor"], rows)
    print()
    print(machine_summary(load_before, f"{args.rounds} interleaved rounds; CPU time"))


if __name__ == "__main__":
    main()
