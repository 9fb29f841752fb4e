"""``boardrules demo``: a full game of each implemented game (or of one, ``--game``) between
bots, every move printed, then the final board, the score and the outcome."""

from __future__ import annotations

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


def demo(seed: int, game: str | None = None, records: str | None = None) -> int:
    """Every demo game (or those of ``game``), each printed as it ends; with ``records``,
    each game's whole record written there as ``demo-N-GAME.txt`` (the text form)."""
    from pathlib import Path

    from boardrules.records import game_record, record_to_text

    chosen = [(g, o) for g, o in DEMO_GAMES if game in (None, g)]
    folder = Path(records) if records else None
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
    for i, (game_id, options) in enumerate(chosen):
        lines: list[str] = []
        state = play_demo_game(game_id, options, seed + i, lines)
        print("\n".join(lines) + "\n", flush=True)
        if folder is not None:
            bots = [f"ismcts:iterations={BOT_ITERATIONS}"] * state.game.num_players
            record = game_record(state, players=bots, seed=seed + i)
            (folder / f"demo-{i + 1}-{game_id}.txt").write_text(record_to_text(record))
    return 0


def add_parser(sub: Any) -> None:
    p = sub.add_parser("demo", help="play a full game of each implemented game between bots",
                       description=__doc__)
    p.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    p.add_argument("--game", choices=sorted({g for g, _ in DEMO_GAMES}), default=None,
                   help="play only this game's demo set-ups (default: every game)")
    p.add_argument("--records", metavar="DIR", default=None,
                   help="write each game's record there (the text form of docs/records)")
    p.set_defaults(run=lambda args: demo(args.seed, args.game, args.records))


