"""``boardrules replay``: step through a record in the terminal -- the board as the chosen
viewer saw it after each move, the move and what it caused in words.

At a terminal: Enter or ``n`` the next step, ``p`` the previous, a number that step,
``q`` to stop.  Piped (or with ``--all``): every step, one after the other."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping
from typing import Any

from boardrules.api import CHANCE
from boardrules.cli._inputs import CommandError, load_any, parse_viewer, pick_step
from boardrules.cli.play import legend_text
from boardrules.errors import BoardRulesError
from boardrules.records import describe_event, replay_views
from boardrules.viewer import _steps_as_seen


def add_parser(sub: Any) -> None:
    p = sub.add_parser("replay", help="step through a record in the terminal",
                       description=__doc__,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", metavar="RECORD", help="a record (JSON or text form); - for stdin")
    p.add_argument("--viewer", default=None, metavar="P",
                   help="a whole record: whose view (a player or 'spectator', the default)")
    p.add_argument("--step", type=int, default=0, metavar="N", help="start at step N")
    p.add_argument("--all", action="store_true", help="print every step, no questions")
    p.add_argument("--legend", action="store_true",
                   help="first print what each mark of the text board means")
    p.set_defaults(run=run)


class Replay:
    """A record's steps as text: the board after ``step`` moves and the move that led there,
    each as the viewer saw it at that step (a whole record: his log and view there, not
    what he learned later; a viewer's record: its views, and its moves as it holds them)."""

    def __init__(self, record: Mapping[str, Any], viewer: int | None, game: Any) -> None:
        self.game = game
        # whose events the steps hold: it tells a hidden value (?) from one that is none
        self.viewer = viewer if record["headers"]["viewer"] == "all" \
            else record["headers"]["viewer"]
        self.steps: list[tuple[Mapping[str, Any] | None, Mapping[str, Any]]]
        if record["headers"]["viewer"] == "all":
            moves = record["moves"]
            self.steps = [(_with_comment(entry, moves[step - 1]) if entry else None, view)
                          for step, (entry, view) in enumerate(_steps_as_seen(record, viewer))]
        else:
            views = replay_views(record)
            self.steps = [(record["moves"][k - 1] if k else None, view)
                          for k, view in enumerate(views)]

    def __len__(self) -> int:
        return len(self.steps)

    def step_text(self, step: int) -> str:
        entry, view = self.steps[step]
        return step_text(self.game, step, len(self) - 1, entry, view, viewer=self.viewer)


def _with_comment(seen: Mapping[str, Any], recorded: Mapping[str, Any]) -> Mapping[str, Any]:
    """The move as the viewer saw it, with the record's comment on it (if any)."""
    return {**seen, "comment": recorded["comment"]} if "comment" in recorded else seen


def step_text(game: Any, step: int, last: int, entry: Mapping[str, Any] | None,
              view: Mapping[str, Any], *, viewer: int | None) -> str:
    """One step as ``replay`` prints it: the move that led there (``entry``, a record's
    move object; ``None`` at the start) with its events in words as ``viewer`` saw them
    (a value hidden from him ``?``, one the truth lacks too ``none``), and the board
    drawn from ``view``."""
    lines = [f"-- step {step} of {last}"]
    if entry is not None:
        who = "chance" if entry["mover"] == CHANCE else f"player {entry['mover']}"
        lines.append(f"{step:4d}. {who}: {entry['move']}"
                     + (" (forced)" if entry.get("forced") else ""))
        lines += [f"        {describe_event(e, game=game, viewer=viewer)}"
                  for e in entry["events"]]
        if "comment" in entry:
            lines.append(f"        {{{entry['comment']}}}")
    lines.append(game.render_view_text(view))
    return "\n".join(lines)


def run(args: argparse.Namespace, ask: Callable[[str], str] | None = None) -> int:
    try:
        loaded = load_any(args.file)
        if loaded.record is None:
            raise CommandError(f"{args.file} is a save, not a record: render shows it")
        record = loaded.record
        from boardrules.cli._inputs import load_game

        game = load_game(record["headers"]["game"], record["headers"]["options"])
        if record["headers"]["viewer"] == "all":
            viewer = parse_viewer(args.viewer, game.num_players)
        elif args.viewer is not None:
            raise CommandError("a viewer's record shows only what he saw: no --viewer")
        else:
            viewer = None
        steps = Replay(record, viewer, game)
        step = pick_step(len(steps), args.step)
    except (CommandError, BoardRulesError) as exc:
        print(f"boardrules replay: error: {exc}", file=sys.stderr)
        return 2
    if args.legend:
        print(legend_text(game) + "\n")
    interactive = ask is not None or (sys.stdin.isatty() and not args.all)
    if not interactive:
        for index in range(step, len(steps)):
            print(steps.step_text(index) + "\n")
        return 0
    return _browse(steps, step, ask or input)


def _browse(steps: Replay, step: int, ask: Callable[[str], str]) -> int:
    while True:
        print(steps.step_text(step))
        try:
            answer = ask("[Enter/n] next  [p] previous  [N] step N  [q] quit > ").strip()
        except EOFError:
            return 0
        if answer in ("q", "quit"):
            return 0
        if answer in ("", "n"):
            step = min(step + 1, len(steps) - 1)
        elif answer == "p":
            step = max(step - 1, 0)
        elif answer.isdigit() and int(answer) < len(steps):
            step = int(answer)
        else:
            print(f"steps are 0 to {len(steps) - 1}")
