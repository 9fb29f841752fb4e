"""Game records: a finished or running game as its options and moves (JSON-ready), whole
or as one player may see it, and replay of a whole record.

>>> import boardrules
>>> from boardrules.records import game_record, replay
>>> state = boardrules.load("armadora", players=2).new_game(seed=5)
>>> state.apply("3@c2")
>>> game_record(state, viewer=1)["moves"][-1]
[0, '?@c2']
>>> replay(game_record(state)) == state
True

A record also lists the forced steps the engine took (``forced``: history indices), the
position the game started from (``start``: position text, or ``None``), and the game's
events as the record's viewer may see them (``events``: :meth:`Event.as_dict
<boardrules.Event.as_dict>` records).

A state saved with :meth:`~boardrules.State.to_json` is for resuming a game (it also
carries the random generator); a record is for showing, sharing and analysing one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from boardrules.api import State
from boardrules.errors import BoardDataError, InvalidOptionError, InvalidStateError
from boardrules.games import AnyGameId, check_saved_options

RECORD_FORMAT = "boardrules-record"
#: Version 2 added ``forced``, ``start`` and ``events`` (version 1 records still replay).
RECORD_FORMAT_VERSION = 2
Viewer = int | None | Literal["all"]


def game_record(state: State[Any], viewer: Viewer = "all") -> dict[str, Any]:
    """The game so far: ``"all"`` (the default) records the whole truth, a player number
    what that player may see, ``None`` what a spectator may see.  ``moves`` is a list of
    ``[mover, move]``, the mover a player or ``boardrules.CHANCE``; ``forced`` the indices
    of the forced steps among them; ``start`` the position the game started from (or
    ``None``); ``events`` what the moves caused, as the viewer may see it."""
    game = state.game
    if viewer == "all":
        moves = [(mover, str(move)) for mover, move in
                 zip(state._core.movers(), state.history, strict=True)]
    else:
        moves = state.history_view(viewer)
    outcome = state.outcome()
    if viewer == "all":
        events = [event for per_action in state._truth_events() for event in per_action]
    else:
        events = state.events(viewer)
    return {
        "format": RECORD_FORMAT,
        "format_version": RECORD_FORMAT_VERSION,
        "game": game.id,
        "rules_version": game.rules_version,
        "options": dict(game.options),
        "viewer": viewer,
        "moves": [[mover, text] for mover, text in moves],
        "forced": state.forced,
        "start": state.start_position,
        "events": [event.as_dict() for event in events],
        "outcome": None if outcome is None else {
            "winners": list(outcome.winners),
            "ranking": list(outcome.ranking),
            "scores": list(outcome.scores),
            "team_scores": list(outcome.team_scores),
            "reason": outcome.reason.value,
        },
    }


def replay(record: Mapping[str, Any]) -> State[Any]:
    """The state a whole record (``viewer`` ``"all"``) leads to, every move checked by the
    rules; :class:`~boardrules.InvalidStateError` for anything else."""
    import boardrules

    if not isinstance(record, Mapping):
        raise TypeError("a record is a mapping (the JSON object game_record returns)")
    version = record.get("format_version")
    if record.get("format") != RECORD_FORMAT or version not in (1, 2) or type(version) is not int:
        raise InvalidStateError(f"not a {RECORD_FORMAT} version 1 or 2 record")
    if record.get("viewer") != "all":
        raise InvalidStateError("only a whole record (viewer 'all') can be replayed")
    game_id, options, moves = record.get("game"), record.get("options"), record.get("moves")
    if not isinstance(game_id, str) or game_id not in boardrules.available_games():
        raise InvalidStateError(f"unknown game {game_id!r}")
    if not isinstance(options, dict) or not isinstance(moves, list):
        raise InvalidStateError("options must be an object and moves a list")
    check_saved_options(game_id, options)
    try:
        game = boardrules.load(AnyGameId(game_id), **options)
    except (InvalidOptionError, BoardDataError) as exc:
        raise InvalidStateError(f"options: {exc}") from None
    if record.get("rules_version") != game.rules_version:
        raise InvalidStateError("the record was made under other rules (rules_version)")
    if len(moves) > game.max_game_length:
        raise InvalidStateError("more moves than any game has")
    forced, start = record.get("forced", []), record.get("start")
    if not (isinstance(forced, list) and all(type(i) is int for i in forced)
            and forced == sorted(set(forced))):
        raise InvalidStateError("forced must list history indices, ascending")
    if start is None:
        state = game.new_game(seed=0, auto_chance=False, auto_forced=False)
    elif isinstance(start, str):
        try:
            state = game.position(start, seed=0, auto_chance=False, auto_forced=False)
        except (boardrules.BoardRulesError, NotImplementedError) as exc:
            raise InvalidStateError(f"start: {exc}") from None
    else:
        raise InvalidStateError("start must be a position (text) or null")
    marked = set(forced)
    for i, entry in enumerate(moves):
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[1], str)):
            raise InvalidStateError(f"moves[{i}] must be [mover, move]")
        if entry[0] != state.current_player:
            raise InvalidStateError(f"moves[{i}]: {entry[0]!r} is not who moves there")
        try:
            if i in marked:
                _take_forced_step(state, i, entry[1])
            else:  # a forced step asked of its player (auto_forced=False) is a move
                state.apply(entry[1])
        except InvalidStateError:
            raise
        except boardrules.BoardRulesError as exc:
            raise InvalidStateError(f"moves[{i}] {entry[1]!r}: {exc}") from None
    return state


def _take_forced_step(state: State[Any], index: int, text: str) -> None:
    """A step the record marks forced: taken as the engine takes one (so the replayed
    state lists it in ``state.forced``, and its own record marks it again)."""
    if not state.decision().forced:
        raise InvalidStateError(f"moves[{index}]: marked forced, but is no forced step")
    try:
        state._core.apply_forced(state.game._action_of(text))
    except ValueError:
        raise InvalidStateError(f"moves[{index}]: not the forced step's move") from None
