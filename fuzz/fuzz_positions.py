"""Fuzz target: positions -- ``game.position(text)`` and ``state.position()``.

Input: one header byte (which game and option set) and the position text (UTF-8, lone
surrogates allowed).  ``fuzz/corpus/positions`` holds the positions ``state.position()``
writes at sample positions of every game that has a position format.

``game.position(text)`` reads untrusted text: it gives a state or raises
:class:`~boardrules.errors.InvalidPositionError` (naming the field), nothing else.  A
position that loads is one the rules allow: its invariants hold, ``state.position()``
writes it back to text that reads to the same bytes, it has no history before it (undo
refuses), its save restores (carrying the position as its start) and it plays on.

A game without a position format says so (``state.position()`` raises
NotImplementedError for its sample positions, and so does ``game.position``); the target
then holds it to that and nothing else, and ``python fuzz/run.py`` prints which games
had none (at the time of writing Armada and Rome & Carthage -- the formats are added game
by game; run ``fuzz/make_corpus.py`` again when one lands, to seed it).
"""

from __future__ import annotations

import sys
from typing import Any

from _common import example_games, main, sample_positions

from boardrules.errors import InvalidPositionError

GAMES = example_games()


def has_format(game: Any) -> bool:
    """Whether ``game`` writes positions (its sample positions say, never a guess)."""
    try:
        sample_positions(game, depths=(0,))[0].position()
    except NotImplementedError:
        return False
    return True


WITH_FORMAT = [has_format(game) for game in GAMES]


def read(game: Any, has: bool, text: str) -> Any:
    try:
        return game.position(text)
    except InvalidPositionError:
        return None
    except NotImplementedError:
        if has:
            raise AssertionError(f"{game.id} writes positions but game.position raised "
                                 "NotImplementedError") from None
        return None
    except BaseException as exc:
        raise AssertionError(f"{game.id}: game.position raised {type(exc).__name__}, not "
                             f"InvalidPositionError: {exc}") from exc


def check_position(game: Any, state: Any) -> None:
    """A state read from a position is one the rules allow, and writes itself back."""
    for name, (counted, expected) in state.invariants().items():
        if counted != expected:
            raise AssertionError(f"{game.id}: a position that loads breaks invariant "
                                 f"{name!r}: {counted} != {expected}")
    text = state.position()
    again = game.position(text)
    if again.state_bytes() != state.state_bytes() or again.position() != text:
        raise AssertionError(f"{game.id}: position() of a loaded position reads back to "
                             "another state")
    try:
        state.undo()
    except IndexError:
        pass
    else:
        raise AssertionError(f"{game.id}: a state read from a position undoes past it")
    restored = game.state_from_json(state.to_json())
    if restored != state or restored.start_position != state.start_position:
        raise AssertionError(f"{game.id}: the save of a position does not restore to it")
    moves = state.legal_moves()
    if moves:
        state.apply(moves[len(moves) // 2])
        state.undo()


def TestOneInput(data: bytes) -> None:
    if not data:
        return
    index = data[0] % len(GAMES)
    game, has = GAMES[index], WITH_FORMAT[index]
    body = data[1:]
    try:
        text = body.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        text = body.decode("latin-1")
    state = read(game, has, text)
    if state is not None:
        check_position(game, state)


if __name__ == "__main__":
    without = sorted({g.id for g, has in zip(GAMES, WITH_FORMAT, strict=True) if not has})
    print(f"positions: {sum(WITH_FORMAT)} of {len(GAMES)} option sets have a position "
          f"format; without one: {', '.join(without) or '-'}", file=sys.stderr, flush=True)
    main(TestOneInput)
    sys.exit(0)
