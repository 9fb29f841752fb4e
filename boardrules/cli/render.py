"""``boardrules render``: the board of a record's step, a save or a position, as SVG or
text, as a viewer sees it (the last move outlined in the SVG)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from boardrules.cli._inputs import (
    CommandError,
    add_source_arguments,
    load_any,
    load_game,
    parse_viewer,
    pick_step,
    source_state,
    states_of,
    write_text,
)
from boardrules.cli.play import legend_text
from boardrules.errors import BoardRulesError
from boardrules.records import replay_views


def add_parser(sub: Any) -> None:
    p = sub.add_parser("render", help="draw a step of a record, a save or a position",
                       description=__doc__)
    add_source_arguments(p)
    p.add_argument("--viewer", default="spectator", metavar="P",
                   help="whose view: a player, 'spectator' (the default) or 'truth'")
    p.add_argument("--format", choices=["svg", "text"], default=None,
                   help="svg or text (default: from -o's suffix, else text)")
    p.add_argument("--legend", action="store_true",
                   help="text: follow the board with what each of its marks means")
    p.add_argument("-o", "--output", default="-", metavar="FILE",
                   help="where to write (default: standard output)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    fmt = args.format or ("svg" if args.output.endswith(".svg") else "text")
    try:
        write_text(args.output, _picture(args, fmt))
    except (CommandError, BoardRulesError, ValueError, NotImplementedError) as exc:
        print(f"boardrules render: error: {exc}", file=sys.stderr)
        return 2
    return 0


def _picture(args: argparse.Namespace, fmt: str) -> str:
    if args.legend and fmt != "text":  # an SVG board draws its pieces, it has no marks
        raise CommandError("--legend is for the text board (--format text)")
    if args.file and args.position is None:
        loaded = load_any(args.file)
        if loaded.record is not None and loaded.state is None:  # a viewer's record
            return _viewer_record_picture(loaded.record, args, fmt)
        states = states_of(loaded)
        state = states[pick_step(len(states), args.step)]
    else:
        state, _ = source_state(args)
    game = state.game
    last = game.move_locations(str(state.history[-1])) if len(state.history) else ()
    if args.viewer == "truth":
        if fmt == "text":
            raise CommandError("the truth is drawn as SVG only (--format svg)")
        return str(state.render_svg_truth())
    viewer = parse_viewer(args.viewer, game.num_players)
    if fmt == "text":
        return str(state.render_text(viewer)) + "\n" + _legend(game, args)
    return str(state.render_svg(viewer, highlight=last))


def _legend(game: Any, args: argparse.Namespace) -> str:
    """The marks of the text board, when asked for (``--legend``), after a blank line."""
    return "\n" + legend_text(game) + "\n" if args.legend else ""


def _viewer_record_picture(record: dict[str, Any], args: argparse.Namespace, fmt: str) -> str:
    head = record["headers"]
    if args.viewer not in ("spectator", str(head["viewer"])) and head["viewer"] is not None:
        raise CommandError(f"the record holds only what {head['viewer']!r} saw")
    game = load_game(head["game"], head["options"])
    views = replay_views(record)
    step = pick_step(len(views), args.step)
    if fmt == "text":
        return str(game.render_view_text(views[step])) + "\n" + _legend(game, args)
    last = game.move_locations(record["moves"][step - 1]["move"]) if step else ()
    return str(game.render_view_svg(views[step], highlight=last))
