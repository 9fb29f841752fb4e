"""``boardrules play``: a game in the terminal, people and bots in any seats.

A person types moves in the game's notation (Tab completes what is legal), or a command:
``moves``, ``hint``, ``undo``, ``board``, ``save FILE``, ``record FILE``, ``help``,
``quit``.  Each person sees only his own view -- with two people at one screen and hidden
information, a "pass the device" screen stands between their turns -- and, before each of
his turns, the moves since his last one and what they caused, in words.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rich.console import Console

from boardrules.api import CHANCE, State
from boardrules.cli._inputs import (
    PLAY_SAVE_FORMAT,
    CommandError,
    load_any,
    load_game,
    parse_options,
    write_record,
    write_text,
)
from boardrules.errors import BoardRulesError
from boardrules.records import describe_event, game_record, result_text
from boardrules.search import suggest
from boardrules.search.bots import Bot

#: The bot a seat gets when ``--seat`` does not name one (ISMCTS: it never reads what its
#: seat may not see; about a second a move on the larger games).
DEFAULT_BOT = "ismcts:iterations=2000"
HINT_ITERATIONS = 3000
HELP = """commands:
  MOVE          play a move in the game's notation (Tab completes the legal ones)
  moves         list the legal moves
  hint          the search's suggestion for you (it reads only what you may see)
  undo          take back your last move (and every move since)
  board         show the board again
  save FILE     save the game (resume it with: boardrules play --resume FILE)
  record FILE   write the game's record (.json, else the text form)
  quit          leave the game"""

Ask = Callable[[str], str]


@dataclass
class Seat:
    """Who plays a seat: a person (``bot`` is None) or a bot built from ``spec``."""

    spec: str
    name: str
    bot: Bot | None = None

    @property
    def human(self) -> bool:
        return self.bot is None


def parse_seats(items: list[str], players: int, seed: int) -> list[Seat]:
    """``--seat P=human`` / ``P=human:NAME`` / ``P=BOTSPEC``; seat 0 is a person and the
    others the default bot unless said otherwise."""
    from boardrules.arena import parse_bot

    specs = ["human"] + [DEFAULT_BOT] * (players - 1)
    given: set[int] = set()
    for item in items:
        number, eq, spec = item.partition("=")
        if not eq or not number.strip().isdigit() or not spec.strip():
            raise CommandError(f"a seat is P=human or P=BOTSPEC, not {item!r}")
        seat = int(number)
        if not 0 <= seat < players:
            raise CommandError(f"seat {seat}: the game's seats are 0 to {players - 1}")
        if seat in given:
            raise CommandError(f"seat {seat} given twice")
        given.add(seat)
        specs[seat] = spec.strip()
    seats = []
    for p, spec in enumerate(specs):
        if spec == "human" or spec.startswith("human:"):
            seats.append(Seat(spec, spec.partition(":")[2] or f"player {p}"))
            continue
        try:
            bot = parse_bot(spec).build(seed * 97 + p)
        except (ValueError, TypeError, LookupError) as exc:
            raise CommandError(f"seat {p}: {exc}") from None
        seats.append(Seat(spec, spec, bot))
    return seats


class PlaySession:
    """One game at the terminal: ``run()`` plays it to its end or until a person quits."""

    def __init__(self, state: State[Any], seats: list[Seat], *, console: Console,
                 ask: Ask, seed: int | None = None, record_path: str | None = None,
                 hint_iterations: int = HINT_ITERATIONS) -> None:
        self.state = state
        self.seats = seats
        self.console = console
        self.ask = ask
        self.seed = seed
        self.record_path = record_path
        self.hint_iterations = hint_iterations
        self.seen = {p: 0 for p, seat in enumerate(seats) if seat.human}
        self.spectator_seen = 0  # with no person at the screen, the moves shown so far
        self.at_screen: int | None = None
        self.quit = False

    # --- the game loop ---

    def run(self) -> int:
        while not self.state.is_terminal() and not self.quit:
            player = self.state.current_player
            if player == CHANCE:  # a game restored without auto_chance
                self.state.apply_random_chance()
            elif self.seats[player].human:
                self.human_turn(player)
            else:
                self.bot_turn(player)
        if self.state.is_terminal():
            self.finish()
        else:
            self.say("game left unfinished (save FILE keeps it to resume)", "yellow")
        if self.record_path:
            self.write_record(self.record_path)
        return 0

    def bot_turn(self, player: int) -> None:
        bot = self.seats[player].bot
        assert bot is not None
        move = bot.choose(self.state)
        self.state.apply(move, player=player)
        if not self.seen:  # nobody at the screen: the moves are shown as they come
            self.show_news(None)

    def human_turn(self, player: int) -> None:
        self.pass_device_to(player)
        self.show_news(player)
        self.show_board(player)
        while not self.quit and self.state.current_player == player:
            line = self.ask(self.prompt(player)).strip()
            if line:
                self.command(player, line)

    def prompt(self, player: int) -> str:
        name = self.seats[player].name
        return f"{name}> " if name == f"player {player}" else f"{name} (player {player})> "

    def pass_device_to(self, player: int) -> None:
        """Between two people's turns in a game with hidden information, a blank screen:
        the next one presses Enter when the other has looked away."""
        shared = sum(seat.human for seat in self.seats) > 1
        if shared and self.state.game.has_hidden_information and self.at_screen != player:
            if self.console.is_terminal:
                self.console.clear()
            self.ask(f"pass the device to {self.seats[player].name} (player {player}) "
                     "and press Enter ")
        self.at_screen = player

    # --- a person's commands ---

    def command(self, player: int, line: str) -> None:
        word, _, rest = line.partition(" ")
        if word == "help":
            self.say(HELP)
        elif word == "moves":
            self.say("legal: " + "  ".join(str(m) for m in self.state.legal_moves()))
        elif word == "board":
            self.show_board(player)
        elif word == "hint":
            self.hint(player)
        elif word == "undo":
            self.undo(player)
        elif word == "save" and rest.strip():
            self.save(rest.strip())
        elif word == "record" and rest.strip():
            self.write_record(rest.strip())
        elif word in ("quit", "exit"):
            self.quit = True
        else:
            self.play(player, line)

    def play(self, player: int, text: str) -> None:
        try:
            self.state.apply(text, player=player)
        except BoardRulesError as exc:
            self.say(f"{exc}", "bold red")
            self.say("type 'moves' for the legal moves, 'help' for the commands", "dim")
            return
        self.seen[player] = len(self.state.history)  # his own move and what it caused
        self.show_events_since(player, len(self.state.history) - 1, own=True)

    def hint(self, player: int) -> None:
        hint = suggest(self.state, player=player, iterations=self.hint_iterations,
                       seed=len(self.state.history))
        ranked = ", ".join(f"{m} ({v:+.2f}, {n} visits)" for m, v, n in hint.ranked[:3])
        self.say(f"hint: {hint.move}  (best three: {ranked})", "green")

    def undo(self, player: int) -> None:
        """Back to this person's last decision: his last move and all since are undone."""
        movers = [mover for mover, _ in self.state.history_view(player)]
        if player not in movers:
            self.say("nothing of yours to undo", "yellow")
            return
        last = len(movers) - 1 - movers[::-1].index(player)
        while len(self.state.history) > last:
            self.state.undo()
        for p in self.seen:
            self.seen[p] = min(self.seen[p], last)
        self.say(f"undone back to your move {last + 1}", "yellow")
        self.show_board(player)

    def save(self, path: str) -> None:
        doc = {"format": PLAY_SAVE_FORMAT, "format_version": 1,
               "seats": [seat.spec for seat in self.seats], "seed": self.seed,
               "save": self.state.to_json()}
        try:
            write_text(path, json.dumps(doc) + "\n")
        except CommandError as exc:
            self.say(str(exc), "bold red")
            return
        self.say(f"saved to {path} (boardrules play --resume {path})", "green")

    def write_record(self, path: str) -> None:
        record = game_record(self.state, players=[seat.spec for seat in self.seats],
                             seed=self.seed)
        try:
            write_record(path, record)
        except CommandError as exc:
            self.say(str(exc), "bold red")
            return
        self.say(f"record written to {path}", "green")

    # --- what is shown ---

    def say(self, text: str, style: str | None = None) -> None:
        self.console.print(text, style=style, markup=False, highlight=False, soft_wrap=True)

    def show_board(self, viewer: int | None) -> None:
        self.console.print(self.state.render_text(viewer), markup=False, highlight=False,
                           soft_wrap=True)

    def show_news(self, viewer: int | None) -> None:
        """The moves since ``viewer`` last looked, as he may see them, with their events."""
        first = self.seen.get(viewer, 0) if viewer is not None else self.spectator_seen
        self.show_events_since(viewer, first)
        if viewer is not None:
            self.seen[viewer] = len(self.state.history)
        else:
            self.spectator_seen = len(self.state.history)

    def show_events_since(self, viewer: int | None, first: int, own: bool = False) -> None:
        log = self.state.history_view(viewer)
        events: dict[int, list[str]] = {}
        for event in self.state._events_from(first, viewer):  # only the new ones
            events.setdefault(event.index, []).append(describe_event(event))
        for index in range(first, len(log)):
            mover, text = log[index]
            if not (own and index == first):
                who = "chance" if mover == CHANCE else self.seats[mover].name
                self.say(f"{index + 1:4d}. {who}: {text}", "bold")
            for words in events.get(index, []):
                self.say(f"        {words}", "cyan")

    def finish(self) -> None:
        for viewer in self.seen:
            self.show_news(viewer)
        self.say("final board:", "bold")
        self.show_board(None)
        outcome = self.state.outcome()
        assert outcome is not None
        self.say(f"result: {result_text(outcome)} ({outcome.reason.value}); "
                 f"scores {list(outcome.scores)}", "bold green")


def add_parser(sub: Any) -> None:
    p = sub.add_parser("play", help="play a game in the terminal against bots or people",
                       description=__doc__,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", metavar="GAME", nargs="?",
                   help="a game id (see the games command); not needed with --resume")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a game option, e.g. --option players=3 (repeatable)")
    p.add_argument("--seat", action="append", default=[], metavar="P=WHO",
                   help=f"who plays seat P: human, human:NAME or a bot spec such as "
                        f"ismcts:iterations=20000 (default: seat 0 human, others "
                        f"{DEFAULT_BOT})")
    p.add_argument("--seed", type=int, default=None,
                   help="the deal's seed (default: a random one, printed)")
    p.add_argument("--resume", metavar="FILE",
                   help="go on with a game saved by 'save FILE', a state save or a record")
    p.add_argument("--record", metavar="FILE",
                   help="write the game's record there at the end (.json, else text)")
    p.add_argument("--hint-iterations", type=int, default=HINT_ITERATIONS, metavar="N",
                   help=f"the hint's search budget (default {HINT_ITERATIONS})")
    p.set_defaults(run=run)


def run(args: argparse.Namespace, console: Console | None = None,
        ask: Ask | None = None) -> int:
    console = console or Console()
    try:
        session = make_session(args, console, ask or input)
    except CommandError as exc:
        print(f"boardrules play: error: {exc}", file=sys.stderr)
        return 2
    if ask is None:
        _complete_moves_at_the_terminal(session)
    try:
        return session.run()
    except (KeyboardInterrupt, EOFError):
        session.say("\nstopped", "yellow")
        if session.record_path:
            session.write_record(session.record_path)
        return 130


def make_session(args: argparse.Namespace, console: Console, ask: Ask) -> PlaySession:
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    seat_items = list(args.seat)
    if args.resume:
        loaded = load_any(args.resume)
        if loaded.state is None:
            raise CommandError(f"{args.resume}: a viewer's record cannot be played on")
        state = loaded.state
        if loaded.seats and not seat_items:
            seat_items = [f"{p}={spec}" for p, spec in enumerate(loaded.seats)]
    elif args.game:
        state = load_game(args.game, parse_options(args.option)).new_game(seed=seed)
        console.print(f"{state.game.name}, seed {seed}", style="bold", highlight=False)
    else:
        raise CommandError("name a GAME or --resume FILE")
    if args.hint_iterations < 1:
        raise CommandError("--hint-iterations must be at least 1")
    seats = parse_seats(seat_items, state.game.num_players, seed)
    return PlaySession(state, seats, console=console, ask=ask, seed=seed,
                       record_path=args.record, hint_iterations=args.hint_iterations)


def _complete_moves_at_the_terminal(session: PlaySession) -> None:
    """Tab completes the legal moves (and the commands) when a person types at a terminal."""
    if not sys.stdin.isatty():
        return
    try:
        import readline
    except ImportError:  # pragma: no cover - a Python built without readline
        return
    readline.set_completer_delims("")  # a move may hold spaces: complete the whole line
    readline.parse_and_bind("tab: complete")
    readline.set_completer(install_completer(
        lambda: [str(m) for m in session.state.legal_moves()]))


def install_completer(legal: Callable[[], list[str]]) -> Callable[[str, int], str | None]:
    """A readline completer offering the legal moves (and the commands) that start with
    what is typed so far."""
    words = ["moves", "hint", "undo", "board", "save ", "record ", "help", "quit"]

    def complete(text: str, index: int) -> str | None:
        options = [m for m in legal() + words if m.startswith(text)]
        return options[index] if index < len(options) else None

    return complete


__all__ = ["DEFAULT_BOT", "PlaySession", "Seat", "add_parser", "install_completer", "make_session",
           "parse_seats", "run"]
