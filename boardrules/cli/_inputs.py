"""What the commands read and write: games given by id and options, saves (a state's
``to_json``, or ``boardrules play``'s save with its seats), positions and records."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import boardrules
from boardrules.api import State
from boardrules.errors import BoardRulesError
from boardrules.games import as_game_id
from boardrules.records import load_record, record_to_text, replay

#: The format of ``boardrules play``'s ``save FILE``: the state's own save and who sat where.
PLAY_SAVE_FORMAT = "boardrules-play-save"


class CommandError(Exception):
    """A bad argument or file: the command prints it and exits with status 2."""


@dataclass
class Loaded:
    """A game read from a file: its state (``None`` for a viewer's record, which holds
    only what one viewer saw), the record when it was one, and the seats of a play save."""

    state: State[Any] | None
    record: dict[str, Any] | None = None
    seats: list[str] | None = None


#: The most a command reads from one file or standard input: a record of a long game
#: with every view is tens of MiB; a file past this is no record or save (and a device
#: such as /dev/zero would be read until memory ran out).
MAX_INPUT_BYTES = 256 * 2**20


def read_bytes(source: str) -> bytes:
    """The bytes of a regular file, or of standard input for ``-``, at most
    :data:`MAX_INPUT_BYTES`: a folder, a device, a pipe by name or a larger input is a
    :class:`CommandError` (what every command that reads a game file uses)."""
    limit = MAX_INPUT_BYTES
    if source == "-":
        data = sys.stdin.buffer.read(limit + 1)
    else:
        data = _read_regular_file(Path(source), limit)
    if len(data) > limit:
        raise CommandError(f"cannot read {_shown(source)}: larger than "
                           f"{limit // 2**20} MiB, no record or save is")
    return data


def _read_regular_file(path: Path, limit: int) -> bytes:
    if path.is_dir():
        raise CommandError(f"cannot read {path}: a folder, not a file")
    if not path.is_file():
        reason = "not a regular file" if path.exists() else "no such file"
        raise CommandError(f"cannot read {path}: {reason}")
    try:
        with path.open("rb") as file:
            return file.read(limit + 1)  # one byte more tells a file that is too large
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc.strerror or exc}") from None


def _shown(source: str) -> str:
    return "standard input" if source == "-" else source


def read_text(path: str) -> str:
    """A file's text (UTF-8), ``-`` for standard input, read as :func:`read_bytes` does."""
    try:
        return read_bytes(path).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CommandError(f"cannot read {_shown(path)}: not UTF-8 text ({exc.reason})") from None


def load_any(path: str) -> Loaded:
    """A save, a play save or a record (JSON or text form) from ``path``."""
    text = read_text(path)
    try:
        doc = json.loads(text) if text.lstrip().startswith("{") else None
    except (ValueError, RecursionError) as exc:  # RecursionError: nested too deep
        raise CommandError(f"{path}: not JSON: {exc}") from None
    try:
        if isinstance(doc, dict) and doc.get("format") == PLAY_SAVE_FORMAT:
            seats = doc.get("seats")
            if not (isinstance(seats, list) and all(isinstance(s, str) for s in seats)):
                raise CommandError(f"{path}: a play save lists its seats as text")
            return Loaded(boardrules.state_from_json(str(doc.get("save"))), seats=seats)
        if isinstance(doc, dict) and doc.get("format") != "boardrules-record":
            return Loaded(boardrules.state_from_json(text))
        record = load_record(text)
        whole = record["headers"].get("viewer") == "all"
        return Loaded(replay(record) if whole else None, record=record)
    except BoardRulesError as exc:
        raise CommandError(f"{path}: {exc}") from None


def load_game(game_id: str, options: dict[str, Any]) -> Any:
    try:
        return boardrules.load(as_game_id(game_id), **options)
    except (BoardRulesError, TypeError, ValueError) as exc:
        raise CommandError(str(exc)) from None


def parse_options(items: list[str]) -> dict[str, Any]:
    from boardrules.arena import parse_options as parse

    try:
        return parse(items)
    except ValueError as exc:
        raise CommandError(str(exc)) from None


def parse_viewer(text: str | None, players: int) -> int | None:
    """``--viewer``: a player number or ``spectator``."""
    if text is None or text == "spectator":
        return None
    try:
        viewer = int(text)
    except ValueError:
        raise CommandError(f"a viewer is a player number or 'spectator', not {text!r}") from None
    if not 0 <= viewer < players:
        raise CommandError(f"viewer {viewer}: players are 0 to {players - 1}")
    return viewer


def write_record(path: str, record: dict[str, Any]) -> None:
    """A record to ``path``: JSON when the name ends in ``.json``, else the text form."""
    text = (json.dumps(record, indent=1) + "\n" if path.endswith(".json")
            else record_to_text(record))
    write_text(path, text)


def write_text(path: str, text: str, *, private: bool = False) -> None:
    """``text`` to the file ``path`` (``-``: standard output).  ``private``: the file is
    made, or left, readable and writable by this user alone (mode 0600 on POSIX) before
    anything is written to it -- a save holding every hidden piece."""
    if path == "-":
        sys.stdout.write(text)
        return
    try:
        if private:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as file:
                if os.name == "posix":
                    os.fchmod(file.fileno(), 0o600)  # an existing file keeps its mode
                file.write(text)
        else:
            Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"cannot write {path}: {exc}") from None


def states_of(loaded: Loaded) -> list[State[Any]]:
    """Every step of a whole record, or the one state of a save."""
    from boardrules.records import replay_states

    if loaded.record is not None and loaded.state is not None:
        return list(replay_states(loaded.record))
    if loaded.state is None:
        raise CommandError("a viewer's record holds only what he saw: no state to search")
    return [loaded.state]


def pick_step(count: int, step: int | None) -> int:
    """``--step N``: 0 is the start, ``count - 1`` (the default) the end; -1 the end too."""
    if step is None:
        return count - 1
    index = step if step >= 0 else count + step
    if not 0 <= index < count:
        raise CommandError(f"--step {step}: the file has steps 0 to {count - 1}")
    return index


def add_source_arguments(p: Any) -> None:
    """FILE, or --game with --position: what suggest and render read."""
    p.add_argument("file", metavar="FILE", nargs="?",
                   help="a record (JSON or text), a save or a play save; - for stdin")
    p.add_argument("--game", metavar="GAME", help="with --position: the game")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="with --game: a game option (repeatable)")
    p.add_argument("--position", metavar="TEXT", help="a position in the game's notation")
    p.add_argument("--step", type=int, default=None, metavar="N",
                   help="a record's step: 0 the start, N after N moves (default: the end)")


def source_state(args: Any) -> tuple[State[Any], Loaded | None]:
    """The state FILE (at ``--step``) or ``--game``/``--position`` gives."""
    if args.position is not None:
        if not args.game or args.file:
            raise CommandError("--position needs --game and no FILE")
        game = load_game(args.game, parse_options(args.option))
        try:
            return game.position(args.position), None
        except (BoardRulesError, NotImplementedError) as exc:
            raise CommandError(f"--position: {exc}") from None
    if not args.file:
        raise CommandError("give a FILE, or --game and --position")
    loaded = load_any(args.file)
    states = states_of(loaded)
    return states[pick_step(len(states), args.step)], loaded
