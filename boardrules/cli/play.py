"""``boardrules play``: a game in the terminal, people and bots in any seats.

A person types moves in the game's notation (Tab completes what is legal), or a command:
``moves``, ``hint``, ``undo``, ``board``, ``legend``, ``save FILE``, ``record FILE``,
``help``, ``quit``.  Each person sees only his own view -- with two people at one screen
and hidden information, a "pass the device" screen stands between their turns, and the
screen and its scrollback are cleared before it -- and, before each of his turns, the
moves since his last one and what they caused, in words.
"""

from __future__ import annotations

import argparse
import contextlib
import hmac
import importlib
import json
import os
import secrets
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console

import boardrules
from boardrules._saves import SIGNATURE_FIELD, sign_document
from boardrules.api import CHANCE, Event, Game, State
from boardrules.cli._inputs import (
    PLAY_SAVE_FORMAT,
    CommandError,
    Loaded,
    load_any,
    load_game,
    parse_options,
    read_text,
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
  legend        what each mark of the board means
  save FILE     save the game (resume it with: boardrules play --resume FILE)
  record FILE   write the game's record (.json, else the text form)
  quit          leave the game"""

Ask = Callable[[str], str]

#: What clears a terminal's screen and its scrollback, as ``clear`` does: the cursor home,
#: the screen erased (ED 2), then the lines saved above it erased (ED 3) -- after ED 2,
#: since some terminals push the erased screen into the scrollback.
CLEAR_SCREEN_AND_SCROLLBACK = "\x1b[H\x1b[2J\x1b[3J"
#: The environment variable holding the key that signs hot-seat saves (text, at least 16
#: bytes); without it, a key file of this user's (:func:`save_key_path`) is used.
SAVE_KEY_ENV = "BOARDRULES_SAVE_KEY"
MIN_KEY_BYTES = 16


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

    @property
    def hot_seat(self) -> bool:
        """Two or more people at one screen, in a game that hides information from them."""
        return shares_a_screen(self.seats, self.state.game)

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
        """Between two people's turns in a game with hidden information, a blank screen
        -- the scrollback cleared too, or the next one would scroll up to the other's
        view -- and the next one presses Enter when the other has looked away."""
        if self.hot_seat and self.at_screen != player:
            if self.at_screen is not None:  # the first one keeps the seed's line on screen
                self.clear_screen_and_scrollback()
                self.say(f"(the screen and its scrollback were cleared: nothing of "
                         f"{self.seats[self.at_screen].name}'s turn is left to scroll back "
                         "to)", "dim")
            self.ask(f"pass the device to {self.seats[player].name} (player {player}) "
                     "and press Enter ")
        self.at_screen = player

    def clear_screen_and_scrollback(self) -> None:
        """Written to the console's file as it is: rich's ``clear()`` erases the screen
        only (ED 2), and has no code for the scrollback (ED 3)."""
        self.console.file.write(CLEAR_SCREEN_AND_SCROLLBACK)
        self.console.file.flush()

    # --- a person's commands ---

    def command(self, player: int, line: str) -> None:
        word, _, rest = line.partition(" ")
        if word == "help":
            self.say(HELP)
            self.say(legend_text(self.state.game))
        elif word == "legend":
            self.say(legend_text(self.state.game))
        elif word == "moves":
            legal = [str(m) for m in self.state.legal_moves()]
            self.say("\n".join(wrap_between(legal, self.console.width, "legal: ")))
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
        before = len(self.state.history)
        try:
            self.state.apply(text, player=player)
        except BoardRulesError as exc:
            self.say(f"{exc}", "bold red")
            self.say("type 'moves' for the legal moves, 'help' for the commands", "dim")
            return
        # his own move and what it caused are shown now; at a shared screen the pass
        # screen clears them at once, so his next turn's news begins with them again
        self.seen[player] = before if self.hot_seat else len(self.state.history)
        # what his move caused, and the chance outcomes and forced steps after it (his
        # cards decide a battle, then the next card is drawn): all shown, not the last's
        self.show_events_since(player, before, own=True)

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
        """The state with its seats.  A hot-seat save holds every hidden piece (the
        state's save is the whole truth): it says so, and is signed with this user's
        save key so that ``--resume`` refuses it changed."""
        if path == "-":  # --resume reads no standard input, and the shared screen would
            # show the whole truth
            self.say("save -: give the save a file (play --resume reads a file)", "bold red")
            return
        doc: dict[str, Any] = {"format": PLAY_SAVE_FORMAT, "format_version": 1,
                               "seats": [seat.spec for seat in self.seats],
                               "seed": self.seed, "save": self.state.to_json()}
        try:
            if self.hot_seat:
                doc["hot_seat"] = True
                doc[SIGNATURE_FIELD] = sign_document(doc, save_key(create=True))
            # every hidden piece is in it: readable by this user alone
            write_text(path, json.dumps(doc) + "\n",
                       private=self.state.game.has_hidden_information)
        except CommandError as exc:
            self.say(str(exc), "bold red")
            return
        self.say(f"saved to {path} (boardrules play --resume {path})", "green")
        if self.state.game.has_hidden_information:
            self.say(hidden_save_warning(path, self.state.game, signed=self.hot_seat),
                     "yellow")

    def write_record(self, path: str) -> None:
        if path == "-" and self.hot_seat and not self.state.is_terminal():
            self.say("record -: the record of a game not over holds every hidden piece, "
                     "and this screen is shared: give it a file", "bold red")
            return
        record = game_record(self.state, players=[seat.spec for seat in self.seats],
                             seed=self.seed)
        try:
            write_record(path, record)
        except CommandError as exc:
            self.say(str(exc), "bold red")
            return
        self.say(f"record written to {path}", "green")
        if self.state.game.has_hidden_information and not self.state.is_terminal():
            self.say(hidden_save_warning(path, self.state.game, signed=False), "yellow")

    # --- what is shown ---

    def say(self, text: str, style: str | None = None) -> None:
        # prose wraps between words at the screen's width (a board never goes through here)
        self.console.print(text, style=style, markup=False, highlight=False)

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
        redact = self.state.game._redact_event
        for per_action in self.state._truth_events()[first:]:  # only the new ones
            for truth in per_action:
                seen = redact(truth, viewer)
                if seen is not None:
                    events.setdefault(seen.index, []).append(event_words(seen, truth))
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
    signed = False
    if args.resume:
        loaded, signed = load_resume(args.resume)
        if loaded.state is None:
            raise CommandError(f"{args.resume}: a viewer's record cannot be played on")
        state = loaded.state
        if signed and seat_items:
            # the signature covers the seats: --seat would change them unseen
            raise CommandError(f"{args.resume} is a signed hot-seat save: it keeps the "
                               f"seats it was saved with ({', '.join(loaded.seats or [])}); "
                               "resume it without --seat")
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
    if shares_a_screen(seats, state.game):
        if not can_clear(console):
            raise CommandError(PIPED_HOT_SEAT.format(game=state.game.name))
        if args.resume and not signed:
            console.print(f"warning: {args.resume} is not signed: nothing shows that it "
                          "was not changed since it was saved (a hot-seat save is signed)",
                          style="yellow", markup=False, highlight=False)
    return PlaySession(state, seats, console=console, ask=ask, seed=seed,
                       record_path=args.record, hint_iterations=args.hint_iterations)


# --- events in words ---

def event_words(seen: Event, truth: Event) -> str:
    """``seen`` (an event as its viewer may see it) in words, a value that is absent in
    the whole truth too said as :data:`~boardrules.records.NOTHING`, a value hidden from
    him as ``?`` (:func:`~boardrules.records.describe_event` told the truth)."""
    return describe_event(seen, truth)


# --- two people at one screen ---

PIPED_HOT_SEAT = (
    "two people share this screen and {game} hides information, but the output is not a "
    "terminal that can be cleared (it is piped or redirected, or TERM is dumb): whatever "
    "reads it -- a file, a pager, tee -- keeps every turn, each player's hidden pieces "
    "included, for the next player to read.  Play at a terminal (--record FILE keeps the "
    "game's record), or give the other seats to bots")


def shares_a_screen(seats: Sequence[Seat], game: Game[Any, Any]) -> bool:
    """Two or more people at one screen, in a game that hides information from them."""
    return sum(seat.human for seat in seats) > 1 and game.has_hidden_information


def can_clear(console: Console) -> bool:
    """Whether the output is a terminal that takes the clearing codes (a dumb terminal,
    such as an editor's shell buffer, keeps everything).  An OS file is asked itself:
    rich calls a pipe a terminal under ``FORCE_COLOR`` or ``TTY_COMPATIBLE``."""
    if not console.is_terminal or console.is_dumb_terminal:
        return False
    try:
        descriptor = console.file.fileno()
    except (AttributeError, OSError, ValueError):  # not an OS file: what the console says
        return True
    return os.isatty(descriptor)


def save_key_path() -> Path:
    """This user's key file for hot-seat saves: ``boardrules/save.key`` in
    ``$XDG_CONFIG_HOME`` (``~/.config`` when unset)."""
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config) / "boardrules" / "save.key"


def save_key(*, create: bool) -> bytes:
    """The key signing hot-seat saves: ``$BOARDRULES_SAVE_KEY``, else this user's key
    file, made on first use (32 random bytes as hex, readable by him alone) when
    ``create``."""
    text = os.environ.get(SAVE_KEY_ENV)
    if text is not None:
        key = text.encode("utf-8", "surrogateescape")
        if len(key) < MIN_KEY_BYTES:
            raise CommandError(f"${SAVE_KEY_ENV} must hold at least {MIN_KEY_BYTES} bytes")
        return key
    path = save_key_path()
    if create and not path.exists():
        _write_new_key(path)
    try:
        _check_key_is_private(path)
        key = path.read_bytes().strip()
    except FileNotFoundError:
        raise CommandError(f"no save key: neither ${SAVE_KEY_ENV} nor {path}") from None
    except OSError as exc:
        raise CommandError(f"cannot read the save key {path}: {exc}") from None
    if len(key) < MIN_KEY_BYTES:
        raise CommandError(f"the save key {path} is shorter than {MIN_KEY_BYTES} bytes")
    return key


def _check_key_is_private(path: Path) -> None:
    """A key others can read signs nothing they could not forge: refused, as ssh refuses
    such a private key (POSIX; Windows has no such mode bits)."""
    if os.name != "posix":
        return
    mode = path.stat().st_mode
    if mode & 0o077:
        raise CommandError(f"the save key {path} is readable or writable by others "
                           f"(mode {mode & 0o777:o}): chmod 600 it, or remove it to make "
                           "a new one (saves signed with it are then refused)")


def _write_new_key(path: Path) -> None:
    """Written whole under a temporary name with mode 0600 (never readable by others,
    even briefly), then linked to its name: another process making the key at the same
    moment sees either no key or a whole one, and whichever links first wins (the other
    reads that one); a failed write leaves no empty key behind."""
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as exc:
        raise CommandError(f"cannot make the save key {path}: {exc}") from None
    try:
        with os.fdopen(fd, "w", encoding="ascii") as file:
            file.write(secrets.token_hex(32) + "\n")
        with contextlib.suppress(FileExistsError):  # another process's key: kept
            os.link(temporary, path)
    except OSError as exc:
        raise CommandError(f"cannot make the save key {path}: {exc}") from None
    finally:
        temporary.unlink(missing_ok=True)


def hidden_save_warning(path: str, game: Game[Any, Any], *, signed: bool) -> str:
    what = (f"warning: {path} holds all of {game.name}'s hidden information as plain "
            "text -- every player's hidden pieces and what chance deals next: whoever "
            "opens it sees them")
    if signed:
        return what + " (it is signed with your save key: --resume refuses it changed)"
    return what


def load_resume(path: str) -> tuple[Loaded, bool]:
    """What ``--resume`` plays on, and whether it is a play save whose signature this
    user's key checks.  A play save that is signed -- or says it is a hot-seat save -- is
    refused unless the signature matches."""
    if path == "-":
        raise CommandError("--resume -: play reads the moves from standard input; give "
                           "the save as a file")
    text = read_text(path)
    try:
        doc = json.loads(text) if text.lstrip().startswith("{") else None
    except (ValueError, RecursionError):
        doc = None  # load_any names what is wrong with it
    signed = (isinstance(doc, dict) and doc.get("format") == PLAY_SAVE_FORMAT
              and (SIGNATURE_FIELD in doc or doc.get("hot_seat") is not None))
    if not signed:
        return load_any(path), False
    assert isinstance(doc, dict)
    _check_signature(path, doc)
    seats = doc.get("seats")
    if not (isinstance(seats, list) and all(isinstance(s, str) for s in seats)):
        raise CommandError(f"{path}: a play save lists its seats as text")
    try:
        return Loaded(boardrules.state_from_json(str(doc.get("save"))), seats=seats), True
    except BoardRulesError as exc:
        raise CommandError(f"{path}: {exc}") from None


def _check_signature(path: str, doc: dict[str, Any]) -> None:
    signature = doc.get(SIGNATURE_FIELD)
    if not isinstance(signature, str):
        raise CommandError(f"{path}: a hot-seat save without its signature: refused")
    try:
        key = save_key(create=False)
    except CommandError as exc:
        raise CommandError(f"{path} is a signed hot-seat save, and this user has no key "
                           f"to check it: {exc}") from None
    expected = sign_document(doc, key)
    if not hmac.compare_digest(signature.encode("utf-8", "surrogateescape"),
                               expected.encode("ascii")):
        raise CommandError(f"{path}: the save's signature does not match: it was changed "
                           "after it was saved, or signed with another key")


# --- what the board's marks mean, and lines that break between moves ---

Legend = Sequence[tuple[str, str]]


def text_legend(game: Game[Any, Any]) -> Legend | None:
    """The legend a game declares beside its text renderer: ``TEXT_LEGEND`` of the
    ``render`` module of the game's package (None when it declares none)."""
    package = type(game).__module__.rpartition(".")[0]
    try:
        render = importlib.import_module(f"{package}.render")
    except ImportError:
        return None
    legend: Legend | None = getattr(render, "TEXT_LEGEND", None)
    return legend


def legend_text(game: Game[Any, Any]) -> str:
    """Every mark of the game's text board with what it means, one a line."""
    legend = text_legend(game)
    if not legend:
        return f"{game.name}'s text board declares no legend"
    width = max(len(mark) for mark, _ in legend)
    return "\n".join([f"{game.name}, the board's marks:"]
                     + [f"  {mark:<{width}}  {meaning}" for mark, meaning in legend])


def wrap_between(items: Sequence[str], width: int, first: str) -> list[str]:
    """``items`` two spaces apart in lines of at most ``width`` characters, broken
    between items (a move's name, which may hold a space, is never cut), the first line
    led by ``first`` and the others indented as far."""
    indent = " " * len(first)
    lines: list[str] = []
    line, fresh = first, True
    for item in items:
        if not fresh and len(line) + 2 + len(item) > width:
            lines.append(line)
            line, fresh = indent, True
        line += ("" if fresh else "  ") + item
        fresh = False
    lines.append(line)
    return lines


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
    words = ["moves", "hint", "undo", "board", "legend", "save ", "record ", "help", "quit"]

    def complete(text: str, index: int) -> str | None:
        options = [m for m in legal() + words if m.startswith(text)]
        return options[index] if index < len(options) else None

    return complete


__all__ = ["DEFAULT_BOT", "PlaySession", "Seat", "add_parser", "install_completer",
           "legend_text", "make_session", "parse_seats", "run", "save_key", "save_key_path",
           "text_legend", "wrap_between"]
