"""Fuzz target: ``boardrules.state_from_json`` on mutated saves (unsigned).

Input: the text of a save (``fuzz/corpus/saves`` holds real saves of a few positions of
every game and option set); a JSON-aware mutator edits the document as well as its bytes.
Only :class:`~boardrules.InvalidStateError` may come out.  A save that loads is a state
the rules reached: its invariants hold, it saves again to a document that loads to an
equal state, and its game's own ``state_from_json`` agrees.
"""

from __future__ import annotations

import sys
from typing import Any

from _common import InvalidStateError, boardrules, json_mutator, main


def load_or_refuse(data: bytes | str, key: bytes | None = None) -> Any:
    """The state a save restores to, or None when it is refused (InvalidStateError only)."""
    try:
        return boardrules.state_from_json(data, key=key)
    except InvalidStateError:
        return None
    except BaseException as exc:
        raise AssertionError(f"state_from_json raised {type(exc).__name__}, not "
                             f"InvalidStateError: {exc}") from exc


def check_loaded(state: Any, key: bytes | None = None) -> None:
    """A state restored from an untrusted save is one the rules reached."""
    for name, (counted, expected) in state.invariants().items():
        if counted != expected:
            raise AssertionError(f"a restored save breaks invariant {name!r}: "
                                 f"{counted} != {expected}")
    again = state.to_json(key=key)
    restored = state.game.state_from_json(again, key=key)
    if restored != state or restored.to_json(key=key) != again:
        raise AssertionError("a restored save does not save and restore to itself")


def TestOneInput(data: bytes) -> None:
    state = load_or_refuse(data)
    if state is not None:
        check_loaded(state)


if __name__ == "__main__":
    main(TestOneInput, json_mutator)
    sys.exit(0)
