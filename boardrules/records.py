"""Game records: a finished or running game as headers and moves (JSON-ready), whole or as
one player saw it; a text form a person reads (the PGN idea); replay, step by step.

>>> import boardrules
>>> from boardrules.records import game_record, replay, record_to_text, record_from_text
>>> state = boardrules.load("armadora", players=2).new_game(seed=5)
>>> state.apply("3@c2")
>>> record = game_record(state, players=["alice", "ismcts:iterations=2000"], seed=5,
...                      date="2026-12-03T10:00:00Z")
>>> record["headers"]["players"]
['alice', 'ismcts:iterations=2000']
>>> record["moves"][-1]  # doctest: +NORMALIZE_WHITESPACE
{'mover': 0, 'move': '3@c2', 'forced': False,
 'events': [{'kind': 'warrior', 'player': 0, 'square': 'c2', 'strength': 3}]}
>>> game_record(state, viewer=1)["moves"][-1]["move"]      # as player 1 saw it
'?@c2'
>>> replay(record) == state
True
>>> record_from_text(record_to_text(record)) == record
True

A record (format 3) is ``{"format", "format_version", "headers", "moves"}`` and, for a
record as one player or a spectator saw it, ``"views"``: that viewer's :meth:`view
<boardrules.State.view>` before the first move and after each, so that it replays as the
sequence of what he saw (:func:`replay_views`).  The JSON Schema is shipped beside this
module (:func:`record_schema`); :doc:`/records` describes every field.  Formats 1 and 2
(0.5.0 and the contract issue's) still read: :func:`upgrade_record` turns them into 3.

A state saved with :meth:`~boardrules.State.to_json` is for resuming a game (it also
carries the random generator); a record is for showing, sharing and analysing one.
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from importlib import resources
from typing import Any, Literal

from boardrules.api import CHANCE, Event, State
from boardrules.errors import BoardDataError, InvalidOptionError, InvalidStateError
from boardrules.games import AnyGameId, check_saved_options

__all__ = [
    "RECORD_FORMAT",
    "RECORD_FORMAT_VERSION",
    "check_result_headers",
    "describe_event",
    "game_record",
    "load_record",
    "record_from_text",
    "record_schema",
    "record_to_text",
    "replay",
    "replay_states",
    "replay_views",
    "result_headers",
    "result_text",
    "upgrade_record",
]

RECORD_FORMAT = "boardrules-record"
#: 3 added the headers, one object per move (mover, move, forced, events, comment) and a
#: viewer's views; 2 added ``forced``, ``start`` and ``events``; both older ones still read.
RECORD_FORMAT_VERSION = 3
Viewer = int | None | Literal["all"]
#: The headers every format 3 record has, in the order the text form writes them.
HEADER_ORDER = ("game", "rules_version", "options", "viewer", "seed", "players", "date",
                "result", "termination", "outcome", "start", "library_version")
#: A user's own headers: a name of letters, digits and underscores (``event``, ``site``...).
_EXTRA_HEADER = re.compile(r"[a-z][a-z0-9_]{0,39}")
_MAX_COMMENT = 4000


# --- writing ---

def game_record(state: State[Any], viewer: Viewer = "all", *,
                players: Sequence[str | None] | None = None, seed: int | None = None,
                date: str | Literal["now"] | None = "now",
                comments: Mapping[int, str] | None = None,
                headers: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The game so far as a format 3 record.

    ``viewer``: ``"all"`` (the default) records the whole truth, a player number what that
    player saw (his moves whole, hidden parts of others' as ``?``, his events, his views),
    ``None`` what a spectator saw.  ``players``: who sat in each seat (a name or a bot
    spec); ``seed``: the seed the game was dealt with, when known; ``date``: an ISO 8601
    time (``"now"``, the default, is the current UTC time; ``None`` leaves it out);
    ``comments``: a comment per move index; ``headers``: more headers of one's own
    (``{"event": "club night"}``), names in lower case."""
    game = state.game
    if viewer != "all":
        state._check_viewer(viewer)
    seats = _players_header(players, game.num_players)
    outcome = state.outcome()
    texts = (list(zip(state._core.movers(), [str(m) for m in state.history], strict=True))
             if viewer == "all" else state.history_view(viewer))
    per_move: list[list[dict[str, Any]]] = [[] for _ in texts]
    events = ([e for per_action in state._truth_events() for e in per_action]
              if viewer == "all" else state.events(viewer))
    for event in events:
        per_move[event.index].append(_event_fields(event))
    forced = set(state.forced)
    notes = _checked_comments(comments, len(texts))
    moves: list[dict[str, Any]] = []
    for i, (mover, text) in enumerate(texts):
        entry: dict[str, Any] = {"mover": mover, "move": text, "forced": i in forced,
                                 "events": per_move[i]}
        if i in notes:
            entry["comment"] = notes[i]
        moves.append(entry)
    head: dict[str, Any] = {
        "game": game.id, "rules_version": game.rules_version, "options": dict(game.options),
        "viewer": viewer, "seed": seed, "players": seats,
        "date": _now() if date == "now" else date,
        "result": result_text(outcome), "termination": _termination(outcome),
        "outcome": _outcome_fields(outcome), "start": state.start_position,
        "library_version": _library_version(),
    }
    head.update(_checked_extra_headers(headers))
    record: dict[str, Any] = {"format": RECORD_FORMAT, "format_version": RECORD_FORMAT_VERSION,
                              "headers": head, "moves": moves}
    if viewer != "all":
        # the viewer's view before each move and at the end, from a replay of the truth
        truth = game_record(state, "all", date=None)
        record["views"] = [json.loads(json.dumps(dict(step.view(viewer))))
                           for step in replay_states(truth)]
    return record


def _players_header(players: Sequence[str | None] | None, count: int) -> list[str | None]:
    if players is None:
        return [None] * count
    if isinstance(players, str) or len(players) != count:
        raise ValueError(f"players must name each of the {count} seats (a list)")
    for name in players:
        if name is not None and not isinstance(name, str):
            raise TypeError("each player is a name or bot spec (str) or None")
    return list(players)


def _checked_comments(comments: Mapping[int, str] | None, moves: int) -> dict[int, str]:
    if comments is None:
        return {}
    notes: dict[int, str] = {}
    for index, text in comments.items():
        if type(index) is not int or not 0 <= index < moves:
            raise ValueError(f"a comment's key is a move index 0 to {moves - 1}: {index!r}")
        if not isinstance(text, str) or len(text) > _MAX_COMMENT:
            raise ValueError(f"comment {index}: text of at most {_MAX_COMMENT} characters")
        notes[index] = text
    return notes


def _checked_extra_headers(headers: Mapping[str, str] | None) -> dict[str, str]:
    extra: dict[str, str] = {}
    for name, value in (headers or {}).items():
        if name in HEADER_ORDER or not isinstance(name, str) or not _EXTRA_HEADER.fullmatch(name):
            raise ValueError(f"header {name!r}: own headers are lower-case names "
                             "(letters, digits, _) other than the standard ones")
        if not isinstance(value, str) or "\n" in value:
            raise ValueError(f"header {name!r}: the value is one line of text")
        extra[name] = value
    return extra


def _event_fields(event: Event) -> dict[str, Any]:
    """An event as a move's record lists it: its kind and fields (the move gives its
    index and mover; a field ``player`` is the player the event concerns)."""
    return {"kind": event.kind, **json.loads(json.dumps(dict(event.data)))}


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _library_version() -> str:
    import boardrules

    return boardrules.__version__


def _outcome_fields(outcome: Any) -> dict[str, Any] | None:
    if outcome is None:
        return None
    return {"winners": list(outcome.winners), "ranking": list(outcome.ranking),
            "scores": list(outcome.scores), "team_scores": list(outcome.team_scores),
            "reason": outcome.reason.value}


def _termination(outcome: Any) -> str:
    return "unfinished" if outcome is None else str(outcome.reason.value)


def result_text(outcome: Any) -> str:
    """The result in words: ``"player 1 wins"``, ``"players 0 and 2 win"``, ``"draw"``,
    or ``"*"`` for a game not over (the PGN mark)."""
    if outcome is None:
        return "*"
    winners = list(outcome.winners)
    if not winners or len(winners) == len(outcome.ranking):
        return "draw"
    if len(winners) == 1:
        return f"player {winners[0]} wins"
    return "players " + ", ".join(map(str, winners[:-1])) + f" and {winners[-1]} win"


#: How a field that holds nothing in the whole truth (no special advantage, no winner) is
#: said; ``?`` is kept for a value hidden from the event's viewer.
NOTHING = "none"
#: A redaction's viewer meaning the whole truth (a record of viewer ``"all"``): nothing hidden.
TRUTH: Literal["all"] = "all"


def describe_event(event: Mapping[str, Any] | Event, truth: Mapping[str, Any] | Event | None
                   = None, *, game: Any = None, viewer: int | Literal["all"] | None = TRUTH,
                   ) -> str:
    """An event in words -- an :class:`~boardrules.Event` or a record's event (its
    ``kind`` and fields) -- its kind, then each field.

    A value the event lacks (``None``) is said ``?`` when it is hidden from the event's
    viewer and :data:`NOTHING` (``none``) when the truth has none either (no special
    advantage, no winner).  Which it is, is known from ``truth`` (the same event
    unredacted), else from ``game`` and ``viewer`` (whose event it is: a player, ``None``
    a spectator, ``"all"`` the whole truth) by the game's own redaction; given neither,
    every missing value is ``?``."""
    fields = _fields(event)
    if truth is not None:
        fields = _absent_said(fields, _fields(truth))
    elif game is not None:
        fields = _absent_said(fields, _unhidden(game, viewer, event, fields))
    return _said(fields)


def _fields(event: Mapping[str, Any] | Event) -> dict[str, Any]:
    if isinstance(event, Event):
        return {"kind": event.kind, **event.data}
    return dict(event)


def _said(fields: Mapping[str, Any]) -> str:
    words = [f"{name.replace('_', ' ')} {_words(value)}" for name, value in fields.items()
             if name != "kind"]
    kind = str(fields.get("kind", "?")).replace("_", " ")
    return kind + (": " + ", ".join(words) if words else "")


def _absent_said(seen: Any, truth: Any) -> Any:
    """``seen`` with each value absent in ``truth`` too (None there) as :data:`NOTHING`;
    a value ``truth`` holds and ``seen`` lacks stays None (hidden: said ``?``)."""
    if seen is None:
        return NOTHING if truth is None else None
    if isinstance(seen, list | tuple) and isinstance(truth, list | tuple) \
            and len(seen) == len(truth):
        return [_absent_said(a, b) for a, b in zip(seen, truth, strict=True)]
    if isinstance(seen, Mapping) and isinstance(truth, Mapping):
        return {k: _absent_said(v, truth.get(k)) for k, v in seen.items()}
    return seen


#: Stands in a redaction probe for a missing value (text, so that a redaction that builds
#: a new Event -- a JSON round trip -- keeps it): what the redaction keeps was not hidden.
_HELD = "\x00held by the probe"


def _unhidden(game: Any, viewer: int | Literal["all"] | None,
              event: Mapping[str, Any] | Event, fields: Mapping[str, Any]) -> Any:
    """The event's fields as the truth would hold them, as far as absence goes: a
    missing value the game's redaction hides from ``viewer`` as a stand-in value, one it
    would leave (absent in the truth too) as None.  Found by redacting the event with
    every missing value filled in: what comes back None, the redaction hid.  The whole
    truth (``"all"``) hides nothing."""
    if viewer == TRUTH:
        return fields
    data = {k: _filled(v) for k, v in fields.items() if k != "kind"}
    # a record's event has no mover of its own: its ``player`` field is most often him
    said = event.player if isinstance(event, Event) else fields.get("player")
    mover = said if type(said) is int else CHANCE
    probe = Event(-1, mover, str(fields.get("kind")), data)
    try:
        seen = game._redact_event(probe, viewer)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        # no event the game makes (a viewer's record's events are as the file says: a
        # field missing or of another type): what is hidden is not known, so all is ``?``
        return _filled(fields)
    if seen is None:  # not his to know at all: every missing value is hidden
        return _filled(fields)
    return {"kind": fields.get("kind"), **_swapped(dict(seen.data))}


def _swapped(value: Any) -> Any:
    """A redacted probe as a truth: a kept stand-in (absent in the truth) as None, a
    value the redaction emptied (hidden) as a stand-in."""
    if value is None:
        return _HELD
    if value == _HELD:
        return None
    if isinstance(value, list | tuple):
        return [_swapped(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _swapped(v) for k, v in value.items()}
    return value


def _filled(value: Any) -> Any:
    if value is None:
        return _HELD
    if isinstance(value, list | tuple):
        return [_filled(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _filled(v) for k, v in value.items()}
    return value


def _words(value: Any) -> str:
    if value is None:
        return "?"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return "[" + " ".join(_words(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k} {_words(v)}" for k, v in value.items()) + "}"
    return str(value)


# --- reading ---

def record_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a format 3 record, shipped with the package."""
    text = resources.files("boardrules").joinpath("schemas/record-3.schema.json").read_text()
    schema: dict[str, Any] = json.loads(text)
    return schema


def upgrade_record(record: Mapping[str, Any]) -> dict[str, Any]:
    """A record of format 1, 2 or 3 as format 3 (a format 3 record is returned as a copy).

    A record of format 1 or 2 has no headers but the game's: its seed, players, date and
    library version are unknown (``None``); a viewer's record of those formats has no views
    and so replays only as its moves."""
    if not isinstance(record, Mapping):
        raise TypeError("a record is a mapping (the JSON object game_record returns)")
    version = record.get("format_version")
    if record.get("format") != RECORD_FORMAT or type(version) is not int or not 1 <= version <= 3:
        raise InvalidStateError(f"not a {RECORD_FORMAT} record of format 1, 2 or 3")
    if version == 3:
        copied: dict[str, Any] = json.loads(json.dumps(dict(record)))
        return copied
    moves = record.get("moves")
    if not isinstance(moves, list):
        raise InvalidStateError("moves must be a list")
    forced = record.get("forced", [])
    if not isinstance(forced, list):
        raise InvalidStateError("forced must list history indices, ascending")
    per_move: dict[int, list[dict[str, Any]]] = {}
    events = record.get("events", [])
    for event in events if isinstance(events, list) else []:
        if isinstance(event, dict) and type(event.get("index")) is int:
            # format 2 wrote an event's own player field over the mover: kept unless it
            # is the mover (then it says nothing the move does not)
            mover = _mover_at(moves, event["index"])
            fields = {k: v for k, v in event.items()
                      if k != "index" and not (k == "player" and v == mover)}
            per_move.setdefault(event["index"], []).append(fields)
    entries: list[dict[str, Any]] = []
    for i, entry in enumerate(moves):
        if not (isinstance(entry, list) and len(entry) == 2):
            raise InvalidStateError(f"moves[{i}] must be [mover, move]")
        entries.append({"mover": entry[0], "move": entry[1], "forced": i in forced,
                        "events": per_move.get(i, [])})
    outcome = record.get("outcome")
    return {
        "format": RECORD_FORMAT, "format_version": RECORD_FORMAT_VERSION,
        "headers": {
            "game": record.get("game"), "rules_version": record.get("rules_version"),
            "options": record.get("options"), "viewer": record.get("viewer"), "seed": None,
            "players": None, "date": None,
            "result": "*" if outcome is None else None, "termination": None,
            "outcome": outcome, "start": record.get("start"), "library_version": None,
        },
        "moves": entries,
    }


def _mover_at(moves: list[Any], index: int) -> Any:
    entry = moves[index] if 0 <= index < len(moves) else None
    return entry[0] if isinstance(entry, list) and entry else None


def _checked(record: Mapping[str, Any]) -> tuple[dict[str, Any], Any]:
    """The record as format 3 and its game, the headers checked (not yet the moves)."""
    import boardrules

    upgraded = upgrade_record(record)
    head = upgraded.get("headers")
    if not isinstance(head, dict):
        raise InvalidStateError("headers must be an object")
    game_id, options = head.get("game"), head.get("options")
    if not isinstance(game_id, str) or game_id not in boardrules.available_games():
        raise InvalidStateError(f"unknown game {game_id!r}")
    if not isinstance(options, dict) or not isinstance(upgraded.get("moves"), list):
        raise InvalidStateError("options must be an object and moves a list")
    check_saved_options(game_id, options)
    try:
        game = boardrules.load(AnyGameId(game_id), **options)
    except (InvalidOptionError, BoardDataError) as exc:
        raise InvalidStateError(f"options: {exc}") from None
    if head.get("rules_version") != game.rules_version:
        raise InvalidStateError("the record was made under other rules (rules_version)")
    if len(upgraded["moves"]) > game.max_game_length:
        raise InvalidStateError("more moves than any game has")
    viewer = head.get("viewer")
    if not (viewer in ("all", None) or (type(viewer) is int
                                        and 0 <= viewer < game.num_players)):
        raise InvalidStateError(f"viewer must be 'all', a player or null: {viewer!r}")
    if viewer != "all":
        _check_result_words(head)
    return upgraded, game


# --- the result headers: what the moves give, never what a header claims ---

#: The headers a record's moves decide (a whole record's are checked against its replay).
RESULT_HEADERS = ("result", "termination", "outcome")


def result_headers(state: State[Any]) -> dict[str, Any]:
    """The ``result``, ``termination`` and ``outcome`` headers of the game ``state`` is
    in, as the rules give them."""
    outcome = state.outcome()
    return {"result": result_text(outcome), "termination": _termination(outcome),
            "outcome": _outcome_fields(outcome)}


def check_result_headers(head: Mapping[str, Any], state: State[Any]) -> None:
    """A whole record's result headers against ``state``, the state its moves lead to:
    one that says anything else is refused (:class:`~boardrules.InvalidStateError`).

    A ``result`` or ``termination`` of ``null`` is unknown (an upgraded format 1 or 2
    record) and passes; an ``outcome`` of ``null`` says the game is not over.  A header
    missing from ``head`` is not checked (the text form may leave one out).  Every
    reader of a whole record (:func:`replay_states`, :func:`replay`, :func:`load_record`,
    the viewer) calls it, so no reader shows a result the moves do not give."""
    for name, truth in result_headers(state).items():
        if name not in head or (head[name] is None and name != "outcome"):
            continue
        if _as_json(head[name]) != _as_json(truth):
            raise InvalidStateError(f"the {name} header ({_as_json(head[name])}) is not "
                                    f"the {name} of the moves ({_as_json(truth)})")


def _as_json(value: Any) -> str:
    """``value`` as JSON with sorted keys: a comparison that tells 1 from 1.0 and true."""
    try:
        return json.dumps(value, sort_keys=True)
    except (TypeError, ValueError):
        return repr(value)


def _check_result_words(head: Mapping[str, Any]) -> None:
    """A viewer's record's ``result`` and ``termination`` against its own ``outcome``
    (the moves he saw may not decide it: hidden values count).  A whole record's are
    checked against its replay (:func:`check_result_headers`)."""
    outcome, result, termination = head.get("outcome"), head.get("result"), head.get(
        "termination")
    if outcome is None:
        said = {"result": "*", "termination": "unfinished"}
    else:
        winners = outcome.get("winners") if isinstance(outcome, dict) else None
        ranking = outcome.get("ranking") if isinstance(outcome, dict) else None
        if not (isinstance(winners, list) and isinstance(ranking, list)
                and isinstance(outcome.get("reason"), str)):
            raise InvalidStateError("the outcome header is an object with winners, "
                                    "ranking (lists) and reason, or null")
        shape = _OutcomeShape(tuple(winners), tuple(ranking))
        said = {"result": result_text(shape), "termination": outcome["reason"]}
    for name, value in (("result", result), ("termination", termination)):
        if value is not None and value != said[name]:
            raise InvalidStateError(f"the {name} header ({_as_json(value)}) is not the "
                                    f"outcome header's ({_as_json(said[name])})")


class _OutcomeShape:
    """An outcome header's winners and ranking, as :func:`result_text` reads them."""

    def __init__(self, winners: tuple[Any, ...], ranking: tuple[Any, ...]) -> None:
        self.winners = winners
        self.ranking = ranking


def replay_states(record: Mapping[str, Any]) -> Iterator[State[Any]]:
    """The states of a whole record (viewer ``"all"``): the start, then the state after
    each move, every move checked by the rules, and the record's ``result``,
    ``termination`` and ``outcome`` headers checked against the last state before it is
    given (:class:`~boardrules.InvalidStateError` for anything else; a viewer's record
    replays with :func:`replay_views`).  Each state is a copy of its own: keep any of
    them."""
    upgraded, game = _checked(record)
    for state, last in _replayed(upgraded, game):
        if last:  # given only once the headers are found to tell its result
            check_result_headers(upgraded["headers"], state)
        yield state.copy() if last else state


def _replayed(upgraded: dict[str, Any], game: Any,
              every_step: bool = True) -> Iterator[tuple[State[Any], bool]]:
    """Each state of a checked whole record (a copy), and whether it is the last (only
    the last unless ``every_step``); the result headers are the caller's to check."""
    if upgraded["headers"].get("viewer") != "all":
        raise InvalidStateError("only a whole record (viewer 'all') replays as states: "
                                "replay_views gives a viewer's record's views")
    start = upgraded["headers"].get("start")
    if start is None:
        state = game.new_game(seed=0, auto_chance=False, auto_forced=False)
    elif isinstance(start, str):
        try:
            state = game.position(start, seed=0, auto_chance=False, auto_forced=False)
        except (InvalidStateError, InvalidOptionError, BoardDataError, ValueError,
                NotImplementedError) as exc:
            raise InvalidStateError(f"start: {exc}") from None
    else:
        raise InvalidStateError("start must be a position (text) or null")
    for i, entry in enumerate(upgraded["moves"]):
        if every_step:
            yield state.copy(), False
        _step(state, i, entry)
    yield state, True


def _final_state(upgraded: dict[str, Any], game: Any) -> State[Any]:
    """The state a checked whole record leads to (no copy of any step on the way)."""
    return next(state for state, last in _replayed(upgraded, game, every_step=False)
                if last)


def replay(record: Mapping[str, Any]) -> State[Any]:
    """The state a whole record (viewer ``"all"``) leads to, every move checked by the
    rules and the result headers against it (:func:`check_result_headers`);
    :class:`~boardrules.InvalidStateError` for anything else."""
    upgraded, game = _checked(record)
    final = _final_state(upgraded, game)
    check_result_headers(upgraded["headers"], final)
    return final


def _step(state: State[Any], index: int, entry: Any) -> None:
    import boardrules

    if not (isinstance(entry, dict) and type(entry.get("mover")) is int
            and isinstance(entry.get("move"), str) and type(entry.get("forced")) is bool):
        raise InvalidStateError(f"moves[{index}] must be an object with mover (int), "
                                "move (text) and forced (true or false)")
    if entry["mover"] != state.current_player:
        raise InvalidStateError(f"moves[{index}]: {entry['mover']!r} is not who moves there")
    try:
        if entry["forced"]:
            _take_forced_step(state, index, entry["move"])
        else:  # a forced step asked of its player (auto_forced=False) is a move
            state.apply(entry["move"])
    except InvalidStateError:
        raise
    except boardrules.BoardRulesError as exc:
        raise InvalidStateError(f"moves[{index}] {entry['move']!r}: {exc}") from None


def _take_forced_step(state: State[Any], index: int, text: str) -> None:
    """A step the record marks forced: taken as the engine takes one (so the replayed
    state lists it in ``state.forced``, and its own record marks it again)."""
    if not state.decision().forced:
        raise InvalidStateError(f"moves[{index}]: marked forced, but is no forced step")
    try:
        state._core.apply_forced(state.game._action_of(text))
    except ValueError:
        raise InvalidStateError(f"moves[{index}]: not the forced step's move") from None


def replay_views(record: Mapping[str, Any], viewer: int | Literal["record"] | None = "record",
                 ) -> list[Mapping[str, Any]]:
    """What the record's viewer saw before the first move and after each: a viewer's
    record gives its stored views (checked against its moves' count); a whole record the
    views of ``viewer`` (a player or ``None``, a spectator), computed by replaying it."""
    upgraded, _ = _checked(record)
    recorded = upgraded["headers"].get("viewer")
    if recorded == "all":
        if viewer == "record":
            raise InvalidStateError("a whole record: say whose views (a player or None)")
        return [state.view(viewer) for state in replay_states(upgraded)]
    if viewer not in ("record", recorded):
        raise InvalidStateError(f"the record holds only what {recorded!r} saw")
    views = upgraded.get("views")
    if not isinstance(views, list) or len(views) != len(upgraded["moves"]) + 1:
        raise InvalidStateError("a viewer's record needs one view more than it has moves")
    if not all(isinstance(view, dict) for view in views):
        raise InvalidStateError("each view is an object")
    return views


def load_record(text: str | bytes) -> dict[str, Any]:
    """A record from its JSON or its text form (:func:`record_to_text`), as format 3.

    A whole record is replayed: a result header the moves do not give is refused
    (:func:`check_result_headers`), an unknown one filled in, and its events are those
    the moves caused, whatever the file says."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise InvalidStateError("a record is UTF-8 text") from None
    if not isinstance(text, str):
        raise TypeError("a record is text (JSON or the text form)")
    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise InvalidStateError(f"not JSON: {exc}") from None
        if not isinstance(data, dict):
            raise InvalidStateError("a record is a JSON object")
        return _settled(upgrade_record(data))
    return record_from_text(text)


def _settled(record: dict[str, Any]) -> dict[str, Any]:
    """A whole record replayed, its result headers checked and an unknown one (null, in
    an upgraded old record) filled in, its events those the moves caused (as the text
    form's are); a viewer's record as it is (its own checks are made when it is read:
    :func:`replay_views`)."""
    head = record.get("headers")
    if not isinstance(head, dict) or head.get("viewer") != "all":
        return record
    final = replay(record)
    _tell_truth(record, final)
    return record


def _tell_truth(record: dict[str, Any], final: State[Any]) -> None:
    """A replayed whole record's events and result headers set to those of the rules."""
    for entry in record["moves"]:
        entry["events"] = []
    for per_action in final._truth_events():
        for event in per_action:
            record["moves"][event.index]["events"].append(_event_fields(event))
    record["headers"].update(result_headers(final))


# --- the text form ---

_TEXT_HEADERS = {"game": "Game", "rules_version": "RulesVersion", "options": "Options",
                 "viewer": "Viewer", "seed": "Seed", "date": "Date", "result": "Result",
                 "termination": "Termination", "outcome": "Outcome", "start": "Start",
                 "library_version": "Library"}
_DATA_MARK = "%% data"
#: Every character str.splitlines breaks a line at: a comment writes each as an escape,
#: so that a move stays one line of the text form whatever its comment holds.
LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
#: A comment's escapes: ``\\`` and ``\}`` for the characters that end it, ``\n`` and
#: ``\r``, and ``\uXXXX`` (four hex digits) for the other line breaks.
_ESCAPES = {"\\": "\\\\", "}": "\\}", "\n": "\\n", "\r": "\\r",
            **{char: f"\\u{ord(char):04x}" for char in LINE_BREAKS[2:]}}
_HEX4 = re.compile(r"[0-9a-fA-F]{4}")
_MOVE_LINE = re.compile(r"\s*(\d+)\.\s+(chance|P\d+):\s(.*)$")


def record_to_text(record: Mapping[str, Any]) -> str:
    """The record as text a person reads: ``[Name "value"]`` headers (values as JSON),
    then one numbered line per move -- its mover (``P0``, ``P1``... or ``chance``), the
    move, ``(forced)``, ``{a comment}`` -- with what it caused in words after ``;``.
    A viewer's record ends with its views and events as JSON after a ``%% data`` line.
    :func:`record_from_text` reads it back to the same record."""
    upgraded, game = _checked(record)
    head = upgraded["headers"]
    lines = []
    for name in HEADER_ORDER:
        if name == "players":
            for seat, who in enumerate(head.get("players") or []):
                lines.append(f"[Player{seat} {json.dumps(who)}]")
        elif head.get(name) is not None or name == "viewer":  # null: a spectator
            lines.append(f"[{_TEXT_HEADERS[name]} {json.dumps(head[name], sort_keys=True)}]")
    for name in sorted(set(head) - set(HEADER_ORDER)):
        lines.append(f"[X-{name} {json.dumps(head[name])}]")
    lines.append("")
    whole = head.get("viewer") == "all"
    for i, entry in enumerate(upgraded["moves"]):
        lines.append(_move_line(i, entry, words=True, game=game, viewer=head["viewer"]))
    if not whole:
        data = {"events": [entry["events"] for entry in upgraded["moves"]],
                "views": upgraded.get("views")}
        lines += ["", _DATA_MARK, json.dumps(data, separators=(",", ":"))]
    return "\n".join(lines) + "\n"


def _move_line(index: int, entry: Mapping[str, Any], *, words: bool, game: Any = None,
               viewer: Any = TRUTH) -> str:
    mover = "chance" if entry["mover"] == CHANCE else f"P{entry['mover']}"
    move = str(entry["move"])
    if any(mark in move for mark in "{};") or move != move.strip() or "(forced)" in move:
        raise InvalidStateError(f"moves[{index}]: {move!r} cannot be written as text")
    line = f"{index + 1:4d}. {mover}: {move}"
    if entry.get("forced"):
        line += " (forced)"
    if "comment" in entry:
        line += " {" + _escaped(str(entry["comment"])) + "}"
    if words and entry.get("events"):
        said = "; ".join(describe_event(e, game=game, viewer=viewer) for e in entry["events"])
        line += " ; " + " ".join(said.split())  # one line, whatever a value holds
    return line


def record_from_text(text: str) -> dict[str, Any]:
    """A record from :func:`record_to_text`'s text: the headers and moves read, a whole
    record's events and outcome computed by replaying it (so its words need not be kept),
    a viewer's taken from its ``%% data`` part."""
    if not isinstance(text, str):
        raise TypeError("the text form of a record is a str")
    body, _, data = text.partition("\n" + _DATA_MARK + "\n")
    head: dict[str, Any] = {"players": []}
    moves: list[dict[str, Any]] = []
    for number, line in enumerate(body.splitlines(), start=1):
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("["):
            _read_header(stripped, number, head)
        else:
            moves.append(_read_move(stripped, number, len(moves)))
    if not head["players"]:
        head["players"] = None
    head.setdefault("viewer", "all")
    given = set(head)
    for name in HEADER_ORDER:
        head.setdefault(name, None)
    record: dict[str, Any] = {"format": RECORD_FORMAT,
                              "format_version": RECORD_FORMAT_VERSION,
                              "headers": head, "moves": moves}
    if head["viewer"] == "all":
        return _with_truth(record, given)
    return _with_data(record, data)


def _read_header(line: str, number: int, head: dict[str, Any]) -> None:
    match = re.fullmatch(r"\[([A-Za-z][A-Za-z0-9_-]*) (.*)\]", line)
    if match is None:
        raise InvalidStateError(f"line {number}: a header is [Name \"value\"]")
    name, raw = match.groups()
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError):
        raise InvalidStateError(f"line {number}: header {name}'s value is not JSON") from None
    keys = {text: key for key, text in _TEXT_HEADERS.items()}
    if name in keys:
        head[keys[name]] = value
    elif re.fullmatch(r"Player\d+", name):
        if int(name[6:]) != len(head["players"]):
            raise InvalidStateError(f"line {number}: players are listed from Player0 on")
        head["players"].append(value)
    elif name.startswith("X-"):
        head[name[2:]] = value
    else:
        raise InvalidStateError(f"line {number}: unknown header {name}")


def _read_move(line: str, number: int, index: int) -> dict[str, Any]:
    match = _MOVE_LINE.fullmatch(line)
    if match is None or int(match.group(1)) != index + 1:
        raise InvalidStateError(f"line {number}: a move is 'N. P0: move' (move {index + 1})")
    mover_text, rest = match.group(2), match.group(3)
    # a move's text has no brace or semicolon: the first " {" opens a comment, the first
    # " ;" (outside it) starts the words, which are for reading only
    brace, words = rest.find(" {"), rest.find(" ;")
    comment = None
    if brace != -1 and (words == -1 or brace < words):
        rest, tail = rest[:brace], rest[brace + 2:]
        body, end, after = _comment_end(tail)
        if not end or (after.strip() and not after.lstrip().startswith(";")):
            raise InvalidStateError(f"line {number}: a comment ends with }}")
        comment = body
    elif words != -1:
        rest = rest[:words]
    forced = rest.endswith(" (forced)")
    move = rest[: -len(" (forced)")] if forced else rest.rstrip()
    entry: dict[str, Any] = {"mover": CHANCE if mover_text == "chance" else int(mover_text[1:]),
                             "move": move.strip(), "forced": forced, "events": []}
    if comment is not None:
        entry["comment"] = comment
    return entry


def _comment_end(tail: str) -> tuple[str, bool, str]:
    """A comment's text (unescaped), whether its ``}`` was found, and what follows."""
    out, i = [], 0
    while i < len(tail):
        char = tail[i]
        if char == "\\" and i + 1 < len(tail):
            escaped, i = _unescaped(tail, i + 1)
            out.append(escaped)
            continue
        if char == "}":
            return "".join(out), True, tail[i + 1:]
        out.append(char)
        i += 1
    return "".join(out), False, ""


def _escaped(comment: str) -> str:
    return "".join(_ESCAPES.get(char, char) for char in comment)


def _unescaped(tail: str, at: int) -> tuple[str, int]:
    """The character the escape whose letter is at ``at`` stands for, and where the text
    goes on: ``n``, ``r``, ``u`` and four hex digits, or the character itself (``\\``,
    ``}``; an older writer escaped nothing else)."""
    letter = tail[at]
    if letter == "u" and _HEX4.fullmatch(tail, at + 1, at + 5):
        return chr(int(tail[at + 1:at + 5], 16)), at + 5
    return {"n": "\n", "r": "\r"}.get(letter, letter), at + 1


def _with_truth(record: dict[str, Any], given: set[str]) -> dict[str, Any]:
    """A whole record read from text: replayed, its events and result headers those of
    the rules (a result header the text gives -- ``given`` -- must agree)."""
    upgraded, game = _checked(record)
    final = _final_state(upgraded, game)
    head = record["headers"]
    check_result_headers({name: head[name] for name in given & set(RESULT_HEADERS)},
                         final)
    _tell_truth(record, final)
    return record


def _with_data(record: dict[str, Any], data: str) -> dict[str, Any]:
    try:
        payload = json.loads(data)
    except (ValueError, RecursionError):
        raise InvalidStateError("a viewer's record ends with its %% data (JSON)") from None
    events = payload.get("events") if isinstance(payload, dict) else None
    if not isinstance(events, list) or len(events) != len(record["moves"]):
        raise InvalidStateError("%% data: one list of events per move")
    for entry, caused in zip(record["moves"], events, strict=True):
        entry["events"] = caused
    record["views"] = payload.get("views")
    replay_views(record)  # checks the views against the moves
    return record
