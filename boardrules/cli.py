"""Command line: ``python -m boardrules demo`` plays full games between bots."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

import boardrules
from boardrules.api import CHANCE, State
from boardrules.games import as_game_id
from boardrules.games.armadora import ArmadoraState
from boardrules.search import ISMCTSBot, suggest

#: The games the demo plays: (game id, options) -- every implemented game, with its
#: smallest and its richest set-up.
DEMO_GAMES: list[tuple[str, dict[str, object]]] = [
    ("armadora", {"players": 2, "variant": "basic"}),
    ("armadora", {"players": 4, "variant": "advanced"}),
    ("connect_four", {}),
    ("pig", {}),
    ("tic_tac_toe", {}),
    ("rome_and_carthage", {"players": 2}),
    ("albion", {"players": 2}),
    ("armada", {"players": 2}),
]
#: Simulations per move of the demo's bots (ISMCTS: they never read hidden information).
#: 300 simulations spread over some 200-300 opening moves leave most of them untried, and
#: a 4-player Armadora bot then sometimes passed on its very first move: 5 of 80 first
#: moves (20 seeds); over 60 seeds a first move passed at 400 and 500 (seed 59), none at
#: 600 or 700, and in whole games at 700 no bot passed with half its warriors unplaced.
BOT_ITERATIONS = 700
SUGGESTION_ITERATIONS = 3000


def demo_bots(players: int, seed: int) -> list[ISMCTSBot]:
    """The demo's bots for a game played with ``seed``, one per player."""
    return [ISMCTSBot(iterations=BOT_ITERATIONS, seed=seed * 10 + p) for p in range(players)]


def play_demo_game(game_id: str, options: dict[str, object], seed: int,
                   out: list[str]) -> State[Any]:
    """One full game between search bots, every move written to ``out`` (with the chance
    outcomes that followed it, such as pig's dice), then the final board as text and the
    result (for Armadora where the gold lay and who took it)."""
    game = boardrules.load(as_game_id(game_id), **options)
    state = game.new_game(seed=seed)
    bots = demo_bots(game.num_players, seed)
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
        before = len(state.history)
        state.apply(move, player=player)
        turn += 1
        chance = " ".join(str(m) for m in state.history[before + 1:])
        out.append(f"{turn:4d}. player {player}: {move}" + (f" -> {chance}" if chance else ""))
    outcome = state.outcome()
    assert outcome is not None
    out.append("final board:")
    out.extend("  " + line for line in str(state).splitlines())
    if isinstance(state, ArmadoraState):
        out.extend(_gold_lines(state))
    out.append(f"score per player: {list(outcome.scores)}")
    out.append(f"team scores: {list(outcome.team_scores)} (teams {list(game.teams)})")
    out.append(f"outcome: winners {list(outcome.winners)}, places {list(outcome.ranking)}, "
               f"reason {outcome.reason.value}")
    return state


def _gold_lines(state: ArmadoraState) -> list[str]:
    """Where the gold lay: each territory with gold, its mines, each player's strength
    there (the warriors are revealed at the end, rule 5) and who took the gold."""
    lines = ["gold by territory (warriors revealed, rule 5: strength per player):"]
    for territory in state.gold_by_territory():
        if not territory["gold"]:
            continue
        squares = territory["squares"]
        mines = ", ".join(f"{sq} {gold}" for sq, gold in territory["mines"].items())
        strength = " ".join(f"{p}:{v}" for p, v in enumerate(territory["strength"]))
        takers = [f"player {p} takes {share}"
                  for p, share in enumerate(territory["share"]) if share]
        lost = territory["gold"] - sum(territory["share"])
        result = ", ".join(takers) if takers else "nobody takes it"
        if takers and lost:
            result += f" ({lost} lost in the tie)"
        lines.append(f"  {len(squares)} squares from {squares[0]}: mines {mines} "
                     f"= {territory['gold']} gold; strength {strength}; {result}")
    return lines


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
