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
RECORD_FORMAT_VERSION = 1
Viewer = int | None | Literal["all"]


def game_record(state: State[Any], viewer: Viewer = "all") -> dict[str, Any]:
    """The game so far: ``"all"`` (the default) records the whole truth, a player number
    what that player may see, ``None`` what a spectator may see.  ``moves`` is a list of
    ``[mover, move]``, the mover a player or ``boardrules.CHANCE``."""
    game = state.game
    if viewer == "all":
        moves = [(mover, str(move)) for mover, move in
                 zip(state._core.movers(), state.history, strict=True)]
    else:
        moves = state.history_view(viewer)
    outcome = state.outcome()
    return {
        "format": RECORD_FORMAT,
        "format_version": RECORD_FORMAT_VERSION,
        "game": game.id,
        "rules_version": game.rules_version,
        "options": dict(game.options),
        "viewer": viewer,
        "moves": [[mover, text] for mover, text in moves],
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
    if record.get("format") != RECORD_FORMAT or record.get("format_version") != 1:
        raise InvalidStateError(f"not a {RECORD_FORMAT} version 1 record")
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
    state = game.new_game(seed=0, auto_chance=False)
    for i, entry in enumerate(moves):
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[1], str)):
            raise InvalidStateError(f"moves[{i}] must be [mover, move]")
        if entry[0] != state.current_player:
            raise InvalidStateError(f"moves[{i}]: {entry[0]!r} is not who moves there")
        try:
            state.apply(entry[1])
        except boardrules.BoardRulesError as exc:
            raise InvalidStateError(f"moves[{i}] {entry[1]!r}: {exc}") from None
    return state
