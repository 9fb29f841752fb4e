"""``boardrules record``: a game record (:mod:`boardrules.records`, JSON or its text form)
turned into an HTML viewer (:mod:`boardrules.viewer`), the text form or JSON, validated,
or shown in the terminal.

``RECORD`` is a file or ``-`` (standard input); its form is told from its first
character.  A record that cannot be read or replayed is an error (exit status 2, the
reason on standard error) except for ``validate``, whose verdict it is (exit status 1).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from boardrules.api import CHANCE
from boardrules.cli import _inputs
from boardrules.errors import BoardRulesError, InvalidStateError

PROG = "boardrules record"
Run = Callable[[argparse.Namespace], int]


# a reason to stop with exit status 2 (a file, an argument, a record): the one class
# every command's file reading raises (cli/_inputs.py)
CommandError = _inputs.CommandError


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "record", help="turn a game record into an HTML viewer, text or JSON; validate or "
                       "show it",
        description="Game records (format 3; formats 1 and 2 read too), as JSON or as the "
                    "text form, a file or - for standard input.")
    actions = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    html = _action(actions, "to-html", _to_html, "write the record as one self-contained "
                   "HTML page (board at every step, controls, move list)")
    html.add_argument("--viewer", metavar="WHO", default=None,
                      help="whose eyes: all (every player, the spectator and the whole "
                           "truth; a whole record's default), a player number, or spectator "
                           "(only what he saw: the page holds nothing more)")
    html.add_argument("--hints", type=int, metavar="N", default=None,
                      help="mark the top three suggestions at every step, N search "
                           "iterations each (whole records only)")
    html.add_argument("--title", default=None, help="the page's title")
    _action(actions, "to-text", _to_text, "write the record's text form (headers, numbered "
            "moves, events in words)")
    as_json = _action(actions, "to-json", _to_json, "write the record as JSON (format 3)")
    as_json.add_argument("--viewer", metavar="WHO", default=None,
                         help="a player number or spectator: a whole record re-recorded as "
                              "that viewer saw it (headers kept)")
    _action(actions, "validate", _validate, "check the record against the JSON Schema and "
            "replay it (exit status 1 and the reason if it is no valid record)",
            output=False)
    _action(actions, "show", _show, "print the headers and the moves", output=False)


def _action(actions: Any, name: str, run: Run, text: str, *,
            output: bool = True) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = actions.add_parser(name, help=text, description=text + ".")
    p.add_argument("record", metavar="RECORD", help="a record file (JSON or text form), "
                                                    "or - for standard input")
    if output:
        p.add_argument("-o", "--output", metavar="FILE", default="-",
                       help="the file to write (default: standard output)")
    p.set_defaults(run=_guarded(run))
    return p


def _guarded(run: Run) -> Run:
    """``run`` with its errors said in one line (exit status 2), never a traceback."""

    def guarded(args: argparse.Namespace) -> int:
        try:
            return run(args)
        except (CommandError, BoardRulesError, OSError, ValueError, TypeError) as exc:
            print(f"{PROG}: error: {exc}", file=sys.stderr)
            return 2

    return guarded


# --- reading and writing ---

def _read_bytes(source: str) -> bytes:
    return _inputs.read_bytes(source)  # a regular file or stdin, of a bounded size


def _load(source: str) -> dict[str, Any]:
    from boardrules.records import _checked, load_record

    try:
        record = load_record(_read_bytes(source))
        _checked(record)  # its game, options and viewer: a record of the library's
        return record
    except InvalidStateError as exc:
        raise CommandError(f"{_name(source)}: not a record: {exc}") from None


def _name(source: str) -> str:
    return "standard input" if source == "-" else source


def _write(target: str, text: str) -> None:
    if target == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    try:
        Path(target).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"{target}: {exc.strerror or exc}") from None


def _viewer(text: str | None, *, everyone: bool) -> Any:
    """``--viewer``'s value: ``"all"`` (if ``everyone`` may be asked for), a player
    number, ``None`` for ``spectator``; ``"record"`` when not given."""
    if text is None:
        return "record"
    if text == "spectator":
        return None
    if text == "all" and everyone:
        return "all"
    if text.isdecimal():
        return int(text)
    choices = "all, a player number or spectator" if everyone else \
        "a player number or spectator"
    raise CommandError(f"--viewer is {choices}, not {text!r}")


# --- the actions ---

def _to_html(args: argparse.Namespace) -> int:
    from boardrules.viewer import record_html

    viewer = _viewer(args.viewer, everyone=True)  # a bad argument before a long read
    record = _load(args.record)
    page = record_html(record, viewer=viewer, hints=args.hints, title=args.title)
    _write(args.output, page)
    if args.output != "-":
        print(f"{args.output}: {len(record['moves']) + 1} steps, {len(page) // 1024} KiB")
    return 0


def _to_text(args: argparse.Namespace) -> int:
    from boardrules.records import record_to_text

    _write(args.output, record_to_text(_load(args.record)))
    return 0


def _to_json(args: argparse.Namespace) -> int:
    from boardrules.viewer import record_as_seen

    viewer = _viewer(args.viewer, everyone=False)
    record = _load(args.record)
    if viewer != "record":
        record = record_as_seen(record, viewer)
    _write(args.output, json.dumps(record, ensure_ascii=False) + "\n")
    return 0


def _validate(args: argparse.Namespace) -> int:
    from boardrules.records import load_record, replay, replay_views

    data = _read_bytes(args.record)
    try:
        record = load_record(data)
        problem = _schema_problem(record)
        if problem is None:
            if record["headers"]["viewer"] == "all":
                replay(record)
            else:
                replay_views(record)
    except (InvalidStateError, TypeError) as exc:
        problem = str(exc)
    if problem is not None:
        print(f"{PROG}: invalid record: {problem}", file=sys.stderr)
        return 1
    head = record["headers"]
    print(f"{_name(args.record)}: a valid record of {head['game']}, "
          f"{len(record['moves'])} moves, {_seen_by(head['viewer'])}, {head['result']}")
    return 0


def _schema_problem(record: dict[str, Any]) -> str | None:
    """What the JSON Schema finds wrong (the first problem, with its place), if the
    ``jsonschema`` package is there to ask."""
    try:  # an optional dependency, without type stubs: imported by name
        jsonschema = importlib.import_module("jsonschema")
    except ImportError:  # the replay still checks every move
        return None
    from boardrules.records import record_schema

    validator = jsonschema.Draft202012Validator(record_schema())
    error = jsonschema.exceptions.best_match(validator.iter_errors(record))
    if error is None:
        return None
    place = "/".join(str(part) for part in error.absolute_path) or "the record"
    return f"{place}: {error.message}"


def _seen_by(viewer: object) -> str:
    if viewer == "all":
        return "the whole truth"
    return "as a spectator saw it" if viewer is None else f"as player {viewer} saw it"


def _show(args: argparse.Namespace) -> int:
    record = _load(args.record)
    print(show_text(record), end="")
    return 0


def show_text(record: dict[str, Any]) -> str:
    """A record's headers and moves as ``boardrules record show`` prints them."""
    from boardrules.records import HEADER_ORDER, _checked, describe_event

    head = record["headers"]
    _, game = _checked(record)  # the game's redaction tells a hidden value from none
    options = ", ".join(f"{k}={v}" for k, v in (head.get("options") or {}).items())
    lines = [f"{head['game']} ({options}), rules {head.get('rules_version')}, "
             f"{_seen_by(head.get('viewer'))}"]
    players = head.get("players") or []
    if players:
        lines.append("players: " + ", ".join(f"P{seat} {'?' if name is None else name}"
                                             for seat, name in enumerate(players)))
    result = f"result: {head.get('result')} ({head.get('termination')})"
    outcome = head.get("outcome")
    if isinstance(outcome, dict) and isinstance(outcome.get("scores"), list):
        result += ", scores " + ", ".join(f"P{p} {s}" for p, s in enumerate(outcome["scores"]))
    lines.append(result)
    for name in ("seed", "date", "start", "library_version",
                 *sorted(set(head) - set(HEADER_ORDER))):
        if head.get(name) is not None:
            lines.append(f"{name.replace('_', ' ')}: {head[name]}")
    lines.append("")
    for number, entry in enumerate(record["moves"], start=1):
        mover = "chance" if entry["mover"] == CHANCE else f"P{entry['mover']}"
        line = f"{number:4d}. {mover:>6}  {entry['move']}" + (
            " (forced)" if entry.get("forced") else "")
        said = "; ".join(" ".join(describe_event(e, game=game, viewer=head["viewer"]).split())
                         for e in entry["events"])
        lines.append(line + (f"  -- {said}" if said else ""))
        if "comment" in entry:
            lines += [f"{'':14}{{{text}}}" for text in str(entry["comment"]).splitlines()]
    return "\n".join(lines) + "\n"
