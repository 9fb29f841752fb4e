"""What the fuzz targets share: the instrumented import of boardrules, the games and
positions they start from, the values a hostile caller passes, and a JSON-aware mutator.

Each target (``fuzz/fuzz_*.py``) is a script with ``TestOneInput(data)``: run it alone
(``python fuzz/fuzz_saves.py fuzz/corpus/saves -max_total_time=60``) or all of them with
``python fuzz/run.py``.  A finding is an exception the target does not expect -- an error
class the API does not document, a refused call that changed the state, an interpreter
crash -- and libFuzzer writes the input that caused it as ``crash-<sha1>``.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import atheris
from json_mutations import mutate_document

# Coverage of the library's Python code (the compiled cores are not instrumented: see
# docs/fuzzing.rst).  Every module a target reaches is imported here, inside the block:
# the games' packages are imported lazily by the registry, so they are loaded now.
with atheris.instrument_imports(include=["boardrules"]):
    import boardrules
    import boardrules.records
    import boardrules.testing
    from boardrules import BoardRulesError, InvalidStateError
    from boardrules.api import CHANCE, Move, State

    GAME_IDS = boardrules.available_games()
    import boardrules.games.albion.board
    import boardrules.games.armada.board
    import boardrules.games.armada.deck
    import boardrules.games.armada.dice
    import boardrules.games.armadora.board
    import boardrules.games.rome_and_carthage.board

FUZZ_DIR = Path(__file__).resolve().parent
CORPUS_DIR = FUZZ_DIR / "corpus"
#: The key the signed-save target signs with (a fuzzing key, no secret).
SIGNING_KEY = b"boardrules-fuzzing-key-not-secret"

__all__ = [
    "CHANCE",
    "CORPUS_DIR",
    "GAME_IDS",
    "SIGNING_KEY",
    "BoardRulesError",
    "InvalidStateError",
    "Move",
    "State",
    "boardrules",
    "example_games",
    "json_mutator",
    "main",
    "sample_positions",
    "snapshot",
]


def example_games() -> list[Any]:
    """Every game with each of its ``example_options``, in a fixed order."""
    games = []
    for game_id in GAME_IDS:
        for options in type(boardrules.load(game_id)).example_options:
            games.append(boardrules.load(game_id, **options))
    return games


def sample_positions(game: Any, seed: int = 0, depths: tuple[int, ...] = (0, 3, 12, 40, 120),
                     ) -> list[Any]:
    """A few positions of ``game``: seeded random play to each depth, with and without
    ``auto_chance`` (so chance nodes are among them), and one finished game."""
    states = []
    for auto_chance in (True, False):
        for depth in depths:
            states.append(boardrules.testing.random_play(game, seed + depth, depth,
                                                         rng_seed=depth,
                                                         auto_chance=auto_chance))
    states.append(boardrules.testing.play_to_end(game.new_game(seed=seed), rng_seed=seed))
    return states


def snapshot(state: Any) -> tuple[bytes, list[str], str]:
    """What a refused call must leave as it was: bytes, history and save (RNG included).
    A world from ``determinize`` has no save: its bytes and history stand for it."""
    save = "" if state._world else state.to_json()
    return state.state_bytes(), [str(m) for m in state.history], save


# --- hostile values ----------------------------------------------------------------------


class LyingInt(int):
    """An int whose comparisons always say yes and whose conversions lie: a caller's
    ``int`` must be read by its true value before any check."""

    def __lt__(self, other: object) -> bool:
        return True

    __le__ = __gt__ = __ge__ = __lt__

    def __eq__(self, other: object) -> bool:
        return True

    def __index__(self) -> int:
        return 0

    def __int__(self) -> int:
        return 0

    __hash__ = int.__hash__


class LyingStr(str):
    """A str whose own methods misbehave: the library must read its characters only."""

    def lower(self) -> str:  # type: ignore[override]
        raise RuntimeError("LyingStr.lower called")

    def split(self, *args: Any, **kwargs: Any) -> list[str]:  # type: ignore[override]
        raise RuntimeError("LyingStr.split called")

    def __str__(self) -> str:
        return "pass"

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = str.__hash__


class LyingTuple(tuple):  # type: ignore[type-arg]
    """A tuple that equals everything (a forged game key)."""

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = tuple.__hash__


INTERESTING_INTS = [0, 1, 2, 3, 4, 7, 8, 63, 64, 127, 128, 255, 256, 1000, 4095, 65535, 65536,
                    2**31 - 1, 2**31, 2**32, 2**63 - 1, 2**63, 2**64 - 1, 2**64, 10**30,
                    -1, -2, -128, -2**31, -2**63, -2**64]


def hostile_value(fdp: atheris.FuzzedDataProvider, depth: int = 0) -> Any:
    """One value a caller might pass where an int, text, bytes or a tuple is expected."""
    kind = fdp.ConsumeIntInRange(0, 15)
    if kind == 0:
        return fdp.ConsumeInt(fdp.ConsumeIntInRange(1, 9))
    if kind == 1:
        return INTERESTING_INTS[fdp.ConsumeIntInRange(0, len(INTERESTING_INTS) - 1)]
    if kind == 2:
        return LyingInt(fdp.PickValueInList(INTERESTING_INTS))
    if kind == 3:
        return fdp.ConsumeBool()
    if kind == 4:
        return fdp.ConsumeRegularFloat() if fdp.ConsumeBool() else fdp.ConsumeFloat()
    if kind == 5:
        return None
    if kind == 6:
        return fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 16))
    if kind == 7:
        return fdp.ConsumeUnicode(fdp.ConsumeIntInRange(0, 16))
    if kind == 8:
        return LyingStr(fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 8)))
    if kind in (9, 10) and depth < 2:
        items = [hostile_value(fdp, depth + 1) for _ in range(fdp.ConsumeIntInRange(0, 5))]
        return tuple(items) if kind == 9 else items
    if kind == 11:
        return LyingTuple(fdp.PickValueInList(INTERESTING_INTS) for _ in range(4))
    if kind == 12:
        return bytearray(fdp.ConsumeBytes(4))
    if kind == 13:
        return object()
    if kind == 14:
        return {"x": fdp.ConsumeInt(2)}
    return fdp.ConsumeIntInRange(0, 8)


# --- a JSON-aware mutator -----------------------------------------------------------------

def json_mutator(data: bytes, max_size: int, seed: int) -> bytes:
    """libFuzzer's custom mutator: half the time a structural change of the JSON document
    (which byte flips rarely keep valid), else libFuzzer's own byte mutations."""
    rng = random.Random(seed)
    if rng.random() < 0.6:
        try:
            doc = json.loads(data)
        except (ValueError, RecursionError):
            doc = None
        if doc is not None:
            for _ in range(rng.choice((1, 1, 1, 2, 3))):
                doc = mutate_document(doc, rng)
            out = json.dumps(doc, separators=(",", ":"), sort_keys=rng.random() < 0.5
                             ).encode("utf-8", "surrogatepass")
            if len(out) <= max_size:
                return out
    return atheris.Mutate(data, max_size)


def main(test_one_input: Callable[[bytes], None],
         custom_mutator: Callable[[bytes, int, int], bytes] | None = None) -> None:
    """Run a target under libFuzzer with the command line's options."""
    if custom_mutator is None:
        atheris.Setup(sys.argv, test_one_input)
    else:
        atheris.Setup(sys.argv, test_one_input, custom_mutator=custom_mutator)
    atheris.Fuzz()
