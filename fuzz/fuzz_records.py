"""Fuzz target: ``boardrules.records.replay`` on mutated game records.

Input: a record as JSON text (``fuzz/corpus/records``: whole records of real games of
every game and option set, and a few players' records, which replay refuses).  A record
that is not a JSON object is no record: ``replay`` gets only what ``json.loads`` makes,
and may raise :class:`~boardrules.InvalidStateError` -- or TypeError for a value that is
not a mapping.  A record that replays gives a state whose own whole record lists the same
moves (in their canonical spelling), whose text form reads back to the same record, and
whose invariants hold.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from _common import InvalidStateError, boardrules, json_mutator, main


def replayed(record: Any) -> Any:
    try:
        return boardrules.records.replay(record)
    except InvalidStateError:
        return None
    except TypeError:
        if isinstance(record, dict):
            raise
        return None


def TestOneInput(data: bytes) -> None:
    try:
        record = json.loads(data)
    except (ValueError, RecursionError):
        return
    try:
        state = replayed(record)
    except BaseException as exc:
        raise AssertionError(f"replay raised {type(exc).__name__}, not InvalidStateError: "
                             f"{exc}") from exc
    if state is None:
        return
    again = boardrules.records.game_record(state)
    # a record may spell a move any way the notation reads (case, spaces): its state
    # records the canonical text of the same move
    written = [[m["mover"], str(state.game.parse_move(m["move"]))]
               for m in boardrules.records.upgrade_record(record)["moves"]]
    if written != [[m["mover"], m["move"]] for m in again["moves"]]:
        raise AssertionError("a replayed record's state records other moves")
    if boardrules.records.record_from_text(boardrules.records.record_to_text(again)) != again:
        raise AssertionError("a replayed record's text form reads back to another record")
    for name, (counted, expected) in state.invariants().items():
        if counted != expected:
            raise AssertionError(f"a replayed record breaks invariant {name!r}")
    if boardrules.records.replay(json.loads(json.dumps(again))) != state:
        raise AssertionError("the record of a replayed state replays to another state")


if __name__ == "__main__":
    main(TestOneInput, json_mutator)
    sys.exit(0)
