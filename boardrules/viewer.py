"""A game record as one self-contained HTML page: the board at every step, step and play
controls, the move list with its events in words, the headers, and suggestions if asked.

>>> import boardrules
>>> from boardrules.records import game_record
>>> from boardrules.viewer import record_html
>>> state = boardrules.load("armadora", players=2).new_game(seed=5)
>>> state.apply("3@c2")
>>> page = record_html(game_record(state, players=["alice", "bob"], date=None))
>>> page.startswith("<!DOCTYPE html>") and 'id="board"' in page
True

The page needs no network (its style, script and pictures are inline) and no server: open
it from disk.  A whole record shows, at the reader's choice, what each player saw, what a
spectator saw and the whole truth; a viewer's record (or ``viewer=`` a player) shows only
what that viewer saw, and the file holds nothing more, so it can be given to him.
:doc:`/viewer` describes the page and the ``boardrules record`` commands.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from boardrules.api import Game, Move, State
from boardrules.errors import BoardRulesError, InvalidStateError
from boardrules.records import (
    HEADER_ORDER,
    _checked,
    _event_fields,
    describe_event,
    game_record,
    replay,
    replay_states,
    replay_views,
)

__all__ = ["ViewerChoice", "record_as_seen", "record_html"]

#: Whose eyes a page shows: ``"record"`` (the record's own viewer), ``"all"`` (a whole
#: record: every player, the spectator and the truth), a player, or ``None`` (a spectator).
ViewerChoice = int | None | Literal["all", "record"]
#: Milliseconds between two steps while the page plays the game.
PLAY_INTERVAL_MS = 800
#: Suggestions marked on the board per step (ranks "1", "2", "3").
MARKED_SUGGESTIONS = 3

# A picture is split after every ">" into tokens (a tag with the text before it); a
# step's picture differs from the one before in a few tokens only, so the page stores
# each distinct token once and each picture as a delta on the one before (_Pictures).
# Each token is checked once, when it is first seen, by this pattern of a plain tag.
_TAG = re.compile(r"([^<]*)<(/?)([A-Za-z][A-Za-z0-9:_-]*)((?:\s+[A-Za-z_:][-\w:.]*\s*=\s*"
                  r"(?:\"[^\"]*\"|'[^']*'))*)\s*(/?)>")
_ATTRIBUTE = re.compile(r"([A-Za-z_:][-\w:.]*)\s*=\s*(\"[^\"]*\"|'[^']*')")
_EXTERNAL_URL = re.compile(r"url\(\s*['\"]?\s*(?!#)|javascript:"
                           # CSS functions that fetch a picture named by a plain string
                           r"|(?:image-set|image|cross-fade|element|expression)\s*\(",
                           re.IGNORECASE)
#: A CSS escape: a backslash and 1-6 hex digits (one white space after them is part of
#: it), or a backslash and any other character but a line break (CSS Syntax 4.3.7).
_CSS_ESCAPE = re.compile(r"\\(?:([0-9A-Fa-f]{1,6})(?:\r\n|[ \t\r\n\f])?|([^\r\n\f]))")
#: SVG elements a board picture may use; anything else (a script, a foreign object, a
#: style sheet that could fetch) is refused, whatever view it was drawn from.
_SVG_ELEMENTS = frozenset({
    "svg", "g", "rect", "circle", "ellipse", "line", "polyline", "polygon", "path", "text",
    "tspan", "title", "desc", "defs", "marker", "use", "lineargradient", "radialgradient",
    "stop", "clippath", "pattern", "symbol", "mask"})


# --- a record as one viewer saw it ---

def record_as_seen(record: Mapping[str, Any], viewer: int | None) -> dict[str, Any]:
    """A whole record re-recorded as ``viewer`` (a player, ``None`` a spectator) saw it:
    his moves' texts and his events as he knew them at the record's end, his view at
    every step (:func:`~boardrules.records.game_record` of the replayed game), every
    header kept but ``viewer``.  A viewer's record of that viewer comes back as it is;
    of another, :class:`~boardrules.InvalidStateError`.  (:func:`record_html` and
    ``boardrules replay`` show each step as he saw it then, from the whole record.)"""
    upgraded, game = _checked(record)
    _check_viewer_arg(viewer, game.num_players)
    recorded = upgraded["headers"]["viewer"]
    if recorded != "all":
        if viewer != recorded:
            raise InvalidStateError(f"the record holds only what {_who(recorded)} saw")
        return upgraded
    return _seen(upgraded, replay(upgraded), viewer)


def _seen(upgraded: dict[str, Any], final: State[Any], viewer: int | None) -> dict[str, Any]:
    comments = {i: entry["comment"] for i, entry in enumerate(upgraded["moves"])
                if "comment" in entry}
    try:
        seen = game_record(final, viewer, date=None, comments=comments)
    except ValueError as exc:  # a comment game_record would not write
        raise InvalidStateError(str(exc)) from None
    seen["headers"] = {**upgraded["headers"], "viewer": viewer}
    copied: dict[str, Any] = json.loads(json.dumps(seen))
    return copied


def _check_viewer_arg(viewer: object, players: int) -> None:
    if viewer is None or viewer in ("all", "record"):
        return
    if type(viewer) is not int:
        raise TypeError(f"viewer is 'record', 'all', a player (int) or None, not {viewer!r}")
    if not 0 <= viewer < players:
        raise ValueError(f"viewer {viewer} is not a player of this game (0 to {players - 1})")


def _who(viewer: object) -> str:
    if viewer == "all":
        return "the whole truth"
    return "a spectator" if viewer is None else f"player {viewer}"


# --- the page ---

def record_html(record: Mapping[str, Any], *, viewer: ViewerChoice = "record",
                hints: int | Sequence[Any] | None = None, title: str | None = None) -> str:
    """The record as one HTML page (a ``str``; write it to a ``.html`` file).

    ``viewer``: ``"record"`` (the default) shows a whole record with every eye -- each
    player's, the spectator's and the whole truth (where the game draws it) -- and a
    selector; a viewer's record as its viewer saw it.  ``"all"`` asks for the former (a
    whole record only); a player or ``None`` (a spectator) for what that viewer saw only
    (a whole record: his eyes step by step, and the record embedded is
    :func:`record_as_seen`'s; a viewer's record must be his).  A player's (or the
    spectator's) eyes at a step show what the library gave him at that step: the moves
    and their events as his log read there and his view there, never what he learned
    later (:func:`boardrules.testing.check_step_eyes`).

    ``hints``: suggestions marked ``1``, ``2``, ``3`` on the locations of the top three
    moves.  An ``int`` is an iteration budget: :func:`boardrules.suggest` runs for the
    player to move at every step (``seed`` = the step; whole records only).  Else one
    item per step (moves plus one): ``None``, a :class:`~boardrules.search.Suggestion`,
    or the moves best first (moves, notation, or ``(move, value)`` pairs).  On a whole record
    a suggestion shows in the truth and in the view of the player it is for (in every
    view of a game without hidden information); on a viewer's record as given.

    ``title``: the page's title (default: the game, players and result).  A record that
    does not replay raises :class:`~boardrules.InvalidStateError`; a bad argument
    ``TypeError`` or ``ValueError``."""
    upgraded, game = _checked(record)
    _check_viewer_arg(viewer, game.num_players)
    if title is not None and not isinstance(title, str):
        raise TypeError(f"title is a str or None, not {type(title).__name__}")
    recorded = upgraded["headers"]["viewer"]
    pictures = _Pictures()
    if recorded == "all":
        shown, sides = _whole_record_sides(upgraded, game, viewer, hints, pictures)
    else:
        if viewer not in ("record", recorded):
            raise InvalidStateError(f"the record holds only what {_who(recorded)} saw")
        if isinstance(hints, int) and not isinstance(hints, bool):
            raise ValueError("hints=N searches the game's states: a whole record only "
                             "(a viewer's record gives its hints per step)")
        shown = upgraded
        sides = [_viewers_record_side(upgraded, game, hints, pictures)]
    return _page(shown, game, sides, pictures, title)


Hint = list[tuple[str, float | None]]
Render = Callable[[tuple[str, ...], tuple[tuple[str, str], ...]], str]


@dataclass
class _Side:
    """One eye on the game (``"all"``: the whole truth): the moves as he saw them at
    each step, and per step the suggestions shown to him and the number of the picture
    he saw."""

    eye: int | Literal["all"] | None
    key: str
    label: str
    #: each move as this eye saw it when it was made (at the step after it)
    moves: list[dict[str, Any]]
    #: ``(step, index, entry)``: from ``step`` on, move ``index`` reads ``entry`` (a card
    #: revealed later: the eye's log at that step writes the earlier move anew)
    revisions: list[tuple[int, int, dict[str, Any]]] = field(default_factory=list)
    hints: list[Hint] = field(default_factory=list)
    boards: list[int] = field(default_factory=list)
    # the picture drawn the step before: what it was drawn from, its number and tokens
    _drawn_from: Any = None
    _before: tuple[int, tuple[int, ...]] | None = None

    def add_step(self, game: Game[Any, Any], pictures: _Pictures, hint: Hint,
                 render: Render, drawn_from: Any = None) -> None:
        """The next step's picture: the move just made outlined, ``hint``'s moves
        marked; ``drawn_from`` (a view) spares drawing a step that changed nothing this
        eye sees (``None``: always draw)."""
        step = len(self.boards)
        highlight = () if step == 0 else _locations(game, self.moves[step - 1], step - 1)
        marks = _marks(game, hint, step)
        source = None if drawn_from is None else (drawn_from, highlight, marks)
        if source is None or source != self._drawn_from or self._before is None:
            self._before = pictures.add(render(highlight, marks), self._before)
        self._drawn_from = source
        self.hints.append(hint)
        self.boards.append(self._before[0])


def _whole_record_sides(upgraded: dict[str, Any], game: Game[Any, Any], viewer: ViewerChoice,
                        hints: object, pictures: _Pictures,
                        ) -> tuple[dict[str, Any], list[_Side]]:
    """The eyes on a whole record, drawn step by step as it replays (a long game's
    states and views are never all kept at once).  A player's (or the spectator's) eye
    shows at each step what the library gave him at that step -- the view, and the moves
    and events as his log read then -- never what he learned only later."""
    final = replay(upgraded)
    steps = len(upgraded["moves"]) + 1
    budget = _budget(hints)
    given = _given_hints(None if budget else hints, steps, game)
    shown = upgraded
    eyes: list[int | None] = [*range(game.num_players), None]
    if viewer not in ("all", "record"):
        assert viewer is None or isinstance(viewer, int)
        shown = _seen(upgraded, final, viewer)  # the record the page embeds: his own
        eyes = [viewer]
    logs = [_EyeLog(eye, final) for eye in eyes]
    sides = [_Side(log.eye, _key(log.eye), _label(log.eye, upgraded), log.made,
                   log.revisions) for log in logs]  # filled in as the record replays
    if viewer in ("all", "record") and _draws_truth(final):
        # the moves' events as the rules tell them (a record's own are not checked)
        truth = game_record(final, "all", date=None)["moves"]
        sides.insert(0, _Side("all", "all", "whole truth", truth))
    for step, state in enumerate(replay_states(upgraded)):
        hint = _search(state, budget, step) if budget else given[step]
        for log in logs:
            log.see(state, step)
        for side in sides:
            _add_state_step(side, game, pictures, state, hint)
    return shown, sides


class _EyeLog:
    """The moves as one eye (a player, ``None`` a spectator) saw them, kept step by step
    as a whole record replays: ``rows`` as the log of the state just replayed reads
    (:meth:`~boardrules.State.history_view` and :meth:`~boardrules.State.events` there),
    ``made`` each move as it read at the step after it, ``revisions`` each later change
    of an earlier move (Rome & Carthage's face-down ``play ?`` reads ``play 10+4`` from
    the step that reveals the cards on, not before)."""

    def __init__(self, eye: int | None, final: State[Any]) -> None:
        self.eye = eye
        self.rows: list[dict[str, Any]] = []
        self.made: list[dict[str, Any]] = []
        self.revisions: list[tuple[int, int, dict[str, Any]]] = []
        self._forced = set(final.forced)
        # nothing hidden: every eye's log is the truth, no move ever reads otherwise
        self._fixed = None if final.game.has_hidden_information else final.history_view(eye)
        # An action's events are computed from the states before and after it, and each
        # is redacted by the event and the eye alone (Game._redact_event): what the eye
        # was told of a move at any step is what the final state's events(eye) tell of
        # it (check_step_eyes checks it against events() at every step).
        self._told: list[list[dict[str, Any]]] = [[] for _ in final.history]
        for event in final.events(eye):
            self._told[event.index].append(_event_fields(event))

    def see(self, state: State[Any], step: int) -> None:
        """Bring the rows to ``state``, the state after ``step`` moves."""
        if step == 0:
            return
        if self._fixed is not None:
            mover, text = self._fixed[step - 1]
        else:
            log = state.history_view(self.eye)
            for index, (row, (_, now)) in enumerate(zip(self.rows, log, strict=False)):
                if row["move"] != now:  # this step tells the eye more of an earlier move
                    self.rows[index] = {**row, "move": now}
                    self.revisions.append((step, index, self.rows[index]))
            mover, text = log[step - 1]
        entry = {"mover": mover, "move": text, "forced": step - 1 in self._forced,
                 "events": self._told[step - 1]}
        self.rows.append(entry)
        self.made.append(entry)


def _steps_as_seen(record: Mapping[str, Any], eye: int | None,
                  ) -> Iterator[tuple[dict[str, Any] | None, Mapping[str, Any]]]:
    """A whole record's steps as ``eye`` (a player, ``None`` a spectator) saw each of
    them: the move that led there as his log read at that step (``None`` at the start),
    and his view there."""
    upgraded, game = _checked(record)
    _check_viewer_arg(eye, game.num_players)
    log = _EyeLog(eye, replay(upgraded))
    for step, state in enumerate(replay_states(upgraded)):
        log.see(state, step)
        yield (log.rows[step - 1] if step else None), state.view(eye)


def _add_state_step(side: _Side, game: Game[Any, Any], pictures: _Pictures,
                    state: State[Any], hint: Hint) -> None:
    eye = side.eye
    if eye == "all":
        side.add_step(game, pictures, hint, lambda highlight, marks: state.render_svg_truth(
            highlight=highlight, marks=marks))
        return
    view = state.view(eye)
    shown = hint if _may_see(eye, state.current_player, game) else []
    side.add_step(game, pictures, shown, _view_render(game, view, len(side.boards)),
                  drawn_from=view)


def _draws_truth(state: State[Any]) -> bool:
    try:
        state.render_svg_truth()
    except NotImplementedError:  # the game does not draw its whole truth
        return False
    return True


def _may_see(eye: int | None, mover: int, game: Game[Any, Any]) -> bool:
    """Whether a suggestion for ``mover`` (it used what he knows) may show to ``eye``."""
    return eye == mover or not game.has_hidden_information


def _viewers_record_side(upgraded: dict[str, Any], game: Game[Any, Any],
                         hints: object, pictures: _Pictures) -> _Side:
    views = replay_views(upgraded)
    for i, entry in enumerate(upgraded["moves"]):
        _check_entry(i, entry)
    recorded = upgraded["headers"]["viewer"]
    side = _Side(recorded, _key(recorded), _label(recorded, upgraded), upgraded["moves"])
    for step, hint in enumerate(_given_hints(hints, len(views), game)):
        view = views[step]
        side.add_step(game, pictures, hint, _view_render(game, view, step), drawn_from=view)
    return side


def _check_entry(index: int, entry: object) -> None:
    """A viewer's record's move (not replayed: its moves may be partly hidden)."""
    if not (isinstance(entry, dict) and type(entry.get("mover")) is int
            and isinstance(entry.get("move"), str) and isinstance(entry.get("events"), list)
            and all(isinstance(event, dict) for event in entry["events"])
            and isinstance(entry.get("comment", ""), str)):
        raise InvalidStateError(f"moves[{index}] must be an object with mover (int), move "
                                "(text), events (a list of objects) and a text comment")


def _view_render(game: Game[Any, Any], view: Mapping[str, Any], step: int) -> Render:
    """Draws ``view`` (step ``step``'s) with the overlays it is given; a view the game
    cannot draw (a viewer's record's views are input) is an InvalidStateError."""

    def render(highlight: tuple[str, ...], marks: tuple[tuple[str, str], ...]) -> str:
        try:
            return game.render_view_svg(view, highlight=highlight, marks=marks)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise InvalidStateError(f"views[{step}]: not a view {game.name} draws "
                                    f"({type(exc).__name__}: {exc})") from None

    return render


def _locations(game: Game[Any, Any], entry: Mapping[str, Any], index: int) -> tuple[str, ...]:
    try:
        return tuple(game.move_locations(entry["move"]))
    except (BoardRulesError, ValueError) as exc:
        raise InvalidStateError(f"moves[{index}] {entry['move']!r}: {exc}") from None


def _marks(game: Game[Any, Any], hint: Hint, step: int) -> tuple[tuple[str, str], ...]:
    """Badges ``1``, ``2``, ``3`` where the top moves go (their last location); moves
    landing on one location share its badge (``1/3``)."""
    labels: dict[str, list[str]] = {}
    for rank, (text, _) in enumerate(hint[:MARKED_SUGGESTIONS], start=1):
        try:
            places = game.move_locations(text)
        except (BoardRulesError, ValueError) as exc:
            raise ValueError(f"hints[{step}]: {text!r} is no move of {game.name}: {exc}") \
                from None
        if places:
            labels.setdefault(places[-1], []).append(str(rank))
    return tuple((place, "/".join(ranks)) for place, ranks in labels.items())


def _key(eye: object) -> str:
    return "spectator" if eye is None else str(eye)


def _label(eye: object, upgraded: Mapping[str, Any]) -> str:
    if eye is None:
        return "spectator"
    players = upgraded["headers"].get("players") or []
    name = players[eye] if isinstance(eye, int) and eye < len(players) else None
    return f"player {eye}" + (f" ({name})" if isinstance(name, str) else "")


# --- suggestions ---

def _budget(hints: object) -> int:
    """``hints``' search budget (iterations per step), 0 if it is not one."""
    if not isinstance(hints, int) or isinstance(hints, bool):
        return 0
    if hints < 1:
        raise ValueError(f"hints=N is a search budget of at least 1 iteration: {hints}")
    return hints


def _search(state: State[Any], iterations: int, step: int) -> Hint:
    import boardrules

    if state.current_player < 0 or len(state.legal_moves()) < 2:
        return []  # chance, the end, or a forced step: nothing to suggest
    found = boardrules.suggest(state, iterations=iterations, seed=step)
    return [(str(move), float(value)) for move, value, _ in found.ranked[:MARKED_SUGGESTIONS]]


def _given_hints(hints: object, steps: int, game: Game[Any, Any]) -> list[Hint]:
    if hints is None:
        return [[] for _ in range(steps)]
    if isinstance(hints, (str, bytes, bool)) or not isinstance(hints, Sequence):
        raise TypeError("hints is an iteration budget (int) or one item per step (a list)")
    if len(hints) != steps:
        raise ValueError(f"hints: one item per step ({steps}: the moves and the start), "
                         f"not {len(hints)}")
    return [_one_hint(item, step) for step, item in enumerate(hints)]


def _one_hint(item: object, step: int) -> Hint:
    import boardrules

    if item is None:
        return []
    if isinstance(item, boardrules.Suggestion):
        return [(str(move), float(value)) for move, value, _ in item.ranked]
    if isinstance(item, (str, bytes)) or not isinstance(item, Sequence):
        raise TypeError(f"hints[{step}]: None, a Suggestion or a list of moves")
    ranked: Hint = []
    for move in item:
        value: float | None = None
        if isinstance(move, tuple) and len(move) >= 2 and isinstance(move[1], (int, float)):
            move, value = move[0], float(move[1])
        if not isinstance(move, (str, Move)):
            raise TypeError(f"hints[{step}]: a move is a Move or its notation, not {move!r}")
        ranked.append((str(move), value))
    return ranked


# --- pictures, stored once ---

class _Pictures:
    """Distinct tokens, and each distinct picture as a delta on an earlier one (its
    base, the step before in the same eye, or the first picture for an eye's first
    step): ``[base, ops...]``, an op a run ``position, count`` copied from the base's
    tokens or a token ``-1 - number`` of its own; base ``-1``, a picture of tokens only,
    starts every chain of ``KEYFRAME`` (the page decodes a picture in at most that many
    deltas)."""

    KEYFRAME = 32
    #: Tokens that must match for a copy to start anywhere but where the last one ended
    #: (a lone ``</text>`` matches everywhere and would cut the copies short).
    ANCHOR = 4

    def __init__(self) -> None:
        self.tokens: list[str] = []
        self.encoded: list[list[int]] = []
        self._token_ids: dict[str, int] = {}
        self._picture_ids: dict[bytes, int] = {}
        self._depth: list[int] = []
        self._first: tuple[int, tuple[int, ...]] | None = None

    def add(self, svg: str, before: tuple[int, tuple[int, ...]] | None,
            ) -> tuple[int, tuple[int, ...]]:
        """The picture's number and tokens; ``before`` the number and tokens of the
        picture to encode it against (``None``: the first picture of all)."""
        numbers = self._numbers(svg)
        digest = hashlib.blake2b(svg.encode(), digest_size=16).digest()
        known = self._picture_ids.get(digest)
        if known is not None:
            return known, numbers
        base, base_numbers = before or self._first or (-1, ())
        if base >= 0 and self._depth[base] + 1 >= self.KEYFRAME:
            base = -1
        ops = [-1 - n for n in numbers] if base < 0 else _delta(base_numbers, numbers,
                                                                 self.ANCHOR)
        index = self._picture_ids[digest] = len(self.encoded)
        self.encoded.append([base, *ops])
        self._depth.append(0 if base < 0 else self._depth[base] + 1)
        if self._first is None:
            self._first = (index, numbers)
        return index, numbers

    def _numbers(self, svg: str) -> tuple[int, ...]:
        """The picture's tokens' numbers, a token not seen before checked and added."""
        parts = svg.split(">")
        tokens = [part + ">" for part in parts[:-1]]
        if parts[-1]:
            tokens.append(parts[-1])
        numbers = list(map(self._token_ids.get, tokens))
        for i, number in enumerate(numbers):
            if number is None:
                numbers[i] = self._new_token(tokens[i])
        return tuple(n for n in numbers if n is not None)

    def _new_token(self, token: str) -> int:
        known = self._token_ids.get(token)  # twice in one picture
        if known is not None:
            return known
        _check_token(token)
        number = self._token_ids[token] = len(self.tokens)
        self.tokens.append(token)
        return number


def _delta(base: tuple[int, ...], new: tuple[int, ...], anchor: int) -> list[int]:
    """``new`` as copies from ``base`` (``position, count``) and tokens of its own
    (``-1 - number``): at each token, go on copying where the last copy ended if the
    token matches there, else copy from where the next ``anchor`` tokens are in
    ``base``, else take the token as it is."""
    where: dict[tuple[int, ...], int] | None = None  # built at the first change
    ops: list[int] = []
    i = follow = 0
    while i < len(new):
        if follow < len(base) and base[follow] == new[i]:
            start = follow
        else:
            if where is None:
                where = {base[k:k + anchor]: k  # the first place of each window wins
                         for k in range(len(base) - anchor, -1, -1)}
            start = where.get(new[i:i + anchor], -1)
        if start < 0:
            ops.append(-1 - new[i])
            i += 1
            continue
        count = _common_length(base, start, new, i)
        ops += [start, count]
        i += count
        follow = start + count
    return ops


def _common_length(base: tuple[int, ...], start: int, new: tuple[int, ...], i: int) -> int:
    """How many tokens ``new[i:]`` and ``base[start:]`` share from their first on:
    compared a block at a time, then one by one (long runs are the rule)."""
    count, block = 1, 64
    limit = min(len(new) - i, len(base) - start)
    while count + block <= limit and \
            new[i + count:i + count + block] == base[start + count:start + count + block]:
        count += block
    while count < limit and base[start + count] == new[i + count]:
        count += 1
    return count


def _check_token(token: str) -> None:
    """One tag of a picture, refused unless it is plain SVG: no script, no handler, no
    link out of the page (pictures come from views, and a viewer's record is input)."""
    match = _TAG.fullmatch(token)
    if match is None or "<" in match.group(1):
        raise InvalidStateError(f"a board picture has markup the viewer does not embed: "
                                f"{token[:80]!r}")
    name = match.group(3)
    if name.lower() not in _SVG_ELEMENTS:
        raise InvalidStateError(f"a board picture has a <{name}> element")
    for attribute, quoted in _ATTRIBUTE.findall(match.group(4)):
        value = html.unescape(quoted[1:-1])
        # a style (or a presentation attribute, parsed as CSS too) is checked as the
        # browser reads it: "u\\72l(" is "url("
        if attribute.lower().startswith("on") or _EXTERNAL_URL.search(value) or \
                _EXTERNAL_URL.search(_css_unescaped(value)) or (
                attribute.lower().endswith("href") and not value.startswith("#")):
            raise InvalidStateError(f"a board picture's <{name}> has {attribute}={quoted}")


def _css_unescaped(value: str) -> str:
    """``value`` with its CSS escapes decoded (a code point that is 0, a surrogate or
    past U+10FFFF reads U+FFFD, as the CSS parser reads it)."""
    def decoded(escape: re.Match[str]) -> str:
        digits, other = escape.groups()
        if digits is None:
            return other
        point = int(digits, 16)
        return chr(point) if 0 < point <= 0x10FFFF and not 0xD800 <= point <= 0xDFFF \
            else "\ufffd"

    return _CSS_ESCAPE.sub(decoded, value)


# --- the HTML ---

def _page(record: dict[str, Any], game: Game[Any, Any], sides: list[_Side],
          pictures: _Pictures, title: str | None) -> str:
    head = record["headers"]
    entries: list[list[Any]] = []
    entry_ids: dict[str, int] = {}
    hint_lists: list[list[list[Any]]] = []
    hint_ids: dict[str, int] = {}
    side_data = []
    def entry_id(entry: Mapping[str, Any], eye: int | Literal["all"] | None) -> int:
        row = [entry["mover"], entry["move"], bool(entry.get("forced")),
               [_event_words(event, game, eye) for event in entry["events"]]]
        return _intern(row, entries, entry_ids)

    for side in sides:
        moves = [entry_id(entry, side.eye) for entry in side.moves]
        revisions = [[step, index, entry_id(entry, side.eye)]
                     for step, index, entry in side.revisions]
        side_hints = [_intern([[str(rank), text, value] for rank, (text, value)
                               in enumerate(hint[:MARKED_SUGGESTIONS], start=1)],
                              hint_lists, hint_ids) if hint else -1 for hint in side.hints]
        side_data.append({"key": side.key, "label": side.label, "moves": moves,
                          "revisions": revisions, "boards": side.boards,
                          "hints": side_hints})
    data = {
        "steps": len(record["moves"]) + 1, "players": head.get("players"),
        "tokens": pictures.tokens, "pictures": pictures.encoded, "entries": entries,
        "comments": {str(i): entry["comment"] for i, entry in enumerate(record["moves"])
                     if isinstance(entry.get("comment"), str)},
        "hintLists": hint_lists, "sides": side_data, "interval": PLAY_INTERVAL_MS,
    }
    page_title = title if title is not None else _default_title(head, game)
    options = "\n".join(f'<option value="{html.escape(side.key)}">{html.escape(side.label)}'
                        "</option>" for side in sides)
    return _TEMPLATE.format(
        title=html.escape(page_title), version=html.escape(str(_library_version())),
        steps=len(record["moves"]), first_key=html.escape(sides[0].key), options=options,
        single=" disabled" if len(sides) == 1 else "", headers=_headers_table(head, game),
        css=_CSS, script=_SCRIPT, data=_script_json(data), record=_script_json(record),
        filename=html.escape(f"{game.id}-record.json"))


def _intern(value: Any, table: list[Any], ids: dict[str, int]) -> int:
    key = json.dumps(value)
    if key not in ids:
        ids[key] = len(table)
        table.append(value)
    return ids[key]


def _event_words(event: Mapping[str, Any], game: Game[Any, Any],
                 eye: int | Literal["all"] | None) -> str:
    """An event in words as ``eye`` saw it: ``?`` hidden from him, ``none`` not there."""
    return " ".join(describe_event(event, game=game, viewer=eye).split())


def _script_json(value: Any) -> str:
    """JSON that cannot end its <script> element (every <, > and & escaped)."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _library_version() -> str:
    import boardrules

    return boardrules.__version__


def _default_title(head: Mapping[str, Any], game: Game[Any, Any]) -> str:
    names = [name for name in head.get("players") or [] if isinstance(name, str)]
    players = " vs ".join(names) if names else f"{game.num_players} players"
    result = head.get("result")
    return f"{game.name}: {players}, " + (result if result not in (None, "*") else "unfinished")


def _headers_table(head: Mapping[str, Any], game: Game[Any, Any]) -> str:
    rows: list[tuple[str, str, str]] = [
        ("game", "Game", f"{game.name} ({game.id})"),
        ("options", "Options", ", ".join(f"{k}={v}" for k, v in
                                         (head.get("options") or {}).items()) or "-"),
        ("rules_version", "Rules version", str(head.get("rules_version"))),
        ("viewer", "Record of", _who(head.get("viewer"))),
    ]
    for seat, name in enumerate(head.get("players") or []):
        rows.append((f"player{seat}", f"Player {seat}", "?" if name is None else str(name)))
    outcome = head.get("outcome")
    rows += [("result", "Result", str(head.get("result") or "?")),
             ("termination", "Termination", str(head.get("termination") or "?"))]
    if isinstance(outcome, dict) and isinstance(outcome.get("scores"), list):
        rows.append(("scores", "Scores", ", ".join(f"P{p}: {s}" for p, s
                                                   in enumerate(outcome["scores"]))))
    for name, label in (("seed", "Seed"), ("date", "Date"), ("start", "Start"),
                        ("library_version", "Library")):
        if head.get(name) is not None:
            rows.append((name, label, str(head[name])))
    for name in sorted(set(head) - set(HEADER_ORDER)):
        rows.append((name, name.replace("_", " ").capitalize(), str(head[name])))
    return "\n".join(f'<tr data-header="{html.escape(key)}"><th>{html.escape(label)}</th>'
                     f"<td>{html.escape(value)}</td></tr>" for key, label, value in rows)


_TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="boardrules {version}">
<title>{title}</title>
<style>{css}</style>
</head>
<body data-step="0" data-viewer="{first_key}" data-steps="{steps}">
<header><h1 id="title">{title}</h1></header>
<main>
<section id="stage">
<nav id="controls" aria-label="steps">
<button type="button" id="first" title="first step (Home)">|&#x25C0;</button>
<button type="button" id="prev" title="step back (Left)">&#x25C0;</button>
<button type="button" id="play" title="play / pause (Space)" aria-pressed="false">play</button>
<button type="button" id="next" title="step on (Right)">&#x25B6;</button>
<button type="button" id="last" title="last step (End)">&#x25B6;|</button>
<span id="step" aria-live="polite">0 / {steps}</span>
<label for="viewer-select">view</label>
<select id="viewer-select"{single}>
{options}
</select>
</nav>
<input type="range" id="scrubber" min="0" max="{steps}" value="0" aria-label="step">
<p id="current-move">start</p>
<div id="board" role="img" aria-label="the board"></div>
<div id="hints" hidden><h2>Suggestions</h2><ol id="hint-list"></ol></div>
</section>
<aside id="side">
<table id="headers">
{headers}
</table>
<p><button type="button" id="download" data-filename="{filename}">download the record \
(JSON)</button></p>
<h2>Moves</h2>
<ol id="move-list" start="0"></ol>
</aside>
</main>
<noscript><p>This page shows the game with JavaScript; without it, the record itself is
at the end of the file (JSON).</p></noscript>
<script type="application/json" id="viewer-data">{data}</script>
<script type="application/json" id="record-data">{record}</script>
<script>{script}</script>
</body>
</html>
"""

_CSS = """
:root { --ink: #1d1d1f; --soft: #6b6b70; --line: #d8d8dc; --mark: #d4157a;
        --current: #fde8f2; font-family: system-ui, sans-serif; color: var(--ink); }
body { margin: 0 auto; max-width: 1400px; padding: 0 1rem 2rem; }
h1 { font-size: 1.3rem; margin: 0.8rem 0; }
h2 { font-size: 1rem; margin: 1rem 0 0.4rem; }
main { display: grid; grid-template-columns: minmax(0, 3fr) minmax(18rem, 2fr); gap: 1.2rem; }
@media (max-width: 900px) { main { grid-template-columns: 1fr; } }
#controls { display: flex; flex-wrap: wrap; align-items: center; gap: 0.4rem; }
#controls button { min-width: 2.4rem; padding: 0.3rem 0.6rem; font-size: 1rem; }
#play[aria-pressed="true"] { background: var(--current); }
#step { font-variant-numeric: tabular-nums; min-width: 6rem; text-align: center; }
#scrubber { width: 100%; margin: 0.5rem 0 0; }
#current-move { min-height: 1.4em; margin: 0.3rem 0; color: var(--soft); }
#board svg { width: 100%; height: auto; max-height: 85vh; display: block; }
#headers { border-collapse: collapse; width: 100%; font-size: 0.9rem; }
#headers th { text-align: left; color: var(--soft); font-weight: normal; padding-right: 1rem;
              white-space: nowrap; width: 1%; }
#headers th, #headers td { border-bottom: 1px solid var(--line); padding: 0.15rem 0.3rem;
                           vertical-align: top; overflow-wrap: anywhere; }
#move-list { list-style: none; padding: 0; margin: 0; max-height: 60vh; overflow-y: auto;
             border: 1px solid var(--line); font-size: 0.9rem; }
#move-list li { padding: 0.2rem 0.4rem; cursor: pointer; border-bottom: 1px solid #f0f0f2; }
#move-list li:hover { background: #f5f5f7; }
#move-list li.current { background: var(--current); outline: 2px solid var(--mark); }
#move-list .num { color: var(--soft); display: inline-block; min-width: 2.6rem; }
#move-list .mover { font-weight: bold; margin-right: 0.4rem; }
#move-list .move { font-family: ui-monospace, monospace; }
#move-list .forced, #move-list .events { color: var(--soft); }
#move-list .events { display: block; margin-left: 2.6rem; font-size: 0.85em; }
#move-list .comment { display: block; margin-left: 2.6rem; font-style: italic; }
#hint-list { margin: 0; }
"""

_SCRIPT = r"""
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("viewer-data").textContent);
  var byId = function (id) { return document.getElementById(id); };
  var board = byId("board"), list = byId("move-list"), select = byId("viewer-select");
  var last = data.steps - 1, step = 0, side = 0, timer = null, decoded = new Map();
  var revised = new Map();  // the chosen eye's moves that a later step writes anew

  function tokensOf(index) {
    if (decoded.has(index)) { return decoded.get(index); }
    var code = data.pictures[index], base = code[0] < 0 ? null : tokensOf(code[0]), out = [];
    for (var k = 1; k < code.length;) {
      if (code[k] < 0) { out.push(-1 - code[k]); k += 1; continue; }
      for (var t = code[k]; t < code[k] + code[k + 1]; t++) { out.push(base[t]); }
      k += 2;
    }
    if (decoded.size > 256) { decoded.clear(); }  // a long game: keep the memory small
    decoded.set(index, out);
    return out;
  }
  function picture(index) {
    return tokensOf(index).map(function (t) { return data.tokens[t]; }).join("");
  }
  function mover(number) {
    if (number < 0) { return "chance"; }
    var names = data.players || [], name = names[number];
    return "P" + number + (typeof name === "string" ? " " + name : "");
  }
  function span(cls, text) {
    var element = document.createElement("span");
    element.className = cls;
    element.textContent = text;
    return element;
  }
  function entryAt(index, n) {
    // move index as the chosen eye's log read at step n (a move not made yet by then:
    // as it read when it was made), never as he knew it later
    var number = data.sides[side].moves[index], changes = revised.get(index) || [];
    for (var k = 0; k < changes.length && changes[k][0] <= n; k++) { number = changes[k][1]; }
    return number;
  }
  function moveItem(index, number) {
    var entry = data.entries[number], item = document.createElement("li");
    item.dataset.step = String(index + 1);
    item.dataset.entry = String(number);
    item.appendChild(span("num", (index + 1) + "."));
    item.appendChild(span("mover", mover(entry[0])));
    item.appendChild(span("move", entry[1]));
    if (entry[2]) { item.appendChild(span("forced", " (forced)")); }
    if (entry[3].length) { item.appendChild(span("events", entry[3].join("; "))); }
    var comment = data.comments[String(index)];
    if (comment !== undefined) { item.appendChild(span("comment", comment)); }
    return item;
  }
  function buildList() {
    var moves = data.sides[side].moves, fragment = document.createDocumentFragment();
    var start = document.createElement("li");
    start.dataset.step = "0";
    start.appendChild(span("num", ""));
    start.appendChild(span("move", "start"));
    fragment.appendChild(start);
    for (var i = 0; i < moves.length; i++) {
      fragment.appendChild(moveItem(i, entryAt(i, step)));
    }
    list.replaceChildren(fragment);
  }
  function reviseList(n) {
    revised.forEach(function (changes, index) {
      var number = entryAt(index, n), item = list.children[index + 1];
      if (item.dataset.entry !== String(number)) {
        list.replaceChild(moveItem(index, number), item);
      }
    });
  }
  function describe(n) {
    if (n === 0) { return "start"; }
    var entry = data.entries[entryAt(n - 1, n)];
    var text = n + ". " + mover(entry[0]) + ": " + entry[1] + (entry[2] ? " (forced)" : "");
    return entry[3].length ? text + " \u2014 " + entry[3].join("; ") : text;
  }
  function showHints(n) {
    var index = data.sides[side].hints[n], box = byId("hints"), hints = byId("hint-list");
    hints.replaceChildren();
    box.hidden = index < 0;
    if (index < 0) { return; }
    data.hintLists[index].forEach(function (hint) {
      var item = document.createElement("li");
      item.dataset.move = hint[1];
      item.textContent = hint[1] + (hint[2] === null ? "" : " (" + hint[2].toFixed(2) + ")");
      hints.appendChild(item);
    });
  }
  function show(n) {
    step = Math.max(0, Math.min(last, n));
    var current = data.sides[side];
    board.innerHTML = picture(current.boards[step]);
    board.dataset.picture = String(current.boards[step]);
    byId("step").textContent = step + " / " + last;
    byId("scrubber").value = String(step);
    reviseList(step);
    byId("current-move").textContent = describe(step);
    board.setAttribute("aria-label", "the board at step " + step + ": " + describe(step));
    var old = list.querySelector("li.current");
    if (old) { old.classList.remove("current"); old.removeAttribute("aria-current"); }
    var item = list.children[step];
    item.classList.add("current");
    item.setAttribute("aria-current", "step");
    var top = item.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top + item.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top - list.clientHeight / 2;
    }
    showHints(step);
    byId("first").disabled = byId("prev").disabled = step === 0;
    byId("next").disabled = byId("last").disabled = step === last;
    document.body.dataset.step = String(step);
    try {  // the address names the step, for a link to it (a file: page may refuse)
      window.history.replaceState(null, "", "#step=" + step);
    } catch (refused) { /* the address stays as it was */ }
    if (step === last) { pause(); }
  }
  function play() {
    if (timer !== null) { return; }
    if (step === last) { show(0); }
    timer = window.setInterval(function () { show(step + 1); }, data.interval);
    byId("play").setAttribute("aria-pressed", "true");
    byId("play").textContent = "pause";
    document.body.dataset.playing = "true";
  }
  function pause() {
    if (timer === null) { return; }
    window.clearInterval(timer);
    timer = null;
    byId("play").setAttribute("aria-pressed", "false");
    byId("play").textContent = "play";
    document.body.dataset.playing = "false";
  }
  function toggle() { if (timer === null) { play(); } else { pause(); } }
  function chooseSide(key) {
    for (var i = 0; i < data.sides.length; i++) {
      if (data.sides[i].key === key) { side = i; }
    }
    select.value = data.sides[side].key;
    document.body.dataset.viewer = data.sides[side].key;
    revised = new Map();
    data.sides[side].revisions.forEach(function (change) {  // [step, index, entry], by step
      if (!revised.has(change[1])) { revised.set(change[1], []); }
      revised.get(change[1]).push([change[0], change[2]]);
    });
    buildList();
    show(step);
  }
  byId("first").addEventListener("click", function () { pause(); show(0); });
  byId("prev").addEventListener("click", function () { pause(); show(step - 1); });
  byId("next").addEventListener("click", function () { pause(); show(step + 1); });
  byId("last").addEventListener("click", function () { pause(); show(last); });
  byId("play").addEventListener("click", toggle);
  byId("scrubber").addEventListener("input", function (event) {
    pause(); show(Number(event.target.value));
  });
  select.addEventListener("change", function () { chooseSide(select.value); select.blur(); });
  list.addEventListener("click", function (event) {
    var item = event.target.closest("li");
    if (item) { pause(); show(Number(item.dataset.step)); }
  });
  byId("download").addEventListener("click", function (event) {
    var text = document.getElementById("record-data").textContent;
    var link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([text], {type: "application/json"}));
    link.download = event.target.dataset.filename;
    link.click();
    URL.revokeObjectURL(link.href);
  });
  var keys = {
    ArrowLeft: function () { pause(); show(step - 1); },
    ArrowRight: function () { pause(); show(step + 1); },
    Home: function () { pause(); show(0); },
    End: function () { pause(); show(last); },
    " ": toggle
  };
  document.addEventListener("keydown", function (event) {
    var tag = event.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") { return; }
    if (event.altKey || event.ctrlKey || event.metaKey || !keys[event.key]) { return; }
    event.preventDefault();
    keys[event.key]();
  });
  document.addEventListener("keyup", function (event) {
    // a focused button would also take Space as its own click
    if (event.key === " " && event.target.tagName === "BUTTON") { event.preventDefault(); }
  });
  window.boardrulesViewer = {
    show: show, play: play, pause: pause, chooseSide: chooseSide,
    picture: function (n) { return picture(data.sides[side].boards[n]); }
  };
  function askedStep() {
    var asked = /^#step=(\d+)$/.exec(window.location.hash);
    return asked ? Number(asked[1]) : null;
  }
  window.addEventListener("hashchange", function () {
    var asked = askedStep();
    if (asked !== null && asked !== step) { pause(); show(asked); }
  });
  step = askedStep() || 0;
  chooseSide(data.sides[0].key);
}());
"""
