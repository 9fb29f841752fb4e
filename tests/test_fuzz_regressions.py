"""Defects the fuzz targets found (fuzz/, docs/fuzzing.rst), each pinned by its input.

``str.isdigit()`` is true for digits ``int()`` refuses (superscripts such as ``'²'``):
three parsers checked a number with it and let ``int()``'s ValueError out of the API
instead of the library's error.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import boardrules
from boardrules import InvalidMoveError, InvalidStateError
from boardrules.errors import InvalidPositionError
from boardrules.testing import assert_rejected


def test_rome_and_carthage_play_with_a_superscript_digit_is_not_a_move() -> None:
    game = boardrules.load("rome_and_carthage")
    with pytest.raises(InvalidMoveError, match="not a Rome & Carthage move"):
        game.parse_move("play \u00b2+3")
    state = game.new_game(seed=1)
    assert_rejected(state, InvalidMoveError, lambda: state.apply("play 3+\u00b2"))


def test_rome_and_carthage_save_with_a_superscript_digit_is_an_invalid_state() -> None:
    state = boardrules.load("rome_and_carthage").new_game(seed=1)
    doc = json.loads(state.to_json())
    doc["history"].append("play \u00b2+3")
    with pytest.raises(InvalidStateError, match=r"history\[\d+\]"):
        boardrules.state_from_json(json.dumps(doc))


def test_armadora_position_with_a_superscript_digit_names_the_field() -> None:
    game = boardrules.load("armadora", players=2)
    state = game.new_game(seed=1)
    state.apply(next(m for m in state.legal_moves() if str(m).startswith("1@")))
    text = state.position()
    assert "a1: player 0, strength 1" in text
    with pytest.raises(InvalidPositionError) as refused:
        game.position(text.replace("a1: player 0", "a1: player \u00b2"))
    assert refused.value.field == "a1"


def test_pig_position_with_a_superscript_digit_names_the_field() -> None:
    game = boardrules.load("pig")
    text = game.new_game(seed=1).position()
    with pytest.raises(InvalidPositionError) as refused:
        game.position(text.replace("turns: 0", "turns: \u00b2"))
    assert refused.value.field == "turns"


def _json_mutations() -> Any:
    """fuzz/json_mutations.py, the fuzz targets' plain-Python mutations (no atheris)."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "fuzz" / "json_mutations.py"
    spec = importlib.util.spec_from_file_location("json_mutations", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_json_mutations_keep_a_document_a_tree_and_their_values_intact() -> None:
    """The fuzz harness's own defect (CI's signed-saves target: ``ValueError: Circular
    reference detected`` in json.dumps): a mutation put a shared container of
    JSON_VALUES (``[0]``, ``{"": 0}``) into the document, a later one changed it in place
    and it ended up inside itself.  Every mutation now inserts fresh copies: thousands of
    chained mutations of a real save leave a document json.dumps writes and the values
    untouched."""
    mutations = _json_mutations()
    pristine = json.dumps(mutations.JSON_VALUES, allow_nan=True)
    save = json.loads(boardrules.load("pig").new_game(seed=3).to_json())
    rng = random.Random(11)
    for _ in range(200):
        doc = json.loads(json.dumps(save))
        for _ in range(40):
            doc = mutations.mutate_document(doc, rng)
            json.dumps(doc)  # a circular document raises ValueError here
    assert json.dumps(mutations.JSON_VALUES, allow_nan=True) == pristine


@pytest.mark.parametrize(("out", "error", "words"), [
    (b"\x90G\x80(!\x00\xf4", ValueError, "read-only"),   # the core target's input
    (None, TypeError, "not None"),
    ([0] * 8, TypeError, "not list"),
])
def test_a_read_only_or_missing_buffer_is_refused_by_the_core_with_the_usual_errors(
        out: object, error: type[Exception], words: str) -> None:
    """CoreState.action_mask_into / observation_into took their buffer as a typed
    memoryview, whose BufferError for bytes (read-only) was none of the errors a bad
    argument raises: the fuzz target fuzz_core.py found it."""
    state = boardrules.load("pig").new_game(seed=1)
    core = state._core
    before = state.state_bytes()
    with pytest.raises(error, match=words):
        core.action_mask_into(out)
    with pytest.raises(error, match=words):
        core.observation_into(0, out)
    assert state.state_bytes() == before
