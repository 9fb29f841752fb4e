"""Command line: ``python -m boardrules demo`` plays full games between bots."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

import boardrules
from boardrules.api import CHANCE, State
from boardrules.search import ISMCTSBot, suggest

#: The games the demo plays: (game id, options) -- every implemented game, with its
#: smallest and its richest set-up.
DEMO_GAMES: list[tuple[str, dict[str, object]]] = [
    ("armadora", {"players": 2, "variant": "basic"}),
    ("armadora", {"players": 4, "variant": "advanced"}),
    ("connect_four", {}),
    ("pig", {}),
    ("tic_tac_toe", {}),
]
#: Simulations per move of the demo's bots (ISMCTS: they never read hidden information).
BOT_ITERATIONS = 300
SUGGESTION_ITERATIONS = 3000


def play_demo_game(game_id: str, options: dict[str, object], seed: int,
                   out: list[str]) -> State[Any]:
    """One full game between search bots, every move written to ``out``."""
    game = boardrules.load(game_id, **options)
    state = game.new_game(seed=seed)
    bots = [ISMCTSBot(iterations=BOT_ITERATIONS, seed=seed * 10 + p)
            for p in range(game.num_players)]
    opts = ", ".join(f"{k}={v}" for k, v in game.options.items())
    out.append(f"== {game.name} ({opts}), seed {seed} ==")
    out.append("setup: " + " ".join(str(m) for m in state.history))
    hint = suggest(state, iterations=SUGGESTION_ITERATIONS, seed=seed)
    best = ", ".join(f"{m} ({v:+.2f}, {n} visits)" for m, v, n in hint.ranked[:3])
    out.append(f"suggestion for player {state.current_player} "
               f"({hint.stats['algorithm']}, {hint.stats['iterations']} iterations): "
               f"{hint.move}; best three: {best}")
    turn = 0
    while not state.is_terminal():
        player = state.current_player
        if player == CHANCE:
            out.append(f"   chance: {state.apply_random_chance()}")
            continue
        move = bots[player].choose(state)
        state.apply(move, player=player)
        turn += 1
        out.append(f"{turn:4d}. player {player}: {move}")
    outcome = state.outcome()
    assert outcome is not None
    out.append(f"score per player: {list(outcome.scores)}")
    out.append(f"team scores: {list(outcome.team_scores)} (teams {list(game.teams)})")
    out.append(f"outcome: winners {list(outcome.winners)}, places {list(outcome.ranking)}, "
               f"reason {outcome.reason.value}")
    return state


def demo(seed: int) -> int:
    lines: list[str] = []
    for i, (game_id, options) in enumerate(DEMO_GAMES):
        play_demo_game(game_id, options, seed + i, lines)
        lines.append("")
    print("\n".join(lines))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m boardrules", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p_demo = sub.add_parser("demo", help="play a full game of each implemented game between bots")
    p_demo.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    sub.add_parser("games", help="list the available games")
    p_match = sub.add_parser(
        "match", help="play a match between bots and print each bot's score",
        description="Play GAMES games between the bots, seats rotated (see the arena docs). "
                    "A bot is a spec: random, greedy, mcts:iterations=1000, "
                    "ismcts:iterations=2000,threads=1, alphabeta:depth=3, mcts:time_limit=0.5")
    p_match.add_argument("game", metavar="GAME", help="a game id (see the games command)")
    p_match.add_argument("bots", nargs="+", metavar="BOT", help="two or more bot specs")
    p_match.add_argument("--games", type=int, default=100, metavar="N",
                         help="games to play (default 100)")
    p_match.add_argument("--seed", type=int, default=0, metavar="S",
                         help="the match seed (default 0)")
    p_match.add_argument("--processes", type=int, default=None, metavar="P",
                         help="worker processes (default: every core; 1 plays in-process)")
    p_match.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                         help="a game option, e.g. --option players=4 (repeatable)")
    p_match.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)
    if args.command == "games":
        print("\n".join(boardrules.available_games()))
        return 0
    if args.command == "match":
        return match(args)
    return demo(args.seed)


def match(args: argparse.Namespace) -> int:
    """The ``match`` command: :func:`boardrules.arena.play_match`, printed as a table or
    JSON (exit status 2 and the reason on a bad game, option or bot)."""
    import sys

    from boardrules import arena

    try:
        result = arena.play_match(args.game, args.bots, games=args.games, seed=args.seed,
                                  processes=args.processes,
                                  options=arena.parse_options(args.option))
    except (ValueError, TypeError, LookupError) as exc:
        print(f"python -m boardrules match: error: {exc}", file=sys.stderr)
        return 2
    print(result.to_json() if args.json else result.table())
    return 0
