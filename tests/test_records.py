"""Game records and per-player move logs."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import boardrules
from boardrules import CHANCE, InvalidStateError
from boardrules.records import game_record, replay


def played(game_id: str = "armadora", seed: int = 3, **options: Any) -> boardrules.State[Any]:
    state = boardrules.load(game_id, **options).new_game(seed=seed)
    rng = random.Random(seed)
    for _ in range(30):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_moves()))
    return state


@pytest.mark.parametrize("game_id", ["armadora", "connect_four", "pig", "tic_tac_toe"])
def test_whole_record_replays_to_the_same_state(game_id: str) -> None:
    state = played(game_id)
    record = json.loads(json.dumps(game_record(state)))  # JSON-ready
    again = replay(record)
    assert again == state
    assert again.state_bytes() == state.state_bytes()


def test_move_log_hides_other_players_face_down_strengths() -> None:
    """rule 三: warriors go face down -- another player's log shows where, not what."""
    state = played(players=3, variant="advanced")
    truth = game_record(state)["moves"]
    for viewer in (0, 1, 2, None):
        log = game_record(state, viewer=viewer)["moves"]
        assert len(log) == len(truth)
        for (mover, seen), (true_mover, move) in zip(log, truth, strict=True):
            assert mover == true_mover
            if "@" in move and not move.startswith("goblin") and mover != viewer:
                assert seen == "?@" + move.split("@")[1]
            else:
                assert seen == move
    assert any(m == CHANCE for m, _ in truth)  # the setup's gold piles and races


def test_move_log_respects_look_at_face_down() -> None:
    state = boardrules.load("armadora", look_at_face_down=False).new_game(seed=1)
    state.apply("3@c2")
    assert state.history_view(0)[-1] == (0, "?@c2")
    shown = boardrules.load("armadora").new_game(seed=1)
    shown.apply("3@c2")
    assert shown.history_view(0)[-1] == (0, "3@c2")


def test_redacted_or_forged_records_are_refused() -> None:
    state = played()
    with pytest.raises(InvalidStateError):
        replay(game_record(state, viewer=0))
    record = game_record(state)
    for change in (
        {"format": "x"}, {"game": "chess"}, {"options": {"players": 9}},
        {"options": {"board": "/etc/passwd"}}, {"rules_version": "0.1"},
        {"moves": [[0, "9@z9"]]}, {"moves": [[1, record["moves"][0][1]]]}, {"moves": "x"},
        {"moves": [["junk"]]},
    ):
        with pytest.raises(InvalidStateError):
            replay({**record, **change})
    with pytest.raises(TypeError):
        replay("not a record")  # type: ignore[arg-type]


def test_record_carries_the_outcome() -> None:
    state = boardrules.load("armadora").new_game(seed=2)
    state.apply("1@a1")
    state.apply("pass")
    state.apply("pass")
    record = game_record(state, viewer=1)
    outcome = state.outcome()
    assert outcome is not None
    assert record["outcome"]["winners"] == list(outcome.winners)
    assert record["outcome"]["reason"] == "all_passed"
    assert game_record(boardrules.load("armadora").new_game(seed=2))["outcome"] is None


def test_history_view_checks_its_player() -> None:
    state = played()
    with pytest.raises(ValueError):
        state.history_view(5)
    with pytest.raises(TypeError):
        state.history_view("0")  # type: ignore[arg-type]
