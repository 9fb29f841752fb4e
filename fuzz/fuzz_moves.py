"""Fuzz target: move parsing and ``apply`` for every game and option set.

Input: 4 header bytes -- the position (two bytes: which of every game's sample positions),
what to pass (text, a Move-like object, a value of another type), and who asks
(``player=``) -- then the payload: move text (UTF-8, lone surrogates allowed) or the bytes
a FuzzedDataProvider turns into a forged move.  ``fuzz/make_corpus.py`` writes real move
texts of real positions in this format.

Checked at every input:

* a refused ``apply`` / ``child`` raises a boardrules error (TypeError for a value of a
  wrong type) and leaves ``state_bytes()``, ``history`` and ``to_json()`` as they were;
* ``is_legal`` answers a bool, changes nothing, and is True exactly when ``apply``
  succeeds (without ``player``);
* an accepted move was among ``legal_moves()``, extends the history by one decision, and
  ``undo`` gives back the state byte for byte;
* ``parse_move`` gives a move whose text parses back to it, or InvalidMoveError/TypeError.
"""

from __future__ import annotations

import sys
from typing import Any

import atheris
from _common import (
    BoardRulesError,
    LyingInt,
    LyingStr,
    LyingTuple,
    Move,
    example_games,
    hostile_value,
    main,
    sample_positions,
    snapshot,
)

GAMES = example_games()
POSITIONS_BY_GAME: list[list[Any]] = [sample_positions(game) for game in GAMES]
POSITIONS: list[Any] = [state for states in POSITIONS_BY_GAME for state in states]
OTHER_KEY = ("another_game", "{}")

#: Header byte 2: what is passed to apply.
TEXT, MOVE_OBJECT, FORGED_MOVE, OTHER_VALUE, OTHER_POSITION_MOVE, STR_SUBCLASS = range(6)


def position_of(data: bytes) -> Any:
    return POSITIONS[int.from_bytes(data[:2], "little") % len(POSITIONS)]


def move_object(state: Any, fdp: atheris.FuzzedDataProvider) -> Move:
    """A Move built by hand: an action id near or out of range, a text, and this game's key,
    an equal copy of it, another game's key or a forged one."""
    game = state.game
    action = fdp.PickValueInList([fdp.ConsumeIntInRange(-3, game.num_distinct_actions + 3),
                                  fdp.ConsumeInt(8), LyingInt(fdp.ConsumeInt(2)), True])
    keys = [game._game_key_cache, tuple(game._game_key_cache), OTHER_KEY,
            LyingTuple(game._game_key_cache), list(game._game_key_cache), None,
            (game.id, fdp.ConsumeUnicode(8))]
    key = keys[fdp.ConsumeIntInRange(0, len(keys) - 1)]
    cls = type(game.move(0)) if fdp.ConsumeBool() else Move
    move = cls.__new__(cls)
    Move.__init__(move, action, fdp.ConsumeUnicode(12), key)
    return move


def forged_move(state: Any, fdp: atheris.FuzzedDataProvider) -> Move:
    """A Move whose slots hold anything at all, some left unset."""
    move = Move.__new__(Move)
    for name in ("_action", "_text", "_game_key"):
        if fdp.ConsumeBool():
            value = (state.game._game_key_cache if name == "_game_key" and fdp.ConsumeBool()
                     else hostile_value(fdp))
            object.__setattr__(move, name, value)
    return move


def payload_of(state: Any, kind: int, body: bytes) -> Any:
    fdp = atheris.FuzzedDataProvider(body)
    if kind == TEXT:
        return body.decode("utf-8", "surrogatepass") if _utf8(body) else body.decode(
            "latin-1")
    if kind == MOVE_OBJECT:
        return move_object(state, fdp)
    if kind == FORGED_MOVE:
        return forged_move(state, fdp)
    if kind == OTHER_POSITION_MOVE:
        other = POSITIONS[fdp.ConsumeIntInRange(0, len(POSITIONS) - 1)]
        moves = other.legal_moves() or list(other.history) or [other.game.move(0)]
        return moves[fdp.ConsumeIntInRange(0, len(moves) - 1)]
    if kind == STR_SUBCLASS:
        return LyingStr(body.decode("latin-1"))
    return hostile_value(fdp)


def _utf8(body: bytes) -> bool:
    try:
        body.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return False
    return True


def player_of(state: Any, byte: int) -> Any:
    """Who asks: nobody (``None``), the player to move, another, or a hostile value."""
    choice = byte % 8
    if choice < 4:
        return None
    if choice == 4:
        return state.current_player
    if choice == 5:
        return (state.current_player + 1) % state.game.num_players
    if choice == 6:
        return LyingInt(byte)
    return [True, -1, 2**64, "0", 1.0, state.game.num_players][byte % 6]


def shown(value: Any) -> str:
    """A value for a finding's message (a forged move's own repr may fail)."""
    try:
        return repr(value)
    except Exception:
        return f"<{type(value).__name__} with unreadable fields>"


def expect_refused(exc: BaseException, what: str) -> None:
    if not isinstance(exc, BoardRulesError | TypeError):
        raise AssertionError(f"{what} raised {type(exc).__name__}, not a boardrules error "
                             f"or TypeError: {exc}") from exc


def check_parse(game: Any, move: Any) -> None:
    try:
        parsed = game.parse_move(move)
    except BaseException as exc:
        expect_refused(exc, "parse_move")
        return
    if game.parse_move(str(parsed)) != parsed:
        raise AssertionError(f"parse_move({shown(move)}) gives {parsed!s}, which parses to another")


def TestOneInput(data: bytes) -> None:
    if len(data) < 4:
        return
    state = position_of(data).copy()
    move = payload_of(state, data[2] % 6, data[4:])
    player = player_of(state, data[3])
    before = snapshot(state)
    legal_actions = {m.action for m in state.legal_moves()}

    legal = state.is_legal(move)
    if type(legal) is not bool:
        raise AssertionError(f"is_legal({shown(move)}) answered {legal!r}")
    if snapshot(state) != before:
        raise AssertionError(f"is_legal({shown(move)}) changed the state")
    if isinstance(move, str):
        check_parse(state.game, move)

    try:
        child = state.child(move)
    except BaseException as exc:
        expect_refused(exc, "child")
        child = None
    if snapshot(state) != before:
        raise AssertionError(f"child({shown(move)}) changed its parent")
    if (child is not None) != legal:
        raise AssertionError(f"is_legal({shown(move)}) is {legal} but child "
                             f"{'succeeded' if child is not None else 'refused it'}")

    try:
        state.apply(move, player=player)
    except BaseException as exc:
        expect_refused(exc, f"apply({shown(move)}, player={player!r})")
        if snapshot(state) != before:
            raise AssertionError(f"a refused apply({shown(move)}, player={player!r}) changed the "
                                 f"state ({type(exc).__name__}: {exc})") from exc
        if player is None and legal:
            raise AssertionError(f"apply({shown(move)}) refused a move is_legal accepts: {exc}"
                                 ) from exc
        return
    check_accepted(state, move, before, legal_actions, child)


def check_accepted(state: Any, move: Any, before: tuple[bytes, list[str], str],
                   legal_actions: set[int], child: Any) -> None:
    """An accepted move was legal, extended the history, and undoes byte for byte."""
    history = [str(m) for m in state.history]
    decided = state.history[len(before[1])]
    if decided.action not in legal_actions:
        raise AssertionError(f"apply({shown(move)}) applied {decided!s}, not a legal move")
    if history[:len(before[1])] != before[1]:
        raise AssertionError(f"apply({shown(move)}) rewrote the history")
    if child is not None and child != state:
        raise AssertionError(f"child({shown(move)}) differs from apply({shown(move)})")
    state.undo()
    if snapshot(state) != before:
        raise AssertionError(f"apply({shown(move)}) then undo() did not give the state back")


if __name__ == "__main__":
    main(TestOneInput)
    sys.exit(0)
